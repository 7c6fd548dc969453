"""The bag: draw pieces or rocks without looking, as at a real table.

Controls (one hand):

* A draws (the bag shakes, then the drawn item shows for a moment). An
  empty bag refuses with a red flash.
* The main view is one bar per colour: what is left, from the bottom, the
  largest pieces first and brightest (rocks mid-bright); grey above is
  what has been drawn. On 16x16 each piece is its size's 2x2 pattern
  (small a dot, medium a bar, large a block, rock a block less a corner:
  docs/visual-language.md), and the number left and the last item drawn
  are underneath.
* DOWN returns everything drawn to the bag (refused if nothing was drawn).
* LEFT looks back through what was drawn, newest first (a magenta dot on
  the top row counts back); RIGHT comes forward again; B back to the bars.
* UP picks the bag: LEFT/RIGHT between the Bag of Ice bag, the Ice Stalks
  rocks and a custom bag; A takes it, B keeps the current one. The custom
  bag is edited as bars of rocks, up to 8 of each of eight colours
  (r o y g c b p w): LEFT/RIGHT choose the colour, UP/DOWN the count, A
  takes it, B goes back. The choice is remembered in the settings.

Short passes: a picked bag is made (and laid out) in the A press's pass
and drawn in the next; on 16x16 a new frame goes up SPREAD changed rows a
pass (Display.spread).
"""

from lib import palette as P
from lib import font
from lib import settings as S
from lib import screens_common as C
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff
from engine.state import CHANCE
from engine.bag import DRAW, RETURN

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# the screen's modes
VIEW = const(0)      # the bars
SHAKE = const(1)     # drawing: the bag shakes
REVEAL = const(2)    # the item drawn
HIST = const(3)      # looking back through what was drawn
PICK = const(4)      # picking a bag
EDIT = const(5)      # editing the custom bag

BAGS = ("bag_of_ice", "ice_stalks", "custom")
SPREAD = const(6)    # 16x16: changed rows shown per pass at most
SHAKE_MS = const(560)     # the bag shakes
FLICK_MS = const(70)      # a new kind shown this often while shaking
REVEAL_MS = const(2500)   # the drawn item shows
BLINK_MS = const(300)     # the custom bag's chosen colour blinks


class Screen(C.Screen):
    """The tool's screen (lib/app.py's contract)."""

    def __init__(self, app, state):
        C.Screen.__init__(self, app, state)
        self.mode = VIEW
        self.since = app.now
        self.phase = 0
        self.seed = (app.now & 0xFFFF) | 1
        self.flick = 0          # the kind shown while shaking
        self.back = 0           # HIST: 0 is the newest item drawn
        self.pick = 0
        self.edit = bytearray(app.settings.custom)
        self.edit_colour = 0             # EDIT: the colour being changed
        self.lit = True
        # per column: its colour, and its kinds as a range of st.kinds
        self.column_colour = bytearray(9)
        self.first_kind = bytearray(9)
        self.end_kind = bytearray(9)
        self.column_full = bytearray(9)
        self.kind_colour = bytearray(32)  # palette index of each kind (see layout)
        self.big = app.d.width > 8
        self.later = 0          # new bag: 1 made this pass, 2 draw it
        while state.to_move() == CHANCE:
            app.chance()
        self.layout()

    def save_view(self):
        """bytes: none; the frame follows from the state."""
        return b""

    def load_view(self, data):
        pass

    def key(self, k):
        m = self.mode
        app = self.app
        if m == SHAKE:
            return False
        if m == PICK:
            return self.pick_key(k)
        if m == EDIT:
            return self.edit_key(k)
        if k == A:
            # an empty bag is refused here, with the same red flash as the
            # engine's refusal
            if not self.state.remaining():
                app.refuse()
                self.mode = VIEW
                return True
            if not app.play(DRAW):
                self.mode = VIEW
                return True
            # what comes out is picked on the next pass (see tick), so the
            # press itself answers quickly
            self.mode = SHAKE
            self.since = app.now
            self.phase = -1
            return True
        if k == LEFT:
            if m == HIST:
                if self.back + 1 >= len(self.state.drawn):
                    app.refuse()
                    return True
                self.back += 1
            elif not self.state.drawn:
                app.refuse()
                return True
            else:
                self.back = 0
                self.mode = HIST
            return True
        if k == RIGHT and m == HIST:
            if self.back:
                self.back -= 1
            else:
                self.mode = VIEW
            return True
        if k == B:
            if m != VIEW:
                self.mode = VIEW
                return True
            return False
        if k == DOWN:
            if self.state.drawn:
                app.play(RETURN)
            else:
                app.refuse()     # nothing to return (see A above)
            self.mode = VIEW
            return True
        if k == UP:
            self.mode = PICK
            self.pick = BAGS.index(self.state.name) if self.state.name in BAGS else 2
            return True
        if m != VIEW:
            self.mode = VIEW
            return True
        return False

    def tick(self, now):
        if self.later == 1:
            self.later = 2         # made in this pass: drawn in the next
            return False
        if self.later:
            return True
        m = self.mode
        dt = ticks_diff(now, self.since)
        if m == SHAKE:
            if dt > 0 and self.state.to_move() == CHANCE:
                # drawn on the pass after the press (that one has the draw
                # move itself and a whole redraw)
                self.app.chance()
            if dt >= SHAKE_MS:
                self.mode = REVEAL
                self.since = now
                return True
            p = dt // FLICK_MS
            if p != self.phase:
                self.phase = p
                self.seed = (self.seed * 75 + 74) % 65537
                self.flick = self.seed % len(self.state.kinds)
                return True
            return False
        if m == REVEAL and dt >= REVEAL_MS:
            self.mode = VIEW
            return True
        if m == EDIT:
            b = (dt // BLINK_MS) & 1 == 0
            if b != self.lit:
                self.lit = b
                return True
        return False

    def draw(self, d):
        self.later = 0
        m = self.mode
        if self.big:
            d.spread(SPREAD)
        d.fill(P.OFF)
        st = self.state
        s = 1 if d.width <= 8 else 2
        cx = d.width // 2
        bottom = d.height - 1 - (d.height - (5 * s)) // 2
        if m == SHAKE:
            C.piece_glyph(d, st.kinds[self.flick], cx, bottom - (self.phase & 1) * s, s)
        elif m == REVEAL:
            C.piece_glyph(d, st.drawn[len(st.drawn) - 1], cx, bottom, s)
        elif m == HIST:
            C.piece_glyph(d, st.drawn[len(st.drawn) - 1 - self.back], cx, bottom, s)
            d.pixel(self.back % d.width, 0, P.HILITE)
        elif m == PICK:
            self.draw_pick(d)
        elif m == EDIT:
            self.draw_counts(d, self.edit, self.edit_colour)
        else:
            self.draw_bars(d)

    def layout(self):
        # runs when a bag is picked, inside that press's pass: a loop over
        # the kinds with the object's arrays in locals and no call per kind
        st = self.state
        d = self.app.d
        w = d.width
        kinds = st.kinds
        full = st.full
        if len(self.kind_colour) < len(kinds):
            self.kind_colour = bytearray(len(kinds))
        kc = self.kind_colour
        col = self.column_colour
        lo = self.first_kind
        hi = self.end_kind
        fullc = self.column_full
        # P.piece_code(p) for p = colour << 2 | size: piece(0, 1) plus three
        # per colour and one per size step, a rock shown as a medium
        base = P.piece(0, 1)
        n = 0
        m = 1
        for i in range(len(kinds)):
            p = kinds[i]
            c = p >> 2
            kc[i] = base + c * 3 + ((p & 3) or 2) - 1
            if n and col[n - 1] == c:
                hi[n - 1] = i + 1
                fullc[n - 1] += full[i]
            else:
                col[n] = c
                lo[n] = i
                hi[n] = i + 1
                fullc[n] = full[i]
                n += 1
            if fullc[n - 1] > m:
                m = fullc[n - 1]
        self.columns = n
        self.most = m
        self.bar_height = d.height if d.height <= 8 else d.height - 6
        self.unit = max(1, self.bar_height // m)
        slot = max(1, w // n)
        self.slot = slot
        self.bar_width = slot - 1 if slot >= 3 else slot
        self.left = (w - slot * n) // 2

    def new_bag(self, opts):
        self.state = self.app.restart(opts, False)
        self.layout()
        self.mode = VIEW
        self.later = 1

    def pick_key(self, k):
        app = self.app
        if k == LEFT or k == RIGHT or k == UP or k == DOWN:
            step = 1 if k == RIGHT or k == DOWN else 2
            self.pick = (self.pick + step) % 3
            return True
        if k == B:
            self.mode = VIEW
            return True
        if k == A:
            name = BAGS[self.pick]
            if name == "custom":
                self.mode = EDIT
                self.edit[:] = app.settings.custom
                self.edit_colour = 0
                self.since = app.now
                return True
            app.settings.set("bag.preset", name)
            if self.state.name != name:
                self.new_bag({"preset": name})
                return False
            self.mode = VIEW
            return True
        return False

    def edit_key(self, k):
        app = self.app
        if k == LEFT or k == RIGHT:
            n = len(S.COLOURS)
            self.edit_colour = (self.edit_colour + (1 if k == RIGHT else n - 1)) % n
            return True
        if k == UP or k == DOWN:
            v = self.edit[self.edit_colour] + (1 if k == UP else -1)
            if 0 <= v <= S.CUSTOM_MAX:
                self.edit[self.edit_colour] = v
            else:
                app.refuse()
            return True
        if k == B:
            self.mode = PICK
            return True
        if k == A:
            contents = S.custom_contents(self.edit)
            if contents is None:
                app.refuse()       # an empty bag is no bag
                return True
            app.settings.set_custom(self.edit)
            app.settings.set("bag.preset", "custom")
            self.new_bag({"contents": contents})
            return False

    def draw_bars(self, d):
        st = self.state
        u = self.unit
        ah = self.bar_height
        most = self.most
        scale = most * u > ah   # a bag too full for one row a piece
        cw = self.bar_width
        W = d.width
        f = d.frame
        kc = self.kind_colour
        # 16x16 with a 2x2 cell a piece: each piece its size's pattern
        # (docs/visual-language.md), not a block of one brightness
        cells = cw == 2 and u == 2 and not scale
        kinds = st.kinds
        for i in range(self.columns):
            x = self.left + i * self.slot
            inside = x >= 0 and x + cw <= W
            y = ah          # top of the bar drawn so far
            n = 0
            k = self.end_kind[i]
            for _ in range(k - self.first_kind[i]):
                k -= 1
                left = st.left[k]
                if left:
                    # large first, at the bottom; one kind's pieces stack
                    # without gaps, so they are one block, written here
                    # straight into the frame (a call per block costs more
                    # than its pixels on the board)
                    n += left
                    top = ah - (n * ah // most if scale else n * u)
                    c = kc[k]
                    if cells and inside:
                        bits = C.GLYPHS[kinds[k] & 3]
                        for j in range(top * W + x, y * W + x, 2 * W):
                            C.put_cell(f, j, W, bits, c)
                    elif inside:
                        # (bars 1 or 2 wide: written out)
                        j = top * W + x
                        if cw == 2:
                            for _ in range(y - top):
                                f[j] = c
                                f[j + 1] = c
                                j += W
                        elif cw == 1:
                            for _ in range(y - top):
                                f[j] = c
                                j += W
                        else:
                            for _ in range(y - top):
                                for q in range(j, j + cw):
                                    f[q] = c
                                j += W
                    else:
                        d.rect(x, top, cw, y - top, c)
                    y = top
            fc = self.column_full[i]
            full = ah - (fc * ah // most if scale else fc * u)
            if y > full:
                d.rect(x, full, cw, y - full, P.DIM)
        if d.height > 8:
            font.draw_number(d, st.remaining(), 0, d.height - 5, P.TEXT)
            if st.drawn:
                C.piece_glyph(d, st.drawn[len(st.drawn) - 1], d.width - 4,
                            d.height - 1, 1)

    def draw_counts(self, d, counts, sel):
        # the custom bag editor: a bar per colour, one rock a step
        n = len(S.COLOURS)
        slot = d.width // n
        u = d.height // S.CUSTOM_MAX
        for i in range(n):
            x = i * slot
            h = counts[i] * u
            if i == sel:
                d.rect(x, 0, slot, d.height - h,
                       P.DIM if self.lit else P.OFF)
            if h:
                # S.COLOURS is the start of the engine's colour order
                d.rect(x, d.height - h, slot, h, P.piece(i, 3))

    def draw_pick(self, d):
        name = BAGS[self.pick]
        if name == "custom":
            self.draw_counts(d, self.app.settings.custom, -1)
            return
        C.draw_full_icon(d, name)
