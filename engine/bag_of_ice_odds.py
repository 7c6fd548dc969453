"""Bag of Ice's first half: the odds, the bot and the
``state`` fields (class :class:`Odds`, which engine/bag_of_ice.py's
``Game`` extends with the rules). The bag and the scoring are in
engine/bag_of_ice_score.py.
"""


from engine.state import State
from engine.bag_of_ice_score import (LO, HI, FULL, TOTAL, COLS, BONUS,  # noqa: F401
                                     counts, value)

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
# the order ``state`` lists the bag in: larges, mediums, smalls; r y g c p
ORDER = b"\x03\x0b\x0f\x13\x1b\x02\x0a\x0e\x12\x1a\x01\x09\x0d\x11\x19"
PHASES = ("rolloff", "decide", "roll", "choose", "draw", "", "done")
# a bot keeps drawing towards the target while an opponent needs at most
# this many points (see docs/games/bag-of-ice.md)
CLOSE = 15
# two players to this target play the solved policy
POLICY_TARGET = 60


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


class Odds(State):
    """What screens and the ``state`` line read; the rules are in
    engine/bag_of_ice.py's ``Game``."""

    __slots__ = ()

    def num_players(self):
        return self.players

    def is_bot(self, p):
        return bool(self.bots >> p & 1)

    def in_rolloff(self, p):
        return bool(self.rolling_off >> p & 1)

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
        # a cold module, imported for this one call
        from engine.bag_of_ice_play import best
        return best(self.drawn)

    def scores(self):
        return list(self.points)

    # ---- odds ---------------------------------------------------------------
    def _sz(self):
        # ``(value, n1, g1, n2, g2, n3, g3)``: the turn's value and, per
        # size s, n pyramids of it in the bag and g / n the expected change
        # of the turn's value from drawing that size and stopping. The one
        # red of the size busts (losing the value); any other piece adds its
        # pips, 4 if it makes one more tree possible (its size is the only
        # scarcest) and the colour's bonus if it completes that colour's
        # one-colour tree (see value). One pass over the colours gives the
        # value as well (the same sum as value()).
        h = bytearray(28)
        for p in self.drawn:
            h[p] += 1
        v = x1 = x2 = x3 = 0
        t1 = h[1]
        t2 = h[2]
        t3 = h[3]
        for i in range(0, 8, 2):
            c = BONUS[i]
            a = h[c + 1]
            b = h[c + 2]
            d = h[c + 3]
            t1 += a
            t2 += b
            t3 += d
            if a and b and d:
                v += BONUS[i + 1]
            elif b and d:      # the colour lacks only its small
                x1 += FULL[c + 1] * BONUS[i + 1]
            elif a and d:
                x2 += FULL[c + 2] * BONUS[i + 1]
            elif a and b:
                x3 += FULL[c + 3] * BONUS[i + 1]
        m = t1 if t1 < t2 else t2
        if t3 < m:
            m = t3
        v += t1 + 2 * t2 + 3 * t3 + 4 * m
        n1 = TOTAL[1] - t1
        n2 = TOTAL[2] - t2
        n3 = TOTAL[3] - t3
        # the non-red pieces of a size each add its pips (+4 if scarcest)
        return (v, n1, x1 - v + (5 if t1 < t2 and t1 < t3 else 1) * (n1 - FULL[1]),
                n2, x2 - v + (6 if t2 < t1 and t2 < t3 else 2) * (n2 - FULL[2]),
                n3, x3 - v + (7 if t3 < t1 and t3 < t2 else 3) * (n3 - FULL[3]))

    def _odds(self):
        # ``[value, bust n, d, gain n, d]``, small ints, the two fractions
        # reduced (see odds). With every size in the bag (always, with the
        # standard bag: the reds stay in) the six faces add up in closed
        # form: over the common denominator 6 * n1 * n2 * n3, a face's bust
        # chance 1 / n is n1 * n2 * n3 / n, and a two-size face takes the
        # larger n; its gain g / n is a = g * n1 * n2 * n3 / n, and a
        # two-size face takes the larger a.
        z = self._sz()
        n1 = z[1]
        n2 = z[3]
        n3 = z[5]
        if n1 and n2 and n3:
            a1 = z[2] * n2 * n3
            a2 = z[4] * n1 * n3
            a3 = z[6] * n1 * n2
            bn = (n2 * n3 + n1 * n3 + n1 * n2 + n3 * (n1 if n1 < n2 else n2) +
                  n2 * (n1 if n1 < n3 else n3) + n1 * (n2 if n2 < n3 else n3))
            gn = (a1 + a2 + a3 + (a1 if a1 > a2 else a2) +
                  (a1 if a1 > a3 else a3) + (a2 if a2 > a3 else a3))
            d = 6 * n1 * n2 * n3
        else:   # a size ran out: its face is rolled again
            from engine.bag_of_ice_play import faces
            bn, gn, d = faces(z)
        out = [z[0]]
        for n in (bn, gn):   # in lowest terms
            a = n if n >= 0 else -n
            b = d
            while b:
                a, b = b, a % b
            out.append(n // a)
            out.append(d // a)
        return out

    def odds(self):
        # ``[(n, d), (n, d)]``: the exact chance that one more roll and
        # draw busts, and the exact expected change of the turn's value from
        # one more roll and draw and then stopping (a bust loses the whole
        # value), both reduced. The faces are equally likely (a face with no
        # size left is re-rolled, so the others share its chance); on a
        # two-size face the player takes the size with the lower bust chance
        # (more pyramids left, one red among them) for the first and the one
        # with the higher expected gain for the second.
        z = self._odds()
        return [(z[1], z[2]), (z[3], z[4])]

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
        with two players to the policy's target the solved policy
        (``policy_move``), else ``rule_move``."""
        if self.players == 2 and self.target == POLICY_TARGET:
            return self.policy_move()
        return self.rule_move()

    def policy_move(self):
        """The compact solved policy's move (engine/bag_of_ice_policy.py,
        two players to POLICY_TARGET): stop once the turn is worth the
        threshold of the score pair plus the adjustment for the sizes
        drawn, or reaches the target; on a two-size face the size its
        table gives for the sizes drawn."""
        from engine import bag_of_ice_policy as pol
        ph = self.phase
        if ph == CHOOSE:
            f = self.face
            k = (f - 3) * pol.KEYS + self.size_key()
            return (HI[f] if pol.SIZE[k >> 3] >> (k & 7) & 1 else LO[f]) + 1
        if ph != DECIDE:
            return None
        if not self.drawn:
            return DRAW_A
        p = self.turn
        a = self.points[p]
        v = self.turn_points()
        if v >= POLICY_TARGET - a:
            return STOP
        t = pol.STOP[a * POLICY_TARGET + self.points[1 - p]]
        return STOP if v >= t + pol.ADJ[self.size_key()] - 128 else DRAW_A

    def advice(self):
        """``(chance, move)`` for the player to move, two players to
        POLICY_TARGET only (else None): the chance, in 255ths, of winning
        if they stop now (the turn's start with nothing drawn; 255 when
        stopping reaches the target), from the solved win table, and the
        compact policy's move (``policy_move``)."""
        if self.players != 2 or self.target != POLICY_TARGET or not self.phase & 1:
            return None
        from engine import bag_of_ice_policy as pol
        p = self.turn
        a = self.points[p]
        b = self.points[1 - p]
        if not self.drawn:
            w = pol.WIN[a * POLICY_TARGET + b]
        else:
            a += self.turn_points()
            w = 255 if a >= POLICY_TARGET else 255 - pol.WIN[b * POLICY_TARGET + a]
        return (w, self.policy_move())

    def size_key(self):
        """(larges * 7 + mediums) * 9 + smalls drawn this turn: the policy
        tables' index."""
        k = 0
        for q in self.drawn:
            k += (0, 1, 9, 63)[q & 3]
        return k

    def rule_move(self):
        """The one-step rule's move (None at chance, the end): on a two-size
        face the size with the higher expected gain; at a decision, stop
        when that reaches the target; else draw while an opponent is CLOSE
        to the target or the expected gain is positive."""
        ph = self.phase
        if ph == CHOOSE:
            z = self._sz()
            lo = LO[self.face]
            hi = HI[self.face]
            # the higher g / n (lo on a tie)
            if z[2 * hi] * z[2 * lo - 1] > z[2 * lo] * z[2 * hi - 1]:
                return hi + 1
            return lo + 1
        if ph != DECIDE:
            return None
        if not self.drawn:
            return DRAW_A
        p = self.turn
        t = self.target
        if self.turn_points() >= t - self.points[p]:
            return STOP
        for q in range(self.players):
            if q != p and t - self.points[q] <= CLOSE:
                return DRAW_A
        return DRAW_A if self._odds()[3] > 0 else STOP

    # ---- text ---------------------------------------------------------------
    def fields(self):
        z = self._odds()
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
        m = self.bots
        p = 0
        while m:
            if m & 1:
                bots.append(p)
            m >>= 1
            p += 1
        f = self.face
        return {
            "phase": PHASES[self.phase],
            "turn": self.turn,
            "target": self.target,
            "face": FACES[f] if f >= 0 else None,
            "drawn": drawn,
            "bag": bag,
            "turn_points": z[0],
            "bust_odds": "%d/%d" % (z[1], z[2]),
            "expected_gain": "%d/%d" % (z[3], z[4]),
            "winner": self.winner,
            "turns": self.turns,
            "bots": bots,
        }

