"""The Pocket Pyramids text protocol: one command per line, GTP-style.

:class:`Session` is pure (no I/O), so the same code answers on a desktop
(``tools/ptp.py``) and on a board over USB serial. Every answer starts with
``= `` (success) or ``? `` (error) and ends with an empty line. A bad line
never changes the game and never ends the session.

Memory: on a board the garbage one line makes counts as much as what stays
live, so answers are written as pieces into one list and joined once, and
nothing builds a copy of what the state already holds. What a game in
progress does not need every move is loaded for the call and forgotten
again on a board (:func:`engine.state.cold`), in parts so that each call
loads little: ``score``, ``history``, ``help``, ``games`` and ``quit`` in
engine/protocol_seldom.py; the odds of a chance node, JSON with escapes
and the answer to a bug in engine/protocol_rare.py; ``new`` in
engine/protocol_new.py; the registry, which only ``games`` and a ``new``
of a game not loaded yet use.
"""

from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove, cold

HELP = ("games", "new", "to_move", "legal", "play", "sample", "state", "score",
        "show", "undo", "history", "hint", "help", "quit")
# a protocol line longer than this is refused before it is split
MAX_LINE = 4096


def _write(out, v):
    """Append the JSON text of ``v`` to the list ``out``, piece by piece.
    Plain strings, ints, None, bools, lists and dicts with plain keys are
    written here; anything needing an escape goes to the cold writer."""
    t = type(v)
    if t is str:
        # nearly every string is a plain token (min() runs in C); a long
        # one is checked as bytes, a third of the time of its characters
        # (each is looked up among the interned strings), for a copy
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
            _write(out, x)
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
                    _write(out, x)
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
    cold("engine.protocol_rare").write(out, v)


class Session:
    """Holds one game and a seeded generator for its chance nodes.

    With ``auto`` (the default) a command that lands on deal-like chance
    nodes (``State.auto_chance``) samples them all before answering, so
    ``new ice_solo`` answers with the cards dealt, and a seat the game
    plays itself (``bot_move``) moves before the answer too. A front end that must keep
    every line short (a board on USB serial, the device-budget runner) passes
    ``auto=False`` and sends one ``sample`` per such node instead, as the
    app deals one node per loop pass.

    Commands are the ``cmd_*`` functions, called as ``cmd(self, words)``
    with the whole split line (looked up on the class, or in
    engine/protocol_seldom.py for the rare ones: no bound method). One
    answers with a str, or with a list of pieces (non-empty) that
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
            fn = getattr(Session, "cmd_" + cmd, None)
            if fn is None:
                fn = getattr(cold("engine.protocol_seldom"), "cmd_" + cmd)
            r = fn(self, words)
            if type(r) is list:
                # a long answer comes as its pieces: framed and joined once
                r[0] = "= " + r[0]
                r.append("\n\n")
                return "".join(r)
            return "".join(("= ", r, "\n\n"))
        except (ValueError, IllegalMove) as e:
            # an answer ends at its first empty line: one line per message
            return "? " + (str(e) or "error").replace("\r", " ").replace("\n", " ") + "\n\n"
        except MemoryError:
            return "? out of memory\n\n"
        except Exception as e:
            # a bug in a game module must not end a session on a board;
            # the tests assert this answer never appears
            return cold("engine.protocol_rare").internal(e)

    def _game(self, words):
        """The game, for a command that takes no arguments."""
        if len(words) > 1:
            raise ValueError("unexpected %r" % words[1])
        if self.state is None:
            raise ValueError("no game: start one with new <id>")
        return self.state

    def _auto(self, said):
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
                said += " " + self._sample()
                continue
            a = None if bot is None or st.to_move() == OVER else bot()
            if a is None:
                break
            st.apply_action(a)
            said += " " + st.token(a)
        return said

    def _sample(self):
        # the same draw as Rng.weighted over the weights, without a list
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
        # engine/protocol_new.py, loaded for the line (setup: none of it
        # need stay in the heap while a game is played)
        return cold("engine.protocol_new").cmd_new(self, words)

    def cmd_to_move(self, words):
        t = self._game(words).to_move()
        return "chance" if t == CHANCE else "over" if t == OVER else str(t)

    def cmd_legal(self, words):
        st = self._game(words)
        # a game may write its whole answer at once (Ice Solo's towering:
        # ~150 token strings made one by one cost a board ~19 ms), None at
        # a chance node; asked first, it can skip finding out who moves
        f = getattr(st, "legal_text", None)
        t = f() if f is not None else None
        if t is not None:
            return t
        if st.to_move() == CHANCE:
            # each outcome with its odds
            return cold("engine.protocol_rare").odds(st)
        out = []
        for a in st.legal_actions():
            out.append(st.token(a))
        return " ".join(out)

    def cmd_play(self, words):
        if len(words) != 2:
            raise ValueError("usage: play <token>")
        self._game(()).apply(words[1])
        return self._auto(words[1])

    def cmd_sample(self, words):
        st = self._game(words)
        if st.to_move() != CHANCE:
            raise ValueError("not a chance node (to_move is %s)"
                             % Session.cmd_to_move(self, ()))
        return self._auto(self._sample())

    def cmd_state(self, words):
        # the three common fields, then the game's own, written straight
        # from fields() (the tests hold that it never repeats these keys)
        st = self._game(words)
        out = ['{"game":']
        _write(out, st.GAME)
        out.append(',"to_move":')
        t = st.to_move()
        out.append('"chance"' if t == CHANCE else '"over"' if t == OVER else str(t))
        out.append(',"scores":')
        _write(out, st.scores())
        f = st.fields()
        if f:
            # the game's fields as a JSON object, whose opening brace
            # becomes the comma after scores
            n = len(out)
            _write(out, f)
            out[n] = ',"' if out[n] == '{"' else ","
        else:
            out.append("}")
        return out

    def cmd_show(self, words):
        return self._game(words).render()

    def cmd_undo(self, words):
        """Take back the last move and the chance outcomes that followed it,
        so an undo can never re-roll a die or re-draw from a bag."""
        st = self._game(words)
        return st.token(st.undo_move())

    def cmd_hint(self, words):
        """A suggested move for games that offer one (a ``hint()`` method on
        their State); ``none`` where the game has nothing to suggest."""
        st = self._game(words)
        h = getattr(st, "hint", None)
        if h is None:
            raise ValueError("%s offers no hint" % st.GAME)
        a = h()
        return "none" if a is None else st.token(a)
