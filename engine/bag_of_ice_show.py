"""Bag of Ice: the best arrangement's trees and the text picture (the
``show`` step and screens). Loaded for one call and forgotten again on a
board (:func:`engine.state.cold`).
"""

from engine.bag_of_ice_odds import value, counts, name, FACES, PHASES, ROLLOFF, DONE


def best(drawn):
    """(value, trees, leftovers) for pieces ``drawn``: one-colour trees for
    every colour with all three sizes, then mixed trees while every size
    has a piece left (why that is best: engine.bag_of_ice.value)."""
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


def _toks(ps):
    out = []
    for p in ps:
        out.append(name(p))
    return out


def render(st):
    out = []
    for p in range(st.players):
        out.append("%s%d:%d" % ("*" if p == st.turn else " ", p + 1, st.sc[p]))
    out.append(" target %d, %d turns" % (st.target, st.turns))
    lines = [" ".join(out)]
    ph = st.phase
    if ph == ROLLOFF:
        out = []
        for p in range(st.players):
            out.append("%d:%s" % (p + 1, st.rolloff[p] if st.ro >> p & 1 else "-"))
        lines.append("roll-off, player %d rolls (pips %s)" % (st.turn + 1, " ".join(out)))
    elif ph == DONE:
        lines.append("player %d wins" % (st.winner + 1))
    else:
        v, trees, left = best(st.drawn)
        out = []
        for t in trees:
            out.append("".join(_toks(t)))
        lines.append("player %d %s%s: %s = %d" % (
            st.turn + 1, PHASES[ph], " " + FACES[st.face] if st.face >= 0 else "",
            " ".join(out + _toks(left)) or "-", v))
    if st.last_drawn:
        lines.append("last turn: %s%s" % (" ".join(_toks(st.last_drawn)),
                                          " bust" if st.last_bust != 0xFF else ""))
    return "\n".join(lines)


