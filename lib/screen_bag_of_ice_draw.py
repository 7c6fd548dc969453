"""Bag of Ice on the LEDs, the drawing half: the pictures of
lib/screen_bag_of_ice.py's ``Screen`` (``draw(scr, d)``), the screen's
modes and the tables both halves read. Two modules, so each compiles from
.py source in a smaller heap (the screen was one 780-line module: compiling
it at a game's entry grew a board's heap past its cap).
"""

from lib import palette as P
from lib import font
from lib.buttons import ticks_diff

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

BLINK_MS = const(300)
SPREAD = const(6)    # 16x16: changed rows shown per pass at most

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


def _die(d, f, x, y, s):
    """Die face ``f`` (0..5, or -1 blank) as bars, each dot ``s`` square:
    bar ``c`` (size c + 1) is c + 1 dots high, lit when the face shows
    that size. Written into the frame a row of a bar at a time (mask()
    draws each dot as a rect: the tumbling die's 16x16 frames cost a
    board ~15 ms more that way)."""
    lo = _LO[f] if f >= 0 else 0
    hi = _HI[f] if f >= 0 else 0
    fr = d.frame
    w = d.width
    for c in range(3):
        k = P.TEXT if c + 1 == lo or c + 1 == hi else P.DIM
        i = (y + (2 - c) * s) * w + x + c * s
        if s == 4:
            # (16x16, the tumbling die: unrolled)
            for _ in range((c + 1) * 4):
                fr[i] = k
                fr[i + 1] = k
                fr[i + 2] = k
                fr[i + 3] = k
                i += w
            continue
        for _ in range((c + 1) * s):
            for j in range(i, i + s):
                fr[j] = k
            i += w


def _glyph(d, p, cx, bottom, s):
    """A pyramid seen from the side, centred on ``cx``, base on row
    ``bottom``: 2, 3 or 4 rows high by size (as lib.screen_bag draws it)."""
    c = P.piece_code(p)
    h = (p & 3) + 1
    for r in range(h):
        half = r * s
        d.rect(cx - half, bottom - (h - r) * s + 1, 2 * half + s, s, c)


def _pct(n, d):
    """n/d in whole percent, never 0 unless n is."""
    v = (200 * n + d) // (2 * d)
    return 1 if n and not v else v


# ---- drawing -------------------------------------------------------------
def draw(self, d):
    """The Screen's draw (``self``): the frame for its mode, on 16x16 at
    most SPREAD changed rows of it per pass (see :func:`_spread`)."""
    if self.big:
        self.prev[:] = d.frame    # what the LEDs show now
        if self.hand >= 0:
            # the app's hand-off picture, its first half in this pass
            self.ho.player = self.hand
            self.ho.draw(d)
        else:
            _draw(self, d)
        _spread(self, d)
    else:
        _draw(self, d)


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
    st = self.st
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

def _frame(self, d, c):
    # a one-pixel border: the top and bottom rows, then both sides a row
    # at a time (one loop, not four rects)
    w = d.width
    fr = d.frame
    n = w * d.height
    j = n - w
    for i in range(w):
        fr[i] = c
        fr[j + i] = c
    for i in range(w, j, w):
        fr[i] = c
        fr[i + w - 1] = c

def _pieces(self, d, ink):
    """This turn's trees, a gap, the leftovers (see the module doc)."""
    s = self.s
    lay = self.lay
    x = 0
    k = 0
    for _ in range(self.ntrees):
        for j in range(3):
            d.rect(x, (2 - j) * s, s, s, P.piece_code(lay[k]) if ink < 0 else ink)
            k += 1
        x += s + (1 if self.big else 0)
    if self.ntrees and not self.big:
        x += 1
    for i in range(self.nleft):
        d.rect(x + (i // 3) * s, (2 - i % 3) * s, s, s,
               P.piece_code(lay[k + i]) if ink < 0 else ink)

def _num_right(self, d, n, right, y, c):
    """``n`` ending at column ``right``; on 8x8 a score of 100 or more
    shows its hundreds as a bar left of the last two digits."""
    if n >= 100 and not self.big:
        d.rect(right - 7, y, 1, 5, c)
        font.draw_number(d, n // 10 % 10, right - 6, y, c)
        font.draw_number(d, n % 10, right - 2, y, c)
        return
    font.draw_number(d, n, right + 1 - font.number_width(n), y, c)

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
    st = self.st
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
