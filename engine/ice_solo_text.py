"""Ice Solo's words: refusal messages and the checks of a
``deal``/``scatter`` option (the text picture is engine/ice_solo_show.py).

The game imports this module when it first needs it.
"""

from engine.pieces import (parse_grid, parse_cell, parse_piece, fmt_cell,
                           fmt_piece, NotationError, COLOURS)
from engine.ice_solo import (NONE, REMIX, END, STYLE_YES, STYLE_NO, EMPTY,
                             DEAL_OK, DEAL_REDO, PLACE, TARGET, P_DEAL,
                             P_SCATTER, P_REMIX, P_TOWER, CIX)
from engine.ice_solo_tower import clear_line
from engine.state import IllegalMove

# the reasons of Game._nest_ok, by code
_NEST = (None, "%s is empty", "%s is the small of a full nest, which never moves",
         "a piece must move to another cell",
         "a piece moves only along its row or column",
         "only a small may move into an empty cell",
         "%s may land only on its own colour, not on %s")


def _colour_list(cols):
    return " ".join([COLOURS[c] for c in cols])


def _check_pieces(cells, cols, what):
    """Exactly five of each size in each colour of ``cols``."""
    counts = {}
    for i in range(len(cells)):
        for p in cells[i]:
            if CIX[(p >> 2) & 15] >= len(cols):
                raise ValueError("%s has %s, not a colour of this variant (%s)"
                                 % (what, fmt_piece(p), _colour_list(cols)))
            counts[p] = counts.get(p, 0) + 1
    for c in cols:
        for s in (3, 2, 1):
            p = (c << 2) | s
            k = counts.get(p, 0)
            if k != 5:
                raise ValueError("%s has %d %s, expected 5"
                                 % (what, k, fmt_piece(p)))


def configure(g, deal, scatter):
    """Check ``quick``/``deal``/``scatter`` together and set the starting
    position on the game ``g`` (its variant is already set)."""
    given = [k for k, x in (("quick=1", g.quick), ("deal", deal),
                            ("scatter", scatter)) if x]
    if len(given) > 1:
        raise ValueError("give only one of %s" % ", ".join(given))
    if g.variant == 5 and g.quick:
        raise ValueError("quick=1 is for variant=4 only: the 5-colour "
                         "game is always dealt straight into the grid")
    if g.variant == 5 and scatter is not None:
        raise ValueError("scatter is for variant=4 only: the 5-colour "
                         "game has no towering phase")
    if deal is not None:
        try:
            cells = parse_grid(deal, g.width, 5)
        except NotationError as e:
            raise ValueError("deal: %s" % e)
        _check_pieces(cells, g.cols, "deal")
        out = bytearray()        # packed: per cell its height, then pieces
        for c in cells:
            out.append(len(c))
            out.extend(c)
        g.start_grid = bytes(out)
    if scatter is not None:
        try:
            cells = parse_grid(scatter, 8, 8)
        except NotationError as e:
            raise ValueError("scatter: %s" % e)
        for i in range(64):
            if len(cells[i]) > 1:
                raise ValueError("scatter cell %s has %d pieces; every "
                                 "piece stands alone in the scatter"
                                 % (fmt_cell(i, 8), len(cells[i])))
        _check_pieces(cells, g.cols, "scatter")
        g.start_field = bytes([c[0] if c else NONE for c in cells])


def nest_reason(g, s, t):
    """The words for ``g._nest_ok(s, t)`` (grid indices), or None."""
    r = g._nest_ok(s, t)
    if not r:
        return None
    a = g.grid[s]
    if r == 1:
        return _NEST[1] % fmt_cell(g._a(s), 8)
    if r == 2:
        return _NEST[2] % fmt_piece(a[-1])
    if r == 6:
        return _NEST[6] % (fmt_piece(a[-1]), fmt_piece(g.grid[t][-1]))
    return _NEST[r]


def why_illegal(g, a):
    tok = g.token(a)
    ph = g.phase
    if ph in (P_DEAL, P_SCATTER, P_REMIX):
        return "%s: a %s is under way; its outcomes are listed by legal" % (
            tok, "remix" if ph == P_REMIX else "deal")
    if a >= 4096:
        if a == REMIX:
            if ph != P_TOWER:
                return "remix: only while towering"
            return "remix: only when no towering move is legal"
        if a in (STYLE_YES, STYLE_NO):
            return "%s: the style judgement comes only when every cell " \
                   "is a clean nest" % tok
        if g.style_due():
            return "%s: judge the style first (style-yes or style-no)" % tok
        return "%s is not a move now" % tok
    if g.style_due():
        return "%s: every cell is a clean nest; judge the style " \
               "(style-yes or style-no)" % tok
    s = a >> 6
    t = a & 63
    fs = fmt_cell(s, 8)
    ft = fmt_cell(t, 8)
    if ph == P_TOWER:
        p = g.lo[s]
        if p == NONE:
            return "%s: %s is empty" % (tok, fs)
        if g.hi[s] != NONE:
            return "%s: the medium on %s is part of a tower and stays" % (tok, fs)
        if p & 3 == 3:
            return "%s: a large never moves" % tok
        tg = g._targets(p)
        if t not in tg:
            if p & 3 == 2:
                return "%s: a medium goes onto a bare large of another " \
                       "colour" % tok
            return "%s: a small goes onto a medium (on a large) of " \
                   "another colour" % tok
        for b in tg:
            if b != t and not clear_line(s, t, [b]):
                return "%s: the line of sight is blocked by %s" % (
                    tok, fmt_cell(b, 8))
        return None
    gs = g._g(s)
    gt = g._g(t)
    if gs < 0 or gt < 0:
        return "%s: %s is off the %dx5 grid" % (
            tok, fs if gs < 0 else ft, g.width)
    r = nest_reason(g, gs, gt)
    return "%s: %s" % (tok, r) if r else None


def action(g, tok):
    """The token reader for anything ``Game.action`` does not read itself:
    the full notation (engine.pieces), and the refusal of a bad token."""
    for a in (REMIX, END, STYLE_YES, STYLE_NO, EMPTY, DEAL_OK, DEAL_REDO):
        if tok == g.token(a):
            return a
    try:
        if tok[:1] == "=":
            p = parse_piece(tok[1:])
            if p & 3 == 0:
                raise NotationError("no size")
            return PLACE + p
        if tok[:1] == "@":
            return TARGET + parse_cell(tok[1:], 8, 8)
        i = tok.find("-")
        if i > 0:
            return parse_cell(tok[:i], 8, 8) * 64 + parse_cell(tok[i + 1:], 8, 8)
    except NotationError as e:
        raise IllegalMove("bad token %r: %s" % (tok, e))
    raise IllegalMove("unknown token %r: ice_solo moves are like a1-c3, "
                      "remix, end, style-yes, style-no; chance outcomes "
                      "are =r3, =- and @c5" % tok)
