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

Read by screens (see also the cold module engine/bag_of_ice_more.py, loaded
for odds, arrangements, text and the bot): ``players``, ``target``,
``phase``, ``turn``, ``face`` (0..5 for S M L SM SL ML, or -1), ``size``
(the size being drawn, 0 if none), ``drawn`` (this turn, in draw order),
``last_drawn``/``last_bust`` (the turn that just ended, with its red last if
it busted; ``last_bust`` 0xFF after a stop), ``winner`` (-1 until the end),
``turns`` (turns completed), ``rolloff`` (per player, the pips of their
latest roll-off roll; 0 before they roll and once they are out) and the
methods below.

The drawn pyramids are always non-red, so the bag always holds a red of
every size and no die face can find its sizes empty; ``chance_outcomes``
still drops such a face (the rulings' re-roll).

Undo keeps snapshots (UNDO_DEPTH): most actions are taken back in place, a
turn's end or a roll-off roll from a packed position, and a save is a packed
position (a whole history would outgrow the board's save slot).
"""

from engine.state import State, CHANCE, OVER, IllegalMove, opt_int, cold, fail
from engine.pieces import fmt_piece, parse_piece, NotationError

ROLLOFF = 0
DECIDE = 1
ROLL = 2
CHOOSE = 3
DRAW = 4
DONE = 5

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
# a one-colour tree's worth above a mixed one: (colour << 2, bonus) for
# yellow, green, cyan, purple
_BONUS = b"\x08\x0a\x0c\x05\x10\x05\x18\x0a"
_OUTS = ((8, 1), (9, 1), (10, 1), (11, 1), (12, 1), (13, 1))


def _more():
    """engine/bag_of_ice_more.py, through :func:`engine.state.cold`."""
    return cold("engine.bag_of_ice_more")


def value(h):
    """Best arrangement's value of the non-red pyramids counted in ``h``
    (a count per piece code). Every tree is one L, M and S, so a tree
    turns 6 pips of leftovers into 10 (+4) and a one-colour tree adds
    +10 (yellow, purple) or +5 (green, cyan) more. So any arrangement is
    worth pips + 4 * trees + one-colour bonuses, with trees <= min(L, M, S)
    and at most one one-colour tree per colour (one large each), only for a
    colour holding all three sizes. Both bounds are met at once: build
    the one-colour tree of every such colour (one piece of each size per
    tree, so they never exceed min(L, M, S)), then trees from any remaining
    L, M, S until a size runs out. So this sum is the maximum; the tests
    check it against every partition of every subset of the bag."""
    v = 0
    t1 = t2 = t3 = 0
    for i in range(0, 8, 2):
        c = _BONUS[i]
        a = h[c + 1]
        b = h[c + 2]
        d = h[c + 3]
        if a and b and d:
            v += _BONUS[i + 1]
        t1 += a
        t2 += b
        t3 += d
    m = t1 if t1 < t2 else t2
    if t3 < m:
        m = t3
    return v + t1 + 2 * t2 + 3 * t3 + 4 * m


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
                    fail(45, (b, n))   # bots=%s: seats 1..%d
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

    def counts(self):
        """Drawn pyramids this turn, a count per piece code."""
        h = bytearray(28)
        for p in self.drawn:
            h[p] += 1
        return h

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
        return value(self.counts())

    def best(self):
        """(value, trees, leftovers) of the pieces drawn this turn."""
        return _more().best(self.drawn)

    def bust_odds(self):
        """(n, d): the chance that one more roll and draw busts."""
        return _more().odds(self)[0]

    def expected_gain(self):
        """(n, d): the expected change of the turn's value from one more
        roll and draw, then stopping (a bust loses the whole value)."""
        return _more().odds(self)[1]

    def scores(self):
        return list(self.sc)

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
        if ph == ROLL:
            out = []
            for f in range(6):
                if self.bag_size(LO[f]) or self.bag_size(HI[f]):
                    out.append(_OUTS[f])
            return out
        if ph == DRAW:
            out = []
            s = self.size
            for c in COLS:
                p = c << 2 | s
                n = self.bag_count(p)
                if n:
                    out.append((_PIECE + p, n))
            return out
        return []

    def token(self, a):
        if a < _FACE:
            return _MOVES[a]
        if a < _PIECE:
            return FACES[a - _FACE]
        return fmt_piece(a - _PIECE)

    def action(self, tok):
        if tok in _MOVES:
            return _MOVES.index(tok)
        if tok in FACES:
            return _FACE + FACES.index(tok)
        try:
            p = parse_piece(tok)
        except NotationError:
            # unknown token %r: ...
            fail(46, (tok,), IllegalMove)
        return _PIECE + p

    def why_illegal(self, a):
        return _more().why_illegal(self, a)

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
                self._rolled(f)
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

    def _rolled(self, f):
        """Roll-off: the player ``turn`` rolled face ``f``."""
        ro = self.ro
        r = self.rolloff
        p = self.turn
        r[p] = LO[f] + HI[f]
        n = self.players
        p += 1
        while p < n and not ro >> p & 1:
            p += 1
        if p < n:
            self.turn = p
            return
        # the round is over: the highest totals stay in
        hi = 0
        for p in range(n):
            if ro >> p & 1 and r[p] > hi:
                hi = r[p]
        ro = 0
        for p in range(n):
            if r[p] == hi:
                ro |= 1 << p
            else:
                r[p] = 0
        p = 0
        while not ro >> p & 1:
            p += 1
        self.turn = p
        if ro == 1 << p:   # one winner: the game starts
            ro = 0
            self.phase = DECIDE
            self.face = -1
        self.ro = ro

    def _end(self, red):
        """The turn ends: a bust by ``red``, or a stop (``red`` 0xFF)."""
        d = self.drawn
        p = self.turn
        self.phase = DECIDE
        if red == 0xFF:
            s = self.sc[p] + value(self.counts())
            self.sc[p] = s
            if s >= self.target:
                self.winner = p
                self.phase = DONE
        else:
            d.append(red)
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
            return _more().bot(self)
        return None

    def hint(self):
        """The bot's move for whoever is to move (None at chance, the end)."""
        return _more().bot(self) if self.phase & 1 and self.phase != DONE else None

    # ---- text ---------------------------------------------------------------
    def fields(self):
        return _more().fields(self)

    def render(self):
        return _more().render(self)

    # ---- undo and saves -----------------------------------------------------
    def _pack(self):
        return _more().pack(self)

    def _snap(self, a):
        # a move or a piece drawn is taken back in place (see _restore); a
        # turn's end and a roll-off roll keep the packed position
        if a == STOP or (a >= _PIECE and not (a - _PIECE) >> 2) or \
                self.phase == ROLLOFF:
            return self._pack()
        return self.face if a >= _PIECE else None

    def _restore(self, body):
        if body is None or type(body) is int:
            h = self.hist
            a = ((h[-2] << 8) | h[-1]) & 0x7FFF
            if a >= _PIECE:        # a pyramid drawn: back to the draw
                self.drawn = self.drawn[:-1]
                self.face = body
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
            return
        _more().unpack(self, body)

    def _unpack(self, body):
        _more().unpack(self, body, True)
