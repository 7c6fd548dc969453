"""The protocol's rare commands: ``score``, ``history``, ``help``,
``games`` and ``quit``. engine/protocol.py loads this module for one line
and, on a board, forgets it again (:func:`engine.state.cold`), so none of
it stays in the heap while a game is played. The rarer paths (JSON that
needs escapes, the odds of a chance node, the answer to a bug) are in
engine/protocol_rare.py, so that these commands load less.
"""

from engine.state import cold
from engine.protocol import HELP, Session, _write


def to_json(v):
    """A compact JSON text for dicts, lists, str, int, bool and None."""
    out = []
    _write(out, v)
    return "".join(out)


def cmd_help(self, words):
    return " ".join(HELP)


def cmd_games(self, words):
    if len(words) > 1:
        raise ValueError("unexpected %r" % words[1])
    return " ".join(cold("engine.registry").available())


def cmd_score(self, words):
    out = []
    for s in Session._game(self, words).scores():
        out.append(str(s))
    return " ".join(out)


def cmd_history(self, words):
    st = Session._game(self, words)
    # a game with long histories may write the whole answer itself (one
    # method call per action costs a board several ms a hundred actions)
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
