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
# (lib/screen_ice_solo_parts.py): _core.py (made on opening, the layout,
# picking up, the facts, the hint), _keys.py (keys, menu, texts),
# _paint.py (the cells and the side on the kept frames) and _draw.py (tick
# and draw). Here their plain functions become one Screen's methods.

from lib.screen_ice_solo_draw import SPREAD  # noqa: F401 (for the tests)


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
    from lib.screen_ice_solo_paint import _cells, _base, _draw_grid_only
    from lib.screen_ice_solo_draw import (tick, draw, _menu_dots, _mini_board,
                                          _draw_board)
