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

from lib import palette as P
from lib import font
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B
from engine.state import CHANCE, OVER
from engine.ice_solo import (END, REMIX, STYLE_YES, STYLE_NO, NONE, P_TOWER,
                             is_clean, top_locked)

BLINK_MS = 300
BOARD = 0
MENU = 1
GRIDVIEW = 2
TEXT = 3          # scrolling text: score, style question, the end

M_HINT = 0
M_UNDO = 1
M_MIX = 2
M_GRID = 3
M_SCORE = 4
M_END = 5
NAMES = ("HINT", "UNDO", "MIX", "GRID", "SCORE", "END")


class Screen:
    def __init__(self, app, state):
        self.app = app
        self.st = state
        self.dest = bytearray(64)   # 1: the held piece may go there
        self.held = -1              # board cell index of the held piece
        self.sug = -1               # a hint's suggested destination
        self.cur = 0
        self.mode = BOARD
        self.item = 0
        self.phase = -1             # the blink counter last drawn
        self.scroll = font.Scroller(app.d.width, 1 if app.d.height <= 8 else 5,
                                    P.TEXT)
        self.text_for = -1          # what the scroller holds (a mode tag)
        self.tot = 0                # facts worked out once per change of
        self.due = False            # the history (not every frame): the
        self.live = True            # total, style judgement due, player
        self.tot_at = -1            # to move; at this history length
        while state.to_move() == CHANCE:
            app.chance()
        self._layout()

    # ---- geometry -----------------------------------------------------------
    def _layout(self):
        st = self.st
        d = self.app.d
        self.big = d.width >= 16
        self.field = st.phase == P_TOWER
        if self.field:
            self.bw = 8
            self.bh = 8
        else:
            self.bw = st.width
            self.bh = 5
        self.px = 2 if self.big else 1
        if self.cur >= self.bw * self.bh:
            self.cur = 0

    def _check_phase(self):
        """Follow the game from towering into nesting."""
        if (self.st.phase == P_TOWER) != self.field:
            self.held = -1
            self._layout()

    def _a8(self, i):
        """Board cell -> the engine's 8-wide cell number."""
        return (i // self.bw) * 8 + i % self.bw

    # ---- picking up ---------------------------------------------------------
    def _pick(self, i):
        """Mark where the piece at ``i`` may go; False if nowhere."""
        st = self.st
        dest = self.dest
        for j in range(64):
            dest[j] = 0
        n = 0
        if self.field:
            for m in st._tower_moves(False, i):     # this piece's moves
                dest[m & 63] = 1
                n += 1
        else:
            self._facts()
            if not self.live or self.due:
                return False
            w = self.bw
            for t in range(w * self.bh):
                if t != i and (t // w == i // w or t % w == i % w) and \
                        st._nest_ok(i, t) == 0:
                    dest[t] = 1
                    n += 1
        if not n:
            return False
        self.held = i
        return True

    def _move(self, s, t):
        if self.field:
            return s * 64 + t
        return (self._a8(s) << 6) | self._a8(t)

    # ---- keys ---------------------------------------------------------------
    def key(self, k):
        st = self.st
        app = self.app
        if self.mode == TEXT:
            return self._text_key(k)
        self._facts()
        if self.due:
            self._style_text()
            return self._text_key(k)
        if self.mode == MENU:
            return self._menu_key(k)
        if self.mode == GRIDVIEW:
            if k == B or k == A:
                self.mode = BOARD
                return True
            return False
        if k == UP or k == DOWN or k == LEFT or k == RIGHT:
            x = self.cur % self.bw
            y = self.cur // self.bw
            if k == LEFT:
                x = (x - 1) % self.bw
            elif k == RIGHT:
                x = (x + 1) % self.bw
            elif k == UP:
                y = (y - 1) % self.bh
            else:
                y = (y + 1) % self.bh
            self.cur = y * self.bw + x
            return True
        if k == B:
            if self.held >= 0:
                self.held = -1
                self.sug = -1
            else:
                self._open_menu()
            return True
        # A
        if not self.live:
            self._end_text()
            return True
        if self.held < 0:
            if not self._pick(self.cur):
                app.refuse()
            return True
        if self.cur == self.held:
            self.held = -1
            self.sug = -1
            return True
        s = self.held
        if app.play(self._move(s, self.cur)):
            self.held = -1
            self.sug = -1
            self._check_phase()
            if st.to_move() == OVER:
                self._end_text()
        return True

    def _items(self):
        """Bit set of the menu items offered now."""
        st = self.st
        m = (1 << M_UNDO) | (1 << M_SCORE)
        if st.to_move() == 0:
            m |= (1 << M_HINT) | (1 << M_END)
            if self.field:
                m |= 1 << M_GRID
                if st.is_legal(REMIX):
                    m |= 1 << M_MIX
        return m

    def _open_menu(self, item=M_HINT):
        self.mode = MENU
        m = self._items()
        self.item = item
        while not m & (1 << self.item):
            self.item = (self.item + 1) % len(NAMES)
        self.scroll.set(NAMES[self.item], self.app.now)

    def _menu_key(self, k):
        app = self.app
        st = self.st
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
            self.mode = BOARD
            return True
        it = self.item
        self.mode = BOARD
        if it == M_HINT:
            a = st.hint()
            if a is None or a == END:
                self._open_menu(M_END)
            elif a == REMIX:
                self._open_menu(M_MIX)
            else:
                s = a >> 6
                t = a & 63
                if not self.field:
                    s = (s >> 3) * self.bw + (s & 7)
                    t = (t >> 3) * self.bw + (t & 7)
                if self._pick(s):
                    self.sug = t
                    self.cur = t
        elif it == M_UNDO:
            self._undo()
        elif it == M_MIX:
            app.play(REMIX)
        elif it == M_GRID:
            self.mode = GRIDVIEW
        elif it == M_SCORE:
            self._score_text(False)
        elif it == M_END:
            if app.play(END):
                self._end_text()
        return True

    def _undo(self):
        """Take back the last move and whatever landed after it (a remix's
        pieces): the app's undo, as the protocol's (State.undo_move)."""
        if not self.app.undo():
            return
        self.held = -1
        self.sug = -1
        self._check_phase()

    # ---- text: score, style, the end ------------------------------------------
    def _score_text(self, final):
        b = self.st.breakdown()
        self.scroll.set("CLEAN %d FULL %d RAINBOW %d STYLE %d DPC %d REMIX %d "
                        "TOTAL %d" % (b["clean"], b["fully_nested"],
                                      b["rainbow"], b["style"],
                                      b["double_plus_cool"], b["remix"],
                                      b["total"]), self.app.now)
        self.mode = TEXT
        self.text_for = 2 if final else 1

    def _end_text(self):
        self._score_text(True)

    def _style_text(self):
        if self.mode != TEXT or self.text_for != 3:
            self.scroll.set("STYLE? A=YES B=NO", self.app.now)
            self.mode = TEXT
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
                self.mode = BOARD
                return True
            return False
        if k == A or k == B:
            self.mode = BOARD
            return True
        return False

    # ---- time -------------------------------------------------------------------
    def tick(self, now):
        self._facts()
        if self.mode == BOARD and self.due:
            self._style_text()
            return True
        if self.mode == TEXT or self.mode == MENU:
            return self.scroll.tick(now)
        ph = (now // BLINK_MS) & 0xFFFF
        if ph != self.phase:
            self.phase = ph
            return True
        return False

    # ---- drawing ------------------------------------------------------------------
    def draw(self, d):
        d.fill(P.OFF)
        if self.mode == TEXT or self.mode == MENU:
            self.scroll.draw(d)
            if self.mode == MENU:
                self._menu_dots(d)
            elif self.big:
                self._mini_board(d)
            return
        ph = (self.app.now // BLINK_MS) & 0xFFFF
        self.phase = ph
        if self.mode == GRIDVIEW:
            self._draw_grid_only(d, ph)
            return
        self._draw_board(d, ph)

    def _menu_dots(self, d):
        m = self._items()
        y = d.height - 1
        x = 0
        for i in range(len(NAMES)):
            if m & (1 << i):
                d.pixel(x, y, P.HILITE if i == self.item else P.DIM)
                x += 2 if d.width > 8 else 1

    def _facts(self):
        """Refresh the total, whether the style judgement is due and whether
        the player is to move, once per change of the history, so a frame
        or a key press repeats none of that work."""
        st = self.st
        n = len(st.hist)
        if n != self.tot_at:
            self.tot = st.scores()[0]
            self.live = st.to_move() == 0
            self.due = self.live and st.style_due()
            self.tot_at = n

    def _total(self):
        self._facts()
        return self.tot

    def _mini_board(self, d):
        """16x16 text screens: the total under the text."""
        t = self._total()
        c = P.OK if t >= 0 else P.REFUSE
        font.draw_number(d, t, (d.width - font.number_width(t)) // 2, 11, c)

    def _draw_board(self, d, ph):
        n = self.bw * self.bh
        px = self.px
        held = self.held
        for i in range(n):
            x = (i % self.bw) * px
            y = (i // self.bw) * px
            self._cell(d, i, x, y, ph)
            if held >= 0 and self.dest[i] and ph & 1:
                d.rect(x, y, px, px, P.HILITE if i == self.sug else P.OK)
        if held >= 0 and not ph & 1:
            x = (held % self.bw) * px
            y = (held // self.bw) * px
            d.rect(x, y, px, px, P.HILITE)
        self._cursor(d, ph)
        if not self.field:
            self._side(d)

    def _cursor(self, d, ph):
        i = self.cur
        px = self.px
        x = (i % self.bw) * px
        y = (i // self.bw) * px
        if self.field and not self.big and self.held < 0:
            # 8x8 field: white, then the cell's pieces bottom first
            lo = self.st.lo[i]
            hi = self.st.hi[i]
            k = ph % 3
            if k == 0:
                d.pixel(x, y, P.CURSOR)
            elif lo != NONE:
                d.pixel(x, y, P.piece_code(lo if k == 1 or hi == NONE else hi))
            return
        if ph % 3 == 0:
            d.pixel(x, y, P.CURSOR)
            if px == 2:
                d.pixel(x + 1, y + 1, P.CURSOR)

    def _cell(self, d, i, x, y, ph):
        st = self.st
        if self.field:
            lo = st.lo[i]
            hi = st.hi[i]
            if lo == NONE:
                if self.big:
                    d.pixel(x, y, P.DIM)
                return
            if not self.big:
                d.pixel(x, y, P.piece_code(hi if hi != NONE else lo))
                return
            if hi == NONE:
                d.rect(x, y, 2, 2, P.piece_code(lo))
            else:
                d.rect(x, y, 2, 1, P.piece_code(hi))
                d.rect(x, y + 1, 2, 1, P.piece_code(lo))
            return
        s = st.grid[i]
        n = len(s)
        if not n:
            d.pixel(x, y, P.DIM)
            return
        top = s[n - 1]
        if is_clean(s):
            if self.big:
                d.rect(x, y, 2, 2, P.piece(top >> 2, 3))
            else:
                d.pixel(x, y, P.piece(top >> 2, 3 if ph & 2 else 1))
            return
        if top_locked(s):
            if self.big:
                d.pixel(x, y, P.piece_code(top))
                d.pixel(x + 1, y + 1, P.piece_code(top))
            elif ph & 2:
                d.pixel(x, y, P.piece_code(top))
            return
        if not self.big:
            d.pixel(x, y, P.piece_code(top))
            return
        d.rect(x, y, 2, 1, P.piece_code(top))
        if n > 1:
            d.rect(x, y + 1, 2, 1, P.piece_code(s[n - 2]))

    def _side(self, d):
        """The stack under the cursor, bottom at the bottom; on 16x16 also
        the live total under the grid."""
        s = self.st.grid[self.cur]
        n = len(s)
        h = d.height
        if not self.big:
            first = n - 8 if n > 8 else 0
            for j in range(first, n):
                d.rect(6, h - 1 - (j - first), 2, 1, P.piece_code(s[j]))
            return
        first = n - 16 if n > 16 else 0
        for j in range(first, n):
            p = s[j]
            wdt = (p & 3) + 1
            d.rect(16 - wdt, h - 1 - (j - first), wdt, 1, P.piece_code(p))
        t = self._total()
        font.draw_number(d, t, 0, 11, P.OK if t >= 0 else P.REFUSE)

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
