"""Ice Solo on the LEDs, part 4 of 4 (lib/screen_ice_solo.py says what the
pictures show): the Screen's ``tick`` and ``draw``, a frame put together
from the kept board and the few overlay pixels.
"""

from lib import palette as P
from lib import font
from engine.ice_solo import NONE
from lib.screen_ice_solo_core import ALL
from lib.screen_ice_solo_keys import NAMES

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# the screen's modes: the same numbers in every part (inlined;
# tests/test_screen_ice_solo.py checks that the parts agree)
_BOARD = const(0)
_MENU = const(1)
_GRIDVIEW = const(2)
_TEXT = const(3)

_BLINK_MS = const(300)
SPREAD = const(4)       # 16x16: changed rows sent to the LEDs per pass


# ---- time -------------------------------------------------------------------
def tick(self, now):
    if self.think:
        self._thinking()
        # redraw for the dots and the answer only: the passes between
        # load and think (rows still owed wait for the answer)
        return self.think == 5 or self.think == 0
    if self.pend and not self.hold:
        self._make_text()
        self.pend = False
        self.hold = True            # drawn in the next pass
        return True
    self._facts()
    if self.mode == _BOARD and self.due:
        self._style_text()
        return True
    if self.more or self.app.d.owed:
        self.more = False
        return True
    if self.mode == _TEXT or self.mode == _MENU:
        return self.scroll.tick(now)
    ph = (now // _BLINK_MS) & 0xFFFF
    if ph != self.phase:
        self.phase = ph
        return True
    return False


# ---- drawing ------------------------------------------------------------------
def draw(self, d):
    if self.big:
        # a board's show() pays per changed row: at most SPREAD of them a
        # pass, the rest in the next passes (see tick)
        d.spread(SPREAD)
    if self.hold:
        # this pass did enough (opened the screen, played a move, made the
        # score text): the frame is drawn in the next
        self.hold = False
        self.more = True
        return
    if self.mode == _TEXT or self.mode == _MENU:
        d.fill(P.OFF)
        self.scroll.draw(d)
        if self.mode == _MENU:
            self._menu_dots(d)
        elif self.big:
            self._mini_board(d)
    else:
        ph = (self.app.now // _BLINK_MS) & 0xFFFF
        self.phase = ph
        if self.mode == _GRIDVIEW:
            d.fill(P.OFF)
            self._draw_grid_only(d, ph)
        else:
            self._draw_board(d, ph)


def _menu_dots(self, d):
    m = self._items()
    y = d.height - 1
    x = 0
    for i in range(len(NAMES)):
        if m & (1 << i):
            d.pixel(x, y, P.HILITE if i == self.item else P.DIM)
            x += 2 if d.width > 8 else 1


def _mini_board(self, d):
    # 16x16 text screens: the total under the text
    t = self._total()
    c = P.OK if t >= 0 else P.REFUSE
    font.draw_number(d, t, (d.width - font.number_width(t)) // 2, 11, c)


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
