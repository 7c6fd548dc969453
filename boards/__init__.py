"""Board profiles: which pins, which panel, how much current.

A profile is a module here with these names:

``NAME``            its id (the module name)
``PIXEL_PIN``       board pin name of the NeoPixel data line, e.g. "GP0"
``WIDTH HEIGHT``    the panel as wired (LEDs per row, rows)
``SERPENTINE``      True if every other row runs backwards
``ROTATION``        0/90/180/270: how the panel is turned when mounted
``BUTTON_PINS``     pin names for UP DOWN LEFT RIGHT A B
``BUTTON_PRESSED``  the level a pressed button reads (False: to ground)
``BRIGHTNESS``      default brightness 0..255
``BUDGET_MA``       LED current budget in mA (the display stays under it)
``PIXEL_ORDER``     optional: colour order on the wire, "GRB" (WS2812B, the
                    default), "RGB" or "BGR"
``PIEZO_PIN``       optional: board pin name of a piezo buzzer (driven by
                    ``pwmio``, lib/sound.py), or None (the default): silent

Pins are names, resolved against ``board`` in code.py, so every profile
imports (and is tested) on any machine.

Choosing one (:func:`choose`): the ``POCKET_BOARD`` setting (settings.toml,
or the environment on a desktop) if it names an installed profile; else the
profile for ``board.board_id``; else the first installed profile (a build
installs only the one it was made for).

Desktop: under Blinka's OS-agnostic board (``board_id`` OS_AGNOSTIC_BOARD)
the chosen profile keeps its panel and budget but its pins are swapped for
that board's (and no piezo): the NeoPixel on ``board.NEOPIXEL`` and the buttons on its six
digital pins (``Dx_INPUT_TRUE`` D0, ``Dx_INPUT_FALSE`` D1,
``Dx_INPUT_TRUE_PULL_UP`` D2, ``Dx_INPUT_TRUE_PULL_DOWN`` D3, ``Dx_OUTPUT``
D4, ``Dx_INPUT_TOGGLE`` D7) read active-high. Under the pull-downs keypad
then enables, Blinka's mock pins all read low forever, so the pins never
press a button by themselves; the simulator presses buttons by queueing
events in keypad's own event queue.
"""

PROFILES = ("pico_8x8", "pico_16x16")
DEFAULT = "pico_8x8"
# board.board_id -> profile
BOARD_IDS = (
    ("raspberry_pi_pico", "pico_8x8"),
    ("raspberry_pi_pico_w", "pico_8x8"),
    ("raspberry_pi_pico2", "pico_8x8"),
    ("raspberry_pi_pico2_w", "pico_8x8"),
    ("OS_AGNOSTIC_BOARD", "pico_8x8"),
)
DESKTOP_BOARD_ID = "OS_AGNOSTIC_BOARD"
DESKTOP_PIXEL_PIN = "NEOPIXEL"
DESKTOP_BUTTON_PINS = ("Dx_INPUT_TRUE", "Dx_INPUT_FALSE", "Dx_INPUT_TRUE_PULL_UP",
                       "Dx_INPUT_TRUE_PULL_DOWN", "Dx_OUTPUT", "Dx_INPUT_TOGGLE")
DESKTOP_BUTTON_PRESSED = True

_FIELDS = ("NAME", "DESCRIPTION", "PIXEL_PIN", "WIDTH", "HEIGHT",
           "SERPENTINE", "ROTATION", "BUTTON_PINS", "BUTTON_PRESSED",
           "BRIGHTNESS", "BUDGET_MA")
_OPTIONAL = (("PIXEL_ORDER", "GRB"), ("PIEZO_PIN", None))
ORDERS = ("GRB", "RGB", "BGR")


class Profile:
    """A profile's values, checked, with desktop pins applied if asked."""

    __slots__ = _FIELDS + ("PIXEL_ORDER", "PIEZO_PIN")

    def __init__(self, mod):
        for f in _FIELDS:
            if not hasattr(mod, f):
                raise ValueError("board profile %s lacks %s" % (mod.__name__, f))
            setattr(self, f, getattr(mod, f))
        for f, default in _OPTIONAL:
            setattr(self, f, getattr(mod, f, default))
        if self.PIXEL_ORDER not in ORDERS:
            raise ValueError("%s: PIXEL_ORDER is one of %s" % (self.NAME, " ".join(ORDERS)))
        if self.WIDTH < 1 or self.HEIGHT < 1:
            raise ValueError("%s: bad panel size" % self.NAME)
        if self.ROTATION not in (0, 90, 180, 270):
            raise ValueError("%s: ROTATION must be 0, 90, 180 or 270" % self.NAME)
        if len(self.BUTTON_PINS) != 6:
            raise ValueError("%s: BUTTON_PINS needs 6 pins (up down left "
                             "right a b)" % self.NAME)
        if not 0 <= self.BRIGHTNESS <= 255:
            raise ValueError("%s: BRIGHTNESS is 0..255" % self.NAME)
        if self.BUDGET_MA <= self.WIDTH * self.HEIGHT:
            raise ValueError("%s: BUDGET_MA below the LEDs' idle current" % self.NAME)

    def for_desktop(self):
        """Swap in the OS-agnostic board's pins (see module doc)."""
        self.PIXEL_PIN = DESKTOP_PIXEL_PIN
        self.BUTTON_PINS = DESKTOP_BUTTON_PINS
        self.BUTTON_PRESSED = DESKTOP_BUTTON_PRESSED
        # no PWM there: the simulator records the tones instead
        self.PIEZO_PIN = None
        return self


def _module(name):
    return __import__("boards." + name, None, None, ("NAME",))


def installed(name):
    """True if profile ``name`` is known and present."""
    if name not in PROFILES:
        return False
    try:
        _module(name)
        return True
    except ImportError:
        return False


def choose(board_id, setting=None):
    """``(name, warning)``: the profile to use and a message (or None) if
    the ``setting`` could not be honoured."""
    warning = None
    if setting:
        if installed(setting):
            return setting, None
        warning = "POCKET_BOARD=%s: no such profile installed (have: %s)" % (
            setting, " ".join([p for p in PROFILES if installed(p)]) or "none")
    for bid, name in BOARD_IDS:
        if bid == board_id and installed(name):
            return name, warning
    for name in PROFILES:
        if installed(name):
            return name, warning
    raise ValueError("no board profile installed in boards/")


def load(name, board_id=None):
    """The :class:`Profile` called ``name``; with desktop pins when
    ``board_id`` is the OS-agnostic board."""
    if name not in PROFILES:
        raise ValueError("unknown board profile %r (profiles: %s)"
                         % (name, " ".join(PROFILES)))
    p = Profile(_module(name))
    if board_id == DESKTOP_BOARD_ID:
        p.for_desktop()
    return p
