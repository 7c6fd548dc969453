"""The colours the LEDs can show, as small palette indices.

A frame holds one palette index per pixel. The :class:`Palette` keeps one
gamma-corrected 0xRRGGBB per index, computed once when the palette is built
(or an entry is changed), never per pixel; :mod:`lib.display` then only
scales those by brightness, once per shown frame.

Pieces: ``piece(colour, size)`` gives the index for an engine piece colour
(``engine.pieces.COLOURS`` order: r o y g c b p w k) and size 1..3 (0, a
rock, shows like a medium). Every colour has its own hue; clear (w) is a
cool white and black (k), which an LED cannot show, is a warm grey.
A piece's size is read from its shape or its blink code, never from
brightness alone (docs/visual-language.md; the drawing is in
lib.screens_common). The sizes still step up in brightness (small, medium,
large) as a second cue, with floors high enough that every colour's small,
blue and purple too, stays plainly lit at a panel's default brightness
(tests/test_visual_language.py checks it on both boards).

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

def piece(colour, size):
    """Palette index for an engine piece colour (0..8) and size (1..3;
    0, a rock, shows as a medium)."""
    if size == 0:
        size = 2
    return _PIECE0 + colour * 3 + size - 1


# the palette index of every engine piece code (``colour << 2 | size``,
# colours 0..8): one lookup where a drawing loop needs a piece's colour
CODE = bytes([piece(p >> 2, p & 3) for p in range(36)])


def piece_code(p):
    """Palette index for an engine piece code (``colour << 2 | size``)."""
    return CODE[p]


def player(n):
    """Palette index for player ``n`` (0..PLAYERS-1; wraps)."""
    return _PLAYER0 + n % PLAYERS


class Palette:
    """Gamma-corrected colours by index. ``rgb[i]`` is 0xRRGGBB at full
    brightness; ``version`` changes whenever an entry does, so the display
    knows to rebuild its scaled copy. The colour tables and the gamma curve
    are in lib/palette_rgb.py, loaded while entries are made and then
    forgotten on a board: the app needs them once, at boot."""

    __slots__ = ("rgb", "version")

    def __init__(self):
        self.rgb = _rgb().table()
        self.version = 0
        _forget()

    def __len__(self):
        return len(self.rgb)

    def set(self, index, r, g, b):
        """Change an entry to the perceived colour (r, g, b), gamma
        corrected here, once."""
        self.rgb[index] = _rgb().pack(r, g, b)
        self.version += 1
        _forget()

    def add(self, r, g, b):
        """Append a colour; returns its index (for a screen's own needs)."""
        self.rgb.append(_rgb().pack(r, g, b))
        self.version += 1
        _forget()
        return len(self.rgb) - 1


def _rgb():
    return __import__("lib.palette_rgb", None, None, ("table",))


def _forget():
    # kept on a desktop, where tests reach into it and memory is plenty
    import sys
    if sys.implementation.name != "cpython":
        from engine.state import release
        release("lib.palette_rgb")     # ~1.7 KB of heap back (.mpy)
