"""The palette's colours: the perceived colour of each entry and the gamma
curve that turns it into LED duty. Used by lib.palette while it makes (or
changes) entries; see there for the indices.
"""

from lib.palette import CURSOR, SIZE, piece

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
# small, medium, large (perceived, /255). A size is read from its shape
# (docs/visual-language.md); brightness only helps, so the steps are kept
# close enough that a small stays plainly lit at a panel's default
# brightness (16x16: 32), each colour weighed by what its LED chips give
# the eye (blue the least): blue and purple start higher, and black (a
# warm grey) is kept below clear's large but well off the floor.
_STEPS = (136, 192, 255)
_DEEP_STEPS = (176, 216, 255)  # blue, purple
_BLACK_STEPS = (120, 148, 168)

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


def pack(r, g, b):
    """Perceived (r, g, b) -> 0xRRGGBB of LED duty."""
    return (gamma(r) << 16) | (gamma(g) << 8) | gamma(b)


def table():
    """The full palette: a list of 0xRRGGBB, one per index."""
    rgb = [0] * SIZE
    for c in range(9):
        hue = _HUES[c]
        steps = (_BLACK_STEPS if c == 8 else
                 _DEEP_STEPS if c == 5 or c == 6 else _STEPS)
        for s in range(3):
            k = steps[s]
            rgb[piece(c, s + 1)] = pack(hue[0] * k // 255,
                                        hue[1] * k // 255,
                                        hue[2] * k // 255)
    for i in range(len(_UI)):
        u = _UI[i]
        rgb[CURSOR + i] = pack(u[0], u[1], u[2])
    return rgb
