"""A 3x5 pixel font (digits, capitals, a few symbols) and a text scroller.

Each glyph is 15 bits, five rows of three, top row first, leftmost pixel
the high bit of its row. Characters are 3 pixels wide with 1 pixel of
space, so two digits fit an 8-pixel panel and four a 16-pixel one; longer
text scrolls with :class:`Scroller`. Lower case is drawn as capitals and
an unknown character as ``?``.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

W = const(3)
H = const(5)
ADVANCE = const(4)   # glyph plus one column of space

_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-+:!?./=<>"
_GLYPHS = (
    31599, 11415, 25255, 25230, 23497, 31118, 14831, 29330, 31727, 31694,
    11245, 27566, 14627, 27502, 31143, 31140, 14699, 23533, 29847, 4714,
    23469, 18727, 24557, 27501, 11114, 27556, 11123, 27565, 14478, 29842,
    23407, 23402, 23549, 23213, 23186, 29351, 448, 1488, 1040, 9346, 25218,
    2, 4772, 3640, 5393, 17492)
_QUESTION = _CHARS.find("?")


# printable ASCII (32..126) -> index in _GLYPHS, 255 for a space; lower
# case as upper, anything else as "?" (built once, its helpers dropped)
_ASCII = bytearray(95)
for _k in range(95):
    _i = _CHARS.find(chr(32 + _k).upper())
    _ASCII[_k] = 255 if _k == 0 else (_i if _i >= 0 else _QUESTION)
del _k, _i


def glyph(ch):
    """The 15-bit glyph of a character (0 for a space)."""
    k = ord(ch) - 32
    if 0 <= k < 95:
        i = _ASCII[k]
        return 0 if i == 255 else _GLYPHS[i]
    i = _CHARS.find(ch.upper())
    return _GLYPHS[i if i >= 0 else _QUESTION]


def width(text):
    """Pixel width of ``text`` (no trailing space)."""
    return len(text) * ADVANCE - 1 if text else 0


def draw_char(d, ch, x, y, c):
    """Draw one character with its top-left at (x, y); off-panel pixels
    are skipped (``d.mask``: one call per glyph, not one per pixel)."""
    d.mask(glyph(ch), W, H, x, y, c)


def draw(d, text, x, y, c):
    """Draw ``text`` starting at (x, y); returns the x after it."""
    end = x + len(text) * ADVANCE
    w = d.width
    for i in range(len(text)):
        if x >= w:
            break          # the rest is off the right edge
        if x > -W:         # else wholly off the left edge (scrolling)
            g = glyph(text[i])
            if g:
                d.mask(g, W, H, x, y, c)
        x += ADVANCE
    return end


def draw_number(d, n, x, y, c):
    """Draw an int without building a string (right to left from the
    last digit), so a score can be redrawn every frame. (x, y) is the
    top-left of the first digit; returns the x after the number."""
    neg = n < 0
    if neg:
        n = -n
    digits = 1
    t = n
    while t >= 10:
        t //= 10
        digits += 1
    if neg:
        draw_char(d, "-", x, y, c)
        x += ADVANCE
    end = x + digits * ADVANCE
    xx = end - ADVANCE
    while True:
        d.mask(_GLYPHS[n % 10], W, H, xx, y, c)
        n //= 10
        xx -= ADVANCE
        if not n:
            break
    return end


def number_width(n):
    digits = 1
    t = -n if n < 0 else n
    while t >= 10:
        t //= 10
        digits += 1
    return (digits + (1 if n < 0 else 0)) * ADVANCE - 1


class Scroller:
    """Text that fits, centred; or that scrolls right to left.

    Scrolling text starts readable at the left edge, waits ``pause_ms``,
    moves one column every ``step_ms``, and (with ``loop``) comes back in
    from the right edge. Call ``tick(now_ms)`` every loop pass (True when
    the text moved and the frame should be redrawn) and ``draw(d)`` when
    drawing. It keeps the text it was given and a few ints: nothing is
    allocated per frame.
    """

    __slots__ = ("text", "y", "colour", "step_ms", "pause_ms", "panel_w",
                 "pos", "_due", "passes", "loop", "_w")

    def __init__(self, panel_w, y=1, colour=1, step_ms=90, pause_ms=600,
                 loop=True):
        self.panel_w = panel_w
        self.y = y
        self.colour = colour
        self.step_ms = step_ms
        self.pause_ms = pause_ms
        self.loop = loop
        self.set("")

    def set(self, text, now_ms=None):
        """Show ``text`` from the start (a pause before it moves)."""
        self.text = text
        self._w = width(text)
        self.pos = 0
        self.passes = 0
        self._due = None if now_ms is None else now_ms + self.pause_ms

    def fits(self):
        return self._w <= self.panel_w

    @property
    def done(self):
        """True once a non-looping text has scrolled out (or if it fits)."""
        return self._w <= self.panel_w or self.passes > 0

    def tick(self, now_ms):
        if self._w <= self.panel_w or (self.passes and not self.loop):
            return False
        if self._due is None:
            self._due = now_ms + self.pause_ms
            return False
        if ((now_ms - self._due) & 0x1FFFFFFF) >= 0x10000000:
            return False   # not due yet (ticks wrap at 2**29)
        self._due = now_ms + self.step_ms
        self.pos -= 1
        if self.pos < -self._w:
            self.passes += 1
            if self.loop:
                self.pos = self.panel_w
        return True

    def draw(self, d):
        if self._w <= self.panel_w:
            draw(d, self.text, (self.panel_w - self._w) // 2, self.y,
                 self.colour)
        else:
            draw(d, self.text, self.pos, self.y, self.colour)
