# The bag: draw pieces or rocks without looking, as at a real table.
#
# Controls (one hand):
#
# * A draws (the bag shakes, then the drawn item shows for a moment). An
#   empty bag refuses with a red flash.
# * The main view is one bar per colour: what is left, from the bottom, the
#   largest pieces brightest (rocks mid-bright); grey above is what has
#   been drawn. On 16x16 the number left and the last item drawn are
#   underneath.
# * DOWN returns everything drawn to the bag (refused if nothing was drawn).
# * LEFT looks back through what was drawn, newest first (a magenta dot on
#   the top row counts back); RIGHT comes forward again; B back to the bars.
# * UP picks the bag: LEFT/RIGHT between the Bag of Ice bag, the Ice Stalks
#   rocks and a custom bag; A takes it, B keeps the current one. The custom
#   bag is edited as bars of rocks, up to 8 of each of eight colours
#   (r o y g c b p w): LEFT/RIGHT choose the colour, UP/DOWN the count, A
#   takes it, B goes back. The choice is remembered in the settings.
#
# Short passes: a picked bag is made (and laid out) in the A press's pass
# and drawn in the next; on 16x16 a new frame goes up SPREAD changed rows a
# pass (Display.spread).
#
# The screen is in parts, loaded one a pass before this module
# (lib/screen_bag_parts.py): _core.py (made on opening, the layout of a
# bag), _keys.py (keys) and _draw.py (pictures). Here they become one
# Screen, with its timing. (A comment, not a docstring: compiled from .py
# source, a long docstring is one more large block on the heap while the
# module compiles.)

from lib.buttons import ticks_diff
from engine.state import CHANCE
from lib import screen_bag_core as _c
from lib import screen_bag_keys as _k
from lib import screen_bag_draw as _d
from lib.screen_bag_draw import SPREAD  # noqa: F401 (for the tests)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SHAKE_MS = const(560)
_FLICK_MS = const(70)
_REVEAL_MS = const(2500)
_BLINK_MS = const(300)

# the screen's modes: the same numbers in every part (inlined, so no part
# looks them up in another; tests/test_screen_bag.py checks they agree)
_VIEW = const(0)
_SHAKE = const(1)
_REVEAL = const(2)
_EDIT = const(5)


class Screen:
    """The tool's screen (lib/app.py's contract), its methods from the
    parts."""
    __init__ = _c.init
    _restart = _c.restart      # a new bag (the keys, the tests)
    key = _k.key
    draw = _d.draw

    def tick(self, now):
        if self.later == 1:
            self.later = 2         # made in this pass: drawn in the next
            return False
        if self.later:
            return True
        # (rows still owed: another pass of the frame)
        more = self.big and self.app.d.owed
        m = self.mode
        dt = ticks_diff(now, self.t0)
        if m == _SHAKE:
            if dt > 0 and self.st.to_move() == CHANCE:
                # drawn on the pass after the press (that one has the draw
                # move itself and a whole redraw)
                self.app.chance()
            if dt >= _SHAKE_MS:
                self.mode = _REVEAL
                self.t0 = now
                return True
            p = dt // _FLICK_MS
            if p != self.phase:
                self.phase = p
                self.seed = (self.seed * 75 + 74) % 65537
                self.flick = self.seed % len(self.st.kinds)
                return True
            return more
        if m == _REVEAL and dt >= _REVEAL_MS:
            self.mode = _VIEW
            return True
        if m == _EDIT:
            b = (dt // _BLINK_MS) & 1 == 0
            if b != self.blink:
                self.blink = b
                return True
        return more
