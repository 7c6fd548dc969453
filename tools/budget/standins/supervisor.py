"""Stand-in for CircuitPython's ``supervisor``: a millisecond tick the budget
runner sets (``now``), wrapping at 2**29 like the real one."""

now = 0


def ticks_ms():
    return now & 0x1FFFFFFF
