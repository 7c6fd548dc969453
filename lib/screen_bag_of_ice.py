# Bag of Ice on the LEDs: one device passed round the table, 1 to 12
# players, any seat played by the device (``bots=``).
#
# On your turn A draws (the die tumbles and lands, the bag shakes, the piece
# comes out; keys wait meanwhile, so a second press never draws twice). On a
# two-size face LEFT/RIGHT pick the size (each half shows that size's
# pyramids left in the bag) and A draws. B asks to stop (the value blinks
# green with a ``?``): A banks it, anything else plays on. UP shows the odds
# of one more draw (bust chance in percent, expected gain), DOWN the
# scoreboard (scrolls when it does not fit). docs/games/bag-of-ice.md
# describes every picture.
#
# The turn view lays the pieces out as a best arrangement worked out on
# the screen (lib/screen_bag_of_ice_core.py ``_refresh``) and shows the
# engine's value. Effects (bust, bank, the roll-off's last roll) play
# before the hand-off (``handoff_later``).
#
# (A comment, not a docstring: compiled from .py source, a long docstring
# is one more large block on the heap while the module compiles.)

from lib import screen_bag_of_ice_draw as _d
from lib.buttons import ticks_diff
from engine.bag_of_ice import ROLLOFF, ROLL  # noqa: F401 (ROLL for the tests)
from lib.screen_bag_of_ice_keys import Keys
# (the modes, for the tests and tools that read them here)
from lib.screen_bag_of_ice_core import (TURN, PICK, ROLLING, FACE, SHAKE,  # noqa: F401
                                        REVEAL, BUST, ASK, BANKED, ODDS,
                                        SCORES, END, BLINK_MS, _HI, _FACES)

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


class Screen(Keys):
    """The game's screen (lib/app.py's contract); its parts are in
    lib/screen_bag_of_ice_core.py (state, modes), _keys.py (keys, after
    an effect) and _draw.py (pictures, with _paint.py and _views.py)."""

    # ---- keys and time: a change they report makes the next draw work
    # the picture out again (``dirty``, see _d.draw) -------------------------
    def key(self, k):
        if Keys.key(self, k):
            self.dirty = True
            return True
        return False

    def tick(self, now):
        h = self.hand
        if h >= 0 and not self.more:
            self.hand = -1
            self.app.handoff(h)
            self.dirty = True
            return True
        r = self._tick(now)
        if r:
            self.dirty = True
        if self.more:
            # the rest of a frame spread over passes (see _d.draw: copied
            # back whole, unless something changed meanwhile)
            self.more = False
            return True
        return r

    def _tick(self, now):
        if self.owe:
            self.owe = False
            return True
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
                self.owe = True
                return False
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
                self.owe = True
                self.laid = False
                return False
            return self._flick(dt, self.npool or 1)
        if m == REVEAL:
            if dt >= REVEAL_MS:
                if st.drawn:
                    if not self.laid:
                        self._refresh()
                    self._settle(now)
                else:
                    self.mode = BUST
                    self.t0 = now
                    self.phase = -1
                return True
            if st.drawn and not self.laid:
                # the piece is up and nothing moves: lay the turn out now
                self._refresh()
                self.laid = True
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
                    ch = True
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

    def draw(self, d):
        _d.draw(self, d)
