"""Bag of Ice on the LEDs, part 3 of 6: the drawing helpers (a die face,
a pyramid, a border, this turn's pieces, a number) the pictures use."""

from lib import palette as P
from lib import font
from lib.screen_bag_of_ice_core import _LO, _HI


def _die(d, f, x, y, s):
    """Die face ``f`` (0..5, or -1 blank) as bars, each dot ``s`` square:
    bar ``c`` (size c + 1) is c + 1 dots high, lit when the face shows
    that size. Written into the frame a row of a bar at a time (mask()
    draws each dot as a rect: the tumbling die's 16x16 frames cost a
    board ~15 ms more that way)."""
    lo = _LO[f] if f >= 0 else 0
    hi = _HI[f] if f >= 0 else 0
    fr = d.frame
    w = d.width
    for c in range(3):
        k = P.TEXT if c + 1 == lo or c + 1 == hi else P.DIM
        i = (y + (2 - c) * s) * w + x + c * s
        if s == 4:
            # (16x16, the tumbling die: unrolled)
            for _ in range((c + 1) * 4):
                fr[i] = k
                fr[i + 1] = k
                fr[i + 2] = k
                fr[i + 3] = k
                i += w
            continue
        for _ in range((c + 1) * s):
            for j in range(i, i + s):
                fr[j] = k
            i += w


def _glyph(d, p, cx, bottom, s):
    """A pyramid seen from the side, centred on ``cx``, base on row
    ``bottom``: 2, 3 or 4 rows high by size (as lib.screen_bag draws it)."""
    c = P.piece_code(p)
    h = (p & 3) + 1
    for r in range(h):
        half = r * s
        d.rect(cx - half, bottom - (h - r) * s + 1, 2 * half + s, s, c)


def _pct(n, d):
    """n/d in whole percent, never 0 unless n is."""
    v = (200 * n + d) // (2 * d)
    return 1 if n and not v else v


# ---- drawing -------------------------------------------------------------


def _frame(self, d, c):
    # a one-pixel border: the top and bottom rows, then both sides a row
    # at a time (one loop, not four rects)
    w = d.width
    fr = d.frame
    n = w * d.height
    j = n - w
    for i in range(w):
        fr[i] = c
        fr[j + i] = c
    for i in range(w, j, w):
        fr[i] = c
        fr[i + w - 1] = c


def _pieces(self, d, ink):
    """This turn's trees, a gap, the leftovers (see the module doc)."""
    s = self.s
    lay = self.lay
    x = 0
    k = 0
    for _ in range(self.ntrees):
        for j in range(3):
            d.rect(x, (2 - j) * s, s, s, P.piece_code(lay[k]) if ink < 0 else ink)
            k += 1
        x += s + (1 if self.big else 0)
    if self.ntrees and not self.big:
        x += 1
    for i in range(self.nleft):
        d.rect(x + (i // 3) * s, (2 - i % 3) * s, s, s,
               P.piece_code(lay[k + i]) if ink < 0 else ink)


def _num_right(self, d, n, right, y, c):
    """``n`` ending at column ``right``; on 8x8 a score of 100 or more
    shows its hundreds as a bar left of the last two digits."""
    if n >= 100 and not self.big:
        d.rect(right - 7, y, 1, 5, c)
        font.draw_number(d, n // 10 % 10, right - 6, y, c)
        font.draw_number(d, n % 10, right - 2, y, c)
        return
    font.draw_number(d, n, right + 1 - font.number_width(n), y, c)
