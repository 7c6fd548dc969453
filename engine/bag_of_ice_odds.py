"""Bag of Ice, the resident game's first half: the bag, the scoring, the
odds, the bot and the ``state`` fields (class :class:`Odds`, which
engine/bag_of_ice.py's ``Game`` extends with the rules). Two modules, so
each compiles from .py source within a board's heap.
"""


from engine.state import State, cold

ROLLOFF = 0
DECIDE = 1
ROLL = 2
CHOOSE = 3
DRAW = 4
DONE = 6   # even, as the chance phases: "phase & 1" is a decision

# the moves' actions (engine/bag_of_ice.py has the rest)
DRAW_A = 0
STOP = 1
FACES = ("S", "M", "L", "SM", "SL", "ML")
LO = b"\x01\x02\x03\x01\x01\x02"   # a face's sizes (HI 0: one size)
HI = b"\x00\x00\x00\x02\x03\x03"
# the bag: count of each piece code (colour << 2 | size), r y g c p
FULL = (b"\x00\x01\x01\x01\x00\x00\x00\x00\x00\x02\x01\x01\x00\x02\x02\x01"
        b"\x00\x02\x02\x01\x00\x00\x00\x00\x00\x02\x01\x01")
TOTAL = b"\x00\x09\x07\x05"       # pyramids per size
COLS = b"\x00\x02\x03\x04\x06"    # the bag's colours r y g c p
# the order ``state`` lists the bag in: larges, mediums, smalls; r y g c p
ORDER = b"\x03\x0b\x0f\x13\x1b\x02\x0a\x0e\x12\x1a\x01\x09\x0d\x11\x19"
PHASES = ("rolloff", "decide", "roll", "choose", "draw", "", "done")
# a one-colour tree's worth above a mixed one: (colour << 2, bonus) for
# yellow, green, cyan, purple
BONUS = b"\x08\x0a\x0c\x05\x10\x05\x18\x0a"
# a bot keeps drawing towards the target while an opponent needs at most
# this many points (see docs/games/bag-of-ice.md)
CLOSE = 15


# their tokens (engine.pieces notation), and each bag piece code's index here
NAMES = ("r3", "y3", "g3", "c3", "p3", "r2", "y2", "g2", "c2", "p2",
         "r1", "y1", "g1", "c1", "p1")
# the whole bag's tokens in ``state`` order
BAG = ("r3", "y3", "g3", "c3", "p3", "r2", "y2", "g2", "g2", "c2", "c2", "p2",
       "r1", "y1", "y1", "g1", "g1", "c1", "c1", "p1", "p1")
_IX = (b"\xff\x0a\x05\x00\xff\xff\xff\xff\xff\x0b\x06\x01\xff\x0c"
       b"\x07\x02\xff\x0d\x08\x03\xff\xff\xff\xff\xff\x0e\x09\x04")


def name(p):
    """The token of piece code ``p``, a piece the bag holds (a constant
    string: writing the bag in a ``state`` line allocates no tokens)."""
    return NAMES[_IX[p]]


def counts(ps):
    """A count per piece code of the pieces ``ps``."""
    h = bytearray(28)
    for p in ps:
        h[p] += 1
    return h


def value(h):
    """Best arrangement's value of the non-red pyramids counted in ``h``.

    Why this sum is the maximum over all arrangements: a tree is one L, M
    and S, so it turns 6 pips of leftovers into 10 (+4), and a one-colour
    tree adds +10 (yellow, purple) or +5 (green, cyan) on top. Any
    arrangement is therefore worth pips + 4 * trees + its one-colour
    bonuses, where trees <= min(L, M, S) and there is at most one
    one-colour tree per colour (the bag has one large of each), only for a
    colour holding all three sizes. Both bounds are met at once: build the
    one-colour tree of every such colour (each takes one piece of each
    size, so there are never more than min(L, M, S)), then trees of any
    remaining L, M, S until a size runs out (engine/bag_of_ice_play.py).
    The tests check it against every partition of every subset of the
    18 non-red pyramids."""
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


class Odds(State):
    """What screens and the ``state`` line read; the rules are in
    engine/bag_of_ice.py's ``Game``."""

    __slots__ = ()

    def num_players(self):
        return self.players

    def is_bot(self, p):
        return bool(self.bots >> p & 1)

    def in_rolloff(self, p):
        return bool(self.ro >> p & 1)

    def bag_count(self, p):
        n = FULL[p] if 0 <= p < 28 else 0
        for q in self.drawn:
            if q == p:
                n -= 1
        return n

    def bag_size(self, s):
        n = TOTAL[s] if 0 < s < 4 else 0
        for q in self.drawn:
            if q & 3 == s:
                n -= 1
        return n

    def turn_points(self):
        return value(counts(self.drawn))

    def best(self):
        """(value, trees, leftovers) of the pieces drawn this turn: trees
        a list of bytes (L, M, S), leftovers bytes, in draw order."""
        return cold("engine.bag_of_ice_play").best(self.drawn)

    def scores(self):
        return list(self.sc)

    # ---- odds ---------------------------------------------------------------
    def sizes(self):
        """Per size 1..3, ``(n, g)``: n pyramids of that size in the bag,
        and g / n the expected change of the turn's value from drawing that
        size and stopping. The one red of the size busts (losing the turn's
        value); any other piece adds its pips, 4 if it makes one more tree
        possible (its size is the only scarcest) and the colour's bonus if
        it completes that colour's one-colour tree (see value)."""
        d = self.drawn
        h = counts(d)
        v = value(h)
        t = bytearray(4)
        for p in d:
            t[p & 3] += 1
        out = []
        for s in (1, 2, 3):
            s2 = s % 3 + 1
            s3 = s2 % 3 + 1
            up = s + (4 if t[s] < t[s2] and t[s] < t[s3] else 0)
            g = -v
            for i in range(0, 8, 2):
                c = BONUS[i]
                k = FULL[c + s] - h[c + s]
                if k:
                    if not h[c + s] and h[c + s2] and h[c + s3]:
                        g += k * (up + BONUS[i + 1])
                    else:
                        g += k * up
            out.append((TOTAL[s] - t[s], g))
        return out

    def odds(self):
        """``((n, d), (n, d))``: the exact chance that one more roll and
        draw busts, and the exact expected change of the turn's value from
        one more roll and draw and then stopping (a bust loses the whole
        value), both reduced. The faces are equally likely (a face with no
        size left is re-rolled, so the others share its chance); on a
        two-size face the player takes the size with the lower bust chance
        (more pyramids left, one red among them) for the first and the one
        with the higher expected gain for the second."""
        z = self.sizes()
        d = 1
        for e in z:
            if e[0]:
                d *= e[0]
        nf = bn = gn = 0
        for f in range(6):
            a = z[LO[f] - 1]
            b = z[HI[f] - 1] if HI[f] else a
            if not a[0]:
                a = b
            if not b[0]:
                b = a
            if not a[0]:
                continue
            nf += 1
            bn += d // (a[0] if a[0] >= b[0] else b[0])
            if b[1] * a[0] > a[1] * b[0]:
                a = b
            gn += a[1] * (d // a[0])
        if not nf:
            return (0, 1), (0, 1)
        d *= nf
        out = []
        for n in (bn, gn):   # in lowest terms
            a = n if n >= 0 else -n
            b = d
            while b:
                a, b = b, a % b
            out.append((n // a, d // a))
        return out

    def bust_odds(self):
        return self.odds()[0]

    def expected_gain(self):
        return self.odds()[1]

    # ---- the bot ------------------------------------------------------------
    def bot_move(self):
        """The move of a bot seat to move now; None for a person, chance or
        the end."""
        if self.phase & 1 and self.bots >> self.turn & 1:
            return self.hint()
        return None

    def hint(self):
        """The bot's move for whoever is to move (None at chance, the end):
        on a two-size face the size with the higher expected gain; at a
        decision, stop when that reaches the target; else draw while an
        opponent is CLOSE to the target or the expected gain is positive."""
        ph = self.phase
        if ph == CHOOSE:
            z = self.sizes()
            f = self.face
            a = z[LO[f] - 1]
            b = z[HI[f] - 1]
            return HI[f] + 1 if b[1] * a[0] > a[1] * b[0] else LO[f] + 1
        if ph != DECIDE:
            return None
        if not self.drawn:
            return DRAW_A
        p = self.turn
        t = self.target
        if self.turn_points() >= t - self.sc[p]:
            return STOP
        for q in range(self.players):
            if q != p and t - self.sc[q] <= CLOSE:
                return DRAW_A
        return DRAW_A if self.odds()[1][0] > 0 else STOP

    # ---- text ---------------------------------------------------------------
    def fields(self):
        b, g = self.odds()
        h = counts(self.drawn)
        # the full bag less what is out: a few removals in C instead of a
        # Python loop over every kind (the same order: equal tokens are
        # the same constant)
        bag = list(BAG)
        drawn = []
        for p in self.drawn:
            t = NAMES[_IX[p]]
            drawn.append(t)
            bag.remove(t)
        bots = []
        for p in range(self.players):
            if self.bots >> p & 1:
                bots.append(p)
        f = self.face
        return {
            "phase": PHASES[self.phase],
            "turn": self.turn,
            "target": self.target,
            "face": FACES[f] if f >= 0 else None,
            "drawn": drawn,
            "bag": bag,
            "turn_points": value(h),
            "bust_odds": "%d/%d" % b,
            "expected_gain": "%d/%d" % g,
            "winner": self.winner,
            "turns": self.turns,
            "bots": bots,
        }

