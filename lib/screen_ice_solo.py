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

Pictures (the shared visual language, docs/visual-language.md, drawn by
lib.screens_common):

* Towering field (8x8 cells): 1 pixel a cell on an 8x8 panel (60 pieces in
  64 cells fit exactly), 2x2 on 16x16. A piece shows its colour, brighter
  for bigger; on 16x16 its size is its pattern (small a dot, medium the
  bottom row, large the whole cell) and a medium on a large is the medium's
  row over the large's. On 8x8 the cursor blinks the size code: white,
  then the cell's pieces bottom first, each flashed once per size step.
* Nesting grid: 1 pixel a cell on 8x8, with the stack under the cursor as
  a side gauge in the right-hand columns (bottom at the bottom, a row per
  piece, as wide as its size: 1, 2, 3); 2x2 a cell on 16x16, with the
  gauge 2, 3, 4 wide on the right and the live total under the grid.
  A loose stack shows its top piece (16x16: by its pattern); a clean nest
  is a diagonal pair on 16x16 and winks on 8x8 (three beats on, one off);
  a full nest on other pieces adds a grey dot on 16x16 and blinks
  on 8x8 (one on, one off); a top over a covered full nest has a grey dot
  top-left on 16x16 and blinks slowly on 8x8 (two on, two off).
"""

from lib import palette as P
from lib import font
from lib import screens_common as C
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B
from engine.state import CHANCE, OVER
from engine.ice_solo import (NONE, END, REMIX, P_TOWER, STYLE_YES, STYLE_NO,
                             top_locked)
from engine import ice_solo_hint

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_CELLS = const(9)       # cells drawn again in one pass at most (see _cells)
ALL = b"\x01" * 64      # every cell to be drawn again
_Z4 = bytes(4)
_Z12 = bytes(12)
# the screen's modes
_BOARD = const(0)
_MENU = const(1)
_GRIDVIEW = const(2)
_TEXT = const(3)          # scrolling text: score, style question, the end
# the menu's items, in NAMES order
_M_HINT = const(0)
_M_UNDO = const(1)
_M_MIX = const(2)
_M_GRID = const(3)
_M_SCORE = const(4)
_M_END = const(5)
NAMES = ("HINT", "UNDO", "MIX", "GRID", "SCORE", "END")
_HALF = const(13)   # a hint's moves: from the cells before this, then after
_BLINK_MS = const(300)
SPREAD = const(4)       # 16x16: changed rows sent to the LEDs per pass
# ``later``'s bits: this pass did enough, so its draw paints again the
# frame on the panel (KEEP); a new frame is owed to the next pass (OWED)
_KEEP = const(1)
_OWED = const(2)


class Screen(C.Screen):
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
    move, opens the screen or makes the score text paints the frame on
    the panel again (a copy kept of it) and the next draws the new one
    (``later``); a hint takes six passes (see _thinking): none of them
    loads, thinks and draws at once."""

    def __init__(self, app, state):
        C.Screen.__init__(self, app, state)
        d = app.d
        n = d.width * d.height
        self.dest = bytearray(64)   # 1: the held piece may go there
        self.dest_list = bytearray(64)     # the cells it may go to, a list
        self.dest_count = 0
        self.held = -1              # board cell index of the held piece
        self.suggested = -1               # a hint's suggested destination
        self.cursor = 0
        self.mode = _BOARD
        self.item = 0
        self.phase = -1             # the blink counter last drawn
        self.think = 0              # hint passes left (see _thinking)
        self.hint_action = -1                # the hint, once worked out
        self.hint_facts = None              # the hint's first half's facts
        self.pend = False           # the score text is to be made
        self.later = _KEEP          # (see draw)
        # the frame on the panel, painted again by a pass that did enough
        # (see draw); at first the one this screen opens over
        self.panel = bytearray(d.frame)
        self.scroll = font.Scroller(d.width, 1 if d.height <= 8 else 5,
                                    P.TEXT)
        self.text_for = -1          # what the scroller holds (a mode tag)
        self.total = 0                # facts worked out once per change of
        self.due = False            # the history (not every frame): the
        self.live = True            # total, style judgement due, player
        self.total_at = -1            # to move; at this history length
        self.piece_colour = bytearray(36)     # piece code -> palette index
        b = P.piece(0, 1) - 1       # (as P.piece_code, without 27 calls)
        for p in range(36):
            if p & 3:
                self.piece_colour[p] = b + (p >> 2) * 3 + (p & 3)
        self.frame_at = bytearray(64)     # board cell -> its frame index
        # the board with the side, per beat of the nests' four (8x8: each
        # nest kind lit on its own beats, C.nest_lit; 16x16: one frame,
        # nothing there blinks); the side never overlaps a cell
        b = bytearray(n)
        self.boards = (b, b, b, b) if d.width >= 16 else (
            b, bytearray(n), bytearray(n), bytearray(n))
        self.cell_pieces = bytearray(2)    # 8x8 cursor: the cell's pieces
        self.todo = bytearray(64)   # 1: the cell is to be drawn again
        self.cells_key = -1            # the game the cells show
        self.cells_state = None
        self.dirty = True
        self.side_cursor = -1            # the cursor the side shows (-1: redo)
        self.big = d.width >= 16
        while state.to_move() == CHANCE:
            app.chance()
        self._layout()

    def key(self, k):
        st = self.state
        app = self.app
        if self.think:
            return False            # the hint is on its way
        if self.mode == _TEXT:
            return self._text_key(k)
        self._facts()
        if self.due:
            self._style_text()
            return self._text_key(k)
        if self.mode == _MENU:
            return self._menu_key(k)
        if self.mode == _GRIDVIEW:
            if k == B or k == A:
                self.mode = _BOARD
                return True
            return False
        if k == UP or k == DOWN or k == LEFT or k == RIGHT:
            x = self.cursor % self.grid_width
            y = self.cursor // self.grid_width
            if k == LEFT:
                x = (x - 1) % self.grid_width
            elif k == RIGHT:
                x = (x + 1) % self.grid_width
            elif k == UP:
                y = (y - 1) % self.grid_height
            else:
                y = (y + 1) % self.grid_height
            self.cursor = y * self.grid_width + x
            return True
        if k == B:
            if self.held >= 0:
                self.held = -1
                self.suggested = -1
            else:
                self._open_menu()
            return True
        # A
        if not self.live:
            self._end_text()
            return True
        if self.held < 0:
            if not self._pick(self.cursor):
                app.refuse()
            elif self.field:
                self.later |= _KEEP     # the moves' lines of sight: enough
            return True
        if self.cursor == self.held:
            self.held = -1
            self.suggested = -1
            return True
        if not self.dest[self.cursor]:
            # not a green cell: refused here, with no move to try (the
            # engine's reasons are words, loaded for one call)
            app.refuse()
            return True
        s = self.held
        # a move of ours changes two cells: only they are drawn again
        # (anything else that changes the game draws every cell)
        mine = (self.cells_state is st and
                self.cells_key == len(st.hist) * 64 + (st.undos & 63))
        t = self.cursor
        if not self.field:      # grid cells -> the engine's 8-wide numbers
            w = self.grid_width
            s = (s // w) * 8 + s % w
            t = (t // w) * 8 + t % w
        if app.play(s * 64 + t):
            s = self.held
            if mine:
                self.cells_key = len(st.hist) * 64 + (st.undos & 63)
                self.todo[s] = 1
                self.todo[self.cursor] = 1
                self.dirty = True
            self.later |= _KEEP
            self.held = -1
            self.suggested = -1
            self._check_phase()
            if st.to_move() == OVER:
                self._end_text()
        return True

    def save_view(self):
        """bytes: the cursor, the piece in hand and the hint's cell (each
        plus one, 0 none) and whether the finished towers are looked at."""
        return bytes((self.cursor, self.held + 1, self.suggested + 1,
                      1 if self.mode == _GRIDVIEW else 0))

    def load_view(self, data):
        """A resumed game's view (save_view); one that does not fit the
        game is ignored."""
        n = self.grid_width * self.grid_height
        if len(data) != 4 or data[0] >= n or data[1] > n or data[2] > n:
            return
        if self.mode != _BOARD or data[3] > 1 or (data[3] and not self.field):
            return
        self.cursor = data[0]
        if data[1] and self._pick(data[1] - 1):
            self.held = data[1] - 1
            if data[2] and self.dest[data[2] - 1]:
                self.suggested = data[2] - 1
        if data[3]:
            self.mode = _GRIDVIEW
        self.side_cursor = -1

    # ---- time ---------------------------------------------------------------
    def tick(self, now):
        if self.think:
            self._thinking()
            # redraw for the dots and the answer only: the passes between
            # load and think (rows still owed wait for the answer)
            return self.think == 5 or self.think == 0
        if self.pend and not self.later & _KEEP:
            self._make_text()
            self.pend = False
            self.later |= _KEEP         # drawn in the next pass
            return True
        self._facts()
        if self.mode == _BOARD and self.due:
            self._style_text()
            return True
        if self.later & _OWED:
            self.later &= _KEEP
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
        if self.later & _KEEP:
            # this pass did enough (opened the screen, played a move, made
            # the score text): the frame on the panel again, the new one
            # in the next pass
            self.later = _OWED
            d.frame[:] = self.panel
            return
        self._paint(d)
        self.panel[:] = d.frame

    def _paint(self, d):
        """The new frame, of the mode shown."""
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

    def _draw_board(self, d, ph):
        st = self.state
        # the game's key: an undo and another move leave the history as long
        # as before, but not the undo count
        key = len(st.hist) * 64 + (st.undos & 63)
        if key != self.cells_key or st is not self.cells_state:
            # changed by something else than a move of ours: every cell
            self.cells_key = key
            self.cells_state = st
            self.todo[:] = ALL
            self.dirty = True
        if self.dirty:
            if self._cells(d):
                self.dirty = False
            else:
                self.later |= _OWED
            self.side_cursor = -1
        if self.cursor != self.side_cursor:
            self._base(d)
            self.side_cursor = self.cursor
        f = d.frame
        f[:] = self.boards[ph & 3]
        at = self.frame_at
        W = d.width
        big = self.big
        held = self.held
        if held >= 0:
            if ph & 1:
                for k in range(self.dest_count):
                    i = self.dest_list[k]
                    c = P.HILITE if i == self.suggested else P.OK
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
            j = self.grid_height * self.cell_size * W
            f[j] = P.HILITE
            f[j + 2] = P.HILITE
            f[j + 4] = P.HILITE
        i = self.cursor
        j = at[i]
        if self.field and not big and held < 0:
            # 8x8 field: the size code (white, then the cell's pieces
            # bottom first, a flash per size step)
            lo = st.lo[i]
            hi = st.hi[i]
            cp = self.cell_pieces
            n = 0
            if lo != NONE:
                cp[0] = lo
                n = 1
                if hi != NONE:
                    cp[1] = hi
                    n = 2
            f[j] = C.flash(ph, cp, n)
            return
        if ph % 3 == 0:
            f[j] = P.CURSOR
            if big:
                f[j + W + 1] = P.CURSOR

    def _cells(self, d):
        """Draw the cells marked in ``todo`` (every pixel of each) into the
        kept frames, at most _CELLS of them; False if some are left for the
        next pass."""
        st = self.state
        pc = self.piece_colour
        at = self.frame_at
        W = d.width
        big = self.big
        c0, c1, c2, c3 = self.boards  # by beat (16x16: all c0)
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
                    c0[j] = c1[j] = c2[j] = c3[j] = c
                elif p == NONE:
                    C.put_empty(c0, j, W)
                else:
                    C.put_tower(c0, j, W, p, q)
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
            if big:
                C.put_stack(c0, j, W, s, n)
                continue
            # 8x8: the top piece (a nest at its large's brightness), lit on
            # its kind's beats (C.nest_lit: never dimmed), grey if empty
            kind = C.stack_kind(s, n)
            if kind == C.EMPTY:
                c0[j] = c1[j] = c2[j] = c3[j] = P.DIM
                continue
            top = s[n - 1]
            c = pc[top | 3] if kind == C.NEST or kind == C.NEST_ON_PILE else pc[top]
            c0[j] = c
            c1[j] = c if C.nest_lit(kind, 1) else P.OFF
            c2[j] = c if C.nest_lit(kind, 2) else P.OFF
            c3[j] = c if C.nest_lit(kind, 3) else P.OFF
        return True

    def _base(self, d):
        """Nesting: the stack under the cursor drawn again on the kept frames,
        bottom at the bottom: on 8x8 in the two right-hand columns, a row a
        piece; on 16x16 as widths (small 2, medium 3, large 4) on the right,
        with the live total under the grid (drawn by the font on the display's
        frame, copied back)."""
        if self.field:
            return
        s = self.state.grid[self.cursor]
        n = len(s)
        pc = self.piece_colour
        if not self.big:
            # the gauge in columns 5-7 (right of the grid, 4 or 5 wide)
            b0, b1, b2, b3 = self.boards
            first = n - 8 if n > 8 else 0
            for y in range(8):
                j = y * 8 + 5
                b0[j] = b0[j + 1] = b0[j + 2] = P.OFF
                k = first + 7 - y       # the piece on this row
                if k < n:
                    C.put_gauge(b0, j + 2, s[k], 0)
                for x in range(j, j + 3):
                    b1[x] = b2[x] = b3[x] = b0[x]
            return
        b = self.boards[0]
        first = n - 16 if n > 16 else 0
        for y in range(16):
            j = y * 16 + 12
            b[j:j + 4] = _Z4
            k = first + 15 - y
            if k < n:
                C.put_gauge(b, j + 3, s[k], 1)
        for y in range(176, 256, 16):       # rows 11-15, left of the side
            b[y:y + 12] = _Z12
        f = d.frame
        f[:] = b
        t = self._total()
        font.draw_number(d, t, 0, 11, P.OK if t >= 0 else P.REFUSE)
        b[:] = f

    def _draw_grid_only(self, d, ph):
        """Towering: the finished towers, 4x5, read-only."""
        g = self.state.grid
        w = self.state.width
        px = self.cell_size
        f = d.frame
        W = d.width
        for i in range(len(g)):
            x = (i % w) * px
            y = (i // w) * px
            s = g[i]
            if not s:
                d.pixel(x, y, P.DIM)
            elif px == 1:
                d.pixel(x, y, P.piece_code(s[len(s) - 1]))
            elif len(s) == 3:
                # a finished tower: its three pieces (C.put_tree)
                C.put_tree(f, y * W + x, W, s[0], s[1], s[2])
            else:
                C.put_stack(f, y * W + x, W, s, len(s))
        # a frame on the right says "this is the grid, B goes back"
        d.rect(d.width - 1, 0, 1, d.height, P.HILITE)

    # ---- geometry -----------------------------------------------------------
    def _layout(self):
        st = self.state
        self.field = st.phase == P_TOWER
        if self.field:
            self.grid_width = 8
            self.grid_height = 8
        else:
            self.grid_width = st.width
            self.grid_height = 5
        self.cell_size = 2 if self.big else 1
        if self.cursor >= self.grid_width * self.grid_height:
            self.cursor = 0
        W = self.app.d.width
        px = self.cell_size
        for i in range(self.grid_width * self.grid_height):
            self.frame_at[i] = (i // self.grid_width) * px * W + (i % self.grid_width) * px
        # draw everything again
        self.todo[:] = ALL
        z = bytes(len(self.boards[0]))
        for b in self.boards:
            b[:] = z
        self.dirty = True
        self.side_cursor = -1

    def _check_phase(self):
        # follow the game from towering into nesting
        if (self.state.phase == P_TOWER) != self.field:
            self.held = -1
            self._layout()

    # ---- picking up ---------------------------------------------------------
    def _pick(self, i):
        """Mark where the piece at ``i`` may go; False if nowhere."""
        st = self.state
        dest = self.dest
        dl = self.dest_list
        for j in range(self.dest_count):
            dest[dl[j]] = 0
        self.dest_count = 0
        n = 0
        if self.field:
            # the towering module is the engine's, loaded by then (not at
            # the screen's import: a nesting game never needs it)
            from engine.ice_solo_tower import tower_moves
            for m in tower_moves(st, False, i, 0, 8):     # this piece's moves
                dest[m & 63] = 1
                dl[n] = m & 63
                n += 1
        else:
            self._facts()
            if not self.live or self.due:
                return False
            # the nesting rules, read off the grid (one row and one column)
            g = st.grid
            a = g[i]
            if not a or top_locked(a):
                return False
            c = a[len(a) - 1]
            small = c & 3 == 1
            c >>= 2
            w = self.grid_width
            x = i % w
            r = i - x
            for t in range(len(g)):
                b = g[t]
                if (t != i and (t - t % w == r or t % w == x) and
                        ((b and b[len(b) - 1] >> 2 == c) or
                         (small and not b))):
                    dest[t] = 1
                    dl[n] = t
                    n += 1
        self.dest_count = n
        if not n:
            return False
        self.held = i
        return True

    # ---- facts once per move ------------------------------------------------
    def _facts(self):
        """Refresh the total, whether the style judgement is due and whether
        the player is to move, once per change of the history, so a frame or
        a key press repeats none of that work."""
        st = self.state
        n = len(st.hist)
        if n != self.total_at:
            self.total = st.scores()[0]
            self.live = st.to_move() == 0
            self.due = self.live and st.style_due()
            self.total_at = n

    def _total(self):
        self._facts()
        return self.total

    # ---- the hint -----------------------------------------------------------
    def _thinking(self):
        """One pass of the hint, so that no pass does two of these: the press
        and the next pass show the thinking dots; the next works out the
        cells' values, the next two the moves from the first and the last
        cells (towering: the first move of a small, then, if there is none,
        of a medium); the last picks up the suggested piece."""
        t = self.think
        self.think = t - 1
        st = self.state
        if t >= 5:
            return
        m = ice_solo_hint
        if t == 4:
            # as State.hint, over three passes
            self.hint_action = -1
            if st.to_move() != 0 or st.style_due():
                self.think = 1
            elif self.field:
                self.hint_action = m.tower_part(st, True)
                if self.hint_action >= 0:
                    self.think = 1
            else:
                self.hint_facts = m.cells(st)
                return
        elif t == 3:
            if self.field:
                a = m.tower_part(st, False)
                self.hint_action = REMIX if a < 0 else a
                self.think = 1
            else:
                m.moves(st, self.hint_facts, 0, _HALF)
                return
        elif t == 2:
            self.hint_action = m.moves(st, self.hint_facts, _HALF, 99)
        if self.think == 1:
            self.hint_facts = None
            return
        if t > 1:
            return
        a = self.hint_action
        if a < 0 or a == END:
            self._open_menu(_M_END)
        elif a == REMIX:
            self._open_menu(_M_MIX)
        else:
            s = a >> 6
            t = a & 63
            if not self.field:
                s = (s >> 3) * self.grid_width + (s & 7)
                t = (t >> 3) * self.grid_width + (t & 7)
            if self._pick(s):
                self.suggested = t
                self.cursor = t
                if self.field:
                    self.later |= _KEEP     # (see key: a towering pick)

    def _items(self):
        """Bit set of the menu items offered now."""
        st = self.state
        m = (1 << _M_UNDO) | (1 << _M_SCORE)
        if st.to_move() == 0:
            m |= (1 << _M_HINT) | (1 << _M_END)
            if self.field:
                m |= 1 << _M_GRID
                if st.is_legal(REMIX):
                    m |= 1 << _M_MIX
        return m

    def _open_menu(self, item=_M_HINT):
        self.mode = _MENU
        m = self._items()
        self.item = item
        while not m & (1 << self.item):
            self.item = (self.item + 1) % len(NAMES)
        self.scroll.set(NAMES[self.item], self.app.now)

    def _menu_key(self, k):
        app = self.app
        m = self._items()
        if k == LEFT or k == RIGHT or k == UP or k == DOWN:
            step = 1 if k == RIGHT or k == DOWN else len(NAMES) - 1
            i = (self.item + step) % len(NAMES)
            while not m & (1 << i):
                i = (i + step) % len(NAMES)
            self.item = i
            self.scroll.set(NAMES[i], app.now)
            return True
        if k == B:
            self.mode = _BOARD
            return True
        it = self.item
        self.mode = _BOARD
        if it == _M_HINT:
            self.think = 6          # see _thinking
        elif it == _M_UNDO:
            self._undo()
        elif it == _M_MIX:
            app.play(REMIX)
            self.later |= _KEEP
        elif it == _M_GRID:
            self.mode = _GRIDVIEW
        elif it == _M_SCORE:
            self._score_text(False)
        elif it == _M_END:
            if app.play(END):
                self._end_text()
        return True

    def _undo(self):
        """Take back the last move and whatever landed after it (a remix's
        pieces): the app's undo, as the protocol's (State.undo_move)."""
        if not self.app.undo():
            return
        self.later |= _KEEP         # drawn in the next pass
        self.held = -1
        self.suggested = -1
        self._check_phase()

    # ---- text: score, style, the end ------------------------------------------
    def _score_text(self, final):
        """The score breakdown (``final``: at the end), scrolling: the text is
        made in the next pass and drawn in the one after, so the press (which
        may end the game) does no more."""
        self.mode = _TEXT
        self.text_for = 2 if final else 1
        self.pend = True
        self.later |= _KEEP

    def _make_text(self):
        b = self.state.breakdown()
        self.scroll.set("CLEAN %d FULL %d RAINBOW %d STYLE %d DPC %d REMIX %d "
                        "TOTAL %d" % (b["clean"], b["fully_nested"],
                                      b["rainbow"], b["style"],
                                      b["double_plus_cool"], b["remix"],
                                      b["total"]), self.app.now)

    def _end_text(self):
        self._score_text(True)

    def _style_text(self):
        if self.mode != _TEXT or self.text_for != 3:
            self.scroll.set("STYLE? A=YES B=NO", self.app.now)
            self.mode = _TEXT
            self.text_for = 3

    def _text_key(self, k):
        app = self.app
        if self.text_for == 3:
            if k == A or k == B:
                app.play(STYLE_YES if k == A else STYLE_NO)
                self._end_text()
                return True
            return False
        if self.text_for == 2:
            if k == A:
                self.mode = _BOARD
                return True
            return False
        if k == A or k == B:
            self.mode = _BOARD
            return True
        return False

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
