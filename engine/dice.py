"""``dice``: a table tool that rolls 1-6 fair dice of one kind.

``roll`` is the move; each die is then one chance node with equal weights.
"""

from engine.state import State, CHANCE, IllegalMove, opt_choice, opt_int

DICE = {
    "pyramid": ("S", "M", "L", "SM", "SL", "ML"),
    "color": ("r", "y", "g", "c", "p", "*"),
    "treehouse": ("TIP", "SWAP", "DIG", "HOP", "AIM", "WILD"),
    "d6": ("1", "2", "3", "4", "5", "6"),
}
# pips per face, for the dice that have them (a pyramid size is its pips)
PIPS = {"pyramid": (1, 2, 3, 3, 4, 5), "d6": (1, 2, 3, 4, 5, 6)}
ROLL = 0
_FACE = 16     # action of face i is _FACE + i
KEEP = 8       # past rolls kept for the history view
# a rolling die's outcomes: one constant, so asking allocates nothing
_OUTS = ((16, 1), (17, 1), (18, 1), (19, 1), (20, 1), (21, 1))


class Game(State):
    """Roll ``count`` dice of kind ``die``; keeps the last roll and history."""

    GAME = "dice"
    OPTIONS = ("die", "count")
    UNDO_DEPTH = 24
    __slots__ = ("die", "count", "faces", "rolled", "pending", "past")

    def _configure(self, opts):
        self.die = opt_choice(opts, "die", ("pyramid", "color", "treehouse", "d6"),
                              "pyramid")
        self.count = opt_int(opts, "count", 1, 6, 1)
        self.faces = DICE[self.die]

    def _init(self):
        self.rolled = bytearray()  # faces of the roll in progress or the last one
        self.pending = 0           # dice still to land in this roll
        self.past = []             # earlier rolls (bytes), newest last

    def to_move(self):
        return CHANCE if self.pending else 0

    def legal_actions(self):
        return [] if self.pending else [ROLL]

    def chance_outcomes(self):
        return _OUTS if self.pending else []

    def token(self, a):
        if a == ROLL:
            return "roll"
        return self.faces[a - _FACE]

    def action(self, tok):
        if tok == "roll":
            return ROLL
        for i in range(6):
            if self.faces[i] == tok:
                return _FACE + i
        raise IllegalMove("unknown token %r: dice moves are roll and the faces %s"
                          % (tok, " ".join(self.faces)))

    def why_illegal(self, a):
        if a == ROLL and self.pending:
            return "the dice are still rolling: sample the next die"
        if a != ROLL and not self.pending:
            return "no die is rolling: roll first"
        return None

    def _apply(self, a):
        if a == ROLL:
            if self.rolled:
                self.past.append(bytes(self.rolled))
                if len(self.past) > KEEP:
                    self.past.pop(0)
            self.rolled = bytearray()
            self.pending = self.count
        else:
            self.rolled.append(a - _FACE)
            self.pending -= 1

    def pips(self, roll):
        """Pip total of a roll, or None for dice without pips."""
        p = PIPS.get(self.die)
        if p is None:
            return None
        t = 0
        for f in roll:
            t += p[f]
        return t

    def scores(self):
        return [self.pips(self.rolled) or 0]

    def fields(self):
        return {
            "die": self.die,
            "count": self.count,
            "rolling": self.pending,
            "last": self._names(self.rolled),
            "pips": self.pips(self.rolled),
            "recent": [self._names(r) for r in self.past],
        }

    def _names(self, roll):
        # a loop, not a comprehension: MicroPython makes a closure for each
        out = []
        for f in roll:
            out.append(self.faces[f])
        return out

    def render(self):
        if not self.rolled and not self.pending:
            return "%d %s: not rolled yet" % (self.count, self.die)
        s = " ".join(self._names(self.rolled))
        if self.pending:
            s += " " + " ".join(["?"] * self.pending)
        p = self.pips(self.rolled)
        return s + ("" if p is None else "  (%d pips)" % p)

    def _pack(self):
        out = bytearray((self.pending, len(self.rolled)))
        out += self.rolled
        for r in self.past:
            out.append(len(r))
            out += r
        return bytes(out)

    def _snap(self, a):
        # a face is taken back in place (see _restore): only a roll, which
        # moves the last roll into the past, keeps a packed position
        return self._pack() if a == ROLL else None

    def _restore(self, body):
        if body is None:   # undo of a face
            self.rolled = self.rolled[:-1]
            self.pending += 1
            return
        c = self.count
        try:
            pending = body[0]
            n = body[1]
            rolled = bytearray(body[2:2 + n])
            past = []
            p = 2 + n
            while p < len(body):
                m = body[p]
                past.append(bytes(body[p + 1:p + 1 + m]))
                # a past roll is always complete: roll is refused mid-roll
                if len(past[-1]) != m or m != c:
                    raise IndexError
                p += 1 + m
        except IndexError:
            raise ValueError("dice state is truncated or malformed")
        if (len(rolled) != n or pending + n > c or
                (pending and n + pending != c) or len(past) > KEEP or
                (past and not n and not pending) or
                (not pending and n and n != c)):
            raise ValueError("dice state does not fit count=%d" % c)
        for r in past:
            if max(r) > 5:
                rolled = None
        if rolled is None or (n and max(rolled) > 5):
            raise ValueError("dice state has a bad face")
        self.pending, self.rolled, self.past = pending, rolled, past
