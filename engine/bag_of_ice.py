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
slot). The best arrangement is in engine/bag_of_ice_play.py, refusals and
reading saves in engine/bag_of_ice_text.py.
"""

from engine.state import CHANCE, OVER, IllegalMove, opt_int, opt_seats
from engine.bag_of_ice_odds import (Odds, value, counts, name, FULL, LO, HI,
                                    COLS, FACES, PHASES, ROLLOFF, DECIDE, ROLL,
                                    CHOOSE, DRAW, DONE, DRAW_A, STOP)
from engine import bag_of_ice_text

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# actions: moves 0..4, die faces _FACE + 0..5, pieces _PIECE + piece code
_FACE = const(8)
_PIECE = const(32)
_MOVES = ("draw", "stop", "size1", "size2", "size3")
_OUTS = ((8, 1), (9, 1), (10, 1), (11, 1), (12, 1), (13, 1))


class Game(Odds):
    """Bag of Ice. See the module docstring."""

    GAME = "bag_of_ice"
    OPTIONS = ("players", "target", "bots")
    UNDO_DEPTH = 24
    __slots__ = ("players", "target", "bots", "phase", "turn", "face", "size",
                 "drawn", "points", "winner", "turns", "rolloff",
                 "rolling_off", "last_bust", "last_drawn")

    def _configure(self, opts):
        n = self.players = opt_int(opts, "players", 1, 12, 3)
        self.target = opt_int(opts, "target", 1, 999, 60)
        self.bots = opt_seats(opts, n)

    def _init(self):
        n = self.players
        self.points = [0] * n
        self.rolloff = bytearray(n)
        # players still in the roll-off, a bit each (none with one player)
        self.rolling_off = (1 << n) - 1 if n > 1 else 0
        self.phase = ROLLOFF if n > 1 else DECIDE
        self.turn = 0
        self.face = -1
        self.size = 0
        self.drawn = bytearray()
        self.winner = -1
        self.turns = 0
        self.last_bust = 0xFF
        self.last_drawn = bytearray()

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
        return name(a - _PIECE)

    def action(self, tok):
        if tok in _MOVES:
            return _MOVES.index(tok)
        if tok in FACES:
            return _FACE + FACES.index(tok)
        if len(tok) == 2:
            p = "roygcbp".find(tok[0]) << 2 | "0123".find(tok[1])
            if p >= 0 and FULL[p]:
                return _PIECE + p
        raise IllegalMove("unknown token %r: Bag of Ice moves are draw, stop, "
                          "size1, size2, size3; the die faces S M L SM SL ML; "
                          "pieces like y2" % tok)

    def why_illegal(self, a):
        return bag_of_ice_text.why_illegal(self, a)

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

    def _end(self, red):
        """The turn ends: a bust by ``red``, or a stop (``red`` 0xFF)."""
        d = self.drawn
        p = self.turn
        self.phase = DECIDE
        if red == 0xFF:
            s = self.points[p] + value(counts(d))
            self.points[p] = s
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

    def _rolled(self, f):
        """Roll-off: the player ``turn`` rolled face ``f``. When everyone
        still in has rolled, the highest total stays in; a single one
        starts."""
        ro = self.rolling_off
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
        self.rolling_off = ro

    # ---- text ---------------------------------------------------------------
    def render(self):
        # scores (* the player to move), then what the turn holds
        out = []
        for p in range(self.players):
            out.append("%s%d:%d" % ("*" if p == self.turn else " ", p + 1,
                                    self.points[p]))
        ph = self.phase
        out.append("target %d\n%s" % (self.target, PHASES[ph]))
        if ph == ROLLOFF:
            for p in range(self.players):
                if self.rolling_off >> p & 1:
                    out.append("%d:%d" % (p + 1, self.rolloff[p]))
        elif ph == DONE:
            out.append("%d after %d turns" % (self.winner + 1, self.turns))
        else:
            if self.face >= 0:
                out.append(FACES[self.face])
            for p in self.drawn:
                out.append(name(p))
            out.append("= %d" % value(counts(self.drawn)))
        return " ".join(out)

    # ---- undo and saves -----------------------------------------------------
    def _pack(self):
        # phase, turn, face + 1, size, winner + 1, last_bust, turns (2),
        # roll-off set (2), scores (2 each), roll-off pips (1 each),
        # len(last_drawn), last_drawn, drawn
        t = self.turns
        ro = self.rolling_off
        out = bytearray((self.phase, self.turn, self.face + 1, self.size,
                         self.winner + 1, self.last_bust, t >> 8, t & 255,
                         ro >> 8, ro & 255))
        for s in self.points:
            out.append(s >> 8)
            out.append(s & 255)
        out += self.rolloff
        out.append(len(self.last_drawn))
        out += self.last_drawn
        out += self.drawn
        return bytes(out)

    def _unpack(self, body):
        bag_of_ice_text.unpack(self, body)

    def _snap(self, a):
        # what _restore needs to take ``a`` back in place: a turn's end
        # keeps what it replaces (the last turn's pieces are referenced,
        # not copied), a roll-off roll the roll-off, a pyramid its face
        if a == STOP or a == _PIECE + self.size:   # a stop or a red drawn
            return (self.last_drawn, self.last_bust, self.turn, self.face)
        if self.phase == ROLLOFF:
            return (bytes(self.rolloff), self.rolling_off, self.turn, self.face)
        return self.face if a >= _PIECE else None

    def _restore(self, b):
        h = self.hist
        a = ((h[-2] << 8) | h[-1]) & 0x7FFF
        if type(b) is tuple:
            self.face = b[3]
            self.turn = b[2]
            if _FACE <= a < _PIECE:    # a roll-off roll
                self.rolloff = bytearray(b[0])
                self.rolling_off = b[1]
                self.phase = ROLLOFF
                return
            d = self.last_drawn
            if a == STOP:
                self.points[b[2]] -= value(counts(d))
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
