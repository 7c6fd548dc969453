"""The Pocket Pyramids text protocol: one command per line, GTP-style.

:class:`Session` is pure (no I/O), so the same code answers on a desktop
(``tools/ptp.py``) and on a board over USB serial. Every answer starts with
``= `` (success) or ``? `` (error) and ends with an empty line. A bad line
never changes the game and never ends the session. docs/protocol.md
describes the commands.

Answers are written as pieces into one list and joined once, and nothing
builds a copy of what the state already holds: on a board the garbage one
line makes counts as much as what stays live.
"""

from engine import registry
from engine.rng import Rng
from engine.state import (CHANCE, OVER, IllegalMove, parse_options, is_plain_number,
                          escape)

HELP = ("games", "new", "to_move", "legal", "play", "sample", "state", "score",
        "show", "undo", "history", "hint", "help", "quit")
# a protocol line longer than this is refused before it is split
MAX_LINE = 4096


def write_json(out, v):
    """Append the JSON text of ``v`` to the list ``out``, piece by piece.
    Plain strings, ints, None, bools, lists and dicts with plain keys take
    the fast paths; anything needing an escape, and subclasses of the plain
    types, go to :func:`write_json_escaped`."""
    t = type(v)
    if t is str:
        # nearly every string is a plain token (min() runs in C); a long
        # one is checked as bytes, which MicroPython scans faster than its
        # characters (each is looked up among the interned strings)
        if '"' not in v and "\\" not in v and (
                not v or (min(v.encode("utf-8", "surrogatepass")) >= 32
                          if len(v) > 64 else min(v) >= " ")):
            out.append('"')
            out.append(v)
            out.append('"')
            return
    elif t is int:
        out.append(str(v))
        return
    elif t is list or t is tuple:
        if v and type(v[0]) is str:
            # a list of plain tokens (the usual case) is one join, in C;
            # plain when the only quotes are the separators' two each and
            # no byte is a control character (min() over bytes is much
            # faster in MicroPython than over characters)
            try:
                j = '","'.join(v)
            except TypeError:   # not all strings
                j = None
            if (j is not None and "\\" not in j and j.count('"') == 2 * len(v) - 2
                    and (not j or min(j.encode("utf-8", "surrogatepass")) >= 32)):
                out.append('["')
                out.append(j)
                out.append('"]')
                return
        c = "["
        for x in v:
            out.append(c)
            write_json(out, x)
            c = ","
        out.append("]" if c == "," else "[]")
        return
    elif t is dict:
        # the keys are checked together, joined as in the list case
        k = '","'.join(v)
        if "\\" not in k and k.count('"') == 2 * len(v) - 2 and (
                not k or min(k.encode("utf-8", "surrogatepass")) >= 32):
            c = '{"'
            for k in v:
                out.append(c)
                out.append(k)
                out.append('":')
                x = v[k]
                if type(x) is int:
                    out.append(str(x))
                else:
                    write_json(out, x)
                c = ',"'
            out.append("}" if c == ',"' else "{}")
            return
    elif v is None:
        out.append("null")
        return
    elif v is True:
        out.append("true")
        return
    elif v is False:
        out.append("false")
        return
    write_json_escaped(out, v)


def write_json_escaped(out, v):
    """The slow JSON writer behind :func:`write_json`: strings with escapes,
    dicts whose keys need them, subclasses of the plain types."""
    if isinstance(v, str):
        out.append('"')
        for ch in v:
            if ch == '"' or ch == "\\":
                out.append("\\" + ch)
            elif ch < " ":
                out.append("\\u%04x" % ord(ch))
            else:
                out.append(ch)
        out.append('"')
    elif isinstance(v, (list, tuple)):
        c = "["
        for x in v:
            out.append(c)
            write_json_escaped(out, x)
            c = ","
        out.append("]" if c == "," else "[]")
    elif isinstance(v, dict):
        c = "{"
        for k in v:
            out.append(c)
            write_json_escaped(out, k)
            out.append(":")
            write_json_escaped(out, v[k])
            c = ","
        out.append("}" if c == "," else "{}")
    elif v is None or v is True or v is False:
        out.append("null" if v is None else "true" if v else "false")
    elif isinstance(v, int):
        out.append(str(v))
    else:
        raise TypeError("cannot write %r as JSON" % v)


def to_json(v):
    """A compact JSON text for dicts, lists, str, int, bool and None."""
    out = []
    write_json(out, v)
    return "".join(out)


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def parse_seed(text):
    """A ``seed=`` value: a whole number 0..4294967295 in plain ASCII digits
    (a minus sign is read, to say the number is out of range)."""
    if not is_plain_number(text[1:] if text[:1] == "-" else text):
        raise ValueError("seed=%s: expected a whole number" % escape(text))
    seed = int(text)
    if not 0 <= seed <= 0xFFFFFFFF:
        raise ValueError("seed=%d: expected 0..4294967295" % seed)
    return seed


class Session:
    """Holds one game and a seeded generator for its chance nodes.

    With ``auto`` (the default) a command that lands on deal-like chance
    nodes (``State.auto_chance``) samples them all before answering, so
    ``new ice_solo`` answers with the cards dealt, and a seat the game
    plays itself (``bot_move``) moves before the answer too. A front end that must keep
    every line short (a board on USB serial, the device-budget runner) passes
    ``auto=False`` and sends one ``sample`` per such node instead, as the
    app deals one node per loop pass.

    Commands are the ``cmd_*`` methods, called with the whole split line.
    One answers with a str, or with a list of pieces (non-empty) that
    ``handle`` frames and joins in one go.
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
            if cmd not in HELP:
                raise ValueError("unknown command %r (try help)" % cmd)
            r = getattr(self, "cmd_" + cmd)(words)
            if type(r) is list:
                # a long answer comes as its pieces: framed and joined once
                r[0] = "= " + r[0]
                r.append("\n\n")
                return "".join(r)
            return "".join(("= ", r, "\n\n"))
        except (ValueError, IllegalMove) as e:
            # an answer ends at its first empty line: one line per message;
            # and what a refusal echoes of the line never reaches the
            # terminal raw (an ESC or BEL a game's own message quoted)
            text = (str(e) or "error").replace("\r", " ").replace("\n", " ")
            return "? " + escape(text) + "\n\n"
        except MemoryError:
            return "? out of memory\n\n"
        except Exception as e:
            # a bug in a game module must not end a session on a board;
            # the tests assert this answer never appears
            return "? internal error: %s\n\n" % ("%s %s" % (type(e).__name__, e)).replace(
                "\r", " ").replace("\n", " ")

    def game(self, words):
        """The game, for a command that takes no arguments."""
        if len(words) > 1:
            raise ValueError("unexpected %r" % words[1])
        if self.state is None:
            raise ValueError("no game: start one with new <id>")
        return self.state

    def run_automatic(self, said):
        """Sample deal-like chance nodes the player never decides about, and
        play the moves of seats the game runs itself (a ``bot_move()`` method
        on its State answering an action, or None for a person's turn);
        ``said`` is the answer so far, what happened is added to it. Chance
        nodes a player would roll stay for ``sample`` or a forced outcome."""
        st = self.state
        bot = getattr(st, "bot_move", None)
        while self.auto:
            if st.to_move() == CHANCE:
                if not st.auto_chance():
                    break
                said += " " + self.sample_chance()
                continue
            a = None if bot is None or st.to_move() == OVER else bot()
            if a is None:
                break
            st.apply_action(a)
            said += " " + st.token(a)
        return said

    def sample_chance(self):
        """Sample the chance node with the session's generator, apply the
        outcome and answer its token (the same draw as Rng.weighted over
        the weights, without a list)."""
        st = self.state
        outs = st.chance_outcomes()
        r = 0
        for o in outs:
            r += o[1]
        r = self.rng.randrange(r)
        for o in outs:
            r -= o[1]
            if r < 0:
                break
        else:
            raise ValueError("chance weights must be positive")
        st.apply_action(o[0])
        return st.token(o[0])

    # ---- commands --------------------------------------------------------------
    def cmd_new(self, words):
        if len(words) < 2:
            raise ValueError("usage: new <id> [key=value ...]")
        opts = parse_options(words[2:])
        seed = opts.pop("seed", None)
        if seed is not None:
            seed = parse_seed(seed)
        # both raise before anything changes
        st = registry.new(words[1], opts)
        # a refused new changes nothing: if the game's automatic start (a
        # deal, a bot's opening move) raises, even MemoryError, the previous
        # game and the generator's state come back
        before = self.state
        rng = self.rng.getstate()
        try:
            if seed is None:
                # drawn from the session's generator: random on a board
                # (seeded from os.urandom), reproducible under ``ptp.py
                # --seed N``
                seed = self.rng.next32()
            self.state = st
            self.rng.seed(seed)
            return self.run_automatic("%s seed=%d" % (st.GAME, seed))
        except BaseException:
            self.state = before
            self.rng.hi = rng >> 16
            self.rng.lo = rng & 0xFFFF
            raise

    def cmd_help(self, words):
        return " ".join(HELP)

    def cmd_games(self, words):
        if len(words) > 1:
            raise ValueError("unexpected %r" % words[1])
        return " ".join(registry.available())

    def cmd_score(self, words):
        out = []
        for s in self.game(words).scores():
            out.append(str(s))
        return " ".join(out)

    def cmd_history(self, words):
        st = self.game(words)
        # a game with long histories may write the whole answer itself
        f = getattr(st, "history_text", None)
        if f is not None:
            return f()
        h = st.hist
        out = []
        for i in range(0, len(h), 2):
            out.append(st.token(((h[i] << 8) | h[i + 1]) & 0x7FFF))
        return " ".join(out)

    def cmd_quit(self, words):
        self.done = True
        return ""

    def cmd_to_move(self, words):
        t = self.game(words).to_move()
        return "chance" if t == CHANCE else "over" if t == OVER else str(t)

    def cmd_legal(self, words):
        st = self.game(words)
        # a game may write its whole answer at once (Ice Solo's towering
        # lists ~150 moves), None at a chance node; asked first, it can
        # skip finding out who moves
        f = getattr(st, "legal_text", None)
        t = f() if f is not None else None
        if t is not None:
            return t
        if st.to_move() == CHANCE:
            return self.odds(st)
        out = []
        for a in st.legal_actions():
            out.append(st.token(a))
        return " ".join(out)

    def odds(self, st):
        """``legal`` at a chance node: each outcome as ``token:n/d``."""
        outs = st.chance_outcomes()
        total = 0
        for o in outs:
            total += o[1]
        out = []
        sep = ""
        for o in outs:
            g = _gcd(o[1], total)
            out.append(sep)
            out.append(st.token(o[0]))
            out.append(":%d/%d" % (o[1] // g, total // g))
            sep = " "
        return out or ""

    def cmd_play(self, words):
        if len(words) != 2:
            raise ValueError("usage: play <token>")
        self.game(()).apply(words[1])
        return self.run_automatic(words[1])

    def cmd_sample(self, words):
        st = self.game(words)
        if st.to_move() != CHANCE:
            raise ValueError("not a chance node (to_move is %s)"
                             % Session.cmd_to_move(self, ()))
        return self.run_automatic(self.sample_chance())

    def cmd_state(self, words):
        # the three common fields, then the game's own, written straight
        # from fields() (the tests hold that it never repeats these keys)
        st = self.game(words)
        out = ['{"game":']
        write_json(out, st.GAME)
        out.append(',"to_move":')
        t = st.to_move()
        out.append('"chance"' if t == CHANCE else '"over"' if t == OVER else str(t))
        out.append(',"scores":')
        write_json(out, st.scores())
        f = st.fields()
        if f:
            # the game's fields as a JSON object, whose opening brace
            # becomes the comma after scores
            n = len(out)
            write_json(out, f)
            out[n] = ',"' if out[n] == '{"' else ","
        else:
            out.append("}")
        return out

    def cmd_show(self, words):
        return self.game(words).render()

    def cmd_undo(self, words):
        """Take back the last move and the chance outcomes that followed it,
        so an undo can never re-roll a die or re-draw from a bag."""
        st = self.game(words)
        return st.token(st.undo_move())

    def cmd_hint(self, words):
        """A suggested move for games that offer one (a ``hint()`` method on
        their State); ``none`` where the game has nothing to suggest."""
        st = self.game(words)
        h = getattr(st, "hint", None)
        if h is None:
            raise ValueError("%s offers no hint" % st.GAME)
        a = h()
        return "none" if a is None else st.token(a)
