"""Short tones on a piezo: a move, a refusal, a roll, a bust, a win.

A board profile may name a piezo pin (``PIEZO_PIN``, see boards/); code.py
then drives it through CircuitPython's ``pwmio.PWMOut`` (a square wave at
half duty while a note sounds, duty 0 between notes)::

    sound = Sound(pwm)          # pwm: a pwmio.PWMOut made with
                                # variable_frequency=True, or a stand-in
    sound.play(MOVE, now)       # starts the tone, returns at once
    sound.tick(now)             # each loop pass: the next note, or silence

Nothing blocks and nothing is allocated per tone: each tone is a few
notes in one table. ``Sound(None)`` (no piezo) plays nothing. ``on`` is
the mute setting (lib.settings' SOUND). ``listener``, if set, is called
with the tone's number each time one starts: the simulator prints or
records the tones through it (tools/simkit.py), since Blinka's desktop
board has no PWM; the tests check which tones were played.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

MOVE = const(0)
REFUSE = const(1)
ROLL = const(2)
BUST = const(3)
WIN = const(4)
NAMES = ("move", "refuse", "roll", "bust", "win")
# each tone's notes: frequency (Hz), length (ms), ...; a frequency of 0 is
# a rest
NOTES = (
    (1760, 25),
    (220, 60, 0, 30, 196, 90),
    (1200, 12, 0, 20, 1400, 12, 0, 20, 1600, 12),
    (392, 90, 330, 90, 262, 160),
    (523, 90, 659, 90, 784, 90, 1047, 220),
)
LOUD = const(0x8000)    # half duty: a piezo's loudest square wave


class Sound:
    """Plays one tone at a time on ``pwm`` (see the module doc)."""

    def __init__(self, pwm=None):
        self.pwm = pwm
        self.on = True           # False: muted (the SOUND setting)
        self.listener = None     # called with each tone started, or None
        self.notes = None        # the tone playing, or None
        self.note = 0            # index of its note sounding now
        self.until = 0           # when that note ends (ms)

    def play(self, tone, now):
        """Start ``tone`` (MOVE .. WIN), cutting short any playing."""
        if not self.on:
            return
        if self.listener is not None:
            self.listener(tone)
        if self.pwm is None:
            return
        self.notes = NOTES[tone]
        self.note = 0
        self._sound(now)

    def _sound(self, now):
        notes = self.notes
        f = notes[self.note]
        pwm = self.pwm
        if f:
            pwm.frequency = f
            pwm.duty_cycle = LOUD
        else:
            pwm.duty_cycle = 0
        self.until = now + notes[self.note + 1]

    def tick(self, now):
        """Each loop pass: move to the next note once one has had its time
        (or fall silent after the last)."""
        notes = self.notes
        if notes is None or ((now - self.until) & 0x1FFFFFFF) >= 0x10000000:
            return              # nothing playing, or not due (ticks wrap)
        self.note += 2
        if self.note >= len(notes):
            self.notes = None
            self.pwm.duty_cycle = 0
            return
        self._sound(now)

    def stop(self):
        if self.pwm is not None:
            self.pwm.duty_cycle = 0
        self.notes = None


def open_piezo(pin_name):
    """A ``pwmio.PWMOut`` on the board pin called ``pin_name``, silent;
    None where there is no such pin or no PWM (e.g. a desktop)."""
    if not pin_name:
        return None
    try:
        import board
        import pwmio
        return pwmio.PWMOut(getattr(board, pin_name), duty_cycle=0,
                            frequency=440, variable_frequency=True)
    except (ImportError, AttributeError, ValueError, RuntimeError,
            NotImplementedError):
        return None
