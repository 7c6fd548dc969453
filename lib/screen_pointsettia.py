"""Pointsettia on the LEDs: the plant as a sunburst, two people or one
against the device (``bots=``). docs/games/pointsettia.md describes the
pictures.

The plant: the root in the middle, its three branches around it, each
distance from the root a ring further out, the rim (24 positions) the
outer ring, clockwise from the top left as the rulings order it. On 16x16
every position is a cell of up to 4 pixels and a piece's size is its
shape as well as its brightness: on the 2x2 cells (the rim, distance 3,
the root) the shared patterns of lib.screens_common (a small a dot
bottom-left, a medium the bottom row, a large the whole cell; an empty
slot a grey dot top-left), drawn here pixel by pixel because the 8x8 zoom
cuts cells at its edges; on the arcs of distances 1 and 2 one pixel, two,
or the whole arc. On 8x8 the overview is one pixel a position (the root's colour
in the four corners) and, while a piece is placed, the panel is a zoomed
window of the 16x16 picture that follows the cursor.

A turn (a person's):

* STASH: the 12 kinds, a column per colour (green, red, clear, black) and
  a band per size (large at the top), each kind's pieces left side by
  side. LEFT/RIGHT the colour, UP/DOWN the size, A takes the piece (a kind
  with none left is refused). B shows the plant (LOOK).
* PLACE: the piece blinks in an empty slot (the others are marked dim).
  LEFT/RIGHT go round the plant clockwise, UP goes outward, DOWN inward.
  A puts it there; B puts it back in the stash.
* POWER (a clear or black piece that can use its power there): the plant
  as it would be. LEFT/RIGHT choose: no power, or for a clear piece the
  ancestor it takes the place of (one, two, three up; the piece blinks
  magenta where it lands), or for a black piece the re-rooting. The corner
  shows the choice (16x16: a dot per step up, all four for the black
  power; 8x8: the top-left pixel). A plays it, B goes back.
* LOOK: the whole plant; A goes back to the stash, B takes back the last
  move (against the device, back to your own last move). On 8x8 a
  direction zooms in (the 16x16 picture, 8x8 of it at a time) and moves
  the zoom two pixels a press; B goes back to the overview.

A device seat thinks one slice per loop pass (the engine's ``think``),
with a spinner in the corners, then shows its move for a moment as a
person's placing looks (8x8: zoomed; magenta where a power took it) and
plays it. Two people get a hand-off in the colour of the seat to move;
one person against the device gets none.

The end: the rim in the colours it scores for, the runs as arcs, Green's
and Red's totals (16x16) or the winner's colour (8x8) inside.
LEFT/RIGHT pick a run (it blinks; its worth shows inside; 8x8: only that
run stays on the rim), A shows the plant, B the app's scores screen.
"""

import sys

from lib import palette as P
from lib import screens_common as C
from lib import font
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff
from lib.screens_common import border, piece_glyph
from engine.state import OVER
from engine import pointsettia as G

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

BLINK_MS = const(300)
BOT_SHOW_MS = const(900)     # a device move shows this long before it lands
NONE = const(0xFF)
BOT_MODULE = "engine.pointsettia_bot"   # the device's player (engine.pointsettia.think)
# the screen's modes
STASH = const(0)
PLACE = const(1)
POWER = const(2)
LOOK = const(3)
THINK = const(4)
BOTSHOW = const(5)
END = const(7)

# a piece code's palette index: green, red, clear and black are the palette's
# colours 3, 0, 7 and 8 (engine.pieces order)
_HUE = (3, 0, 7, 8)
INK = bytes([P.piece(_HUE[c >> 2], c & 3) if c & 3 else P.OFF
             for c in range(16)])
SEAT_INK = bytes((P.piece(3, 3), P.piece(0, 3)))    # Green, Red
# pixels lit by size on a cell of 4 (small a dot, medium a bar, large all)
LIT = b"\x00\x01\x02\x04"


def _rot16(i, turns):
    """Pixel index ``y*16+x`` turned ``turns`` quarters clockwise."""
    x = i & 15
    y = i >> 4
    for _ in range(turns):
        x, y = 15 - y, x
    return y * 16 + x


def _rot8(i, turns):
    x = i & 7
    y = i >> 3
    for _ in range(turns):
        x, y = 7 - y, x
    return y * 8 + x


def _layout16():
    """Each position's cell on 16x16: 4 pixel indices (``y*16+x``); NONE
    past a short cell. A 2x2 cell lists bottom-left, bottom-right,
    top-left, top-right, so that lighting the first LIT[size] pixels draws
    lib.screens_common's size patterns (put_piece: a small a dot
    bottom-left, a medium the bottom row, a large the whole cell)."""
    t = bytearray(b"\xff" * (46 * 4))

    def put(p, pixels):
        if len(pixels) == 4 and (p == 0 or p >= 10):
            x = min([i & 15 for i in pixels])
            y = min([i >> 4 for i in pixels])
            j = y * 16 + x
            pixels = (j + 16, j + 17, j, j + 1)
        for k in range(len(pixels)):
            t[4 * p + k] = pixels[k]

    # the rim: the outer two rows, six 2x2 cells a side, corners left free
    for r in range(24):
        x = 2 + 2 * (r % 6)
        cell = (x, x + 1, 16 + x, 17 + x)
        put(G.RIM + r, [_rot16(i, r // 6) for i in cell])
    # distance 3: a ring of twelve 2x2 cells, three a side
    for j in range(12):
        x = 3 + 3 * (j % 3)
        cell = (48 + x, 49 + x, 64 + x, 65 + x)
        put(10 + j, [_rot16(i, j // 3) for i in cell])
    # distance 2: the ring 5 in from the edge (20 pixels), clockwise from
    # its top-left corner, in six arcs
    ring = [5 * 16 + x for x in range(5, 11)]
    ring += [y * 16 + 10 for y in range(6, 11)]
    ring += [10 * 16 + x for x in range(9, 4, -1)]
    ring += [y * 16 + 5 for y in range(9, 5, -1)]
    k = 0
    for j in range(6):
        n = 4 if j == 2 or j == 5 else 3
        put(4 + j, ring[k:k + n])
        k += n
    # distance 1: the ring 6 in (12 pixels), three arcs of four
    ring = [6 * 16 + x for x in range(6, 10)]
    ring += [y * 16 + 9 for y in range(7, 10)]
    ring += [9 * 16 + x for x in range(8, 5, -1)]
    ring += [y * 16 + 6 for y in range(8, 6, -1)]
    for j in range(3):
        put(1 + j, ring[4 * j:4 * j + 4])
    put(0, (7 * 16 + 7, 7 * 16 + 8, 8 * 16 + 7, 8 * 16 + 8))
    return bytes(t)


def _layout8():
    """Each position's pixels on the 8x8 overview (``y*8+x``), as
    _layout16: the rim the outer ring, distance 3 the next, distance 2 the
    next (two pixels each), distance 1 the middle, the root the corners."""
    t = bytearray(b"\xff" * (46 * 4))
    for r in range(24):
        t[4 * (G.RIM + r)] = _rot8(1 + r % 6, r // 6)
    for j in range(12):
        t[4 * (10 + j)] = _rot8(8 + 2 + j % 3, j // 3)
    ring = [2 * 8 + x for x in range(2, 6)]
    ring += [y * 8 + 5 for y in range(3, 6)]
    ring += [5 * 8 + x for x in range(4, 1, -1)]
    ring += [y * 8 + 2 for y in range(4, 2, -1)]
    for j in range(6):
        t[4 * (4 + j)] = ring[2 * j]
        t[4 * (4 + j) + 1] = ring[2 * j + 1]
    t[4 * 1] = 3 * 8 + 3
    t[4 * 1 + 1] = 3 * 8 + 4
    t[4 * 2] = 4 * 8 + 4
    t[4 * 3] = 4 * 8 + 3
    for k in range(4):
        t[k] = (0, 7, 63, 56)[k]
    return bytes(t)


CELLS16 = _layout16()
CELLS8 = _layout8()
# 8x8: the pixels no position uses, for the device's spinner
SPIN8 = bytes((_rot8(8 + 5, 0), _rot8(8 + 5, 1), _rot8(8 + 5, 2),
               _rot8(8 + 5, 3)))
# 16x16: the four free corners (top-left pixel of each 2x2), clockwise
CORNERS16 = bytes((0, 14, 14 * 16 + 14, 14 * 16))


def _order():
    """Positions 1..45 in the order the cursor goes round: by the middle of
    their sector (1/96 turns), inner first."""
    keys = []
    first = 1
    for depth in range(1, 5):
        n = 3 << (depth - 1)
        for j in range(n):
            keys.append(((2 * j + 1) * 48 // n, depth, first + j))
        first += n
    keys.sort()
    return bytes([k[2] for k in keys])


ORDER = _order()
ANGLE = bytearray(46)      # each position's sector middle, in 1/96 turns
_f = 1
for _d in range(1, 5):
    _n = 3 << (_d - 1)
    for _j in range(_n):
        ANGLE[_f + _j] = (2 * _j + 1) * 48 // _n
    _f += _n
# the builders and their loop names are needed only once: their heap back
del _layout16, _layout8, _order, _rot16, _rot8, _f, _d, _n, _j


class Screen(C.Screen):
    """The game's screen (lib/app.py's contract)."""

    def __init__(self, app, state):
        C.Screen.__init__(self, app, state)
        d = app.d
        self.big = d.width > 8
        self.state = state
        self.mode = STASH
        self.colour = 0          # STASH: the column (green, red, clear, black)
        self.size = 3            # STASH: the size chosen
        self.piece = 0           # the piece in hand
        self.cursor = 0          # PLACE: the slot
        self.slots = bytearray(46)   # the empty slots with a parent, in ORDER
        self.nslots = 0
        self.opts = bytearray(6)     # POWER: the powers offered (0 none)
        self.nopts = 0
        self.opt = 0
        self.view = bytearray(46)    # the plant drawn (a preview or a copy)
        self.moved = 0           # where the piece played lands in ``view``
        self.ox = 0              # 8x8: the zoom's top-left on the 16x16 picture
        self.oy = 0
        self.pan = False         # 8x8 LOOK: the zoom (else the overview)
        self.turn = C.Turn()     # THINK, BOTSHOW: the device's move
        self.spin = 0
        self.runs = None         # END: the runs, made once
        self.run = -1            # END: the run picked, -1 the totals
        self.owners = None       # END: whom each rim position scores for
        self.score = [0, 0]
        self._settle()

    # ---- the app's questions -------------------------------------------------
    def shown(self):
        self.since = self.app.now

    def draw_handoff(self, d, p):
        """Two people: the seat's frame in Green or Red, a medium of its
        colour inside."""
        d.fill(P.OFF)
        c = SEAT_INK[p]
        s = 2 if self.big else 1
        border(d, c, s)
        piece_glyph(d, (3 if p == 0 else 0) << 2 | 2,
                    d.width // 2 - (0 if self.big else 1), d.height - 1 - 2 * s, s)

    # ---- facts, worked out once per change -------------------------------------
    def _settle(self):
        """The mode for the state now (after a move, an undo, or opening)."""
        st = self.state
        self.state = st = self.app.state
        self.restart()
        self.skip = False
        self.turn.reset()
        p = st.to_move()
        if p == OVER:
            self.mode = END
            if self.runs is None:
                self.owners = G.rim_owners(st.plant)[0]
                self.runs = G.runs(st.plant)
                sc = st.scores()
                self.score[0] = sc[0]
                self.score[1] = sc[1]
            self.run = -1
            return
        self.runs = None
        self._slots()
        self.mode = THINK if st.is_bot(p) else STASH
        self._stash_pick()

    def _slots(self):
        """The empty slots whose parent is in the plant, in ORDER."""
        plant = self.state.plant
        n = 0
        for i in range(45):
            s = ORDER[i]
            if not plant[s] and plant[G.PARENT[s]]:
                self.slots[n] = s
                n += 1
        self.nslots = n
        if n and not self._open(self.cursor):
            self.cursor = self.slots[0]

    def _open(self, s):
        plant = self.state.plant
        return s and not plant[s] and plant[G.PARENT[s]]

    def _stash_pick(self):
        """Keep the kind chosen if any is left, else the first left."""
        stash = self.state.stash
        if stash[self.colour << 2 | self.size]:
            return
        for c in range(4):
            for size in (3, 2, 1):
                if stash[c << 2 | size]:
                    self.colour = c
                    self.size = size
                    return

    def _options(self):
        """The powers the piece in hand may use in the cursor's slot."""
        st = self.state
        k = self.piece
        s = self.cursor
        n = 1
        self.opts[0] = 0
        c = k >> 2
        depth = G.DEPTH[s]
        if c == G.CLEAR:
            for up in range(1, min(k & 3, depth - 1) + 1):
                self.opts[n] = up
                n += 1
        elif c == G.BLACK and depth <= (k & 3) and st.black_ok(s):
            self.opts[n] = G.BLACK_POWER
            n += 1
        self.nopts = n
        self.opt = 0

    def _action(self):
        power = self.opts[self.opt] if self.mode == POWER else 0
        return self.piece << 9 | self.cursor << 3 | power

    def _preview(self, a):
        """``view`` = the plant after action ``a`` (nothing allocated),
        ``moved`` = where its piece lands."""
        v = self.view
        v[:] = self.state.plant
        k = a >> 9
        s = a >> 3 & 63
        power = a & 7
        v[s] = k
        self.moved = s
        if power == G.BLACK_POWER:
            table = G.REROOT[G.BRANCH[s] - 1]
            plant = self.state.plant
            for p in range(46):
                v[p] = 0
            for p in range(46):
                q = table[p]
                if q != NONE:
                    v[q] = k if p == s else plant[p]
            self.moved = table[s]
        elif power:
            p = s
            for _ in range(power):
                q = G.PARENT[p]
                v[p] = v[q]
                p = q
            v[p] = k
            self.moved = p

    # ---- keys --------------------------------------------------------------------
    def save_view(self):
        """bytes: the kind chosen in the stash (its colour and size)."""
        return bytes((self.colour, self.size))

    def load_view(self, data):
        """A resumed game's view (save_view); a kind not in the stash is
        ignored."""
        if (len(data) != 2 or self.mode != STASH or data[0] > 3 or
                not 1 <= data[1] <= 3 or not self.state.stash[data[0] << 2 | data[1]]):
            return
        self.colour = data[0]
        self.size = data[1]

    def key(self, k):
        m = self.mode
        app = self.app
        st = self.state
        if m == STASH:
            if k == LEFT or k == RIGHT:
                self.colour = (self.colour + (1 if k == RIGHT else 3)) & 3
                return True
            if k == UP or k == DOWN:
                s = self.size + (1 if k == UP else -1)
                self.size = 1 if s > 3 else (3 if s < 1 else s)
                return True
            if k == A:
                kind = self.colour << 2 | self.size
                if not st.stash[kind]:
                    app.refuse()
                    return False
                self.piece = kind
                self.mode = PLACE
                self._begin()
                return True
            if k == B:
                self.mode = LOOK
                return True
            return False
        if m == PLACE:
            if k == LEFT or k == RIGHT:
                return self._step(1 if k == RIGHT else -1)
            if k == UP or k == DOWN:
                return self._jump(1 if k == UP else -1)
            if k == A:
                self._options()
                if self.nopts > 1:
                    self.mode = POWER
                    self._preview(self._action())
                    self._begin()
                    return True
                self._play(self._action())
                return True
            if k == B:
                self.mode = STASH
                return True
            return False
        if m == POWER:
            if k == LEFT or k == RIGHT or k == UP or k == DOWN:
                step = 1 if k == RIGHT or k == UP else self.nopts - 1
                self.opt = (self.opt + step) % self.nopts
                self._preview(self._action())
                self._begin()
                return True
            if k == A:
                self._play(self._action())
                return True
            if k == B:
                self.mode = PLACE
                self._begin()
                return True
            return False
        if m == LOOK:
            if k == A:
                self.mode = END if st.to_move() == OVER else STASH
                self.pan = False
                self._begin()
                return True
            if k == B:
                if self.pan:
                    self.pan = False      # back to the overview
                else:
                    self._undo()
                return True
            if not self.big:
                return self._pan(k)
            return False
        if m == END:
            if k == LEFT or k == RIGHT:
                n = len(self.runs)
                if not n:
                    return False
                r = self.run + (1 if k == RIGHT else -1)
                self.run = -1 if r >= n or r < -1 else r
                if r < -1:
                    self.run = n - 1
                self._begin()
                return True
            if k == A:
                self.mode = LOOK
                return True
            if k == B:
                app.show_scores()
                return False
            return False
        # THINK, BOTSHOW: any key skips the showing of the device's move
        self.skip = True
        return False

    def _pan(self, k):
        """8x8 LOOK: a direction zooms in (the middle of the 16x16
        picture), then moves the zoom two pixels a press."""
        if not self.pan:
            self.pan = True
            self.ox = self.oy = 4
            return True
        dx = 2 if k == RIGHT else (-2 if k == LEFT else 0)
        dy = 2 if k == DOWN else (-2 if k == UP else 0)
        x = self.ox + dx
        y = self.oy + dy
        if x < 0 or x > 8 or y < 0 or y > 8:
            return False
        self.ox = x
        self.oy = y
        return True

    def _begin(self):
        """Restart the blink, lit first, so a step shows at once."""
        self.since = self.app.now
        self.phase = 0

    def _step(self, step):
        n = self.nslots
        if n < 2:
            return False
        i = 0
        while i < n and self.slots[i] != self.cursor:
            i += 1
        self.cursor = self.slots[(i + step) % n]
        self._begin()
        return True

    def _jump(self, out):
        """The empty slot nearest in angle one distance further out
        (``out`` 1) or in (-1), or the next distance after that."""
        depth = G.DEPTH[self.cursor]
        here = ANGLE[self.cursor]
        best = -1
        best_cost = 10000
        for i in range(self.nslots):
            s = self.slots[i]
            dd = (G.DEPTH[s] - depth) * out
            if dd <= 0:
                continue
            da = ANGLE[s] - here
            if da < 0:
                da = -da
            if da > 48:
                da = 96 - da
            cost = dd * 200 + da
            if cost < best_cost:
                best_cost = cost
                best = s
        if best < 0:
            return False
        self.cursor = best
        self._begin()
        return True

    def _play(self, a):
        if self.app.play(a):
            self.mode = STASH
            self._settle()

    def _undo(self):
        """Take back the last move; against the device, back to the last
        move a person made (the device would only play again)."""
        app = self.app
        st = self.state
        if not st.moves or (st.moves == 1 and st.is_bot(0) and not st.is_bot(1)):
            app.refuse()      # nothing of a person's to take back
            return
        self.mode = LOOK
        app.undo()
        p = st.to_move()
        if st.moves and st.is_bot(p) and not st.is_bot(1 - p):
            app.undo()
        self._settle()
        if app.scr is self and self.mode == STASH:     # no hand-off
            self.mode = LOOK      # the plant as it is again

    # ---- time --------------------------------------------------------------------
    def tick(self, now):
        m = self.mode
        dt = ticks_diff(now, self.since)
        if m == THINK:
            return self._think(now)
        if m == BOTSHOW:
            turn = self.turn
            if turn.due(self, BOT_SHOW_MS):
                a = turn.action
                turn.reset()
                self.mode = STASH
                self.app.play(a)
                self._settle()
                return True
            return self.blink(dt // BLINK_MS)
        if m == PLACE or m == POWER or (m == END and self.run >= 0):
            return self.blink(dt // BLINK_MS)
        return False

    def _think(self, now):
        """One slice of the device's thinking a pass; the spinner turns."""
        st = self.state
        turn = self.turn
        if BOT_MODULE not in sys.modules:
            # the engine's think() loads its bot module at its first
            # slice: loaded here in a pass of its own instead
            __import__(BOT_MODULE)
            return False
        a = turn.slice(st)
        if a is not None and a < 0:
            a = turn.action = st.hint()
        self.spin = (self.spin + 1) & 15
        if a is None:
            return not self.spin & 3
        self._preview(a)
        self.mode = BOTSHOW
        self.restart()
        self.phase = 0
        return True

    # ---- drawing -------------------------------------------------------------------
    def draw(self, d):
        if self.big:
            d.spread(C.SPREAD)
        d.fill(P.OFF)
        m = self.mode
        st = self.state
        on = not self.phase & 1
        if m == STASH:
            self._stash(d, on)
        elif m == PLACE:
            self._place(d, st.plant, self.cursor, self.piece, on, True)
        elif m == POWER:
            self._place(d, self.view, self.moved, self.piece, on,
                        self.opts[self.opt] == 0)
            self._power_mark(d)
        elif m == LOOK and self.pan:
            self._plant(d, st.plant, self.ox, self.oy, True)
        elif m == LOOK or m == THINK:
            self._plant(d, st.plant, 0, 0, False)
            if m == THINK:
                self._spinner(d)
            elif self.big:
                self._turn_mark(d)
        elif m == BOTSHOW:
            # as a person's placing looks (8x8: zoomed, so its size shows)
            a = self.turn.action
            self._place(d, self.view, self.moved, a >> 9, on, not a & 7)
        else:
            self._end(d, on)

    def _cell(self, d, p, c, ox, oy, n, small):
        """Light the first ``n`` pixels of position ``p``'s cell in ``c``
        (``small``: the 8x8 overview's pixels; else the 16x16 cell, drawn
        less (ox, oy))."""
        t = CELLS8 if small else CELLS16
        fr = d.frame
        w = d.width
        for k in range(4 * p, 4 * p + n):
            i = t[k]
            if i == NONE:
                return
            if small:
                fr[i] = c
                continue
            x = (i & 15) - ox
            y = (i >> 4) - oy
            if 0 <= x < w and 0 <= y < w:
                fr[y * w + x] = c

    def _empty(self, d, p, ox, oy):
        """An empty 2x2 cell as lib.screens_common's put_empty draws one:
        a grey dot top-left (the cell's third pixel, see _layout16)."""
        i = CELLS16[4 * p + 2]
        x = (i & 15) - ox
        y = (i >> 4) - oy
        w = d.width
        if 0 <= x < w and 0 <= y < w:
            d.frame[y * w + x] = P.DIM

    def _plant(self, d, plant, ox, oy, zoom):
        """The plant: on 16x16 (or the 8x8 zoom, offset by ox, oy) every
        piece shaped by its size; on the 8x8 overview one pixel each; the
        empty slots with a parent dim."""
        small = not self.big and not zoom
        for p in range(46):
            k = plant[p]
            if k:
                self._cell(d, p, INK[k], ox, oy, 4 if small else LIT[k & 3], small)
            elif p and plant[G.PARENT[p]]:
                if small or p < 10:
                    self._cell(d, p, P.DIM, ox, oy, 1, small)
                else:
                    self._empty(d, p, ox, oy)

    def _window(self, p):
        """The 8x8 zoom's top-left corner, around position ``p``'s cell."""
        i = CELLS16[4 * p]
        x = (i & 15) - 3
        y = (i >> 4) - 3
        self.ox = 0 if x < 0 else (8 if x > 8 else x)
        self.oy = 0 if y < 0 else (8 if y > 8 else y)

    def _place(self, d, plant, p, piece, on, plain):
        """The plant with ``piece`` blinking at ``p`` (white when off; in
        magenta when a power moved it there)."""
        ox = oy = 0
        if not self.big:
            self._window(p)
            ox = self.ox
            oy = self.oy
        self._plant(d, plant, ox, oy, not self.big)
        self._cell(d, p, P.OFF, ox, oy, 4, False)
        if on:
            self._cell(d, p, INK[piece], ox, oy, LIT[piece & 3], False)
        else:
            self._cell(d, p, P.CURSOR if plain else P.HILITE, ox, oy, 4, False)
        if self.big:
            self._turn_mark(d)

    def _power_mark(self, d):
        power = self.opts[self.opt]
        if not power:
            return
        if not self.big:
            d.pixel(0, 0, P.HILITE)
            return
        n = 4 if power == G.BLACK_POWER else power
        for k in range(n):
            i = CORNERS16[k]
            d.pixel(i & 15, i >> 4, P.HILITE)

    def _turn_mark(self, d):
        """16x16: the top-left corner pixel in the colour of the seat to
        move (one pixel: a 2x2 there would read as a rim piece)."""
        p = self.state.to_move()
        if p >= 0:
            d.pixel(0, 0, SEAT_INK[p])

    def _spinner(self, d):
        c = SEAT_INK[self.state.to_move() & 1]
        k = (self.spin >> 2) & 3
        if self.big:
            i = CORNERS16[k]
            d.rect(i & 15, i >> 4, 2, 2, c)
        else:
            i = SPIN8[k]
            d.pixel(i & 7, i >> 3, c)

    def _stash(self, d, on):
        """A column per colour, a band per size (large at the top), each
        kind's pieces left side by side: 16x16 as bars as tall as the size,
        8x8 as dots in a 2x2 block. The kind chosen blinks."""
        stash = self.state.stash
        big = self.big
        blink = ticks_diff(self.app.now, self.since) // BLINK_MS & 1
        for c in range(4):
            for size in (1, 2, 3):
                kind = c << 2 | size
                n = stash[kind]
                chosen = c == self.colour and size == self.size
                ink = INK[kind]
                if chosen and blink:
                    ink = P.CURSOR
                if big:
                    x = 4 * c
                    y = (3 - size) * 5 + 5 - size
                    if not n:
                        d.rect(x, (3 - size) * 5 + 4, 1, 1, P.CURSOR if chosen and blink else P.DIM)
                    d.rect(x, y, n, size, ink)    # its n pieces side by side
                else:
                    x = 2 * c
                    y = (3 - size) * 3
                    if not n:
                        d.pixel(x, y + 1, P.CURSOR if chosen and blink else P.DIM)
                    for i in range(n):
                        d.pixel(x + (i & 1), y + 1 - (i >> 1), ink)
        if big:
            p = self.state.to_move()
            d.rect(0, 15, 16, 1, SEAT_INK[p & 1])

    def _end(self, d, on):
        """The rim in its owners' colours; inside, the totals (16x16) or
        the winner's colour (8x8), or the worth of the run picked."""
        big = self.big
        r = self.run
        runs = self.runs
        if r >= 0:
            # the run's worth inside (8x8: two digits reach the rim's right
            # column, so only the run itself is drawn there, over them)
            run = runs[r]
            c = SEAT_INK[run[0]]
            n = run[3]
            if big:
                self._rim(d)
                font.draw_number(d, n, (16 - font.number_width(n)) // 2, 6, c)
            else:
                font.draw_number(d, n if n < 100 else 99, 1 if n > 9 else 3, 1, c)
            for k in range(run[2]):
                self._cell(d, G.RIM + (run[1] + k) % 24, c if on else P.CURSOR,
                           0, 0, 4, not big)
            return
        self._rim(d)
        g = self.score[0]
        red = self.score[1]
        if big:
            font.draw_number(d, g, (16 - font.number_width(g)) // 2, 3, SEAT_INK[0])
            font.draw_number(d, red, (16 - font.number_width(red)) // 2, 9, SEAT_INK[1])
            return
        if g == red:
            d.rect(2, 2, 2, 4, SEAT_INK[0])
            d.rect(4, 2, 2, 4, SEAT_INK[1])
        else:
            d.rect(2, 2, 4, 4, SEAT_INK[0 if g > red else 1])

    def _rim(self, d):
        """Each rim position in the colour it scores for (the whole cell),
        dim where it scores for nobody."""
        big = self.big
        owners = self.owners
        for r in range(24):
            o = owners[r]
            self._cell(d, G.RIM + r, P.DIM if o == NONE else SEAT_INK[o], 0, 0,
                       4 if o != NONE else 1, not big)
