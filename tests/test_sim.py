"""tools/simkit.py and tools/sim.py: frames captured at the NeoPixel write,
keys through keypad's queue, --keys/--png runs, the terminal front end."""

import os
import random
import select
import subprocess
import sys
import time

from tools import simkit, sim as simtool
from lib import buttons as K
from lib import palette as P


def test_frames_are_the_bytes_neopixel_sent():
    s = simkit.Sim(board="pico_16x16", app=False)
    d = s.display
    d.brightness = 255
    d.clear()
    d.pixel(0, 1, P.REFUSE)          # serpentine: LED 31
    d.pixel(5, 0, P.piece(5, 3))     # large blue: LED 5
    before = s.writes
    d.show()
    assert s.writes == before + 1
    raw = s.last_bytes
    assert len(raw) == 3 * 256
    assert raw[3 * 31:3 * 31 + 3] == bytes((0, 255, 0))   # GRB order on the wire
    assert s.pixel(0, 1) == (255, 0, 0)
    blue = d.palette.rgb[P.piece(5, 3)]
    assert s.pixel(5, 0) == (blue >> 16, (blue >> 8) & 255, blue & 255)
    assert sum(1 for c in s.frame() if c != (0, 0, 0)) == 2
    assert s.indices()[16] == P.REFUSE
    rows = s.ascii().splitlines()
    assert len(rows) == 16 and rows[1].split()[0] == "XX" and rows[0].split()[5] == "b3"
    d.show()                          # unchanged: nothing written
    assert s.writes == before + 1


def test_key_presses_go_through_keypads_queue():
    s = simkit.Sim(app=False)
    s.down("a")
    assert len(s.keys.events) == 1    # waiting in keypad, like a real press
    s.buttons.poll(0)
    assert K.describe(s.buttons.get()) == "press a"
    s.up("a")
    s.buttons.poll(100)
    assert [K.describe(s.buttons.get()) for _ in range(2)] == ["release a", "click a"]
    try:
        s.down("start")
    except ValueError as e:
        assert "start" in str(e)
    else:
        raise AssertionError("unknown button accepted")


def test_script_syntax():
    toks = simkit.parse_script("up right*3, A hold:b:1500 esc wait:250 press:a release:a")
    assert toks[:4] == [("tap", "up")] + [("tap", "right")] * 3
    assert toks[4] == ("hold", "a", simkit.LONG_HOLD_MS)
    assert toks[5:] == [("hold", "b", 1500), ("esc",), ("wait", 250),
                        ("down", "a"), ("up", "a")]
    for bad in ("jump", "right*0", "hold:x:5", "hold:a", "press:q", "wait:xx"):
        try:
            simkit.parse_script(bad)
        except ValueError as e:
            assert bad.split("*")[0].split(":")[0] in str(e) or "bad" in str(e)
        else:
            raise AssertionError("accepted %r" % bad)


def test_scripted_timing_is_deterministic():
    a = simkit.Sim()
    b = simkit.Sim()
    script = "right down a wait:300 b left A"
    a.run_script(script)
    b.run_script(script)
    assert a.now == b.now and a.last_bytes == b.last_bytes and a.writes == b.writes


def test_the_app_survives_random_mashing():
    s = simkit.Sim()
    assert s.writes >= 1
    rnd = random.Random(7)
    toks = ["up", "down", "left", "right", "a", "b", "A", "B", "esc", "wait:700"]
    s.run_script(" ".join(rnd.choice(toks) for _ in range(150)))
    assert s.buttons.overflows == 0
    assert s.modelled_ma() <= s.profile.BUDGET_MA


def test_headless_keys_and_png(tmp_path, capsys):
    png = str(tmp_path / "frame.png")
    assert simtool.main(["--keys", "down a wait:200", "--png", png]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [r for r in out if len(r.split()) == 8]
    assert len(rows) == 8
    from PIL import Image
    img = Image.open(png)
    assert img.size == (8 * 24 + 24, 8 * 24 + 24)
    lit = sum(n for n, px in img.getcolors(1 << 20) if max(px) > 120)
    assert lit > 0


def test_sim_command_line_runs(tmp_path):
    res = subprocess.run(
        [sys.executable, "tools/sim.py", "--board", "pico_16x16", "--keys",
         "right wait:100"], cwd=simkit.ROOT, capture_output=True, text=True,
        timeout=120)
    assert res.returncode == 0, res.stderr
    assert len(res.stdout.strip().splitlines()) == 16
    res = subprocess.run([sys.executable, "tools/sim.py", "--keys", "fly"],
                         cwd=simkit.ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "bad token 'fly'" in res.stderr


def test_terminal_bytes_become_buttons():
    keys, q = simtool.split_keys(b"\x1b[A\x1b[Dwzx\x1bOC")
    assert [k[0] for k in keys] == ["up", "left", "up", "a", "b", "right"]
    assert not q
    keys, q = simtool.split_keys(b"\x1b")
    assert keys == [("b", simkit.ESCAPE_HOLD_MS)] and not q
    keys, q = simtool.split_keys(b"Z\x1b[1;5Pq")          # an unknown F-key
    assert keys == [("a", simkit.LONG_HOLD_MS)] and q


def test_interactive_session_in_a_pty(tmp_path):
    import pty
    nvm = str(tmp_path / "nvm.bin")
    pid, fd = pty.fork()
    if pid == 0:   # child: the simulator on a terminal
        os.chdir(simkit.ROOT)
        os.execv(sys.executable, [sys.executable, "tools/sim.py", "--nvm", nvm])
    out = b""

    def pump(until, seconds=20.0):
        """Read the terminal until ``until`` appears (or it closes)."""
        nonlocal out
        end = time.monotonic() + seconds
        start = len(out)
        while time.monotonic() < end and until not in out[start:]:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return
    pump(b"modelled current")              # the first frame is drawn
    os.write(fd, b"\x1b[Cz")
    pump(b"\x1b[H", 2.0)                   # a redraw after the keys
    os.write(fd, b"q")
    pump(b"\x1b[?25h")                     # cursor back on: it has exited
    _, status = os.waitpid(pid, 0)
    text = out.decode("utf-8", "replace")
    assert os.WEXITSTATUS(status) == 0
    assert "\x1b[38;2;" in text and "\u25cf" in text       # true-colour LEDs
    assert "Esc: back to menu" in text
    assert text.rstrip().endswith("\x1b[?25h")             # cursor restored
    assert os.path.getsize(nvm) == 4096


def test_a_script_names_the_menu_item_it_opens():
    s = simkit.Sim()
    s.advance(1500)
    s.run_script("menu:dice")
    assert s.app.menu.current() == "dice"
    s.run_script("menu:settings a")
    assert type(s.app.scr).__name__ == "SettingsScreen"
    assert simkit.parse_script("menu:bag") == [("menu", "bag")]
    s.press("b")
    try:
        s.run_script("menu:chess")
    except ValueError as e:
        assert "no such menu item" in str(e)
    else:
        raise AssertionError("menu:chess accepted")


def test_menu_item_right_after_start_waits_for_the_boot_animation(capsys):
    assert simtool.main(["--keys", "menu:bag_of_ice"]) == 0
    s = simkit.Sim()
    s.run_script("menu:dice a")
    assert s.app.game == "dice"
