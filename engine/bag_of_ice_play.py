"""Bag of Ice: the best arrangement's trees, and the odds of a die face
when a size has run out."""

from engine.bag_of_ice_score import value, counts, LO, HI


def best(drawn):
    """(value, trees, leftovers) for pieces ``drawn``: one-colour trees for
    every colour with all three sizes, then mixed trees while every size
    has a piece left (why that is best: engine.bag_of_ice_score.value)."""
    h = counts(drawn)
    v = value(h)
    trees = []
    for c in b"\x08\x18\x0c\x10":
        if h[c + 1] and h[c + 2] and h[c + 3]:
            trees.append(bytes((c + 3, c + 2, c + 1)))
            h[c + 1] -= 1
            h[c + 2] -= 1
            h[c + 3] -= 1
    while True:
        t = bytearray()
        for s in b"\x03\x02\x01":
            for c in b"\x08\x0c\x10\x18":
                if h[c + s]:
                    t.append(c + s)
                    break
        if len(t) < 3:
            break
        for p in t:
            h[p] -= 1
        trees.append(bytes(t))
    left = bytearray()
    for p in drawn:       # the leftovers in draw order
        if h[p]:
            h[p] -= 1
            left.append(p)
    return v, trees, bytes(left)


def faces(z):
    """``(bust n, gain n, d)`` of engine.bag_of_ice_odds ``Odds._odds``
    when a size has run out (``z`` from ``Odds._sz``), face by face: a
    face with no size left is rolled again, a two-size face with one size
    left takes that one. Not with the standard bag (its reds stay in)."""
    p = 1
    for i in (1, 3, 5):
        if z[i]:
            p *= z[i]
    nf = bn = gn = 0
    for f in range(6):
        a = LO[f]
        b = HI[f] or a
        if not z[2 * a - 1]:
            a = b
        if not z[2 * b - 1]:
            b = a
        na = z[2 * a - 1]
        if na:
            nb = z[2 * b - 1]
            nf += 1
            bn += p // (na if na >= nb else nb)
            ga = z[2 * a] * (p // na)
            gb = z[2 * b] * (p // nb)
            gn += ga if ga >= gb else gb
    return (bn, gn, p * nf) if nf else (0, 0, 1)
