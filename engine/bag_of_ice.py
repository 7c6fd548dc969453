"""``bag_of_ice``: the push-your-luck bag game, pass-and-play for 1 to 12.

Options: ``players=1..12`` (3), ``target=1..999`` (60), ``bots=2,3`` (seats,
counted from 1, that the device plays).

Phases (``phase``): ROLLOFF (chance: the start player's roll-off, one die
per node), DECIDE (the player: ``draw`` or ``stop``), ROLL (chance: the
pyramid die), CHOOSE (the player: ``size1``/``size2``/``size3`` on a
two-size face), DRAW (chance: a pyramid of the chosen size, weighted by the
bag), DONE. A turn opens at DECIDE with nothing drawn, where only ``draw``
is legal: stopping then would score nothing, and a first draw risks nothing.
A red draw busts and the next player's turn opens at once; so does ``stop``,
unless it reaches the target, which ends the game. One player gets no
roll-off and plays until the target, counting turns (``turns``).

Read by screens: ``players``, ``target``, ``phase``, ``turn``, ``face``
(0..5 for S M L SM SL ML, or -1), ``size`` (the size being drawn, or 0),
``drawn`` (this turn, in draw order), ``last_drawn``/``last_bust`` (the turn
that just ended, its red last if it busted; ``last_bust`` 0xFF after a
stop), ``winner`` (-1 until the end), ``turns`` (turns completed),
``rolloff`` (per player, the pips of their latest roll-off roll; 0 before
they roll and once they are out; tied players keep theirs until they roll
again), ``is_bot(p)``, ``in_rolloff(p)``, ``bag_count(p)``,
``bag_size(s)``, ``turn_points()``, ``best()``, ``bust_odds()``,
``expected_gain()``, ``odds()``, ``bot_move()``, ``hint()``.

Drawn pyramids are never red (a red ends the turn), so the bag always holds
the red of every size and no die face finds its sizes empty;
``chance_outcomes`` still drops such a face (the rulings' re-roll).

Undo keeps snapshots (UNDO_DEPTH), each action taken back in place, and a
save is a packed position (a whole history would outgrow the board's save
slot). Arrangements and the picture (engine/bag_of_ice_show.py), refusals,
the roll-off and saves (engine/bag_of_ice_text.py) are cold modules.
"""

from engine.state import State, CHANCE, OVER, IllegalMove, opt_int, cold, fail

ROLLOFF = 0
DECIDE = 1
ROLL = 2
CHOOSE = 3
DRAW = 4
DONE = 6   # even, as the chance phases: "phase & 1" is a decision

# actions: moves 0..4, die faces _FACE + 0..5, pieces _PIECE + piece code
DRAW_A = 0
STOP = 1
_FACE = 8
_PIECE = 32
_MOVES = ("draw", "stop", "size1", "size2", "size3")
FACES = ("S", "M", "L", "SM", "SL", "ML")
LO = b"\x01\x02\x03\x01\x01\x02"   # a face's sizes (HI 0: one size)
HI = b"\x00\x00\x00\x02\x03\x03"
# the bag: count of each piece code (colour << 2 | size), r y g c p
FULL = (b"\x00\x01\x01\x01\x00\x00\x00\x00\x00\x02\x01\x01\x00\x02\x02\x01"
        b"\x00\x02\x02\x01\x00\x00\x00\x00\x00\x02\x01\x01")
TOTAL = b"\x00\x09\x07\x05"       # pyramids per size
COLS = b"\x00\x02\x03\x04\x06"    # the bag's colours r y g c p
# token of each piece code the bag holds (engine.pieces notation)
NAMES = (None, "r1", "r2", "r3", None, None, None, None, None, "y1", "y2",
         "y3", None, "g1", "g2", "g3", None, "c1", "c2", "c3", None, None,
         None, None, None, "p1", "p2", "p3")
# the order ``state`` lists the bag in: larges, mediums, smalls; r y g c p
ORDER = b"\x03\x0b\x0f\x13\x1b\x02\x0a\x0e\x12\x1a\x01\x09\x0d\x11\x19"
PHASES = ("rolloff", "decide", "roll", "choose", "draw", "", "done")
# a one-colour tree's worth above a mixed one: (colour << 2, bonus) for
# yellow, green, cyan, purple
BONUS = b"\x08\x0a\x0c\x05\x10\x05\x18\x0a"
_OUTS = ((8, 1), (9, 1), (10, 1), (11, 1), (12, 1), (13, 1))
# a bot keeps drawing towards the target while an opponent needs at most
# this many points (see docs/games/bag-of-ice.md)
CLOSE = 10


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
    remaining L, M, S until a size runs out (engine/bag_of_ice_show.py).
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


def _frac(n, d):
    """n/d in lowest terms (d > 0)."""
    a = n if n >= 0 else -n
    b = d
    while b:
        a, b = b, a % b
    return n // a, d // a


class Game(State):
    """Bag of Ice. See the module docstring."""

    GAME = "bag_of_ice"
    OPTIONS = ("players", "target", "bots")
    UNDO_DEPTH = 24
    __slots__ = ("players", "target", "bots", "phase", "turn", "face", "size",
                 "drawn", "sc", "winner", "turns", "rolloff", "ro",
                 "last_bust", "last_drawn")

    def _configure(self, opts):
        n = self.players = opt_int(opts, "players", 1, 12, 3)
        self.target = opt_int(opts, "target", 1, 999, 60)
        b = opts.pop("bots", None)
        m = 0
        if b is not None:
            for w in b.split(","):
                k = int(w) if w and len(w) < 3 and not w.strip("0123456789") else 0
                if not 0 < k <= n or str(k) != w or m >> (k - 1) & 1:
                    fail(45, (b, n))   # bots=%s: expected seats 1..%d ...
                m |= 1 << (k - 1)
        self.bots = m

    def _init(self):
        n = self.players
        self.sc = [0] * n
        self.rolloff = bytearray(n)
        # players still in the roll-off, a bit each (none with one player)
        self.ro = (1 << n) - 1 if n > 1 else 0
        self.phase = ROLLOFF if n > 1 else DECIDE
        self.turn = 0
        self.face = -1
        self.size = 0
        self.drawn = bytearray()
        self.winner = -1
        self.turns = 0
        self.last_bust = 0xFF
        self.last_drawn = bytearray()

    # ---- what screens read ------------------------------------------------
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
        return cold("engine.bag_of_ice_show").best(self.drawn)

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
        return _frac(bn, d), _frac(gn, d)

    def bust_odds(self):
        return self.odds()[0]

    def expected_gain(self):
        return self.odds()[1]

    # ---- the interface ------------------------------------------------------
    def to_move(self):
        ph = self.phase
        if ph == DONE:
            return OVER
        return self.turn if ph & 1 else CHANCE

    def legal_actions(self):
        ph = self.phase
        if ph == DECIDE:
            return [DRAW_A, STOP] if self.drawn else [DRAW_A]
        if ph == CHOOSE:
            f = self.face
            return [LO[f] + 1, HI[f] + 1]
        return []

    def chance_outcomes(self):
        ph = self.phase
        if ph == ROLLOFF:
            return _OUTS
        out = []
        if ph == ROLL:
            for f in range(6):
                if self.bag_size(LO[f]) or self.bag_size(HI[f]):
                    out.append(_OUTS[f])
        elif ph == DRAW:
            for c in COLS:
                p = c << 2 | self.size
                n = self.bag_count(p)
                if n:
                    out.append((_PIECE + p, n))
        return out

    def token(self, a):
        if a < _FACE:
            return _MOVES[a]
        if a < _PIECE:
            return FACES[a - _FACE]
        return NAMES[a - _PIECE]

    def action(self, tok):
        if tok in _MOVES:
            return _MOVES.index(tok)
        if tok in FACES:
            return _FACE + FACES.index(tok)
        if tok in NAMES:
            return _PIECE + NAMES.index(tok)
        fail(46, (tok,), IllegalMove)   # unknown token %r: ...

    def why_illegal(self, a):
        return cold("engine.bag_of_ice_text").why_illegal(self, a)

    def _apply(self, a):
        if a >= _PIECE:
            p = a - _PIECE
            if p >> 2:
                self.drawn.append(p)
                self.phase = DECIDE
                self.face = -1
                self.size = 0
            else:
                self._end(p)
        elif a >= _FACE:
            f = a - _FACE
            self.face = f
            if self.phase == ROLLOFF:
                cold("engine.bag_of_ice_text").rolled(self, f)
                return
            lo = LO[f]
            hi = HI[f]
            if not self.bag_size(lo):
                lo = hi
            elif hi and self.bag_size(hi):
                self.phase = CHOOSE
                return
            self.size = lo
            self.phase = DRAW
        elif a == DRAW_A:
            self.phase = ROLL
        elif a == STOP:
            self._end(0xFF)
        else:
            self.size = a - 1
            self.phase = DRAW

    def _end(self, red):
        """The turn ends: a bust by ``red``, or a stop (``red`` 0xFF)."""
        d = self.drawn
        p = self.turn
        self.phase = DECIDE
        if red == 0xFF:
            s = self.sc[p] + value(counts(d))
            self.sc[p] = s
            if s >= self.target:
                self.winner = p
                self.phase = DONE
        else:
            d.append(red)
        # the drawn bytearray moves on whole; _snap keeps the one it replaces
        self.last_drawn = d
        self.last_bust = red
        self.drawn = bytearray()
        self.face = -1
        self.size = 0
        if self.turns < 65535:
            self.turns += 1
        if self.phase != DONE:
            self.turn = (p + 1) % self.players

    # ---- bots -----------------------------------------------------------
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
        bag = []
        for p in ORDER:
            for _ in range(FULL[p] - h[p]):
                bag.append(NAMES[p])
        drawn = []
        for p in self.drawn:
            drawn.append(NAMES[p])
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
            "rolloff": list(self.rolloff),
        }

    def render(self):
        return cold("engine.bag_of_ice_show").render(self)

    # ---- undo and saves -----------------------------------------------------
    def _pack(self):
        return cold("engine.bag_of_ice_text").pack(self)

    def _unpack(self, body):
        cold("engine.bag_of_ice_text").unpack(self, body)

    def _snap(self, a):
        # what _restore needs to take ``a`` back in place: a turn's end
        # keeps what it replaces (the last turn's pieces are referenced,
        # not copied), a roll-off roll the roll-off, a pyramid its face
        if a == STOP or a == _PIECE + self.size:   # a stop or a red drawn
            return (self.last_drawn, self.last_bust, self.turn, self.face)
        if self.phase == ROLLOFF:
            return (bytes(self.rolloff), self.ro, self.turn, self.face)
        return self.face if a >= _PIECE else None

    def _restore(self, b):
        h = self.hist
        a = ((h[-2] << 8) | h[-1]) & 0x7FFF
        if type(b) is tuple:
            self.face = b[3]
            self.turn = b[2]
            if _FACE <= a < _PIECE:    # a roll-off roll
                self.rolloff = bytearray(b[0])
                self.ro = b[1]
                self.phase = ROLLOFF
                return
            d = self.last_drawn
            if a == STOP:
                self.sc[b[2]] -= value(counts(d))
                self.winner = -1
                self.phase = DECIDE
            else:                      # a bust: back to the draw
                d = d[:-1]
                self.size = a & 3
                self.phase = DRAW
            self.drawn = d
            self.last_drawn = b[0]
            self.last_bust = b[1]
            self.turns -= 1
        elif a >= _PIECE:      # a pyramid drawn: back to the draw
            self.drawn = self.drawn[:-1]
            self.face = b
            self.size = a & 3
            self.phase = DRAW
        elif a >= _FACE:       # a die face: back to the roll
            self.face = -1
            self.size = 0
            self.phase = ROLL
        elif a == DRAW_A:
            self.phase = DECIDE
        else:                  # a size chosen
            self.size = 0
            self.phase = CHOOSE
