# The bag tool on the LEDs, part 2 of 3: the keys, the Screen's ``key``
# and its helpers (lib/screen_bag.py has the controls).

from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B
from lib import settings as S
from engine.bag import DRAW, RETURN

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# the screen's modes: the same numbers in every part (inlined, so no part
# looks them up in another; tests/test_screen_bag.py checks they agree)
_VIEW = const(0)
_SHAKE = const(1)
_HIST = const(3)
_PICK = const(4)
_EDIT = const(5)

BAGS = ("bag_of_ice", "ice_stalks", "custom")


def key(self, k):
    m = self.mode
    app = self.app
    if m == _SHAKE:
        return False
    if m == _PICK:
        return pick_key(self, k)
    if m == _EDIT:
        return edit_key(self, k)
    if k == A:
        # an empty bag is refused here: the engine's refusal loads its
        # message text, tens of ms on a board, for the same red flash
        if not self.st.remaining():
            app.refuse()
            self.mode = _VIEW
            return True
        if not app.play(DRAW):
            self.mode = _VIEW
            return True
        # what comes out is picked on the next pass (see tick), so the
        # press itself answers quickly
        self.mode = _SHAKE
        self.t0 = app.now
        self.phase = -1
        return True
    if k == LEFT:
        if m == _HIST:
            if self.back + 1 >= len(self.st.drawn):
                app.refuse()
                return True
            self.back += 1
        elif not self.st.drawn:
            app.refuse()
            return True
        else:
            self.back = 0
            self.mode = _HIST
        return True
    if k == RIGHT and m == _HIST:
        if self.back:
            self.back -= 1
        else:
            self.mode = _VIEW
        return True
    if k == B:
        if m != _VIEW:
            self.mode = _VIEW
            return True
        return False
    if k == DOWN:
        if self.st.drawn:
            app.play(RETURN)
        else:
            app.refuse()     # nothing to return (see A above)
        self.mode = _VIEW
        return True
    if k == UP:
        self.mode = _PICK
        self.pick = BAGS.index(self.st.name) if self.st.name in BAGS else 2
        return True
    if m != _VIEW:
        self.mode = _VIEW
        return True
    return False


def pick_key(self, k):
    app = self.app
    if k == LEFT or k == RIGHT or k == UP or k == DOWN:
        step = 1 if k == RIGHT or k == DOWN else 2
        self.pick = (self.pick + step) % 3
        return True
    if k == B:
        self.mode = _VIEW
        return True
    if k == A:
        name = BAGS[self.pick]
        if name == "custom":
            self.mode = _EDIT
            self.edit[:] = app.settings.custom
            self.ec = 0
            self.t0 = app.now
            return True
        app.settings.set("bag.preset", name)
        if self.st.name != name:
            self._restart({"preset": name})
            return False
        self.mode = _VIEW
        return True
    return False


def edit_key(self, k):
    app = self.app
    if k == LEFT or k == RIGHT:
        n = len(S.COLOURS)
        self.ec = (self.ec + (1 if k == RIGHT else n - 1)) % n
        return True
    if k == UP or k == DOWN:
        v = self.edit[self.ec] + (1 if k == UP else -1)
        if 0 <= v <= S.CUSTOM_MAX:
            self.edit[self.ec] = v
        else:
            app.refuse()
        return True
    if k == B:
        self.mode = _PICK
        return True
    if k == A:
        contents = S.custom_contents(self.edit)
        if contents is None:
            app.refuse()       # an empty bag is no bag
            return True
        app.settings.set_custom(self.edit)
        app.settings.set("bag.preset", "custom")
        self._restart({"contents": contents})
        return False
