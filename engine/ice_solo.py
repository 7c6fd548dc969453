"""Ice Solo, a solitaire: the original (4 colours) and the 5-colour version.

Original (``variant=4``): 60 pieces are scattered over an 8x8 field; the
player builds 20 towers (large, medium, small, no piece on its own colour)
by carrying loose pieces along lines of sight; each finished tower goes to
the next free slot of a 4x5 grid. Then the nesting phase rearranges the
grid into same-colour nests. ``variant=5`` deals 25 towers on a 5x5 grid
and starts nesting at once. The rules are in docs/games/ice-solo.md; where
the seed is open, the project rulings decide. Refusal messages and the
option checks live in engine/ice_solo_text.py, the text picture in
engine/ice_solo_show.py, the hint in engine/ice_solo_hint.py, the towering
phase's line of sight, move list and remix in engine/ice_solo_tower.py,
and the deal's weights in engine/ice_solo_deal.py; all are imported when
first needed.

Coordinates: every cell, on the field or the grid, is named and encoded as
on an 8-wide board (``index = row * 8 + col``), so a move token like
``a1-c3`` means the same in both phases and tokens stay pure functions of
the action.

Chance: every random step is a chain of small chance nodes with exact
integer weights (``auto_chance`` is True for all of them):

* the scatter: each field cell in reading order gets a piece kind or stays
  empty, weighted by how many of that kind are left (uniform arrangement);
* a deal (5 colours, or the quick start): the larges cell by cell, then the
  mediums, then the smalls. Each layer is uniform among the arrangements
  that put no piece on its own colour: its cells go group by group (by the
  colour below), the first groups proposed and accepted or redone at two
  checkpoints, the last two weighed exactly (engine/ice_solo_deal.py;
  small integers only). The count of valid later layers is the same for
  every earlier layer (each colour has exactly five pieces of a size), so
  this is uniform over all valid deals;
* a remix: each piece taken apart gets an empty field cell, weight 1 each.
  Once revealed, a remix's outcome is remembered against the position it
  was made from, so undoing the remix and remixing again brings the same
  scatter back (undo is not a re-roll).
"""

from engine.state import State, CHANCE, OVER, IllegalMove, opt_choice

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

NONE = const(0xFF)
# the action codes and phases (shared with the hint)
from engine.ice_solo_codes import (  # noqa: F401 (names of this module)
    REMIX, END, STYLE_YES, STYLE_NO, PLACE, EMPTY, DEAL_OK, DEAL_REDO, TARGET,
    P_DEAL, P_SCATTER, P_TOWER, P_REMIX, P_NEST, P_OVER)

COLOURS4 = b"\x00\x02\x03\x05"        # r y g b
COLOURS5 = b"\x00\x02\x03\x05\x06"    # r y g b p
MEMO_MAX = const(8)    # remembered remix outcomes (oldest dropped first)


def is_clean(st):
    """The cell's whole stack is one full nest (a large, then the medium
    and the small of its colour: codes p, p - 1, p - 2)."""
    return (len(st) == 3 and st[0] & 3 == 3 and st[1] == st[0] - 1 and
            st[2] == st[0] - 2)


def top_locked(st):
    """The top piece is the small of a full nest (so it never moves)."""
    n = len(st)
    return (n >= 3 and st[n - 1] & 3 == 1 and st[n - 2] & 3 == 2 and
            st[n - 3] & 3 == 3 and st[n - 1] >> 2 == st[n - 2] >> 2 == st[n - 3] >> 2)


# the names of the cells of rows 1-5 (a1 b1 ... h5) by 8-wide number: every
# grid cell, so a nesting move's token is one join of two constants (two
# slices of one string of names cost a board several times more: a slice
# object, then a string, each). A list, not a tuple: a tuple of constants
# is loaded as one string object per name (~40 B each on a board), a
# list's names are interned (~8 B each, shared with every other module)
NAMES = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2",
    "e2", "f2", "g2", "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3",
    "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5",
    "e5", "f5", "g5", "h5"]


def _name(x):
    """The name of 8-wide cell ``x`` (a field cell past row 5 is spelt
    out: that happens only in a remix's tokens and a history)."""
    return NAMES[x] if x < 40 else "abcdefgh"[x & 7] + "12345678"[x >> 3]


# the tokens of the actions REMIX (4096) .. DEAL_REDO (4165): the four
# words, the placed pieces by code (PLACE + code; "" where the size is 0,
# no piece), "" up to EMPTY, then EMPTY, DEAL_OK, DEAL_REDO. Constants, so
# no string is made for a token (a deal has ~150 of them), and a list: its
# strings are interned names, not one string object each as in a tuple
TOK = [
    "remix", "end", "style-yes", "style-no", "", "=r1", "=r2", "=r3", "",
    "=o1", "=o2", "=o3", "", "=y1", "=y2", "=y3", "", "=g1", "=g2", "=g3", "",
    "=c1", "=c2", "=c3", "", "=b1", "=b2", "=b3", "", "=p1", "=p2", "=p3", "",
    "=w1", "=w2", "=w3", "", "=k1", "=k2", "=k3", "", "", "", "", "", "", "",
    "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
    "", "", "=-", "=ok", "=redo"]
# (history_text reads an action's low byte as its index here, and 104 as
# TARGET's: both hold while REMIX is 4096 and TARGET 4200)

# a grid cell's bit (1 << grid index) mod 37 -> its 8-wide cell number,
# for grids 5 and 4 wide (2 ** i mod 37 differs for every i below 36: the
# nesting moves go through the cells as the bits of an int)
A8_5 = (b"\x00\x00\x01\x00\x02\x23\x00\x00\x03\x19\x24\x00\x00\x11\x00\x13\x04\x0a\x1a"
        b"\x00\x00\x22\x00\x18\x00\x10\x12\x09\x00\x21\x14\x0c\x08\x20\x0b\x1c\x1b")
A8_4 = (b"\x00\x00\x01\x00\x02\x00\x00\x00\x03\x20\x00\x00\x00\x13\x00\x19\x08\x0b\x21"
        b"\x00\x00\x00\x00\x1b\x00\x12\x18\x0a\x00\x00\x1a\x11\x09\x00\x10\x23\x22")

# piece names by code (sizes 1-3 of the colours r o y g c b p), for the
# texts of the grid and the field: a list of constants and one join is
# faster on a board than two byte appends a piece (and a list's strings
# are interned names, a few bytes each)
PN = ["", "r1", "r2", "r3", "", "o1", "o2", "o3", "", "y1", "y2", "y3", "",
      "g1", "g2", "g3", "", "c1", "c2", "c3", "", "b1", "b2", "b3", "", "p1",
      "p2", "p3"]

# colour letters by colour number (as engine.pieces names them)
COLOURS = "roygcbpwk"


def _cell(tok, i):
    """The 8-wide cell named at ``tok[i:i + 2]`` ("a1" .. "h8"), or -1."""
    c = "abcdefgh".find(tok[i])
    r = "12345678".find(tok[i + 1])
    return -1 if c < 0 or r < 0 else (r << 3) | c


# colour number -> its index in COLOURS5 (and COLOURS4 for the first four)
CIX = b"\x00\xff\x01\x02\xff\x03\x04\xff\xff\xff\xff\xff\xff\xff\xff\xff"


# the phase modules, imported on first use (each imports this module): the
# towering phase's (line of sight, move list, remix) and the deal's weights
_LAZY = ["engine.ice_solo_tower", None, "engine.ice_solo_deal", None]


# once the towering module is imported: its tables of all 64 cell names,
# without and with a move's dash, for the move tokens (globals of this
# module: ``token``'s hot case reads them without an attribute lookup)
_CN = None
_CD = None


def _lazy(i):
    """The phase module at ``_LAZY[i]`` (0: towering, 2: deal), imported
    on first use."""
    global _CN, _CD
    m = _LAZY[i + 1]
    if m is None:
        m = __import__(_LAZY[i], None, None, ("x",))
        _LAZY[i + 1] = m
        if i == 0:
            _CN = m.CELLN
            _CD = m.CELLD
    return m


def _tw():
    return _lazy(0)


def _dl():
    return _lazy(2)


def _module(name):
    """Module ``engine.<name>``, one of this game's helper modules (the
    words, the picture, saves and undo by replay), imported when first
    needed: each imports this module."""
    return __import__("engine." + name, None, None, ("x",))


class Game(State):
    """Ice Solo. See the module docstring for the model."""

    GAME = "ice_solo"
    OPTIONS = ("variant", "quick", "deal", "scatter")
    __slots__ = ("variant", "cols", "width", "quick", "start_grid",
                 "start_field", "phase", "grid", "lo", "hi", "pos", "layer",
                 "left", "pending_pieces", "force", "remixes", "style",
                 "undos", "memo", "_any_move", "order", "checkpoints",
                 "_outcomes", "_base", "_base_n", "_nest_at", "_breakdown")

    def __init__(self, options=None):
        # these survive undo's replay and are saved beside the history
        self.undos = 0
        self.memo = []      # [(position key bytes, outcome cells bytearray)]
        self._base = None   # the position after the opening deal (for undo)
        self._base_n = 0
        State.__init__(self, options)

    # ---- options ----------------------------------------------------------
    def _configure(self, opts):
        v = opt_choice(opts, "variant", ("4", "5"), "5")
        q = opt_choice(opts, "quick", ("0", "1"), "0")
        deal = opts.pop("deal", None)
        scatter = opts.pop("scatter", None)
        self.variant = int(v)
        self.cols = COLOURS4 if v == "4" else COLOURS5
        self.width = 4 if v == "4" else 5
        self.quick = q == "1"
        self.start_grid = None
        self.start_field = None
        if (deal is not None or scatter is not None or
                (self.quick and self.variant == 5)):
            # parsing and checking a position (or refusing quick=1 for 5
            # colours): text-heavy, needed once; a plain quick start of the
            # original needs neither
            _module("ice_solo_text").configure(self, deal, scatter)

    def _init(self):
        n = self.width * 5
        self.grid = [bytearray() for _ in range(n)]
        self.lo = None
        self.hi = None
        self.pos = 0
        self.layer = 0
        self.left = None
        self.pending_pieces = None
        self.force = None
        self.remixes = 0
        self.style = 0          # 0 not judged, 1 yes, 2 no
        self._any_move = -1     # cached "some move exists" (-1: unknown)
        self._breakdown = None  # cached breakdown() (None: not worked out)
        self.order = None       # deal: the layer's cells, group by group
        self.checkpoints = 0    # deal: checkpoints passed in this layer
        self._outcomes = None   # this chance node's outcomes, once listed
        self._nest_at = 0x7FFF  # actions before the nesting phase began
        if self.start_grid is not None:
            self._nest_at = 0
            b = self.start_grid          # packed: height, then the pieces
            j = 0
            for i in range(n):
                k = b[j]
                self.grid[i] = bytearray(b[j + 1:j + 1 + k])
                j += 1 + k
            self.phase = P_NEST
        elif self.variant == 5 or self.quick:
            self.phase = P_DEAL
            self.left = bytearray([5] * len(self.cols))
        else:
            self.lo = bytearray([NONE] * 64)
            self.hi = bytearray([NONE] * 64)
            self.phase = P_TOWER
            if self.start_field is not None:
                for i in range(64):
                    self.lo[i] = self.start_field[i]
            else:
                self.phase = P_SCATTER
                # 12 kinds (colour-major, sizes 1..3) then the 4 empties
                self.left = bytearray([5] * 12 + [4])

    # ---- helpers ------------------------------------------------------------
    def _g(self, a):
        """8-wide cell index -> grid list index, or -1 if off the grid."""
        c = a & 7
        r = a >> 3
        if c >= self.width or r >= 5:
            return -1
        return r * self.width + c

    def _a(self, g):
        """Grid list index -> 8-wide cell index."""
        return (g // self.width) * 8 + g % self.width

    def towers(self):
        """Finished towers in the grid (towering phase)."""
        n = 0
        for st in self.grid:
            if st:
                n += 1
        return n

    def all_clean(self):
        """Every cell a clean nest."""
        return self.breakdown()["clean"] == len(self.grid)

    def style_due(self):
        return self.phase == P_NEST and self.style == 0 and self.all_clean()

    # ---- towering -----------------------------------------------------------
    def _targets(self, p):
        """Field cells a loose piece ``p`` could land on (size and colour)."""
        return _tw().targets(self, p)

    def _tower_moves(self, first, only=-1, klo=0, khi=8):
        """Legal towering moves (see ``ice_solo_tower.tower_moves``)."""
        return _tw().tower_moves(self, first, only, klo, khi)

    def _has_tower_move(self):
        if self._any_move < 0:
            self._any_move = 1 if _tw().has_move(self) else 0
        return self._any_move == 1

    def _has_nest_move(self):
        if self._any_move < 0:
            self._any_move = 1 if self._nest_moves(True) else 0
        return self._any_move == 1

    def _can_remix(self):
        return _tw().can_remix(self)

    # ---- nesting --------------------------------------------------------------
    def _nest_ok(self, s, t):
        """0 if the nesting move s -> t (grid indices) is legal, else a
        reason code (its words are in engine/ice_solo_text.py)."""
        g = self.grid
        a = g[s]
        if not a:
            return 1                    # nothing there
        if top_locked(a):
            return 2                    # a full nest's small
        w = self.width
        if s == t:
            return 3
        if s // w != t // w and s % w != t % w:
            return 4                    # not in line
        b = g[t]
        if not b:
            return 0 if a[-1] & 3 == 1 else 5
        return 0 if b[-1] >> 2 == a[-1] >> 2 else 6

    def _nest_moves(self, first, line=None):
        """Legal nesting moves in reading order of (from, to); with
        ``first`` stop at the first one found; given a bytearray ``line``,
        each move's token and a space are written into it instead (see
        :meth:`legal_text`). The cells are bits of an int per top colour
        (and one of the empty cells): a top's targets are its colour's
        cells (and the empty ones, for a small) masked by its row and
        column, so a board runs a few steps per source and per move, not a
        test per pair of cells."""
        g = self.grid
        w = self.width
        a8 = A8_5 if w == 5 else A8_4
        col = 0x108421 if w == 5 else 0x11111      # column 0's bits
        rw = (1 << w) - 1                           # row 1's
        by = [0] * 9            # per colour code: the cells it tops
        emp = 0
        b = 1
        for a in g:
            if a:
                by[a[-1] >> 2] |= b
            else:
                emp |= b
            b <<= 1
        out = []
        s = -1
        for a in g:
            s += 1
            if not a:
                continue
            p = a[-1]
            t = by[p >> 2]
            if p & 3 == 1:
                m = len(a)
                if m >= 3 and a[m - 2] == p + 1 and a[m - 3] == p + 2:
                    continue                    # a full nest's small
                t |= emp
            c = s % w
            b = 1 << s
            t &= (col << c | rw << (s - c)) ^ b     # its row and column
            if not t:
                continue
            s8 = a8[b % 37]
            while t:
                b = t & -t              # the lowest cell left
                t ^= b
                if line is None:
                    out.append(s8 << 6 | a8[b % 37])
                    if first:
                        return out
                else:
                    line += NAMES[s8]
                    line += "-"
                    line += NAMES[a8[b % 37]]
                    line += " "
        return out

    # ---- the State interface --------------------------------------------------
    def to_move(self):
        ph = self.phase
        if ph == P_DEAL or ph == P_SCATTER or ph == P_REMIX:
            return CHANCE
        if ph == P_OVER:
            return OVER
        if ph == P_TOWER:
            if self._has_tower_move() or self._can_remix():
                return 0
            return OVER
        # a move rules out the style judgement (all clean: every top is a
        # full nest's small), so the score's breakdown is needed only without
        if self._has_nest_move() or self.style_due():
            return 0
        return OVER

    def legal_actions(self):
        if self.to_move() != 0:
            return []
        if self.phase == P_TOWER:
            out = self._tower_moves(False)
            if not out:
                out.append(REMIX)
            out.append(END)
            return out
        out = self._nest_moves(False)
        if not out and self.style_due():
            return [STYLE_YES, STYLE_NO]
        out.append(END)
        return out

    def legal_text(self):
        """``legal``'s answer written in one piece on a board while a move
        is legal (towering: see engine/ice_solo_tower.py), else None (and
        always at a chance node): the protocol then writes the tokens one
        by one. A token made as a new string is first looked up among the
        interned ones, which costs a board more than finding the move."""
        ph = self.phase
        if ph == P_TOWER:
            return _tw().legal_text(self)
        if ph != P_NEST:
            return None
        b = bytearray()
        try:
            self._nest_moves(False, b)
        except TypeError:       # CPython's bytearray takes no str
            return None
        if not b:               # no move: the game is over or the style
            return None         # judgement is due, the protocol's path
        b += b"end"
        return b.decode()

    def is_legal(self, a):
        """One action checked without building the whole legal list."""
        if self.to_move() != 0:
            return False
        if self.phase == P_NEST and self.style_due():
            return a == STYLE_YES or a == STYLE_NO
        if a == END:
            return True
        if a >= 4096:
            return a == REMIX and self.phase == P_TOWER and not self._has_tower_move()
        s = a >> 6
        t = a & 63
        if self.phase == P_TOWER:
            return _tw().move_ok(self, s, t)
        gs = self._g(s)
        gt = self._g(t)
        return gs >= 0 and gt >= 0 and self._nest_ok(gs, gt) == 0

    def chance_outcomes(self):
        """Kept until the next action (sampling checks what it listed); the
        list is shared, not to be changed."""
        if self._outcomes is None:
            ph = self.phase
            if ph == P_DEAL:
                self._outcomes = _dl().outcomes_of(self)
            elif ph == P_SCATTER or ph == P_REMIX:
                self._outcomes = _tw().chance(self)
            else:
                return []
        return self._outcomes

    def auto_chance(self):
        return self.to_move() == CHANCE

    def _apply(self, a):
        ph = self.phase
        self._any_move = -1
        self._breakdown = None
        self._outcomes = None
        if ph == P_DEAL:
            _dl().apply(self, a)
        elif ph == P_SCATTER or ph == P_REMIX:
            _tw().apply_chance(self, a)
        elif a == END or a == STYLE_NO or a == STYLE_YES:
            if a == STYLE_YES:
                self.style = 1
            elif a == STYLE_NO:
                self.style = 2
            self.phase = P_OVER
        elif a == REMIX:
            _tw().remix(self)
        elif ph == P_TOWER:
            _tw().apply_move(self, a)
        else:
            gs = self._g(a >> 6)
            gt = self._g(a & 63)
            src = self.grid[gs]
            self.grid[gt].append(src[-1])
            self.grid[gs] = src[:-1]      # MicroPython's bytearray has no pop
        if ph != P_NEST and self.phase == P_NEST:
            # the count of actions before the nesting phase, this one
            # included (State appends it after; a replay sets its own)
            self._nest_at = (len(self.hist) >> 1) + 1

    # ---- tokens -----------------------------------------------------------------
    def token(self, a):
        if a < 4096:        # the hot case: a legal list has 100+ of these
            cd = _CD
            if cd is not None:      # towering: the tower module's names
                return cd[a >> 6] + _CN[a & 63]
            s = a >> 6
            t = a & 63
            if s >= 40 or t >= 40:  # a field cell, no tower module
                return _name(s) + "-" + _name(t)
            return "-".join((NAMES[s], NAMES[t]))
        if a < 4166:
            t = TOK[a - 4096]
            if t:
                return t
            if PLACE <= a < PLACE + 36:     # a colour alone (no such piece)
                return "=" + COLOURS[(a - PLACE) >> 2]
        if TARGET <= a < TARGET + 64:
            return "@" + _name(a - TARGET)
        return "#%d" % a

    def action(self, tok):
        """Token -> action. The forms tokens are written in are read here;
        anything else (a malformed token, or an unusual spelling the
        notation also accepts) goes to engine/ice_solo_text.py, which
        reads it with engine.pieces or says what is wrong with it; so
        the notation module is not held in the heap for every move."""
        n = len(tok)
        if n == 5 and tok[2] == "-":        # a move, "a1-c3"
            s = _cell(tok, 0)
            t = _cell(tok, 3)
            if s >= 0 and t >= 0:
                return (s << 6) | t
        if n == 3 and tok[0] == "@":        # a remix target, "@c5"
            t = _cell(tok, 1)
            if t >= 0:
                return TARGET + t
        elif n and tok in TOK:              # a word or a chance outcome
            return 4096 + TOK.index(tok)
        return _module("ice_solo_text").action(self, tok)

    def why_illegal(self, a):
        return _module("ice_solo_text").why_illegal(self, a)

    # ---- scores and views -----------------------------------------------------------
    def breakdown(self):
        """The live score: a dict of the parts and the total. Kept until the
        next action (a state line asks for it twice, the scores and the
        fields, and to_move once): the caller must not change it."""
        if self._breakdown is not None:
            return self._breakdown
        g = self.grid
        w = self.width
        n = len(g)
        clean = 0
        cl = bytearray(n)       # a clean nest's colour bit, 0 if not clean
        for i in range(n):
            st = g[i]
            if len(st) == 3:    # as is_clean, inline: 25 calls a state line
                b = st[0]
                if b & 3 == 3 and st[1] == b - 1 and st[2] == b - 2:
                    cl[i] = 1 << (b >> 2)
                    clean += 1
        lines = 0
        if clean >= w:          # a rainbow line needs w clean nests
            full = 0
            for c in self.cols:
                full |= 1 << c
            for r in range(0, n, w):
                m = 0
                for i in range(r, r + w):
                    m |= cl[i]
                if m == full:
                    lines += 1
            for c in range(w):
                m = 0
                for i in range(c, n, w):
                    m |= cl[i]
                if m == full:
                    lines += 1
        # the parts first, then the dict in one go (sized once, not grown)
        n = 5 if clean == n else 0
        w = self.style == 1
        c = 20 if lines >= 5 and w else 0
        w = 10 if w else 0
        lines *= 5
        m = -5 * self.remixes
        d = {"clean": clean, "fully_nested": n, "rainbow": lines, "style": w,
             "double_plus_cool": c, "remix": m,
             "total": clean + n + lines + w + c + m}
        self._breakdown = d
        return d

    def scores(self):
        return [self.breakdown()["total"]]

    def phase_name(self):
        if self.to_move() == OVER:
            return "over"
        if self.phase in (P_SCATTER, P_TOWER, P_REMIX):
            return "towering"
        return "nesting"

    def fields(self):
        d = {"variant": self.variant, "phase": self.phase_name(),
             "grid": self.grid_text()}
        if self.lo is not None:
            d["field"] = self.field_text()
        d["remixes"] = self.remixes
        d["undos"] = self.undos
        d["score"] = self.breakdown()
        return d

    def grid_text(self):
        """The grid string: the pieces' constant names and the separators
        in one list, joined once."""
        out = []
        add = out.append
        pn = PN
        sep = ""
        for st in self.grid:
            add(sep)
            sep = "/"
            if not st:
                add("-")
            for p in st:
                add(pn[p])
        return "".join(out)

    def field_text(self):
        return _tw().field_text(self)

    def render(self):
        return _module("ice_solo_show").render(self)

    def history_text(self):
        """The protocol's ``history`` answer: every action's token, in one
        string. Written here, not through ``token``: a method call and its
        tests per action add up over a long history (a deal alone is ~150
        chance nodes). On a board the names go into one buffer (a move's
        token made as a new string is looked up among the interned ones
        first, and a list of the pieces is larger at the peak); CPython's
        bytearray takes no str, so there they go into a list, a character
        each."""
        h = self.hist
        # room for every token and its space (a deal's are 4 bytes, a move's
        # 6, the style judgement's 10): a board's bytearray, emptied, keeps
        # it, so it never regrows (each regrowth copies it, exactly sized)
        line = bytearray(3 * len(h) + 4)
        line[:] = b""
        try:
            line += ""
        except TypeError:
            line = []
        cn = _CN or NAMES       # all 64 names while towering, else rows 1-5
        m = len(cn)
        tok = TOK
        it = iter(h)            # the bytes in pairs: no index arithmetic
        nx = next
        # an action's high byte (chance flag 0x80 aside) is below 16 for a
        # move, and 16 for everything else (REMIX 4096 .. TARGET + 63 =
        # 4263), whose low byte is then its index in TOK (4096 = 16 << 8),
        # or TARGET's 104 plus a field cell
        for x in it:
            y = nx(it)
            if x < 16:
                s = (x << 2) | (y >> 6)
                y &= 63
                if s < m and y < m:
                    line += cn[s]
                    line += "-"
                    line += cn[y]
                else:                   # a field cell, after towering
                    line += _name(s) + "-" + _name(y)
            elif y < 70:
                line += tok[y]
            else:
                line += "@" + _name(y - 104)
            line += " "
        line[-1:] = b""         # the last space
        return "".join(line) if type(line) is list else line.decode()

    def hint(self):
        """A suggested legal move (see engine/ice_solo_hint.py), or None at a
        chance node, at the end, and at the style judgement (yours)."""
        if self.to_move() != 0 or self.style_due():
            return None
        from engine.ice_solo_hint import hint
        return hint(self)

    # ---- undo and saves -----------------------------------------------------------
    def undo(self):
        """Take back the last action: a nesting move, an end or a style
        judgement directly (here: the common case), a towering move by
        the towering module, anything else (a chance outcome, a remix) by
        replaying the rest (engine/ice_solo_replay.py).
        Undoing a move (not a chance outcome) counts in ``undos``; the
        remix memo stays, so a remix done again from the same position
        lands the same way."""
        h = self.hist
        if not h:
            raise IllegalMove("nothing to undo")
        n = (len(h) >> 1) - 1          # the index of the action undone
        a = ((h[-2] << 8) | h[-1]) & 0x7FFF
        if n >= self._nest_at and self.phase >= P_NEST and a != REMIX:
            # made in the nesting phase: a move is taken back directly (the
            # top piece of its target goes home), an end or a style
            # judgement reopens the phase
            self.undos += 1
            if a < 4096:
                gs = self._g(a >> 6)
                gt = self._g(a & 63)
                dst = self.grid[gt]
                self.grid[gs].append(dst[-1])
                self.grid[gt] = dst[:-1]
            else:
                self.phase = P_NEST
                self.style = 0
            self._any_move = -1
            self._breakdown = None
            self.hist = h[:-2]
            return
        if self.lo is not None and _tw().undo(self, a):
            return
        _module("ice_solo_undo").undo(self, n)

    def _pack(self):
        return _module("ice_solo_undo").pack(self)

    def _unpack(self, body):
        _module("ice_solo_undo").unpack(self, body)
