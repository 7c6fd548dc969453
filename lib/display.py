"""The LED matrix as a frame of palette indices.

The app draws into ``frame``: a ``bytearray`` of ``width * height`` palette
indices in reading order (x to the right, y down, as the player holds the
device). :meth:`Display.show` sends it to the LEDs at most once per call and
only if something changed since the last time it was shown.

What happens once, not per frame or per pixel:

* the (x, y) -> LED index map, from the panel's wiring (progressive: every
  row runs left to right; serpentine: every other row runs back) and the
  rotation the panel is mounted at (lib/display_map.py, loaded for that);
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

from array import array

from engine.state import cold, release
from lib.palette import Palette

MA_CHANNEL = const(20)   # mA per colour channel at full duty (WS2812B)
IDLE_MA = const(1)       # mA per LED when dark
BUDGET_MA = const(450)   # a computer's USB port, with some margin


def led_map(width, height, serpentine=False, rotation=0):
    """The LED index of each logical pixel, in reading order (see
    lib/display_map.py, loaded for the call)."""
    return cold("lib.display_map").led_map(width, height, serpentine, rotation)


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
    ``rect(x, y, w, h, c)``, ``mask(bits, w, h, x, y, c, s)`` (a small
    bitmap, e.g. a font glyph), ``blit(pic, w, h, x, y, s, ink)`` (a
    picture of palette indices); or write ``frame[y * width + x]``
    directly. Then ``show()``.

    Speed: on the board every Python call and loop step costs, so the
    helpers write the frame in one call each, and ``show`` keeps, per
    palette index, the colour already scaled to the brightness in use. A
    frame that changed in a few pixels costs a compare per row (in C) and
    a little work per changed pixel, which also keeps the frame's current
    up to date. Only a frame over the budget at the wanted brightness (or
    one after a dimmed frame) counts its colours and fits the scale again;
    a new brightness, palette or scale rewrites every LED. The bytes sent
    are the same either way. A screen that changes most of a 16x16 panel
    can call ``spread(k)`` before the show: k changed rows go up per show,
    over a few loop passes, while ``owed`` is True.
    """

    __slots__ = ("pixels", "width", "height", "n", "frame", "map",
                 "palette", "budget_ma", "ma_channel", "idle_ma",
                 "_brightness", "_shown", "_dirty", "_counts", "_col",
                 "_units", "_total", "_rowu", "_rows", "_dark", "_key", "_fill",
                 "_fillc", "_used", "_nu",
                 "_np", "_pal_version", "scale", "last_ma", "shows",
                 "_even", "_limit", "_rows_per", "owed", "_row", "_rowc",
                 "_span")

    def __init__(self, pixels, width, height, serpentine=False, rotation=0,
                 brightness=64, budget_ma=BUDGET_MA, palette=None,
                 ma_channel=MA_CHANNEL, idle_ma=IDLE_MA):
        self.pixels = pixels
        # (dropped again at once, even when compiled from .py: a display is
        # made once, at boot)
        dm = __import__("lib.display_map", None, None, ("led_map",))
        self.map = m = dm.led_map(width, height, serpentine, rotation)
        if rotation in (90, 270):
            width, height = height, width
        # every row evenly along its LEDs (all but a serpentine panel turned
        # 90 or 270 degrees): show() walks a row's view of the frame from
        # its first LED, without reading the map per pixel
        self._even = dm.rows_even(m, width, height)
        release("lib.display_map")     # ~0.6 KB of heap back (.mpy)
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
        self._dark = memoryview(bytearray(width))   # a row all off
        self._limit = 0     # rows the next show() may write (0: all)
        self._rows_per = 0  # and the rows per show of the frame owed (spread)
        self.owed = False   # changed rows the last show() left for later
        # one row of colour _rowc, and a view of its first w pixels for
        # each width w, made once: a rectangle's row is one slice copy (in
        # C) with no object made
        self._row = bytearray(width)
        self._rowc = 0
        rv = memoryview(self._row)
        self._span = [rv[:k] for k in range(width + 1)]
        self._fill = bytearray(n)   # a whole frame of colour _fillc, for fill()
        self._fillc = 0
        self._key = bytearray(1)    # the index being counted
        self.palette = palette if palette is not None else Palette()
        self.budget_ma = budget_ma
        self.ma_channel = ma_channel
        self.idle_ma = idle_ma
        self._brightness = max(0, min(255, brightness))
        self._dirty = True     # the LEDs' state is unknown until first show
        # (16-bit arrays: half the heap of a list of ints; made from a
        # range, as array(typecode, bytes) differs between CPython and
        # MicroPython) pixels per palette index, counted when fitting, and
        # the indices counted: sized to the palette
        np = len(self.palette.rgb)
        self._counts = array("H", range(np))
        self._used = bytearray(np)
        self._nu = 0
        # one slot per possible byte, so an index past the palette shows
        # as off instead of raising in the middle of a frame
        self._col = [0] * 256       # each index's colour at ``scale``
        self._units = array("H", range(256))   # and its r + g + b
        for i in range(256):
            self._units[i] = 0
        self._total = 0             # channel total of the frame shown
        self._rowu = array("L", range(height))   # and of each of its rows
        self._np = 0                # palette entries in the tables
        self._pal_version = -1
        self.scale = -1     # brightness actually used for the last frame
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
        # (a row at a time) only when the colour differs from the last fill's
        fb = self._fill
        if c != self._fillc:
            row = self._solid(c)
            W = self.width
            i = 0
            for _ in range(self.height):
                fb[i:i + W] = row
                i += W
            self._fillc = c
        self.frame[:] = fb

    def _solid(self, c):
        # the row buffer, all colour c
        row = self._row
        if c != self._rowc:
            for i in range(self.width):
                row[i] = c
            self._rowc = c
        return row

    def clear(self):
        self.fill(0)

    def rect(self, x, y, w, h, c):
        """A filled rectangle, clipped to the panel."""
        W = self.width
        if x < 0 or y < 0 or x + w > W or y + h > self.height:
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
        # (loops whose step is not a literal make a range object on
        # MicroPython, so the row step is added by hand)
        if w == 1:
            for _ in range(h):
                f[i] = c
                i += W
            return
        if w == 2:
            for _ in range(h):
                f[i] = c
                f[i + 1] = c
                i += W
            return
        if c != self._rowc and w * h < W:
            # smaller than the row buffer would cost to repaint
            for _ in range(h):
                for j in range(i, i + w):
                    f[j] = c
                i += W
            return
        self._solid(c)
        span = self._span[w]
        for _ in range(h):
            f[i:i + w] = span
            i += W

    def mask(self, bits, w, h, x, y, c, s=1):
        """A ``w`` x ``h`` bitmap in colour ``c`` with its top-left at
        (x, y): ``bits`` holds the rows top first, each row's leftmost
        pixel in its high bit (bit ``w * h - 1`` is the top-left). Each set
        bit is an ``s`` x ``s`` square; clear bits are left alone; off-panel
        pixels are skipped."""
        W = self.width
        H = self.height
        f = self.frame
        if (w == 3 and s <= 2 and x >= 0 and y >= 0 and x + 3 * s <= W and
                y + h * s <= H):
            # glyphs and dice faces, the only masks drawn every frame: a
            # row at a time, unrolled
            i = y * W + x
            sh = 3 * (h - 1)
            if s == 1:
                for _ in range(h):
                    r = (bits >> sh) & 7
                    if r:
                        if r & 4:
                            f[i] = c
                        if r & 2:
                            f[i + 1] = c
                        if r & 1:
                            f[i + 2] = c
                    sh -= 3
                    i += W
                return
            for _ in range(h):
                r = (bits >> sh) & 7
                if r:
                    j = i
                    for _ in range(2):
                        if r & 4:
                            f[j] = c
                            f[j + 1] = c
                        if r & 2:
                            f[j + 2] = c
                            f[j + 3] = c
                        if r & 1:
                            f[j + 4] = c
                            f[j + 5] = c
                        j += W
                sh -= 3
                i += W * 2
            return
        # anything else (scrolling text, other sizes): bit by bit, clipped
        if x >= W or y >= H or x + w * s <= 0 or y + h * s <= 0:
            return
        bit = 1 << (w * h - 1)
        for row in range(h):
            for col in range(w):
                if bits & bit:
                    if s == 1:
                        xx = x + col
                        yy = y + row
                        if 0 <= xx < W and 0 <= yy < H:
                            f[yy * W + xx] = c
                    else:
                        self.rect(x + col * s, y + row * s, s, s, c)
                bit >>= 1

    def blit(self, pic, w, h, x, y, s=1, ink=-1):
        """A ``w`` x ``h`` picture of palette indices (``pic``, rows top
        first) with its top-left at (x, y), each pixel an ``s`` x ``s``
        square. Index 0 is transparent; ``ink`` >= 0 draws every other
        pixel in that colour instead (e.g. a greyed-out icon)."""
        W = self.width
        if (s > 2 or x < 0 or y < 0 or x + w * s > W or
                y + h * s > self.height):
            # clipped, or larger than any icon is drawn: pixel by pixel
            if x >= W or y >= self.height or x + w * s <= 0 or y + h * s <= 0:
                return
            k = 0
            for row in range(h):
                for col in range(w):
                    c = pic[k]
                    k += 1
                    if c:
                        self.rect(x + col * s, y + row * s, s, s,
                                  c if ink < 0 else ink)
            return
        f = self.frame
        p = 0
        i = y * W + x
        for _ in range(h):
            j = i
            for _ in range(w):
                c = pic[p]
                p += 1
                if c:
                    if ink >= 0:
                        c = ink
                    f[j] = c
                    if s == 2:
                        f[j + 1] = c
                        f[j + W] = c
                        f[j + W + 1] = c
                j += s
            i += W * s

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

    def spread(self, rows):
        """Let the next :meth:`show` write at most ``rows`` of the rows that
        changed (top first) and leave the others as they are on the LEDs:
        ``owed`` is then True, and a later ``show()`` of the same frame
        sends the rest. show() pays per changed row, so this spreads a whole
        new 16x16 frame over a few loop passes. Applies to one
        show() and to the :meth:`flush` calls that finish its frame. A new
        brightness or scale still rewrites every row."""
        self._limit = rows
        self._rows_per = rows

    def flush(self):
        """Send rows a spread show() left ``owed``, as many as it sent, with
        no redraw (the app calls this in a pass with nothing to draw)."""
        self._limit = self._rows_per
        return self.show()

    # ---- output ----------------------------------------------------------
    def show(self):
        """Send the frame if it changed; True if the LEDs were written."""
        if self.palette.version != self._pal_version:
            if len(self.palette.rgb) > 256:
                raise ValueError("a palette holds at most 256 colours")
            self._pal_version = self.palette.version
            self._dirty = True
            self.scale = -1     # the table is stale
            np = len(self.palette.rgb)
            if len(self._used) < np:
                self._used = bytearray(np)
                self._counts = array("H", range(np))
        left = self._limit or self.height
        self._limit = 0
        owed = False
        if self._dirty:
            self._dirty = False
            self._refit(True)
        else:
            if self.frame == self._shown:
                self.owed = False
                return False
            col = self._col
            units = self._units
            rowu = self._rowu
            px = self.pixels
            rows = self._rows
            m = self.map
            w = self.width
            even = self._even
            total = self._total
            i = 0
            r = 0
            for y in range(self.height):
                a = rows[r]
                if a != rows[r + 1]:
                    if not left:
                        owed = True
                        break
                    left -= 1
                    # a changed row is written whole and its channel total
                    # summed afresh: fewer steps per pixel than picking out
                    # the changed ones (a redraw changes most of a row)
                    rows[r + 1][:] = a
                    if even:
                        j = m[i]
                        k = m[i + 1] - j
                        u = 0
                        for c in a:
                            px[j] = col[c]
                            u += units[c]
                            j += k
                    else:
                        u = self._put(y)
                    total += u - rowu[y]
                    rowu[y] = u
                i += w
                r += 2
            self._total = total
            ma = self.ma_channel
            idle = self.idle_ma * self.n
            over = total * ma > (self.budget_ma - idle) * 255
            if over or (self.scale < self._brightness and not owed):
                # over budget now, or dimmed last time and the frame is
                # whole (it may brighten now): the scale is fitted to the
                # frame, so an over-budget mix of two frames is finished
                # first
                if owed:
                    owed = False
                    r = 0
                    for y in range(self.height):
                        if rows[r] != rows[r + 1]:
                            rows[r + 1][:] = rows[r]
                            u = self._put(y)
                            total += u - rowu[y]
                            rowu[y] = u
                        r += 2
                    self._total = total
                self._refit(False)
            else:
                self.last_ma = (total * ma + 254) // 255 + idle
        self.owed = owed
        self.pixels.show()
        self.shows += 1
        return True

    def _put(self, y):
        # write row y of the frame to its LEDs; its channel total
        px = self.pixels
        col = self._col
        units = self._units
        frame = self.frame
        u = 0
        m = self.map
        i = y * self.width
        if self._even:
            j = m[i]
            k = m[i + 1] - j
            for c in self._rows[2 * y]:
                px[j] = col[c]
                u += units[c]
                j += k
            return u
        for j in range(i, i + self.width):
            c = frame[j]
            u += units[c]
            px[m[j]] = col[c]
        return u

    def _count(self):
        # pixels per palette index (bytearray.count is C where it exists),
        # and the list of indices in use
        frame = self.frame
        counts = self._counts
        used = self._used
        np = len(self.palette.rgb)
        key = self._key
        nu = 0
        try:
            for i in range(np):
                key[0] = i
                k = frame.count(key)
                counts[i] = k
                if k:
                    used[nu] = i
                    nu += 1
        except (AttributeError, TypeError):
            for i in range(np):
                counts[i] = 0
            for i in range(self.n):
                c = frame[i]
                if c < np:
                    counts[c] += 1
            nu = 0
            for i in range(np):
                if counts[i]:
                    used[nu] = i
                    nu += 1
        self._nu = nu

    def _units_at(self, s):
        # the counted frame's channel total with the palette at brightness
        # s (_dim written out: this runs several times per fit)
        rgb = self.palette.rgb
        counts = self._counts
        used = self._used
        units = 0
        for q in range(self._nu):
            i = used[q]
            v = rgb[i]
            x = (v >> 16) * s
            y = ((v >> 8) & 255) * s
            z = (v & 255) * s
            units += counts[i] * ((x // 255 if x >= 255 else (1 if x else 0)) +
                                  (y // 255 if y >= 255 else (1 if y else 0)) +
                                  (z // 255 if z >= 255 else (1 if z else 0)))
        return units

    def _scale_to(self, s):
        """The frame's channel total at brightness ``s`` (for tests)."""
        self._count()
        return self._units_at(s)

    def _refit(self, write_all):
        # The brightest scale <= the wanted brightness whose modelled
        # current fits the budget: the frame's colours are counted (in C)
        # and, unless the wanted brightness fits, a binary search (about 8
        # passes over the colours in use, never over the pixels). A new
        # scale means a new table and every lit LED written again.
        self._count()
        idle = self.idle_ma * self.n
        room = (self.budget_ma - idle) * 255   # channel units * ma_channel
        ma = self.ma_channel
        s = self._brightness
        if room <= 0:
            s = 0
        elif self._units_at(s) * ma > room:
            lo, hi = 0, s - 1
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if self._units_at(mid) * ma <= room:
                    lo = mid
                else:
                    hi = mid - 1
            s = lo
        rewrite = write_all or s != self.scale
        if s != self.scale:
            self._table(s)
        units = self._units
        if rewrite:
            counts = self._counts
            used = self._used
            total = 0
            for q in range(self._nu):
                i = used[q]
                total += counts[i] * units[i]
            self._total = total
        # else the scale stands and so does show()'s running total, which
        # counts the rows as the LEDs have them (with rows still owed, not
        # the frame's)
        self.last_ma = (self._total * ma + 254) // 255 + idle
        if rewrite:
            # (each row's channel total is summed afresh on the way: show()
            # keeps them for the rows it writes, and a new scale or a
            # frame drawn while the LEDs were stale invalidates them all)
            rows = self._rows
            dark = self._dark
            rowu = self._rowu
            w = self.width
            r = 0
            for y in range(self.height):
                # a row dark before and now stays dark at any scale
                if write_all or rows[r] != dark or rows[r + 1] != dark:
                    rowu[y] = self._put(y)
                else:
                    rowu[y] = units[0] * w
                r += 2
            self._shown[:] = self.frame

    def _table(self, s):
        # each palette index's colour and channel total at brightness s
        rgb = self.palette.rgb
        col = self._col
        units = self._units
        for i in range(len(rgb)):
            # _dim, written out: this runs for every entry at each new scale
            v = rgb[i]
            r = v >> 16
            g = (v >> 8) & 255
            b = v & 255
            if s:
                r = (r * s // 255 or 1) if r else 0
                g = (g * s // 255 or 1) if g else 0
                b = (b * s // 255 or 1) if b else 0
            else:
                r = g = b = 0
            col[i] = (r << 16) | (g << 8) | b
            units[i] = r + g + b
        for i in range(len(rgb), self._np):   # a smaller palette than before
            col[i] = 0
            units[i] = 0
        self._np = len(rgb)
        self.scale = s


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
