"""Run the real console on a desktop: Blinka's OS-agnostic board, the real
code.py composition, the real keypad and NeoPixel paths.

Shared by the simulator (tools/sim.py), the tests and the README gallery::

    from tools.simkit import Sim
    sim = Sim(board="pico_8x8")        # boots the app, time starts at 0
    sim.press("right")                 # down, held 60 ms, up, 100 ms more
    sim.press("a", hold_ms=800)        # a long press
    sim.escape()                       # hold B until the app leaves
    sim.advance(500)                   # let time pass (20 ms loop passes)
    sim.frame()                        # [(r, g, b)] as written to the LEDs,
                                       # in reading (x, y) order
    sim.pixel(x, y)                    # one of them
    sim.indices()                      # palette indices of the shown frame
    print(sim.ascii())                 # the frame as text, 2 chars a pixel
    sim.png("shot.png")                # the matrix as a picture
    sim.tones                          # tones played: ["move", "win", ...]

How it hooks in, without bypassing the device layer:

* Frames are captured at the very bottom of the NeoPixel path: Blinka's
  ``neopixel_write`` for the OS-agnostic board (which otherwise discards
  the bytes) is replaced by a recorder, so ``frame()`` holds exactly the
  bytes ``neopixel.NeoPixel.show()`` sent, after brightness and the power
  limit.
* Buttons are pressed by recording transitions in the ``keypad.Keys``
  event queue code.py built, the same queue keypad's scanner fills on the
  board; lib.buttons reads them from there.
* Time is a counter: the app's clock reads ``sim.now`` and ``advance``
  steps the app loop in ``frame_ms`` passes, so runs are deterministic.
* The NVM is a bytearray (erased) unless you pass one (or a FileNVM).

``Sim(app=False)`` builds only the device layer (no ``lib.app.App``), for
tests of the display and buttons on their own.
"""

import os
import sys
import weakref

os.environ.setdefault("BLINKA_FORCEBOARD", "OS_AGNOSTIC_BOARD")
os.environ.setdefault("BLINKA_FORCECHIP", "OS_AGNOSTIC")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

BUTTONS = ("up", "down", "left", "right", "a", "b")
FRAME_MS = 20
TAP_MS = 60      # how long press() holds a button by default
SETTLE_MS = 100  # and how long it waits after releasing
LONG_HOLD_MS = 800
ESCAPE_HOLD_MS = 1200
GAMMA = 2.5

_sinks = weakref.WeakValueDictionary()   # id(gpio) -> Sim
_installed = False
_code = None


def _install_capture():
    """Route the OS-agnostic board's neopixel_write to the Sims."""
    global _installed
    if _installed:
        return
    from adafruit_blinka.microcontroller.generic_agnostic_board import neopixel as agn
    blinka_write = agn.neopixel_write

    def capture(gpio, buf):
        sim = _sinks.get(id(gpio))
        if sim is not None:
            sim._written(buf)
        return blinka_write(gpio, buf)

    agn.neopixel_write = capture
    _installed = True


def load_code():
    """code.py as a module (named ``pocket_code``: plain ``code`` is a
    standard library module)."""
    global _code
    if _code is None:
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "pocket_code", os.path.join(ROOT, "code.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _code = mod
    return _code


def button(name):
    """Button number of ``'up'`` .. ``'b'`` (case-insensitive)."""
    n = name.lower()
    if n not in BUTTONS:
        raise ValueError("unknown button %r (buttons: %s)" % (name, " ".join(BUTTONS)))
    return BUTTONS.index(n)


class FdPort:
    """A serial port for lib.link.Link over a file descriptor (the master
    side of a pseudo terminal, or a pipe pair), with the members of
    CircuitPython's ``usb_cdc.Serial`` that the link uses."""

    def __init__(self, read_fd, write_fd=None):
        self.read_fd = read_fd
        self.write_fd = read_fd if write_fd is None else write_fd
        self.timeout = 0
        self.pending = b""

    @property
    def in_waiting(self):
        import select
        if not self.pending:
            ready = select.select([self.read_fd], [], [], 0)[0]
            if ready:
                try:
                    self.pending = os.read(self.read_fd, 4096)
                except OSError:     # the other side closed
                    self.pending = b""
        return len(self.pending)

    def readinto(self, buf):
        n = min(len(buf), len(self.pending))
        buf[:n] = self.pending[:n]
        self.pending = self.pending[n:]
        return n

    def write(self, data):
        view = memoryview(data)
        while view:
            view = view[os.write(self.write_fd, view):]
        return len(data)


def open_pty_port():
    """``(port, path)``: a pseudo terminal whose far side (``path``) a
    client such as ``tools/ptp.py --port PATH`` opens like a board's."""
    import tty
    master, slave = os.openpty()
    tty.setraw(slave)     # bytes as they are: no echo, no CR/LF changes
    return FdPort(master), os.ttyname(slave)


class ToneRecorder:
    """Stands in for ``pwmio.PWMOut`` on the desktop: keeps the frequency
    and duty cycle written (lib.sound drives it as it would a PWM pin)."""

    def __init__(self):
        self.frequency = 440
        self.duty_cycle = 0


class Sim:
    """The console on a desktop, driven step by step (see module doc)."""

    def __init__(self, board="pico_8x8", nvm=None, seed=1, frame_ms=FRAME_MS,
                 start_ms=0, app=True):
        _install_capture()
        code = load_code()
        from lib import save
        self.now = start_ms
        self.frame_ms = frame_ms
        self.nvm = nvm if nvm is not None else bytearray(b"\xff" * 4096)
        self.parts = code.build(board, self.nvm)
        p = self.parts
        # keypad's scanner thread only ever reads idle mock pins here; let
        # it sleep instead of polling 50 times a second for nothing (never
        # deinit() Blinka's Keys: it joins a thread that never ends)
        p.keys._interval = 3600.0
        self.profile = p.profile
        self.display = p.display
        self.buttons = p.buttons
        self.keys = p.keys
        self.store = p.store
        self.writes = 0
        self.last_bytes = bytes(3 * self.display.n)
        self.last_indices = bytes(self.display.n)
        self.last_scale = 0
        self.app = None
        self.tones = []          # tones played, by name (lib.sound.NAMES)
        self.print_tones = False
        self._save = save
        _sinks[id(p.pixels.pin)] = self
        if app:
            self.app = self._make_app(seed)
            self.step()

    def _make_app(self, seed):
        from lib.app import App
        from lib.sound import Sound
        p = self.parts
        # a piezo stand-in: the tones are recorded (``tones``, names in the
        # order played) and printed if ``print_tones``, as the desktop
        # board has no PWM
        sound = Sound(ToneRecorder())
        sound.listener = self._tone
        return App(p.display, p.buttons, p.store, clock=self.clock, seed=seed,
                   sound=sound)

    def _tone(self, kind):
        from lib.sound import NAMES
        self.tones.append(NAMES[kind])
        if self.print_tones:
            print("tone: %s at %d ms" % (NAMES[kind], self.now))

    def serve(self, port):
        """Answer protocol lines arriving on ``port`` about the game on the
        screen, as a board does on its USB data port (lib/link.py)."""
        from lib.link import Link
        self.app.link = Link(self.app, port)

    # ---- capture -------------------------------------------------------------
    def _written(self, buf):
        self.writes += 1
        self.last_bytes = bytes(buf)
        self.last_indices = bytes(self.display.frame)
        self.last_scale = self.display.scale

    # ---- time ----------------------------------------------------------------
    def clock(self):
        return self.now & ((1 << 29) - 1)

    def step(self):
        """One pass of the app loop at the current time."""
        self.app.step()

    def advance(self, ms):
        """Let ``ms`` milliseconds pass, one loop pass per ``frame_ms``."""
        end = self.now + ms
        while self.now < end:
            self.now = min(end, self.now + self.frame_ms)
            self.step()

    # ---- buttons -------------------------------------------------------------
    def down(self, name):
        """Record a press in keypad's event queue (as its scanner would)."""
        self.keys.events.keypad_eventqueue_record(button(name), True)

    def up(self, name):
        self.keys.events.keypad_eventqueue_record(button(name), False)

    def press(self, name, hold_ms=TAP_MS, after_ms=SETTLE_MS):
        """Press ``name``, hold it ``hold_ms``, release, wait ``after_ms``."""
        self.down(name)
        self.advance(hold_ms)
        self.up(name)
        self.advance(after_ms)

    def long(self, name):
        self.press(name, hold_ms=LONG_HOLD_MS)

    def escape(self):
        """The escape gesture: hold B past lib.buttons.ESCAPE_MS."""
        self.press("b", hold_ms=ESCAPE_HOLD_MS)

    def run_script(self, script, on_token=None):
        """Play a key script (syntax: tools/sim.py --help)."""
        for tok in parse_script(script):
            if on_token is not None:
                on_token(tok)
            kind = tok[0]
            if kind == "tap":
                self.press(tok[1])
            elif kind == "hold":
                self.press(tok[1], hold_ms=tok[2])
            elif kind == "wait":
                self.advance(tok[1])
            elif kind == "down":
                self.down(tok[1])
                self.advance(self.frame_ms)
            elif kind == "up":
                self.up(tok[1])
                self.advance(self.frame_ms)
            elif kind == "esc":
                self.escape()
            elif kind == "menu":
                self.to_item(tok[1])

    def to_item(self, item):
        """Tap RIGHT until the menu's cursor is on ``item`` (a catalog id or
        settings, scores, about): scripts name what they open, so adding a
        game to the catalog moves no script. The boot animation, if it is
        still up, is let run to the menu first."""
        menu = self.app.menu
        for _ in range(BOOT_WAIT_MS // self.frame_ms):
            if self.app.scr is menu or type(self.app.scr).__name__ != "Boot":
                break
            self.advance(self.frame_ms)
        if self.app.scr is not menu:
            raise ValueError("menu:%s: the menu is not showing" % item)
        if item not in menu.items:
            raise ValueError("menu:%s: no such menu item (items: %s)"
                             % (item, " ".join(menu.items)))
        while menu.current() != item:
            self.press("right")

    # ---- what the LEDs show -------------------------------------------------
    def frame(self):
        """The last frame written to the LEDs, as (r, g, b) per logical
        pixel in reading order (decoded from the bytes sent, in the
        profile's PIXEL_ORDER, GRB for WS2812B)."""
        m = self.display.map
        b = self.last_bytes
        order = self.profile.PIXEL_ORDER
        ri, gi, bi = order.index("R"), order.index("G"), order.index("B")
        out = []
        for i in range(self.display.n):
            j = 3 * m[i]
            out.append((b[j + ri], b[j + gi], b[j + bi]))
        return out

    def pixel(self, x, y):
        return self.frame()[y * self.display.width + x]

    def indices(self):
        """Palette indices of the last frame written (snapshotted at the
        write), in reading order."""
        return self.last_indices

    def ascii(self):
        """The last written frame as text: two characters per pixel, e.g.
        ``r3`` a large red, ``k1`` a small black, ``..`` off (see
        :data:`CELL`)."""
        w = self.display.width
        idx = self.last_indices
        rows = []
        for y in range(self.display.height):
            rows.append(" ".join([cell(idx[y * w + x]) for x in range(w)]))
        return "\n".join(rows)

    def view(self):
        """Screen colours of the last frame: undo the gamma and the
        brightness so a dim LED still reads on a monitor."""
        s = self.last_scale or 1
        out = []
        for r, g, b in self.frame():
            out.append((_perceived(r, s), _perceived(g, s), _perceived(b, s)))
        return out

    def png(self, path, led=24):
        """Save the matrix as a picture: round LEDs on a dark board."""
        save_png(path, self.view(), self.display.width, self.display.height, led)

    def modelled_ma(self):
        from lib.display import frame_ma
        return frame_ma(self.last_bytes, self.display.ma_channel,
                        self.display.idle_ma)


# ---- text cells ----------------------------------------------------------------
def _cells():
    from lib import palette as pal
    out = [".."] + ["%s%d" % (c, s) for c in "roygcbpwk" for s in (1, 2, 3)]
    out += ["[]", "OK", "XX", "::", "##", "!!", "**"]
    out += ["P" + "123456789ABC"[i] for i in range(pal.PLAYERS)]  # players 1..12
    assert len(out) == pal.SIZE
    return tuple(out)


CELL = None


def cell(index):
    """Two characters for a palette index (``??`` for a screen's own)."""
    global CELL
    if CELL is None:
        CELL = _cells()
    return CELL[index] if index < len(CELL) else "??"


def _perceived(v, scale):
    if not v:
        return 0
    x = min(1.0, v / max(1, scale))
    return max(64, int(round(255 * x ** (1 / GAMMA))))


def save_png(path, colours, width, height, led=24):
    from PIL import Image, ImageDraw
    pad = led // 2
    img = Image.new("RGB", (width * led + 2 * pad, height * led + 2 * pad), (18, 18, 22))
    draw = ImageDraw.Draw(img)
    r = int(led * 0.38)
    for y in range(height):
        for x in range(width):
            c = colours[y * width + x]
            cx = pad + x * led + led // 2
            cy = pad + y * led + led // 2
            if c == (0, 0, 0):
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(30, 30, 35))
            else:
                g = r + 3   # a soft halo, a quarter of the colour
                draw.ellipse((cx - g, cy - g, cx + g, cy + g),
                             fill=tuple(18 + v // 4 for v in c))
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c)
    img.save(path)


# ---- key scripts ------------------------------------------------------------------
SCRIPT_HELP = """\
key script: tokens separated by spaces or commas
  up down left right a b   tap a button (held 60 ms, then 100 ms pass)
  A B                      long press of a or b (held 800 ms)
  esc                      the escape gesture (b held 1200 ms)
  NAME*N                   the token N times, e.g. right*3
  hold:NAME:MS             hold a button MS ms (directions auto-repeat)
  press:NAME release:NAME  a single edge (then one 20 ms pass)
  wait:MS                  let MS ms pass
  menu:ID                  tap right until the menu is on ID (a game or tool
                           id, settings, scores or about), e.g. menu:dice"""


BOOT_WAIT_MS = 3000     # menu:ID lets the boot animation end this long at most


def parse_script(text):
    """Key script -> list of tuples; ValueError with the bad token."""
    out = []
    for raw in text.replace(",", " ").split():
        tok, times = raw, 1
        if "*" in raw:
            tok, _, n = raw.partition("*")
            if not n.isdigit() or not 1 <= int(n) <= 1000:
                raise ValueError("bad repeat in %r: NAME*N with N 1..1000" % raw)
            times = int(n)
        if tok in ("A", "B"):
            item = ("hold", tok.lower(), LONG_HOLD_MS)
        elif tok.lower() in BUTTONS:
            item = ("tap", tok.lower())
        elif tok.lower() == "esc":
            item = ("esc",)
        elif tok.startswith("menu:") and len(tok) > 5:
            item = ("menu", tok[5:])
        elif tok.startswith("wait:") and tok[5:].isdigit():
            item = ("wait", int(tok[5:]))
        elif tok.startswith("hold:"):
            parts = tok.split(":")
            if len(parts) != 3 or parts[1].lower() not in BUTTONS or not parts[2].isdigit():
                raise ValueError("bad token %r: hold:NAME:MS, e.g. hold:a:800" % raw)
            item = ("hold", parts[1].lower(), int(parts[2]))
        elif tok.startswith("press:") or tok.startswith("release:"):
            what, _, name = tok.partition(":")
            if name.lower() not in BUTTONS:
                raise ValueError("bad token %r: unknown button %r" % (raw, name))
            item = ("down" if what == "press" else "up", name.lower())
        else:
            raise ValueError("bad token %r\n%s" % (raw, SCRIPT_HELP))
        out.extend([item] * times)
    return out
