"""Pocket Pyramids: the CircuitPython entry point and composition root.

CircuitPython runs this file as ``__main__``; importing it (the simulator,
tests) runs nothing: call :func:`build` or :func:`make_app`.

Which board profile (see boards/): ``POCKET_BOARD`` in settings.toml, else
the one for ``board.board_id``. On a desktop, under Blinka's OS-agnostic
board, the same file runs with that board's pins (see boards/__init__.py)
and a file stands in for the NVM (``POCKET_NVM``, see lib/save.py).
"""

import os


class Parts:
    """What the app is made of, for the simulator and tests to reach."""

    def __init__(self, profile, pixels, keys, display, buttons, store, warning):
        self.profile = profile
        self.pixels = pixels
        self.keys = keys
        self.display = display
        self.buttons = buttons
        self.store = store
        self.warning = warning


def build(profile_name=None, nvm=None):
    """Make the device layer for this board: profile, LEDs, buttons, store.

    ``profile_name`` overrides the ``POCKET_BOARD`` setting; ``nvm`` the
    board's ``microcontroller.nvm`` (or the desktop file).
    """
    import board
    import keypad
    import neopixel
    import boards
    from lib import buttons as _buttons
    from lib import display as _display
    from lib import save as _save

    board_id = getattr(board, "board_id", "")
    name, warning = boards.choose(board_id, profile_name or os.getenv("POCKET_BOARD"))
    if warning:
        print(warning)
    profile = boards.load(name, board_id)
    # brightness is applied by lib.display in integers, so the NeoPixel
    # object writes exactly the bytes the power model counted
    pixels = neopixel.NeoPixel(getattr(board, profile.PIXEL_PIN),
                               profile.WIDTH * profile.HEIGHT,
                               brightness=1.0, auto_write=False,
                               pixel_order=profile.PIXEL_ORDER)
    keys = keypad.Keys([getattr(board, p) for p in profile.BUTTON_PINS],
                       value_when_pressed=profile.BUTTON_PRESSED, pull=True)
    display = _display.from_profile(pixels, profile)
    buttons = _buttons.Buttons(keys)
    store = _save.Store(nvm if nvm is not None else _save.default_nvm())
    profile = _forget_boards(name, profile)
    return Parts(profile, pixels, keys, display, buttons, store, warning)


class _Fields:
    """A board profile's values without the class that checked them."""


def _forget_boards(name, profile):
    """Drop the profile modules once the parts are made and return the
    profile's values: nothing reads the modules again, and on a board their
    code is ~3.7 KB of heap (from .mpy) a game can use. The checked Profile object would
    keep all of it alive (its methods hold the module's globals), so its
    values move to a bare object. On a desktop, where tools and tests use
    the modules and memory is not short, the profile is returned as it is."""
    import sys
    if sys.implementation.name == "cpython":
        return profile
    from engine.state import release
    rec = _Fields()
    for f in profile.__slots__:
        setattr(rec, f, getattr(profile, f))
    release("boards." + name)
    if "boards" in sys.modules:
        del sys.modules["boards"]
    return rec


def serial_port():
    """The USB data port boot.py turns on (``usb_cdc.data``), or None: a
    desktop, a board without native USB, or a boot.py that left it off."""
    try:
        import usb_cdc
    except ImportError:
        return None
    return usb_cdc.data


def make_app(profile_name=None, nvm=None, clock=None, seed=None, port=None):
    """The whole console: ``build`` plus ``lib.app.App(display, buttons,
    store, clock, seed)``. ``clock()`` gives milliseconds (default the
    board's ticks); ``seed`` fixes the dice (default os.urandom). The text
    protocol is answered on ``port`` (default :func:`serial_port`)."""
    parts = build(profile_name, nvm)
    from lib.app import App
    # the tones, on a board whose profile names a piezo pin (lib/sound.py is
    # not even loaded without one)
    sound = None
    pin = getattr(parts.profile, "PIEZO_PIN", None)
    if pin:
        from lib.sound import Sound, open_piezo
        pwm = open_piezo(pin)
        if pwm is not None:
            sound = Sound(pwm)
    app = App(parts.display, parts.buttons, parts.store, clock=clock, seed=seed,
              sound=sound)
    app.parts = parts
    if port is None:
        port = serial_port()
    if port is not None:
        from lib.link import Link
        app.link = Link(app, port)
    return app


if __name__ == "__main__":
    make_app().run()
