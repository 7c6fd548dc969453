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
options and the actions, ``undo`` replays all but the last. Each action
takes ``ACTION_BYTES`` bytes of history (big-endian; the top bit marks a
chance outcome), so a game whose actions need more than 15 bits declares a
wider one. A game may override ``undo``/``_pack``/``_unpack`` when it can
do better, and ``is_legal`` when it can check one action without listing
them all.
"""

CHANCE = -1
OVER = -2

MAGIC = b"PP"
FORMAT = 1


class IllegalMove(ValueError):
    """A move or outcome the state refuses. The state is left untouched."""


def release(name):
    """Forget module ``name`` so its memory can be collected: drop it from
    ``sys.modules`` and from its package's attributes (on MicroPython the
    package attribute alone keeps the module's code alive). Used by lib/;
    the engine no longer forgets its own modules."""
    import sys
    if name in sys.modules:
        del sys.modules[name]
    i = name.rfind(".")
    pkg = sys.modules.get(name[:i])
    if pkg is not None and hasattr(pkg, name[i + 1:]):
        try:
            delattr(pkg, name[i + 1:])
        except (AttributeError, TypeError):
            pass


def cold(name):
    """Module ``name``, loaded when needed and forgotten again on a board
    when it was loaded from a .mpy file. Used by lib/; the engine imports
    its modules plainly."""
    import sys
    mod = __import__(name, None, None, ("x",))
    if (sys.implementation.name != "cpython" and
            not getattr(mod, "__file__", "").endswith(".py")):
        release(name)
    return mod


def refusal(st, a):
    """The words refusing action ``a`` in state ``st``: the game's own
    reason, or a plain one. The action may come from a corrupt save, where
    no token names it and ``why_illegal``/``token`` may index out of range:
    the words must still come, never an IndexError."""
    try:
        return st.why_illegal(a) or "%s is not legal now" % st.token(a)
    except Exception:
        return "action %d is not legal now" % a


def _action_at(h, i, w):
    # the ``w``-byte history entry at ``h[i]``, its chance bit dropped
    a = h[i] & 0x7F
    for k in range(i + 1, i + w):
        a = a << 8 | h[k]
    return a


# ---- options --------------------------------------------------------------

def is_plain_number(text):
    """``text`` is one or more ASCII digits, nothing else (``int()`` also
    reads a sign, spaces, underscores and other scripts' digits)."""
    if not text:
        return False
    for ch in text:
        if not "0" <= ch <= "9":
            return False
    return True


def escape(text):
    """``text`` with its control characters written as ``\\xNN``, for a
    refusal that echoes what was sent (as a token's ``%r`` does)."""
    out = []
    for ch in text:
        if ch < " " or "\x7f" <= ch <= "\x9f":
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def parse_options(words):
    """``['k=v', ...]`` -> dict; raise ValueError on a malformed word."""
    opts = {}
    for w in words:
        i = w.find("=")
        if i <= 0 or i == len(w) - 1:
            raise ValueError("bad option %r: expected key=value" % w)
        if w[:i] in opts:
            raise ValueError("option %s given twice" % escape(w[:i]))
        opts[w[:i]] = w[i + 1:]
    return opts


def opt_choice(opts, key, choices, default):
    """Pop ``key`` from ``opts``; it must be one of ``choices``."""
    v = opts.pop(key, default)
    if v not in choices:
        raise ValueError("%s=%s: choose one of %s"
                         % (key, escape(v), "|".join(choices)))
    return v


def opt_int(opts, key, lo, hi, default):
    """Pop ``key`` as an int in ``lo..hi``, written in plain ASCII digits
    with no leading zero."""
    v = opts.pop(key, None)
    if v is None:
        return default
    n = int(v) if is_plain_number(v) else None
    if n is None or not lo <= n <= hi or str(n) != v:
        raise ValueError("%s=%s: expected a whole number %d..%d"
                         % (key, escape(v), lo, hi))
    return n


def opt_seats(opts, n, names=()):
    """Pop ``bots``, the seats the device plays among ``n``: seat numbers
    counted from 1 or, in a game whose seats have colours, the colours'
    ``names`` (seat order), separated by commas, each once -> a bit per
    seat (seat 1 the lowest)."""
    b = opts.pop("bots", None)
    m = 0
    if b is None:
        return m
    for w in b.split(","):
        if w in names:
            k = names.index(w) + 1
        else:
            k = int(w) if is_plain_number(w) and len(w) < 3 else 0
            if str(k) != w:
                k = 0
        if not 0 < k <= n or m >> (k - 1) & 1:
            raise ValueError("bots=%s: expected seats 1..%d%s, separated by "
                             "commas, each once"
                             % (escape(b), n, " or " + " ".join(names[:n]) if names else ""))
        m |= 1 << (k - 1)
    return m


# ---- saves ----------------------------------------------------------------

def split_header(data):
    """Serialized bytes -> ``(game_id, options_text, body)``."""
    if len(data) < 6 or data[:2] != MAGIC:
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


def read_save(data, new):
    """Bytes from ``State.serialize`` -> an equal state, made fresh by
    ``new(game_id, option_words)`` (engine.registry.new) and then given
    the saved body; ValueError if the bytes are not a valid save."""
    gid, opt, body = split_header(data)
    st = new(gid, opt.split() if opt else None)
    st.load_body(body)
    return st


class State:
    """Base class. Construct through :func:`engine.registry.new`.

    A game fills in ``_init()`` (the initial position from the configured
    options), ``_apply(a)`` (a legal action, already checked), ``to_move()``
    (a player index, :data:`CHANCE` or :data:`OVER`), ``legal_actions()``
    (empty at chance or over), ``token(a)`` (action -> text),
    ``action(tok)`` (text -> action, :class:`IllegalMove` if malformed),
    ``scores()`` (one int per player) and ``render()`` (a short text
    picture); a snapshot game (``UNDO_DEPTH``) also ``_pack``/``_restore``.
    The hooks below have defaults. (The required ones have no stubs here:
    on a board every method is heap, so a missing one is an AttributeError.)
    """

    GAME = ""          # registry id
    OPTIONS = ()       # option names, for messages and docs
    # 0: the history is the state (replayed for undo and saved whole).
    # N > 0: for tools used all evening, keep only the last N actions and a
    # packed snapshot before each, so memory stays bounded.
    UNDO_DEPTH = 0
    # bytes of history per action: 2 holds actions below 0x8000
    ACTION_BYTES = 2
    __slots__ = ("options", "hist", "_snaps")

    def __init__(self, options=None):
        opts = dict(options or {})
        # canonical text of the options, stored in saves and shown in messages
        # (a loop: a comprehension is one more function held in the heap)
        words = []
        for k in sorted(opts):
            words.append("%s=%s" % (k, opts[k]))
        self.options = " ".join(words)
        self._configure(opts)
        if opts:
            raise ValueError("unknown option %s for %s (options: %s)"
                             % (escape(sorted(opts)[0]), self.GAME,
                                ", ".join(self.OPTIONS) or "none"))
        self.hist = bytearray()
        self._snaps = []
        self._init()

    # ---- hooks with defaults ----------------------------------------------
    def _configure(self, opts):
        """Pop and validate the game's options from ``opts`` (a dict of str)."""

    def num_players(self):
        return 1

    def is_bot(self, p):
        """True if the device plays seat ``p``."""
        return False

    def seat_colour(self, p):
        """Seat ``p``'s piece colour (engine.pieces' order), or -1 where
        the seats have none of their own."""
        return -1

    def chance_outcomes(self):
        """At a chance node: ``[(action, weight), ...]`` with weights > 0."""
        return []

    def is_legal(self, a):
        """True if ``a`` is a legal move for the player to move (never
        called at a chance node or at the end)."""
        return a in self.legal_actions()

    def _chance_ok(self, a):
        """True if ``a`` is one of this chance node's outcomes."""
        for o in self.chance_outcomes():
            if o[0] == a:
                return True
        return False

    def why_illegal(self, a):
        """A specific reason (a string) an action is illegal here, or None."""
        return None

    def fields(self):
        """The game's own fields for the protocol's ``state`` JSON (a dict)."""
        return {}

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
        ok = self._chance_ok(a) if who == CHANCE else self.is_legal(a)
        if not ok:
            raise IllegalMove(refusal(self, a))
        w = self.ACTION_BYTES
        if self.UNDO_DEPTH:
            self._snaps.append(self._snap(a))
            if len(self._snaps) > self.UNDO_DEPTH:
                self._snaps.pop(0)
                self.hist = self.hist[w:]
        self._apply(a)
        h = self.hist
        sh = 8 * w - 8
        h.append(a >> sh | (0x80 if who == CHANCE else 0))
        while sh:
            sh -= 8
            h.append(a >> sh & 0xFF)

    def entry(self, i):
        """The action at byte ``i`` of ``hist`` (an entry's first byte),
        without its chance bit."""
        return _action_at(self.hist, i, self.ACTION_BYTES)

    def history(self):
        """``[(action, was_chance), ...]`` oldest first."""
        h = self.hist
        w = self.ACTION_BYTES
        return [(self.entry(i), bool(h[i] & 0x80)) for i in range(0, len(h), w)]

    def last_was_chance(self):
        h = self.hist
        return bool(h) and bool(h[-self.ACTION_BYTES] & 0x80)

    def can_undo(self):
        return len(self.hist) > 0

    def undo_move(self):
        """Take back the last player move and the chance outcomes after it,
        so an undo can never re-roll a die or re-draw from a bag (the
        protocol's and the app's undo). Returns the move's action."""
        h = self.hist
        w = self.ACTION_BYTES
        i = len(h) - w
        while i >= 0 and h[i] & 0x80:
            i -= w
        if i < 0:
            raise IllegalMove("nothing to undo")
        a = self.entry(i)
        for _ in range((len(h) - i) // w):
            self.undo()
        return a

    def undo(self):
        """Take back the last action (a move or a chance outcome)."""
        if not self.hist:
            raise IllegalMove("nothing to undo")
        w = self.ACTION_BYTES
        if self.UNDO_DEPTH:
            self._restore(self._snaps.pop())
            self.hist = self.hist[:-w]
            return
        # a game without snapshots: replay all but the last action
        hist = self.hist[:-w]
        self.hist = bytearray()
        self._init()
        for i in range(0, len(hist), w):
            self._apply(_action_at(hist, i, w))
        self.hist = hist

    def _pack(self):
        """The body of ``serialize``. Snapshot games pack their position
        and ``_restore`` it (raising ValueError, the state unchanged, if it
        is not valid)."""
        return bytes(self.hist)

    def _snap(self, a):
        """Snapshot games: what to keep before applying ``a`` (its undo
        calls ``_restore`` with it, the action still last in ``hist``). A
        game that can take ``a`` back by itself keeps None there instead of
        a whole packed position."""
        return self._pack()

    def _unpack(self, body):
        """Restore from ``_pack`` output, checking every action is legal."""
        if self.UNDO_DEPTH:
            self._restore(body)
            return
        # replay the saved history on this fresh state, checking every action
        w = self.ACTION_BYTES
        if len(body) % w:
            raise ValueError("history has a length that is not a whole "
                             "number of actions")
        for i in range(0, len(body), w):
            a = _action_at(body, i, w)
            if bool(body[i] & 0x80) != (self.to_move() == CHANCE):
                raise ValueError("history does not fit the game")
            try:
                self.apply_action(a)
            except IllegalMove as e:
                raise ValueError("history holds an illegal action: %s" % e)

    def load_body(self, body):
        """Give this fresh state the body of a save (``_pack``'s output):
        ValueError if it is not valid."""
        self._unpack(body)

    def serialize(self):
        """Compact bytes: magic, format, game id, options, game body."""
        gid = self.GAME.encode()
        opt = self.options.encode()
        return (MAGIC + bytes((FORMAT, len(gid))) + gid +
                bytes((len(opt) >> 8, len(opt) & 0xFF)) + opt + self._pack())

    def __eq__(self, other):
        """The same game, options and position."""
        return isinstance(other, State) and self.serialize() == other.serialize()
