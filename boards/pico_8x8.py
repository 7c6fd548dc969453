"""Reference build: Raspberry Pi Pico, 8x8 WS2812B matrix, six buttons.

Wiring (see docs/hardware.md): matrix DIN on GP0; buttons between a GP pin
and GND (the Pico's internal pull-ups hold them high until pressed).
"""

NAME = "pico_8x8"
DESCRIPTION = "Raspberry Pi Pico + 8x8 WS2812B matrix"
PIXEL_PIN = "GP0"
WIDTH = 8
HEIGHT = 8
SERPENTINE = False        # 8x8 boards are usually wired row by row
ROTATION = 0              # degrees clockwise the panel is mounted at
# UP DOWN LEFT RIGHT A B, in that order (the lib.buttons numbers)
BUTTON_PINS = ("GP2", "GP3", "GP4", "GP5", "GP6", "GP7")
BUTTON_PRESSED = False    # reads low when pressed: switches to ground
BRIGHTNESS = 48           # 0..255; dazzling above ~100 at arm's length
BUDGET_MA = 450           # powered from a computer's USB port
# optional: a passive piezo buzzer between this pin and GND plays the
# tones (lib/sound.py); None for a silent build
PIEZO_PIN = "GP15"
