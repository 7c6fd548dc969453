"""The board side of the device budget: runs inside CircuitPython's
interpreter core (``circuitpython-cpy32 -X heapsize=...``), in a folder laid
out like a CIRCUITPY drive plus the stand-ins for the board's C modules.

    driver.py pystone LOOPS
    driver.py app GAME SEED PRESSES
    driver.py engine GAME SEED STEPS [OPTION ...]

Each prints one line ``RESULT <json>`` at the end. A MemoryError anywhere
ends the run with ``RESULT {"memory_error": ...}``: in a fixed heap that is
what a board with that much free heap would do.

Times are this machine's microseconds (``time.ticks_us``); tools/budget.py
scales them to the reference board by a pystone run on the same
interpreter. Nothing here allocates per pass beyond what it records.
"""

import gc
import json
import sys
import time

UP, DOWN, LEFT, RIGHT, A, B = 0, 1, 2, 3, 4, 5
PASS_MS = 20          # the app's clock moves this much per loop pass
HOLD_MS = 1300        # a B held this long is the escape gesture


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


def result(fields):
    gc.collect()
    fields["live_end"] = gc.mem_alloc()
    print("RESULT " + json.dumps(fields))


def run_pystone(loops):
    import pystone
    pystone.run(loops // 10)   # warm up
    best = 0
    for _ in range(3):
        t = time.ticks_us()
        pystone.run(loops)
        dt = time.ticks_diff(time.ticks_us(), t)
        rate = loops * 1000000 // max(dt, 1)
        if rate > best:
            best = rate
    result({"pystones": best})


def menu_position(gid):
    """How many RIGHT presses from the menu's first item reach ``gid``."""
    from lib import menu
    items = getattr(menu, "ITEMS", None)
    if items is None:
        from engine import catalog
        items = [e.gid for e in catalog.GAMES]
    for i in range(len(items)):
        if items[i] == gid:
            return i
    raise ValueError("game %s is not in the menu" % gid)


def run_app(gid, seed, presses):
    """Boot the app, open ``gid`` from the menu and press ``presses``
    seeded buttons, with one escape and resume on the way. Records each
    pass's time, whether it saw a button edge, and whether it imported a
    module (a game or screen loading)."""
    import supervisor
    import keypad
    import code
    app = code.make_app(clock=supervisor.ticks_ms, seed=seed)
    rng = XorShift(seed)
    # each pass is printed as it ends ("T microseconds flags"; flags: 1 a
    # button edge, 2 a module loaded), so the record takes no heap
    state = {"now": 0, "passes": 0}

    def one_pass(key, pressed):
        supervisor.now = state["now"]
        state["now"] += PASS_MS
        loaded = len(sys.modules)
        # a collection falls on whichever pass runs short of heap; its cost
        # is memory-bound C, which pystone does not scale, so it is taken
        # out of the pass times and measured on its own (gc_us)
        gc.collect()
        t = time.ticks_us()
        if key >= 0:
            keypad.push(key, pressed)
        app.step()
        dt = time.ticks_diff(time.ticks_us(), t)
        flags = (1 if key >= 0 else 0) | (2 if len(sys.modules) != loaded else 0)
        print("T", dt, flags)
        state["passes"] += 1

    def idle(n):
        for _ in range(n):
            one_pass(-1, False)

    def press(key, hold_ms=60):
        one_pass(key, True)
        idle(hold_ms // PASS_MS)
        one_pass(key, False)
        idle(3)

    def open_game():
        """From the menu to ``gid`` (its cursor may be anywhere) and in."""
        for _ in range(menu_position(gid) + 20):
            if app.menu.current() == gid:
                break
            press(RIGHT)
        press(A)
        idle(10)

    idle(80)     # the boot animation
    open_game()
    weights = (UP, DOWN, LEFT, RIGHT, A, A, A, A, RIGHT, DOWN, B)
    import usb_cdc
    for i in range(presses):
        if i == presses // 4:
            # a computer on the USB data port: the protocol loads and answers
            usb_cdc.push(b"state\nlegal\nshow\nhint\n")
        if i == presses // 2:
            press(B, HOLD_MS)      # escape: save and back to the menu
            idle(10)
            press(A)               # the menu's cursor is on the game: resume
            idle(10)
            continue
        press(weights[rng.below(len(weights))])
        if rng.below(8) == 0:
            idle(60)               # let animations and bots run
        if app.game is None and app.scr is app.menu:
            open_game()            # a finished game, or B out of it: again
    idle(150)                      # an idle save
    gc_us = 0
    for _ in range(3):
        t = time.ticks_us()
        gc.collect()
        gc_us = max(gc_us, time.ticks_diff(time.ticks_us(), t))
    import neopixel
    result({"passes": state["passes"], "game": app.game or "-", "gc_us": gc_us,
            "serial_bytes": usb_cdc.data.written,
            "frames": app.parts.pixels.shows, "checksum": neopixel.checksum()})


def run_engine(gid, seed, steps, opts):
    """Seeded random protocol lines through ``Session(auto=False)``, as a
    board on USB serial runs them; each line's time and, for a game with a
    bot, each ``hint`` (the bot's whole move) and each ``think`` slice."""
    from engine.protocol import Session
    session = Session(seed, auto=False)
    rng = XorShift(seed)
    t = time.ticks_us()
    answer = session.handle("new %s seed=%d %s" % (gid, seed, " ".join(opts)))
    new_us = time.ticks_diff(time.ticks_us(), t)
    if not answer.startswith("="):
        raise ValueError("new refused: " + answer)
    line_us = 0
    hint_us = 0
    slice_us = 0
    lines = 0
    state = session.state
    thinks = hasattr(state, "think")
    for _ in range(steps):
        state = session.state
        who = state.to_move()
        if who == -2:
            break
        if who == -1:
            line = "sample"
        else:
            if hasattr(state, "hint") and hasattr(state, "bot_move"):
                gc.collect()    # see run_app: collections are timed apart
                t = time.ticks_us()
                state.hint()
                hint_us = max(hint_us, time.ticks_diff(time.ticks_us(), t))
                if thinks:
                    plan = state.think()
                    while True:
                        gc.collect()
                        t = time.ticks_us()
                        got = next(plan)
                        slice_us = max(slice_us, time.ticks_diff(time.ticks_us(), t))
                        if got is not None:
                            break
            moves = state.legal_actions()
            line = "play " + state.token(moves[rng.below(len(moves))])
        t = time.ticks_us()
        answer = session.handle(line)
        line_us = max(line_us, time.ticks_diff(time.ticks_us(), t))
        lines += 1
        if not answer.startswith("="):
            raise ValueError("%s refused: %s" % (line, answer))
    result({"lines": lines, "new_us": new_us, "line_us": line_us, "hint_us": hint_us,
            "slice_us": slice_us})


def main():
    args = sys.argv[1:]
    what = args[0]
    try:
        if what == "pystone":
            run_pystone(int(args[1]))
        elif what == "app":
            run_app(args[1], int(args[2]), int(args[3]))
        elif what == "engine":
            run_engine(args[1], int(args[2]), int(args[3]), args[4:])
        else:
            raise ValueError("unknown run " + what)
    except MemoryError as e:
        import traceback
        traceback.print_exception(e)
        print("RESULT " + json.dumps({"memory_error": str(e)}))


main()
