# The bag tool on the LEDs, part 3 of 3: the pictures, the Screen's
# ``draw`` and its helpers (lib/screen_bag.py says what each shows).

from lib import palette as P
from lib import font
from lib import settings as S
from lib import screens_common as C
from lib.screen_bag_keys import BAGS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# the screen's modes: the same numbers in every part (inlined, so no part
# looks them up in another; tests/test_screen_bag.py checks they agree)
_SHAKE = const(1)
_REVEAL = const(2)
_HIST = const(3)
_PICK = const(4)
_EDIT = const(5)

SPREAD = const(6)    # 16x16: changed rows shown per pass at most


def piece_glyph(d, p, cx, bottom, s):
    # A piece seen from the side, centred on column ``cx`` with its base on
    # row ``bottom``: a pyramid 2, 3 or 4 rows high by size; a rock is a
    # round blob. ``s`` scales it.
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


def draw(self, d):
    self.later = 0
    m = self.mode
    if self.big:
        d.spread(SPREAD)
    d.fill(P.OFF)
    st = self.st
    s = 1 if d.width <= 8 else 2
    cx = d.width // 2
    bottom = d.height - 1 - (d.height - (5 * s)) // 2
    if m == _SHAKE:
        piece_glyph(d, st.kinds[self.flick], cx, bottom - (self.phase & 1) * s, s)
    elif m == _REVEAL:
        piece_glyph(d, st.drawn[len(st.drawn) - 1], cx, bottom, s)
    elif m == _HIST:
        piece_glyph(d, st.drawn[len(st.drawn) - 1 - self.back], cx, bottom, s)
        d.pixel(self.back % d.width, 0, P.HILITE)
    elif m == _PICK:
        draw_pick(self, d)
    elif m == _EDIT:
        draw_counts(self, d, self.edit, self.ec)
    else:
        draw_bars(self, d)


def draw_bars(self, d):
    st = self.st
    u = self.u
    ah = self.ah
    most = self.most
    scale = most * u > ah   # a bag too full for one row a piece
    cw = self.cw
    W = d.width
    f = d.frame
    kc = self.kc
    for i in range(self.nc):
        x = self.x0 + i * self.slot
        inside = x >= 0 and x + cw <= W
        y = ah          # top of the bar drawn so far
        n = 0
        k = self.hi[i]
        for _ in range(k - self.lo[i]):
            k -= 1
            left = st.left[k]
            if left:
                # large first, at the bottom; one kind's pieces stack
                # without gaps, so they are one block, written here
                # straight into the frame (a call per block costs more
                # than its pixels on the board)
                n += left
                top = ah - (n * ah // most if scale else n * u)
                c = kc[k]
                if inside:
                    # (bars 1 or 2 wide: written out)
                    j = top * W + x
                    if cw == 2:
                        for _ in range(y - top):
                            f[j] = c
                            f[j + 1] = c
                            j += W
                    elif cw == 1:
                        for _ in range(y - top):
                            f[j] = c
                            j += W
                    else:
                        for _ in range(y - top):
                            for q in range(j, j + cw):
                                f[q] = c
                            j += W
                else:
                    d.rect(x, top, cw, y - top, c)
                y = top
        fc = self.fullc[i]
        full = ah - (fc * ah // most if scale else fc * u)
        if y > full:
            d.rect(x, full, cw, y - full, P.DIM)
    if d.height > 8:
        font.draw_number(d, st.remaining(), 0, d.height - 5, P.TEXT)
        if st.drawn:
            piece_glyph(d, st.drawn[len(st.drawn) - 1], d.width - 4,
                        d.height - 1, 1)


def draw_counts(self, d, counts, sel):
    # the custom bag editor: a bar per colour, one rock a step
    n = len(S.COLOURS)
    slot = d.width // n
    u = d.height // S.CUSTOM_MAX
    for i in range(n):
        x = i * slot
        h = counts[i] * u
        if i == sel:
            d.rect(x, 0, slot, d.height - h,
                   P.DIM if self.blink else P.OFF)
        if h:
            # S.COLOURS is the start of the engine's colour order
            d.rect(x, d.height - h, slot, h, P.piece(i, 3))


def draw_pick(self, d):
    name = BAGS[self.pick]
    if name == "custom":
        draw_counts(self, d, self.app.settings.custom, -1)
        return
    C.draw_full_icon(d, name)
