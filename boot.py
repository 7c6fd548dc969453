"""Runs once at power-on, before USB starts (CircuitPython's boot.py).

It turns on the second USB serial port, the data channel, so a computer can
speak the text protocol with the game on the screen (lib/link.py,
``tools/ptp.py --port``) while the console port stays free for the REPL
and tracebacks. Changing this file takes a hard reset to apply.
"""

try:
    import usb_cdc
    usb_cdc.enable(console=True, data=True)
except (ImportError, RuntimeError):
    # a board without native USB, or USB already started: play on, without
    # the protocol port
    pass
