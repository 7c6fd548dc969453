"""IceTowers on the LEDs: 2 to 5 at one device, passed round the table,
any seat played by the device (``bots=``), a ghost stash with two players.

Controls (docs/games/icetowers.md has the pictures):

* Directions move the cursor over the table (wrapping at its edges; a 9x9
  table scrolls a cell at a time to keep the cursor in view).
* A on one of your freestanding pieces picks it up: its cell turns
  magenta and every tower it may cap blinks (green, then dark: a green
  piece blinks too). A on a blinking cell caps it; A on any other cell is
  refused (red flash) and the piece stays in hand; A on the piece itself,
  or B, puts it back.
* A on any other tower opens its inside view: the pieces bottom to top,
  each a bar as wide as its size. A green dot on the right marks one of
  your pieces you may mine, an amber dot a height you may split at (that
  piece and everything above it are lifted). UP/DOWN move the magenta
  marker between those heights; A mines (every tower the piece may cap
  then blinks on the table: move there and press A; when it may
  cap nothing it is set down at once in the first empty cell) or splits.
  B goes back.
* B with nothing in hand opens the menu: LEFT/RIGHT choose PASS, UNDO,
  HINT, SCORES and (8x8) ZOOM; A does it, B goes back. HINT works out the
  device's move for you and sets it up (the piece in hand and the cursor
  on its target, the inside view on the height, or PASS chosen): A plays
  it. ZOOM draws the 8x8 table as 16x16 does, 2x2 a cell, in a 4x4-cell
  window that follows the cursor; ZOOM again goes back.
* SCORES: one page a seat, in its colour (the ghost's page has a dotted
  band: its pips score for nobody); LEFT/RIGHT or UP/DOWN turn the pages,
  A or B go back.
* At the end the winner shows in their colour (a shared win takes turns);
  A shows the scores, DOWN the final table (A on a tower looks inside, B
  comes back). Hold B (the escape) to leave; a game in progress is saved.

Pictures (the shared visual language of lib/screens_common.py). 8x8: a
pixel a cell, the colour of the tower's top, brighter for a bigger top;
the cursor flashes the stack under it, bottom first (white, dark, then
each piece once per size step: a small once, a large three times). 16x16:
a 2x2 block a cell: an empty cell a grey dot; a freestanding piece by its
size's pattern (a small one dot, a medium the bottom row, a large the
whole block); a tower its top along the upper row, the piece under the
top at the lower left, and its height at the lower right (dark: 2 pieces,
grey: 3, white: 4 or more). Every second, for a moment, the towers on 8x8
show the piece under their top instead, and (both boards) the
freestanding pieces of the player to move go dark: they are the ones to
find. A seat the device plays thinks over a few loop passes (a dot in its
colour blinks in the corner), then its move shows for a moment (the piece
or tower magenta, its target green; a pass as a frame in its colour)
before it is played; any key skips the showing. Hand-offs between people
show the seat's number in its own colour (the app's player colours are
not the seats'); one person against the device gets none.
"""

from lib import palette as P
from lib import font
from lib import screens_common as C
from lib.screens_common import border, centre_number
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff
from engine.state import OVER
from engine.ice_towers import PASS, CAP, SPLIT, MINE, SET_DOWN, HEIGHTS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# a seat's colour (r y g b p, the engine's order) -> lib.palette's hue
_HUE = b"\x00\x02\x03\x05\x06"
BLINK_MS = const(250)     # the cursor's and the targets' blink
BOT_MS = const(900)       # a device seat's move shows this long first
END_MS = const(500)       # the end's frame blinks this often
PAGE_MS = const(1000)     # a shared win: each winner this long
# the screen's modes
BOARD = const(0)          # the table, nothing in hand
HAND = const(1)           # a freestanding piece in hand: caps blink
INSIDE = const(2)         # one tower's pieces, a height to mine or split
AIM = const(3)            # a mined piece in hand: its caps blink
MENU = const(4)
SCORES = const(5)
BOT = const(7)            # a device seat thinks, then shows its move
HINTING = const(8)        # the hint is worked out (as a bot's move)
UNDOING = const(9)        # moves taken back a pass at a time
END = const(10)
ENDBOARD = const(11)      # the final table, looked at from the end
MENU_ITEMS = ("PASS", "UNDO", "HINT", "SCORES", "ZOOM")   # ZOOM: 8x8 only
M_PASS = const(0)
M_UNDO = const(1)
M_HINT = const(2)
M_SCORES = const(3)
M_ZOOM = const(4)
# what a decoded action is
K_PASS = const(0)
K_CAP = const(1)
K_MINE = const(2)
K_SPLIT = const(3)


# an IceTowers piece code (colour r y g b p << 2 | size) as lib.palette's
# piece code (and screens_common's), and as a palette index: one lookup each
SHARED = bytes([_HUE[pc >> 2] << 2 | (pc & 3) for pc in range(20)])
INK = bytes([P.CODE[SHARED[pc]] for pc in range(20)])


def ink(pc):
    """The palette index of an IceTowers piece code."""
    return INK[pc]


def shared_code(pc):
    """An IceTowers piece code as lib.palette's (and screens_common's)
    piece code: the same size, the colour by its hue."""
    return SHARED[pc]


def seat_ink(p):
    """A seat's (or the ghost's) colour, as its large pieces show."""
    return P.piece(_HUE[p], 3)


class Screen(C.Screen):
    """The game's screen (lib/app.py's contract). The table is kept as two
    whole pictures (``base``, and ``alt`` for the blink's short half),
    made again only when the game or the scroll changes (``stale``); a
    frame is one copy of one of them and a few overlay pixels."""

    def __init__(self, app, state):
        C.Screen.__init__(self, app, state)
        d = app.d
        self.w = d.width
        self.h = d.height
        self.big = d.width > 8
        side = self.side = state.side
        self.nitems = 4 if self.big else 5     # the menu's (ZOOM: 8x8)
        self.ox = 0          # the first cell column and row in view
        self.oy = 0
        self.cur = 0         # the cursor's cell (table index)
        self._zoom(2 if self.big else 1)
        self.pick = -1       # the piece in hand / the tower looked into
        self.height = 0      # INSIDE: the marker's piece (0 the bottom)
        self.low = 0         # INSIDE: the lowest piece in view
        self.marks = bytearray(HEIGHTS)   # INSIDE: 1 mine, 2 split
        self.nmarks = 0
        self.flags = bytearray(side * side)   # the targets (they blink)
        self.under = bytearray(HEIGHTS)    # 8x8: the cursor's stack (C.flash)
        n = d.width * d.height
        self.base = bytearray(n)
        self.alt = bytearray(n)
        self.blank = bytes(n)    # P.OFF everywhere: each build starts from it
        self.darks = bytearray(side * side)   # _build: the cells dark in alt
        self.stale = True
        self.mode = BOARD
        self.back = BOARD    # where SCORES and INSIDE return to
        self.item = 0        # the menu's item
        self.label = font.Scroller(d.width, 1 if not self.big else 5, P.TEXT)
        self.page = 0        # SCORES: whose page; END: which winner
        self.scores = bytearray(5 + 1)
        self.nwin = 0
        self.win = bytearray(5)
        self.turn = C.Turn()   # the device seat's or the hint's thinking
        self.kind = K_PASS   # a decoded action (_decode): its kind,
        self.af = -1         # source cell, height and target (-1 set down)
        self.ah = 0
        self.ag = -1
        self._settle()

    # ---- the app's questions --------------------------------------------
    def busy(self):
        # moves are taken back over several passes: the hand-off after
        return self.mode == UNDOING

    def shown(self):
        self.since = self.app.now     # the cursor shows at once

    # ---- facts worked out once per change ---------------------------------
    def _human(self):
        """A person is to move now."""
        st = self.state
        p = st.to_move()
        return p >= 0 and not st.is_bot(p)

    def _settle(self):
        """After a move, an undo, or when opened: the mode for the game as
        it stands."""
        st = self.state
        self.stale = True
        self.pick = -1
        self.turn.reset()
        self.restart()
        self.skip = False
        p = st.to_move()
        if p == OVER:
            self._scores_now()
            # the winners (as st.winners()) from the scores just counted
            sc = self.scores
            hi = 0
            for i in range(st.players):
                if sc[i] > hi:
                    hi = sc[i]
            n = 0
            for i in range(st.players):
                if sc[i] == hi:
                    self.win[n] = i
                    n += 1
            self.nwin = n
            self.page = 0
            self.mode = END
            return
        if p < 0:
            self.mode = BOARD
            return
        self.mode = BOT if st.is_bot(p) else BOARD

    def _scores_now(self):
        cs = self.state.colour_scores()
        for i in range(len(cs)):
            self.scores[i] = cs[i]

    def _ix(self, c9):
        """A cell numbered 9 wide (as in actions) -> the table's index."""
        return (c9 // 9) * self.side + c9 % 9

    def _c9(self, i):
        return (i // self.side) * 9 + i % self.side

    def _decode(self, a):
        """Split action ``a`` into kind, af, ah, ag (no tuple made)."""
        self.af = -1
        self.ag = -1
        self.ah = 0
        if a == PASS:
            self.kind = K_PASS
        elif a < SPLIT:
            a -= CAP
            self.kind = K_CAP
            self.af = self._ix(a // 81)
            self.ag = self._ix(a % 81)
        elif a < MINE:
            a -= SPLIT
            self.kind = K_SPLIT
            self.af = self._ix(a // HEIGHTS)
            self.ah = a % HEIGHTS
        else:
            a -= MINE
            self.kind = K_MINE
            g = a % 82
            a //= 82
            self.af = self._ix(a // HEIGHTS)
            self.ah = a % HEIGHTS
            if g != SET_DOWN:
                self.ag = self._ix(g)
        return self.kind

    def _targets(self, size, src):
        """Flag every tower a piece of ``size`` of the player to move may
        cap, ``src`` aside; returns how many."""
        st = self.state
        me = st.turn
        cells = st.cells
        fl = self.flags
        k = 0
        for i in range(len(cells)):
            t = cells[i]
            ok = (i != src and len(t) > 0 and t[-1] >> 2 != me and
                  t[-1] & 3 >= size)
            fl[i] = 1 if ok else 0
            if ok:
                k += 1
        return k

    def _inside_marks(self):
        """Mark the heights of the tower looked into that the player to
        move may mine (1) or split at (2); returns how many."""
        st = self.state
        t = st.cells[self.pick]
        mk = self.marks
        for i in range(len(t)):
            mk[i] = 0
        if not self._human():
            self.nmarks = 0
            return 0
        me = st.turn
        k = 0
        if t[-1] >> 2 != me:
            mine = 0
            for i in range(len(t)):     # (no iterator object made)
                if t[i] >> 2 == me:
                    mine += 1
            if mine >= 2:
                for i in range(len(t)):
                    if t[i] >> 2 == me:
                        mk[i] = 1
                        k += 1
        for i in range(1, len(t)):
            c = t[i] >> 2
            if c != me and t[i - 1] >> 2 == c:
                mk[i] = 2
                k += 1
        self.nmarks = k
        return k

    def _view(self):
        """Scroll the table so the cursor is in view."""
        vw = self.vw
        x = self.cur % self.side
        y = self.cur // self.side
        ox = self.ox
        oy = self.oy
        if x < ox:
            ox = x
        elif x >= ox + vw:
            ox = x - vw + 1
        if y < oy:
            oy = y
        elif y >= oy + vw:
            oy = y - vw + 1
        if ox != self.ox or oy != self.oy:
            self.ox = ox
            self.oy = oy
            self.stale = True

    def _zoom(self, cs):
        """Draw the table ``cs`` pixels a cell (2 on 16x16; 8x8: 1, or 2
        zoomed, a 4x4 window of cells following the cursor)."""
        w = self.w
        side = self.side
        self.cs = cs
        self.vw = side if side * cs <= w else w // cs
        self.x0 = (w - self.vw * cs) // 2
        self.y0 = (self.h - self.vw * cs) // 2
        if self.ox > side - self.vw:
            self.ox = side - self.vw
        if self.oy > side - self.vw:
            self.oy = side - self.vw
        self._view()
        self.stale = True

    def _keep_height(self):
        """INSIDE: the lowest piece in view, so the marker shows."""
        n = len(self.state.cells[self.pick])
        vis = self.h // self._ph(n)
        if n <= vis:
            self.low = 0
            return
        if self.height < self.low:
            self.low = self.height
        elif self.height >= self.low + vis:
            self.low = self.height - vis + 1

    def _ph(self, n):
        # rows a piece: 2 on 16x16 while the tower fits
        return 2 if self.big and n <= 8 else 1

    # ---- keys ------------------------------------------------------------
    def save_view(self):
        """bytes: the cursor's cell, the first column and row in view and
        the cell size (the 8x8 zoom)."""
        return bytes((self.cur, self.ox, self.oy, self.cs))

    def load_view(self, data):
        """A resumed game's view (save_view); one that does not fit the
        table is ignored."""
        side = self.side
        if (len(data) != 4 or self.mode != BOARD or data[0] >= side * side or
                data[1] >= side or data[2] >= side or data[3] not in (1, 2) or
                (self.big and data[3] != self.cs)):
            return
        if data[3] != self.cs:
            self._zoom(data[3])
        self.cur = data[0]
        self.ox = min(data[1], side - self.vw)
        self.oy = min(data[2], side - self.vw)
        self._view()
        self.stale = True

    def key(self, k):
        m = self.mode
        if m == BOARD or m == HAND or m == AIM or m == ENDBOARD:
            return self._board_key(k)
        if m == INSIDE:
            return self._inside_key(k)
        if m == MENU:
            return self._menu_key(k)
        if m == SCORES:
            if k == A or k == B:
                self.mode = self.back
                self.since = self.app.now
                self.phase = -1
                return True
            n = self.state.stashes
            step = 1 if k == RIGHT or k == DOWN else n - 1
            self.page = (self.page + step) % n
            return True
        if m == END:
            if k == A:
                return self._open_scores(END)
            if k == DOWN:
                self.mode = ENDBOARD
                self.stale = True
                return True
            return False
        if m == BOT:
            # any key skips the device seat's showing (it still thinks a
            # slice a pass); the key does nothing else
            self.skip = True
        return False      # BOT, HINTING, UNDOING: the keys wait

    def _move_cursor(self, k):
        side = self.side
        x = self.cur % side
        y = self.cur // side
        if k == LEFT:
            x = (x + side - 1) % side
        elif k == RIGHT:
            x = (x + 1) % side
        elif k == UP:
            y = (y + side - 1) % side
        else:
            y = (y + 1) % side
        self.cur = y * side + x
        self._view()
        self.since = self.app.now     # the cursor shows at once
        self.phase = -1
        return True

    def _board_key(self, k):
        m = self.mode
        app = self.app
        st = self.state
        if k != A and k != B:
            return self._move_cursor(k)
        if m == ENDBOARD:
            if k == B:
                self.mode = END
                self.stale = True
                return True
            if st.cells[self.cur]:
                return self._open_inside(self.cur, ENDBOARD)
            app.refuse()
            return False
        if k == B:
            if m == HAND:
                self.mode = BOARD
                self.pick = -1
                return True
            if m == AIM:
                self.mode = INSIDE
                return True
            self.mode = MENU
            self.label.set(MENU_ITEMS[self.item], app.now)
            return True
        cur = self.cur
        t = st.cells[cur]
        if m == HAND:
            if cur == self.pick:
                self.mode = BOARD
                self.pick = -1
                return True
            if not self.flags[cur]:
                app.refuse()
                return False
            return self._play(CAP + self._c9(self.pick) * 81 + self._c9(cur))
        if m == AIM:
            if not self.flags[cur]:
                app.refuse()
                return False
            return self._play(MINE + (self._c9(self.pick) * HEIGHTS +
                                      self.height + 1) * 82 + self._c9(cur))
        # BOARD
        if not t:
            app.refuse()
            return False
        if len(t) == 1 and t[0] >> 2 == st.turn:
            if not self._targets(t[0] & 3, cur):
                app.refuse()      # nothing it may cap
                return False
            self.pick = cur
            self.mode = HAND
            return True
        return self._open_inside(cur, BOARD)

    def _open_inside(self, cell, back):
        self.pick = cell
        self.back = back
        self.mode = INSIDE
        t = self.state.cells[cell]
        self._inside_marks()
        # the marker on the highest height with something to do (else the top)
        h = len(t) - 1
        while h > 0 and not self.marks[h]:
            h -= 1
        self.height = h if self.marks[h] else len(t) - 1
        self._keep_height()
        return True

    def _inside_key(self, k):
        app = self.app
        st = self.state
        t = st.cells[self.pick]
        n = len(t)
        if k == B:
            self.mode = self.back
            self.pick = -1
            return True
        if k == UP or k == DOWN:
            step = 1 if k == UP else -1
            h = self.height + step
            if self.nmarks:
                while 0 <= h < n and not self.marks[h]:
                    h += step
            if not 0 <= h < n:
                return False
            self.height = h
            self._keep_height()
            return True
        if k != A:
            return False
        h = self.height
        mk = self.marks[h]
        if not mk:
            app.refuse()
            return False
        c9 = self._c9(self.pick)
        if mk == 2:
            return self._play(SPLIT + c9 * HEIGHTS + h + 1)
        if self._targets(t[h] & 3, self.pick):
            self.mode = AIM
            self.cur = self.pick
            self._view()
            return True
        return self._play(MINE + (c9 * HEIGHTS + h + 1) * 82 + SET_DOWN)

    def _menu_key(self, k):
        app = self.app
        if k == LEFT or k == RIGHT:
            n = self.nitems
            self.item = (self.item + (1 if k == RIGHT else n - 1)) % n
            self.label.set(MENU_ITEMS[self.item], app.now)
            return True
        if k == B:
            self.mode = BOARD
            return True
        if k != A:
            return False
        i = self.item
        if i == M_PASS:
            return self._play(PASS)
        if i == M_UNDO:
            if not self.state.moves:
                app.refuse()
                return False
            self.mode = UNDOING
            return True
        if i == M_HINT:
            self.mode = HINTING
            self.since = app.now
            self.turn.reset()
            return True
        if i == M_ZOOM:
            self._zoom(3 - self.cs)
            self.mode = BOARD
            return True
        return self._open_scores(BOARD)

    def _open_scores(self, back):
        self._scores_now()
        self.back = back
        self.mode = SCORES
        st = self.state
        p = st.to_move()
        self.page = p if p >= 0 else (self.win[self.page] if self.nwin else 0)
        return True

    def _play(self, a):
        """Play ``a`` through the app (a refusal flashes and changes
        nothing), then settle on what follows."""
        if not self.app.play(a):
            return False
        self._settle()
        return True

    # ---- time ------------------------------------------------------------
    def tick(self, now):
        m = self.mode
        app = self.app
        st = self.state
        if m == UNDOING:
            # one move back a pass (each is a replay), past the device's
            # seats to the last person's move
            if app.undo():
                p = st.to_move()
                if p >= 0 and st.is_bot(p) and st.moves and self._humans():
                    return True
            self._settle()
            return True
        dt = ticks_diff(now, self.since)
        if m == BOT or m == HINTING:
            turn = self.turn
            if turn.action < 0:
                if self.stale:
                    return True    # the table is built this pass, thought over from the next
                a = turn.slice(st)
                if a is None:
                    return self.blink(dt // BLINK_MS)
                if a < 0:
                    if m == HINTING:
                        self.mode = BOARD
                        return True
                    return False
                self._decode(a)
                if m == HINTING:
                    self._take_hint()
                    return True
                self.restart()
                return True
            # a device seat's move, shown before it is played (a key
            # skips the showing, see key)
            if turn.due(self, BOT_MS):
                a = turn.action
                turn.reset()
                if app.play(a):
                    self._settle()
                else:          # cannot happen: the engine chose it
                    self.mode = BOARD
                return True
            return self.blink(dt // BLINK_MS)
        if m == END:
            p = dt // END_MS
            if p != self.phase:
                self.phase = p
                if self.nwin:
                    self.page = (p * END_MS // PAGE_MS) % self.nwin
                return True
            return False
        if m == MENU:
            return self.label.tick(now)
        if m == SCORES:
            return False
        return self.blink(dt // BLINK_MS)

    def _humans(self):
        """Some seat is a person's."""
        st = self.state
        for p in range(st.players):
            if not st.is_bot(p):
                return True
        return False

    def _take_hint(self):
        """Set the hint up so that A plays it."""
        k = self.kind
        self.turn.reset()
        self.restart()
        st = self.state
        if k == K_PASS:
            self.mode = MENU
            self.item = M_PASS
            self.label.set(MENU_ITEMS[M_PASS], self.app.now)
            return
        if k == K_CAP:
            self.pick = self.af
            self._targets(st.cells[self.af][0] & 3, self.af)
            self.mode = HAND
            self.cur = self.ag
            self._view()
            return
        self._open_inside(self.af, BOARD)
        self.cur = self.af
        self._view()
        self.height = self.ah - 1
        self._keep_height()
        if k == K_MINE and self.ag >= 0:
            self._targets(st.cells[self.af][self.ah - 1] & 3, self.af)
            self.mode = AIM
            self.cur = self.ag
            self._view()

    # ---- drawing ---------------------------------------------------------
    def draw(self, d):
        if self.big:
            d.spread(C.SPREAD)
        m = self.mode
        if m == INSIDE:
            self._inside(d)
        elif m == MENU:
            self._menu(d)
        elif m == SCORES:
            self._score_page(d)
        elif m == END:
            self._end(d)
        else:
            self._table(d)

    def _build(self):
        """Both pictures of the table in view (see the class doc)."""
        st = self.state
        cells = st.cells
        side = self.side
        cs = self.cs
        w = self.w
        base = self.base
        alt = self.alt
        base[:] = self.blank
        me = st.turn if self._human() and self.mode != ENDBOARD else -1
        if cs == 1:
            alt[:] = self.blank
        darks = self.darks
        nd = 0
        glyphs = C.GLYPHS
        for vy in range(self.vw):
            i = (self.oy + vy) * side + self.ox
            j = (self.y0 + vy * cs) * w + self.x0
            for _ in range(self.vw):
                t = cells[i]
                i += 1
                n = len(t)
                if cs == 1:
                    if n:
                        base[j] = top = INK[t[-1]]
                        alt[j] = (P.OFF if n == 1 and t[0] >> 2 == me else
                                  (INK[t[-2]] if n > 1 else top))
                    j += 1
                    continue
                if not n:
                    base[j] = P.DIM     # an empty cell (C.put_empty)
                elif n == 1:
                    # a freestanding piece: its size's pattern (C.put_piece)
                    p = t[0]
                    c = INK[p]
                    bits = glyphs[p & 3]
                    if bits & 8:
                        base[j] = c
                    if bits & 4:
                        base[j + 1] = c
                    if bits & 2:
                        base[j + w] = c
                    if bits & 1:
                        base[j + w + 1] = c
                    if p >> 2 == me:
                        darks[nd] = j
                        nd += 1
                else:
                    base[j] = base[j + 1] = INK[t[-1]]
                    base[j + w] = INK[t[-2]]
                    base[j + w + 1] = (P.OFF if n == 2 else
                                       (P.DIM if n == 3 else P.TEXT))
                j += 2
        if cs > 1:
            alt[:] = base
            for k in range(nd):
                j = darks[k]
                alt[j] = alt[j + 1] = alt[j + w] = alt[j + w + 1] = P.OFF
        self.stale = False

    def _cell(self, d, i, c):
        """Paint cell ``i`` (if in view) in colour ``c``."""
        side = self.side
        vx = i % side - self.ox
        vy = i // side - self.oy
        if 0 <= vx < self.vw and 0 <= vy < self.vw:
            cs = self.cs
            d.rect(self.x0 + vx * cs, self.y0 + vy * cs, cs, cs, c)

    def _table(self, d):
        if self.stale:
            self._build()
        m = self.mode
        ph = self.phase if self.phase >= 0 else 0
        aiming = m == HAND or m == AIM
        d.frame[:] = self.alt if ph % 4 == 3 and not aiming else self.base
        on = not ph & 1
        if aiming:
            # the targets: as they are, green, dark, green (the dark beat
            # makes a green piece blink too: one seat plays green)
            if ph % 4:
                c = P.OFF if ph % 4 == 2 else P.OK
                fl = self.flags
                for i in range(len(fl)):
                    if fl[i]:
                        self._cell(d, i, c)
            self._cell(d, self.pick, P.HILITE)
        if m == BOT or m == HINTING:
            p = self.state.to_move()
            if self.turn.action >= 0 and m == BOT:
                # the chosen move, shown before it is played
                if self.kind == K_PASS:
                    border(d, seat_ink(p))
                else:
                    self._cell(d, self.af, P.HILITE)
                    if self.ag >= 0:
                        self._cell(d, self.ag, P.OK)
            elif on and p >= 0:
                d.rect(self.w - self.cs, self.h - self.cs, self.cs, self.cs,
                       seat_ink(p))
            return
        if m == UNDOING:
            return
        if self.cs > 1:
            if on:
                self._cell(d, self.cur, P.CURSOR)
            return
        # 8x8: the cursor flashes the stack under it, bottom first, once
        # per size step (screens_common.flash): white, dark, the pieces;
        # on the piece in hand it stays magenta
        if self.cur == self.pick and (m == HAND or m == AIM):
            return
        t = self.state.cells[self.cur]
        under = self.under
        for i in range(len(t)):
            under[i] = SHARED[t[i]]
        self._cell(d, self.cur, C.flash(ph, under, len(t)))

    def _inside(self, d):
        """The tower looked into: a bar a piece, bottom up (see the doc)."""
        d.fill(P.OFF)
        t = self.state.cells[self.pick]
        n = len(t)
        ph = self._ph(n)
        h = self.h
        w = self.w
        mid = w // 2
        bar = 2 if self.big else 1     # pixels of bar per size step, a side
        vis = h // ph
        on = self.phase < 0 or not self.phase & 1
        for j in range(self.low, n):
            k = j - self.low
            if k >= vis:
                break
            y = h - (k + 1) * ph
            s = t[j] & 3
            d.rect(mid - s * bar, y, 2 * s * bar, ph, ink(t[j]))
            mk = self.marks[j]
            if mk:
                d.rect(w - 1, y, 1, ph, P.OK if mk == 1 else P.NOTICE)
            if j == self.height and on:
                d.rect(0, y, 1, ph, P.HILITE)
        # more above or below than fits: a grey dot at that end
        if self.low > 0:
            d.pixel(0, h - 1, P.DIM)
        if n - self.low > vis:
            d.pixel(0, 0, P.DIM)

    def _menu(self, d):
        d.fill(P.OFF)
        self.label.draw(d)
        # which item: a dot each along the bottom, the chosen one lit
        n = self.nitems
        sp = self.w // n
        s = 2 if self.big else 1
        for i in range(n):
            c = P.TEXT if i == self.item else P.DIM
            d.rect(i * sp + (sp - s) // 2, self.h - s, s, s, c)
        # the player to move's colour along the top
        p = self.state.to_move()
        if p >= 0:
            d.rect(0, 0, self.w, 1, seat_ink(p))

    def _score_page(self, d):
        """One seat's score (or the ghost's), in its colour; a band along
        the top (dotted for the ghost), dots along the bottom for the
        pages, the one shown lit."""
        d.fill(P.OFF)
        st = self.state
        i = self.page
        c = seat_ink(i)
        ghost = i >= st.players
        w = self.w
        band = 2 if self.big else 1
        for x in range(0, w, 2 if ghost else 1):
            d.rect(x, 0, 1, band, c)
        sc = self.scores[i]
        if self.big:
            if ghost:
                font.draw_char(d, "G", 6, 3, c)
            else:
                x = (w - 4 - font.number_width(i + 1)) // 2
                font.draw_char(d, "P", x, 3, c)
                font.draw_number(d, i + 1, x + 4, 3, c)
            C.num_right(d, sc, (w + font.number_width(sc)) // 2 - 1, 9, c)
        else:
            C.num_right(d, sc, 6 if sc >= 100 else
                            (w + font.number_width(sc)) // 2 - 1, 2, c)
        n = st.stashes
        s = self.cs
        for j in range(n):
            d.rect(j * 2 * s, self.h - s, s, s,
                   seat_ink(j) if j == i else P.DIM)

    def _end(self, d):
        """The winner (a shared win: each in turn) framed in their colour;
        16x16 adds their score under the number."""
        d.fill(P.OFF)
        if not self.nwin:
            return
        p = self.win[self.page % self.nwin]
        c = seat_ink(p)
        n = p + 1
        lit = self.phase < 0 or not self.phase & 1
        if not self.big:
            if lit:
                border(d, c, 1)
            centre_number(d, n, 1, c)
            return
        if lit:
            border(d, c, 1)
        x = (self.w - font.ADVANCE - font.number_width(n)) // 2
        font.draw_char(d, "P", x, 2, c)
        font.draw_number(d, n, x + font.ADVANCE, 2, c)
        sc = self.scores[p]
        font.draw_number(d, sc, (self.w - font.number_width(sc)) // 2, 9, P.TEXT)
