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

    ``show`` keeps, per palette index, the colour already scaled to the
    brightness in use and its channel total, and the frame's total current
    as it goes; so a frame that changed in a few pixels costs a compare per
    row (in C) and a little work per changed pixel. Only a new brightness,
    a palette change or a frame that does not fit the power budget at the
    wanted brightness (or did not last time) re-fits the scale and rewrites
    every LED. The bytes sent are the same either way.
    """

    __slots__ = ("pixels", "width", "height", "n", "frame", "map",
                 "palette", "budget_ma", "ma_channel", "idle_ma",
                 "_brightness", "_shown", "_dirty", "_counts", "_col",
                 "_units", "_units_total", "_rows", "_key", "_fill", "_fillc",
                 "_np", "_pal_version", "scale", "last_ma", "shows")

    def __init__(self, pixels, width, height, serpentine=False, rotation=0,
                 brightness=64, budget_ma=BUDGET_MA, palette=None,
                 ma_channel=MA_CHANNEL, idle_ma=IDLE_MA):
        self.pixels = pixels
        self.map = led_map(width, height, serpentine, rotation)
        if rotation in (90, 270):
            width, height = height, width
        self.width = width
        self.height = height
        n = width * height
        self.n = n
        self.frame = bytearray(n)
        self._shown = bytearray(n)
        # one view per row of the frame and of what is shown, made once:
        # comparing two views is one C call, and needs no new object
        fv = memoryview(self.frame)
        sv = memoryview(self._shown)
        rows = []
        for y in range(height):
            rows.append(fv[y * width:(y + 1) * width])
            rows.append(sv[y * width:(y + 1) * width])
        self._rows = rows
        self._fill = bytearray(n)   # a whole frame of colour _fillc, for fill()
        self._fillc = 0
        self._key = bytearray(1)    # the index being counted
        self.palette = palette if palette is not None else Palette()
        self.budget_ma = budget_ma
        self.ma_channel = ma_channel
        self.idle_ma = idle_ma
        self._brightness = max(0, min(255, brightness))
        self._dirty = True     # the LEDs' state is unknown until first show
        # one slot per possible byte, so an index past the palette shows
        # as off instead of raising in the middle of a frame
        self._counts = [0] * 256    # pixels per palette index (when fitting)
        self._col = [0] * 256       # each index's colour at ``scale``
        self._units = [0] * 256     # and its channel total (r + g + b)
        self._units_total = 0       # channel total of the frame shown
        self._np = 0                # palette entries in the tables
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
        # a copy from a buffer of that colour (in C); the buffer is redone
        # only when the colour differs from the last fill's
        fb = self._fill
        if c != self._fillc:
            for i in range(self.n):
                fb[i] = c
            self._fillc = c
        self.frame[:] = fb

    def clear(self):
        self.fill(0)

    def rect(self, x, y, w, h, c):
        """A filled rectangle, clipped to the panel."""
        W = self.width
        if x < 0:
            w += x
            x = 0
        if y < 0:
            h += y
            y = 0
        if x + w > W:
            w = W - x
        if y + h > self.height:
            h = self.height - y
        if w <= 0 or h <= 0:
            return
        f = self.frame
        i = y * W + x
        for _ in range(h):
            for j in range(i, i + w):
                f[j] = c
            i += W

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
        if self.palette.version != self._pal_version:
            self._palette_changed()
        if self._dirty:
            self._refit()
        else:
            frame = self.frame
            if frame == self._shown:
                return False
            shown = self._shown
            col = self._col
            units = self._units
            px = self.pixels
            m = self.map
            rows = self._rows
            w = self.width
            total = self._units_total
            i = 0
            for r in range(0, len(rows), 2):
                if rows[r] != rows[r + 1]:
                    for j in range(i, i + w):
                        c = frame[j]
                        o = shown[j]
                        if c != o:
                            shown[j] = c
                            total += units[c] - units[o]
                            px[m[j]] = col[c]
                i += w
            self._units_total = total
            ma = self.ma_channel
            if (self.scale < self._brightness or
                    total * ma > (self.budget_ma - self.idle_ma * self.n) * 255):
                # dimmed last time (may brighten now) or over budget now:
                # fit again; the pixels written above are rewritten
                self._refit()
            else:
                self.last_ma = (total * ma + 254) // 255 + self.idle_ma * self.n
        self.pixels.show()
        self.shows += 1
        return True

    def _palette_changed(self):
        if len(self.palette.rgb) > 256:
            raise ValueError("a palette holds at most 256 colours")
        self._pal_version = self.palette.version
        self._dirty = True

    def _count(self):
        # pixels per palette index: bytearray.count is C where it exists
        frame = self.frame
        counts = self._counts
        np = len(self.palette.rgb)
        key = self._key
        try:
            for i in range(np):
                key[0] = i
                counts[i] = frame.count(key)
        except (AttributeError, TypeError):
            for i in range(np):
                counts[i] = 0
            for i in range(self.n):
                c = frame[i]
                if c < np:
                    counts[c] += 1

    def _scale_to(self, s):
        """The frame's channel total with the palette at brightness ``s``
        (from the counts of the last fit)."""
        rgb = self.palette.rgb
        counts = self._counts
        units = 0
        for i in range(len(rgb)):
            k = counts[i]
            if k:
                v = rgb[i]
                units += k * (_dim(v >> 16, s) + _dim((v >> 8) & 255, s) +
                              _dim(v & 255, s))
        return units

    def _refit(self):
        # The brightest scale <= the wanted brightness whose modelled
        # current fits the budget. Most frames fit as they are (one palette
        # pass); otherwise a binary search, about 8 passes over the palette,
        # never over the pixels. Then every LED is written.
        self._dirty = False
        self._count()
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
        # the tables for scale s
        rgb = self.palette.rgb
        col = self._col
        units = self._units
        counts = self._counts
        total = 0
        for i in range(len(rgb)):
            v = rgb[i]
            r = _dim(v >> 16, s)
            g = _dim((v >> 8) & 255, s)
            b = _dim(v & 255, s)
            col[i] = (r << 16) | (g << 8) | b
            units[i] = r + g + b
            total += counts[i] * (r + g + b)
        for i in range(len(rgb), self._np):   # a smaller palette than before
            col[i] = 0
            units[i] = 0
        self._np = len(rgb)
        self.scale = s
        self._units_total = total
        self.last_ma = (total * ma + 254) // 255 + idle
        frame = self.frame
        px = self.pixels
        m = self.map
        for i in range(self.n):
            px[m[i]] = col[frame[i]]
        self._shown[:] = frame


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
