"""Ice Solo on the LEDs, the keys, part 3 of 3 (lib/screen_ice_solo.py
says what they do): the keys on the board, in the menu and on the texts (score,
style question, the end), and undo.
"""

from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B
from engine.state import OVER
from engine.ice_solo import END, REMIX, STYLE_YES, STYLE_NO

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# the screen's modes and menu items: the same numbers in every part
# (inlined; tests/test_screen_ice_solo.py checks that the parts agree)
_BOARD = const(0)
_MENU = const(1)
_GRIDVIEW = const(2)
_TEXT = const(3)          # scrolling text: score, style question, the end
_M_HINT = const(0)
_M_UNDO = const(1)
_M_MIX = const(2)
_M_GRID = const(3)
_M_SCORE = const(4)
_M_END = const(5)
NAMES = ("HINT", "UNDO", "MIX", "GRID", "SCORE", "END")


def key(self, k):
    st = self.st
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
        elif self.field:
            self.hold = True    # the moves' lines of sight: enough
        return True
    if self.cur == self.held:
        self.held = -1
        self.sug = -1
        return True
    if not self.dest[self.cur]:
        # not a green cell: refused here, with no move to try (the
        # engine's reasons are words, loaded for one call)
        app.refuse()
        return True
    s = self.held
    # a move of ours changes two cells: only they are drawn again
    # (anything else that changes the game draws every cell)
    mine = (self.cl_st is st and
            self.cl_key == len(st.hist) * 64 + (st.undos & 63))
    t = self.cur
    if not self.field:      # grid cells -> the engine's 8-wide numbers
        w = self.bw
        s = (s // w) * 8 + s % w
        t = (t // w) * 8 + t % w
    if app.play(s * 64 + t):
        s = self.held
        if mine:
            self.cl_key = len(st.hist) * 64 + (st.undos & 63)
            self.todo[s] = 1
            self.todo[self.cur] = 1
            self.dirty = True
        self.hold = True
        self.held = -1
        self.sug = -1
        self._check_phase()
        if st.to_move() == OVER:
            self._end_text()
    return True


def _items(self):
    """Bit set of the menu items offered now."""
    st = self.st
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
        self.think = 6          # see the core part's _thinking
    elif it == _M_UNDO:
        self._undo()
    elif it == _M_MIX:
        app.play(REMIX)
        self.hold = True
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
    self.hold = True            # drawn in the next pass
    self.held = -1
    self.sug = -1
    self._check_phase()


# ---- text: score, style, the end ------------------------------------------
def _score_text(self, final):
    """The score breakdown (``final``: at the end), scrolling: the text is
    made in the next pass and drawn in the one after, so the press (which
    may end the game) does no more."""
    self.mode = _TEXT
    self.text_for = 2 if final else 1
    self.pend = True
    self.hold = True


def _make_text(self):
    b = self.st.breakdown()
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
