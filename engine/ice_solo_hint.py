"""A move suggestion for Ice Solo (imported only when a hint is asked for).

Nesting: every cell gets a value from its own stack alone:

* a clean nest is worth 100;
* a cell whose bottom piece is a large can still become clean ("alive"):
  10, 30 or 55 for a large, large+medium or full nest of one colour at the
  bottom, minus 6 for each piece stacked above that good part (it has to
  come off again);
* any other cell (empty, or its large has left, or a full nest stands above
  something else) can never be clean: -40, whatever lies on it, which makes
  it a free dump for pieces that are in the way.

A move changes two cells, so its gain is the change of those two values:
the source's new value is worked out once per source cell, the target's in
O(1) from per-cell facts gathered once per hint (the good run ``k``, the
pieces above it). Bounded lookahead: the best two moves by gain also count
(at 9/10) the best gain the piece they uncover could make next, in its row
or column. The best total wins (first found on ties). The reverse of the
previous move is skipped unless it is the only move, so following the hint
does not shuttle a piece back and forth. When nothing gains or keeps the
value, the hint is ``end``.

Towering: complete a tower if possible (a small onto a medium), else put a
medium on a large, else remix. No lookahead (the line-of-sight scan is the
expensive part of that phase).

Cost of a nesting hint: 25 cell valuations, then for each cell with a
movable top its w + 3 row and column partners, O(1) each, and 2 x (w + 3)
more for the lookahead: no list of moves is built.
"""

from engine.ice_solo import END, REMIX, P_TOWER, NONE, top_locked

_GOOD = (0, 10, 30, 55)
EXTRA = 6      # per piece piled above a cell's good run
DEAD = -40     # a cell that can never be clean
CLEAN = 100
AHEAD = 9      # lookahead weight, in tenths


def cell_value(st, n, x):
    """Value of the stack ``st[:n]`` with ``x`` on top (``x`` NONE: nothing);
    read in place, so trying a move allocates nothing."""
    m = n + (0 if x == NONE else 1)
    if m == 0:
        return DEAD
    b = st[0] if n else x
    if b & 3 != 3:
        return DEAD
    k = 1
    if m > 1 and (st[1] if n > 1 else x) == b - 1:          # same colour, one size down
        k = 2
        if m > 2 and (st[2] if n > 2 else x) == b - 2:
            k = 3
            if m == 3:
                return CLEAN               # clean
    # a full nest higher up locks the cell for good
    for i in range(k, m - 2):
        p = st[i]                          # i + 2 < m, so i < n
        if (p & 3 == 3 and st[i + 1] == p - 1 and
                (st[i + 2] if i + 2 < n else x) == p - 2):
            return DEAD
    return _GOOD[k] - EXTRA * (m - k)


def _land(b, p, k, extra, val):
    """Change in value of a cell (stack ``b``, valued ``val``; ``k``/``extra``
    from :func:`_info`, k 0 for a dead cell) when ``p`` lands on it: O(1)."""
    if k == 0:
        return 0                          # dead stays dead (-40)
    if extra == 0 and k < 3 and p == b[0] - k:
        return (CLEAN if k == 2 else _GOOD[k + 1]) - val
    n = len(b)
    if (p & 3 == 1 and n >= 2 and b[n - 1] == p + 1 and b[n - 2] == p + 2 and
            n - 2 >= k):
        return DEAD - val                  # a full nest locked above: dead
    return _GOOD[k] - EXTRA * (extra + 1) - val


_PART = {}


def partners(w):
    """For a grid ``w`` wide (5 rows): bytes holding, for each cell, the
    w + 3 other cells of its column and row (built once per width)."""
    t = _PART.get(w)
    if t is None:
        n = w * 5
        out = bytearray()
        for s in range(n):
            for x in range(s % w, n, w):
                if x != s:
                    out.append(x)
            for x in range(s - s % w, s - s % w + w):
                if x != s:
                    out.append(x)
        t = bytes(out)
        _PART[w] = t
    return t


def _k(st):
    """Length of the one-colour large/medium/small run at the bottom of a
    cell that can still become clean."""
    n = len(st)
    if n > 1 and st[1] == st[0] - 1:
        if n > 2 and st[2] == st[0] - 2:
            return 3
        return 2
    return 1


def nest_hint(state):
    """One pass over the moves (each scored in O(1) from per-cell facts
    gathered once), then a look one move further for the best two: the
    piece each of them uncovers, and its best landing."""
    g = state.grid
    w = state.width
    n = len(g)
    val = [0] * n
    kk = bytearray(n)
    ex = bytearray(n)
    for i in range(n):
        st = g[i]
        v = cell_value(st, len(st), NONE)
        val[i] = v
        if v != DEAD:
            k = _k(st)
            kk[i] = k
            ex[i] = len(st) - k
    part = partners(w)
    np = w + 3
    last = -1
    if len(state.hist) >= 2 and not state.hist[-2] & 0x80:
        last = ((state.hist[-2] << 8) | state.hist[-1]) & 0x7FFF
    # the reverse of the previous move, as grid cells
    bs = state._g(last & 63) if last >= 0 else -1
    bt = state._g(last >> 6) if last >= 0 else -1
    # best two (gain, source, target) by their own gain
    b1 = b2 = None
    t1 = t2 = -1
    s1 = s2 = -1
    count = 0
    for s in range(n):
        a = g[s]
        na = len(a)
        if not na or top_locked(a):
            continue
        p = a[na - 1]
        small = p & 3 == 1
        c = p >> 2
        leave = None
        for j in range(s * np, s * np + np):
            t = part[j]
            b = g[t]
            if b:
                if b[-1] >> 2 != c:
                    continue
            elif not small:
                continue
            if leave is None:       # worked out once a move is found
                leave = cell_value(a, na - 1, NONE) - val[s]
            gain = leave + (_land(b, p, kk[t], ex[t], val[t]) if b else 0)
            count += 1
            if s == bs and t == bt:
                continue
            if b1 is None or gain > b1:
                b2 = b1
                s2 = s1
                t2 = t1
                b1 = gain
                s1 = s
                t1 = t
            elif b2 is None or gain > b2:
                b2 = gain
                s2 = s
                t2 = t
    if b1 is None:
        if count:
            return (last & 63) * 64 + (last >> 6)   # only going back is left
        return END
    best = 10 * b1 + AHEAD * _uncovered(state, g, s1, t1, val, kk, ex)
    s = s1
    t = t1
    if b2 is not None:
        x = 10 * b2 + AHEAD * _uncovered(state, g, s2, t2, val, kk, ex)
        if x > best:
            best = x
            s = s2
            t = t2
    if best < 0:
        return END
    return state._a(s) * 64 + state._a(t)


def _uncovered(state, g, s, tg, val, kk, ex):
    """The best gain (at least 0) of the piece uncovered at ``s`` once its
    top has gone to cell ``tg``: the bounded lookahead."""
    a = g[s]
    na = len(a) - 1          # the stack at s after the move
    if na == 0:
        return 0
    q = a[na - 1]
    if (na >= 3 and q & 3 == 1 and a[na - 2] == q + 1 and a[na - 3] == q + 2):
        return 0             # the uncovered piece is a nest's small
    leave = cell_value(a, na - 1, NONE) - cell_value(a, na, NONE)
    np = state.width + 3
    part = partners(state.width)
    best = 0
    for j in range(s * np, s * np + np):
        t = part[j]
        if t == tg:
            continue         # changed by the move itself; not counted
        b = g[t]
        if b:
            if b[-1] >> 2 != q >> 2:
                continue
            gain = leave + _land(b, q, kk[t], ex[t], val[t])
        elif q & 3 == 1:
            gain = leave
        else:
            continue
        if gain > best:
            best = gain
    return best


def tower_hint(state):
    moves = state._tower_moves(False)
    if not moves:
        return REMIX
    for m in moves:
        if state.lo[m >> 6] & 3 == 1:
            return m
    return moves[0]


def hint(state):
    if state.phase == P_TOWER:
        return tower_hint(state)
    return nest_hint(state)
