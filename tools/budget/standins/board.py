"""Stand-in for CircuitPython's ``board`` under the budget's MicroPython.

Pins are plain objects with a name; the board id picks the reference
profile (boards/pico_8x8) the way a real Pico does. On a board this is a
C module: it costs no heap, and the budget imports this file before it
takes its baseline.
"""


class Pin:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


board_id = "raspberry_pi_pico"
for _i in range(29):
    globals()["GP%d" % _i] = Pin("GP%d" % _i)
del _i
