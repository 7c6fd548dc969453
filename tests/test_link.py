"""The text protocol over a serial line, about the game on the screen
(lib/link.py): in process through a stand-in port, over a pseudo terminal
with tools/ptp.py's relay, and end to end with `sim.py --serve`."""

import os
import subprocess
import sys
import threading
import time

from harness import MemoryPort, ask_over_port as ask
from tools.simkit import Sim, open_pty_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))




def serving(board="pico_8x8"):
    sim = Sim(board=board, seed=2)
    sim.advance(1500)
    port = MemoryPort()
    sim.serve(port)
    return sim, port


def test_nothing_loads_until_a_line_comes_and_the_port_is_not_blocking():
    sim, port = serving()
    assert sim.app.link.session is None and sim.app.link.line is None
    assert port.timeout == 0
    assert ask(sim, port, b"help\n").startswith("= ")
    assert sim.app.link.session is not None


def test_new_starts_the_game_on_the_screen_and_play_shows_on_the_leds():
    sim, port = serving()
    assert sim.app.game is None
    assert ask(sim, port, b"new bag_of_ice players=2 seed=4\r\n") == \
        "= bag_of_ice seed=4\n\n"
    sim.advance(600)
    assert sim.app.game == "bag_of_ice"
    state = sim.app.state
    assert ask(sim, port, b"to_move\n") == "= chance\n\n"
    before = sim.frame()
    history = bytes(state.hist)
    # the roll-off: the next lines play the app's own game
    answer = ask(sim, port, b"sample\n")
    assert answer.startswith("= ") and bytes(state.hist) != history
    sim.advance(3000)
    assert sim.frame() != before
    assert sim.app.unsaved or sim.app.saves > 0


def test_a_line_plays_the_game_the_buttons_play():
    sim, port = serving()
    ask(sim, port, b"new dice count=2 seed=9\n")
    sim.advance(600)
    assert sim.app.game == "dice"
    assert ask(sim, port, b"play roll\n") == "= roll\n\n"
    # the device rolls the dice it was told to roll, as after a press of A
    sim.advance(3000)
    state = sim.app.state
    assert state.to_move() == 0 and len(state.rolled) == 2
    assert ask(sim, port, b"score\n") == "= %d\n\n" % state.scores()[0]
    # and a press of A after the line rolls again: one game, two inputs
    sim.press("a")
    sim.advance(3000)
    assert len(state.past) == 1


def test_bad_lines_get_a_reason_and_change_nothing():
    sim, port = serving()
    ask(sim, port, b"new dice seed=1\n")
    sim.advance(600)
    state = sim.app.state
    saved = state.serialize()
    assert ask(sim, port, b"x" * 600 + b"\n").startswith("? line too long")
    assert ask(sim, port, b"play \xff\xfe\n") == "? the line is not UTF-8 text\n\n"
    assert ask(sim, port, b"play sideways\n").startswith("? unknown token")
    # a game this device cannot show (as on a build without its screen)
    # is refused, and the game stays
    sim.app.playable = [g for g in sim.app.playable if g != "ice_stalks"]
    answer = ask(sim, port, b"new ice_stalks seed=1\n")
    assert answer == "? ice_stalks cannot be played on this device\n\n", answer
    assert sim.app.state is state and state.serialize() == saved
    # between lines the session holds no game: leaving one frees it all
    assert sim.app.link.session.state is None
    assert ask(sim, port, b"state\n").startswith('= {"game":"dice"')


def test_a_pseudo_terminal_carries_the_protocol_like_usb():
    from tools import ptp
    sim = Sim(seed=3)
    sim.advance(1500)
    port, path = open_pty_port()
    sim.serve(port)
    answers = []

    class Out:
        def write(self, text):
            answers.append(text)

        def flush(self):
            pass
    result = []
    client = threading.Thread(target=lambda: result.append(ptp.relay(
        path, ["new dice seed=5\n", "play roll\n", "to_move\n"], Out(), timeout=20)))
    client.start()
    deadline = time.monotonic() + 30
    while client.is_alive() and time.monotonic() < deadline:
        sim.advance(sim.frame_ms)
        time.sleep(0.001)
    client.join(1)
    assert result == [0], answers
    assert answers[0] == "= dice seed=5\n\n"
    assert answers[1] == "= roll\n\n"
    assert sim.app.game == "dice"


def test_sim_serve_and_ptp_port_end_to_end(tmp_path):
    sim = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--serve",
         "--nvm", str(tmp_path / "nvm.bin")],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        line = sim.stderr.readline()
        assert line.startswith("protocol: tools/ptp.py --port "), line
        path = line.split()[-1]
        time.sleep(1.6)     # past the boot animation
        res = subprocess.run(
            [sys.executable, os.path.join(ROOT, "tools", "ptp.py"), "--port", path],
            input="new bag seed=2\nto_move\nlegal\n", capture_output=True,
            text=True, timeout=60)
        assert res.returncode == 0, res.stderr
        assert res.stdout.split("\n\n")[:3] == ["= bag seed=2", "= 0", "= draw"]
    finally:
        sim.terminate()
        sim.wait(10)


def test_a_line_never_takes_the_save_slot_from_a_waiting_game():
    """The buttons ask before another game replaces a saved one; a line
    cannot ask, so it is refused (found playing as a new user)."""
    sim, port = serving()
    ask(sim, port, b"new ice_solo seed=3\n")
    sim.advance(6000)
    assert sim.app.game == "ice_solo"
    saved = sim.app.state.serialize()
    answer = ask(sim, port, b"new bag_of_ice seed=1\n")
    assert answer.startswith("? a game is saved on the board"), answer
    assert sim.app.game == "ice_solo" and sim.app.state.serialize() == saved
    sim.escape()
    sim.advance(3000)
    assert sim.app.game is None and sim.store.has_game()
    assert ask(sim, port, b"new pointsettia\n").startswith("? a game is saved")
    # a table tool is fine: it runs without saving over the waiting game
    assert ask(sim, port, b"new dice seed=2\n") == "= dice seed=2\n\n"
    sim.advance(600)
    assert sim.app.game == "dice" and sim.app.keep
    ask(sim, port, b"play roll\n")
    sim.advance(4000)
    assert sim.store.load_game() is not None
    from engine import registry
    assert registry.deserialize(bytes(sim.store.load_game())).GAME == "ice_solo"


def test_the_same_seed_deals_the_same_on_the_board_as_on_a_desktop():
    from engine.protocol import Session
    desktop = Session(1)
    desktop.handle("new dice count=3 seed=4")
    desktop.handle("play roll")
    faces = [desktop.handle("sample")[2:-2] for _ in range(3)]
    for _ in range(2):
        sim, port = serving()
        ask(sim, port, b"new dice count=3 seed=4\n")
        sim.advance(600)
        ask(sim, port, b"play roll\n")
        sim.advance(3000)
        state = sim.app.state
        assert [state.token(16 + f) for f in state.rolled] == faces


def test_ptp_port_says_plainly_when_the_device_is_not_there():
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "ptp.py"), "--port",
         "/dev/no-such-board"], input="games\n", capture_output=True, text=True,
        timeout=60)
    assert res.returncode == 1
    assert res.stdout.startswith("? cannot open /dev/no-such-board")
    assert "Traceback" not in res.stderr
