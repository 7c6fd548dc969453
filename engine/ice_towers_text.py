"""IceTowers' words for the text protocol: a move's token read back, the
legal moves in one line, the state's fields and its text picture. The
game imports this module when a protocol line first asks, so a board
that is only played with its buttons never compiles it.
"""

from engine.ice_towers import (PASS, DEAL, CAP, SPLIT, MINE, SET_DOWN, HEIGHTS,
                               COLOURS, cell_name)
from engine.state import CHANCE, OVER, IllegalMove


def cell(text):
    """``c4`` -> the cell numbered 9 wide, or -1 if malformed."""
    if len(text) != 2:
        return -1
    col = "abcdefghi".find(text[0])
    row = "123456789".find(text[1])
    if col < 0 or row < 0:
        return -1
    return row * 9 + col


def height(text):
    """Decimal 1..75 without leading zeros, or -1."""
    if not text or not text.isdigit() or text[0] == "0" or len(text) > 2:
        return -1
    h = int(text)
    return h if h < HEIGHTS else -1


def action(st, tok):
    """A token of ``st``'s notation -> its action (int); IllegalMove if it
    names none."""
    if tok == "pass":
        return PASS
    if len(tok) == 2 and tok[0] in COLOURS and tok[1] in "123":
        return DEAL + COLOURS.find(tok[0]) * 3 + int(tok[1]) - 1
    if len(tok) == 5 and tok[2] == "-":
        f = cell(tok[:2])
        g = cell(tok[3:])
        if f >= 0 and g >= 0:
            return CAP + f * 81 + g
    elif len(tok) > 3 and tok[2] == "/":
        f = cell(tok[:2])
        h = height(tok[3:])
        if f >= 0 and h > 0:
            return SPLIT + f * HEIGHTS + h
    elif len(tok) > 3 and tok[2] == ":":
        f = cell(tok[:2])
        rest = tok[3:]
        i = rest.find("-")
        g = SET_DOWN
        if i >= 0:
            g = cell(rest[i + 1:])
            rest = rest[:i]
        h = height(rest)
        if f >= 0 and g >= 0 and h > 0:
            return MINE + (f * HEIGHTS + h) * 82 + g
    raise IllegalMove("unknown token %r: IceTowers moves are a cap a1-c4, "
                      "a mine c4:2-b2 or c4:2, a split c4/3, or pass"
                      % tok[:40])


def legal_text(st):
    """The protocol's ``legal`` answer for a player to move, written in
    one go (the tokens from the cells' names, each named once); None
    in the deal and at the end, where the protocol answers itself."""
    if st.dealt < st.total or st.over:
        return None
    names = [cell_name(st._c9(i)) for i in range(len(st.cells))]
    out = []
    for kind, f, h, g in st._moves():
        if kind == 0:
            out.append(names[f] + "-" + names[g])
        elif kind == 1:
            tok = "%s:%d" % (names[f], h)
            out.append(tok if g < 0 else tok + "-" + names[g])
        else:
            out.append("%s/%d" % (names[f], h))
    out.append("pass")
    return " ".join(out)


def fields(st):
    """The protocol's ``state`` fields of ``st`` (a dict)."""
    cs = st.colour_scores()
    bots = []
    for p in range(st.players):
        if st.bots >> p & 1:
            bots.append(p)
    t = st.to_move()
    return {
        "players": st.players,
        "ghost": st.ghost,
        "colours": COLOURS[:st.stashes],
        "side": st.side,
        "grid": "/".join([st.stack(i) for i in range(len(st.cells))]),
        "turn": t if t >= 0 else -1,
        "passes": st.passes,
        "repeats": st.repeats(),
        "moves": st.moves,
        "ghost_score": cs[st.players] if st.ghost else None,
        "winners": st.winners(),
        "bots": bots,
    }


def render(st):
    """``st`` as the protocol's text picture (str): the grid, the scores,
    whose turn."""
    # one line per row, each column as wide as its widest stack
    side = st.side
    names = [st.stack(i) for i in range(len(st.cells))]
    widths = []
    for c in range(side):
        w = 2
        for r in range(side):
            if len(names[r * side + c]) > w:
                w = len(names[r * side + c])
        widths.append(w + 1)
    head = ["   "]
    for c in range(side):
        head.append("abcdefghi"[c] + " " * (widths[c] - 1))
    lines = ["".join(head).rstrip()]
    for r in range(side):
        row = [str(r + 1) + "  "]
        for c in range(side):
            s = names[r * side + c]
            row.append(s + " " * (widths[c] - len(s)))
        lines.append("".join(row).rstrip())
    cs = st.colour_scores()
    out = []
    for p in range(st.players):
        out.append("%d %s:%d" % (p + 1, COLOURS[p], cs[p]))
    if st.ghost:
        out.append("(ghost %s:%d)" % (COLOURS[st.players], cs[st.players]))
    lines.append("  ".join(out))
    t = st.to_move()
    if t == CHANCE:
        lines.append("dealing: %d of %d" % (st.dealt, st.total))
    elif t == OVER:
        lines.append("over after %d moves; won by %s" % (
            st.moves, " ".join([str(p + 1) for p in st.winners()])))
    else:
        lines.append("%d (%s) to move; passes %d, position seen %d" % (
            t + 1, COLOURS[t], st.passes, st.repeats()))
    return "\n".join(lines)
