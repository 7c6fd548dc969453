"""Ice Solo on the LEDs, the pictures, part 1 of 3 (lib/screen_ice_solo.py
says what they show): the board, a frame put together from the kept board
and the few overlay pixels; the cells and the side drawn into the kept
frames; and the finished towers' grid.
"""

from lib import palette as P
from lib import font
from engine.ice_solo import NONE

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_CELLS = const(9)       # cells drawn again in one pass at most (see _cells)
ALL = b"\x01" * 64      # every cell to be drawn again (the core part too)
_Z4 = bytes(4)
_Z12 = bytes(12)


def _draw_board(self, d, ph):
    st = self.st
    # the game's key: an undo and another move leave the history as long
    # as before, but not the undo count
    key = len(st.hist) * 64 + (st.undos & 63)
    if key != self.cl_key or st is not self.cl_st:
        # changed by something else than a move of ours: every cell
        self.cl_key = key
        self.cl_st = st
        self.todo[:] = ALL
        self.dirty = True
    if self.dirty:
        if self._cells(d):
            self.dirty = False
        else:
            self.more = True
        self.bs_cur = -1
    if self.cur != self.bs_cur:
        self._base(d)
        self.bs_cur = self.cur
    f = d.frame
    f[:] = self.bs[(ph >> 1) & 1]
    at = self.at
    W = d.width
    big = self.big
    held = self.held
    if held >= 0:
        if ph & 1:
            for k in range(self.nd):
                i = self.dl[k]
                c = P.HILITE if i == self.sug else P.OK
                j = at[i]
                f[j] = c
                if big:
                    f[j + 1] = c
                    f[j + W] = c
                    f[j + W + 1] = c
        else:
            j = at[held]
            f[j] = P.HILITE
            if big:
                f[j + 1] = P.HILITE
                f[j + W] = P.HILITE
                f[j + W + 1] = P.HILITE
    if self.think and not self.field:
        # thinking: three dots under the grid
        j = self.bh * self.px * W
        f[j] = P.HILITE
        f[j + 2] = P.HILITE
        f[j + 4] = P.HILITE
    i = self.cur
    j = at[i]
    if self.field and not big and held < 0:
        # 8x8 field: white, then the cell's pieces bottom first
        lo = st.lo[i]
        hi = st.hi[i]
        k = ph % 3
        if k == 0:
            f[j] = P.CURSOR
        elif lo != NONE:
            f[j] = self.pc[lo if k == 1 or hi == NONE else hi]
        else:
            f[j] = P.OFF
        return
    if ph % 3 == 0:
        f[j] = P.CURSOR
        if big:
            f[j + W + 1] = P.CURSOR


def _cells(self, d):
    """Draw the cells marked in ``todo`` (every pixel of each) into the
    kept frames, at most _CELLS of them; False if some are left for the
    next pass."""
    st = self.st
    pc = self.pc
    at = self.at
    W = d.width
    big = self.big
    c0, c1 = self.bs          # c1: the glow's bright half (16x16: c0)
    todo = self.todo
    k = 0
    if self.field:
        lo = st.lo
        hi = st.hi
        for i in range(64):
            if not todo[i]:
                continue
            if k == _CELLS:
                return False
            k += 1
            todo[i] = 0
            p = lo[i]
            q = hi[i]
            j = at[i]
            if not big:
                c = P.OFF if p == NONE else pc[q if q != NONE else p]
                c0[j] = c
                c1[j] = c
            elif p == NONE:
                c0[j] = P.DIM
                c0[j + 1] = c0[j + W] = c0[j + W + 1] = P.OFF
            else:
                c = pc[q if q != NONE else p]
                c0[j] = c0[j + 1] = c
                c = pc[p]
                c0[j + W] = c0[j + W + 1] = c
        return True
    g = st.grid
    for i in range(len(g)):
        if not todo[i]:
            continue
        if k == _CELLS:
            return False
        k += 1
        todo[i] = 0
        s = g[i]
        n = len(s)
        j = at[i]
        if not n:
            c0[j] = P.DIM
            c1[j] = P.DIM
            if big:
                c0[j + 1] = c0[j + W] = c0[j + W + 1] = P.OFF
            continue
        top = s[n - 1]
        if n == 3 and s[0] & 3 == 3 and s[1] == s[0] - 1 and top == s[0] - 2:
            # a clean nest: glows on 8x8, a solid block on 16x16
            if big:
                c = pc[top | 3]
                c0[j] = c0[j + 1] = c0[j + W] = c0[j + W + 1] = c
            else:
                c0[j] = pc[top]
                c1[j] = pc[top | 3]
            continue
        if (n >= 3 and top & 3 == 1 and s[n - 2] == top + 1 and
                s[n - 3] == top + 2):
            # a full nest, not clean: blinks on 8x8, a chequer on 16x16
            c = pc[top]
            if big:
                c0[j] = c0[j + W + 1] = c
                c0[j + 1] = c0[j + W] = P.OFF
            else:
                c0[j] = P.OFF
                c1[j] = c
            continue
        c = pc[top]
        c0[j] = c
        c1[j] = c
        if big:
            c0[j + 1] = c
            c = pc[s[n - 2]] if n > 1 else P.OFF
            c0[j + W] = c0[j + W + 1] = c
    return True


def _base(self, d):
    """Nesting: the stack under the cursor drawn again on the kept frames,
    bottom at the bottom: on 8x8 in the two right-hand columns, a row a
    piece; on 16x16 as widths (small 2, medium 3, large 4) on the right,
    with the live total under the grid (drawn by the font on the display's
    frame, copied back)."""
    if self.field:
        return
    s = self.st.grid[self.cur]
    n = len(s)
    pc = self.pc
    if not self.big:
        b0, b1 = self.bs
        first = n - 8 if n > 8 else 0
        for y in range(8):
            j = y * 8 + 6
            c = P.OFF
            k = first + 7 - y       # the piece on this row
            if k < n:
                c = pc[s[k]]
            b0[j] = b0[j + 1] = b1[j] = b1[j + 1] = c
        return
    b = self.bs[0]
    first = n - 16 if n > 16 else 0
    for y in range(16):
        j = y * 16 + 12
        b[j:j + 4] = _Z4
        k = first + 15 - y
        if k < n:
            p = s[k]
            c = pc[p]
            for x in range(j + 3 - (p & 3), j + 4):
                b[x] = c
    for y in range(176, 256, 16):       # rows 11-15, left of the side
        b[y:y + 12] = _Z12
    f = d.frame
    f[:] = b
    t = self._total()
    font.draw_number(d, t, 0, 11, P.OK if t >= 0 else P.REFUSE)
    b[:] = f


def _draw_grid_only(self, d, ph):
    """Towering: the finished towers, 4x5, read-only."""
    g = self.st.grid
    w = self.st.width
    px = self.px
    for i in range(len(g)):
        x = (i % w) * px
        y = (i // w) * px
        s = g[i]
        if not s:
            d.pixel(x, y, P.DIM)
        elif px == 1:
            d.pixel(x, y, P.piece_code(s[len(s) - 1]))
        else:
            d.rect(x, y, 2, 1, P.piece_code(s[len(s) - 1]))
            d.rect(x, y + 1, 2, 1, P.piece_code(s[0]))
    # a frame on the right says "this is the grid, B goes back"
    d.rect(d.width - 1, 0, 1, d.height, P.HILITE)
