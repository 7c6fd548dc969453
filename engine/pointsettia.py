"""``pointsettia``: Green and Red grow a plant of pyramids and score its rim.

Options: ``bots=`` (seats the device plays, counted from 1 as in every
game, or by colour: ``1`` or ``green``, Green, who moves first; ``2`` or
``red``; or ``1,2``). No chance nodes. See docs/games/pointsettia.md for the rules as
played and the protocol.

Positions are numbered breadth first: the root 0, its children 1..3, then
each depth in clockwise order, so the children of position ``i >= 1`` are
``2i+2`` (left) and ``2i+3`` (right) and the rim (depth 4) is 22..45 in
clockwise order. A piece is a small int ``colour << 2 | size`` with colours
green 0, red 1 (a colour's index is the seat it scores for), clear 2 and
black 3; 0 is an empty position.

An action is ``piece << 9 | slot << 3 | power``: power 0 is a plain move,
1..4 a clear power onto the ancestor that many steps up, 5 the black
power. The history is the state (UNDO_DEPTH 0): a game is at most 45
moves, replayed for undo and saved whole.
"""

from engine.state import State, OVER, IllegalMove, opt_seats

# the plant (positions, pieces, placing, runs), shared with the bot
from engine.pointsettia_plant import (  # noqa: F401 (names of this module)
    GREEN, RED, CLEAR, BLACK, COLOURS, ROOT_PIECE, MOVES, RIM, BLACK_POWER,
    KINDS, NAMES, INDEX, PARENT, DEPTH, BRANCH, REROOT, piece_name,
    parse_piece, place, rim_owners, run_worth, runs, totals)
# the seats' colours, the names ``bots=`` takes (seat order)
SEAT_NAMES = ("green", "red")


class Game(State):
    """Pointsettia. See the module docstring."""

    GAME = "pointsettia"
    OPTIONS = ("bots",)
    __slots__ = ("bots", "plant", "stash", "moves", "last")

    def _configure(self, opts):
        self.bots = opt_seats(opts, 2, SEAT_NAMES)

    def _init(self):
        self.plant = bytearray(46)
        self.plant[0] = ROOT_PIECE
        self.stash = bytearray(16)
        for k in KINDS:
            self.stash[k] = 4
        self.stash[ROOT_PIECE] = 3
        self.moves = 0
        self.last = -1

    # ---- the interface ------------------------------------------------------
    def num_players(self):
        return 2

    def to_move(self):
        return OVER if self.moves >= MOVES else self.moves & 1

    def is_bot(self, p):
        return bool(self.bots >> p & 1)

    def seat_colour(self, p):
        # Green, Red, as engine.pieces numbers them
        return 3 if p == GREEN else 0

    def legal_actions(self):
        out = []
        if self.moves >= MOVES:
            return out
        plant = self.plant
        stash = self.stash
        for s in range(1, 46):
            if plant[s] or not plant[PARENT[s]]:
                continue
            d = DEPTH[s]
            black = -1
            for k in KINDS:
                if not stash[k]:
                    continue
                a = k << 9 | s << 3
                out.append(a)
                c = k >> 2
                if c == CLEAR:
                    for up in range(1, min(k & 3, d - 1) + 1):
                        out.append(a | up)
                elif c == BLACK and d <= (k & 3):
                    if black < 0:
                        black = self.black_ok(s)
                    if black:
                        out.append(a | BLACK_POWER)
        return out

    def is_legal(self, a):
        """One action checked as ``legal_actions`` would list it."""
        if type(a) is not int or not 0 <= a < 16 << 9:
            return False
        k = a >> 9
        s = a >> 3 & 63
        power = a & 7
        # (a kind with none left, or no kind at all, has a zero count)
        if (self.moves >= MOVES or not self.stash[k] or not 1 <= s < 46 or
                self.plant[s] or not self.plant[PARENT[s]]):
            return False
        if not power:
            return True
        c = k >> 2
        d = DEPTH[s]
        if c == CLEAR:
            return power <= k & 3 and power <= d - 1
        return (power == BLACK_POWER and c == BLACK and d <= k & 3 and
                bool(self.black_ok(s)))

    def black_ok(self, slot):
        """True if re-rooting at the root child above ``slot`` leaves every
        piece within distance 4."""
        table = REROOT[BRANCH[slot] - 1]
        plant = self.plant
        for p in range(RIM, 46):
            if plant[p] and table[p] == 0xFF:
                return 0
        return 1

    def why_illegal(self, a):
        k = a >> 9
        s = a >> 3 & 63
        power = a & 7
        name = piece_name(k)
        if self.moves >= MOVES:
            return "the plant is full: the game is over"
        if not self.stash[k]:
            return "no %s is left in the stash" % name
        if self.plant[s]:
            return "slot %s is taken" % NAMES[s]
        if not self.plant[PARENT[s]]:
            return "slot %s has no parent in the plant yet" % NAMES[s]
        c = k >> 2
        if power == BLACK_POWER:
            if c != BLACK:
                return "only a black piece has the ! power"
            if DEPTH[s] > (k & 3):
                return ("%s at %s would be %d from the root: its power reaches %d"
                        % (name, NAMES[s], DEPTH[s], k & 3))
            return "re-rooting here would push a piece past distance 4"
        if power:
            if c != CLEAR:
                return "only a clear piece can take an ancestor's place"
            if power >= DEPTH[s]:
                return "the root cannot be displaced"
            return "%s reaches %d up, not %d" % (name, k & 3, power)
        return None

    def token(self, a):
        k = a >> 9
        s = a >> 3 & 63
        power = a & 7
        t = piece_name(k) + "@" + NAMES[s]
        if power == BLACK_POWER:
            return t + "!"
        if power:
            p = s
            for _ in range(power):
                p = PARENT[p]
            return t + ">" + NAMES[p]
        return t

    def action(self, tok):
        at = tok.find("@")
        k = parse_piece(tok[:at]) if at > 0 else 0
        rest = tok[at + 1:]
        power = 0
        up = None
        if rest.endswith("!"):
            rest = rest[:-1]
            power = BLACK_POWER
        else:
            gt = rest.find(">")
            if gt >= 0:
                up = rest[gt + 1:]
                rest = rest[:gt]
        s = INDEX.get(rest, 0)
        if k and s:
            if up is None:
                return k << 9 | s << 3 | power
            target = INDEX.get(up, -1)
            if target < 0:
                raise IllegalMove("unknown token %r: %r is not a position" % (tok, up))
            p = s
            d = 0
            while p and p != target:
                p = PARENT[p]
                d += 1
            if p == target and d:
                return k << 9 | s << 3 | d
            raise IllegalMove("%s is not an ancestor of %s" % (up, rest))
        raise IllegalMove("unknown token %r: moves are like g2@1lr, w2@1lr>1 or k2@1l!"
                          % tok)

    def _apply(self, a):
        self.stash[a >> 9] -= 1
        self.plant = place(self.plant, a)
        self.moves += 1
        self.last = a

    def preview(self, a):
        """The plant (a new bytearray by position) after legal action
        ``a``, this state unchanged: for a screen showing a power's effect
        before it is confirmed."""
        return place(bytearray(self.plant), a)

    def scores(self):
        if self.moves < MOVES:
            return [0, 0]
        return totals(self.plant)

    # ---- the bot ------------------------------------------------------------
    def think(self):
        """The bot's move for whoever is to move, in slices: a generator
        whose ``next()`` does a bounded part of the work and yields None,
        and whose last yield is the chosen action (None at the end)."""
        from engine.pointsettia_bot import think
        return think(self)

    def hint(self):
        """The bot's move for whoever is to move (None at the end)."""
        a = None
        for a in self.think():
            pass
        return a

    def bot_move(self):
        """The move of a bot seat to move now; None for a person or the end."""
        if self.moves < MOVES and self.bots >> (self.moves & 1) & 1:
            return self.hint()
        return None

    # ---- text ---------------------------------------------------------------
    def fields(self):
        plant = {}
        for p in range(46):
            if self.plant[p]:
                plant[NAMES[p]] = piece_name(self.plant[p])
        stash = {}
        for k in KINDS:
            stash[piece_name(k)] = self.stash[k]
        rim = all_runs = None
        if self.moves >= MOVES:
            owner, scored = rim_owners(self.plant)
            rim = ""
            for o in owner:
                rim += "." if o == 0xFF else COLOURS[o]
            all_runs = runs(self.plant, owner, scored)
        bots = []
        for p in range(2):
            if self.bots >> p & 1:
                bots.append(p)
        return {
            "plant": plant,
            "stash": stash,
            "rim": rim,
            "runs": all_runs,
            "last": self.token(self.last) if self.last >= 0 else None,
            "bots": bots,
        }

    def render(self):
        lines = []
        if self.moves >= MOVES:
            t = self.scores()
            lines.append("over: Green %d, Red %d: %s" % (
                t[0], t[1], "a tie" if t[0] == t[1] else
                ("Green wins" if t[0] > t[1] else "Red wins")))
        else:
            lines.append("%s to move (move %d of %d)" % (
                ("Green", "Red")[self.moves & 1], self.moves + 1, MOVES))
        self._tree(0, lines)
        out = []
        for k in KINDS:
            if self.stash[k]:
                out.append("%sx%d" % (piece_name(k), self.stash[k]))
        lines.append("stash: " + (" ".join(out) or "empty"))
        if self.moves >= MOVES:
            f = self.fields()
            lines.append("rim: " + f["rim"])
            for run in f["runs"]:
                lines.append("run %s from %d, %d long: %d" % (
                    COLOURS[run[0]], run[1], run[2], run[3]))
        return "\n".join(lines)

    def _tree(self, p, lines):
        """Lines for position ``p`` and below: a filled position with its
        piece, a playable empty slot with ``.``."""
        plant = self.plant
        if plant[p]:
            lines.append("  " * DEPTH[p] + NAMES[p] + " " + piece_name(plant[p]))
        elif p and plant[PARENT[p]]:
            lines.append("  " * DEPTH[p] + NAMES[p] + " .")
            return
        else:
            return
        if p == 0:
            for c in (1, 2, 3):
                self._tree(c, lines)
        elif p < RIM:
            self._tree(2 * p + 2, lines)
            self._tree(2 * p + 3, lines)
