"""Bag of Ice on the LEDs, part 1 of 6 (lib/screen_bag_of_ice.py says what
the screen does): the modes and tables every part reads, and what the
screen makes once and works out once per change.
"""

# The screen is six modules because the app loads a game's screen one
# module a pass (lib/app.py Loading.PARTS): compiled from .py source, a
# module needs about three times its source in free heap while it
# compiles, and a board's heap is mostly taken by then.

from lib import palette as P
from lib import font
from engine.bag_of_ice import ROLL, DRAW

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

BLINK_MS = const(300)

# the screen's modes
TURN = const(0)
PICK = const(1)      # the two-size choice
ROLLING = const(2)
FACE = const(3)
SHAKE = const(4)
REVEAL = const(5)
BUST = const(6)
ASK = const(7)       # stop?
BANKED = const(8)
ODDS = const(9)
SCORES = const(10)
END = const(11)

# pyramid die faces S M L SM SL ML: the sizes shown (low, high; 0 none)
_LO = b"\x01\x02\x03\x01\x01\x02"
_HI = b"\x00\x00\x00\x02\x03\x03"
_FACES = ("S", "M", "L", "SM", "SL", "ML")
_BAG_COLS = b"\x00\x02\x03\x04\x06"     # colours in the bag: r y g c p
_MONO = b"\x02\x06\x04\x03"     # one-colour trees, richest first: y p c g


class Core:
    def __init__(self, app, state):
        self.app = app
        self.st = state
        d = app.d
        self.big = d.width > 8
        self.s = 2 if self.big else 1
        self.mode = TURN
        self.back = TURN         # where ODDS and SCORES return to
        self.t0 = app.now
        self.phase = -1          # flicker/blink counter last drawn
        self.seed = (app.now & 0xFFFF) | 1   # tumble pictures only
        self.flick = 0
        self.owed = -1           # a hand-off to show once an effect ends
        self.rush = False
        self.bot_pick = False    # a bot seat's size shown, not yet played
        self.sel = 0             # PICK: 0 the lower size, 1 the higher
        self.roller = 0          # who rolled (roll-off) or draws now
        self.face = -1           # the face that landed
        self.ro = False          # that roll was a roll-off roll
        self.sc = [0] * state.players   # the scores, copied once per change
        self.piece = 0           # the piece drawn
        self.bust_n = self.bust_d = 0
        self.gain_n = 0
        self.gain_d = 1
        self.need = 0            # ODDS: 2 just asked, 1 worked out, 0 shown
        # the best arrangement of this turn's pieces:
        # trees (L, M, S each) then the leftovers, large first
        self.lay = bytearray(24)    # piece codes
        self.h = bytearray(28)      # a count per piece code (_refresh)
        self.ntrees = 0
        self.nleft = 0
        self.value = 0
        self.pool = bytearray(12)   # the shaken bag's pieces of one size
        self.npool = 0
        self.sy = 0                 # scoreboard scroll (rows)
        self.hold = 0               # scoreboard: pause in scroll steps
        self.a_draw = state.action("draw")
        self.a_stop = state.action("stop")
        self.a_size = bytearray(4)
        for i in (1, 2, 3):
            self.a_size[i] = state.action("size%d" % i)
        self.cols = 2 if self.big else 1
        n = state.players
        self.sh = ((n + self.cols - 1) // self.cols) * 6   # board height
        self.label = font.Scroller(d.width, 9, P.OK)
        # 16x16: a frame that changes many rows is shown over a few passes
        # (show() costs a board ~1.5 ms per changed row); the frame shown
        # and a view of each of its rows and of the frame's, made once
        self.more = False        # the rest of the frame is owed
        # the last picture drawn, whole: a redraw with nothing changed (a
        # refusal flash going on or off) puts it back instead of drawing
        # it again; set by key and tick when they report a change
        self.dirty = True
        self.fr = bytearray(d.width * d.height)
        # a die or bag outcome resolved in this pass, drawn in the next
        # (the engine's chance node and a new picture in one pass made it
        # one of the longest), and the turn's layout worked out while the
        # drawn piece shows (REVEAL), not in the pass that ends it
        self.owe = False
        self.laid = False
        self.hand = -1           # a hand-off whose picture is going up
        self.ho = None
        if self.big:
            n = d.width * d.height
            self.prev = bytearray(n)
            fv = memoryview(d.frame)
            pv = memoryview(self.prev)
            w = d.width
            rows = []
            for y in range(d.height):
                rows.append(fv[y * w:(y + 1) * w])
                rows.append(pv[y * w:(y + 1) * w])
            self.rows = rows
            self.ho = app.common.Handoff(app, 0)
        self._refresh()
        self._settle(app.now)
        # resumed with the die or the bag in the air: the app shows no
        # hand-off at a chance node, so the turn's owner gets one first
        ph = state.phase
        self.late = (n > 1 and (ph == ROLL or ph == DRAW) and
                     not state.is_bot(state.turn))

    # ---- facts, worked out once per change --------------------------------
    def _refresh(self):
        """Lay this turn's pieces out as a best arrangement, in place.

        The engine's value (``turn_points``) counts pips + 4 per tree + a
        bonus per one-colour tree, with min(L, M, S) trees and a one-colour
        tree for every colour that drew all three sizes (one large per
        colour in the bag, so at most one each). This builds exactly that:
        the one-colour trees, richest first, then mixed trees from what
        is left while every size lasts. (engine ``best()`` gives such an
        arrangement too, but it loads a module each call on a board.)"""
        st = self.st
        self.value = st.turn_points()
        h = self.h
        for i in range(28):
            h[i] = 0
        d = st.drawn
        for i in range(len(d)):
            h[d[i]] += 1
        lay = self.lay
        k = 0
        for j in range(4):
            c = _MONO[j] << 2
            if h[c | 1] and h[c | 2] and h[c | 3]:
                for size in (3, 2, 1):
                    h[c | size] -= 1
                    lay[k] = c | size
                    k += 1
        while True:
            # a mixed tree: the first large, medium and small left
            n = k
            for size in (3, 2, 1):
                for j in range(5):
                    p = _BAG_COLS[j] << 2 | size
                    if h[p]:
                        lay[k] = p
                        k += 1
                        break
            if k - n < 3:
                k = n
                break
            for i in range(n, k):
                h[lay[i]] -= 1
        self.ntrees = k // 3
        j = k
        for size in (3, 2, 1):
            for c in range(5):
                p = _BAG_COLS[c] << 2 | size
                for _ in range(h[p]):
                    lay[j] = p
                    j += 1
        self.nleft = j - k
