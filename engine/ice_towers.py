"""``ice_towers``: IceTowers played in turns on one device, 2 to 5 players.

Options: ``players=2..5`` (3), ``ghost=0|1`` (0; only with 2 players: a
third stash that never moves), ``bots=2,3`` (seats that the device plays,
counted from 1 or named by their colours ``red yellow green blue purple``).
The rules as played are in docs/games/icetowers.md; where the seed is open
the project rulings decide.

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

Loaded when first needed, each in a module of its own: the bot
(engine/ice_towers_bot.py) and the text protocol's words, a token read
back, the legal moves in one line, the fields and the text picture
(engine/ice_towers_text.py).
"""

from engine.state import State, CHANCE, OVER, IllegalMove, opt_int, opt_seats

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

COLOURS = "rygbp"
# the seats' colours, the names ``bots=`` takes (seat order)
SEAT_NAMES = ("red", "yellow", "green", "blue", "purple")
PASS = const(0)
DEAL = const(1)        # + kind (colour * 3 + size - 1): "r3"
CAP = const(16)        # + from * 81 + to: "a1-c4"
SPLIT = const(6600)    # + cell * 76 + height: "c4/3"
MINE = const(16384)    # + (cell * 76 + height) * 82 + target: "c4:2-b2"
SET_DOWN = const(81)   # the target of a mine that sets its piece down: "c4:2"
HEIGHTS = const(76)    # heights 0..75 fit an action (a tower holds <= 75)
TOP = const(16384 + 81 * 76 * 82)

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
        self.bots = opt_seats(opts, n, SEAT_NAMES)
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
        from engine.ice_towers_text import legal_text
        return legal_text(self)

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
        from engine.ice_towers_text import action
        return action(self, tok)

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
        from engine.ice_towers_text import fields
        return fields(self)

    def repeats(self):
        """How many times the current position has occurred (0 in the deal)."""
        if self.dealt < self.total:
            return 0
        return self._seen(self.sum1, self.sum2, self.turn, 0)

    def render(self):
        from engine.ice_towers_text import render
        return render(self)

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
        See "The bot" in docs/games/icetowers.md and
        engine/ice_towers_bot.py."""
        from engine.ice_towers_bot import think
        return think(self)

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
