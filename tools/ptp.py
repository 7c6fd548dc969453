#!/usr/bin/env python3
"""Pocket Pyramids text protocol on stdin/stdout.

    python tools/ptp.py [--seed N]        # a session on this computer
    python tools/ptp.py --port DEVICE     # the game on a board's screen

One command per line; see docs/protocol.md. The same ``Session`` runs on a
board, so this is only a thin wrapper. With ``--port`` the lines go to a
board over its USB data port (``/dev/ttyACM1``, ``COM4``: the second of the
two serial ports the board shows, turned on by boot.py), or to the
simulator's (``tools/sim.py --serve``), and its answers come back here.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.protocol import Session  # noqa: E402
from engine.state import is_plain_number  # noqa: E402


def relay(device, lines, out, timeout=10.0):
    """Send each line to the board on ``device`` and write its answer (up
    to the empty line that ends it) to ``out``."""
    import serial   # pyserial
    try:
        port = serial.serial_for_url(device, baudrate=115200, timeout=timeout)
    except (serial.SerialException, ValueError) as e:
        out.write("? cannot open %s: %s\n\n" % (device, e))
        return 1
    try:
        for line in lines:
            port.write((line.rstrip("\r\n") + "\n").encode("utf-8"))
            answer = bytearray()
            while not answer.endswith(b"\n\n"):
                chunk = port.read(1)
                if not chunk:
                    out.write("? no answer from %s within %g s\n\n" % (device, timeout))
                    return 1
                answer += chunk
            out.write(answer.decode("utf-8", "backslashreplace"))
            out.flush()
            if line.split()[:1] == ["quit"]:
                break
    finally:
        port.close()
    return 0


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--port"]:
        if len(args) != 2:
            sys.stderr.write("usage: ptp.py --port DEVICE\n")
            return 2
        sys.stdin.reconfigure(errors="replace")
        return relay(args[1], sys.stdin, sys.stdout)
    seed = None
    if args:
        # --seed N makes every `new` without its own seed= reproducible
        if len(args) != 2 or args[0] != "--seed" or not is_plain_number(args[1]):
            sys.stderr.write("usage: ptp.py [--seed N] | --port DEVICE\n")
            return 2
        seed = int(args[1])
    # bytes that are not UTF-8 must reach the session as a refusable line,
    # not end the program with a UnicodeDecodeError
    sys.stdin.reconfigure(errors="replace")
    sys.stdout.reconfigure(errors="backslashreplace")
    session = Session(seed)
    for line in sys.stdin:
        sys.stdout.write(session.handle(line.rstrip("\r\n")))
        sys.stdout.flush()
        if session.done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
