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
skipped unless nothing else is left (then the hint is the newest of those
take-backs that is legal), so following the hint does not go round in
circles. When nothing gains or keeps the value, the hint is
``end`` -- unless a move would still raise the score (a clean nest, a
rainbow line, all nests clean): then the move that raises it most
(:func:`raising`), so the hint never ends the game with points on the
table.

Towering: complete a tower if possible (a small onto a medium), else put a
medium on a large, else remix: the first such move found (pieces taken
kind by kind, each kind in reading order), with no lookahead (the
line-of-sight scan is the expensive part of that phase, so the search
stops at its first move).

Cost of a nesting hint: 25 cell valuations (which also sort the cells by
their top's colour), then for each cell with a movable top the cells of
its top's colour (and the empty ones, for a small) twice, its own moves
and the uncovered piece's, O(1) each (bit sets of the cells, a table
look-up per landing); the 4 recent moves are taken out of a source's
targets before its loop: no list of moves is built. Ties go to the first
move in reading order of the source, then the column top to bottom, then
the row left to right.
"""

from engine.ice_solo_codes import END, REMIX, P_TOWER

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_GOOD = (0, 10, 30, 55)
EXTRA = const(6)      # per piece piled above a cell's good run
DEAD = const(-40)     # a cell that can never be clean
CLEAN = const(100)
AHEAD = const(9)      # lookahead weight, in tenths
RECENT = const(4)     # recent moves not taken back

# a one-bit int 1 << k (k < 36) -> k, looked up at (1 << k) % 37: 37 is a
# prime with 2 as a primitive root, so the 36 remainders differ
B37 = (b"\x00\x00\x01\x00\x02\x17\x00\x00\x03\x10\x18\x00\x00\x0b\x00\r"
       b"\x04\x07\x11\x00\x00\x16\x00\x0f\x00\n\x0c\x06\x00\x15\x0e\t\x05"
       b"\x14\x08\x13\x12")

_LINES = [None, None]   # per grid width (5, 4), once: see _lines


def _lines(w):
    """Per grid cell, the other cells of its row and column as a bit set
    (bit i for grid cell i; 25 bits at most, a small int on a board)."""
    ln = _LINES[w & 1 ^ 1]
    if ln is None:
        row = (1 << w) - 1
        col = 0
        for r in range(5):
            col |= 1 << (r * w)
        ln = []
        for s in range(5 * w):
            r = s // w
            ln.append((row << (r * w)) ^ (col << (s - r * w)))
        _LINES[w & 1 ^ 1] = ln
    return ln


def nest_hint(state):
    """One pass over the cells for their values (:func:`cells`), then the
    moves, each scored in O(1), plus the lookahead (:func:`moves`)."""
    return moves(state, cells(state))


def cells(state):
    """The first half of a nesting hint (a screen may run the halves in
    loop passes of their own): every cell's value, run and landing
    changes, the cells by their top's colour and the recent moves. Returns
    what :func:`moves` needs, as a list it keeps its best so far in.

    Cells are bits of small ints: per colour the cells it tops, and the
    empty ones. A source's targets are its row and column partners (a
    constant bit set per cell) ANDed with its top's colour (and the empty
    cells, for a small): only the moves themselves are visited, each found
    by a table look-up of its lowest bit. Everything is inline, as calls are
    the dear part on a board: per cell, one pass finds the bottom run ``k``
    (0: the cell is dead) and ``lk``, where the lowest full nest above that
    run starts; the value of the cell's first ``m`` pieces is then O(1):
    dead when m is 0, k is 0 or that nest lies within them, clean for a
    whole run of 3, else the run's worth less 6 per piece above it. A
    landing's change of value depends only on the target and the piece's
    size (its colour is the target's top colour): three numbers per cell,
    worked out in the same pass."""
    g = state.grid
    n = len(g)
    val = [0] * n
    kk = bytearray(n)
    lks = bytearray(n)
    # per size (1..3), per cell: the change of value when it lands there
    l1 = [0] * n
    l2 = [0] * n
    l3 = [0] * n
    land = [None, l1, l2, l3]
    good = _GOOD
    cm = [0] * 9            # per colour code, the cells it tops (bits)
    em = 0                  # the empty cells (bits)
    for i in range(n):
        st = g[i]
        m = len(st)
        if not m:
            val[i] = DEAD
            em |= 1 << i
            continue
        b = st[0]
        t = st[m - 1]
        cm[t >> 2] |= 1 << i
        if b & 3 != 3:
            val[i] = DEAD
            continue
        k = 1
        if m > 1 and st[1] == b - 1:
            k = 2
            if m > 2 and st[2] == b - 2:
                k = 3
        lk = 255
        if m - 2 > k:
            for x in range(k, m - 2):
                q = st[x]
                if q & 3 == 3 and st[x + 1] == q - 1 and st[x + 2] == q - 2:
                    lk = x
                    break
        kk[i] = k
        lks[i] = lk
        if lk < 255:
            val[i] = DEAD
            continue                # land stays 0: dead stays dead
        e = m - k
        if e == 0 and k == 3:
            v = CLEAN
        else:
            v = good[k] - EXTRA * e
        val[i] = v
        # one more piece above: 6 less, or a clean nest's 100 down to 49
        d = -EXTRA if v < CLEAN else good[3] - EXTRA - CLEAN
        l1[i] = d
        l2[i] = d
        l3[i] = d
        if e == 0 and k < 3:
            # the next piece of the run: one size down, the same colour
            land[3 - k][i] = (CLEAN if k == 2 else good[k + 1]) - v
        elif e >= 2 and t & 3 == 2 and st[m - 2] == t + 1:
            # a small on a medium on its large: a full nest locked above
            l1[i] = DEAD - v
    # the last RECENT moves (grid cells), newest first: a move that takes
    # one of them back is skipped, so following the hint does not go round
    # in circles
    # (each kept as its reverse, target << 5 | source, so a move s -> t
    # is looked up as s << 5 | t)
    # (8-wide cell a is grid cell (a >> 3) * w + (a & 7))
    w = state.width
    h = state.hist
    back = []
    i = len(h) - 2
    while i >= 0 and len(back) < RECENT and not h[i] & 0x80:
        a = ((h[i] << 8) | h[i + 1]) & 0x7FFF
        if a < 4096:
            x = a & 63
            a >>= 6
            back.append(((x >> 3) * w + (x & 7)) << 5 | (a >> 3) * w + (a & 7))
        i -= 2
    # and the best move so far (score, source, target) and the moves seen
    return [val, kk, lks, land, cm, em, back, -0x7FFF, -1, -1, 0]


def moves(state, facts, s0=0, s1=99):
    """The second half of a nesting hint: the best move, given the facts
    :func:`cells` gathered (for each source cell, once, the best next gain
    of the piece a move from it uncovers). With ``s0`` and ``s1`` only the
    moves from cells ``s0`` to ``s1 - 1`` (a screen may take the cells in
    two loop passes, in order): the best so far is kept in ``facts``, and
    the hint comes once the last cell is done (None before)."""
    val, kk, lks, land, cm, em, back, best, bs_, bt_, count = facts
    g = state.grid
    w = state.width
    n = len(g)
    lines = _lines(w)
    b37 = B37
    good = _GOOD
    for s in range(s0, s1 if s1 < n else n):
        a = g[s]
        na = len(a)
        if not na:
            continue
        p = a[na - 1]
        small = p & 3 == 1
        if (small and na >= 3 and a[na - 2] == p + 1 and
                a[na - 3] == p + 2):
            continue                # a full nest's small never moves
        ls = lines[s]
        c = ls & cm[p >> 2]
        if small:
            c |= ls & em
        if not c:
            continue
        k = kk[s]
        lk = lks[s]
        m = na - 1          # s once its top has left
        if m == 0 or k == 0 or lk + 2 < m:
            after = DEAD
        elif k >= m:
            after = CLEAN if m == 3 else good[m]
        else:
            after = good[k] - EXTRA * (m - k)
        leave = 10 * (after - val[s])
        # the lookahead: the best gain (at least 0) the piece under the
        # top could make next in its row or column, the cell of that best
        # (ut), and the second best (for a move that lands right there)
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
                lq = land[qs]
                ys = ls & cm[q >> 2]
                if qs == 1:
                    ys |= ls & em       # an empty cell: land stays 0
                while ys:
                    y = ys & -ys
                    ys ^= y
                    y = b37[y % 37]
                    gain = lv + lq[y]
                    if gain > u1:
                        u2 = u1
                        u1 = gain
                        ut = y
                    elif gain > u2:
                        u2 = gain
        lp = land[p & 3]
        count = 1
        # the recent moves' targets from here leave the set at once, so
        # the loop below tests nothing per move but the score
        for b in back:
            if b >> 5 == s:
                c &= ~(1 << (b & 31))
        x1 = leave + AHEAD * u1
        x2 = leave + AHEAD * u2     # a move onto the lookahead's own cell
        while c:
            t = c & -c
            c ^= t
            t = b37[t % 37]
            x = (x2 if t == ut else x1) + 10 * lp[t]
            if x > best:
                best = x
                bs_ = s
                bt_ = t
    if s1 < n:
        facts[7] = best
        facts[8] = bs_
        facts[9] = bt_
        facts[10] = count
        return None
    if bs_ < 0:
        if count:
            # only taking back a recent move is left: the newest take-back
            # that is legal (the last move's may not be: a medium or large
            # cannot go back into the empty cell it came from)
            for a in back:
                if state._nest_ok(a >> 5, a & 31) == 0:
                    return state._a(a >> 5) * 64 + state._a(a & 31)
        return raising(state)
    if best < 0:
        return raising(state)
    return state._a(bs_) * 64 + state._a(bt_)


def raising(state):
    """The legal nesting move that raises the score most (the first found
    on ties, in reading order of source then target), or END if none does.
    Asked only when the heuristic would say ``end``: each legal move is
    made on the grid in place, the score read, and the move taken back."""
    g = state.grid
    n = len(g)
    base = state.scores()[0]
    best = base
    found = END
    for s in range(n):
        a = g[s]
        if not a:
            continue
        for t in range(n):
            if state._nest_ok(s, t):
                continue
            b = g[t]
            b.append(a.pop())
            state._breakdown = None
            x = state.scores()[0]
            a.append(b.pop())
            state._breakdown = None
            if x > best:
                best = x
                found = state._a(s) * 64 + state._a(t)
    return found


def tower_part(state, smalls):
    """Half of a towering hint: the first move found of a small (which
    completes a tower) or of a medium (onto a large), or -1 (a screen may
    run the halves in two loop passes)."""
    if smalls:
        moves = state._tower_moves(True, -1, 4, 8)
    else:
        moves = state._tower_moves(True, -1, 0, 4)
    return moves[0] if moves else -1


def tower_hint(state):
    """The first move found that completes a tower, else the first that
    puts a medium on a large, else remix: each search stops at its first
    move, so a hint costs less than the legal list."""
    a = tower_part(state, True)
    if a < 0:
        a = tower_part(state, False)
    return REMIX if a < 0 else a


def hint(state):
    if state.phase == P_TOWER:
        return tower_hint(state)
    return nest_hint(state)
