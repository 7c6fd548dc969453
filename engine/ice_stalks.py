"""``ice_stalks``: draw magic rocks and grow ice stalks, pass-and-play for 2
to 4 (docs/games/ice-stalks.md has the rules as played).

Options: ``players=2..4`` (2), ``bots=2,3`` (seats, counted from 1, that the
device plays).

A turn is a draw (a chance node, not bookkeeping: on the device the player
presses to draw), then the drawer's placement. Colours are indexes 0..6 in
rainbow order ``r o y g c b p``; a piece is ``colour << 2 | size``; a stalk
is a bytearray of pieces, base first.

Actions: a draw is the colour (0..6); a placement is
``_MOVE * (target + 1) + piece``, ``target`` 0 for a new base and ``n`` for
stalk ``n`` (1-based, in the list's current order).

The history is the state (UNDO_DEPTH 0): a whole game is 70 actions, so
undo replays at most 69 and a save is 140 bytes.

Read by screens: ``players``, ``turn``, ``rock`` (-1 or a colour),
``bag`` (rocks left per colour), ``stalks``, ``collected`` (per player,
bytes per stalk), ``placed``, ``is_bot(p)``, ``targets()`` (per stalk the
sizes of the drawn colour it takes, a bit each), ``think()``,
``bot_move()``, ``hint()``.
"""

from engine.state import State, CHANCE, OVER, IllegalMove, opt_int, opt_seats

COLOURS = "roygcbp"
ROCKS = 5            # rocks of each colour in a full bag
ALL = 35             # rocks, and so placements, in a game
_MOVE = 32           # see the module docstring
_SEVEN = 127         # a bit per colour: solid stalks of every colour
BONUS = 15           # for solid stalks of all seven colours
# the bot's units are quarter points; a solid of a colour its collector
# lacks gets this credit on top (progress toward the +15)
_CREDIT = 2


def worth(stalk):
    """Points of a completed stalk (base first, a small on top)."""
    if stalk[1] >> 2 == stalk[0] >> 2:
        return 1
    h = len(stalk)
    return 10 if h == 7 else h


def stack(stalk):
    """A stalk in stack notation, bottom to top: ``"c3b2"``."""
    out = []
    for p in stalk:
        out.append(COLOURS[p >> 2])
        out.append("0123"[p & 3])
    return "".join(out)


class Game(State):
    """Ice Stalks. See the module docstring."""

    GAME = "ice_stalks"
    OPTIONS = ("players", "bots")
    __slots__ = ("players", "bots", "bag", "rock", "turn", "stalks",
                 "collected", "placed", "points", "solids", "cache")

    def _configure(self, opts):
        n = self.players = opt_int(opts, "players", 2, 4, 2)
        self.bots = opt_seats(opts, n)

    def _init(self):
        n = self.players
        self.bag = bytearray((ROCKS,) * 7)
        self.rock = -1
        self.turn = 0
        self.stalks = []
        self.collected = []
        for _ in range(n):
            self.collected.append([])
        self.placed = 0
        self.points = [0] * n   # collected stalks' points, bonus apart
        self.solids = [0] * n   # colours of solid stalks held, a bit each
        self.cache = None       # legal_actions() until the next action

    # ---- the interface ------------------------------------------------------
    def num_players(self):
        return self.players

    def is_bot(self, p):
        return bool(self.bots >> p & 1)

    def to_move(self):
        if self.rock >= 0:
            return self.turn
        return OVER if self.placed >= ALL else CHANCE

    def chance_outcomes(self):
        out = []
        if self.rock < 0 and self.placed < ALL:
            bag = self.bag
            for c in range(7):
                if bag[c]:
                    out.append((c, bag[c]))
        return out

    def _feasible(self, c, s, d):
        """Can a rainbow whose top is now colour ``c`` size ``s``, going
        ``d`` (+1 or -1), still be completed: each of the next s - 1
        colours exists and has a rock in the bag."""
        bag = self.bag
        k = 1
        while k < s:
            n = c + k * d
            if n < 0 or n > 6 or not bag[n]:
                return False
            k += 1
        return True

    def sizes(self, stalk, c):
        """The sizes of colour ``c`` stalk ``stalk`` takes now, a bit
        each (bit s for size s)."""
        top = stalk[-1]
        top_colour = top >> 2
        top_size = top & 3
        m = 0
        if len(stalk) == 1:            # a base: either way
            if c == top_colour:
                if self.bag[c]:        # the medium needs a small to come
                    m = 4
            elif c == top_colour + 1 or c == top_colour - 1:
                d = c - top_colour
                if self._feasible(c, 3, d):
                    m = 8
                if self._feasible(c, 2, d):
                    m |= 4
            return m
        d = (stalk[1] >> 2) - (stalk[0] >> 2)
        if d == 0:                     # solid: its small completes it
            return 2 if c == top_colour else 0
        if c == top_colour + d:                # rainbow: the next colour
            if self._feasible(c, top_size, d):
                m = 1 << top_size
            if top_size > 1 and self._feasible(c, top_size - 1, d):
                m |= 1 << (top_size - 1)
        return m

    def targets(self):
        """Per standing stalk, the sizes of the drawn colour it takes now
        (a bit per size), in list order; all 0 when nothing waits."""
        out = bytearray(len(self.stalks))
        c = self.rock
        if c >= 0:
            i = 0
            for stalk in self.stalks:
                out[i] = self.sizes(stalk, c)
                i += 1
        return out

    def legal_actions(self):
        acts = self.cache
        if acts is not None:
            return acts
        acts = []
        c = self.rock
        if c >= 0:
            n = 1
            for stalk in self.stalks:
                m = self.sizes(stalk, c)
                s = 3
                while m:
                    if m >> s & 1:
                        acts.append(_MOVE * (n + 1) + (c << 2 | s))
                        m ^= 1 << s
                    s -= 1
                n += 1
            if not acts:
                acts.append(_MOVE + (c << 2 | 3))
        self.cache = acts
        return acts

    def token(self, a):
        if a < _MOVE:
            return COLOURS[a]
        p = a & 31
        t = (a >> 5) - 1
        return "%s%d@%s" % (COLOURS[p >> 2], p & 3, str(t) if t else "new")

    def action(self, tok):
        if len(tok) == 1:
            c = COLOURS.find(tok)
            if c >= 0:
                return c
        elif len(tok) >= 4 and tok[2] == "@":
            c = COLOURS.find(tok[0])
            s = "123".find(tok[1]) + 1
            w = tok[3:]
            t = -1
            if w == "new":
                t = 0
            elif 0 < len(w) < 3 and w[0] != "0":
                # ASCII digits only: CPython's int() and isdigit() take any
                # Unicode digit, a board's do not
                t = 0
                for ch in w:
                    d = "0123456789".find(ch)
                    if d < 0:
                        t = -1
                        break
                    t = t * 10 + d
            if c >= 0 and s > 0 and 0 <= t <= ALL:
                return _MOVE * (t + 1) + (c << 2 | s)
        raise IllegalMove("unknown token %r: a rock is a colour of %s, a"
                          " placement like g2@3 or g3@new" % (tok, COLOURS))

    def why_illegal(self, a):
        if a < _MOVE:
            if self.rock >= 0:
                return "the %s rock is drawn: place a piece" % COLOURS[self.rock]
            return "no %s rock is left in the bag" % COLOURS[a]
        c = self.rock
        if c < 0:
            return "draw a rock first"
        p = a & 31
        t = (a >> 5) - 1
        tok = self.token(a)
        if p >> 2 != c:
            return "the rock drawn is %s: place a %s piece" % (
                COLOURS[c], COLOURS[c])
        if t > len(self.stalks):
            return "no stalk %d: %d stand" % (t, len(self.stalks))
        if t == 0:
            if p & 3 != 3:
                return "a new base is a large"
            return "a piece can be added to a stalk, so no new base"
        stalk = self.stalks[t - 1]
        if self._fits(stalk, p):
            return "%s would leave stalk %d (%s) impossible to complete" % (
                tok, t, stack(stalk))
        return "%s does not fit on stalk %d (%s)" % (tok, t, stack(stalk))

    def _fits(self, stalk, p):
        """Does piece ``p`` fit stalk's kind, direction and size (the
        completion check aside)? For refusals only."""
        top = stalk[-1]
        top_colour = top >> 2
        top_size = top & 3
        c = p >> 2
        s = p & 3
        if len(stalk) == 1:
            if c == top_colour:
                return s == top_size - 1
            return (c == top_colour + 1 or c == top_colour - 1) and top_size - 1 <= s <= top_size
        d = (stalk[1] >> 2) - (stalk[0] >> 2)
        if d == 0:
            return c == top_colour and s == top_size - 1
        return c == top_colour + d and top_size - 1 <= s <= top_size

    def _apply(self, a):
        self.cache = None
        if a < _MOVE:
            self.rock = a
            self.bag[a] -= 1
            return
        p = a & 31
        t = (a >> 5) - 1
        if t == 0:
            self.stalks.append(bytearray((p,)))
        else:
            stalk = self.stalks[t - 1]
            stalk.append(p)
            if p & 3 == 1:             # a small completes the stalk
                del self.stalks[t - 1]
                who = self.turn
                self.collected[who].append(bytes(stalk))
                self.points[who] += worth(stalk)
                if stalk[1] >> 2 == stalk[0] >> 2:
                    self.solids[who] |= 1 << (p >> 2)
        self.rock = -1
        self.placed += 1
        self.turn = (self.turn + 1) % self.players

    def score(self, p):
        """Player ``p``'s points now, the +15 included."""
        return self.points[p] + (BONUS if self.solids[p] == _SEVEN else 0)

    def scores(self):
        out = []
        for p in range(self.players):
            out.append(self.score(p))
        return out

    def winners(self):
        """Seats with the highest score once the game is over, else []."""
        out = []
        if self.placed >= ALL:
            sc = self.scores()
            hi = max(sc)
            for p in range(self.players):
                if sc[p] == hi:
                    out.append(p)
        return out

    # ---- the bot ------------------------------------------------------------
    def _gain(self, p, stalk, c):
        """What a small of colour ``c`` completing ``stalk`` (standing,
        before the small) is worth to player ``p``, in quarter points."""
        if len(stalk) == 2 and stalk[1] >> 2 == stalk[0] >> 2:
            m = self.solids[p]
            if m >> c & 1:
                return 4
            if m | 1 << c == _SEVEN:
                return 4 + 4 * BONUS
            return 4 + _CREDIT
        h = len(stalk) + 1
        return 40 if h == 7 else 4 * h

    def _entry(self, p, stalk):
        """(colour, gain) of the small that would complete ``stalk`` for
        player ``p`` now, or None when a small cannot."""
        top = stalk[-1]
        if len(stalk) < 2 or top & 3 != 2:
            return None
        c = top >> 2
        d = (stalk[1] >> 2) - (stalk[0] >> 2)
        if d:
            c += d
            if c < 0 or c > 6:
                return None
        return c, self._gain(p, stalk, c)

    def think(self):
        """The bot's move for the seat to place, in slices: each ``next()``
        does a bounded part of the work and yields None; the last yield is
        the chosen action. Nothing is yielded at a chance node or the end.

        The bot weighs each placement by its own gain now (a completion's
        points, a credit for a new solid colour) less the next player's
        expected best completion after it, over the colours of their draw.
        """
        acts = self.legal_actions()
        if not acts:
            return
        if len(acts) == 1:
            yield acts[0]
            return
        me = self.turn
        nxt = (me + 1) % self.players
        bag = self.bag
        total = 0
        for c in range(7):
            total += bag[c]
        # the next player's best completion per colour, with the stalk it
        # is on, and the second best (for when this move changes the best)
        best = bytearray(7)
        where = bytearray(b"\xff" * 7)
        second = bytearray(7)
        i = 0
        for stalk in self.stalks:
            e = self._entry(nxt, stalk)
            if e is not None:
                c = e[0]
                g = e[1]
                if g > best[c]:
                    second[c] = best[c]
                    best[c] = g
                    where[c] = i
                elif g > second[c]:
                    second[c] = g
            i += 1
        yield None
        top = None
        choice = acts[0]
        for a in acts:
            p = a & 31
            t = (a >> 5) - 2          # the stalk's index, -1 for a new base
            own = 0
            new = None
            if t >= 0:
                stalk = self.stalks[t]
                if p & 3 == 1:
                    own = self._gain(me, stalk, p >> 2)
                else:
                    stalk.append(p)
                    new = self._entry(nxt, stalk)
                    # CircuitPython's bytearray has no pop() and no item
                    # deletion; a slice assignment works everywhere
                    stalk[len(stalk) - 1:] = b""
            # the next player's expected best completion, times total
            risk = 0
            for c in range(7):
                n = bag[c]
                if n:
                    g = second[c] if where[c] == t else best[c]
                    if new is not None and new[0] == c and new[1] > g:
                        g = new[1]
                    risk += n * g
            v = own * total - risk if total else own
            if top is None or v > top:
                top = v
                choice = a
            yield None
        yield choice

    def hint(self):
        """The bot's move for whoever is to place; None at chance or the
        end."""
        a = None
        for a in self.think():
            pass
        return a

    def bot_move(self):
        """The move of a bot seat to place now; None for a person, chance
        or the end."""
        if self.rock >= 0 and self.bots >> self.turn & 1:
            return self.hint()
        return None

    # ---- text ---------------------------------------------------------------
    def fields(self):
        bag = {}
        for c in range(7):
            bag[COLOURS[c]] = self.bag[c]
        stalks = []
        for stalk in self.stalks:
            stalks.append(stack(stalk))
        coll = []
        for mine in self.collected:
            out = []
            for stalk in mine:
                out.append(stack(stalk))
            coll.append(out)
        bots = []
        for p in range(self.players):
            if self.bots >> p & 1:
                bots.append(p)
        return {
            "players": self.players,
            "turn": self.turn,
            "rock": COLOURS[self.rock] if self.rock >= 0 else None,
            "bag": bag,
            "stalks": stalks,
            "collected": coll,
            "placed": self.placed,
            "bots": bots,
            "winners": self.winners(),
        }

    def render(self):
        out = ["bag"]
        for c in range(7):
            out.append(" %s%d" % (COLOURS[c], self.bag[c]))
        out.append("\n")
        t = self.to_move()
        if t == OVER:
            w = self.winners()
            if len(w) == 1:
                out.append("over: player %d wins" % (w[0] + 1))
            else:
                out.append("over: a tie")
        elif t == CHANCE:
            out.append("player %d to draw" % (self.turn + 1))
        else:
            out.append("player %d places %s" % (self.turn + 1, COLOURS[self.rock]))
        n = 1
        for stalk in self.stalks:
            out.append("\n%d %s" % (n, stack(stalk)))
            n += 1
        for p in range(self.players):
            out.append("\nplayer %d: %d" % (p + 1, self.score(p)))
            for stalk in self.collected[p]:
                out.append(" " + stack(stalk))
        return "".join(out)
