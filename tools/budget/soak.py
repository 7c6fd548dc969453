"""The long soak (issue 23 item 6): runs inside CircuitPython's interpreter
core in a fixed heap, like driver.py, in a folder that tools/budget.py's
``stage`` laid out (the .mpy files and the stand-ins).

    soak.py GAME SEED PRESSES [EVERY]

Boots the app with the clock just before its 2**29 wrap, opens ``GAME`` from
the menu and presses ``PRESSES`` seeded buttons: mostly short presses, some
held (auto-repeat, A's long press), now and then the escape gesture and a
resume, and idle spells that let bots, animations and the idle save run.
Whenever the game ends or leaves, it is opened again from the menu.

Every ``EVERY`` presses (default 100,000) it goes to a fixed point (escape
to the menu, idle until the save is written), collects and prints::

    HEAP presses live_bytes free_bytes passes

then carries on. Any exception ends the run with a traceback and no RESULT
line; a clean end prints ``RESULT <json>``. tools/soak.py runs it and judges
the figures.
"""

import gc
import json
import sys

UP, DOWN, LEFT, RIGHT, A, B = 0, 1, 2, 3, 4, 5
PASS_MS = 20            # the app's clock moves this much per loop pass
ESCAPE_MS = 1300        # a B held this long is the escape gesture
WRAP = 1 << 29          # supervisor.ticks_ms wraps here


class XorShift:
    """A tiny seeded generator for the button script (not the game's)."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n


def menu_position(gid):
    """How many RIGHT presses from the menu's first item reach ``gid``."""
    from engine import catalog
    n = 0
    for e in catalog.GAMES:
        if e.gid == gid:
            return n
        n += 1
    raise ValueError("game %s is not in the menu" % gid)


class Soak:
    def __init__(self, gid, seed):
        import supervisor
        import keypad
        import code
        self.supervisor = supervisor
        self.keypad = keypad
        self.gid = gid
        # the clock starts 2 minutes before the wrap, so it wraps early on
        # and the rest of the run is after it
        self.now = WRAP - 120000
        supervisor.now = self.now
        self.app = code.make_app(clock=supervisor.ticks_ms, seed=seed)
        self.rng = XorShift(seed)
        self.passes = 0
        self.opened = 0
        self.escapes = 0
        self.far = menu_position(gid) + 20

    def one_pass(self, key, pressed):
        self.now += PASS_MS
        self.supervisor.now = self.now
        if key >= 0:
            self.keypad.push(key, pressed)
        self.app.step()
        self.passes += 1

    def idle(self, n):
        for _ in range(n):
            self.one_pass(-1, False)

    def press(self, key, hold_passes=0):
        self.one_pass(key, True)
        if hold_passes:
            self.idle(hold_passes)
        self.one_pass(key, False)

    def open_game(self):
        """From wherever the app is (a notice, a prompt, the menu) into the
        game: B out of any shell screen, the menu's cursor to the game, A,
        and A again on a resume offer."""
        app = self.app
        for _ in range(self.far):
            if app.game is not None:
                self.opened += 1
                return
            if app.scr is app.menu:
                if app.menu.current() == self.gid:
                    self.press(A)
                    self.idle(4)
                else:
                    self.press(RIGHT)
            else:
                self.press(A)       # a notice or the resume offer: go on
                self.idle(4)
        raise RuntimeError("%s did not open from the menu" % self.gid)

    def to_menu(self):
        """The escape gesture, then idle until the app is still."""
        self.press(B, ESCAPE_MS // PASS_MS)
        self.escapes += 1
        self.idle(60)

    def run(self, presses, every):
        app = self.app
        rng = self.rng
        keys = (UP, DOWN, LEFT, RIGHT, A, A, A, A, RIGHT, DOWN, B, B)
        self.idle(80)               # the boot animation
        self.open_game()
        heaps = []
        changed = 0
        for i in range(1, presses + 1):
            roll = rng.below(1000)
            if roll < 2:
                self.to_menu()      # escape; the next pass opens it again
            elif roll < 40:
                self.press(keys[rng.below(len(keys))], 2 + rng.below(40))
            else:
                self.press(keys[rng.below(len(keys))])
            if roll >= 990:
                self.idle(20 + rng.below(140))  # bots, animations, the idle save
            if app.unsaved:
                changed += 1        # presses that changed the game
            if app.game is None:
                self.open_game()
            if i % every == 0:
                self.to_menu()
                self.idle(40)
                gc.collect()
                heaps.append(gc.mem_alloc())
                print("HEAP %d %d %d %d %s" % (i, heaps[-1], gc.mem_free(), self.passes,
                                              type(app.scr).__name__))
                self.open_game()
        gc.collect()
        print("RESULT " + json.dumps({
            "game": self.gid, "presses": presses, "passes": self.passes,
            "heaps": heaps, "errors": app.errors, "opened": self.opened,
            "escapes": self.escapes, "clock": self.now, "saves": app.saves,
            "changed": changed,
            "frames": app.parts.pixels.shows}))


def main():
    args = sys.argv[1:]
    every = int(args[3]) if len(args) > 3 else 100000
    soak = Soak(args[0], int(args[1]))
    try:
        soak.run(int(args[2]), every)
    except BaseException:
        gc.collect()
        print("FAILED after %d passes, live heap %d free %d" % (
            soak.passes, gc.mem_alloc(), gc.mem_free()))
        print("modules: " + " ".join(sorted(sys.modules)))
        raise


main()
