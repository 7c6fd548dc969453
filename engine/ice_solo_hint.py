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
pieces above it). Bounded lookahead, one move deep: every move also counts,
at 9/10, the best gain the piece it uncovers could make next in its row or
column (worked out once per source cell). Most moves early on gain nothing
by themselves, so this is what tells them apart. The best total wins (first
found on ties). A move that takes back one of the last four moves is
skipped unless nothing else is left, so following the hint does not go
round in circles. When nothing gains or keeps the value, the hint is
``end``.

Towering: complete a tower if possible (a small onto a medium), else put a
medium on a large, else remix: the first such move found (pieces taken
kind by kind, each kind in reading order), with no lookahead (the
line-of-sight scan is the expensive part of that phase, so the search
stops at its first move).

Cost of a nesting hint: 25 cell valuations (which also sort the cells by
their top's colour), then for each cell with a movable top the cells of
its top's colour (and the empty ones, for a small) twice, its own moves
and the uncovered piece's, O(1) each (a row or column test on the 8-wide
numbers), each move checked against the 4 recent ones: no list of moves
is built. Ties go to the first move in reading order of the source, then
the column top to bottom, then the row left to right.
"""

from engine.ice_solo import END, REMIX, P_TOWER, NONE, A8_5, A8_4

_GOOD = (0, 10, 30, 55)
EXTRA = 6      # per piece piled above a cell's good run
DEAD = -40     # a cell that can never be clean
CLEAN = 100
AHEAD = 9      # lookahead weight, in tenths
RECENT = 4     # recent moves not taken back


def _ahead(s, t, u, w):
    """Whether ``t`` comes before ``u`` among the moves from ``s`` in the
    order the hint breaks ties by: the column top to bottom, then the
    row left to right."""
    ct = t % w == s % w
    if ct != (u % w == s % w):
        return ct
    return t < u


def nest_hint(state):
    """One pass over the moves, each scored in O(1) from per-cell facts
    gathered once, plus the lookahead: for each source cell, once, the best
    next gain of the piece a move from it uncovers.

    Everything is inline, as calls are the dear part on a board: per cell,
    one pass finds the bottom run ``k`` (0: the cell is dead) and ``lk``,
    where the lowest full nest above that run starts; the value of the
    cell's first ``m`` pieces is then O(1): dead when
    m is 0, k is 0 or that nest lies within them, clean for a whole run of
    3, else the run's worth less 6 per piece above it. A landing's change of
    value depends only on the target and the piece's size
    (its colour is the target's top colour): three numbers per cell, worked
    out in the same pass."""
    g = state.grid
    w = state.width
    n = len(g)
    val = [0] * n
    kk = bytearray(n)
    lks = bytearray(n)
    tops = bytearray(n)     # colour of each cell's top piece, NONE if empty
    land = [0] * (4 * n)    # cell * 4 + size: change when that size lands
    good = _GOOD
    by = [None] * 9         # per colour code, the cells it tops
    emp = bytearray()       # the empty cells
    for i in range(n):
        st = g[i]
        m = len(st)
        if not m:
            tops[i] = NONE
            val[i] = DEAD
            emp.append(i)
            continue
        b = st[0]
        t = st[m - 1]
        tops[i] = t >> 2
        x = by[t >> 2]
        if x is None:
            by[t >> 2] = bytearray((i,))
        else:
            x.append(i)
        if b & 3 != 3:
            val[i] = DEAD
            continue
        k = 1
        if m > 1 and st[1] == b - 1:
            k = 2
            if m > 2 and st[2] == b - 2:
                k = 3
        lk = 255
        for x in range(k, m - 2):
            q = st[x]
            if q & 3 == 3 and st[x + 1] == q - 1 and st[x + 2] == q - 2:
                lk = x
                break
        kk[i] = k
        lks[i] = lk
        if lk < 255:
            v = DEAD
        elif k == 3 and m == 3:
            v = CLEAN
        else:
            v = good[k] - EXTRA * (m - k)
        val[i] = v
        if v == DEAD:
            continue                # land stays 0: dead stays dead
        e = m - k
        y = i * 4
        d = good[k] - EXTRA * (e + 1) - v     # one more piece above
        land[y + 1] = d
        land[y + 2] = d
        land[y + 3] = d
        if e == 0 and k < 3:
            # the next piece of the run: one size down, the same colour
            land[y + 3 - k] = (CLEAN if k == 2 else good[k + 1]) - v
        elif m - 2 >= k and t & 3 == 2 and st[m - 2] == t + 1:
            # a small on a medium on its large: a full nest locked above
            land[y + 1] = DEAD - v
    a8 = A8_5 if w == 5 else A8_4
    np = w + 3
    # the last RECENT moves (grid cells), newest first: a move that takes
    # one of them back is skipped, so following the hint does not go round
    # in circles
    # (each kept as its reverse, target << 5 | source, so a move s -> t
    # is looked up as s << 5 | t)
    h = state.hist
    back = []
    i = len(h) - 2
    while i >= 0 and len(back) < RECENT and not h[i] & 0x80:
        a = ((h[i] << 8) | h[i + 1]) & 0x7FFF
        if a < 4096:
            back.append(state._g(a & 63) << 5 | state._g(a >> 6))
        i -= 2
    last = -1
    if back:
        last = state._a(back[0] & 31) * 64 + state._a(back[0] >> 5)
    best = None
    bs_ = bt_ = 0
    count = 0
    for s in range(n):
        c = tops[s]
        if c == NONE:
            continue
        a = g[s]
        na = len(a)
        p = a[na - 1]
        small = p & 3 == 1
        if (small and na >= 3 and a[na - 2] == p + 1 and
                a[na - 3] == p + 2):
            continue                # a full nest's small never moves
        s8 = a8[s]
        cells = by[c]
        leave = None
        for t in (cells + emp if small else cells):
            x = a8[t] ^ s8
            if not x or (x > 7 and x & 7):
                continue            # itself, or not in its row or column
            if leave is None:       # worked out once a move is found
                k = kk[s]
                lk = lks[s]
                m = na - 1          # s once its top has left
                if m == 0 or k == 0 or lk + 2 < m:
                    after = DEAD
                elif k >= m:
                    after = CLEAN if m == 3 else good[m]
                else:
                    after = good[k] - EXTRA * (m - k)
                leave = after - val[s]
                # the lookahead: the best gain (at least 0) the piece
                # under the top could make next in its row or column, the
                # cell of that best (ut), and the second best (for a move
                # that lands right there); gains capped at 255. (Equal
                # best gains give the same scores in any order.)
                u1 = u2 = 0
                ut = 255
                if m:
                    q = a[m - 1]
                    if not (m >= 3 and q & 3 == 1 and a[m - 2] == q + 1 and
                            a[m - 3] == q + 2):      # not a nest's small
                        m -= 1      # s once the uncovered piece leaves too
                        if m == 0 or k == 0 or lk + 2 < m:
                            lv = DEAD - after
                        elif k >= m:
                            lv = (CLEAN if m == 3 else good[m]) - after
                        else:
                            lv = good[k] - EXTRA * (m - k) - after
                        qs = q & 3
                        qcells = by[q >> 2]
                        if qcells is not None:
                            for y in qcells:
                                x = a8[y] ^ s8
                                if not x or (x > 7 and x & 7):
                                    continue
                                gain = lv + land[y * 4 + qs]
                                if gain > 255:
                                    gain = 255
                                if gain > u1:
                                    u2 = u1
                                    u1 = gain
                                    ut = y
                                elif gain > u2:
                                    u2 = gain
                        if qs == 1 and emp:
                            # the empty cells (s itself is not empty)
                            for y in emp:
                                x = a8[y] ^ s8
                                if x > 7 and x & 7:
                                    continue
                                gain = lv if lv < 255 else 255
                                if gain > u1:
                                    u2 = u1
                                    u1 = gain
                                    ut = y
                                elif gain > u2:
                                    u2 = gain
            count += 1
            if back and (s << 5 | t) in back:
                continue
            x = 10 * (leave + land[t * 4 + (p & 3)]) + AHEAD * (
                u2 if t == ut else u1)
            if best is None or x > best or (x == best and s == bs_ and
                                             _ahead(s, t, bt_, w)):
                best = x
                bs_ = s
                bt_ = t
    if best is None:
        if count:
            return (last & 63) * 64 + (last >> 6)   # only going back is left
        return END
    if best < 0:
        return END
    return state._a(bs_) * 64 + state._a(bt_)


def tower_hint(state):
    """The first move found that completes a tower, else the first that
    puts a medium on a large, else remix: each search stops at its first
    move, so a hint costs less than the legal list."""
    moves = state._tower_moves(True, -1, 4, 8)     # smalls
    if not moves:
        moves = state._tower_moves(True, -1, 0, 4)    # mediums
    if not moves:
        return REMIX
    return moves[0]


def hint(state):
    if state.phase == P_TOWER:
        return tower_hint(state)
    return nest_hint(state)
