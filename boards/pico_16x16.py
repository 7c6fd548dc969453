"""Raspberry Pi Pico with a 16x16 WS2812B panel (serpentine wiring).

The flexible 16x16 panels snake: row 0 runs left to right, row 1 right to
left, and so on. Same buttons as the reference build. 256 LEDs draw about
256 mA dark and up to 15 A white, so this profile assumes a 5 V 2 A supply
on the panel; on USB alone set BUDGET_MA to 450.
"""

NAME = "pico_16x16"
DESCRIPTION = "Raspberry Pi Pico + 16x16 serpentine WS2812B panel"
PIXEL_PIN = "GP0"
WIDTH = 16
HEIGHT = 16
SERPENTINE = True
ROTATION = 0
BUTTON_PINS = ("GP2", "GP3", "GP4", "GP5", "GP6", "GP7")
BUTTON_PRESSED = False
BRIGHTNESS = 32
BUDGET_MA = 1500          # 5 V 2 A supply, with margin for the Pico
