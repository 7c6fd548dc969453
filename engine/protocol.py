"""The Pocket Pyramids text protocol: one command per line, GTP-style.

:class:`Session` is pure (no I/O), so the same code answers on a desktop
(``tools/ptp.py``) and on a board over USB serial. Every answer starts with
``= `` (success) or ``? `` (error) and ends with an empty line. A bad line
never changes the game and never ends the session.
"""

from engine import registry
from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove, parse_options

HELP = ("games", "new", "to_move", "legal", "play", "sample", "state", "score",
        "show", "undo", "history", "help", "quit")
# a protocol line longer than this is refused before it is split
MAX_LINE = 4096


def _json_str(s):
    out = ['"']
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ord(ch) < 32:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def to_json(v):
    """A compact JSON text for dicts, lists, str, int, bool and None."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _json_str(v)
    if isinstance(v, dict):
        return "{" + ",".join([_json_str(k) + ":" + to_json(v[k]) for k in v]) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join([to_json(x) for x in v]) + "]"
    raise TypeError("cannot write %r as JSON" % (v,))


def _line(msg):
    # an answer ends at its first empty line, so a message stays on one line
    return msg.replace("\r", " ").replace("\n", " ")


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def who(state):
    t = state.to_move()
    if t == CHANCE:
        return "chance"
    if t == OVER:
        return "over"
    return str(t)


class Session:
    """Holds one game and a seeded generator for its chance nodes.

    With ``auto`` (the default) a command that lands on deal-like chance
    nodes (``State.auto_chance``) samples them all before answering, so
    ``new ice_solo`` answers with the cards dealt. A front end that must keep
    every line short (a board on USB serial, the device-budget runner) passes
    ``auto=False`` and sends one ``sample`` per such node instead, as the
    app deals one node per loop pass.
    """

    def __init__(self, seed=None, auto=True):
        self.state = None
        self.rng = Rng(seed)
        self.auto = auto
        self.done = False   # set by ``quit``; the wrapper stops reading

    def handle(self, line):
        """Answer one protocol line."""
        try:
            if len(line) > MAX_LINE:
                raise ValueError("line too long (over %d characters)" % MAX_LINE)
            words = line.split()
            if not words or words[0].startswith("#"):
                return "= \n\n"
            cmd = words[0]
            fn = getattr(self, "cmd_" + cmd, None) if cmd in HELP else None
            if fn is None:
                raise ValueError("unknown command %r (try help)" % cmd)
            return "= " + fn(words[1:]) + "\n\n"
        except (ValueError, IllegalMove) as e:
            return "? " + _line(str(e) or "error") + "\n\n"
        except MemoryError:
            return "? out of memory\n\n"
        except Exception as e:
            # a bug in a game module must not end a session on a board;
            # the tests assert this answer never appears
            return "? internal error: %s\n\n" % _line("%s %s" % (type(e).__name__, e))

    def _game(self):
        if self.state is None:
            raise ValueError("no game: start one with new <id>")
        return self.state

    def _none(self, args):
        if args:
            raise ValueError("unexpected %r" % args[0])

    def _auto(self):
        """Sample deal-like chance nodes the player never decides about."""
        st = self.state
        out = []
        while self.auto and st.to_move() == CHANCE and st.auto_chance():
            out.append(self._sample())
        return out

    def _sample(self):
        st = self.state
        outs = st.chance_outcomes()
        i = self.rng.weighted([o[1] for o in outs])
        st.apply_action(outs[i][0])
        return st.token(outs[i][0])

    # ---- commands ---------------------------------------------------------
    def cmd_help(self, args):
        return " ".join(HELP)

    def cmd_games(self, args):
        self._none(args)
        return " ".join(registry.available())

    def cmd_new(self, args):
        if not args:
            raise ValueError("usage: new <id> [key=value ...]")
        opts = parse_options(args[1:])
        seed = opts.pop("seed", None)
        if seed is not None:
            try:
                seed = int(seed)
            except ValueError:
                raise ValueError("seed=%s: expected a whole number" % seed)
            if not 0 <= seed <= 0xFFFFFFFF:
                raise ValueError("seed=%d: expected 0..4294967295" % seed)
        st = registry.new(args[0], opts)   # raises before anything changes
        if seed is None:
            # drawn from the session's generator: random on a board (seeded
            # from os.urandom), reproducible under ``ptp.py --seed N``
            seed = self.rng.next32()
        self.state = st
        self.rng.seed(seed)
        self._auto()
        return "%s seed=%d" % (st.GAME, seed)

    def cmd_to_move(self, args):
        self._none(args)
        return who(self._game())

    def cmd_legal(self, args):
        self._none(args)
        st = self._game()
        if st.to_move() != CHANCE:
            return " ".join(st.legal())
        outs = st.chance_outcomes()
        total = 0
        for o in outs:
            total += o[1]
        parts = []
        for a, w in outs:
            g = _gcd(w, total)
            parts.append("%s:%d/%d" % (st.token(a), w // g, total // g))
        return " ".join(parts)

    def cmd_play(self, args):
        if len(args) != 1:
            raise ValueError("usage: play <token>")
        st = self._game()
        st.apply(args[0])
        return " ".join([args[0]] + self._auto())

    def cmd_sample(self, args):
        self._none(args)
        st = self._game()
        if st.to_move() != CHANCE:
            raise ValueError("not a chance node (to_move is %s)" % who(st))
        return " ".join([self._sample()] + self._auto())

    def cmd_state(self, args):
        self._none(args)
        st = self._game()
        t = st.to_move()
        d = {"game": st.GAME,
             "to_move": "chance" if t == CHANCE else ("over" if t == OVER else t),
             "scores": st.scores()}
        f = st.fields()
        for k in f:
            d[k] = f[k]
        return to_json(d)

    def cmd_score(self, args):
        self._none(args)
        return " ".join([str(s) for s in self._game().scores()])

    def cmd_show(self, args):
        self._none(args)
        return self._game().render()

    def cmd_undo(self, args):
        """Take back the last move and the chance outcomes that followed it,
        so an undo can never re-roll a die or re-draw from a bag."""
        self._none(args)
        st = self._game()
        hist = st.history()
        i = len(hist) - 1
        while i >= 0 and hist[i][1]:
            i -= 1
        if i < 0:
            raise ValueError("nothing to undo")
        undone = st.token(hist[i][0])
        for _ in range(len(hist) - i):
            st.undo()
        return undone

    def cmd_history(self, args):
        self._none(args)
        st = self._game()
        return " ".join([st.token(h[0]) for h in st.history()])

    def cmd_quit(self, args):
        self.done = True
        return ""
