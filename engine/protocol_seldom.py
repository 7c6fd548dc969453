"""The protocol's rare paths: ``score``, ``history``, ``help``, ``games``,
``quit``, the odds of a chance node's outcomes, JSON that needs
escapes, and the answer to a bug. engine/protocol.py loads this module for
one line and, on a board, forgets it again (:func:`engine.state.cold`), so
none of it stays in the heap while a game is played.
"""

from engine.state import fail, cold
from engine.protocol import HELP, Session, _write


def to_json(v):
    """A compact JSON text for dicts, lists, str, int, bool and None."""
    out = []
    _write(out, v)
    return "".join(out)


def _str(out, s):
    out.append('"')
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch < " ":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')


def write(out, v):
    """Any value engine.protocol's writer leaves to this one: strings with
    escapes, dicts whose keys need them, subclasses of the plain types."""
    if isinstance(v, str):
        _str(out, v)
    elif isinstance(v, (list, tuple)):
        c = "["
        for x in v:
            out.append(c)
            write(out, x)
            c = ","
        out.append("]" if c == "," else "[]")
    elif isinstance(v, dict):
        c = "{"
        for k in v:
            out.append(c)
            write(out, k)
            out.append(":")
            write(out, v[k])
            c = ","
        out.append("}" if c == "," else "{}")
    elif v is None or v is True or v is False:
        out.append("null" if v is None else "true" if v else "false")
    elif isinstance(v, int):
        out.append(str(v))
    else:
        fail(11, (v,), TypeError)   # cannot write %r as JSON


def internal(e):
    """The answer to an exception a game module should never raise."""
    return "? internal error: %s\n\n" % ("%s %s" % (type(e).__name__, e)).replace(
        "\r", " ").replace("\n", " ")


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def odds(st):
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


def cmd_help(self, words):
    return " ".join(HELP)


def cmd_games(self, words):
    if len(words) > 1:
        fail(2, (words[1],))   # unexpected %r
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
