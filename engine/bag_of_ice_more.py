"""Bag of Ice code used at some steps only: the odds, the best arrangement,
the bot, the ``state`` fields, the text picture, refusals and saves.

Loaded for one call and forgotten again on a board
(:func:`engine.state.cold`), so the game's resident part stays small.
All arithmetic is on small ints: a fraction's denominator is at most
6 * 9 * 7 * 5 and its numerator a few hundred times that.
"""

from engine.state import fail
from engine.pieces import fmt_piece
from engine.bag_of_ice import (value, FULL, TOTAL, COLS, LO, HI, FACES,
                               ROLLOFF, DECIDE, ROLL, CHOOSE, DRAW, DONE,
                               DRAW_A, STOP)

PHASES = ("rolloff", "decide", "roll", "choose", "draw", "done")
# "close": an opponent needing at most this many points is likely to win on
# their next turn, so a bot that stops short of the target would hand it
# over; it keeps drawing until stopping would win (see the docs).
CLOSE = 10


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def _frac(n, d):
    g = _gcd(n if n >= 0 else -n, d)
    return n // g, d // g


def best(drawn):
    """(value, trees, leftovers) for pieces ``drawn``: one-colour trees for
    every colour with all three sizes, then mixed trees while every size
    has a piece left (why that is best: engine.bag_of_ice.value)."""
    h = bytearray(28)
    for p in drawn:
        h[p] += 1
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


def sizes(st):
    """Per size 1..3: ``(left, reds, g)``: pyramids of that size in the bag,
    reds among them, and ``g`` with ``g / left`` the expected change of
    the turn's value from drawing that size and stopping."""
    h = st.counts()
    v = value(h)
    out = []
    for s in (1, 2, 3):
        n = TOTAL[s]
        r = g = 0
        for c in COLS:
            p = c << 2 | s
            n -= h[p]
            k = FULL[p] - h[p]
            if not k:
                continue
            if c:
                h[p] += 1
                g += k * (value(h) - v)
                h[p] -= 1
            else:
                r = k
                g -= k * v
        out.append((n, r, g))
    return out


def _pick(z, f):
    """The sizes a face ``f`` offers: (a, b) entries of ``z``, b None if
    only one; a None if neither has a pyramid left (the face is re-rolled)."""
    a = z[LO[f] - 1]
    b = z[HI[f] - 1] if HI[f] else None
    if not a[0]:
        a, b = b, None
    if a is None or not a[0]:
        return None, None
    if b is not None and not b[0]:
        b = None
    return a, b


def odds(st):
    """((n, d) bust chance, (n, d) expected gain) of one more roll and
    draw. The die's faces are equally likely (those with no size left are
    re-rolled, so the others share the chance); on a two-size face the
    player takes the size with the lower bust chance for the first figure
    and the one with the higher expected gain for the second."""
    z = sizes(st)
    d = 1
    for e in z:
        if e[0]:
            d *= e[0]
    nf = bn = gn = 0
    for f in range(6):
        a, b = _pick(z, f)
        if a is None:
            continue
        nf += 1
        x = y = a
        if b is not None:
            if b[1] * a[0] < a[1] * b[0]:
                x = b
            if b[2] * a[0] > a[2] * b[0]:
                y = b
        bn += x[1] * (d // x[0])
        gn += y[2] * (d // y[0])
    if not nf:
        return (0, 1), (0, 1)
    d *= nf
    return _frac(bn, d), _frac(gn, d)


def bot(st):
    """The bot's move at a decision (DECIDE or CHOOSE)."""
    if st.phase == CHOOSE:
        a, b = _pick(sizes(st), st.face)
        # the higher expected gain; the smaller size on a tie
        return HI[st.face] + 1 if b[2] * a[0] > a[2] * b[0] else LO[st.face] + 1
    if not st.drawn:
        return DRAW_A
    p = st.turn
    if st.turn_points() >= st.target - st.sc[p]:
        return STOP            # stopping wins now
    for q in range(st.players):
        if q != p and st.target - st.sc[q] <= CLOSE:
            return DRAW_A      # only a run to the target can still win
    return DRAW_A if odds(st)[1][0] > 0 else STOP


def _toks(ps):
    out = []
    for p in ps:
        out.append(fmt_piece(p))
    return out


def fields(st):
    b, g = odds(st)
    bag = {}
    h = st.counts()
    for s in (3, 2, 1):
        for c in COLS:
            p = c << 2 | s
            bag[fmt_piece(p)] = FULL[p] - h[p]
    bots = []
    rolling = []
    for p in range(st.players):
        if st.bots >> p & 1:
            bots.append(p)
        if st.ro >> p & 1:
            rolling.append(p)
    return {
        "phase": PHASES[st.phase],
        "turn": st.turn,
        "target": st.target,
        "face": FACES[st.face] if st.face >= 0 else None,
        "size": st.size,
        "drawn": _toks(st.drawn),
        "bag": bag,
        "turn_points": value(h),
        "bust_odds": "%d/%d" % b,
        "expected_gain": "%d/%d" % g,
        "winner": st.winner,
        "turns": st.turns,
        "bots": bots,
        "rolloff": list(st.rolloff),
        "rolling": rolling,
        "last_drawn": _toks(st.last_drawn),
        "last_bust": fmt_piece(st.last_bust) if st.last_bust != 0xFF else None,
    }


def render(st):
    out = []
    for p in range(st.players):
        out.append("%s%d:%d" % ("*" if p == st.turn else " ", p + 1, st.sc[p]))
    lines = [" ".join(out) + "  target %d" % st.target]
    ph = st.phase
    if ph == ROLLOFF:
        lines.append("roll-off: player %d rolls" % (st.turn + 1))
    elif ph == DONE:
        lines.append("player %d wins after %d turns" % (st.winner + 1, st.turns))
    else:
        v, trees, left = best(st.drawn)
        parts = []
        for t in trees:
            parts.append("".join(_toks(t)))
        parts += _toks(left)
        b, g = odds(st)
        lines.append("player %d %s: %s = %d  bust %d/%d gain %d/%d" % (
            st.turn + 1, PHASES[ph], " ".join(parts) or "-", v,
            b[0], b[1], g[0], g[1]))
    if st.last_drawn:
        lines.append("last turn: %s%s" % (" ".join(_toks(st.last_drawn)),
                                          " bust" if st.last_bust != 0xFF else ""))
    return "\n".join(lines)


def why_illegal(st, a):
    ph = st.phase
    f = st.face
    if a < 8:                          # a move
        if not ph & 1:
            return 47, ()   # chance first: play or sample the roll or draw
        if ph == DECIDE:
            return (48, ()) if a == STOP else (49, ())
        return 50, (LO[f], HI[f])      # choose size%d or size%d
    if ph != DRAW and ph != ROLL and ph != ROLLOFF:
        return 51, ()       # decide first
    if a < 32:                         # a face
        return 52, ()       # a pyramid is being drawn, not a die rolled
    p = a - 32
    if ph != DRAW:
        return 53, ()       # the die is rolling: play a face
    if p & 3 != st.size:
        return 54, (FACES[f], st.size)
    return 55, (fmt_piece(p),)         # no %s is left in the bag


# ---- saves ------------------------------------------------------------------
# phase, turn, face + 1, size, winner + 1, last_bust, turns (2), roll-off
# set (2), scores (2 each), roll-off pips (1 each), len(last_drawn),
# last_drawn, drawn

def pack(st):
    out = bytearray((st.phase, st.turn, st.face + 1, st.size, st.winner + 1,
                     st.last_bust, st.turns >> 8, st.turns & 255, st.ro >> 8,
                     st.ro & 255))
    for s in st.sc:
        out.append(s >> 8)
        out.append(s & 255)
    out += st.rolloff
    out.append(len(st.last_drawn))
    out += st.last_drawn
    out += st.drawn
    return bytes(out)


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


def unpack(st, body, check=False):
    n = st.players
    k = 10 + 3 * n
    if len(body) <= k or (check and not _valid(st, body, n, k)):
        fail(56)   # bag_of_ice state is malformed
    st.phase = body[0]
    st.turn = body[1]
    st.face = body[2] - 1
    st.size = body[3]
    st.winner = body[4] - 1
    st.last_bust = body[5]
    st.turns = body[6] << 8 | body[7]
    st.ro = body[8] << 8 | body[9]
    st.sc = [body[10 + 2 * i] << 8 | body[11 + 2 * i] for i in range(n)]
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
    if (ph > DONE or t >= n or f > 5 or sz > 3 or w >= n or ro >> n or
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
