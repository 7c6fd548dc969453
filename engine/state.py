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


class IllegalMove(ValueError):
    """A move or outcome the state refuses. The state is left untouched."""


def release(name):
    """Forget module ``name`` so its memory can be collected: drop it from
    ``sys.modules`` and from its package's attributes (on MicroPython the
    package attribute alone keeps the module's code alive)."""
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
    """Module ``name``, code for seldom moments: loaded when needed and, on
    a board, forgotten again at once, so it does not stay in the heap while
    a game is played. Kept where forgetting saves nothing: on a desktop (an
    import costs time there, not memory) and where the module was compiled
    from .py source (compiling it again would cost a board tens of
    milliseconds and more heap, while it runs, than the module holds)."""
    import sys
    mod = __import__(name, None, None, ("x",))
    if (sys.implementation.name != "cpython" and
            not getattr(mod, "__file__", "").endswith(".py")):
        release(name)
    return mod


def _cold(name):
    """``engine.<name>`` through :func:`cold`."""
    return cold("engine." + name)


def seldom():
    """engine/seldom.py: option and save checks, the game list."""
    return _cold("seldom")


def refusal(st, a):
    """The words refusing action ``a`` in state ``st``: the game's own
    reason, or a plain one. The action may come from a corrupt save, where
    no token names it and ``why_illegal``/``token`` may index out of range:
    the words must still come, never an IndexError."""
    try:
        return st.why_illegal(a) or "%s is not legal now" % st.token(a)
    except Exception:
        return "action %d is not legal now" % a


def parse_options(words):
    """``['k=v', ...]`` -> dict; raise ValueError on a malformed word.
    (Here rather than in engine/registry.py: the protocol's ``new`` starts
    a game already loaded without loading the registry.)"""
    opts = {}
    for w in words:
        i = w.find("=")
        if i <= 0 or i == len(w) - 1 or w[:i] in opts:
            seldom().bad_word(w, opts)
        opts[w[:i]] = w[i + 1:]
    return opts


def opt_choice(opts, key, choices, default):
    """Pop ``key`` from ``opts``; it must be one of ``choices``."""
    v = opts.pop(key, default)
    if v not in choices:
        seldom().opt_choice(key, v, choices)
    return v


def opt_int(opts, key, lo, hi, default):
    """Pop ``key`` as an int in ``lo..hi`` (plain digits: no sign, space or
    leading zero; anything else goes through the full check)."""
    v = opts.pop(key, None)
    if v is None:
        return default
    if v.isdigit():
        n = int(v)
        if lo <= n <= hi and str(n) == v:
            return n
    return seldom().opt_int(key, v, lo, hi)


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
            seldom().unknown(self, opts)
        self.hist = bytearray()
        self._snaps = []
        self._init()

    # ---- hooks with defaults ----------------------------------------------
    def _configure(self, opts):
        """Pop and validate the game's options from ``opts`` (a dict of str)."""

    def num_players(self):
        return 1

    def chance_outcomes(self):
        """At a chance node: ``[(action, weight), ...]`` with weights > 0."""
        return []

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
    # (legal, history and == serve tools and tests, not a game in play:
    # their code is in engine/seldom.py)
    def legal(self):
        """Legal tokens: moves, or at a chance node the outcomes."""
        return seldom().legal(self)

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
            raise IllegalMove(refusal(self, a))
        if self.UNDO_DEPTH:
            self._snaps.append(self._snap(a))
            if len(self._snaps) > self.UNDO_DEPTH:
                self._snaps.pop(0)
                self.hist = self.hist[2:]
        self._apply(a)
        a |= 0x8000 if who == CHANCE else 0
        self.hist.append(a >> 8)
        self.hist.append(a & 0xFF)

    def history(self):
        """``[(action, was_chance), ...]`` oldest first."""
        return seldom().history(self)

    def last_was_chance(self):
        return bool(self.hist) and bool(self.hist[-2] & 0x80)

    def can_undo(self):
        return len(self.hist) > 0

    def undo_move(self):
        """Take back the last player move and the chance outcomes after it,
        so an undo can never re-roll a die or re-draw from a bag (the
        protocol's and the app's undo). Returns the move's action."""
        h = self.hist
        i = len(h) - 2
        while i >= 0 and h[i] & 0x80:
            i -= 2
        if i < 0:
            raise IllegalMove("nothing to undo")
        a = (h[i] << 8) | h[i + 1]
        for _ in range((len(h) - i) // 2):
            self.undo()
        return a

    def undo(self):
        """Take back the last action (a move or a chance outcome)."""
        if not self.hist:
            raise IllegalMove("nothing to undo")
        if self.UNDO_DEPTH:
            self._restore(self._snaps.pop())
            self.hist = self.hist[:-2]
            return
        # undo by replay (a game without snapshots) is seldom: its code
        # is loaded for the call
        seldom().replay(self)

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
        else:
            seldom().unpack(self, body)

    def serialize(self):
        """Compact bytes: magic, format, game id, options, game body."""
        gid = self.GAME.encode()
        opt = self.options.encode()
        return (_MAGIC + bytes((FORMAT, len(gid))) + gid +
                bytes((len(opt) >> 8, len(opt) & 0xFF)) + opt + self._pack())

    def __eq__(self, other):
        return seldom().equal(self, other)
