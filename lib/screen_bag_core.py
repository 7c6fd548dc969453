# The bag tool on the LEDs, part 1 of 3 (lib/screen_bag.py says what the
# screen does and puts the parts together): what the screen makes when it
# opens, and works out when a bag is picked.
#
# The screen is four modules because the app loads a game's screen one
# module a pass (lib/screen_bag_parts.py): compiled from .py source, a
# module needs several times its source in free heap while it compiles.
# The parts hold plain functions that lib/screen_bag.py makes the Screen's
# methods (one class, so a method is found in one look-up). Comments, not
# docstrings: from source a docstring is one more block on the heap while
# the module compiles.

from lib import palette as P
from engine.state import CHANCE

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# the screen's modes: the same numbers in every part (inlined, so no part
# looks them up in another; tests/test_screen_bag.py checks they agree)
_VIEW = const(0)


def init(self, app, state):
    self.app = app
    self.st = state
    self.mode = _VIEW
    self.t0 = app.now
    self.phase = 0
    self.seed = (app.now & 0xFFFF) | 1
    self.flick = 0          # the kind shown while shaking
    self.back = 0           # HIST: 0 is the newest item drawn
    self.pick = 0
    self.edit = bytearray(app.settings.custom)
    self.ec = 0             # EDIT: the colour being changed
    self.blink = True
    # per column: its colour, and its kinds as a range of st.kinds
    self.col = bytearray(9)
    self.lo = bytearray(9)
    self.hi = bytearray(9)
    self.fullc = bytearray(9)
    self.kc = bytearray(32)  # palette index of each kind (see layout)
    self.big = app.d.width > 8
    self.later = 0          # new bag: 1 made this pass, 2 draw it
    while state.to_move() == CHANCE:
        app.chance()
    layout(self)


def layout(self):
    # runs when a bag is picked, inside that press's pass: a loop over
    # the kinds with the object's arrays in locals and no call per kind
    st = self.st
    d = self.app.d
    w = d.width
    kinds = st.kinds
    full = st.full
    if len(self.kc) < len(kinds):
        self.kc = bytearray(len(kinds))
    kc = self.kc
    col = self.col
    lo = self.lo
    hi = self.hi
    fullc = self.fullc
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
    self.nc = n
    self.most = m
    self.ah = d.height if d.height <= 8 else d.height - 6
    self.u = max(1, self.ah // m)
    slot = max(1, w // n)
    self.slot = slot
    self.cw = slot - 1 if slot >= 3 else slot
    self.x0 = (w - slot * n) // 2


def restart(self, opts):
    self.st = self.app.restart(opts, False)
    layout(self)
    self.mode = _VIEW
    self.later = 1
