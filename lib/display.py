"""The LED matrix as a frame of palette indices.

The app draws into ``frame``: a ``bytearray`` of ``width * height`` palette
indices in reading order (x to the right, y down, as the player holds the
device). :meth:`Display.show` sends it to the LEDs at most once per call and
only if something changed since the last time it was shown.

What happens once, not per frame or per pixel:

* the (x, y) -> LED index map, from the panel's wiring (progressive: every
  row runs left to right; serpentine: every other row runs back) and the
  rotation the panel is mounted at;
* the palette's gamma correction (see :mod:`lib.palette`).

Per shown frame the palette (not the pixels) is scaled by the brightness,
lowered further when needed so the modelled current of the frame stays in
the board's budget. The model is FastLED's: each channel draws
``ma_channel`` mA at 255, proportionally below, plus ``idle_ma`` per LED
for its controller. The exact bytes sent are the ones modelled.

On the board ``pixels`` is a ``neopixel.NeoPixel`` made with
``auto_write=False`` and ``brightness=1.0`` (brightness is applied here, in
integers, so the budget holds for the bytes really written).
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from lib.palette import Palette

MA_CHANNEL = const(20)   # mA per colour channel at full duty (WS2812B)
IDLE_MA = const(1)       # mA per LED when dark
BUDGET_MA = const(450)   # a computer's USB port, with some margin


def led_map(width, height, serpentine=False, rotation=0):
    """The LED index of each logical pixel, in reading order.

    ``width`` and ``height`` are the panel's own (as wired: rows of
    ``width`` LEDs, data entering at the top-left row's first LED).
    ``rotation`` (0, 90, 180, 270) is how far the panel is turned clockwise
    as mounted; for 90 and 270 the logical width and height swap. Returns a
    bytearray (or an array of 16-bit ints past 256 LEDs).
    """
    if rotation not in (0, 90, 180, 270):
        raise ValueError("rotation must be 0, 90, 180 or 270, not %r" % (rotation,))
    n = width * height
    if n <= 256:
        out = bytearray(n)
    else:
        from array import array
        out = array("H", bytes(2 * n))
    lw, lh = (height, width) if rotation in (90, 270) else (width, height)
    i = 0
    for y in range(lh):
        for x in range(lw):
            if rotation == 0:
                px, py = x, y
            elif rotation == 90:
                px, py = y, height - 1 - x
            elif rotation == 180:
                px, py = width - 1 - x, height - 1 - y
            else:
                px, py = width - 1 - y, x
            if serpentine and py & 1:
                px = width - 1 - px
            out[i] = py * width + px
            i += 1
    return out


def frame_ma(buf, ma_channel=MA_CHANNEL, idle_ma=IDLE_MA, bpp=3):
    """Modelled current (mA, rounded up) of the raw LED bytes ``buf``."""
    total = 0
    for v in buf:
        total += v
    return (total * ma_channel + 254) // 255 + idle_ma * (len(buf) // bpp)


class Display:
    """A frame of palette indices shown on a NeoPixel matrix.

    Drawing: ``pixel(x, y, c)`` (off-panel pixels are ignored, so text can
    scroll past the edges), ``get(x, y)``, ``fill(c)``, ``clear()``,
    ``rect(x, y, w, h, c)``; or write ``frame[y * width + x]`` directly.
    Then ``show()``.
    """

    __slots__ = ("pixels", "width", "height", "n", "frame", "map",
                 "palette", "budget_ma", "ma_channel", "idle_ma",
                 "_brightness", "_shown", "_dirty", "_counts", "_scaled",
                 "_pal_version", "scale", "last_ma", "shows")

    def __init__(self, pixels, width, height, serpentine=False, rotation=0,
                 brightness=64, budget_ma=BUDGET_MA, palette=None,
                 ma_channel=MA_CHANNEL, idle_ma=IDLE_MA):
        self.pixels = pixels
        self.map = led_map(width, height, serpentine, rotation)
        if rotation in (90, 270):
            width, height = height, width
        self.width = width
        self.height = height
        self.n = width * height
        self.frame = bytearray(self.n)
        self._shown = bytearray(self.n)
        self.palette = palette if palette is not None else Palette()
        self.budget_ma = budget_ma
        self.ma_channel = ma_channel
        self.idle_ma = idle_ma
        self._brightness = max(0, min(255, brightness))
        self._dirty = True     # the LEDs' state is unknown until first show
        # one slot per possible byte, so an index past the palette shows
        # as off instead of raising in the middle of a frame
        self._counts = [0] * 256    # pixels per palette index this frame
        self._scaled = [0] * 256    # palette scaled for this frame
        self._pal_version = -1
        self.scale = 0      # brightness actually used for the last frame
        self.last_ma = 0    # modelled current of the last frame (mA)
        self.shows = 0      # frames sent to the LEDs

    # ---- drawing ---------------------------------------------------------
    def pixel(self, x, y, c):
        if 0 <= x < self.width and 0 <= y < self.height:
            self.frame[y * self.width + x] = c

    def get(self, x, y):
        if 0 <= x < self.width and 0 <= y < self.height:
            return self.frame[y * self.width + x]
        return 0

    def fill(self, c):
        f = self.frame
        for i in range(self.n):
            f[i] = c

    def clear(self):
        self.fill(0)

    def rect(self, x, y, w, h, c):
        """A filled rectangle, clipped to the panel."""
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.pixel(xx, yy, c)

    # ---- brightness ------------------------------------------------------
    @property
    def brightness(self):
        """Wanted brightness 0..255 (the power limit may use less)."""
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        value = max(0, min(255, int(value)))
        if value != self._brightness:
            self._brightness = value
            self._dirty = True

    def invalidate(self):
        """Send the next frame even if it looks unchanged (e.g. after
        something else wrote to the LEDs)."""
        self._dirty = True

    # ---- output ----------------------------------------------------------
    def show(self):
        """Send the frame if it changed; True if the LEDs were written."""
        pal = self.palette
        if pal.version != self._pal_version:
            self._palette_changed()
        elif not self._dirty and self.frame == self._shown:
            return False
        frame = self.frame
        shown = self._shown
        self._dirty = False
        counts = self._counts
        for i in range(256):
            counts[i] = 0
        # index loops, not ``for c in frame``: no iterator object per frame
        for i in range(self.n):
            counts[frame[i]] += 1
        self._fit()
        scaled = self._scaled
        px = self.pixels
        m = self.map
        for i in range(self.n):
            c = frame[i]
            shown[i] = c
            px[m[i]] = scaled[c]
        px.show()
        self.shows += 1
        return True

    def _palette_changed(self):
        if len(self.palette.rgb) > 256:
            raise ValueError("a palette holds at most 256 colours")
        self._pal_version = self.palette.version

    def _scale_to(self, s):
        # the palette at brightness s; returns the frame's channel total
        rgb = self.palette.rgb
        counts = self._counts
        scaled = self._scaled
        units = 0
        for i in range(len(rgb)):
            v = rgb[i]
            r = _dim(v >> 16, s)
            g = _dim((v >> 8) & 255, s)
            b = _dim(v & 255, s)
            scaled[i] = (r << 16) | (g << 8) | b
            if counts[i]:
                units += counts[i] * (r + g + b)
        return units

    def _fit(self):
        # The brightest scale <= the wanted brightness whose modelled
        # current fits the budget. Most frames fit as they are (one palette
        # pass); otherwise a binary search, about 8 passes over the palette,
        # never over the pixels.
        idle = self.idle_ma * self.n
        room = (self.budget_ma - idle) * 255   # channel units * ma_channel
        ma = self.ma_channel
        s = self._brightness
        if room <= 0:
            s = 0
        elif self._scale_to(s) * ma > room:
            lo, hi = 0, s - 1
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if self._scale_to(mid) * ma <= room:
                    lo = mid
                else:
                    hi = mid - 1
            s = lo
        units = self._scale_to(s)
        self.scale = s
        self.last_ma = (units * ma + 254) // 255 + idle


def _dim(v, s):
    # a lit channel stays lit (>= 1) at any non-zero brightness
    if not v or not s:
        return 0
    d = v * s // 255
    return d if d else 1


def from_profile(pixels, profile, brightness=None):
    """A Display for a board profile (see boards/)."""
    return Display(pixels, profile.WIDTH, profile.HEIGHT,
                   serpentine=profile.SERPENTINE, rotation=profile.ROTATION,
                   brightness=profile.BRIGHTNESS if brightness is None else brightness,
                   budget_ma=profile.BUDGET_MA)
