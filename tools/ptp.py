#!/usr/bin/env python3
"""Pocket Pyramids text protocol on stdin/stdout.

    python tools/ptp.py [--seed N]

One command per line; see docs/protocol.md. The same ``Session`` runs on a
board, so this is only a thin wrapper.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.protocol import Session  # noqa: E402
from engine.state import is_plain_number  # noqa: E402


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    seed = None
    if args:
        # --seed N makes every `new` without its own seed= reproducible
        if len(args) != 2 or args[0] != "--seed" or not is_plain_number(args[1]):
            sys.stderr.write("usage: ptp.py [--seed N]\n")
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
