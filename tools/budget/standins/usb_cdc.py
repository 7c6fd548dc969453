"""Stand-in for CircuitPython's ``usb_cdc`` under the budget's interpreter:
the data port boot.py turns on, fed by the budget driver (:func:`push`),
with the members of ``usb_cdc.Serial`` that lib/link.py uses. What the app
writes back is counted, not kept."""


class Serial:
    def __init__(self):
        self.incoming = bytearray()
        self.written = 0
        self.timeout = 1

    @property
    def in_waiting(self):
        return len(self.incoming)

    def readinto(self, buf):
        n = min(len(buf), len(self.incoming))
        buf[:n] = self.incoming[:n]
        self.incoming = self.incoming[n:]
        return n

    def write(self, data):
        self.written += len(data)
        return len(data)


console = None
data = Serial()


def push(line):
    """The budget driver's computer: bytes arriving on the data port."""
    data.incoming.extend(line)
