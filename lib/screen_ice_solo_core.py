"""Ice Solo on the LEDs, the core, part 2 of 3 (lib/screen_ice_solo.py
says what the screen does and puts the parts together): what the screen
makes when it opens, the layout of the field or the grid, picking a piece
up, the facts worked out once per move, and the hint worked out over
several passes.

Each part holds plain functions named as the Screen's methods they
become (lib/screen_ice_solo_parts.py says why the screen is in parts).
"""

from lib import palette as P
from lib import font
from engine.state import CHANCE, cold
from engine.ice_solo import END, REMIX, P_TOWER, top_locked
from lib.screen_ice_solo_paint import ALL

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# The hint module, loaded with the screen and kept while the game is
# played: loading it takes a pass ~30 ms of a board's time even from .mpy
# (and ~200 ms to compile from .py), more than a pass of play may take.
# The app compiles or loads it in a pass of its own before the screen's
# parts (it is first in PARTS), so here it is found in sys.modules.
# Through engine.state.cold, so on a board with .mpy files only this
# reference keeps it (~2.7 KB), and it goes with the screen when the game
# is left; from .py it stays compiled, as cold keeps such modules.
_HINT = cold("engine.ice_solo_hint")

# the screen's modes and menu items: the same numbers in every part
# (inlined; tests/test_screen_ice_solo.py checks that the parts agree)
_BOARD = const(0)
_MENU = const(1)
_M_MIX = const(2)
_M_END = const(5)

_HALF = const(13)   # a hint's moves: from the cells before this, then after


def __init__(self, app, state):
    self.app = app
    self.st = state
    d = app.d
    n = d.width * d.height
    self.dest = bytearray(64)   # 1: the held piece may go there
    self.dl = bytearray(64)     # the cells it may go to, a list
    self.nd = 0
    self.held = -1              # board cell index of the held piece
    self.sug = -1               # a hint's suggested destination
    self.cur = 0
    self.mode = _BOARD
    self.item = 0
    self.phase = -1             # the blink counter last drawn
    self.think = 0              # hint passes left (see _thinking)
    self.ha = -1                # the hint, once worked out
    self.hm = None              # the hint module, while it is needed
    self.hf = None              # and the first half's facts
    self.pend = False           # the score text is to be made
    self.hold = True            # keep the frame this pass (see draw)
    self.scroll = font.Scroller(d.width, 1 if d.height <= 8 else 5,
                                P.TEXT)
    self.text_for = -1          # what the scroller holds (a mode tag)
    self.tot = 0                # facts worked out once per change of
    self.due = False            # the history (not every frame): the
    self.live = True            # total, style judgement due, player
    self.tot_at = -1            # to move; at this history length
    self.pc = bytearray(36)     # piece code -> palette index
    b = P.piece(0, 1) - 1       # (as P.piece_code, without 27 calls)
    for p in range(36):
        if p & 3:
            self.pc[p] = b + (p >> 2) * 3 + (p & 3)
    self.at = bytearray(64)     # board cell -> its frame index
    # the board with the side, per half of the blink (16x16: one frame,
    # nothing there blinks); the side never overlaps a cell
    b = bytearray(n)
    self.bs = (b, b) if d.width >= 16 else (b, bytearray(n))
    self.todo = bytearray(64)   # 1: the cell is to be drawn again
    self.cl_key = -1            # the game the cells show
    self.cl_st = None
    self.dirty = True
    self.bs_cur = -1            # the cursor the side shows (-1: redo)
    self.big = d.width >= 16
    self.more = False           # a redraw is owed (see draw)
    while state.to_move() == CHANCE:
        app.chance()
    self._layout()


# ---- geometry -----------------------------------------------------------
def _layout(self):
    st = self.st
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
    W = self.app.d.width
    px = self.px
    for i in range(self.bw * self.bh):
        self.at[i] = (i // self.bw) * px * W + (i % self.bw) * px
    # draw everything again
    self.todo[:] = ALL
    z = bytes(len(self.bs[0]))
    self.bs[0][:] = z
    self.bs[1][:] = z
    self.dirty = True
    self.bs_cur = -1


def _check_phase(self):
    # follow the game from towering into nesting
    if (self.st.phase == P_TOWER) != self.field:
        self.held = -1
        self._layout()


# ---- picking up ---------------------------------------------------------
def _pick(self, i):
    """Mark where the piece at ``i`` may go; False if nowhere."""
    st = self.st
    dest = self.dest
    dl = self.dl
    for j in range(self.nd):
        dest[dl[j]] = 0
    self.nd = 0
    n = 0
    if self.field:
        for m in st._tower_moves(False, i):     # this piece's moves
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
        w = self.bw
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
    self.nd = n
    if not n:
        return False
    self.held = i
    return True


# ---- facts once per move ------------------------------------------------
def _facts(self):
    """Refresh the total, whether the style judgement is due and whether
    the player is to move, once per change of the history, so a frame or
    a key press repeats none of that work."""
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


# ---- the hint -----------------------------------------------------------
def _thinking(self):
    """One pass of the hint, so that no pass does two of these: the press
    shows the thinking dots; the next pass takes up the hint module
    (loaded with the screen: see _HINT); the next works out the cells'
    values, the next two the moves from the first and the last cells
    (towering: the first move of a small, then, if there is none, of a
    medium); the last picks up the suggested piece."""
    t = self.think
    self.think = t - 1
    st = self.st
    if t == 6:
        return
    if t == 5:
        self.hm = _HINT
        return
    m = self.hm
    if t == 4:
        # as State.hint, over three passes
        self.ha = -1
        if st.to_move() != 0 or st.style_due():
            self.think = 1
        elif self.field:
            self.ha = m.tower_part(st, True)
            if self.ha >= 0:
                self.think = 1
        else:
            m._lines(st.width)          # its table, made once
            self.hf = m.cells(st)
            return
    elif t == 3:
        if self.field:
            a = m.tower_part(st, False)
            self.ha = REMIX if a < 0 else a
            self.think = 1
        else:
            m.moves(st, self.hf, 0, _HALF)
            return
    elif t == 2:
        self.ha = m.moves(st, self.hf, _HALF, 99)
    if self.think == 1:
        self.hm = None
        self.hf = None
        return
    if t > 1:
        return
    a = self.ha
    if a < 0 or a == END:
        self._open_menu(_M_END)
    elif a == REMIX:
        self._open_menu(_M_MIX)
    else:
        s = a >> 6
        t = a & 63
        if not self.field:
            s = (s >> 3) * self.bw + (s & 7)
            t = (t >> 3) * self.bw + (t & 7)
        if self._pick(s):
            self.sug = t
            self.cur = t
            self.hold = self.field      # (see key: a towering pick)
