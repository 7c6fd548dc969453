"""The protocol's rarest paths: JSON that needs escapes, the odds of a
chance node's outcomes (``legal`` there) and the answer to a bug.
engine/protocol.py loads this module for one call and, on a board, forgets
it again (:func:`engine.state.cold`), so none of it stays in the heap
while a game is played.
"""




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
        raise TypeError("cannot write %r as JSON" % v)


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
