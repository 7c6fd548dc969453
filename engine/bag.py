"""``bag``: a table tool that draws pieces or rocks without replacement.

``draw`` is the move; the chance node that follows weighs every kind still
in the bag by how many are left. ``return`` puts every drawn item back.
"""

from engine.state import State, CHANCE, IllegalMove, escape
from engine.pieces import parse_piece, fmt_piece, NotationError

PRESETS = {
    "bag_of_ice": "r3,y3,g3,c3,p3,r2,y2,p2,c2*2,g2*2,r1,y1*2,g1*2,c1*2,p1*2",
    "ice_stalks": "r*5,o*5,y*5,g*5,c*5,b*5,p*5",
}
# the presets as parse_contents gives them (kinds, counts), so starting a
# preset bag (the app's bag picker, ``new bag``) parses nothing; the tests
# hold them equal to the texts above
_PARSED = {
    "bag_of_ice": (b"\x01\x02\x03\t\n\x0b\r\x0e\x0f\x11\x12\x13\x19\x1a\x1b",
                   b"\x01\x01\x01\x02\x01\x01\x02\x02\x01\x02\x02\x01\x02\x01\x01"),
    "ice_stalks": (b"\x00\x04\x08\x0c\x10\x14\x18", b"\x05\x05\x05\x05\x05\x05\x05"),
}
DRAW = 0
RETURN = 1
_ITEM = 64      # action of an outcome is _ITEM + piece code
MAX_ITEMS = 250


def _digits(s):
    if not s or len(s) > 3:
        return False
    for ch in s:
        if not "0" <= ch <= "9":
            return False
    return True


def parse_contents(text):
    """``'r3*2,y1*4'`` or rocks ``'r*5'`` -> (kinds bytes, counts bytearray)."""
    # walked with find() and counted per piece code (0..35): no list of
    # parts, no tuples, no dict, one slice per part (two with a count), so
    # starting a bag makes little garbage
    c = [0] * 36
    i = 0
    while True:
        j = text.find(",", i)
        if j < 0:
            j = len(text)
        s = text.find("*", i, j)
        try:
            p = parse_piece(text[i:j if s < 0 else s], rock_ok=True)
        except NotationError as e:
            # the form expected, with an example (``r3r3y1`` is refused
            # here: one item per comma, a repeat as ``*N``)
            raise ValueError("contents: %s; expected pieces or rocks separated "
                             "by commas, each with an optional count, e.g. "
                             "r3*2,y1,g*5" % e)
        if s >= 0:
            n = text[s + 1:j]
            # ASCII digits only: str.isdigit() also passes '\u00b2', which int()
            # then refuses with a message about int(), not about the bag
            if not _digits(n) or not 1 <= int(n) <= MAX_ITEMS:
                raise ValueError("contents: bad count in %r (use like r3*2)"
                                 % text[i:j])
            c[p] += int(n)
        else:
            c[p] += 1
        if j == len(text):
            break
        i = j + 1
    kinds = bytearray()
    total = 0
    for p in range(36):
        if c[p]:
            kinds.append(p)
            total += c[p]
    if total > MAX_ITEMS:
        raise ValueError("contents: at most %d items in a bag" % MAX_ITEMS)
    counts = bytearray()
    for p in kinds:
        counts.append(c[p])
    return bytes(kinds), counts


class Game(State):
    """A bag; the state shows what is left per kind and what was drawn."""

    GAME = "bag"
    OPTIONS = ("preset", "contents")
    UNDO_DEPTH = 24
    __slots__ = ("name", "kinds", "full", "left", "drawn", "pending")

    def _configure(self, opts):
        preset = opts.pop("preset", None)
        contents = opts.pop("contents", None)
        if preset is not None and contents is not None:
            raise ValueError("give preset= or contents=, not both")
        if contents is None:
            preset = preset or "bag_of_ice"
            if preset not in PRESETS:
                raise ValueError("preset=%s: choose one of %s"
                                 % (escape(preset), "|".join(sorted(PRESETS))))
            self.name = preset
            self.kinds, full = _PARSED[preset]
            self.full = bytearray(full)
            return
        self.name = "custom"
        self.kinds, self.full = parse_contents(contents)

    def _init(self):
        self.left = bytearray(self.full)
        self.drawn = bytearray()   # piece codes in draw order
        self.pending = False       # a draw is waiting for its chance outcome

    def remaining(self):
        t = 0
        for n in self.left:
            t += n
        return t

    def to_move(self):
        return CHANCE if self.pending else 0

    def legal_actions(self):
        if self.pending:
            return []
        out = []
        if self.remaining():
            out.append(DRAW)
        if self.drawn:
            out.append(RETURN)
        return out

    def chance_outcomes(self):
        if not self.pending:
            return []
        return [(_ITEM + self.kinds[i], self.left[i])
                for i in range(len(self.kinds)) if self.left[i]]

    def token(self, a):
        if a == DRAW:
            return "draw"
        if a == RETURN:
            return "return"
        return fmt_piece(a - _ITEM)

    def action(self, tok):
        if tok == "draw":
            return DRAW
        if tok == "return":
            return RETURN
        try:
            return _ITEM + parse_piece(tok, rock_ok=True)
        except NotationError:
            raise IllegalMove("unknown token %r: bag moves are draw, return, "
                              "and at a draw the item drawn (like r3 or r)" % tok)

    def why_illegal(self, a):
        if self.pending:
            if a < _ITEM:
                return "a draw is under way: sample it first"
            return "no %s is left in the bag" % fmt_piece(a - _ITEM)
        if a == DRAW:
            return "the bag is empty: return the drawn items first"
        if a == RETURN:
            return "nothing has been drawn"
        return "draw first"

    def _apply(self, a):
        if a == DRAW:
            self.pending = True
        elif a == RETURN:
            self.left = bytearray(self.full)
            self.drawn = bytearray()
        else:
            p = a - _ITEM
            self.left[self.kinds.find(bytes((p,)))] -= 1
            self.drawn.append(p)
            self.pending = False

    def scores(self):
        return [len(self.drawn)]

    def counts(self):
        """``{token: left}`` for every kind the bag holds."""
        d = {}
        for i in range(len(self.kinds)):
            d[fmt_piece(self.kinds[i])] = self.left[i]
        return d

    def fields(self):
        return {"bag": self.name, "left": self.counts(),
                "remaining": self.remaining(),
                "drawn": [fmt_piece(p) for p in self.drawn]}

    def render(self):
        out = []
        for i in range(len(self.kinds)):
            out.append(fmt_piece(self.kinds[i]))
            out.append(":%d" % self.left[i])
            out.append(" ")
        if out:
            out.pop()
        left = "".join(out)
        drawn = " ".join([fmt_piece(p) for p in self.drawn]) or "-"
        return "left %d  %s\ndrawn %s%s" % (self.remaining(), left, drawn,
                                            "  (drawing)" if self.pending else "")

    def _pack(self):
        return bytes((1 if self.pending else 0,)) + bytes(self.left) + bytes(self.drawn)

    def _snap(self, a):
        # a draw and its outcome are taken back in place (see _restore);
        # only return, which forgets what was drawn, keeps a packed position
        return self._pack() if a == RETURN else None

    def _restore(self, body):
        if body is None:   # undo of a draw or of the item it drew
            h = self.hist
            a = ((h[-2] << 8) | h[-1]) & 0x7FFF
            if a == DRAW:
                self.pending = False
            else:
                self.left[self.kinds.find(bytes((a - _ITEM,)))] += 1
                self.drawn = self.drawn[:-1]
                self.pending = True
            return
        k = len(self.kinds)
        if len(body) < 1 + k or body[0] > 1:
            raise ValueError("bag state is truncated or malformed")
        left = bytearray(body[1:1 + k])
        drawn = bytearray(body[1 + k:])
        # every item is either still in the bag or drawn, never both
        # (counted by hand: bytearray.count() is missing on some ports)
        if len(drawn) > sum(self.full):
            raise ValueError("bag state draws more items than the bag holds")
        seen = bytearray(k)
        for p in drawn:
            i = self.kinds.find(bytes((p,)))
            if i < 0:
                raise ValueError("bag state draws an item the bag never held")
            seen[i] += 1
        for i in range(k):
            if left[i] + seen[i] != self.full[i]:
                raise ValueError("bag state does not match its contents")
        if body[0] and len(drawn) == sum(self.full):
            # a pending draw with nothing left would be a chance node with
            # no outcomes
            raise ValueError("bag state is drawing from an empty bag")
        self.pending, self.left, self.drawn = bool(body[0]), left, drawn
