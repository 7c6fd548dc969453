"""Ice Stalks on the LEDs: the device is the bag of rocks and the table of
stalks, passed from hand to hand; 2 to 4 players, any seats played by the
device (``bots=``).

Controls:

* Your turn starts with the table and a blinking slot in the top row: A
  draws (the bag shakes, then the rock shows in its colour).
* Then the stalks you may add to are marked green where the piece would
  go, and the cursor (the piece itself, blinking white; on 8x8 flashing
  the blink code of its size) sits on the first.
  LEFT/RIGHT step through the legal placements (a stalk that takes two
  sizes is two stops, the larger first); A places. Past the ends is a red
  flash. When nothing can be added the screen says NEW BASE: A stands the
  large as a new stalk at the end of the table (LEFT/RIGHT show the table
  first).
* A small completes its stalk: it blinks in a frame of the collector's
  colour, then the points it earned show.
* UP: the bag (the rocks left of each colour, a column each; drawn ones
  grey). DOWN: each player's score, solid colours held (toward the +15) and
  collection (LEFT/RIGHT: another player). UP, DOWN, A or B go back.
* B asks UNDO?: A takes back the last placement (and with seats the device
  plays, back to your own last placement); anything else goes on.
* While drawing with nothing drawn yet, LEFT/RIGHT scroll the table.
* At the end: the winner (or each of the tied), then the scores, turning
  by themselves (LEFT/RIGHT turn them); A or DOWN shows the collections.

Pictures (docs/games/ice-stalks.md has them):

* Top row (16x16: two rows): the colour of the player to place, dotted for
  a seat the device plays (the dots walk while it thinks); the drawn rock
  in the middle; a grey dot at a corner when stalks are off the panel on
  that side.
* The stalks, oldest first, base at the bottom, four at a time on 8x8 and
  five on 16x16 (the table scrolls to follow the cursor), in the project's
  visual language (docs/visual-language.md, lib.screens_common): 8x8 a
  pixel a piece, brighter for bigger, the cursor's size in its blink code;
  16x16 a 2x2 cell a piece shaped by its size (a large the whole cell, a
  medium its bottom row, a small a dot). A legal target's mark is green
  (16x16: the top row of the cell, which no piece has).

A seat the device plays draws by itself after a pause, thinks in slices
(one step of ``state.think()`` per loop pass), shows its choice, then
places. Any key during an effect (the shaking bag, the rock, a completion)
ends it, and during a device seat's turn hurries it to the next person's
decision; the key does nothing else. Effects run at the ANIMATION SPEED
setting (``app.speed``). A hand-off in the next player's colour comes
after each placement (after a completion's effect), never to a seat the
device plays, and not at all when only one seat is a person's.
"""

from lib import palette as P
from lib import font
from lib import screens_common as C
from lib.screens_common import piece_glyph, border
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff
from engine.state import CHANCE, OVER

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# the screen's modes
DRAW = const(0)      # a rock to draw
SHAKE = const(1)     # the bag shakes
REVEAL = const(2)    # the rock drawn shows
PLACE = const(3)     # choose where it goes
SAY = const(4)       # the only move is a new base: said plainly
DONE = const(5)      # a stalk completed: the effect
ASK = const(6)       # undo?
BAG = const(7)       # the rocks left
SCORES = const(8)    # a player's score and collection
END = const(9)
UNDOING = const(10)  # undoing back past the device's seats, one a pass

MOVE = const(32)     # an action is MOVE * (target + 1) + piece (the engine's docstring)
SPREAD = const(6)    # 16x16: changed rows shown per pass at most
BLINK_MS = const(300)
BEAT_MS = const(200)     # 8x8: the cursor's blink code (its size)
FLICK_MS = const(80)
SHAKE_MS = const(550)
REVEAL_MS = const(700)
DONE_MS = const(1800)
BOT_MS = const(600)      # a device seat's pause before drawing, and on its choice
THINK_MS = const(150)    # the thinking dots walk this often
PAGE_MS = const(1500)    # views' pages turn this often


class Screen(C.Screen):
    """The game's screen (lib/app.py's contract)."""

    def __init__(self, app, state):
        C.Screen.__init__(self, app, state)
        d = app.d
        self.big = d.width > 8
        self.slot = 3 if self.big else 2      # columns per stalk
        self.visible = 5 if self.big else 4   # stalks on the panel at once
        self.one = bytearray(1)  # 8x8: the cursor's piece, for its blink code
        self.top = 2 if self.big else 1       # rows of the status strip
        n = state.players
        self.humans = 0
        for p in range(n):
            if not state.is_bot(p):
                self.humans += 1
        self.mode = DRAW
        self.back = DRAW         # where the views return to
        self.rush = False        # a key during a device seat's turn: on to
                                 # the next person's decision
        self.seed = (app.now & 0xFFFF) | 1    # the shaking bag's pictures only
        self.flick = 0           # the colour the shaking bag shows
        self.first = 0           # the first stalk on the panel
        self.acts = None         # the engine's legal list for this rock
        self.sel = 0             # the cursor: an index into acts
        self.forced = False      # the only move is a new base
        self.turn = C.Turn()     # a device seat's thinking, and its move
                                 # shown before it is played
        self.done = bytearray(8)    # the stalk just completed, base first
        self.done_len = 0
        self.collector = 0
        self.points = 0
        self.viewed = 0          # SCORES: whose
        self.winners = bytearray(4)
        self.nwin = 0
        self.label = font.Scroller(d.width, 3 if self.big else 1, P.TEXT)
        self._settle(False)
        # opened (or resumed) with a rock to draw: the app shows no hand-off
        # at a chance node, so the drawer gets one, in the first pass (the
        # app puts this screen up after making it)
        self.late = self.mode == DRAW and self._handoff_due()

    # ---- the app's questions -------------------------------------------------
    def _handoff_due(self):
        st = self.state
        return self.humans > 1 and not st.is_bot(st.turn)

    # ---- facts, once per change -------------------------------------------
    def _settle(self, handoff):
        """The mode for the state now; ``handoff``: a placement was just
        made, so the next drawer gets the device."""
        st = self.state
        app = self.app
        self.restart()
        self.skip = False
        self.turn.reset()
        p = st.to_move()
        # a completed stalk leaves the table: no empty slots on the panel
        top = len(st.stalks) - self.visible
        if self.first > top:
            self.first = top if top > 0 else 0
        if p == OVER:
            self.mode = END
            self.rush = False
            self.acts = None
            self.nwin = 0
            sc = st.scores()
            hi = max(sc)
            for q in range(st.players):
                if sc[q] == hi:
                    self.winners[self.nwin] = q
                    self.nwin += 1
            self.label.y = 9 if self.big else 1
            self.label.set("WINS" if self.nwin == 1 else "TIE", app.now)
            return
        if p == CHANCE:
            self.mode = DRAW
            self.acts = None
            if not st.is_bot(st.turn):
                self.rush = False
            if handoff and self._handoff_due():
                app.handoff(st.turn)
            return
        acts = self.acts = st.legal_actions()
        self.sel = 0
        self.forced = acts[0] >> 5 == 1
        self._follow()
        if st.is_bot(p):
            self.mode = PLACE
            return
        self.rush = False
        if self.forced:
            self.mode = SAY
            self.label.y = 3 if self.big else 1
            self.label.set("NEW BASE", app.now)
        else:
            self.mode = PLACE

    def _target(self, i):
        """The stalk index (0-based) legal move ``i`` goes on; the new
        slot after the last stalk for a new base."""
        t = (self.acts[i] >> 5) - 1
        return t - 1 if t else len(self.state.stalks)

    def _follow(self):
        """Scroll so that the cursor's stalk is on the panel."""
        t = self._target(self.sel)
        if t < self.first:
            self.first = t
        elif t >= self.first + self.visible:
            self.first = t - self.visible + 1

    def _slots(self):
        n = len(self.state.stalks)
        if self.acts is not None and self.forced:
            n += 1
        return n

    # ---- keys ------------------------------------------------------------------
    def save_view(self):
        """bytes: the cursor (which legal placement), the first stalk on
        the panel, and 1 once the placements show (past NEW BASE)."""
        return bytes((min(self.sel, 255), min(self.first, 255),
                      1 if self.mode == PLACE else 0))

    def load_view(self, data):
        """A resumed game's view (save_view); one that does not fit the
        placements is ignored."""
        acts = self.acts
        m = self.mode
        if (len(data) != 3 or (m != PLACE and m != SAY) or acts is None or
                data[0] >= len(acts) or data[1] > len(self.state.stalks) or
                data[2] > 1 or (m == PLACE and not data[2])):
            return
        self.sel = data[0]
        self.first = data[1]
        if data[2]:
            self.mode = PLACE
        self._follow()

    def key(self, k):
        m = self.mode
        st = self.state
        app = self.app
        mine = not st.is_bot(st.turn)
        if m == SHAKE or m == REVEAL or m == DONE:
            # any key skips an effect to its end, and is not acted on
            self.skip = True
            if not mine:
                self.rush = True
            return False
        if not mine and (m == DRAW or m == PLACE):
            # a device seat's turn: any key hurries it to the next
            # decision (its thinking still goes a slice a pass)
            self.rush = True
            return False
        if m == ASK:
            if k == A:
                self._undo()
            else:
                self.mode = self.back
            return True
        if m == BAG or m == SCORES:
            if k == LEFT or k == RIGHT:
                if m == BAG:
                    return False
                n = st.players
                self.viewed = (self.viewed + (1 if k == RIGHT else n - 1)) % n
                self.restart()
                return True
            if (k == DOWN and m == BAG) or (k == UP and m == SCORES and
                                            self.back != END):
                return self._view(SCORES if m == BAG else BAG)
            self.mode = self.back
            self.restart()
            return True
        if m == END:
            if k == LEFT or k == RIGHT:
                # the pages turn by the clock: move the clock's start
                pages = 2 if self.big else 1 + st.players
                ph = (self.phase if self.phase > 0 else 0) % pages
                ph = (ph + (1 if k == RIGHT else pages - 1)) % pages
                self.phase = ph
                self.since = app.now - ph * PAGE_MS
                return True
            if k == A or k == DOWN:
                self.back = END
                return self._view(SCORES)
            return False
        if m == UNDOING:
            return False
        if k == UP or k == DOWN:
            self.back = PLACE if m == SAY else m
            return self._view(BAG if k == UP else SCORES)
        if not mine:
            return False
        if k == B:
            if st.placed == 0:
                app.refuse()       # nothing to take back
                return False
            self.back = m
            self.mode = ASK
            self.restart()
            return True
        if m == DRAW:
            if k == A:
                self._shake()
                return True
            if k == LEFT or k == RIGHT:
                f = self.first + (1 if k == RIGHT else -1)
                if f < 0 or f > self._slots() - self.visible:
                    return False
                self.first = f
                return True
            return False
        if k == A:
            self._place(self.acts[self.sel])
            return True
        if k == LEFT or k == RIGHT:
            if m == SAY:
                self.mode = PLACE
                return True
            i = self.sel + (1 if k == RIGHT else -1)
            if i < 0 or i >= len(self.acts):
                app.refuse()
                return False
            self.sel = i
            self._follow()
            self.phase = -1
            self.since = app.now
            return True
        return False

    def _view(self, m):
        self.mode = m
        self.restart()
        if m == SCORES:
            st = self.state
            t = st.to_move()
            self.viewed = st.turn if t >= 0 or t == CHANCE else (
                self.winners[0] if self.nwin else 0)
        return True

    def _shake(self):
        self.mode = SHAKE
        self.restart()
        self.skip = False

    def _place(self, a):
        """Play ``a``; a small first copies its stalk for the effect."""
        st = self.state
        app = self.app
        small = a & 3 == 1 and a >> 5 > 1
        before = st.score(st.turn)
        if small:
            stalk = st.stalks[(a >> 5) - 2]
            n = len(stalk)
            for i in range(n):
                self.done[i] = stalk[i]
            self.done[n] = a & 31
            self.done_len = n + 1
            self.collector = st.turn
        if not app.play(a):
            return
        if small:
            # what it earned, the +15 included when it brought it
            self.points = st.score(self.collector) - before
            self.mode = DONE
            self.restart()
            self.skip = False
            return
        self._settle(True)

    def _undo(self):
        if self.app.undo():
            if self.state.placed and self._device_waits():
                self.mode = UNDOING
                return
            self._settle(False)
        else:
            self.mode = self.back

    def _device_waits(self):
        st = self.state
        p = st.to_move()
        return p >= 0 and st.is_bot(p) and self.humans > 0

    # ---- time ------------------------------------------------------------------
    def tick(self, now):
        m = self.mode
        st = self.state
        app = self.app
        if self.late:
            self.late = False
            app.handoff(st.turn)
            self.since = now
            return True
        dt = ticks_diff(now, self.since)
        if dt > 60000:
            dt = 60000
        # the effects' clock, at the ANIMATION SPEED setting
        fx = self.elapsed()
        if self.rush:
            fx = 60000
        if m == UNDOING:
            if st.placed and self._device_waits():
                app.undo()
                return False
            self._settle(False)
            return True
        if m == DRAW:
            if st.is_bot(st.turn):
                if fx >= BOT_MS:
                    self._shake()
                    return True
                return False
            return self.blink(dt // BLINK_MS)
        if m == SHAKE:
            if fx >= SHAKE_MS or self.skip:
                app.chance()
                self.mode = REVEAL
                self.since = now
                self.skip = False
                return True
            p = fx // FLICK_MS
            if p == self.phase:
                return False
            self.phase = p
            # ZX81's generator: small ints, nothing allocated; a colour
            # picked as the bag would give it
            self.seed = (self.seed * 75 + 74) % 65537
            bag = st.bag
            total = 0
            for c in range(7):
                total += bag[c]
            if total:
                k = self.seed % total
                c = 0
                while k >= bag[c]:
                    k -= bag[c]
                    c += 1
                self.flick = c
            return True
        if m == REVEAL:
            if fx >= REVEAL_MS or self.skip:
                self._settle(False)
                return True
            return False
        if m == DONE:
            if fx >= DONE_MS or self.skip:
                self._settle(True)
                return True
            return self.blink(fx // 150)
        if m == PLACE:
            if st.is_bot(st.turn):
                # a device seat: one slice of thought a pass, then its
                # choice shows a moment before it is played (a key
                # during its turn hurries it: rush)
                turn = self.turn
                if turn.action < 0:
                    a = turn.slice(st)
                    if a is None:
                        return self.blink(dt // THINK_MS)
                    if a < 0:
                        a = turn.action = self.acts[0]
                    i = 0
                    while self.acts[i] != a:
                        i += 1
                    self.sel = i
                    self._follow()
                    self.restart()
                    return True
                if self.rush or turn.due(self, BOT_MS):
                    a = turn.action
                    turn.reset()
                    self._place(a)
                    return True
                return self.blink(dt // BLINK_MS)
            return self.blink(dt // (BLINK_MS if self.big else BEAT_MS))
        if m == SAY:
            return self.label.tick(now) | self.blink(dt // BLINK_MS)
        if m == ASK:
            return self.blink(dt // BLINK_MS)
        if m == SCORES or m == END:
            r = self.blink(dt // PAGE_MS)
            if m == END and self.big:
                r = self.label.tick(now) or r
            return r
        return False

    # ---- drawing -----------------------------------------------------------------
    def draw(self, d):
        d.fill(P.OFF)
        m = self.mode
        if m == DRAW or m == PLACE or m == UNDOING:
            self._status(d)
            self._table(d)
        elif m == SHAKE or m == REVEAL:
            self._bag_shake(d)
        elif m == SAY:
            self._say(d)
        elif m == DONE:
            self._done(d)
        elif m == ASK:
            self._ask(d)
        elif m == BAG:
            self._bag(d)
        elif m == SCORES:
            self._scores(d)
        else:
            self._end(d)
        if self.big:
            d.spread(SPREAD)

    def _piece(self, d, p, x, level, bottom, c):
        """Piece ``p`` as the ``level``-th of a stalk (0 the base) whose
        base sits on row ``bottom``; ``c`` its colour (-1: its own). 16x16:
        a 2x2 cell in the project's pattern for its size (lib.screens_common:
        a large the whole cell, a medium its bottom row, a small a dot)."""
        if not self.big:
            d.pixel(x, bottom - level, P.piece_code(p) if c < 0 else c)
            return
        W = d.width
        j = (bottom - 2 * level - 1) * W + x
        if c < 0:
            C.put_piece(d.frame, j, W, p)
        else:
            C.put_cell(d.frame, j, W, C.GLYPHS[p & 3], c)

    def _status(self, d):
        st = self.state
        w = d.width
        pc = P.player(st.turn)
        bot = st.is_bot(st.turn)
        step = 2 if bot else 1
        # the dots walk while a device seat thinks
        off = self.phase & 1 if (bot and self.mode == PLACE and
                                 self.turn.action < 0) else 0
        x = off
        while x < w:        # (a range with a variable step is a heap object)
            d.pixel(x, 0, pc)
            x += step
        mid = w // 2
        big = self.big
        if st.rock >= 0:
            c = P.piece(st.rock, 2)
        elif self.mode == DRAW and not bot:
            c = P.TEXT if not self.phase & 1 else P.OFF   # press to draw
        else:
            c = P.OFF
        if big:
            d.rect(mid - 2, 0, 4, 2, c)
        else:
            d.rect(mid - 1, 0, 2, 1, c)
        y = 1 if big else 0
        if self.first > 0:
            d.pixel(0, y, P.DIM)
        if self.first + self.visible < self._slots():
            d.pixel(w - 1, y, P.DIM)

    def _table(self, d):
        st = self.state
        stalks = st.stalks
        n = len(stalks)
        slot = self.slot
        bottom = d.height - 1
        first = self.first
        for j in range(self.visible):
            i = first + j
            if i >= n:
                break
            stalk = stalks[i]
            for k in range(len(stalk)):
                self._piece(d, stalk[k], j * slot, k, bottom, -1)
        acts = self.acts
        if acts is None:
            return
        # the legal targets: green where the piece would go, the cursor's
        # the piece itself, blinking white
        for i in range(len(acts)):
            if i == self.sel:
                continue
            t = self._target(i)
            if first <= t < first + self.visible:
                level = len(stalks[t]) if t < n else 0
                self._mark(d, (t - first) * slot, level, bottom)
        t = self._target(self.sel)
        if first <= t < first + self.visible:
            level = len(stalks[t]) if t < n else 0
            p = acts[self.sel] & 31
            if self.big:
                # its shape tells its size: blink it white
                c = P.CURSOR if self.phase & 1 else -1
            else:
                # one pixel: the project's blink code tells the size
                self.one[0] = p
                c = C.flash(self.phase if self.phase > 0 else 0, self.one, 1)
            self._piece(d, p, (t - first) * slot, level, bottom, c)

    def _mark(self, d, x, level, bottom):
        """A legal target: green where the piece would go (16x16: the top
        row of its cell, a pattern no piece has)."""
        if self.big:
            W = d.width
            C.put_cell(d.frame, (bottom - 2 * level - 1) * W + x, W, 12, P.OK)
        else:
            d.pixel(x, bottom - level, P.OK)

    def _bag_shake(self, d):
        st = self.state
        c = P.player(st.turn)
        big = self.big
        if big:
            border(d, c)
        else:
            d.rect(0, 0, 8, 1, c)
        s = 2 if big else 1
        colour = self.flick if self.mode == SHAKE else st.rock
        if colour < 0:
            colour = 0
        b = d.height - 1 - (d.height - 3 * s) // 2
        if self.mode == SHAKE:
            b -= (self.phase & 1) * s
        piece_glyph(d, colour << 2, d.width // 2, b, s)

    def _say(self, d):
        st = self.state
        c = P.player(st.turn)
        d.rect(0, 0, d.width, 1, c)
        self.label.draw(d)
        rock = st.rock if st.rock >= 0 else 0
        if self.big:
            piece_glyph(d, rock << 2 | 3, 7, 15, 2)
        else:
            k = P.piece(rock, 3)
            d.rect(2, 7, 4, 1, k)
            d.rect(3, 6, 2, 1, k)

    def _done(self, d):
        c = P.player(self.collector)
        big = self.big
        late = self.phase >= 6
        if big:
            border(d, c)
        else:
            d.rect(0, 0, 1, 8, c)
            d.rect(7, 0, 1, 8, c)
        if big or not late:
            if big or self.phase & 1 == 0 or self.phase < 0:
                x = 2 if big else 3
                bottom = 14 if big else 7
                for k in range(self.done_len):
                    p = self.done[k]
                    self._piece(d, p, x, k, bottom, -1)
                    if not big:
                        d.pixel(x + 1, bottom - k, P.piece_code(p))
        if big:
            if late or self.phase & 1 == 0:
                n = self.points
                x = 7
                if n < 10:
                    font.draw_char(d, "+", x, 5, c)
                    x += 4
                font.draw_number(d, n, x, 5, c)
        elif late:
            n = self.points
            font.draw_number(d, n, (8 - font.number_width(n)) // 2, 1, c)

    def _ask(self, d):
        st = self.state
        c = P.NOTICE if not self.phase & 1 else P.DIM
        if self.big:
            font.draw(d, "UNDO", 0, 2, c)
            font.draw_char(d, "?", 6, 9, c)
            d.rect(0, 15, 16, 1, P.player(st.turn))
        else:
            font.draw_char(d, "<", 0, 1, c)
            font.draw_char(d, "?", 4, 1, c)
            d.rect(0, 7, 8, 1, P.player(st.turn))

    def _bag(self, d):
        """A column per colour: a rock left lit, a rock drawn grey."""
        bag = self.state.bag
        big = self.big
        total = 0
        for c in range(7):
            n = bag[c]
            total += n
            for i in range(5):
                k = P.piece(c, 0) if i < n else P.DIM
                if big:
                    # the rock pattern (all but the top-left of a cell)
                    C.put_cell(d.frame, (14 - 2 * i) * 16 + 1 + 2 * c, 16,
                               C.GLYPHS[0], k)
                else:
                    d.pixel(c, 7 - i, k)
        if big:
            font.draw_number(d, total, (16 - font.number_width(total)) // 2, 0,
                             P.TEXT)

    def _scores(self, d):
        """Player ``viewed``: the score and the solid colours held (grey:
        not yet; all seven are worth 15 more), then pages of the
        collection, a stalk a column, as on the table (pages turn)."""
        st = self.state
        p = self.viewed
        c = P.player(p)
        big = self.big
        coll = st.collected[p]
        per = self.visible
        pages = 1 + (len(coll) + per - 1) // per
        d.rect(0, 0, d.width, 1, c)
        page = (self.phase if self.phase > 0 else 0) % pages
        if page:
            first = (page - 1) * per
            for j in range(per):
                i = first + j
                if i >= len(coll):
                    break
                stalk = coll[i]
                for k in range(len(stalk)):
                    self._piece(d, stalk[k], j * self.slot, k, d.height - 1, -1)
            return
        solids = st.solids[p]
        n = st.score(p)
        if big:
            font.draw_char(d, "P", 0, 2, c)
            font.draw_number(d, p + 1, 4, 2, c)
            font.draw_number(d, n, 16 - font.number_width(n), 2, P.TEXT)
            for k in range(7):
                j = 12 * 16 + 1 + 2 * k
                if solids >> k & 1:
                    C.put_piece(d.frame, j, 16, k << 2 | 3)
                else:
                    C.put_empty(d.frame, j, 16)
            return
        font.draw_number(d, n, (8 - font.number_width(n)) // 2, 1, c)
        for k in range(7):
            d.pixel(k, 7, P.piece(k, 3) if solids >> k & 1 else P.DIM)

    def _end(self, d):
        st = self.state
        n = st.players
        big = self.big
        ph = self.phase if self.phase > 0 else 0
        pages = (2 if big else 1 + n)
        page = ph % pages
        if page == 0:
            w = self.winners[(ph // pages) % self.nwin] if self.nwin else 0
            c = P.player(w)
            if big:
                border(d, c)
                x = (16 - 4 - font.number_width(w + 1)) // 2
                font.draw_char(d, "P", x, 2, c)
                font.draw_number(d, w + 1, x + 4, 2, c)
                self.label.draw(d)
                return
            border(d, c)
            font.draw_number(d, w + 1, (8 - font.number_width(w + 1)) // 2, 1, c)
            return
        if big:
            # every score: a quarter of the panel each, a winner's bar
            # doubled
            for q in range(n):
                x = (q & 1) * 8
                y = (q >> 1) * 8
                c = P.player(q)
                won = False
                for i in range(self.nwin):
                    if self.winners[i] == q:
                        won = True
                d.rect(x, y, 8, 2 if won else 1, c)
                s = st.score(q)
                font.draw_number(d, s, x + (8 - font.number_width(s)) // 2,
                                 y + 3, c)
            return
        q = page - 1
        c = P.player(q)
        s = st.score(q)
        d.rect(0, 0, 8, 1, c)
        for i in range(self.nwin):
            if self.winners[i] == q:
                d.rect(0, 7, 8, 1, c)
        font.draw_number(d, s, (8 - font.number_width(s)) // 2, 2, c)
