"""The one interface every game and table tool implements (OpenSpiel-style).

A game subclasses :class:`State` and fills in the ``_``-prefixed hooks plus
``to_move``, ``legal_actions``, ``scores``, ``fields`` and ``render``. Moves and
chance outcomes are small ints ("actions") inside the engine and text tokens
at the edge. ``token``/``action`` must be pure functions of the action, so a
history can be printed and replayed without the position.

Chance nodes list every outcome with an exact positive integer weight. The
state never holds a future outcome: whoever samples the node (the protocol
session, the app) picks it with their own generator and applies it.

By default the history of actions is the state: ``serialize`` writes the
options and the actions, ``undo`` replays all but the last. A game may
override ``undo``/``_pack``/``_unpack`` when it can do better.
"""

CHANCE = -1
OVER = -2

_MAGIC = b"PP"
FORMAT = 1
_CHANCE_BIT = 0x8000


class IllegalMove(ValueError):
    """A move or outcome the state refuses. The state is left untouched."""


def opt_choice(opts, key, choices, default):
    """Pop ``key`` from ``opts``; it must be one of ``choices``."""
    v = opts.pop(key, default)
    if v not in choices:
        raise ValueError("%s=%s: choose one of %s" % (key, v, "|".join(choices)))
    return v


def opt_int(opts, key, lo, hi, default):
    """Pop ``key`` as an int in ``lo..hi``."""
    v = opts.pop(key, None)
    if v is None:
        return default
    try:
        n = int(v)
    except ValueError:
        n = None
    if n is None or not lo <= n <= hi or str(n) != v.lstrip("+"):
        raise ValueError("%s=%s: expected a whole number %d..%d" % (key, v, lo, hi))
    return n


class State:
    """Base class. Construct through :func:`engine.registry.new`."""

    GAME = ""          # registry id
    OPTIONS = ()       # option names, for messages and docs
    # 0: the history is the state (replayed for undo and saved whole).
    # N > 0: for tools used all evening, keep only the last N actions and a
    # packed snapshot before each, so memory stays bounded.
    UNDO_DEPTH = 0
    __slots__ = ("options", "hist", "_snaps")

    def __init__(self, options=None):
        opts = dict(options or {})
        # canonical text of the options, stored in saves and shown in messages
        self.options = " ".join(["%s=%s" % (k, opts[k]) for k in sorted(opts)])
        self._configure(opts)
        if opts:
            raise ValueError("unknown option %s for %s (options: %s)"
                             % (sorted(opts)[0], self.GAME,
                                ", ".join(self.OPTIONS) or "none"))
        self.hist = bytearray()
        self._snaps = []
        self._init()

    # ---- hooks a game fills in -------------------------------------------
    def _configure(self, opts):
        """Pop and validate the game's options from ``opts`` (a dict of str)."""

    def _init(self):
        """Set up the initial position from the configured options."""
        raise NotImplementedError

    def _apply(self, a):
        """Apply a legal action (already checked)."""
        raise NotImplementedError

    def to_move(self):
        """A player index, :data:`CHANCE` or :data:`OVER`."""
        raise NotImplementedError

    def num_players(self):
        return 1

    def legal_actions(self):
        """The current player's legal actions (empty at chance or over)."""
        raise NotImplementedError

    def chance_outcomes(self):
        """At a chance node: ``[(action, weight), ...]`` with weights > 0."""
        return []

    def token(self, a):
        """Action -> text token."""
        raise NotImplementedError

    def action(self, tok):
        """Text token -> action; raise :class:`IllegalMove` if malformed."""
        raise NotImplementedError

    def why_illegal(self, a):
        """A specific reason an action is illegal here, or None."""
        return None

    def scores(self):
        """Current scores, one int per player."""
        raise NotImplementedError

    def fields(self):
        """The game's own fields for the protocol's ``state`` JSON (a dict)."""
        return {}

    def render(self):
        """A short text picture of the position."""
        raise NotImplementedError

    def auto_chance(self):
        """True if this chance node is bookkeeping (a deal) that a front end
        should sample without asking the player."""
        return False

    # ---- the interface ----------------------------------------------------
    def legal(self):
        """Legal tokens: moves, or at a chance node the outcomes."""
        if self.to_move() == CHANCE:
            return [self.token(o[0]) for o in self.chance_outcomes()]
        return [self.token(a) for a in self.legal_actions()]

    def apply(self, tok):
        """Apply a move or chance outcome given as a token."""
        self.apply_action(self.action(tok))

    def apply_action(self, a):
        who = self.to_move()
        if who == OVER:
            raise IllegalMove("the game is over")
        if who == CHANCE:
            ok = False
            for o in self.chance_outcomes():
                if o[0] == a:
                    ok = True
                    break
        else:
            ok = a in self.legal_actions()
        if not ok:
            raise IllegalMove(self._refusal(a))
        if self.UNDO_DEPTH:
            self._snaps.append(self._pack())
            if len(self._snaps) > self.UNDO_DEPTH:
                self._snaps.pop(0)
                self.hist = self.hist[2:]
        self._apply(a)
        a |= _CHANCE_BIT if who == CHANCE else 0
        self.hist.append(a >> 8)
        self.hist.append(a & 0xFF)

    def _refusal(self, a):
        # the action may come from a corrupt save, where no token names it
        # and why_illegal/token may index out of range: the refusal must
        # still be an IllegalMove, never an IndexError
        try:
            return self.why_illegal(a) or "%s is not legal now" % self.token(a)
        except Exception:
            return "action %d is not legal now" % a

    def history(self):
        """``[(action, was_chance), ...]`` oldest first."""
        h = self.hist
        return [(((h[i] << 8) | h[i + 1]) & 0x7FFF, bool(h[i] & 0x80))
                for i in range(0, len(h), 2)]

    def last_was_chance(self):
        return bool(self.hist) and bool(self.hist[-2] & 0x80)

    def can_undo(self):
        return len(self.hist) > 0

    def undo(self):
        """Take back the last action (a move or a chance outcome)."""
        if not self.hist:
            raise IllegalMove("nothing to undo")
        if self.UNDO_DEPTH:
            self._restore(self._snaps.pop())
            self.hist = self.hist[:-2]
            return
        self._replay(self.hist[:-2])

    def _replay(self, hist):
        self.hist = bytearray()
        self._init()
        for i in range(0, len(hist), 2):
            self._apply(((hist[i] << 8) | hist[i + 1]) & 0x7FFF)
        self.hist = bytearray(hist)

    def _pack(self):
        """The body of ``serialize``. Snapshot games pack their position."""
        return bytes(self.hist)

    def _restore(self, body):
        """Snapshot games: set the position from ``_pack`` output; raise
        ValueError (leaving the state as it was) if it is not valid."""
        raise NotImplementedError

    def _unpack(self, body):
        """Restore from ``_pack`` output, checking every action is legal."""
        if self.UNDO_DEPTH:
            self._restore(body)
            return
        if len(body) % 2:
            raise ValueError("history has an odd length")
        for i in range(0, len(body), 2):
            a = (body[i] << 8) | body[i + 1]
            chance = a & _CHANCE_BIT
            if bool(chance) != (self.to_move() == CHANCE):
                raise ValueError("history does not fit the game")
            try:
                self.apply_action(a & 0x7FFF)
            except IllegalMove as e:
                raise ValueError("history holds an illegal action: %s" % e)

    def serialize(self):
        """Compact bytes: magic, format, game id, options, game body."""
        gid = self.GAME.encode()
        opt = self.options.encode()
        return (_MAGIC + bytes((FORMAT, len(gid))) + gid +
                bytes((len(opt) >> 8, len(opt) & 0xFF)) + opt + self._pack())

    def __eq__(self, other):
        return isinstance(other, State) and self.serialize() == other.serialize()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __str__(self):
        return self.render()


def parse_options(words):
    """``['k=v', ...]`` -> dict; raise ValueError on a malformed word."""
    opts = {}
    for w in words:
        i = w.find("=")
        if i <= 0 or i == len(w) - 1:
            raise ValueError("bad option %r: expected key=value" % w)
        k = w[:i]
        if k in opts:
            raise ValueError("option %s given twice" % k)
        opts[k] = w[i + 1:]
    return opts


def split_header(data):
    """Serialized bytes -> ``(game_id, options_text, body)``."""
    if len(data) < 6 or data[:2] != _MAGIC:
        raise ValueError("not a Pocket Pyramids state")
    if data[2] != FORMAT:
        raise ValueError("state format %d is not supported" % data[2])
    n = data[3]
    gid = bytes(data[4:4 + n])
    p = 4 + n
    if len(data) < p + 2:
        raise ValueError("state is truncated")
    m = (data[p] << 8) | data[p + 1]
    opt = bytes(data[p + 2:p + 2 + m])
    if len(opt) != m:
        raise ValueError("state is truncated")
    try:
        return gid.decode(), opt.decode(), data[p + 2 + m:]
    except UnicodeError:
        raise ValueError("state header is not text")
