"""The dice roller: a virtual pyramid, colour, Treehouse or six-sided die.

Controls (one hand, at a table):

* A rolls (a short tumble, then the faces). The faces come from the app's
  seeded generator through the engine's chance nodes.
* LEFT steps back through recent rolls (the pip total turns magenta while
  you look at an old roll); RIGHT steps forward again, B jumps back to the
  latest.
* UP or DOWN opens the die picker: LEFT/RIGHT the kind, UP/DOWN how many
  (1-6); A takes it (remembered in the settings), B keeps the old dice.

Each die is a 3x3 glyph (2x on a 16x16 panel when they fit):

* pyramid: three bars of height 1, 2, 3 for S, M, L; the face's sizes are
  lit, the others grey (``SL`` lights the short and the tall bar);
* colour: a block of the colour; the wild face is a little rainbow;
* Treehouse: a symbol each (TIP a fallen pyramid, SWAP an X, DIG a pit,
  HOP an arch, AIM a cross-hair, WILD a magenta block);
* d6: the usual pips.

Pyramid dice and d6 show the pip total under the dice; on 8x8, where a
die over a digit would touch it (an SL die's tall bar, a d6 "6"), one die
shows with its total beside it, and more dice get a page of their own
with the total on the page after them. When more dice are rolled than fit
the panel they show a page at a time, turning every second.

The tumble plays at the ANIMATION SPEED setting; any key while it plays
lands the dice at once (and does nothing else).

Time per loop pass: a picked die kind or count makes its new engine state
in the pass of the A press (the picker stays up), and the dice are drawn
on the next pass. On 16x16 a frame that changes most rows goes up SPREAD changed
rows a pass (lib.display's ``spread``): show() pays per changed row, and
a whole panel in one pass would make that pass long.
"""

from lib import palette as P
from lib import screens_common as C
from lib import font
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff
from engine.state import CHANCE
from engine.dice import ROLL

KINDS = ("pyramid", "color", "treehouse", "d6")
COUNTS = ("1", "2", "3", "4", "5", "6")
ROLL_MS = 640      # the tumble
SPREAD = 6         # 16x16: changed rows shown per pass at most
FLICK_MS = 80      # a new random face this often while tumbling
PAGE_MS = 1200     # pages turn this often when the dice do not fit

RESULT = 0
ROLLING = 1
SETUP = 2


def _mask(rows):
    m = 0
    for r in rows:
        for ch in r:
            m = (m << 1) | (ch != ".")
    return m


# pyramid faces S M L SM SL ML as bit sets of sizes (bit 0 small)
_PYR = (1, 2, 4, 3, 5, 6)
# colour die faces r y g c p and wild, as engine colour numbers
_COL = (0, 2, 3, 4, 6, -1)
_WILD = bytes((P.piece(0, 3), P.piece(2, 3), P.piece(3, 3),
               P.piece(4, 3), P.TEXT, P.piece(5, 3),
               P.piece(6, 3), P.piece(1, 3), P.piece(0, 3)))
_TREE = (
    (_mask(("x..", "xx.", "xxx")), P.piece(1, 3)),   # TIP
    (_mask(("x.x", ".x.", "x.x")), P.piece(4, 3)),   # SWAP
    (_mask(("x.x", "x.x", "xxx")), P.piece(2, 3)),   # DIG
    (_mask((".x.", "x.x", "x.x")), P.piece(3, 3)),   # HOP
    (_mask((".x.", "xxx", ".x.")), P.piece(0, 3)),   # AIM
    (_mask(("xxx", "xxx", "xxx")), P.HILITE),        # WILD
)
_D6 = (
    _mask(("...", ".x.", "...")),
    _mask(("x..", "...", "..x")),
    _mask(("x..", ".x.", "..x")),
    _mask(("x.x", "...", "x.x")),
    _mask(("x.x", ".x.", "x.x")),
    _mask(("x.x", "x.x", "x.x")),
)
# a pyramid face's bars as a 3x3 mask, by the set of sizes (bit 0 small):
# bar ``col`` is column col, ``col + 1`` dots high from the bottom
_BARS_ON = tuple([sum((1 << (8 - (row * 3 + col)))
                      for col in range(3) if b & (1 << col)
                      for row in range(2 - col, 3)) for b in range(8)])
# what the picker shows for each kind
_SAMPLE = (5, 5, 4, 4)


def draw_face(d, kind, f, x, y, s):
    """Face ``f`` (0..5) of a die of kind ``kind`` (index in KINDS) as a
    3x3 glyph at (x, y), each dot ``s`` pixels square."""
    if kind == 0:
        # three bars: the face's sizes lit, the others grey
        bits = _PYR[f]
        d.mask(_BARS_ON[bits], 3, 3, x, y, P.TEXT, s)
        d.mask(_BARS_ON[7 ^ bits], 3, 3, x, y, P.DIM, s)
        return
    if kind == 1:
        col = _COL[f]
        if col < 0:
            d.blit(_WILD, 3, 3, x, y, s)
        else:
            d.mask(0x1FF, 3, 3, x, y, P.piece(col, 3), s)
        return
    if kind == 2:
        d.mask(_TREE[f][0], 3, 3, x, y, _TREE[f][1], s)
    else:
        d.mask(_D6[f], 3, 3, x, y, P.TEXT, s)


class Screen(C.Screen):
    def __init__(self, app, state):
        C.Screen.__init__(self, app, state)
        self.mode = RESULT
        self.back = 0          # 0: the latest roll; n: n rolls before it
        self.page = 0
        self.since = app.now
        self.phase = 0
        self.seed = (app.now & 0xFFFF) | 1   # tumble pictures only
        self.tumble = bytearray(6)
        self.kind = 0          # picker
        self.count = 1
        self.big = app.d.width > 8
        self.skip = False      # a key while tumbling: land the dice now
        self.later = 0         # a new state's first frame: 1 made in this
                               # pass, 2 to draw in this one
        # a roll saved while its dice were still falling lands now
        while state.to_move() == CHANCE:
            app.chance()
        self._layout()

    def _layout(self):
        """Where the dice go for this panel, die kind and count."""
        st = self.state
        d = self.app.d
        w = d.width
        h = d.height
        self.kind_i = KINDS.index(st.die)
        self.pips = st.die == "pyramid" or st.die == "d6"
        # where the total goes: under the dice (16x16), or on 8x8 beside a
        # single die or on a page of its own after the dice
        self.total_x = -1          # centred
        self.total_y = h - 5
        self.total_page = -1       # the page showing only the total, or -1
        if self.pips and h <= 8 and st.count == 1:
            self.scale = 1
            self.per_page = self.cols = self.pages = 1
            self.left = 0
            self.top = 2
            self.step = 5
            self.total_x = 5
            self.total_y = 1
            return
        # the pip total takes the bottom 5 rows (and a blank row on 16x16)
        ah = h - (5 + 1 if self.pips and h > 8 else 0)
        gap = 2
        for s in (2, 1):
            if s == 2 and w < 16:
                continue
            g = 3 * s
            cols = (w + gap) // (g + gap)
            rows = (ah + gap) // (g + gap)
            if cols * rows >= st.count or s == 1:
                break
        self.scale = s
        self.per_page = cols * rows
        n = min(st.count, self.per_page)
        self.cols = min(cols, n)
        used_rows = (n + self.cols - 1) // self.cols
        g = 3 * s
        self.left = (w - (self.cols * g + (self.cols - 1) * gap)) // 2
        th = used_rows * g + (used_rows - 1) * gap
        self.top = (ah - th) // 2
        self.step = g + gap
        self.pages = (st.count + self.per_page - 1) // self.per_page
        if self.pips and h <= 8:
            self.total_page = self.pages
            self.total_y = 1
            self.pages += 1

    # ---- keys ----------------------------------------------------------------
    def save_view(self):
        """bytes: none; the frame follows from the state."""
        return b""

    def load_view(self, data):
        pass

    def key(self, k):
        if self.mode == ROLLING:
            self.skip = True       # landed in the next tick
            return False
        if self.mode == SETUP:
            return self._setup_key(k)
        app = self.app
        st = self.state
        if k == A:
            # the dice land one per loop pass while they tumble (see tick),
            # so the press itself answers quickly
            app.play(ROLL)
            self.mode = ROLLING
            self.back = 0
            self.page = 0
            self.phase = -1
            self.since = app.now
            return True
        if k == LEFT:
            if self.back >= len(st.past) or not st.rolled:
                app.refuse()
            else:
                self.back += 1
                self.page = 0
            return True
        if k == RIGHT:
            if not self.back:
                app.refuse()
            else:
                self.back -= 1
                self.page = 0
            return True
        if k == B:
            if self.back:
                self.back = 0
                return True
            return False
        if k == UP or k == DOWN:
            self.mode = SETUP
            self.kind = self.kind_i
            self.count = st.count
            return True
        return False

    def _setup_key(self, k):
        app = self.app
        if k == LEFT or k == RIGHT:
            self.kind = (self.kind + (1 if k == RIGHT else 3)) % 4
            return True
        if k == UP or k == DOWN:
            c = self.count + (1 if k == UP else -1)
            if 1 <= c <= 6:
                self.count = c
            else:
                app.refuse()
            return True
        if k == A:
            st = self.state
            self.mode = RESULT
            self.since = app.now
            if KINDS[self.kind] != st.die or self.count != st.count:
                die = KINDS[self.kind]
                cnt = COUNTS[self.count - 1]
                # this pass makes the state, the next draws it
                self.state = app.restart({"die": die, "count": cnt}, False)
                app.settings.set("dice.die", die)
                app.settings.set("dice.count", cnt)
                self.back = 0
                self.page = 0
                self._layout()
                self.later = 1
                return False
            return True
        if k == B:
            self.mode = RESULT
            return True
        return False

    # ---- time ----------------------------------------------------------------
    def tick(self, now):
        if self.later == 1:
            self.later = 2         # made in this pass: drawn in the next
            return False
        if self.later:
            return True
        dt = ticks_diff(now, self.since)
        if self.mode == ROLLING:
            st = self.state
            if self.skip:
                dt = ROLL_MS
            elif dt < 60000:
                dt = dt * self.app.speed >> 2    # the ANIMATION SPEED
            if dt >= ROLL_MS:
                self.skip = False
                while st.to_move() == CHANCE:
                    self.app.chance()
                self.mode = RESULT
                self.since = now
                return True
            if dt > 0 and st.to_move() == CHANCE:
                # one die lands per pass, from the pass after the press
                # (that one has the roll itself and a whole redraw)
                self.app.chance()
            p = dt // FLICK_MS
            if p != self.phase:
                self.phase = p
                x = self.seed
                for i in range(6):
                    # ZX81's LCG: small ints only, nothing allocated
                    x = (x * 75 + 74) % 65537
                    self.tumble[i] = x % 6
                self.seed = x
                return True
            return False
        if self.mode == RESULT and self.pages > 1 and dt >= PAGE_MS:
            self.since = now
            self.page = (self.page + 1) % self.pages
            return True
        return False

    # ---- drawing -------------------------------------------------------------
    def draw(self, d):
        self.later = 0
        if self.big:
            d.spread(SPREAD)
        d.fill(P.OFF)
        if self.mode == SETUP:
            self._draw_setup(d)
            return
        st = self.state
        if self.mode == ROLLING:
            self._dice(d, self.tumble, st.count, 0)
            return
        if self.back:
            roll = st.past[len(st.past) - self.back]
        else:
            roll = st.rolled
        if not roll:
            # not rolled yet: grey squares where the dice will land
            g = 3 * self.scale
            for i in range(min(st.count, self.per_page)):
                d.rect(self.left + (i % self.cols) * self.step,
                       self.top + (i // self.cols) * self.step, g, g, P.DIM)
            return
        if self.page != self.total_page:
            self._dice(d, roll, len(roll), self.page * self.per_page)
        if self.pips and (self.total_page < 0 or self.page == self.total_page):
            c = P.HILITE if self.back else P.TEXT
            n = st.pips(roll)
            x = self.total_x
            if x < 0 or n > 9:
                x = (d.width - font.number_width(n)) // 2
            font.draw_number(d, n, x, self.total_y, c)
        if self.back and d.width > 8:
            # how far back: a dot per remembered roll down the right edge
            for i in range(len(st.past)):
                d.pixel(d.width - 1, i, P.HILITE if i == self.back - 1 else P.DIM)

    def _dice(self, d, faces, n, first):
        k = self.kind_i
        s = self.scale
        step = self.step
        for j in range(min(self.per_page, n - first)):
            draw_face(d, k, faces[first + j], self.left + (j % self.cols) * step,
                      self.top + (j // self.cols) * step, s)

    def _draw_setup(self, d):
        big = d.width > 8
        s = 2 if big else 1
        draw_face(d, self.kind, _SAMPLE[self.kind], 1 if big else 0, 1, s)
        font.draw_number(d, self.count, d.width - 4 if not big else 10,
                         1 if not big else 2, P.HILITE)
        # which kind: four dots, the chosen one lit
        y = d.height - 1
        sp = d.width // 4
        for i in range(4):
            c = P.TEXT if i == self.kind else P.DIM
            d.rect(i * sp + (sp - s) // 2, y - s + 1, s, s, c)
