"""The board side of the device budget: runs inside a MicroPython-family
interpreter in a fixed heap, in a folder laid out like a CIRCUITPY drive
plus the stand-ins for the board's C modules.

Two ways in:

* MicroPython's WebAssembly build (tools/budget/run.mjs): JavaScript calls
  :func:`start` once, then :func:`step` once per app loop pass. That build
  collects garbage only when a call from JavaScript returns, so each pass
  must fit in what the last collection left free (nothing of a pass's
  garbage is reused within it, where a board would collect).
* An interpreter run as a program (``micropython -X heapsize=...``):
  :func:`main` runs the same passes in one loop, collecting before each.

Either way it ends by printing one line ``RESULT <json>``. A MemoryError
ends the run with ``RESULT {"memory_error": ...}``.

Scenarios:

* ``app``: boot, walk the menu to the game, press A, then PRESSES seeded
  presses with idle stretches (bots, animations), protocol lines on the
  USB data port a quarter of the way in, one escape and resume half way,
  and an idle save at the end;
* ``points``: the calibration points: the live heap at boot (before the
  app, stand-ins loaded), with the menu up, and after the game's first
  move (A pressed in the game, then idle).
"""

import gc
import json
import sys

UP, DOWN, LEFT, RIGHT, A, B = 0, 1, 2, 3, 4, 5
PASS_MS = 20          # the app's clock moves this much per loop pass
HOLD_MS = 1300        # a B held this long is the escape gesture
PRESS, LOADED, MARK = 1, 2, 4   # what a pass was (its flags)
GREW, DONE = 8, 16              # step()'s answer bits besides the flags
USED_SHIFT = 5


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


class Script:
    """The buttons a scenario presses, one loop pass per ``next()``; each
    pass yields its flags (PRESS: a button edge; MARK: not a pass: the
    live heap at the next step is the point ``next_mark``)."""

    def __init__(self, board, gid, seed):
        self.board = board
        self.gid = gid
        self.seed = seed
        self.rng = XorShift(seed)
        self.app = None
        self.now = 0
        self.fields = {}

    def one_pass(self, key, pressed):
        import supervisor
        import keypad
        supervisor.now = self.now
        self.now += PASS_MS
        if key >= 0:
            keypad.push(key, pressed)
        self.app.step()

    def idle(self, n):
        for _ in range(n):
            self.one_pass(-1, False)
            yield 0

    def press(self, key, hold_ms=60):
        self.one_pass(key, True)
        yield PRESS
        yield from self.idle(hold_ms // PASS_MS)
        self.one_pass(key, False)
        yield PRESS
        yield from self.idle(3)

    def point(self, name):
        global next_mark
        next_mark = name
        yield MARK

    def boot(self):
        import code
        yield from self.point("boot")
        import supervisor
        self.app = code.make_app(self.board, clock=supervisor.ticks_ms, seed=self.seed)
        yield 0
        yield from self.idle(80)     # the boot animation

    def open_game(self):
        """From the menu to the game (its cursor may be anywhere) and in."""
        app = self.app
        for _ in range(menu_position(self.gid) + 20):
            if app.menu.current() == self.gid:
                break
            yield from self.press(RIGHT)
        yield from self.press(A)
        yield from self.idle(10)

    def app_run(self, presses):
        yield from self.boot()
        yield from self.open_game()
        app = self.app
        rng = self.rng
        weights = (UP, DOWN, LEFT, RIGHT, A, A, A, A, RIGHT, DOWN, B)
        import usb_cdc
        for i in range(presses):
            if i == presses // 4:
                # a computer on the USB data port: the protocol loads and answers
                usb_cdc.push(b"state\nlegal\nshow\nhint\n")
            if i == presses // 2:
                yield from self.press(B, HOLD_MS)   # escape: save, to the menu
                yield from self.idle(10)
                yield from self.press(A)            # the cursor is on the game
                yield from self.idle(10)
                continue
            yield from self.press(weights[rng.below(len(weights))])
            if rng.below(8) == 0:
                yield from self.idle(60)            # animations and bots run
            if app.game is None and app.scr is app.menu:
                yield from self.open_game()         # finished, or B: again
        yield from self.idle(150)                   # an idle save
        import neopixel
        self.fields = {"game": app.game or "-", "serial_bytes": usb_cdc.data.written,
                       "frames": app.parts.pixels.shows, "checksum": neopixel.checksum()}

    def points_run(self):
        yield from self.boot()
        yield from self.idle(20)
        yield from self.point("menu")
        yield from self.idle(1)
        yield from self.open_game()
        yield from self.press(A)
        yield from self.idle(30)
        yield from self.point("game")
        yield from self.idle(1)
        import neopixel
        self.fields = {"game": self.app.game or "-", "frames": self.app.parts.pixels.shows,
                       "checksum": neopixel.checksum()}


# the run under way, for step(); all bound here so a step grows no dict
script = None
passes = iter(())
points = {}
reserve = 0           # what gc.mem_free() counts beyond the heap
base_total = 0        # the heap's size at the start
peak = 0              # the most in use at the end of any pass
live_max = 0          # the most live between passes (after a collection)
counted = 0           # passes run
grew = 0              # the pass at which the heap grew (0: never)
pending = None
next_mark = None      # the calibration point a MARK names
spare_bytes = 0
next_mark = None      # the calibration point a MARK names
spare_bytes = 0


def _fixed_bytes(n):
    return bytes(range(1, n + 1))


def standins():
    """Load the stand-ins for the board's C modules (before the first
    figure, so their modules count from boot on, as on a board they cost
    nothing), and give ``os`` what a board's has."""
    import board as _board  # noqa: F401
    import keypad  # noqa: F401
    import microcontroller  # noqa: F401
    import neopixel  # noqa: F401
    import supervisor  # noqa: F401
    import usb_cdc  # noqa: F401
    import os
    try:
        os.urandom
    except AttributeError:
        # a board has it; the WebAssembly build does not: fixed bytes keep
        # the run the same every time
        os.urandom = _fixed_bytes


def begin(gen, total=0, spare=0):
    """Run ``gen``'s passes from :func:`step`. ``total`` is the heap's
    usable size (0: the heap cannot grow, as on a program interpreter);
    the WebAssembly build adds heap instead of raising MemoryError, so
    growth is what fails there. ``spare``: collect after a pass only when
    less than this is free (0: after every pass, so each pass starts with
    only live objects)."""
    global passes, reserve, base_total, spare_bytes
    passes = gen
    spare_bytes = spare
    gc.collect()
    if total:
        base_total = total
        reserve = gc.mem_alloc() + gc.mem_free() - total


def start(kind, board, gid, seed, presses=0, total=0):
    """Set up a scenario (``kind`` "app" or "points")."""
    global script
    standins()
    script = Script(board, gid, seed)
    begin(script.app_run(presses) if kind == "app" else script.points_run(), total)


def step():
    """One pass: its flags, GREW if the heap grew past its start, DONE at
    the end, and from bit USED_SHIFT on the heap in use at its end in
    16-byte blocks (a small int: nothing allocated to answer)."""
    global peak, counted, grew, pending, live_max
    live = gc.mem_alloc()       # after the collection that ended the last pass
    if live > live_max and not spare_bytes:
        live_max = live
    if pending is not None:
        points[pending] = live
        pending = None
    loaded = len(sys.modules)
    try:
        flags = next(passes)
    except StopIteration:
        return DONE
    if len(sys.modules) != loaded:
        flags |= LOADED
    if flags & MARK:
        pending = next_mark
    else:
        counted += 1
    used = gc.mem_alloc()
    if used > peak:
        peak = used
    if base_total and used + gc.mem_free() - reserve > base_total:
        if not grew:
            grew = counted
        flags |= GREW
    # WebAssembly: the collection runs as this call returns
    if pending is not None or not spare_bytes or free(used) < spare_bytes:
        gc.collect()
    return flags | (used >> 4) << USED_SHIFT


def free(live):
    """The heap left free when ``live`` bytes are in use."""
    if base_total:
        return base_total - live
    return gc.mem_free() + gc.mem_alloc() - live


def finish():
    """Print the RESULT line."""
    fields = script.fields
    fields["passes"] = counted
    fields["peak"] = peak
    fields["live_max"] = live_max
    fields["points"] = points
    if grew:
        fields["memory_error"] = "the heap grew at pass %d" % grew
    gc.collect()
    fields["live_end"] = gc.mem_alloc()
    print("RESULT " + json.dumps(fields))


def main(kind, board, gid, seed, presses=0):
    """The whole scenario in one loop, on an interpreter run as a program
    (``-c "import driver; driver.main('app', 'pico_8x8', 'dice', 7, 120)"``)."""
    try:
        start(kind, board, gid, seed, presses)
        while not step() & DONE:
            pass
        finish()
    except MemoryError as e:
        print("RESULT " + json.dumps({"memory_error": str(e), "passes": counted}))
