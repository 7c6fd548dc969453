"""Stand-in for CircuitPython's ``keypad`` under the budget's MicroPython.

``Keys`` has the real API the app uses (``events`` with ``get_into``,
``overflowed`` and ``clear``, and ``reset``); edges come from the budget
runner through :func:`push` instead of a pin scanner. The queue is a fixed
ring like the C one, so nothing is allocated per press.
"""


class Event:
    __slots__ = ("key_number", "pressed", "timestamp")

    def __init__(self, key_number=0, pressed=True):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = 0

    @property
    def released(self):
        return not self.pressed


class EventQueue:
    def __init__(self, size=64):
        self._q = bytearray(size)
        self._head = 0
        self._n = 0
        self.overflowed = False

    def _put(self, n, pressed):
        if self._n >= len(self._q):
            self.overflowed = True
            return
        self._q[(self._head + self._n) % len(self._q)] = n | (0x80 if pressed else 0)
        self._n += 1

    def get_into(self, ev):
        if not self._n:
            return False
        v = self._q[self._head]
        self._head = (self._head + 1) % len(self._q)
        self._n -= 1
        ev.key_number = v & 0x7F
        ev.pressed = bool(v & 0x80)
        return True

    def get(self):
        ev = Event()
        return ev if self.get_into(ev) else None

    def clear(self):
        self._n = 0
        self.overflowed = False

    def __len__(self):
        return self._n

    def __bool__(self):
        return self._n > 0


_keys = []


class Keys:
    def __init__(self, pins, value_when_pressed=False, pull=True,
                 interval=0.02, max_events=64):
        self.key_count = len(pins)
        self.events = EventQueue(max_events)
        self._down = bytearray(len(pins))
        _keys.append(self)

    def reset(self):
        # the real one reports keys still down as fresh presses
        for n in range(self.key_count):
            if self._down[n]:
                self.events._put(n, True)

    def deinit(self):
        pass


def push(n, pressed):
    """The budget runner's finger: an edge on key ``n`` of every Keys."""
    for k in _keys:
        k._down[n] = 1 if pressed else 0
        k.events._put(n, pressed)
