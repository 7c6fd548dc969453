"""IceTowers' device player (see "The bot" in docs/games/icetowers.md).

It values every move one ply ahead by the pips it moves between colours,
its own gain against everyone else's, less the risk that an opponent's free
pieces cap its tallest tower after it; it passes when no move beats
passing, and it never plays into a position already seen. Loaded by
``Game.think`` when a bot first thinks, so a table of people never compiles
it.
"""

from engine.ice_towers import PASS, CAP, SPLIT, MINE, SET_DOWN, HEIGHTS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# a bot passes once this many moves have been played since the deal, so a
# table of bots always ends by the passes
BOT_LIMIT = const(150)
# what a free piece is worth as ammunition, by size (pips, doubled like
# the bot's values): a small caps any top, a large only a large
AMMO = (0, 5, 2, 0)


def think(st):
    """The bot's move for ``st`` (an ice_towers Game), a bounded slice of
    work per ``next()``; the last value yielded is the chosen action (None
    in the deal and at the end)."""
    me = st.to_move()
    if me < 0:
        yield None
        return
    if st.moves >= BOT_LIMIT:
        yield PASS
        return
    n = st.players
    cells = st.cells
    ncell = len(cells)
    # weight of a pip per colour: N - 1 for me, -1 for another seat,
    # 0 for the ghost; a move's gain is the sum of weight x pips moved
    weight = [-1] * st.stashes
    weight[me] = n - 1
    if st.ghost:
        weight[n] = 0
    # pass A: my free pieces (a cell per size); the opponents' "ammo",
    # the pieces they could cap with next: free ones, counted by size
    free = [-1, -1, -1, -1]
    ammo = [0, 0, 0, 0]
    for i in range(ncell):
        t = cells[i]
        if len(t) == 1:
            c = t[0] >> 2
            if c == me:
                if free[t[0] & 3] < 0:
                    free[t[0] & 3] = i
            elif c < n:
                ammo[t[0] & 3] += 1
    yield None
    # pass B: targets, my towers' exposure, mine sources, splits, and
    # the opponents' minable pieces (more ammo)
    exposed = [0, 0, 0, 0, 0]   # my largest tower with a top >= size
    targets = []
    sources = []
    splits = []
    count = [0] * st.stashes
    least = [0] * st.stashes
    side = st.side
    for i in range(ncell):
        if i and i % side == 0:
            yield None          # a row a slice
        t = cells[i]
        if not t:
            continue
        top = t[-1]
        tc = top >> 2
        total = 0
        for c in range(st.stashes):
            count[c] = 0
            least[c] = 3
        for pc in t:
            s = pc & 3
            total += s
            c = pc >> 2
            count[c] += 1
            if s < least[c]:
                least[c] = s
        if tc == me:
            for s in range(1, (top & 3) + 1):
                if total > exposed[s]:
                    exposed[s] = total
        else:
            z = top & 3 if len(t) == 1 and tc < n else 0
            targets.append((i, total, tc, top & 3, z))
            if count[me] >= 2:
                sources.append(i)
        for c in range(n):
            if c != me and c != tc and count[c] >= 2:
                # a piece that seat could mine here (the smallest is
                # the one that counts: it reaches the most tops)
                ammo[least[c]] += 1
        # splits: the lower part (heights 1..h-1) passes from tc to c
        low = t[0] & 3
        for h in range(1, len(t)):
            c = t[h] >> 2
            if c != me and t[h - 1] >> 2 == c and weight[c] > weight[tc]:
                splits.append((low * (weight[c] - weight[tc]),
                               SPLIT + st._c9(i) * HEIGHTS + h + 1))
            low += t[h] & 3
    # the risk of a position: the largest of my towers an opponent's
    # ammo can cap next, its pips counted as lost to them (x N)
    amin = 1
    while amin < 4 and not ammo[amin]:
        amin += 1
    risk = exposed[amin] * n
    # pass C: the best two targets per size, each valued by its gain
    # less the risk after the piece lands there (values doubled: the
    # risk counts half)
    best = [None, [-99999, -1, -99999, -1], [-99999, -1, -99999, -1],
            [-99999, -1, -99999, -1]]
    k = 0
    for i, total, tc, ts, z in targets:
        gain = 2 * total * (weight[me] - weight[tc])
        a = amin
        if z:
            gain += 2 * AMMO[z]
            # capping an opponent's free piece takes it out of the ammo
            ammo[z] -= 1
            a = 1
            while a < 4 and not ammo[a]:
                a += 1
            ammo[z] += 1
        for s in range(1, ts + 1):
            th = exposed[a]
            if s >= a and total + s > th:
                th = total + s
            v = gain - th * n
            b = best[s]
            if v > b[0]:
                b[2] = b[0]
                b[3] = b[1]
                b[0] = v
                b[1] = i
            elif v > b[2]:
                b[2] = v
                b[3] = i
        k += 1
        if k % 16 == 0:
            yield None
    cands = []
    for s in (1, 2, 3):
        b = best[s]
        if free[s] >= 0 and b[1] >= 0:
            cands.append((b[0] - 2 * AMMO[s] * (n - 1), 2,
                          CAP + st._c9(free[s]) * 81 + st._c9(b[1])))
    # mines: each of my pieces in each source, onto the best other target
    for i in sources:
        t = cells[i]
        w = 2 * (weight[me] - weight[t[-1] >> 2])
        for h in range(len(t)):
            pc = t[h]
            if pc >> 2 != me:
                continue
            s = pc & 3
            base = MINE + (st._c9(i) * HEIGHTS + h + 1) * 82
            b = best[s]
            if b[1] >= 0 and b[1] != i:
                cands.append((b[0] + s * w, 1, base + st._c9(b[1])))
            elif b[1] == i and b[3] >= 0:
                cands.append((b[2] + s * w, 1, base + st._c9(b[3])))
            else:
                # no tower but the source takes it: it is set down
                th = exposed[amin]
                if s >= amin and s > th:
                    th = s
                cands.append((s * w - th * n + 2 * AMMO[s] * (n - 1), 1,
                              base + SET_DOWN))
    for v, a in splits:
        cands.append((2 * v - risk, 0, a))
    yield None
    # the best move first, if it beats passing (whose value is the risk
    # as it stands); one that makes a position seen before is skipped,
    # so bots never cause a repetition
    cands.sort()
    yield None
    floor = -risk
    if st.passes == n - 1:
        # a pass ends the game now: take it when it wins outright,
        # else play on with any move
        sc = st.scores()
        top = 0
        for p in range(n):
            if p != me and sc[p] >= top:
                top = sc[p]
        if sc[me] > top:
            yield PASS
            return
        floor = -999999
    k = len(cands) - 1
    while k >= 0:
        if cands[k][0] <= floor:
            break
        a = cands[k][2]
        if not st._seen_after(a):
            yield a
            return
        k -= 1
        yield None
    yield PASS
