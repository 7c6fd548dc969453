"""What the shell keeps loaded: names, icons, drawing helpers and the
hand-off screen (needed inside games). Screens used only outside games are
in lib.shell, loaded when needed.

Icons are 8x8 pictures (drawn 2x on a 16x16 panel). Each is written as one
64-character string (adjacent literals, joined by the compiler, so no
per-row strings are kept): a game's in engine/catalog.py, the shell's own
items' here. Each is compiled into 64 bytes of palette indices the first
time it is drawn.
"""

from lib import palette as P
from lib import font
from lib.buttons import A
from engine import catalog

# the shell's own menu items after the games (engine/catalog.py names and
# draws those): their names and icons, written as the catalog's are
SHELL_ITEMS = ("settings", "scores", "about")
SHELL_NAMES = ("SETTINGS", "SCORES", "ABOUT")
SHELL_ICONS = (
    (
        "........"
        "dddhdddd"
        "...h...."
        "........"
        "ddddddhd"
        "......h."
        "........"
        "dhdddddd"
    ),
    (
        "........"
        ".....3.."
        ".1...3.."
        ".1...3.."
        ".1.2.3.."
        ".1.2.3.4"
        ".1.2.3.4"
        "dddddddd"
    ),
    (
        "...tt..."
        "...tt..."
        "........"
        "..ttt..."
        "...tt..."
        "...tt..."
        "...tt..."
        "..tttt.."
    ),
)


def ink(ch):
    """The palette index of one character of icon art (engine/catalog.py)."""
    if ch == ".":
        return P.OFF
    i = "roygcbpwk".find(ch)
    if i >= 0:
        return P.piece(i, 3)
    i = "ROYGCBPWK".find(ch)
    if i >= 0:
        return P.piece(i, 1)
    i = "1234".find(ch)
    if i >= 0:
        return P.player(i)
    return {"d": P.DIM, "t": P.TEXT, "h": P.HILITE, "+": P.OK,
            "x": P.REFUSE}[ch]


def compile_icon(art):
    out = bytearray(64)
    for i in range(64):
        out[i] = ink(art[i])
    return bytes(out)


# compiled icons by id, made when first drawn (a game a test adds to the
# catalog gets one too)
ICONS = {}


def icon(gid):
    """The compiled icon of a catalog entry or a shell item (blank if
    ``gid`` is neither)."""
    art = ICONS.get(gid)
    if art is None:
        if gid in SHELL_ITEMS:
            art = compile_icon(SHELL_ICONS[SHELL_ITEMS.index(gid)])
        else:
            entry = catalog.entry(gid)
            art = compile_icon(entry.icon) if entry else bytes(64)
        ICONS[gid] = art
    return art


def name(gid):
    """What the menu calls a catalog entry or a shell item."""
    if gid in SHELL_ITEMS:
        return SHELL_NAMES[SHELL_ITEMS.index(gid)]
    entry = catalog.entry(gid)
    return entry.name if entry else gid.upper()


def draw_icon(d, picture, x, y, scale, dim=False):
    """An 8x8 icon (from :func:`icon`) with its top-left at (x, y), each
    pixel a ``scale`` square; ``dim`` draws its lit pixels grey (a game not
    built yet)."""
    d.blit(picture, 8, 8, x, y, scale, P.DIM if dim else -1)


def draw_full_icon(d, gid, dim=False):
    """The icon of ``gid`` filling an 8x8 panel, or 2x on 16x16."""
    scale = d.width // 8
    draw_icon(d, icon(gid), (d.width - 8 * scale) // 2, 0, scale, dim)


def piece_glyph(d, p, cx, bottom, s):
    """A piece seen from the side, centred on column ``cx`` with its base
    on row ``bottom``: a pyramid 2, 3 or 4 rows high by size; a rock (size
    0) is a round blob. ``s`` scales it. (The bag and Bag of Ice.)"""
    c = P.piece_code(p)
    size = p & 3
    if size == 0:
        d.rect(cx - s, bottom - 2 * s + 1, 2 * s, s, c)
        d.rect(cx - 2 * s, bottom - s + 1, 4 * s, s, c)
        d.rect(cx - s, bottom - 3 * s + 1, 2 * s, s, c)
        return
    h = size + 1
    for r in range(h):
        half = r * s       # row r from the top: 2r+1 dots wide
        d.rect(cx - half, bottom - (h - r) * s + 1, 2 * half + s, s, c)


def border(d, c, t=1):
    """A frame ``t`` pixels thick around the panel."""
    w = d.width
    h = d.height
    d.rect(0, 0, w, t, c)
    d.rect(0, h - t, w, t, c)
    d.rect(0, 0, t, h, c)
    d.rect(w - t, 0, t, h, c)


def refusal(d):
    """The refusal flash drawn over a frame: a red frame on 8x8; on 16x16 a
    red bar along the top and the bottom, because show() pays per changed
    row and a frame round the sides changes all 16 (flash on and off would
    be two whole-panel passes)."""
    if d.width <= 8:
        border(d, P.REFUSE)
        return
    w = d.width
    d.rect(0, 0, w, 2, P.REFUSE)
    d.rect(0, d.height - 2, w, 2, P.REFUSE)


def cross(d, x, y, n, c):
    """An X ``n`` pixels square."""
    for i in range(n):
        d.pixel(x + i, y + i, c)
        d.pixel(x + n - 1 - i, y + i, c)


def centre_number(d, n, y, c):
    font.draw_number(d, n, (d.width - font.number_width(n)) // 2, y, c)


def centre_text(d, text, y, c):
    font.draw(d, text, (d.width - font.width(text)) // 2, y, c)


class Handoff:
    """Pass-and-play: whose turn it is, in their colour, hiding the board
    until they press A."""

    def __init__(self, app, player):
        self.app = app
        self.player = player

    def key(self, k):
        if k == A:
            app = self.app
            app.scr = app.game_scr
            return True
        return False

    def tick(self, now):
        return False

    def draw(self, d):
        d.fill(P.OFF)
        c = P.player(self.player)
        n = self.player + 1
        if d.width <= 8:
            if n < 10:
                border(d, c, 1)
            else:
                d.rect(0, 0, 8, 1, c)
                d.rect(0, 7, 8, 1, c)
            centre_number(d, n, 1, c)
        else:
            border(d, c, 2)
            x = (d.width - font.ADVANCE - font.number_width(n)) // 2
            font.draw_char(d, "P", x, 5, c)
            font.draw_number(d, n, x + font.ADVANCE, 5, c)


