"""Bag of Ice on the LEDs, part 4 of 6: the turn, the two-size choice, the
die, the bust text and the odds, as pictures."""

from lib import palette as P
from lib import font
from lib.screen_bag_of_ice_core import (BANKED, ASK, TURN, FACE, ROLLING, _LO,
                                        _HI, _BAG_COLS)
from lib.screen_bag_of_ice_paint import _die, _frame, _pieces, _num_right, _pct


def _turn(self, d, m):
    st = self.st
    p = self.roller if m == BANKED else st.turn
    pc = P.player(p)
    _pieces(self, d, -1)
    blink = self.phase & 1
    score = self.sc[p]
    v = self.value
    if m == ASK:
        c = P.OK if not blink else P.OFF
    elif m == BANKED:
        c = P.OK
    else:
        c = P.TEXT
    late = m == BANKED and self.phase >= 1
    bot = st.is_bot(p)
    if not self.big:
        # the player's colour down the right; dotted for a seat the
        # device plays
        for y in range(3, 8, 2 if bot else 1):
            d.pixel(7, y, pc)
        if late or (m == TURN and not st.drawn):
            _num_right(self, d, score, 6, 3, pc)
        elif m == ASK and v < 10:
            font.draw_number(d, v, 0, 3, c)
            font.draw_char(d, "?", 4, 3, c)
        else:
            _num_right(self, d, v, 6, 3, c)
        return
    for x in range(0, 16, 2 if bot else 1):
        d.pixel(x, 7, pc)
    x = font.draw_number(d, v, 0, 9, c)
    if m == ASK:
        font.draw_char(d, "?", x, 9, c)
    else:
        _num_right(self, d, score, 15, 9, pc)
    t = st.target
    a = score * 16 // t if score < t else 16
    b = (score + (v if m != BANKED else 0)) * 16 // t
    if b > 16:
        b = 16
    d.rect(0, 15, a, 1, pc)
    if b > a:
        d.rect(a, 15, b - a, 1, P.TEXT)
    if b < 16:
        d.rect(b, 15, 16 - b, 1, P.DIM)


def _pick_view(self, d):
    """This turn's pieces, and under them the two sizes: a half each
    (the smaller left), the bag's pyramids of that size three a row,
    the chosen half marked above."""
    st = self.st
    f = st.face
    s = self.s
    _pieces(self, d, -1)
    step = 10 if self.big else 5     # where the right half starts
    top = 10 if self.big else 5
    d.rect(self.sel * step, top - 2 if self.big else top - 1, 3 * s, 1,
           P.HILITE)
    for i in (0, 1):
        size = _HI[f] if i else _LO[f]
        n = 0
        for j in range(5):     # (a for over bytes makes an iterator)
            p = _BAG_COLS[j] << 2 | size
            col = P.piece_code(p)
            for _ in range(st.bag_count(p)):
                d.rect(i * step + (n % 3) * s, top + (n // 3) * s, s, s, col)
                n += 1


def _roll_view(self, d, m):
    c = P.player(self.roller)
    _frame(self, d, c)
    big = self.big
    if m == FACE and self.ro:
        # a roll-off roll: its pip total, in the roller's colour
        n = _LO[self.face] + _HI[self.face]
        font.draw_number(d, n, (d.width - 3) // 2, (d.height - 5) // 2, c)
        return
    # flick may still hold a bag pick from the last draw's shake
    f = self.flick % 6 if m == ROLLING else self.face
    if big:
        _die(d, f, 2, 2, 4)
    else:
        _die(d, f, 1, 1, 2)


def _bust_text(self, d):
    if self.big:
        font.draw(d, "BUST", 0, 9, P.REFUSE)
    else:
        font.draw_number(d, 0, 3, 3, P.REFUSE)


def _odds_view(self, d):
    big = self.big
    b = _pct(self.bust_n, self.bust_d)
    gn = self.gain_n
    gd = self.gain_d
    neg = gn < 0
    if neg:
        gn = -gn
    gc = P.REFUSE if neg else P.OK
    if big:
        font.draw_number(d, b, (16 - font.number_width(b)) // 2, 1, P.REFUSE)
        # expected gain to a tenth (whole when 10 or more)
        t = (20 * gn + gd) // (2 * gd)
        x = 0
        font.draw_char(d, "-" if neg else "+", x, 9, gc)
        x += 4
        if t >= 100:
            font.draw_number(d, (t + 5) // 10, x, 9, gc)
        else:
            x = font.draw_number(d, t // 10, x, 9, gc)
            d.pixel(x, 13, gc)
            font.draw_number(d, t % 10, x + 2, 9, gc)
        return
    if not self.phase & 1:
        d.rect(0, 0, 8, 1, P.REFUSE)
        _num_right(self, d, b if b < 100 else 99, 7, 2, P.REFUSE)
    else:
        d.rect(0, 0, 8, 1, gc)
        g = (2 * gn + gd) // (2 * gd)
        if g < 10:
            font.draw_char(d, "-" if neg else "+", 0, 2, gc)
        _num_right(self, d, g if g < 100 else 99, 7, 2, gc)
