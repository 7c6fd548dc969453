"""The MicroPython side of the budget runner (tools/budget/run.mjs).

Every function here is one call from JavaScript, and the runner times and
measures around it. In the WebAssembly build the garbage collector runs only
when control is back in JavaScript, so within one call nothing is freed and
``gc.mem_alloc()`` at the end of the call is the highest the heap reached
during it: live objects plus all the garbage the call made. A board would
collect in the middle of a step, so this peak is the pessimistic side.

The heap also grows instead of raising MemoryError: ``gc.mem_free()`` counts
a fixed reserve of "heap that could still be added". :func:`calibrate`
measures that reserve once from ``micropython.mem_info()`` and the runner
checks it with a deliberate allocation, so :func:`heap` is the real heap size
and a call that pushed it past the starting size (the cap) shows up.

Keep this module small and allocation-free after import: it is loaded
before the baseline is taken, and its globals are all bound up front so a
step never grows this module's dict.
"""

import gc

_reserve = 0
_total = 0
# results of the last call, read by the runner in a separate call
last_alloc = 0
last_heap = 0
answer = ""
sess = None
app = None
held = None


def calibrate(total):
    """Set the reserve from the GC total that ``micropython.mem_info()``
    printed (the runner reads it from stdout): the reserve is what
    ``mem_alloc + mem_free`` counts beyond the real heap."""
    global _reserve, _total
    _total = total
    _reserve = gc.mem_alloc() + gc.mem_free() - total
    return "%d %d" % (_total, _reserve)


def heap():
    """The heap's real size now (it is ``_total`` until it grows)."""
    return gc.mem_alloc() + gc.mem_free() - _reserve


def mark():
    """Record the heap use at the end of a call (no allocation)."""
    global last_alloc, last_heap
    last_alloc = gc.mem_alloc()
    last_heap = gc.mem_free()
    last_heap = last_alloc + last_heap - _reserve


def measured():
    """``"alloc heap"`` as left by the last measured call."""
    return "%d %d" % (last_alloc, last_heap)


def collect():
    """Ask for a collection; it runs as this call returns to JavaScript."""
    gc.collect()


def live():
    """``"alloc heap"`` now (call after :func:`collect`)."""
    a = gc.mem_alloc()
    h = a + gc.mem_free() - _reserve
    return "%d %d" % (a, h)


def noop(line):
    """Same call shape as :func:`step`: times the JS<->Python call cost."""
    mark()
    return line


def hold(n):
    """Keep a bytearray of ``n`` bytes alive (for the reserve check)."""
    global held
    held = bytearray(n) if n else None
    mark()


def imp(name):
    """Import one module, as a board would on first use."""
    __import__(name)
    mark()


def new_session(seed):
    """A protocol Session that leaves deal nodes to one ``sample`` per line
    (``auto=False``), as a board on USB serial runs it; older engines
    without that switch deal inside the line that reaches the deal."""
    from engine.protocol import Session
    try:
        return Session(seed, auto=False)
    except TypeError:
        return Session(seed)


def session(seed):
    global sess
    sess = new_session(seed)
    mark()


def step(line):
    """One protocol line through the real Session."""
    global answer
    answer = sess.handle(line)
    mark()
    return answer


# ---- app level ---------------------------------------------------------------
_sup = None
_kp = None


def app_make(profile, seed):
    """code.py's make_app on the stand-in board, clocked by the runner."""
    global app, _sup, _kp
    import supervisor
    import keypad
    _sup = supervisor
    _kp = keypad
    code = __import__("code")
    app = code.make_app(profile, clock=supervisor.ticks_ms, seed=seed)
    mark()
    return " ".join(app.playable)


def app_index(gid):
    """Where ``gid`` sits in the menu (RIGHT presses from the first item)."""
    from lib.menu import ITEMS
    return ITEMS.index(gid) if gid in ITEMS else -1


def app_step(now, key, pressed):
    """One pass of the app's loop at ``now`` ms, after an edge on ``key``
    (-1: none). Answers what the runner checks: game, frames shown and
    their checksum, and the screen class."""
    _sup.now = now
    if key >= 0:
        _kp.push(key, pressed)
    app.step()
    mark()
    return app.game or "-"


def app_frame():
    """What was shown: frames so far, pixel checksum and the screen class
    (read after a step, outside the timed call)."""
    import neopixel
    return "%s %d %d %s" % (app.game or "-", app.parts.pixels.shows,
                            neopixel.checksum(), type(app.scr).__name__)


def app_frame_cost(k):
    """Draw a whole changed frame and show it (pattern ``k``): what one
    full-screen update costs through lib.display, without the game."""
    d = app.d
    f = d.frame
    n = d.n
    for i in range(n):
        f[i] = (i + k) % 5 + 1
    d.show()
    mark()
