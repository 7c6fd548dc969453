"""Pointsettia's device opponent: a one-ply judgement of every plain move.

The value of a position to the player P to move is

- the runs of the rim as it stands (empty rim positions break runs), P's
  counted plus and the opponent's minus: exactly the final score
  difference once the plant is full;
- plus a stash term: a green or red piece spent is worth ``SPEND`` per pip
  to its colour's owner lost (it can no longer score on the rim), so
  burying the opponent's large pieces inside the plant is worth something
  and spending one's own anywhere but the rim costs something;
- plus small preferences for where a piece goes inside the plant: the
  opponent's pieces near the root, where clear leaves seldom reach them,
  one's own at distance 3, where a clear leaf below scores them.

A plain move inside the plant changes no filled rim position, so its
value is the stash term and the preference alone. A move onto the rim
changes one position: its value is the change of the runs beside it,
worked out from the runs as they stand (merging the left run, the new
position and the right run), linear in the pips of the piece played. So a
whole move costs one pass over the rim and a few operations per empty
slot. Of the powers it tries only the clear swap onto the parent of a rim
slot that holds its own piece (bringing that piece down to the rim),
judged by recounting the runs; the others are left to people.

``think`` yields between slices of a few slots (or one swap) each, so the app can run a
loop pass between them.
"""

from engine.pointsettia_plant import (RIM, PARENT, DEPTH, CLEAR, BLACK,
                                      rim_owners, runs)

# the stash term's weight per pip, in eighths of a point
SPEND = 3
# eighths: where a piece goes inside the plant (by distance 1..3 from the
# root), for the mover's own colour and the opponent's
OWN_INSIDE = (0, -1, 0, 2)
OPP_INSIDE = (0, 2, 1, -1)
# eighths of a point per point the opponent would gain on a rim slot that a
# move fills with something else
DENY = 16
# eighths of a point per point the opponent could gain (with a large piece)
# on the two rim slots a piece at distance 3 opens
OPEN = 4
# at most this many clear swaps judged a move
SWAPS = 16
# empty rim slots judged per slice
SLICE = 4


def _runs(plant, owner, scored):
    """The runs of the rim as it stands: for each rim index the run it is
    in (an index into the lists returned, or -1), and per run its owner,
    distinct scored positions, pips, black-parent count and length."""
    at = [-1] * 24
    info = []
    first = 0
    while first < 24 and owner[first] == owner[first - 1]:
        first += 1
    if first == 24:
        first = 0
    k = 0
    while k < 24:
        s = (first + k) % 24
        o = owner[s]
        n = 1
        while n < 24 - k and owner[(s + n) % 24] == o:
            n += 1
        if o != 0xFF:
            seen = []
            pips = ded = 0
            for j in range(n):
                r = (s + j) % 24
                at[r] = len(info)
                p = scored[r]
                if p not in seen:
                    seen.append(p)
                    pips += plant[p] & 3
                    if p and plant[PARENT[p]] >> 2 == BLACK:
                        ded += 1
            info.append((o, seen, pips, ded, n))
        k += n
    return at, info


def _worth(pips, length):
    return pips * length if length > 0 else 0


def _merge(plant, info, left, right, owner, q):
    """Signed change (for ``owner``'s side: + it, the caller signs it) of
    putting a position scoring for ``owner`` through piece position ``q``
    (pips left out: returns ``(base, per_pip)``) between runs ``left`` and
    ``right`` (indices into ``info`` or -1)."""
    length = 1
    pips = 0
    ded = 0
    seen = []
    before = 0
    runs = (left, right) if left != right else (left,)
    for i in runs:
        if i < 0:
            continue
        o, ps, rp, rd, n = info[i]
        if o != owner:
            continue
        before += _worth(rp, n - rd)
        length += n
        for p in ps:
            if p not in seen:
                seen.append(p)
                pips += plant[p] & 3
                if p and plant[PARENT[p]] >> 2 == BLACK:
                    ded += 1
    if q in seen:
        # the piece scored already counts (a clear leaf under a piece
        # scored beside it): only the length grows
        v = _worth(pips, length - ded)
        return v - before, 0
    if q and plant[PARENT[q]] >> 2 == BLACK:
        ded += 1
    eff = length - ded
    if eff <= 0:
        return -before, 0
    # (pips + x) * eff - before, for the new piece's x pips
    return pips * eff - before, eff


def think(st):
    """Generator: the bot's move for whoever is to move in ``st``."""
    if st.moves >= 45:
        yield None
        return
    me = st.moves & 1
    opp = 1 - me
    plant = st.plant
    stash = st.stash
    owner, scored = rim_owners(plant)
    at, info = _runs(plant, owner, scored)
    yield None
    # best inside move: the opponent's largest piece, else a clear or
    # black one, else one's own smallest (scores in eighths)
    inside = []
    for c, pref in ((opp, OPP_INSIDE), (me, OWN_INSIDE)):
        sign = 1 if c == opp else -1
        for size in (3, 2, 1):
            k = c << 2 | size
            if stash[k]:
                inside.append((sign * SPEND * size, k, pref))
    for c in (CLEAR, BLACK):
        for size in (1, 2, 3):
            k = c << 2 | size
            if stash[k]:
                inside.append((-size, k, None))
                break
    best = None
    best_value = -1 << 30
    done = 0
    swaps = []
    for s in range(1, 46):
        if plant[s] or not plant[PARENT[s]]:
            continue
        d = DEPTH[s]
        if d < 4:
            # a piece at distance 3 opens two rim slots, the opponent first
            opening = 0
            if d == 3 and OPEN:
                for c in (2 * s + 2, 2 * s + 3):
                    r = c - RIM
                    theirs = _merge(plant, info, at[(r - 1) % 24],
                                    at[(r + 1) % 24], opp, c)
                    opening += theirs[0] + theirs[1] * 3
                opening *= OPEN
                done += 1
            for v, k, pref in inside:
                v -= opening
                if pref is not None:
                    v += pref[d]
                if v > best_value:
                    best_value = v
                    best = k << 9 | s << 3
            if d == 3 and OPEN and done % SLICE == 0:
                yield None
            continue
        r = s - RIM
        left = at[(r - 1) % 24]
        right = at[(r + 1) % 24]
        # one's own piece, the opponent's, a clear one (scoring for whoever
        # its first non-clear ancestor belongs to), a black one
        # what the opponent would make of this slot with its largest
        # piece: filling it with anything else denies them a share of that
        theirs = _merge(plant, info, left, right, opp, s)
        deny = 0
        for size in (3, 2, 1):
            if stash[opp << 2 | size]:
                deny = DENY * (theirs[0] + theirs[1] * size)
                break
        for c in (me, opp):
            base, slope = theirs if c == opp else _merge(plant, info, left, right, c, s)
            sign = 8 if c == me else -8
            for size in (1, 2, 3):
                k = c << 2 | size
                if stash[k]:
                    v = sign * (base + slope * size)
                    v += -SPEND * size + deny if c == me else SPEND * size
                    if v > best_value:
                        best_value = v
                        best = k << 9 | s << 3
        p = PARENT[s]
        while plant[p] >> 2 == CLEAR and p:
            p = PARENT[p]
        c = plant[p] >> 2
        for kc in (CLEAR, BLACK):
            for size in (1, 2, 3):
                k = kc << 2 | size
                if stash[k]:
                    v = -size + deny
                    if kc == CLEAR and c < CLEAR:
                        base, slope = _merge(plant, info, left, right, c, p)
                        v += (8 if c == me else -8) * (base + slope * (plant[p] & 3))
                    if v > best_value:
                        best_value = v
                        best = k << 9 | s << 3
                    break
        if plant[PARENT[s]] >> 2 == me:
            swaps.append((s, deny))
        done += 1
        if done % SLICE == 0:
            yield None
    # a clear piece onto the parent of a rim slot brings one's own piece
    # there down to the rim: judged by recounting the runs, one a slice
    w = 0
    for size in (1, 2, 3):
        if stash[CLEAR << 2 | size]:
            w = CLEAR << 2 | size
            break
    if w and swaps:
        now = _signed(plant, me)
        for s, deny in swaps[:SWAPS]:
            yield None
            v = 8 * (_signed(st.preview(w << 9 | s << 3 | 1), me) - now) - (w & 3) + deny
            if v > best_value:
                best_value = v
                best = w << 9 | s << 3 | 1
    yield best


def _signed(plant, me):
    """``me``'s run total less the opponent's, as the plant stands."""
    v = 0
    for run in runs(plant):
        v += run[3] if run[0] == me else -run[3]
    return v
