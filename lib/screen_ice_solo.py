"""Ice Solo on the LEDs: the towering field, the nesting grid, the end.

Controls (one hand):

* Directions move the cursor (wrapping at the edges).
* A on a piece picks it up: its cell blinks magenta and every cell it may
  go to blinks green. A on a green cell moves it there; A on any other cell
  is refused (red flash) and the piece stays in hand; A on the piece itself,
  or B, puts it back.
* B with nothing in hand opens the menu: LEFT/RIGHT choose HINT, UNDO, MIX
  (remix: shown only when nothing else can move while towering), GRID (while
  towering: look at the finished towers), SCORE and END; A does it, B goes
  back. HINT picks up the suggested piece and puts the cursor on its
  suggested cell (blinking magenta among the green ones), so A plays it.
* When every cell is a clean nest the game asks "STYLE? A=YES B=NO".
* At the end the score breakdown scrolls; A switches between it and the
  board. Hold B (the escape) to leave; a game in progress is saved.

Pictures:

* Towering field (8x8 cells): 1 pixel a cell on an 8x8 panel (60 pieces in
  64 cells fit exactly), 2x2 on 16x16. A piece shows its colour, brighter
  for bigger. On 16x16 a medium on a large shows as the medium over the
  large; on 8x8 the cursor shows the cell's pieces one after another,
  bottom first (after a white blink).
* Nesting grid: 1 pixel a cell on 8x8, with the stack under the cursor in
  the two right-hand columns (bottom at the bottom, one row per piece);
  2x2 a cell on 16x16, with the stack drawn as widths (small 2, medium 3,
  large 4) in the right-hand columns and the live total under the grid.
  A loose stack shows its top piece (16x16: and the piece under it); a
  clean nest glows between bright and dim (16x16: a solid block); a full
  nest that is not clean blinks on and off (16x16: a chequer).
"""

# The screen is in parts, loaded one a pass before this module
# (lib/screen_ice_solo_parts.py): _paint.py (the board's pictures),
# _core.py (made on opening, the layout, picking up, the facts, the hint)
# and _keys.py (keys, menu, texts). Here they become one Screen, with its
# timing and drawing.

from lib import palette as P
from lib import font
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


class Screen:
    """Drawing is cached (every pass must fit the step budget): the board
    is kept in two whole frames, one per half of the glow and blink (one on
    16x16, where nothing blinks). A move of ours draws its two cells again,
    anything else that changes the game every cell, at most 9 a pass
    (``_cells``); the stack under the cursor and the total, which never
    overlap a cell, are drawn again when the cursor or the game moves
    (``_base``). A frame is then one copy of the right half plus the few
    overlay pixels (cursor, held piece, destinations). On 16x16 at most
    SPREAD changed rows go to the LEDs a pass (show() pays per changed
    row; Display.spread), the rest in the next passes. A pass that plays a
    move, opens the screen or makes the score text draws nothing (the
    next does); a hint takes six passes (see _thinking): none of them
    loads, thinks and draws at once."""
    # (imported into the class: its methods, with no module names kept
    # beside them; each part names its functions as the methods they are)
    from lib.screen_ice_solo_core import (__init__, _layout, _check_phase,
                                          _pick, _facts, _total, _thinking)
    from lib.screen_ice_solo_keys import (key, _items, _open_menu, _menu_key,
                                          _undo, _score_text, _make_text,
                                          _end_text, _style_text, _text_key)
    from lib.screen_ice_solo_paint import (_draw_board, _cells, _base,
                                           _draw_grid_only)

    # ---- time ---------------------------------------------------------------
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

    # ---- drawing ------------------------------------------------------------
    def draw(self, d):
        if self.big:
            # a board's show() pays per changed row: at most SPREAD of
            # them a pass, the rest in the next passes (see tick)
            d.spread(SPREAD)
        if self.hold:
            # this pass did enough (opened the screen, played a move, made
            # the score text): the frame is drawn in the next
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
