"""Stand-in for ``neopixel.NeoPixel`` under the budget's MicroPython.

It keeps what the real one keeps on the heap: one buffer of ``n * bpp``
bytes (the C ``_pixelbuf`` at ``brightness=1.0``). ``show`` counts frames
and keeps a checksum of the bytes sent, so runs can be compared; the
transfer itself is not timed (a WS2812 takes ~30 us per pixel whatever
the code does).
"""

RGB = "RGB"
GRB = "GRB"
RGBW = "RGBW"
GRBW = "GRBW"


class NeoPixel:
    def __init__(self, pin, n, bpp=3, brightness=1.0, auto_write=True,
                 pixel_order=None):
        self.pin = pin
        self.n = n
        self.bpp = 3
        self.auto_write = auto_write
        self.buf = bytearray(3 * n)
        self.shows = 0
        self.sum = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        if isinstance(v, int):
            r = v >> 16
            g = (v >> 8) & 255
            b = v & 255
        else:
            r, g, b = v[0], v[1], v[2]
        j = 3 * i
        buf = self.buf
        buf[j] = g
        buf[j + 1] = r
        buf[j + 2] = b
        if self.auto_write:
            self.show()

    def __getitem__(self, i):
        j = 3 * i
        buf = self.buf
        return (buf[j + 1], buf[j], buf[j + 2])

    def fill(self, v):
        aw = self.auto_write
        self.auto_write = False
        for i in range(self.n):
            self[i] = v
        self.auto_write = aw
        if aw:
            self.show()

    def show(self):
        s = self.sum
        for v in self.buf:
            s = (s * 31 + v) & 0xFFFFF
        self.sum = s
        self.shows += 1

    def deinit(self):
        pass
