"""Bag of Ice on the LEDs: one device passed round the table, 1 to 12
players, any seat played by the device (``bots=``).

On your turn A draws (the die tumbles and lands, the bag shakes, the piece
comes out; any key meanwhile skips to the piece, and never draws twice:
the effects, bots' turns included, play at the ANIMATION SPEED setting,
and a key skips them all up to your next decision). On a
two-size face LEFT/RIGHT pick the size (each half shows that size's
pyramids left in the bag) and A draws. B asks to stop (the value blinks
green with a ``?``): A banks it, anything else plays on. UP shows the odds
of one more draw (bust chance in percent, expected gain); UP there, or UP
at a two-size face, the advice of the solved policy (two players to 60:
the chance to win if you stop now, draw or stop, the size it would take;
else "no advice"), which never plays for you. DOWN shows the
scoreboard (scrolls when it does not fit). docs/games/bag-of-ice.md
describes every picture.

The turn view lays the pieces out as a best arrangement worked out on the
screen (``_refresh``) and shows the engine's value: trees as columns,
leftovers side by side on the ground (docs/visual-language.md). Effects (bust, bank,
the roll-off's last roll) play before the hand-off (``busy``).
"""

from lib import palette as P
from lib import font
from lib import screens_common as C
from lib.screens_common import piece_glyph
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff
from engine.state import OVER
from engine.bag_of_ice import ROLLOFF, ROLL, CHOOSE, DRAW, DONE

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
ADVICE = const(12)
# pyramid die faces S M L SM SL ML: the sizes shown (low, high; 0 none)
_LO = b"\x01\x02\x03\x01\x01\x02"
_HI = b"\x00\x00\x00\x02\x03\x03"
_FACES = ("S", "M", "L", "SM", "SL", "ML")
_BAG_COLS = b"\x00\x02\x03\x04\x06"     # colours in the bag: r y g c p
_MONO = b"\x02\x06\x04\x03"     # one-colour trees, richest first: y p c g
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


def _die(d, f, x, y, s):
    """Die face ``f`` (0..5, or -1 blank) as bars, each dot ``s`` square:
    bar ``c`` (size c + 1) is c + 1 dots high, lit when the face shows
    that size. Written into the frame a row of a bar at a time, not a
    rect per dot: the tumbling die is redrawn every few passes."""
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


def _pct(n, d):
    """n/d in whole percent, never 0 unless n is."""
    v = (200 * n + d) // (2 * d)
    return 1 if n and not v else v


class Screen(C.Screen):
    """The game's screen (lib/app.py's contract)."""

    def __init__(self, app, state):
        C.Screen.__init__(self, app, state)
        d = app.d
        self.big = d.width > 8
        self.scale = 2 if self.big else 1
        self.mode = TURN
        self.back = TURN         # where ODDS and SCORES return to
        self.since = app.now
        self.phase = -1          # flicker/blink counter last drawn
        self.seed = (app.now & 0xFFFF) | 1   # tumble pictures only
        self.flick = 0
        self.rush = False
        # a key during an effect (a draw, a roll, a bot's turn) skips the
        # effects to their end, up to the next decision a person makes
        self.skip = False
        self.bot_pick = False    # a bot seat's size shown, not yet played
        self.half = 0             # PICK: 0 the lower size, 1 the higher
        self.roller = 0          # who rolled (roll-off) or draws now
        self.face = -1           # the face that landed
        self.was_rolloff = False          # that roll was a roll-off roll
        self.scores = [0] * state.players   # the scores, copied once per change
        self.piece = 0           # the piece drawn
        self.bust_n = self.bust_d = 0
        self.gain_n = 0
        self.gain_d = 1
        self.need = 0            # ODDS, ADVICE: 2 just asked, 1 worked out, 0 shown
        self.advice = None       # ADVICE: the engine's (chance, move), or None
        self.no_advice = font.Scroller(d.width, 1 if self.big else 2, P.REFUSE)
        # the best arrangement of this turn's pieces:
        # trees (L, M, S each) then the leftovers, large first
        self.layout = bytearray(24)    # piece codes
        self.counts = bytearray(28)      # a count per piece code (_refresh)
        self.ntrees = 0
        self.nleft = 0
        self.value = 0
        self.pool = bytearray(12)   # the shaken bag's pieces of one size
        self.npool = 0
        self.scroll_rows = 0                 # scoreboard scroll (rows)
        self.hold = 0               # scoreboard: pause in scroll steps
        self.a_draw = state.action("draw")
        self.a_stop = state.action("stop")
        self.a_size = bytearray(4)
        for i in (1, 2, 3):
            self.a_size[i] = state.action("size%d" % i)
        self.cols = 2 if self.big else 1
        n = state.players
        self.board_rows = ((n + self.cols - 1) // self.cols) * 6   # board height
        self.label = font.Scroller(d.width, 9, P.OK)
        # 16x16: a frame that changes many rows is shown over a few passes
        # (show() pays per changed row); the frame shown
        # and a view of each of its rows and of the frame's, made once
        # the last picture drawn, whole: a redraw with nothing changed (a
        # refusal flash going on or off) puts it back instead of drawing
        # it again; set by key and tick when they report a change
        self.dirty = True
        self.picture = bytearray(d.width * d.height)
        # a die or bag outcome resolved in this pass, drawn in the next
        # (the engine's chance node and a new picture in one pass made it
        # one of the longest), and the turn's layout worked out while the
        # drawn piece shows (REVEAL), not in the pass that ends it
        self.later = False
        self.laid = False
        self._refresh()
        self._settle(app.now)
        # resumed with the die or the bag in the air: the app shows no
        # hand-off at a chance node, so the turn's owner gets one first
        ph = state.phase
        self.late = (n > 1 and (ph == ROLL or ph == DRAW) and
                     not state.is_bot(state.turn))

    # ---- keys and time: a change they report makes the next draw work
    # the picture out again (``dirty``, see draw) ---------------------------
    def save_view(self):
        """bytes: none; the frame follows from the state."""
        return b""

    def load_view(self, data):
        pass

    def key(self, k):
        if self._handle_key(k):
            self.dirty = True
            return True
        return False

    def tick(self, now):
        r = self._tick(now)
        if r:
            self.dirty = True
        return r

    def draw(self, d):
        """The frame for its mode (on 16x16 a few changed rows a pass:
        Display.spread). With nothing changed since the last picture
        (``dirty`` unset: the app redraws for a refusal flash going on or
        off, or on the way back from its hand-off) the picture is copied
        back, not worked out again."""
        if self.dirty:
            self.dirty = False
            self._draw(d)
            self.picture[:] = d.frame
        else:
            d.frame[:] = self.picture
        if self.big:
            d.spread(C.SPREAD)

    def busy(self):
        """The die, the bag or a banked turn is playing: the hand-off
        waits for its end."""
        m = self.mode
        return ROLLING <= m <= BUST or m == BANKED

    # ---- facts, worked out once per change --------------------------------
    def _refresh(self):
        """Lay this turn's pieces out as a best arrangement, in place.

        The engine's value (``turn_points``) counts pips + 4 per tree + a
        bonus per one-colour tree, with min(L, M, S) trees and a one-colour
        tree for every colour that drew all three sizes (one large per
        colour in the bag, so at most one each). This builds exactly that:
        the one-colour trees, richest first, then mixed trees from what
        is left while every size lasts. (The engine's ``best()`` gives
        such an arrangement too; this one reuses the screen's arrays.)"""
        st = self.state
        self.value = st.turn_points()
        h = self.counts
        for i in range(28):
            h[i] = 0
        d = st.drawn
        for i in range(len(d)):
            h[d[i]] += 1
        lay = self.layout
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
        o = self.state.odds()
        b = o[0]
        g = o[1]
        self.bust_n = b[0]
        self.bust_d = b[1]
        self.gain_n = g[0]
        self.gain_d = g[1]

    def _settle(self, now):
        """After an effect (or when opened): the view for the state now,
        and the hand-off owed, if it is still that player's turn."""
        st = self.state
        self.since = now
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
            self.half = 0
        else:
            self.mode = TURN
        if self.mode == END or self._mine():
            self.skip = False     # a person decides now: effects play again

    def _scores_now(self):
        sc = self.state.scores()
        for i in range(len(sc)):
            self.scores[i] = sc[i]

    def _shake(self):
        st = self.state
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

    def _mine(self):
        """A person's decision is due now (not a bot's, not chance)."""
        st = self.state
        p = st.to_move()
        return p >= 0 and not st.is_bot(p)

    # ---- keys ----------------------------------------------------------------
    def _handle_key(self, k):
        m = self.mode
        app = self.app
        st = self.state
        if (ROLLING <= m <= BUST or m == BANKED or
                (m <= PICK and k != UP and k != DOWN and not self._mine())):
            # any key during an effect or a bot's turn: to its end (tick)
            self.skip = True
            return False
        if m == TURN:
            if k == UP:
                # the figures are worked out in this pass's tick and shown
                # in the next one: the turn view stays up until then
                self.need = 2
                self.back = TURN
                self.mode = ODDS
                self.since = app.now
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
                    self.since = app.now
                    self.phase = -1
                return True
            if not st.drawn:
                app.refuse()      # nothing to bank yet (the flash redraws)
                return False
            self.mode = ASK
            self.since = app.now
            return True
        if m == PICK:
            if k == DOWN:
                return self._board(PICK)
            if not self._mine():
                return False
            if k == LEFT or k == RIGHT:
                # the half already chosen: nothing to draw
                n = 1 if k == RIGHT else 0
                if n == self.half:
                    return False
                self.half = n
                return True
            if k == A:
                self._pick()
                return True
            if k == B:
                app.refuse()      # a face rolled must be drawn
                return False
            if k == UP:
                return self._ask_advice(PICK)
            return False
        if m == ASK:
            if k == A:
                self._stop()
            else:
                self.mode = TURN
            return True
        if m == ODDS and k == UP:
            return self._ask_advice(self.back)
        if m == ODDS or m == ADVICE:
            self.mode = self.back
            return True
        if m == SCORES:
            if k == UP or k == DOWN:
                top = self.board_rows - app.d.height
                if top > 0:
                    y = self.scroll_rows + (6 if k == DOWN else -6)
                    self.scroll_rows = 0 if y > top else (top if y < 0 else y)
                    self.hold = 12
                return True
            if k == A or k == B:
                self.mode = self.back
                self.since = app.now
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

    def _ask_advice(self, back):
        # worked out in this pass's tick (the policy's tables may be
        # imported then), shown in the next, as the odds are
        self.need = 2
        self.back = back
        self.mode = ADVICE
        self.since = self.app.now
        self.phase = 0
        return False

    def _board(self, back):
        self.back = back
        self.mode = SCORES
        self.scroll_rows = 0
        self.hold = 10
        self.since = self.app.now
        self.phase = -1
        return True

    def _pick(self):
        st = self.state
        f = st.face
        size = _HI[f] if self.half else _LO[f]
        if self.app.play(self.a_size[size]):
            self._shake()
            self.since = self.app.now
            self.phase = -1

    def _stop(self):
        # the effect shows the arrangement worked out before the stop
        self.mode = BANKED
        self.roller = self.state.turn
        self.since = self.app.now
        self.phase = -1
        if not self.app.play(self.a_stop):
            self.mode = TURN
        self._scores_now()

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
        """This turn's trees, then the leftovers (docs/visual-language.md):
        a tree is a column, large at the bottom, medium, small on top; the
        leftovers lie side by side on the ground row, then on the top row,
        never one on another, so no column of them reads as a tree. On
        16x16 each piece is its size's 2x2 pattern (lib.screens_common),
        the upper row of leftovers a column off the lower one's; on 8x8 a
        pixel (brighter for bigger). ``ink`` >= 0 draws them all in that
        colour (a bust's grey)."""
        s = self.scale
        lay = self.layout
        f = d.frame
        W = d.width
        big = self.big
        x = 0
        k = 0
        for _ in range(self.ntrees):
            for j in range(3):
                p = lay[k]
                c = P.piece_code(p) if ink < 0 else ink
                if big:
                    C.put_cell(f, (4 - 2 * j) * W + x, W, C.GLYPHS[p & 3], c)
                else:
                    f[(2 - j) * W + x] = c
                k += 1
            x += s + (1 if big else 0)
        n = self.nleft
        if not n:
            return
        if not big:
            # 8x8: the ground row (2), then the top row (0), a gap between
            if self.ntrees:
                x += 1
            w = W - x
            for i in range(n):
                c = P.piece_code(lay[k + i]) if ink < 0 else ink
                if i < w:
                    f[2 * W + x + i] = c
                elif i < 2 * w:
                    f[x + i - w] = c
            return
        # 16x16: a gap column between patterns when they fit so, else none;
        # the ground row, the top row (a column off, with gaps), and only
        # when both are full (three trees and seven or more leftovers: a
        # rare turn) the middle row, so that every piece still shows
        step = 3
        if (W - x + 1) // 3 + (W - x) // 3 < n:
            step = 2
        i = 0
        row = 4
        for _ in range(3):
            xx = x + (1 if step == 3 and row == 0 else 0)
            while i < n and xx + 2 <= W:
                p = lay[k + i]
                C.put_cell(f, row * W + xx, W, C.GLYPHS[p & 3],
                           P.piece_code(p) if ink < 0 else ink)
                xx += step
                i += 1
            row = 0 if row == 4 else 2

    def _turn(self, d, m):
        st = self.state
        p = self.roller if m == BANKED else st.turn
        pc = P.player(p)
        self._pieces(d, -1)
        blink = self.phase & 1
        score = self.scores[p]
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
                C.num_right(d, score, 6, 3, pc)
            elif m == ASK and v < 10:
                font.draw_number(d, v, 0, 3, c)
                font.draw_char(d, "?", 4, 3, c)
            else:
                C.num_right(d, v, 6, 3, c)
            return
        for x in range(0, 16, 2 if bot else 1):
            d.pixel(x, 7, pc)
        x = font.draw_number(d, v, 0, 9, c)
        if m == ASK:
            font.draw_char(d, "?", x, 9, c)
        else:
            C.num_right(d, score, 15, 9, pc)
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
        the chosen half marked above (16x16: each by its size's pattern)."""
        st = self.state
        f = st.face
        s = self.scale
        fr = d.frame
        W = d.width
        self._pieces(d, -1)
        step = 10 if self.big else 5     # where the right half starts
        top = 10 if self.big else 5
        d.rect(self.half * step, top - 2 if self.big else top - 1, 3 * s, 1,
               P.HILITE)
        for i in (0, 1):
            size = _HI[f] if i else _LO[f]
            n = 0
            for j in range(5):     # (a for over bytes makes an iterator)
                p = _BAG_COLS[j] << 2 | size
                col = P.piece_code(p)
                for _ in range(st.bag_count(p)):
                    x = i * step + (n % 3) * s
                    y = top + (n // 3) * s
                    if s == 2:
                        C.put_cell(fr, y * W + x, W, C.GLYPHS[size], col)
                    else:
                        fr[y * W + x] = col
                    n += 1

    def _roll_view(self, d, m):
        c = P.player(self.roller)
        self._frame(d, c)
        big = self.big
        if m == FACE and self.was_rolloff:
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
            C.num_right(d, b if b < 100 else 99, 7, 2, P.REFUSE)
        else:
            d.rect(0, 0, 8, 1, gc)
            g = (2 * gn + gd) // (2 * gd)
            if g < 10:
                font.draw_char(d, "-" if neg else "+", 0, 2, gc)
            C.num_right(d, g if g < 100 else 99, 7, 2, gc)

    def _advice_view(self, d):
        # at a decision: the chance to win by stopping now in percent
        # (green) and DRAW or STOP (8x8: the two in turn, D or S); at a
        # two-size face, in magenta as the chosen half, an arrow to the
        # half to take (16x16: and its size's letter)
        a = self.advice
        if a is None:
            self.no_advice.draw(d)
            return
        big = self.big
        mv = a[1]
        size = self._size_of(mv)
        if size:
            arrow = ">" if size == _HI[self.state.face] else "<"
            if big:
                font.draw_char(d, arrow, 6, 1, P.HILITE)
                font.draw_char(d, "S" if size == 1 else ("M" if size == 2 else "L"),
                               6, 9, P.HILITE)
            else:
                d.rect(0, 0, 8, 1, P.HILITE)
                font.draw_char(d, arrow, 2, 2, P.HILITE)
            return
        w = (a[0] * 100 + 127) // 255
        word = "DRAW" if mv == self.a_draw else "STOP"
        if big:
            font.draw_number(d, w, (16 - font.number_width(w)) // 2, 1, P.OK)
            font.draw(d, word, 0, 9, P.TEXT)
        elif self.phase & 1:
            d.rect(0, 0, 8, 1, P.TEXT)
            font.draw_char(d, "D" if mv == self.a_draw else "S", 2, 2, P.TEXT)
        else:
            d.rect(0, 0, 8, 1, P.OK)
            C.num_right(d, w, 7, 2, P.OK)

    def _size_of(self, a):
        for i in (1, 2, 3):
            if self.a_size[i] == a:
                return i
        return 0

    def _draw(self, d):
        d.fill(P.OFF)
        m = self.mode
        if (m == ODDS or m == ADVICE) and self.need:
            m = self.back      # not worked out yet: the view it covers
        if m == TURN or m == ASK or m == BANKED:
            self._turn(d, m)
        elif m == PICK:
            self._pick_view(d)
        elif m == ROLLING or m == FACE:
            self._roll_view(d, m)
        elif m == SHAKE or m == REVEAL:
            c = P.player(self.roller)
            if self.big:
                self._frame(d, c)
            else:
                d.rect(0, 0, 8, 1, c)
            s = self.scale
            p = self.pool[self.flick] if m == SHAKE and self.npool else self.piece
            b = d.height - 1 - (d.height - 4 * s) // 2
            if m == SHAKE:
                b -= (self.phase & 1) * s
            piece_glyph(d, p, d.width // 2 - 1, b, s)
        elif m == BUST:
            # the lost pieces grey and struck through, a red cross over the
            # panel for a moment, then BUST (8x8: a 0) blinking: after the
            # cross only the text's rows change, and no frame is so red
            # that the power limit has to dim it (a whole-panel change or a
            # dimmed frame makes a long 16x16 pass)
            k = self.phase
            self._pieces(d, P.DIM)
            d.rect(0, self.scale, d.width, self.scale, P.REFUSE)
            if k < 3:
                w = d.width
                for i in range(w):
                    d.pixel(i, i, P.REFUSE)
                    d.pixel(w - 1 - i, i, P.REFUSE)
            elif k & 1:
                self._bust_text(d)
        elif m == ODDS:
            self._odds_view(d)
        elif m == ADVICE:
            self._advice_view(d)
        elif m == SCORES:
            self._scores(d)
        else:
            self._end(d)

    def _scores(self, d):
        st = self.state
        sc = self.scores
        cols = self.cols
        w = d.width // cols
        # the same clock as tick's redraws (from the view's start), or a redraw
        # can keep landing in the same half of the blink
        lit = self.mode == SCORES and (ticks_diff(self.app.now, self.since) // BLINK_MS) & 1
        now = st.winner if st.winner >= 0 else st.turn
        t = st.target
        for i in range(st.players):
            y = (i // cols) * 6 - self.scroll_rows
            if y <= -6 or y >= d.height:
                continue
            c = P.player(i)
            x = (i % cols) * w
            # under the number, how far to the target (a dot at least)
            n = sc[i] * w // t if sc[i] < t else w
            d.rect(x, y + 5, n if n else 1, 1, c)
            if i != now or lit:
                C.num_right(d, sc[i], x + w - 1, y, c)

    def _end(self, d):
        st = self.state
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
            self._frame(d, fc)
        else:
            d.rect(0, 0, 8, 1, fc)
            d.rect(0, 7, 8, 1, fc)
        if n < 100:
            font.draw_number(d, n, (8 - font.number_width(n)) // 2, 1, nc)
        else:
            C.num_right(d, n, 7, 1, nc)

    def _tick(self, now):
        if self.later:
            self.later = False
            return True
        m = self.mode
        st = self.state
        app = self.app
        if self.late:
            if self.late is True:
                self.late = 1
                app.handoff(st.turn)
                return True
            self.late = False
            self.since = now       # the animation starts once they look
        dt = ticks_diff(now, self.since)
        if m <= BANKED and m != ASK:
            # an effect or a bot's pace: at the ANIMATION SPEED setting,
            # or at once when a key asked to skip it
            if self.skip:
                dt = 0x10000
            elif dt < 60000:
                dt = dt * app.speed >> 2
        if m == ROLLING:
            if dt >= (RUSH_MS if self.rush else ROLL_MS):
                self.roller = st.turn
                self.was_rolloff = st.phase == ROLLOFF
                a = app.chance()
                if a < 0:
                    self._settle(now)
                    return True
                self.face = _FACES.index(st.token(a))
                self.mode = FACE
                self.since = now
                self.later = True
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
                self.since = now
                self.later = True
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
                    self.since = now
                    self.phase = -1
                    app.tone(3)     # lib.sound.BUST
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
            return self.blink(dt // 150)
        if m == BANKED:
            if dt >= BANKED_MS:
                self._refresh()
                self._settle(now)
                return True
            return self.blink(dt * 2 // BANKED_MS)
        if m == TURN or m == PICK:
            if self._mine() or st.to_move() < 0:
                return False
            if dt < BOT_MS:
                return False
            self.since = now
            a = st.bot_move()
            if a is None:
                return False
            if m == PICK:
                if not self.bot_pick:
                    # show the bot's pick for a moment before drawing
                    self.bot_pick = True
                    self.half = 1 if a == self.a_size[_HI[st.face]] else 0
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
            return self.blink(dt // BLINK_MS) | (m == END and self.big and
                                                 self.label.tick(now))
        if m == ODDS:
            if self.need:
                if self.need == 2:
                    self._odds()
                self.need -= 1
                return not self.need
            return not self.big and self.blink(dt // PAGE_MS)
        if m == ADVICE:
            if self.need:
                if self.need == 2:
                    self.advice = st.advice()
                    if self.advice is None:
                        self.no_advice.set("NO ADVICE", now)
                self.need -= 1
                return not self.need
            if self.advice is None:
                return self.no_advice.tick(now)
            return not self.big and self.blink(dt // PAGE_MS)
        if m == SCORES:
            ph = dt // SCROLL_MS
            if ph == self.phase:
                return False
            self.phase = ph
            top = self.board_rows - app.d.height
            ch = ph * SCROLL_MS // BLINK_MS != (ph - 1) * SCROLL_MS // BLINK_MS
            if top > 0:
                if self.hold:
                    self.hold -= 1
                elif self.scroll_rows >= top:
                    self.scroll_rows = 0
                    self.hold = 10
                    ch = True
                else:
                    self.scroll_rows += 1
                    if self.scroll_rows >= top:
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
