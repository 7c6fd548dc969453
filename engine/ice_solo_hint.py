"""A move suggestion for Ice Solo (imported only when a hint is asked for).

Nesting: every cell gets a value from its own stack alone, so a move changes
only two cells' values and is scored by that difference:

* a clean nest is worth 100;
* a cell whose bottom piece is a large can still become clean ("alive"):
  10, 30 or 55 for a large, large+medium or full nest of one colour at the
  bottom, minus 6 for each piece stacked above that good part (it has to
  come off again);
* any other cell (empty, or its large has left, or a full nest stands above
  something else) can never be clean: -40, whatever lies on it, which makes
  it a free dump for pieces that are in the way.

Lookahead is one reply deep and bounded: the best ``WIDE`` moves by their own
gain are each tried on the grid, the best gain of the following move is
added at 9/10 weight, and the best total wins (first found on ties). A move
that undoes the previous one is skipped unless it is the only one, so
following the hint does not shuttle a piece back and forth. When no move
gains or keeps the value, the hint is ``end``.

Towering: complete a tower if possible (a small onto a medium), else put a
medium on a large, else remix. No lookahead (the line-of-sight scan is the
expensive part of that phase).

Cost per nesting hint: one move scan (at most 25 cells x 8 partners) plus
``WIDE`` more scans, each pair costing two cell evaluations of a few steps.
"""

from engine.ice_solo import END, REMIX, P_TOWER, NONE

WIDE = 3
_GOOD = (0, 10, 30, 55)


def cell_value(st, n, x):
    """Value of the stack ``st[:n]`` with ``x`` on top (``x`` NONE: nothing);
    read in place, so trying a move allocates nothing."""
    m = n + (0 if x == NONE else 1)
    if m == 0:
        return -40
    b = st[0] if n else x
    if b & 3 != 3:
        return -40
    k = 1
    if m > 1 and (st[1] if n > 1 else x) == b - 1:          # same colour, one size down
        k = 2
        if m > 2 and (st[2] if n > 2 else x) == b - 2:
            k = 3
            if m == 3:
                return 100                 # clean
    # a full nest higher up locks the cell for good
    for i in range(k, m - 2):
        p = st[i]                          # i + 2 < m, so i < n
        if (p & 3 == 3 and st[i + 1] == p - 1 and
                (st[i + 2] if i + 2 < n else x) == p - 2):
            return -40
    return _GOOD[k] - 6 * (m - k)


def _gains(g, moves):
    """``[(gain, s, t)]`` for nesting moves given as (s, t) grid indices."""
    out = []
    for s, t in moves:
        a = g[s]
        b = g[t]
        na = len(a)
        nb = len(b)
        before = cell_value(a, na, NONE) + cell_value(b, nb, NONE)
        after = cell_value(a, na - 1, NONE) + cell_value(b, nb, a[na - 1])
        out.append((after - before, s, t))
    return out


def _moves(state):
    """Nesting moves as grid index pairs."""
    out = []
    for m in state._nest_moves(False):
        out.append((state._g(m >> 6), state._g(m & 63)))
    return out


def _best_gain(state):
    best = None
    for gain, s, t in _gains(state.grid, _moves(state)):
        if best is None or gain > best:
            best = gain
    return best if best is not None else 0


def nest_hint(state):
    g = state.grid
    moves = _moves(state)
    if not moves:
        return END
    last = -1
    if len(state.hist) >= 2 and not state.hist[-2] & 0x80:
        last = ((state.hist[-2] << 8) | state.hist[-1]) & 0x7FFF
    back = (last & 63) * 64 + (last >> 6) if last >= 0 else -1
    scored = _gains(g, moves)
    # the WIDE best first-move gains get a look one move further
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    best = None
    best_move = None
    for rank in range(len(order)):
        gain, s, t = scored[order[rank]]
        a = state._a(s) * 64 + state._a(t)
        if a == back and len(moves) > 1:
            continue            # the reverse of the previous move
        if rank < WIDE:
            src = g[s]
            dst = g[t]
            g[s] = src[:-1]
            g[t] = dst + src[-1:]
            total = 10 * gain + 9 * _best_gain(state)
            g[s] = src
            g[t] = dst
        else:
            total = 10 * gain
        if best is None or total > best:
            best = total
            best_move = a
    if best is None or best < 0:
        return END
    return best_move


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
