"""The long soak: runs in a fixed heap like driver.py, in a folder that
tools/budget.py's ``stage`` laid out (the .mpy files and the stand-ins),
one app pass per driver.step(): on MicroPython's WebAssembly build
(``node run.mjs FOLDER HEAP soak BOARD GAME SEED PRESSES EVERY``, which
calls :func:`start`, ``step`` and :func:`finish`) or an interpreter run as a
program (:func:`main`).

Boots the app with the clock just before its 2**29 wrap, opens ``GAME`` from
the menu and presses ``PRESSES`` seeded buttons: mostly short presses, some
held (auto-repeat, A's long press), now and then the escape gesture and a
resume, and idle spells that let bots, animations and the idle save run.
Whenever the game ends or leaves, it is opened again from the menu.

Every ``EVERY`` presses it goes to a fixed point (escape to the menu, idle
until the save is written), collects and prints::

    HEAP presses live_bytes free_bytes passes

then carries on. Any exception, or on WebAssembly the heap growing past
its start (a MemoryError in a fixed heap), ends the run with a traceback or
a FAILED line and no RESULT line; a clean end prints ``RESULT <json>``.
tools/soak.py runs it and judges the figures.
"""

import gc
import json
import sys

import driver

UP, DOWN, LEFT, RIGHT, A, B = 0, 1, 2, 3, 4, 5
PASS_MS = 20            # the app's clock moves this much per loop pass
ESCAPE_MS = 1300        # a B held this long is the escape gesture
WRAP = 1 << 29          # supervisor.ticks_ms wraps here
SPARE = 96 * 1024       # collect after a pass that leaves less than this free


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
    def __init__(self, board, gid, seed):
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
        self.app = code.make_app(board, clock=supervisor.ticks_ms, seed=seed)
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
            yield 0

    def press(self, key, hold_passes=0):
        self.one_pass(key, True)
        yield driver.PRESS
        if hold_passes:
            yield from self.idle(hold_passes)
        self.one_pass(key, False)
        yield driver.PRESS

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
                    yield from self.press(A)
                    yield from self.idle(4)
                else:
                    yield from self.press(RIGHT)
            else:
                yield from self.press(A)    # a notice or the resume offer: go on
                yield from self.idle(4)
        raise RuntimeError("%s did not open from the menu" % self.gid)

    def to_menu(self):
        """The escape gesture, then idle until the app is still."""
        yield from self.press(B, ESCAPE_MS // PASS_MS)
        self.escapes += 1
        yield from self.idle(60)

    def run(self, presses, every):
        app = self.app
        rng = self.rng
        keys = (UP, DOWN, LEFT, RIGHT, A, A, A, A, RIGHT, DOWN, B, B)
        yield from self.idle(80)    # the boot animation
        yield from self.open_game()
        heaps = []
        changed = 0
        for i in range(1, presses + 1):
            roll = rng.below(1000)
            if roll < 2:
                yield from self.to_menu()   # escape; the next pass opens it again
            elif roll < 40:
                yield from self.press(keys[rng.below(len(keys))], 2 + rng.below(40))
            else:
                yield from self.press(keys[rng.below(len(keys))])
            if roll >= 990:
                yield from self.idle(20 + rng.below(140))   # bots, animations, saves
            if app.unsaved:
                changed += 1        # presses that changed the game
            if app.game is None:
                yield from self.open_game()
            if i % every == 0:
                yield from self.to_menu()
                yield from self.idle(40)
                # the live heap after a collection: driver.step takes it
                # at the start of the next pass
                driver.next_mark = "heap"
                yield driver.MARK
                heaps.append(driver.points.pop("heap"))
                print("HEAP %d %d %d %d %s" % (i, heaps[-1], driver.free(heaps[-1]),
                                              self.passes, type(app.scr).__name__))
                yield from self.open_game()
        self.fields = {
            "game": self.gid, "presses": presses, "passes": self.passes,
            "heaps": heaps, "errors": app.errors, "opened": self.opened,
            "escapes": self.escapes, "clock": self.now, "saves": app.saves,
            "changed": changed,
            "frames": app.parts.pixels.shows}


soak = None


def start(board, gid, seed, presses, every, total=0):
    """Set the soak up (``total``: as driver.begin)."""
    global soak
    driver.standins()
    soak = Soak(board, gid, seed)
    soak.fields = None
    driver.begin(soak.run(presses, every), total, SPARE)


step = driver.step


def failed(why):
    gc.collect()
    print("FAILED after %d passes (%s), live heap %d" % (soak.passes, why, gc.mem_alloc()))
    print("modules: " + " ".join(sorted(sys.modules)))


def finish():
    """The RESULT line, or FAILED if the heap grew."""
    if driver.grew:
        failed("the heap grew: a MemoryError in a fixed heap")
    elif soak.fields is not None:
        print("RESULT " + json.dumps(soak.fields))


def main(board, gid, seed, presses, every):
    """The whole soak in one loop, on an interpreter run as a program."""
    start(board, gid, seed, presses, every)
    try:
        while not step() & driver.DONE:
            pass
    except BaseException:
        failed("an exception")
        raise
    finish()
