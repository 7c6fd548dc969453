"""Bag of Ice's bag and its scoring: the die's sizes, the bag's counts and
the best arrangement's value (a leaf: the engine, its bot and
tools/bag_of_ice_solver.py all read these)."""

LO = b"\x01\x02\x03\x01\x01\x02"   # a face's sizes (HI 0: one size)
HI = b"\x00\x00\x00\x02\x03\x03"
# the bag: count of each piece code (colour << 2 | size), r y g c p
FULL = (b"\x00\x01\x01\x01\x00\x00\x00\x00\x00\x02\x01\x01\x00\x02\x02\x01"
        b"\x00\x02\x02\x01\x00\x00\x00\x00\x00\x02\x01\x01")
TOTAL = b"\x00\x09\x07\x05"       # pyramids per size
COLS = b"\x00\x02\x03\x04\x06"    # the bag's colours r y g c p
# a one-colour tree's worth above a mixed one: (colour << 2, bonus) for
# yellow, green, cyan, purple
BONUS = b"\x08\x0a\x0c\x05\x10\x05\x18\x0a"


def counts(ps):
    """A count per piece code of the pieces ``ps``."""
    h = bytearray(28)
    for p in ps:
        h[p] += 1
    return h


def value(h):
    # Best arrangement's value of the non-red pyramids counted in ``h``.
    #
    # Why this sum is the maximum over all arrangements: a tree is one L, M
    # and S, so it turns 6 pips of leftovers into 10 (+4), and a one-colour
    # tree adds +10 (yellow, purple) or +5 (green, cyan) on top. Any
    # arrangement is therefore worth pips + 4 * trees + its one-colour
    # bonuses, where trees <= min(L, M, S) and there is at most one
    # one-colour tree per colour (the bag has one large of each), only for a
    # colour holding all three sizes. Both bounds are met at once: build the
    # one-colour tree of every such colour (each takes one piece of each
    # size, so there are never more than min(L, M, S)), then trees of any
    # remaining L, M, S until a size runs out (engine/bag_of_ice_play.py).
    # The tests check it against every partition of every subset of the
    # 18 non-red pyramids.
    v = 0
    t1 = t2 = t3 = 0
    for i in range(0, 8, 2):
        c = BONUS[i]
        a = h[c + 1]
        b = h[c + 2]
        d = h[c + 3]
        if a and b and d:
            v += BONUS[i + 1]
        t1 += a
        t2 += b
        t3 += d
    m = t1 if t1 < t2 else t2
    if t3 < m:
        m = t3
    return v + t1 + 2 * t2 + 3 * t3 + 4 * m
