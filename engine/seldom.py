"""Engine code for seldom moments: a refused option, loading a
save, listing the games, undo by replay (a game without snapshots), and the
State methods that serve tools and tests rather than a game in play
(``legal``, ``history``, ``==``). (The engine's other message texts are in
engine/messages.py.)

On a board this module is loaded for one call and forgotten again
(:func:`engine.state.seldom`), so none of it stays in the heap while a game
is played; the common paths in engine/state.py and engine/registry.py never
load it.
"""

from engine.state import IllegalMove, CHANCE, FORMAT, State

def opt_choice(key, v, choices):
    raise ValueError("%s=%s: choose one of %s" % (key, v, "|".join(choices)))


def opt_int(key, v, lo, hi):
    """The full check behind :func:`engine.state.opt_int`'s fast path."""
    try:
        n = int(v)
    except ValueError:
        n = None
    if n is None or not lo <= n <= hi or str(n) != v.lstrip("+"):
        raise ValueError("%s=%s: expected a whole number %d..%d" % (key, v, lo, hi))
    return n


def bad_word(w, opts):
    """Why ``w`` cannot be one more ``key=value`` word after ``opts``."""
    i = w.find("=")
    if i <= 0 or i == len(w) - 1:
        raise ValueError("bad option %r: expected key=value" % w)
    raise ValueError("option %s given twice" % w[:i])


def unknown(st, opts):
    raise ValueError("unknown option %s for %s (options: %s)"
                     % (sorted(opts)[0], st.GAME, ", ".join(st.OPTIONS) or "none"))


def unpack(st, body):
    """Replay a saved history on a fresh state, checking every action."""
    if len(body) % 2:
        raise ValueError("history has an odd length")
    for i in range(0, len(body), 2):
        a = (body[i] << 8) | body[i + 1]
        if bool(a & 0x8000) != (st.to_move() == CHANCE):
            raise ValueError("history does not fit the game")
        try:
            st.apply_action(a & 0x7FFF)
        except IllegalMove as e:
            raise ValueError("history holds an illegal action: %s" % e)


def split_header(data):
    """Serialized bytes -> ``(game_id, options_text, body)``."""
    if len(data) < 6 or data[:2] != b"PP":
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


def deserialize(data):
    """``engine.registry.deserialize``."""
    from engine.registry import new
    gid, opt, body = split_header(data)
    st = new(gid, opt.split() if opt else None)
    st._unpack(body)
    return st


def unknown_game(gid, games):
    raise ValueError("unknown game %r (games: %s)" % (gid, " ".join(games)))


def replay(st):
    """``State.undo`` without snapshots: replay all but the last action."""
    hist = st.hist[:-2]
    st.hist = bytearray()
    st._init()
    for i in range(0, len(hist), 2):
        st._apply(((hist[i] << 8) | hist[i + 1]) & 0x7FFF)
    st.hist = bytearray(hist)


def legal(st):
    """``State.legal``: the legal tokens, or at a chance node the outcomes."""
    if st.to_move() == CHANCE:
        return [st.token(o[0]) for o in st.chance_outcomes()]
    return [st.token(a) for a in st.legal_actions()]


def history(st):
    """``State.history``: ``[(action, was_chance), ...]`` oldest first."""
    h = st.hist
    return [(((h[i] << 8) | h[i + 1]) & 0x7FFF, bool(h[i] & 0x80))
            for i in range(0, len(h), 2)]


def equal(st, other):
    """``State.__eq__``: the same game, options and position."""
    return isinstance(other, State) and st.serialize() == other.serialize()
