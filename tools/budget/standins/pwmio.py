"""Stand-in for CircuitPython's ``pwmio`` under the budget's interpreter, so
a profile with a piezo pin runs lib/sound.py as a board does (the tones go
nowhere)."""


class PWMOut:
    def __init__(self, pin, duty_cycle=0, frequency=500, variable_frequency=False):
        self.pin = pin
        self.duty_cycle = duty_cycle
        self.frequency = frequency

    def deinit(self):
        pass
