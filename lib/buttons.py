"""Six buttons as a stream of small-int events, on top of ``keypad.Keys``.

``keypad`` scans and debounces the pins in the background and queues every
edge, so a press made while the app is busy drawing is never lost. This
module turns those edges into what a game wants:

=========  ==============================================================
PRESS      any button went down (A acts on this)
RELEASE    any button came up
REPEAT     a direction is still held: after ``repeat_delay`` ms, then
           every ``repeat_ms`` ms
CLICK      A or B came up before ``long_ms`` (B acts on this, because a
           held B may become the escape gesture)
LONG       A held ``long_ms`` (fires while still held); B released after
           ``long_ms`` but before ``escape_ms``
ESCAPE     B held ``escape_ms`` (default 900 ms): back to the menu. Fires
           while B is still held; that press gives no CLICK or LONG
OVERFLOW   the keypad queue overflowed; held buttons were released
=========  ==============================================================

An event is one small int ``kind | button`` (see :func:`kind_of` and
:func:`button_of`); 0 (:data:`NONE`) means "no event". Nothing is allocated
per press: one ``keypad.Event`` is reused and events wait in a fixed ring.

Time is passed in (``now_ms``) so tests and the simulator are
deterministic. Use one clock that wraps like ``supervisor.ticks_ms``
(:func:`ticks_ms` here returns one).

Typical loop::

    buttons.poll(now)
    ev = buttons.get()
    while ev:
        handle(ev)
        ev = buttons.get()
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
A = const(4)
B = const(5)
COUNT = const(6)
NAMES = ("up", "down", "left", "right", "a", "b")

NONE = const(0)
PRESS = const(0x08)
RELEASE = const(0x10)
REPEAT = const(0x18)
CLICK = const(0x20)
LONG = const(0x28)
ESCAPE = const(0x30)
OVERFLOW = const(0x38)
KIND_NAMES = ("none", "press", "release", "repeat", "click", "long",
              "escape", "overflow")

REPEAT_DELAY = const(400)
REPEAT_MS = const(140)
LONG_MS = const(500)
ESCAPE_MS = const(900)

_PERIOD = const(1 << 29)
_HALF = const(1 << 28)
_RING = const(32)
# per-button flags
_HELD = const(1)
_DONE = const(2)    # this press already produced LONG or ESCAPE


def ticks_diff(a, b):
    """``a - b`` for a millisecond clock wrapping at 2**29, as
    ``supervisor.ticks_ms`` does."""
    return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF


try:
    from supervisor import ticks_ms  # the board's clock, wraps at 2**29
except ImportError:
    import time as _time

    def ticks_ms():
        """Desktop stand-in for ``supervisor.ticks_ms``: a monotonic
        millisecond clock folded to the same 2**29 range."""
        return (_time.monotonic_ns() // 1000000) & (_PERIOD - 1)


def kind_of(ev):
    """The kind of an event (PRESS, RELEASE, ...)."""
    return ev & 0xF8


def button_of(ev):
    """The button of an event (UP .. B)."""
    return ev & 7


def describe(ev):
    """``'press a'`` etc., for logs and tests (allocates: not for the loop)."""
    if not ev:
        return "none"
    return "%s %s" % (KIND_NAMES[ev >> 3], NAMES[ev & 7])


class Buttons:
    """Semantic events from a ``keypad.Keys`` whose key numbers are the
    button constants (key 0 is UP ... key 5 is B)."""

    __slots__ = ("keys", "_ev", "_ring", "_head", "_count", "_flags",
                 "_nheld", "_since", "_next", "_last", "repeat_delay", "repeat_ms",
                 "long_ms", "escape_ms", "overflows", "presses")

    def __init__(self, keys, repeat_delay=REPEAT_DELAY, repeat_ms=REPEAT_MS,
                 long_ms=LONG_MS, escape_ms=ESCAPE_MS):
        import keypad
        self.keys = keys
        self._ev = keypad.Event()
        self._ring = bytearray(_RING)
        self._head = 0
        self._count = 0
        self._flags = bytearray(COUNT)
        self._nheld = 0             # buttons down now: idle passes skip the timers
        self._since = [0] * COUNT   # when the button went down
        self._next = [0] * COUNT    # when the next REPEAT is due
        self._last = 0              # time of the last edge, for idle_ms
        self.repeat_delay = repeat_delay
        self.repeat_ms = repeat_ms
        self.long_ms = long_ms
        self.escape_ms = escape_ms
        self.overflows = 0          # times the keypad queue overflowed
        self.presses = 0            # PRESS events produced, for stats/tests

    # ---- the ring of produced events -------------------------------------
    def _put(self, ev):
        if self._count < _RING:
            self._ring[(self._head + self._count) % _RING] = ev
            self._count += 1

    def get(self):
        """The next event code, or NONE (0) when there is none."""
        if not self._count:
            return NONE
        ev = self._ring[self._head]
        self._head = (self._head + 1) % _RING
        self._count -= 1
        return ev

    def pending(self):
        """How many events wait in the ring."""
        return self._count

    # ---- input -----------------------------------------------------------
    def poll(self, now_ms):
        """Take the edges queued by keypad and produce the timed events
        (repeat, long, escape) due at ``now_ms``. Call once per loop pass."""
        q = self.keys.events
        if q.overflowed:
            self._overflow(now_ms)
        ev = self._ev
        # leave room for the most one edge can produce (RELEASE + CLICK) so
        # nothing is dropped here: the rest stays queued in keypad
        while self._count <= _RING - 2 and q.get_into(ev):
            n = ev.key_number
            if n >= COUNT:
                continue
            if ev.pressed:
                self._down(n, now_ms)
            else:
                self._up(n, now_ms)
        self._timers(now_ms)

    def _down(self, n, now):
        if self._flags[n] & _HELD:
            return  # keypad never sends two presses; stay safe anyway
        self._flags[n] = _HELD
        self._nheld += 1
        self._since[n] = now
        self._next[n] = now + self.repeat_delay
        self._last = now
        self.presses += 1
        self._put(PRESS | n)

    def _up(self, n, now):
        f = self._flags[n]
        if not f & _HELD:
            return
        self._flags[n] = 0
        self._nheld -= 1
        self._last = now
        self._put(RELEASE | n)
        if n >= A and not f & _DONE:
            held = ticks_diff(now, self._since[n])
            if n == B and held >= self.escape_ms:
                self._put(ESCAPE | B)   # released before poll saw the hold
            elif held >= self.long_ms:
                self._put(LONG | n)
            else:
                self._put(CLICK | n)

    def _timers(self, now):
        if not self._nheld:
            return
        for n in range(COUNT):
            f = self._flags[n]
            if not f & _HELD or self._count >= _RING:
                continue
            if n < A:
                if ticks_diff(now, self._next[n]) >= 0:
                    self._put(REPEAT | n)
                    # one repeat per poll: a slow frame does not burst
                    self._next[n] = now + self.repeat_ms
            elif not f & _DONE:
                held = ticks_diff(now, self._since[n])
                if n == B:
                    if held >= self.escape_ms:
                        self._flags[n] = f | _DONE
                        self._put(ESCAPE | B)
                elif held >= self.long_ms:
                    self._flags[n] = f | _DONE
                    self._put(LONG | n)

    def _overflow(self, now):
        # Edges were lost, so what we believe is held may be wrong. Release
        # everything (without clicks), then ask keypad to report the keys
        # that are really down as fresh presses.
        self.overflows += 1
        self.keys.events.clear()
        for n in range(COUNT):
            if self._flags[n] & _HELD:
                self._flags[n] = 0
                self._put(RELEASE | n)
        self._nheld = 0
        self._put(OVERFLOW)
        self.keys.reset()
        self._last = now

    # ---- queries ---------------------------------------------------------
    def held(self, n):
        """True while button ``n`` is down."""
        return bool(self._flags[n] & _HELD)

    def held_ms(self, n, now_ms):
        """How long button ``n`` has been down (0 if it is up)."""
        if not self._flags[n] & _HELD:
            return 0
        return ticks_diff(now_ms, self._since[n])

    def any_held(self):
        return self._nheld > 0

    def idle_ms(self, now_ms):
        """Milliseconds since the last press or release (0 while any
        button is held): the app saves once this passes ~2 s."""
        if self.any_held():
            return 0
        return ticks_diff(now_ms, self._last)

    def clear(self):
        """Forget queued events and held buttons (e.g. when a screen
        changes and stale presses must not leak into it). Buttons still
        down are reported again as fresh presses."""
        self.keys.events.clear()
        self._count = 0
        for n in range(COUNT):
            self._flags[n] = 0
        self._nheld = 0
        self.keys.reset()
