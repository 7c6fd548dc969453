"""Bag of Ice's refusals and the reading of a save."""

from engine.bag_of_ice_odds import (FULL, LO, HI, FACES, name, DECIDE, ROLL,
                                    CHOOSE, DRAW, DONE, ROLLOFF, STOP)


def why_illegal(st, a):
    ph = st.phase
    f = st.face
    if a < 8:                          # a move
        if not ph & 1:
            return ("the die is rolling or a pyramid is being drawn: "
                    "play the outcome or sample it")
        if ph == DECIDE:
            if a == STOP:
                return "nothing is drawn yet: a turn starts with draw"
            return "no size to choose now: draw first"
        return "choose a size first: size%d or size%d" % (LO[f], HI[f])
    if ph != DRAW and ph != ROLL and ph != ROLLOFF:
        return "it is a player's turn to decide, not chance's"
    if a < 32:                         # a face
        return "a pyramid is being drawn, not a die rolled"
    p = a - 32
    if ph != DRAW:
        return "the die is rolling: play a face (S M L SM SL ML) or sample it"
    if p & 3 != st.size:
        return "the die shows %s: draw a pyramid of size %d" % (FACES[f], st.size)
    return "no %s is left in the bag" % name(p)


# ---- saves ------------------------------------------------------------------
# reading what Game._pack wrote (engine/bag_of_ice.py says the layout)

def _ok_pieces(ps, red_last):
    """Pieces the bag holds, no more of a kind than it holds, non-red but
    for a last red when ``red_last``."""
    h = bytearray(28)
    for i in range(len(ps)):
        p = ps[i]
        if p >= 28 or not FULL[p] or (not p >> 2 and not (red_last and i == len(ps) - 1)):
            return False
        h[p] += 1
        if h[p] > FULL[p]:
            return False
    return True


def unpack(st, body):
    """A saved position (from ``Game._pack``), checked: ValueError if it
    could not arise in a game."""
    n = st.players
    k = 10 + 3 * n
    if len(body) <= k or not _valid(st, body, n, k):
        raise ValueError("bag_of_ice state is malformed")
    st.phase = body[0]
    st.turn = body[1]
    st.face = body[2] - 1
    st.size = body[3]
    st.winner = body[4] - 1
    st.last_bust = body[5]
    st.turns = body[6] << 8 | body[7]
    st.rolling_off = body[8] << 8 | body[9]
    st.points = [body[10 + 2 * i] << 8 | body[11 + 2 * i] for i in range(n)]
    st.rolloff = bytearray(body[10 + 2 * n:k])
    m = body[k]
    st.last_drawn = bytearray(body[k + 1:k + 1 + m])
    st.drawn = bytearray(body[k + 1 + m:])


def _valid(st, body, n, k):
    ph, t, f, sz, w, lb = body[0], body[1], body[2] - 1, body[3], body[4] - 1, body[5]
    ro = body[8] << 8 | body[9]
    m = body[k]
    last = body[k + 1:k + 1 + m]
    drawn = body[k + 1 + m:]
    if (ph > DONE or ph == 5 or t >= n or f > 5 or sz > 3 or w >= n or ro >> n or
            len(last) != m or not _ok_pieces(drawn, False) or
            not _ok_pieces(last, lb != 0xFF) or
            (lb != 0xFF and (lb > 3 or not lb or not m or last[-1] != lb))):
        return False
    for i in range(n):
        s = body[10 + 2 * i] << 8 | body[11 + 2 * i]
        if (s >= st.target and i != w) or s > st.target + 99 or body[10 + 2 * n + i] > 5:
            return False
        if ro and not ro >> i & 1 and body[10 + 2 * n + i]:
            return False
    if (ph == DONE) != (w >= 0) or (w >= 0 and body[10 + 2 * w] << 8 |
                                    body[11 + 2 * w] < st.target):
        return False
    if ph == ROLLOFF:
        # two or more still rolling, the roller among them, nothing else
        return (n > 1 and ro & (ro - 1) and ro >> t & 1 and not sz and
                not m and not drawn and lb == 0xFF and not body[6] and
                not body[7] and not max(body[10:10 + 2 * n]))
    if ro or (ph == DONE and drawn):
        return False
    if ph == DECIDE or ph == ROLL or ph == DONE:
        return f < 0 and not sz
    st.drawn = bytearray(drawn)   # for bag_size below (set again after)
    if f < 0 or not st.bag_size(LO[f]):
        return False
    if ph == CHOOSE:
        return not sz and HI[f] and st.bag_size(HI[f])
    return sz and (sz == LO[f] or sz == HI[f]) and st.bag_size(sz)
