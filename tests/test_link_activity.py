"""A protocol line on the serial port is activity, as a press is: it keeps
the panel lit, wakes a dimmed or dark one, and the frame it causes shows;
and the line's limits are in bytes, with control characters refused."""

from lib import app as A
from lib.link import MAX_LINE
from harness import MemoryPort, ask_over_port as ask
from tools.simkit import Sim

PASS_MS = 100     # longer loop passes: minutes of idling stay quick


def serving(board="pico_8x8"):
    sim = Sim(board=board, seed=2, frame_ms=PASS_MS)
    sim.advance(1500)
    port = MemoryPort()
    sim.serve(port)
    return sim, port


def lit(sim):
    return any(c != (0, 0, 0) for c in sim.frame())


def test_a_game_played_only_over_the_line_stays_lit():
    sim, port = serving()
    assert ask(sim, port, b"new dice count=2 seed=3\n").startswith("= dice")
    full = sim.app.d.brightness
    # a line every 40 s for ten minutes, no button at all
    for _ in range(15):
        sim.advance(40000)
        assert ask(sim, port, b"play roll\n") == "= roll\n\n"
        sim.advance(3000)
        assert sim.app.sleep == A.AWAKE and sim.app.d.brightness == full
        assert lit(sim)


def test_a_line_wakes_a_dark_panel_and_its_frame_shows():
    sim, port = serving()
    ask(sim, port, b"new dice count=2 seed=3\n")
    full = sim.app.d.brightness
    sim.advance(A.BLANK_MS + 1000)
    assert sim.app.sleep == A.BLANK and not lit(sim)
    before = bytes(sim.indices())
    writes = sim.writes
    assert ask(sim, port, b"play roll\n") == "= roll\n\n"
    assert sim.app.sleep == A.AWAKE and sim.app.d.brightness == full
    assert sim.writes > writes and lit(sim)
    sim.advance(3000)
    assert bytes(sim.indices()) != before, "the roll shows"
    # the line was not a press: the next press acts at once, not swallowed
    rolls = len(sim.app.state.past)
    sim.press("a")
    sim.advance(3000)
    assert len(sim.app.state.past) == rolls + 1


def test_a_line_brightens_a_dimmed_panel_and_puts_off_the_dark():
    sim, port = serving("pico_16x16")
    ask(sim, port, b"new dice seed=3\n")
    full = sim.app.d.brightness
    sim.advance(A.DIM_MS + 1000)
    assert sim.app.sleep == A.DIMMED and sim.app.d.brightness < full
    assert ask(sim, port, b"state\n").startswith("= {")
    assert sim.app.sleep == A.AWAKE and sim.app.d.brightness == full
    # dark five minutes after the line, not after the last press
    sim.advance(A.BLANK_MS - A.DIM_MS)
    assert sim.app.sleep == A.DIMMED
    sim.advance(A.DIM_MS + 1000)
    assert sim.app.sleep == A.BLANK


def test_a_control_character_inside_a_line_is_refused():
    sim, port = serving()
    ask(sim, port, b"new dice seed=3\n")
    assert ask(sim, port, b"gam\res\n") == (
        "? control character \\x0d at byte 4: a line is printable text "
        "(a CR only just before its LF)\n\n")
    assert ask(sim, port, b"ga\tmes\n").startswith("? control character \\x09 at byte 3")
    assert ask(sim, port, b"\x1b[Agames\n").startswith("? control character \\x1b at byte 1")
    # a CR at the end is a Windows line end
    assert ask(sim, port, b"games\r\n").startswith("= ")
    assert ask(sim, port, b"games\n").startswith("= ")
    # a refused line changes nothing and the next one is read afresh
    assert ask(sim, port, b"play roll\r\r\n").startswith("? control character \\x0d at byte 10")
    assert sim.app.state.to_move() == 0 and not sim.app.state.past


def test_the_line_limit_is_in_bytes():
    sim, port = serving()
    ask(sim, port, b"new dice seed=3\n")
    ok = b"# " + b"x" * (MAX_LINE - 2)
    assert ask(sim, port, ok + b"\n") == "= \n\n"
    assert ask(sim, port, ok + b"x\n") == (
        "? line too long (%d bytes; at most %d)\n\n" % (MAX_LINE + 1, MAX_LINE))
    # 300 characters, 600 bytes in UTF-8: too long
    wide = ("# " + "\u00e9" * 299).encode()
    assert ask(sim, port, wide + b"\n") == (
        "? line too long (%d bytes; at most %d)\n\n" % (len(wide), MAX_LINE))
    assert ask(sim, port, b"games\n").startswith("= ")
