"""The MicroPython side of tools/compile_peak.py (run by run.mjs).

Every function is one call from JavaScript. In MicroPython's WebAssembly
build the collector never runs inside a call: ``gc.collect()`` only asks
for a collection, which happens when the call returns to JavaScript, and a
full heap grows instead of raising MemoryError. So ``gc.mem_alloc()`` at
the end of a call is the most the heap held during it (what was live plus
every byte the call allocated, garbage included), and a heap that grew
during a call is one that would have run out. ``mem_free()`` counts a
fixed reserve of heap that could still be added (RESERVE) on top of the
real heap.
"""

import gc
import sys

RESERVE = 134217728     # the build's "max new split" (micropython.mem_info)
peak = 0               # mem_alloc at the end of the last measured call
heap = 0               # the real heap then
app = None
_sup = None
_kp = None


def _mark():
    global peak, heap
    peak = gc.mem_alloc()
    heap = peak + gc.mem_free() - RESERVE


def measured():
    """``"peak heap"`` as the last measured call left them."""
    return "%d %d" % (peak, heap)


def collect():
    """Ask for a collection: it runs as this call returns."""
    gc.collect()


def live():
    """``"alloc heap"`` now (after :func:`collect`, what is live)."""
    a = gc.mem_alloc()
    return "%d %d" % (a, a + gc.mem_free() - RESERVE)


ballast = None


def squeeze(free, largest):
    """Hold one block in the largest free block (``largest`` bytes, from
    ``micropython.mem_info``: the end of the heap), so that ``free`` bytes
    stay free with the holes left as they are, as on a board after the
    same imports (call after :func:`collect`): the room the next call gets.
    With fewer bytes in the holes than ``free`` the holes stay and the
    rest of the end is held."""
    global ballast
    ballast = None
    total = gc.mem_free() - RESERVE
    n = largest - max(0, free - (total - largest))
    if n > 64:
        ballast = bytearray(n - 32)
    _mark()


def imp(name):
    """Import one module, as a board does on first use."""
    __import__(name)
    _mark()


def start(profile, seed):
    """code.py's make_app on the stand-in board, clocked by the runner."""
    global app, _sup, _kp
    import supervisor
    import keypad
    _sup = supervisor
    _kp = keypad
    code = __import__("code")
    app = code.make_app(profile, clock=supervisor.ticks_ms, seed=seed)
    _mark()


def index(gid):
    """Where ``gid`` sits in the menu: RIGHT presses from the first item."""
    return app.menu.items.index(gid)


def step(now, key, pressed):
    """One app loop pass at ``now`` ms after an edge on ``key`` (-1 none)."""
    _sup.now = now
    if key >= 0:
        _kp.push(key, pressed)
    app.step()
    _mark()


def run(source):
    """Run Python ``source`` with ``app`` and ``sys`` in its globals (a
    what-if, e.g. dropping a module, measured like any other call)."""
    exec(source, {"app": app, "sys": sys, "gc": gc})
    _mark()


def where():
    """``"game screen unsaved modules"`` after a pass (read unmeasured)."""
    return "%s %s %d %d" % (app.game or "-", type(app.scr).__name__,
                            1 if app.unsaved else 0, len(sys.modules))


def loaded():
    """The project's modules in sys.modules, space separated."""
    return " ".join(sorted([n for n in sys.modules
                            if n.startswith("lib") or n.startswith("engine")
                            or n.startswith("boards") or n == "code"]))
