"""Bag of Ice on the LEDs: one device passed round the table, 1 to 12
players, any seat played by the device (``bots=``).

On your turn A draws (the die tumbles and lands, the bag shakes, the piece
comes out; keys wait meanwhile, so a second press never draws twice). On a
two-size face LEFT/RIGHT pick the size (each half shows that size's
pyramids left in the bag) and A draws. B asks to stop (the value blinks
green with a ``?``): A banks it, anything else plays on. UP shows the odds
of one more draw (bust chance in percent, expected gain), DOWN the
scoreboard (scrolls when it does not fit). docs/games/bag-of-ice.md
describes every picture.

The turn view lays the pieces out as a best arrangement worked out here
(see ``_refresh``) and shows the engine's value. Effects (bust, bank, the
roll-off's last roll) play before the hand-off (``handoff_later``).
"""

from lib import palette as P
from lib import font
from lib import screen_bag_of_ice_draw as _d
from lib.screen_bag_of_ice_draw import (TURN, PICK, ROLLING, FACE, SHAKE, REVEAL,
                                        BUST, ASK, BANKED, ODDS, SCORES, END,
                                        BLINK_MS, _LO, _HI, _FACES, _BAG_COLS,
                                        _MONO)
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff
from engine.state import OVER, release
from engine.bag_of_ice import ROLLOFF, ROLL, CHOOSE, DRAW, DONE

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

ROLL_MS = const(600)      # the die tumbles
FLICK_MS = const(80)      # a new face or piece this often while moving
FACE_MS = const(650)      # the face shows
SHAKE_MS = const(550)     # the bag shakes
REVEAL_MS = const(900)    # the drawn piece shows
BUST_MS = const(1800)     # the bust effect
BANKED_MS = const(1600)   # the stop effect (value, then the new score)
BOT_MS = const(700)       # a bot seat's pace
SCROLL_MS = const(110)    # the scoreboard moves a row this often
PAGE_MS = const(1500)     # 8x8 odds: bust chance and gain take turns
RUSH_MS = const(60)       # a hurried roll-off


class Screen:
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

    def _odds(self):
        """Both figures, from one odds computation in the engine, in the
        pass of the UP press; the view is drawn in the next pass (on a
        board the two together would make one pass too long)."""
        o = self.st.odds()
        b = o[0]
        g = o[1]
        self.bust_n = b[0]
        self.bust_d = b[1]
        self.gain_n = g[0]
        self.gain_d = g[1]

    def _settle(self, now):
        """After an effect (or when opened): the view for the state now,
        and the hand-off owed, if it is still that player's turn."""
        st = self.st
        self.t0 = now
        self.phase = -1
        self.bot_pick = False
        self._scores_now()
        p = st.to_move()
        ph = st.phase
        if p == OVER or ph == DONE:
            self.mode = END
            self.label.set("TURNS" if st.players == 1 else "WINS", now)
        elif ph == ROLLOFF or ph == ROLL:
            self.mode = ROLLING
            self.roller = st.turn
        elif ph == DRAW:
            self._shake()
        elif ph == CHOOSE:
            self.mode = PICK
            self.sel = 0
        else:
            self.mode = TURN
        o = self.owed
        self.owed = -1
        if o >= 0 and o == p:
            if self.big:
                # its picture first, a few rows a pass (see _d.draw); the
                # app's hand-off screen takes over in the pass after
                self.hand = o
            else:
                self.app.handoff(o)

    def _scores_now(self):
        sc = self.st.scores()
        for i in range(len(sc)):
            self.sc[i] = sc[i]

    def _shake(self):
        st = self.st
        size = st.size
        n = 0
        for j in range(5):
            p = _BAG_COLS[j] << 2 | size
            for _ in range(st.bag_count(p)):
                if n < len(self.pool):
                    self.pool[n] = p
                    n += 1
        self.npool = n
        self.roller = st.turn
        self.mode = SHAKE

    def handoff_later(self, p):
        """The app's question before a hand-off (see lib.app): never to a
        seat the device plays; after the effect playing now."""
        if self.st.is_bot(p):
            return True
        m = self.mode
        if ROLLING <= m <= BUST or m == BANKED:
            self.owed = p
            return True
        return False

    def _mine(self):
        """A person's decision is due now (not a bot's, not chance)."""
        st = self.st
        p = st.to_move()
        return p >= 0 and not st.is_bot(p)

    # ---- keys ----------------------------------------------------------------
    def key(self, k):
        if self.hand >= 0:
            return False       # the hand-off is being put up
        m = self.mode
        app = self.app
        st = self.st
        if m == TURN:
            if k == UP:
                # the figures are worked out in this pass's tick and shown
                # in the next one: the turn view stays up until then
                self.need = 2
                self.back = TURN
                self.mode = ODDS
                self.t0 = app.now
                self.phase = 0
                return False
            if k == DOWN:
                return self._board(TURN)
            if not self._mine() or (k != A and k != B):
                return False
            if k == A:
                if app.play(self.a_draw):
                    self.mode = ROLLING
                    self.roller = st.turn
                    self.t0 = app.now
                    self.phase = -1
                return True
            if not st.drawn:
                app.refuse()      # nothing to bank yet
                return True
            self.mode = ASK
            self.t0 = app.now
            return True
        if m == PICK:
            if k == DOWN:
                return self._board(PICK)
            if not self._mine():
                return False
            if k == LEFT or k == RIGHT:
                self.sel = 1 if k == RIGHT else 0
                return True
            if k == A:
                self._pick()
                return True
            if k == B:
                app.refuse()      # a face rolled must be drawn
                return True
            return False
        if m == ASK:
            if k == A:
                self._stop()
            else:
                self.mode = TURN
            return True
        if m == ODDS:
            self.mode = self.back
            return True
        if m == SCORES:
            if k == UP or k == DOWN:
                top = self.sh - app.d.height
                if top > 0:
                    y = self.sy + (6 if k == DOWN else -6)
                    self.sy = 0 if y > top else (top if y < 0 else y)
                    self.hold = 12
                return True
            if k == A or k == B:
                self.mode = self.back
                self.t0 = app.now
                return True
            return False
        if m == END:
            if k == A or k == DOWN:
                return self._board(END)
            return False
        if m == ROLLING or m == FACE:
            if k == A and st.phase == ROLLOFF:
                self.rush = True
        return False

    def _board(self, back):
        self.back = back
        self.mode = SCORES
        self.sy = 0
        self.hold = 10
        self.t0 = self.app.now
        self.phase = -1
        return True

    def _pick(self):
        st = self.st
        f = st.face
        size = _HI[f] if self.sel else _LO[f]
        if self.app.play(self.a_size[size]):
            self._shake()
            self.t0 = self.app.now
            self.phase = -1

    def _stop(self):
        # the effect shows the arrangement worked out before the stop
        self.mode = BANKED
        self.roller = self.st.turn
        self.t0 = self.app.now
        self.phase = -1
        if not self.app.play(self.a_stop):
            self.mode = TURN
        self._scores_now()

    # ---- time ----------------------------------------------------------------
    def tick(self, now):
        h = self.hand
        if h >= 0 and not self.more:
            self.hand = -1
            self.app.handoff(h)
            return True
        r = self._tick(now)
        if self.more:
            # the rest of a frame spread over passes (see _d.draw)
            self.more = False
            return True
        return r

    def _tick(self, now):
        m = self.mode
        st = self.st
        app = self.app
        if self.late:
            if self.late is True:
                self.late = 1
                app.handoff(st.turn)
                return True
            self.late = False
            self.t0 = now       # the animation starts once they look
        dt = ticks_diff(now, self.t0)
        if m == ROLLING:
            if dt >= (RUSH_MS if self.rush else ROLL_MS):
                self.roller = st.turn
                self.ro = st.phase == ROLLOFF
                a = app.chance()
                if a < 0:
                    self._settle(now)
                    return True
                self.face = _FACES.index(st.token(a))
                self.mode = FACE
                self.t0 = now
                return True
            return self._flick(dt, 6)
        if m == FACE:
            if dt >= (RUSH_MS if self.rush else FACE_MS):
                if st.phase != ROLLOFF:
                    self.rush = False
                self._settle(now)
                return True
            return False
        if m == SHAKE:
            if dt >= SHAKE_MS:
                a = app.chance()
                if a < 0:
                    self._settle(now)
                    return True
                self.piece = st.drawn[len(st.drawn) - 1] if st.drawn else st.last_bust
                self.mode = REVEAL
                self.t0 = now
                return True
            return self._flick(dt, self.npool or 1)
        if m == REVEAL:
            if dt >= REVEAL_MS:
                if st.drawn:
                    self._refresh()
                    self._settle(now)
                else:
                    self.mode = BUST
                    self.t0 = now
                    self.phase = -1
                return True
            return False
        if m == BUST:
            if dt >= BUST_MS:
                self._refresh()
                self._settle(now)
                return True
            return self._blink(dt // 150)
        if m == BANKED:
            if dt >= BANKED_MS:
                self._refresh()
                self._settle(now)
                return True
            return self._blink(dt * 2 // BANKED_MS)
        if m == TURN or m == PICK:
            if self._mine() or st.to_move() < 0:
                return False
            if dt < BOT_MS:
                return False
            self.t0 = now
            a = st.bot_move()
            if a is None:
                return False
            if m == PICK:
                if not self.bot_pick:
                    # show the bot's pick for a moment before drawing
                    self.bot_pick = True
                    self.sel = 1 if a == self.a_size[_HI[st.face]] else 0
                    return True
                self._pick()
                return True
            if a == self.a_stop:
                self._stop()
            elif app.play(a):
                self.mode = ROLLING
                self.roller = st.turn
                self.phase = -1
            return True
        if m == ASK or m == END:
            return self._blink(dt // BLINK_MS) | (m == END and self.big and
                                                 self.label.tick(now))
        if m == ODDS:
            if self.need:
                if self.need == 2:
                    self._odds()
                self.need -= 1
                return not self.need
            return not self.big and self._blink(dt // PAGE_MS)
        if m == SCORES:
            ph = dt // SCROLL_MS
            if ph == self.phase:
                return False
            self.phase = ph
            top = self.sh - app.d.height
            ch = ph * SCROLL_MS // BLINK_MS != (ph - 1) * SCROLL_MS // BLINK_MS
            if top > 0:
                if self.hold:
                    self.hold -= 1
                elif self.sy >= top:
                    self.sy = 0
                    self.hold = 10
                else:
                    self.sy += 1
                    if self.sy >= top:
                        self.hold = 14
                    ch = True
            return ch
        return False

    def _flick(self, dt, n):
        p = dt // FLICK_MS
        if p == self.phase:
            return False
        self.phase = p
        # ZX81's generator: small ints only, nothing allocated
        self.seed = (self.seed * 75 + 74) % 65537
        self.flick = self.seed % n
        return True

    def _blink(self, p):
        if p == self.phase:
            return False
        self.phase = p
        return True

    def close(self):
        # leaving the game: the app forgets this module and the engine's;
        # the drawing half is forgotten here
        release("lib.screen_bag_of_ice_draw")

    def draw(self, d):
        _d.draw(self, d)
