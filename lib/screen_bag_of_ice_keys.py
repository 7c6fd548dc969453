"""Bag of Ice on the LEDs, part 2 of 6: after an effect, the hand-off,
and the keys (lib/screen_bag_of_ice.py has the rest of the story)."""

from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B
from engine.state import OVER
from engine.bag_of_ice import ROLLOFF, ROLL, CHOOSE, DRAW, DONE
from lib.screen_bag_of_ice_core import (Core, TURN, PICK, ROLLING, FACE, SHAKE,
                                        BUST, ASK, BANKED, ODDS, SCORES, END,
                                        _LO, _HI, _BAG_COLS)


class Keys(Core):
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
                app.refuse()      # nothing to bank yet (the flash redraws)
                return False
            self.mode = ASK
            self.t0 = app.now
            return True
        if m == PICK:
            if k == DOWN:
                return self._board(PICK)
            if not self._mine():
                return False
            if k == LEFT or k == RIGHT:
                # the half already chosen: nothing to draw
                n = 1 if k == RIGHT else 0
                if n == self.sel:
                    return False
                self.sel = n
                return True
            if k == A:
                self._pick()
                return True
            if k == B:
                app.refuse()      # a face rolled must be drawn
                return False
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
