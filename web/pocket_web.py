"""The page's side of the device: the board's C modules for a browser.

The page (web/pocket.js) runs the real ``code.py`` on MicroPython compiled
to WebAssembly. The board's C modules are the device budget's stand-ins
(tools/budget/standins: ``board``, ``keypad``, ``neopixel``,
``microcontroller``, ``supervisor``), copied beside the device files as
they are; this module adds only what a browser needs on top of them:

* the NVM comes from the page (the browser's local storage) and the page
  reads it back after a pass that changed it, to keep it there;
* the clock is the browser's: the page sets ``supervisor.now`` before each
  pass, from its animation loop or, for a scripted run, a counter;
* frames are read by the page: each ``show()`` keeps a copy of the LED
  values in reading order (as ``tools/simkit.py`` decodes the bytes sent),
  with the brightness scale the display used for it.

Everything here is called from JavaScript, one call per pass, so the page
never blocks; the heap is collected between passes (:func:`collect`).
"""

import gc

import board      # noqa: F401  (the stand-ins, imported before code.py)
import keypad
import microcontroller
import neopixel
import supervisor

NVM_SIZE = 4096
_app = None
_frame = None        # the last shown frame, 3 bytes a LED in reading order
_scale = 0           # the display's brightness scale for that frame
_shows = 0           # frames shown so far
_nvm_seen = None     # the NVM as the page last took it
_show = neopixel.NeoPixel.show


def _show_and_keep(self):
    """``NeoPixel.show`` that also keeps the frame for the page."""
    global _shows, _scale
    _show(self)
    if _app is None or _frame is None:
        return
    d = _app.parts.display
    m = d.map
    f = _frame
    j = 0
    for i in range(d.n):
        v = self[m[i]]
        f[j] = v >> 16
        f[j + 1] = (v >> 8) & 255
        f[j + 2] = v & 255
        j += 3
    _scale = d.scale
    _shows += 1


neopixel.NeoPixel.show = _show_and_keep


def start(profile, nvm_hex, seed):
    """Make the console with ``code.make_app``: ``profile`` a board profile
    name, ``nvm_hex`` the NVM as hex (empty: an erased one), ``seed`` the
    chance seed. Returns ``"WIDTH HEIGHT"``."""
    global _app, _frame, _nvm_seen
    import code
    from binascii import unhexlify
    if nvm_hex:
        microcontroller.nvm[:] = unhexlify(nvm_hex)
    _nvm_seen = bytes(microcontroller.nvm)
    supervisor.now = 0
    _app = code.make_app(profile, microcontroller.nvm, supervisor.ticks_ms, seed)
    d = _app.parts.display
    _frame = bytearray(3 * d.n)
    return "%d %d" % (d.width, d.height)


def press(key, down):
    """A button edge (key 0..5: UP DOWN LEFT RIGHT A B), as the keypad
    scanner would queue it."""
    keypad.push(key, bool(down))


def step(now):
    """One pass of the app loop at ``now`` ms; the number of frames shown
    so far."""
    supervisor.now = now
    _app.step()
    return _shows


def allocated():
    """Heap bytes in use now: right after a pass, what the pass left (the
    heap was collected before it)."""
    return gc.mem_alloc()


def collect():
    """Collect the heap between passes; the bytes in use after it."""
    gc.collect()
    return gc.mem_alloc()


def heap_total():
    return gc.mem_alloc() + gc.mem_free()


def frame():
    """``"SCALE HEX"``: the last shown frame's brightness scale and its LED
    values, 6 hex digits a LED in reading order."""
    from binascii import hexlify
    return "%d %s" % (_scale, hexlify(_frame).decode())


def nvm_changed():
    """The NVM as hex if a pass wrote it since the last call, else ''."""
    global _nvm_seen
    if microcontroller.nvm == _nvm_seen:
        return ""
    from binascii import hexlify
    _nvm_seen = bytes(microcontroller.nvm)
    return hexlify(_nvm_seen).decode()


def store_notice():
    """What the save store said about the NVM it found at boot (e.g.
    ``SAVE CORRUPT``), or '' when all was well."""
    return _app.parts.store.notice() or ""
