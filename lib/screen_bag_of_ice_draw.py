"""Bag of Ice on the LEDs, part 5 of 6: the Screen's ``draw(scr, d)``, the
frame for its mode (16x16: a few changed rows a pass), the scoreboard and
the end."""

from lib import palette as P
from lib import font
from lib.buttons import ticks_diff
from lib.screen_bag_of_ice_core import (TURN, PICK, ROLLING, FACE, SHAKE, REVEAL,
                                        BUST, ASK, BANKED, ODDS, SCORES,
                                        BLINK_MS)
from lib.screen_bag_of_ice_paint import _glyph, _frame, _pieces, _num_right
from lib.screen_bag_of_ice_views import (_turn, _pick_view, _roll_view,
                                         _bust_text, _odds_view)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

SPREAD = const(6)    # 16x16: changed rows shown per pass at most


def draw(self, d):
    """The Screen's draw (``self``): the frame for its mode, on 16x16 at
    most SPREAD changed rows of it per pass (see :func:`_spread`). With
    nothing changed since the last picture (``dirty`` unset: the app
    redraws for a refusal flash going on or off, or on the way back from
    its hand-off) the picture is copied back, not worked out again (a
    two-size view is ~8 ms of a board's pass)."""
    big = self.big
    if big:
        self.prev[:] = d.frame    # what the LEDs show now
    if self.dirty:
        self.dirty = False
        if big and self.hand >= 0:
            # the app's hand-off picture, its first half in this pass
            self.ho.player = self.hand
            self.ho.draw(d)
        else:
            _draw(self, d)
        self.fr[:] = d.frame
    else:
        d.frame[:] = self.fr
    if big:
        _spread(self, d)


def _spread(self, d):
    """Keep the rows past the first SPREAD changed ones as shown and owe
    a redraw: a whole new 16x16 frame (a hand-off, a new view) costs a
    board's show() ~25 ms, so it goes up over three passes."""
    rows = self.rows
    n = 0
    for i in range(0, 2 * d.height, 2):
        if rows[i] != rows[i + 1]:
            n += 1
            if n > SPREAD:
                rows[i][:] = rows[i + 1]
                self.more = True


def _draw(self, d):
    d.fill(P.OFF)
    m = self.mode
    if m == ODDS and self.need:
        m = self.back      # not worked out yet: the view it covers
    if m == TURN or m == ASK or m == BANKED:
        _turn(self, d, m)
    elif m == PICK:
        _pick_view(self, d)
    elif m == ROLLING or m == FACE:
        _roll_view(self, d, m)
    elif m == SHAKE or m == REVEAL:
        c = P.player(self.roller)
        if self.big:
            _frame(self, d, c)
        else:
            d.rect(0, 0, 8, 1, c)
        s = self.s
        p = self.pool[self.flick] if m == SHAKE and self.npool else self.piece
        b = d.height - 1 - (d.height - 4 * s) // 2
        if m == SHAKE:
            b -= (self.phase & 1) * s
        _glyph(d, p, d.width // 2 - 1, b, s)
    elif m == BUST:
        # the lost pieces grey and struck through, a red cross over the
        # panel for a moment, then BUST (8x8: a 0) blinking: after the
        # cross only the text's rows change, and no frame is so red
        # that the power limit has to dim it (each costs a 16x16 pass
        # some 25 ms on the board)
        k = self.phase
        _pieces(self, d, P.DIM)
        d.rect(0, self.s, d.width, self.s, P.REFUSE)
        if k < 3:
            w = d.width
            for i in range(w):
                d.pixel(i, i, P.REFUSE)
                d.pixel(w - 1 - i, i, P.REFUSE)
        elif k & 1:
            _bust_text(self, d)
    elif m == ODDS:
        _odds_view(self, d)
    elif m == SCORES:
        _scores(self, d)
    else:
        _end(self, d)


def _scores(self, d):
    st = self.st
    sc = self.sc
    cols = self.cols
    w = d.width // cols
    # the same clock as tick's redraws (from the view's start), or a redraw
    # can keep landing in the same half of the blink
    lit = self.mode == SCORES and (ticks_diff(self.app.now, self.t0) // BLINK_MS) & 1
    now = st.winner if st.winner >= 0 else st.turn
    t = st.target
    for i in range(st.players):
        y = (i // cols) * 6 - self.sy
        if y <= -6 or y >= d.height:
            continue
        c = P.player(i)
        x = (i % cols) * w
        # under the number, how far to the target (a dot at least)
        n = sc[i] * w // t if sc[i] < t else w
        d.rect(x, y + 5, n if n else 1, 1, c)
        if i != now or lit:
            _num_right(self, d, sc[i], x + w - 1, y, c)


def _end(self, d):
    st = self.st
    w = st.winner if st.winner >= 0 else 0
    c = P.player(w)
    on = not self.phase & 1
    solo = st.players == 1
    n = st.turns if solo else w + 1
    nc = P.TEXT if solo else c
    fc = (P.OK if solo else c) if on else P.OFF
    if self.big:
        # bars above and below: the label is as wide as the panel
        d.rect(0, 0, 16, 1, fc)
        d.rect(0, 15, 16, 1, fc)
        if solo:
            font.draw_number(d, n, (16 - font.number_width(n)) // 2, 2, nc)
        else:
            x = (16 - 4 - font.number_width(n)) // 2
            font.draw_char(d, "P", x, 2, nc)
            font.draw_number(d, n, x + 4, 2, nc)
        self.label.draw(d)
        return
    if n < 10:
        _frame(self, d, fc)
    else:
        d.rect(0, 0, 8, 1, fc)
        d.rect(0, 7, 8, 1, fc)
    if n < 100:
        font.draw_number(d, n, (8 - font.number_width(n)) // 2, 1, nc)
    else:
        _num_right(self, d, n, 7, 1, nc)
