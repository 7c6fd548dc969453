"""``ice_towers``: IceTowers played in turns on one device, 2 to 5 players.

Options: ``players=2..5`` (3), ``ghost=0|1`` (0; only with 2 players: a
third stash that never moves), ``bots=2,3`` (seats, counted from 1, that the
device plays). The rules as played are in docs/games/icetowers.md; where
the seed is open the project rulings decide.

The table is a square grid (side 6..9) of towers, each a bytearray of piece
codes bottom to top (``colour << 2 | size``, colours ``r y g b p`` by stash,
the ghost's after the seats'); an empty cell is an empty bytearray.

Chance: the deal only, one node per cell in reading order (bookkeeping,
``auto_chance``), each outcome a kind of piece weighted by how many are
left to deal.

Actions are pure functions of their tokens. Cells are numbered 9 wide
(``row * 9 + col``) whatever the side, so a token means the same on every
table. A mine names a cell, a height and a target, which needs more than
the 15 bits of a two-byte history entry: this game's actions take three
bytes (``ACTION_BYTES``). Undo replays the history.

The end: every seat passing in a row, or a position (the multiset of towers
and the seat to move) occurring a third time. Positions are counted by a
fingerprint: the sum over towers of a hash of each tower (an xor-multiply
chain over its pieces and a last mix, so no tower's hash is a sum of parts
that another tower could share), kept modulo two primes below 2**24 (48
bits in all) and updated as towers change, so counting costs a few small-int
operations a move and memory a dict slot a position: the key and the value
are small ints (every product stays below 2**30), so a board allocates no
object for them.
"""

from engine.state import State, CHANCE, OVER, IllegalMove, opt_int

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

COLOURS = "rygbp"
PASS = const(0)
DEAL = const(1)        # + kind (colour * 3 + size - 1): "r3"
CAP = const(16)        # + from * 81 + to: "a1-c4"
SPLIT = const(6600)    # + cell * 76 + height: "c4/3"
MINE = const(16384)    # + (cell * 76 + height) * 82 + target: "c4:2-b2"
SET_DOWN = const(81)   # the target of a mine that sets its piece down: "c4:2"
HEIGHTS = const(76)    # heights 0..75 fit an action (a tower holds <= 75)
TOP = const(16384 + 81 * 76 * 82)
# a bot passes once this many moves have been played since the deal, so a
# table of bots always ends by the passes
BOT_LIMIT = const(150)
# what a free piece is worth as ammunition, by size (pips, doubled like
# the bot's values): a small caps any top, a large only a large
AMMO = (0, 5, 2, 0)

_P1 = const(16777213)
_P2 = const(16777199)
# a fixed random number per piece code, for the towers' hashes
_R1 = (725678, 2024816, 3347009, 6602416, 5824526, 4854738, 2487386, 4380171,
       1806366, 4369411, 6909973, 5492307, 4494798, 1805965, 5460979, 5218805,
       383537, 3382805, 1187620, 3398259)
_R2 = (1910783, 7643816, 6518985, 1236507, 1652412, 6953109, 281900, 1666957,
       7099780, 6644840, 7387030, 5017239, 2659511, 6818144, 3906428, 1807205,
       3478359, 6547813, 3213061, 2324374)


def piece_name(pc):
    """Piece code -> ``r3``."""
    return COLOURS[pc >> 2] + "0123"[pc & 3]


def cell_name(c9):
    """A cell numbered 9 wide -> ``c4``."""
    return "abcdefghi"[c9 % 9] + str(c9 // 9 + 1)


def _cell(text):
    """``c4`` -> the cell numbered 9 wide, or -1 if malformed."""
    if len(text) != 2:
        return -1
    col = "abcdefghi".find(text[0])
    row = "123456789".find(text[1])
    if col < 0 or row < 0:
        return -1
    return row * 9 + col


def _height(text):
    """Decimal 1..75 without leading zeros, or -1."""
    if not text or not text.isdigit() or text[0] == "0" or len(text) > 2:
        return -1
    h = int(text)
    return h if h < HEIGHTS else -1


def _hashes(tower):
    """The tower's two hashes, modulo _P1 and _P2 (0, 0 for no tower)."""
    if not tower:
        return 0, 0
    # xor then multiply (not a sum of per-piece parts: towers holding the
    # same pieces at the same depths would add up alike), then a last mix
    a = 1
    b = 7
    for pc in tower:
        a = ((a ^ _R1[pc]) * 31) % _P1
        b = ((b ^ _R2[pc]) * 37) % _P2
    a = ((a ^ (a >> 11)) * 43) % _P1
    b = ((b ^ (b >> 13)) * 41) % _P2
    return a, b


def _pips(tower):
    n = 0
    for pc in tower:
        n += pc & 3
    return n


class Game(State):
    """IceTowers in turns. See the module docstring."""

    GAME = "ice_towers"
    ACTION_BYTES = 3     # a mine needs 23 bits (see the module docstring)
    OPTIONS = ("players", "ghost", "bots")
    __slots__ = ("players", "ghost", "bots", "stashes", "side", "total",
                 "cells", "left", "dealt", "turn", "passes", "moves", "over",
                 "counts", "sum1", "sum2", "hash1", "hash2")

    # ---- options and the start ---------------------------------------------
    def _configure(self, opts):
        n = self.players = opt_int(opts, "players", 2, 5, 3)
        g = opts.pop("ghost", "0")
        if g not in ("0", "1"):
            raise ValueError("ghost=%s: choose one of 0|1" % g)
        if g == "1" and n != 2:
            raise ValueError("ghost=1 needs players=2 (players=%d)" % n)
        self.ghost = g == "1"
        b = opts.pop("bots", None)
        m = 0
        if b is not None:
            for w in b.split(","):
                k = int(w) if w and len(w) < 3 and w.isdigit() else 0
                if not 0 < k <= n or str(k) != w or m >> (k - 1) & 1:
                    raise ValueError("bots=%s: expected seats 1..%d" % (b, n))
                m |= 1 << (k - 1)
        self.bots = m
        self.stashes = n + (1 if self.ghost else 0)
        self.total = 15 * self.stashes
        side = 6
        while side * side < self.total:
            side += 1
        self.side = side

    def _init(self):
        self.cells = [bytearray() for _ in range(self.side * self.side)]
        self.left = bytearray(5 if k < 3 * self.stashes else 0 for k in range(15))
        self.dealt = 0
        self.turn = 0
        self.passes = 0
        self.moves = 0
        self.over = False
        self.counts = {}
        self.sum1 = 0
        self.sum2 = 0
        # each cell's tower hashes (0 for an empty cell), kept with it
        self.hash1 = [0] * (self.side * self.side)
        self.hash2 = [0] * (self.side * self.side)

    def num_players(self):
        return self.players

    def is_bot(self, p):
        return bool(self.bots >> p & 1)

    def seat_colour(self, p):
        # r y g b p by stash, as engine.pieces numbers them
        return b"\x00\x02\x03\x05\x06"[p]

    def auto_chance(self):
        return self.dealt < self.total

    # ---- cells --------------------------------------------------------------
    def _index(self, c9):
        """A cell numbered 9 wide -> this table's index, or -1 off the table."""
        row = c9 // 9
        col = c9 % 9
        if row >= self.side or col >= self.side:
            return -1
        return row * self.side + col

    def _c9(self, i):
        return (i // self.side) * 9 + i % self.side

    def _first_empty(self):
        i = 0
        for t in self.cells:
            if not t:
                return i
            i += 1
        return -1

    def _set(self, i, tower):
        """Put ``tower`` in cell ``i``, keeping the position's hash sums."""
        c, d = _hashes(tower)
        self.sum1 = (self.sum1 - self.hash1[i] + c) % _P1
        self.sum2 = (self.sum2 - self.hash2[i] + d) % _P2
        self.hash1[i] = c
        self.hash2[i] = d
        self.cells[i] = tower

    def _seen(self, s1, s2, turn, add):
        """How many times the position with hash sums ``s1``, ``s2`` and
        ``turn`` to move has occurred, after counting one more if ``add``.
        ``counts`` maps ``s1 * 8 + turn`` to ``s2 << 2 | count``: small ints
        only (nothing on a board's heap but the dict's slot), and a list of
        those on the rare clash of the first part."""
        k = s1 * 8 + turn
        v = self.counts.get(k)
        if v is None:
            if add:
                self.counts[k] = s2 << 2 | 1
            return add
        if type(v) is int:
            if v >> 2 == s2:
                if add:
                    v += 1
                    self.counts[k] = v
                return v & 3
            if add:
                self.counts[k] = [v, s2 << 2 | 1]
            return add
        for i in range(len(v)):
            if v[i] >> 2 == s2:
                if add:
                    v[i] += 1
                return v[i] & 3
        if add:
            v.append(s2 << 2 | 1)
        return add

    # ---- the interface --------------------------------------------------------
    def to_move(self):
        if self.dealt < self.total:
            return CHANCE
        if self.over:
            return OVER
        return self.turn

    def chance_outcomes(self):
        if self.dealt >= self.total:
            return []
        out = []
        left = self.left
        for k in range(15):
            if left[k]:
                out.append((DEAL + k, left[k]))
        return out

    def _moves(self):
        """The legal moves as ``(kind, cell, height, target)`` in the order
        ``legal`` lists them (kind 0 cap, 1 mine, 2 split; cells are this
        table's indexes, target -1 for a set-down), ``pass`` left out."""
        me = self.turn
        cells = self.cells
        n = len(cells)
        # the towers a piece may cap, with their tops' sizes, once
        targets = []
        for g in range(n):
            u = cells[g]
            if u and u[-1] >> 2 != me:
                targets.append((g, u[-1] & 3))
        out = []
        for f in range(n):
            t = cells[f]
            if len(t) == 1 and t[0] >> 2 == me:
                s = t[0] & 3
                for g, z in targets:
                    if z >= s:
                        out.append((0, f, 0, g))
        for f in range(n):
            t = cells[f]
            if len(t) < 3 or t[-1] >> 2 == me:
                continue
            mine = 0
            for pc in t:
                if pc >> 2 == me:
                    mine += 1
            if mine < 2:
                continue
            for h in range(len(t)):
                if t[h] >> 2 != me:
                    continue
                s = t[h] & 3
                found = False
                for g, z in targets:
                    if z >= s and g != f:
                        out.append((1, f, h + 1, g))
                        found = True
                if not found:
                    out.append((1, f, h + 1, -1))
        for f in range(n):
            t = cells[f]
            for h in range(1, len(t)):
                col = t[h] >> 2
                if col != me and t[h - 1] >> 2 == col:
                    out.append((2, f, h + 1, 0))
        return out

    def legal_actions(self):
        if self.dealt < self.total or self.over:
            return []
        out = []
        c9 = self._c9
        for kind, f, h, g in self._moves():
            if kind == 0:
                out.append(CAP + c9(f) * 81 + c9(g))
            elif kind == 1:
                out.append(MINE + (c9(f) * HEIGHTS + h) * 82 +
                           (SET_DOWN if g < 0 else c9(g)))
            else:
                out.append(SPLIT + c9(f) * HEIGHTS + h)
        out.append(PASS)
        return out

    def legal_text(self):
        """The protocol's ``legal`` answer for a player to move, written in
        one go (the tokens from the cells' names, each named once); None
        in the deal and at the end, where the protocol answers itself."""
        if self.dealt < self.total or self.over:
            return None
        names = [cell_name(self._c9(i)) for i in range(len(self.cells))]
        out = []
        for kind, f, h, g in self._moves():
            if kind == 0:
                out.append(names[f] + "-" + names[g])
            elif kind == 1:
                tok = "%s:%d" % (names[f], h)
                out.append(tok if g < 0 else tok + "-" + names[g])
            else:
                out.append("%s/%d" % (names[f], h))
        out.append("pass")
        return " ".join(out)

    def token(self, a):
        if a == PASS:
            return "pass"
        if a < CAP:
            k = a - DEAL
            return COLOURS[k // 3] + str(k % 3 + 1)
        if a < SPLIT:
            a -= CAP
            return cell_name(a // 81) + "-" + cell_name(a % 81)
        if a < MINE:
            a -= SPLIT
            return cell_name(a // HEIGHTS) + "/" + str(a % HEIGHTS)
        a -= MINE
        t = a % 82
        a //= 82
        out = cell_name(a // HEIGHTS) + ":" + str(a % HEIGHTS)
        return out if t == SET_DOWN else out + "-" + cell_name(t)

    def action(self, tok):
        if tok == "pass":
            return PASS
        if len(tok) == 2 and tok[0] in COLOURS and tok[1] in "123":
            return DEAL + COLOURS.find(tok[0]) * 3 + int(tok[1]) - 1
        if len(tok) == 5 and tok[2] == "-":
            f = _cell(tok[:2])
            g = _cell(tok[3:])
            if f >= 0 and g >= 0:
                return CAP + f * 81 + g
        elif len(tok) > 3 and tok[2] == "/":
            f = _cell(tok[:2])
            h = _height(tok[3:])
            if f >= 0 and h > 0:
                return SPLIT + f * HEIGHTS + h
        elif len(tok) > 3 and tok[2] == ":":
            f = _cell(tok[:2])
            rest = tok[3:]
            i = rest.find("-")
            g = SET_DOWN
            if i >= 0:
                g = _cell(rest[i + 1:])
                rest = rest[:i]
            h = _height(rest)
            if f >= 0 and g >= 0 and h > 0:
                return MINE + (f * HEIGHTS + h) * 82 + g
        raise IllegalMove("unknown token %r: IceTowers moves are a cap a1-c4, "
                          "a mine c4:2-b2 or c4:2, a split c4/3, or pass"
                          % tok[:40])

    def why_illegal(self, a):
        if self.dealt < self.total:
            if type(a) is int and DEAL <= a < CAP:
                return "no %s is left to deal" % self.token(a)
            return "the deal is not finished"
        if self.over:
            return "the game is over"
        return self._refusal(a)

    def _refusal(self, a):
        """Why the player to move may not play action ``a``, or None."""
        if type(a) is not int or a < 0 or a >= TOP:
            return "no such move"
        if a == PASS:
            return None
        if a < CAP:
            return "the deal is over"
        me = self.turn
        you = COLOURS[me]
        cells = self.cells
        if a < SPLIT:
            a -= CAP
            f9 = a // 81
            g9 = a % 81
            f = self._index(f9)
            g = self._index(g9)
            if f < 0 or g < 0:
                return self._off(f9 if f < 0 else g9)
            t = cells[f]
            u = cells[g]
            if not t:
                return "no piece in %s" % cell_name(f9)
            if len(t) > 1:
                return "the tower in %s is not a freestanding piece" % cell_name(f9)
            if t[0] >> 2 != me:
                return "%s in %s is not yours (%s)" % (piece_name(t[0]), cell_name(f9), you)
            if f == g:
                return "a piece cannot cap itself"
            return self._no_cap(t[0], g9, u)
        if a < MINE:
            a -= SPLIT
            f9 = a // HEIGHTS
            h = a % HEIGHTS
            f = self._index(f9)
            if f < 0:
                return self._off(f9)
            t = cells[f]
            if not t:
                return "no tower in %s" % cell_name(f9)
            if h > len(t):
                return "the tower in %s is %d high" % (cell_name(f9), len(t))
            if h < 2:
                return "a split lifts from height 2 or higher"
            col = t[h - 1] >> 2
            if t[h - 2] >> 2 != col:
                return "heights %d and %d of %s are not one colour" % (h - 1, h, cell_name(f9))
            if col == me:
                return "you may not split your own colour"
            return None
        a -= MINE
        g9 = a % 82
        a //= 82
        f9 = a // HEIGHTS
        h = a % HEIGHTS
        f = self._index(f9)
        if f < 0:
            return self._off(f9)
        t = cells[f]
        if not t:
            return "no tower in %s" % cell_name(f9)
        if h < 1 or h > len(t):
            return "the tower in %s is %d high" % (cell_name(f9), len(t))
        if t[-1] >> 2 == me:
            return "you control %s: mine only from a tower you do not control" % cell_name(f9)
        mine = 0
        for pc in t:
            if pc >> 2 == me:
                mine += 1
        if mine < 2:
            return "%s holds fewer than two of your pieces" % cell_name(f9)
        pc = t[h - 1]
        if pc >> 2 != me:
            return "%s at %s:%d is not yours (%s)" % (piece_name(pc), cell_name(f9), h, you)
        if g9 == SET_DOWN:
            for g in range(len(cells)):
                u = cells[g]
                if g != f and u and u[-1] >> 2 != me and u[-1] & 3 >= pc & 3:
                    return ("the mined %s can cap %s: it must cap a tower"
                            % (piece_name(pc), cell_name(self._c9(g))))
            return None
        if g9 == f9:
            return "the mined piece may not go back onto %s" % cell_name(f9)
        g = self._index(g9)
        if g < 0:
            return self._off(g9)
        return self._no_cap(pc, g9, cells[g])

    def _off(self, c9):
        return "no cell %s on a %dx%d table" % (cell_name(c9), self.side, self.side)

    def _no_cap(self, pc, g9, u):
        """Why piece ``pc`` of the player to move may not cap tower ``u``."""
        if not u:
            return "no tower in %s" % cell_name(g9)
        if u[-1] >> 2 == self.turn:
            return "the top of %s is your own colour" % cell_name(g9)
        if u[-1] & 3 < pc & 3:
            return "the top of %s (%s) is smaller than %s" % (
                cell_name(g9), piece_name(u[-1]), piece_name(pc))
        return None

    def is_legal(self, a):
        return not self.over and self._refusal(a) is None

    def _apply(self, a):
        cells = self.cells
        if a < CAP and a != PASS:
            k = a - DEAL
            self.left[k] -= 1
            self._set(self.dealt, bytearray(((k // 3) << 2 | (k % 3 + 1),)))
            self.dealt += 1
            if self.dealt == self.total:
                self._seen(self.sum1, self.sum2, 0, 1)
            return
        if a == PASS:
            self.passes += 1
        else:
            self.passes = 0
            if a < SPLIT:
                a -= CAP
                f = self._index(a // 81)
                g = self._index(a % 81)
                self._set(g, cells[g] + cells[f])
                self._set(f, bytearray())
            elif a < MINE:
                a -= SPLIT
                f = self._index(a // HEIGHTS)
                h = a % HEIGHTS
                t = cells[f]
                self._set(f, t[:h - 1])
                self._set(self._first_empty(), t[h - 1:])
            else:
                a -= MINE
                g9 = a % 82
                a //= 82
                f = self._index(a // HEIGHTS)
                h = a % HEIGHTS
                t = cells[f]
                pc = t[h - 1]
                self._set(f, t[:h - 1] + t[h:])
                if g9 == SET_DOWN:
                    self._set(self._first_empty(), bytearray((pc,)))
                else:
                    g = self._index(g9)
                    u = cells[g] + bytearray((pc,))
                    self._set(g, u)
        self.moves += 1
        self.turn = (self.turn + 1) % self.players
        n = self._seen(self.sum1, self.sum2, self.turn, 1)
        if n >= 3 or self.passes >= self.players:
            self.over = True

    def history_text(self):
        out = []
        for a, _ in self.history():
            out.append(self.token(a))
        return " ".join(out)

    # ---- scoring and text ------------------------------------------------------
    def colour_scores(self):
        """Pips controlled by each stash colour (seats, then the ghost)."""
        out = [0] * self.stashes
        for t in self.cells:
            if t:
                out[t[-1] >> 2] += _pips(t)
        return out

    def scores(self):
        return self.colour_scores()[:self.players]

    def winners(self):
        """The seats with the highest score once the game is over, else []."""
        if not self.over:
            return []
        s = self.scores()
        hi = max(s)
        return [p for p in range(self.players) if s[p] == hi]

    def stack(self, i):
        """Cell ``i``'s tower in notation (``-`` when empty)."""
        t = self.cells[i]
        if not t:
            return "-"
        return "".join([piece_name(pc) for pc in t])

    def fields(self):
        cs = self.colour_scores()
        bots = []
        for p in range(self.players):
            if self.bots >> p & 1:
                bots.append(p)
        t = self.to_move()
        return {
            "players": self.players,
            "ghost": self.ghost,
            "colours": COLOURS[:self.stashes],
            "side": self.side,
            "grid": "/".join([self.stack(i) for i in range(len(self.cells))]),
            "turn": t if t >= 0 else -1,
            "passes": self.passes,
            "repeats": self.repeats(),
            "moves": self.moves,
            "ghost_score": cs[self.players] if self.ghost else None,
            "winners": self.winners(),
            "bots": bots,
        }

    def repeats(self):
        """How many times the current position has occurred (0 in the deal)."""
        if self.dealt < self.total:
            return 0
        return self._seen(self.sum1, self.sum2, self.turn, 0)

    def render(self):
        # one line per row, each column as wide as its widest stack
        side = self.side
        names = [self.stack(i) for i in range(len(self.cells))]
        widths = []
        for c in range(side):
            w = 2
            for r in range(side):
                if len(names[r * side + c]) > w:
                    w = len(names[r * side + c])
            widths.append(w + 1)
        head = ["   "]
        for c in range(side):
            head.append("abcdefghi"[c] + " " * (widths[c] - 1))
        lines = ["".join(head).rstrip()]
        for r in range(side):
            row = [str(r + 1) + "  "]
            for c in range(side):
                s = names[r * side + c]
                row.append(s + " " * (widths[c] - len(s)))
            lines.append("".join(row).rstrip())
        cs = self.colour_scores()
        out = []
        for p in range(self.players):
            out.append("%d %s:%d" % (p + 1, COLOURS[p], cs[p]))
        if self.ghost:
            out.append("(ghost %s:%d)" % (COLOURS[self.players], cs[self.players]))
        lines.append("  ".join(out))
        t = self.to_move()
        if t == CHANCE:
            lines.append("dealing: %d of %d" % (self.dealt, self.total))
        elif t == OVER:
            lines.append("over after %d moves; won by %s" % (
                self.moves, " ".join([str(p + 1) for p in self.winners()])))
        else:
            lines.append("%d (%s) to move; passes %d, position seen %d" % (
                t + 1, COLOURS[t], self.passes, self.repeats()))
        return "\n".join(lines)

    # ---- the bot -----------------------------------------------------------------
    def bot_move(self):
        """The move of a bot seat to move now; None for a person, the deal or
        the end."""
        t = self.to_move()
        if t >= 0 and self.bots >> t & 1:
            return self.hint()
        return None

    def hint(self):
        """The bot's move for whoever is to move; None in the deal and at the
        end. (:meth:`think` run to its end.)"""
        a = None
        for a in self.think():
            pass
        return a

    def think(self):
        """The bot, a bounded slice of work per ``next()``; the last value
        yielded is the chosen action (None in the deal and at the end).
        See "The bot" in docs/games/icetowers.md."""
        me = self.to_move()
        if me < 0:
            yield None
            return
        if self.moves >= BOT_LIMIT:
            yield PASS
            return
        n = self.players
        cells = self.cells
        ncell = len(cells)
        # weight of a pip per colour: N - 1 for me, -1 for another seat,
        # 0 for the ghost; a move's gain is the sum of weight x pips moved
        weight = [-1] * self.stashes
        weight[me] = n - 1
        if self.ghost:
            weight[n] = 0
        # pass A: my free pieces (a cell per size); the opponents' "ammo",
        # the pieces they could cap with next: free ones, counted by size
        free = [-1, -1, -1, -1]
        ammo = [0, 0, 0, 0]
        for i in range(ncell):
            t = cells[i]
            if len(t) == 1:
                c = t[0] >> 2
                if c == me:
                    if free[t[0] & 3] < 0:
                        free[t[0] & 3] = i
                elif c < n:
                    ammo[t[0] & 3] += 1
        yield None
        # pass B: targets, my towers' exposure, mine sources, splits, and
        # the opponents' minable pieces (more ammo)
        exposed = [0, 0, 0, 0, 0]   # my largest tower with a top >= size
        targets = []
        sources = []
        splits = []
        count = [0] * self.stashes
        least = [0] * self.stashes
        side = self.side
        for i in range(ncell):
            if i and i % side == 0:
                yield None          # a row a slice
            t = cells[i]
            if not t:
                continue
            top = t[-1]
            tc = top >> 2
            total = 0
            for c in range(self.stashes):
                count[c] = 0
                least[c] = 3
            for pc in t:
                s = pc & 3
                total += s
                c = pc >> 2
                count[c] += 1
                if s < least[c]:
                    least[c] = s
            if tc == me:
                for s in range(1, (top & 3) + 1):
                    if total > exposed[s]:
                        exposed[s] = total
            else:
                z = top & 3 if len(t) == 1 and tc < n else 0
                targets.append((i, total, tc, top & 3, z))
                if count[me] >= 2:
                    sources.append(i)
            for c in range(n):
                if c != me and c != tc and count[c] >= 2:
                    # a piece that seat could mine here (the smallest is
                    # the one that counts: it reaches the most tops)
                    ammo[least[c]] += 1
            # splits: the lower part (heights 1..h-1) passes from tc to c
            low = t[0] & 3
            for h in range(1, len(t)):
                c = t[h] >> 2
                if c != me and t[h - 1] >> 2 == c and weight[c] > weight[tc]:
                    splits.append((low * (weight[c] - weight[tc]),
                                   SPLIT + self._c9(i) * HEIGHTS + h + 1))
                low += t[h] & 3
        # the risk of a position: the largest of my towers an opponent's
        # ammo can cap next, its pips counted as lost to them (x N)
        amin = 1
        while amin < 4 and not ammo[amin]:
            amin += 1
        risk = exposed[amin] * n
        # pass C: the best two targets per size, each valued by its gain
        # less the risk after the piece lands there (values doubled: the
        # risk counts half)
        best = [None, [-99999, -1, -99999, -1], [-99999, -1, -99999, -1],
                [-99999, -1, -99999, -1]]
        k = 0
        for i, total, tc, ts, z in targets:
            gain = 2 * total * (weight[me] - weight[tc])
            a = amin
            if z:
                gain += 2 * AMMO[z]
                # capping an opponent's free piece takes it out of the ammo
                ammo[z] -= 1
                a = 1
                while a < 4 and not ammo[a]:
                    a += 1
                ammo[z] += 1
            for s in range(1, ts + 1):
                th = exposed[a]
                if s >= a and total + s > th:
                    th = total + s
                v = gain - th * n
                b = best[s]
                if v > b[0]:
                    b[2] = b[0]
                    b[3] = b[1]
                    b[0] = v
                    b[1] = i
                elif v > b[2]:
                    b[2] = v
                    b[3] = i
            k += 1
            if k % 16 == 0:
                yield None
        cands = []
        for s in (1, 2, 3):
            b = best[s]
            if free[s] >= 0 and b[1] >= 0:
                cands.append((b[0] - 2 * AMMO[s] * (n - 1), 2,
                              CAP + self._c9(free[s]) * 81 + self._c9(b[1])))
        # mines: each of my pieces in each source, onto the best other target
        for i in sources:
            t = cells[i]
            w = 2 * (weight[me] - weight[t[-1] >> 2])
            for h in range(len(t)):
                pc = t[h]
                if pc >> 2 != me:
                    continue
                s = pc & 3
                base = MINE + (self._c9(i) * HEIGHTS + h + 1) * 82
                b = best[s]
                if b[1] >= 0 and b[1] != i:
                    cands.append((b[0] + s * w, 1, base + self._c9(b[1])))
                elif b[1] == i and b[3] >= 0:
                    cands.append((b[2] + s * w, 1, base + self._c9(b[3])))
                else:
                    # no tower but the source takes it: it is set down
                    th = exposed[amin]
                    if s >= amin and s > th:
                        th = s
                    cands.append((s * w - th * n + 2 * AMMO[s] * (n - 1), 1,
                                  base + SET_DOWN))
        for v, a in splits:
            cands.append((2 * v - risk, 0, a))
        yield None
        # the best move first, if it beats passing (whose value is the risk
        # as it stands); one that makes a position seen before is skipped,
        # so bots never cause a repetition
        cands.sort()
        yield None
        floor = -risk
        if self.passes == n - 1:
            # a pass ends the game now: take it when it wins outright,
            # else play on with any move
            sc = self.scores()
            top = 0
            for p in range(n):
                if p != me and sc[p] >= top:
                    top = sc[p]
            if sc[me] > top:
                yield PASS
                return
            floor = -999999
        k = len(cands) - 1
        while k >= 0:
            if cands[k][0] <= floor:
                break
            a = cands[k][2]
            if not self._seen_after(a):
                yield a
                return
            k -= 1
            yield None
        yield PASS

    def _seen_after(self, a):
        """How many times the position after legal move ``a`` has occurred
        so far (nothing changed)."""
        cells = self.cells
        # (cell whose tower is replaced or -1 for a new one, its new tower)
        changes = []
        if a < SPLIT:
            a -= CAP
            f = self._index(a // 81)
            g = self._index(a % 81)
            changes.append((g, cells[g] + cells[f]))
            changes.append((f, None))
        elif a < MINE:
            a -= SPLIT
            f = self._index(a // HEIGHTS)
            h = a % HEIGHTS
            t = cells[f]
            changes.append((f, t[:h - 1]))
            changes.append((-1, t[h - 1:]))
        else:
            a -= MINE
            g9 = a % 82
            a //= 82
            f = self._index(a // HEIGHTS)
            h = a % HEIGHTS
            t = cells[f]
            pc = bytearray((t[h - 1],))
            changes.append((f, t[:h - 1] + t[h:]))
            if g9 == SET_DOWN:
                changes.append((-1, pc))
            else:
                g = self._index(g9)
                changes.append((g, cells[g] + pc))
        s1 = self.sum1
        s2 = self.sum2
        for i, new in changes:
            a2, b2 = _hashes(new)
            if i >= 0:
                s1 -= self.hash1[i]
                s2 -= self.hash2[i]
            s1 = (s1 + a2) % _P1
            s2 = (s2 + b2) % _P2
        return self._seen(s1, s2, (self.turn + 1) % self.players, 0)
