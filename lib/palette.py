"""The colours the LEDs can show, as small palette indices.

A frame holds one palette index per pixel. The :class:`Palette` keeps one
gamma-corrected 0xRRGGBB per index, computed once when the palette is built
(or an entry is changed), never per pixel; :mod:`lib.display` then only
scales those by brightness, once per shown frame.

Pieces: ``piece(colour, size)`` gives the index for an engine piece colour
(``engine.pieces.COLOURS`` order: r o y g c b p w k) and size 1..3 (0, a
rock, shows like a medium). Every colour has its own hue; clear (w) is a
cool white and black (k), which an LED cannot show, is a dim warm grey.
Sizes are three brightness steps (small dim, medium half, large full) so a
stack of one colour still reads at a glance. Black's steps are kept low
(a large black is dimmer than a medium clear) and warm where clear is cool.
At brightness below about 40/255 the LEDs' 8 bits cannot keep black's
three steps apart; a 16x16 screen can add shape.

UI colours: OFF, CURSOR, OK, REFUSE, DIM, TEXT, NOTICE, HILITE and twelve
player colours (``player(n)``), for cursors, scores and hand-off screens
(Bag of Ice takes up to 12 players; the first four are the most distinct).
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

OFF = const(0)
_PIECE0 = const(1)   # 27 entries: 9 colours x 3 sizes
CURSOR = const(28)   # white, blinked by screens over a cell
OK = const(29)       # green: accepted, legal target
REFUSE = const(30)   # red: refused move, error
DIM = const(31)      # faint grey: empty board cells, frames
TEXT = const(32)     # white text
NOTICE = const(33)   # amber: notices ("save corrupt", low battery)
HILITE = const(34)   # magenta: selection/highlight, not a piece hue
_PLAYER0 = const(35)  # PLAYERS player colours
PLAYERS = const(12)
SIZE = const(47)     # number of entries

# perceived colour of each piece colour at full size (before gamma)
_HUES = (
    (255, 0, 0),      # r red
    (255, 120, 0),    # o orange
    (255, 230, 0),    # y yellow
    (0, 255, 0),      # g green
    (0, 220, 200),    # c cyan
    (0, 40, 255),     # b blue
    (150, 0, 255),    # p purple
    (170, 200, 255),  # w clear: a cool white
    (255, 235, 210),  # k black: warm grey, scaled down by _BLACK_STEPS
)
_STEPS = (96, 160, 255)        # small, medium, large (perceived, /255)
_BLACK_STEPS = (56, 88, 136)   # black: dim steps, below clear medium

_UI = (
    (255, 255, 255),  # CURSOR
    (0, 255, 40),     # OK
    (255, 0, 0),      # REFUSE
    (40, 40, 40),     # DIM
    (200, 200, 200),  # TEXT
    (255, 140, 0),    # NOTICE
    (255, 0, 140),    # HILITE
    (255, 30, 0),     # player 1: red
    (0, 60, 255),     # player 2: blue
    (0, 230, 0),      # player 3: green
    (255, 200, 0),    # player 4: yellow
    (255, 100, 0),    # player 5: orange
    (0, 220, 220),    # player 6: cyan
    (150, 0, 255),    # player 7: purple
    (210, 210, 210),  # player 8: white
    (255, 0, 200),    # player 9: pink
    (140, 255, 0),    # player 10: lime
    (0, 150, 255),    # player 11: sky blue
    (255, 110, 110),  # player 12: rose
)

NAMES = ("off",) + tuple(["%s%d" % (c, s) for c in "roygcbpwk"
                          for s in (1, 2, 3)]) + (
    "cursor", "ok", "refuse", "dim", "text", "notice", "hilite",
    "player1", "player2", "player3", "player4", "player5", "player6",
    "player7", "player8", "player9", "player10", "player11", "player12")


def piece(colour, size):
    """Palette index for an engine piece colour (0..8) and size (1..3;
    0, a rock, shows as a medium)."""
    if size == 0:
        size = 2
    return _PIECE0 + colour * 3 + size - 1


def piece_code(p):
    """Palette index for an engine piece code (``colour << 2 | size``)."""
    return piece(p >> 2, p & 3)


def player(n):
    """Palette index for player ``n`` (0..PLAYERS-1; wraps)."""
    return _PLAYER0 + n % PLAYERS


def _isqrt(n):
    if n <= 0:
        return 0
    x = n
    y = (x + 1) >> 1
    while y < x:
        x = y
        y = (x + n // x) >> 1
    return x


def gamma(v):
    """Perceived level 0..255 -> LED duty 0..255 (gamma 2.5, integers
    only). A non-zero level never becomes 0, so dim colours stay lit."""
    if v <= 0:
        return 0
    if v >= 255:
        return 255
    g = v * v * _isqrt(v * 255) // 65025
    return g if g else 1


def _pack(r, g, b):
    return (gamma(r) << 16) | (gamma(g) << 8) | gamma(b)


class Palette:
    """Gamma-corrected colours by index. ``rgb[i]`` is 0xRRGGBB at full
    brightness; ``version`` changes whenever an entry does, so the display
    knows to rebuild its scaled copy."""

    __slots__ = ("rgb", "version")

    def __init__(self):
        rgb = [0] * SIZE
        for c in range(9):
            hue = _HUES[c]
            steps = _BLACK_STEPS if c == 8 else _STEPS
            for s in range(3):
                k = steps[s]
                rgb[_PIECE0 + c * 3 + s] = _pack(hue[0] * k // 255,
                                                 hue[1] * k // 255,
                                                 hue[2] * k // 255)
        for i in range(len(_UI)):
            u = _UI[i]
            rgb[CURSOR + i] = _pack(u[0], u[1], u[2])
        self.rgb = rgb
        self.version = 0

    def __len__(self):
        return len(self.rgb)

    def set(self, index, r, g, b):
        """Change an entry to the perceived colour (r, g, b), gamma
        corrected here, once."""
        self.rgb[index] = _pack(r, g, b)
        self.version += 1

    def add(self, r, g, b):
        """Append a colour; returns its index (for a screen's own needs)."""
        self.rgb.append(_pack(r, g, b))
        self.version += 1
        return len(self.rgb) - 1
