"""Stand-in for ``neopixel.NeoPixel`` under the budget's MicroPython.

On a board the pixel buffer lives in C (``_pixelbuf``): ``pixels[i] = v``
is one C call and ``show()`` hands the bytes to the hardware. Here the
object is a ``list`` subclass, so item assignment also stays in C and costs
the app what it costs on a board; its heap is one slot per pixel (4 bytes,
the board's buffer has 3). ``show`` only counts frames: the budget runner
reads the pixels between steps (:func:`checksum`), outside the timed call.
The transfer itself is not modelled: a WS2812 takes ~30 us per pixel
whatever the code does.
"""

RGB = "RGB"
GRB = "GRB"
RGBW = "RGBW"
GRBW = "GRBW"

_all = []


class NeoPixel(list):
    def __init__(self, pin, n, bpp=3, brightness=1.0, auto_write=True,
                 pixel_order=None):
        super().__init__([0] * n)
        self.n = n
        self.shows = 0
        _all.append(self)

    def show(self):
        self.shows += 1

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def deinit(self):
        pass


def checksum():
    """A checksum of every strip's pixels, for comparing runs."""
    s = 0
    for px in _all:
        for v in px:
            if isinstance(v, tuple):
                v = (v[0] << 16) | (v[1] << 8) | v[2]
            s = (s * 31 + v) & 0xFFFFF
    return s
