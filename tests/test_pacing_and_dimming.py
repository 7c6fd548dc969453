"""What a player notices: the pace of effects, skipping them,
no hand-off for one person against the device, the tones, and the panel
dimming and blanking when left alone. Through the simulator harness
(tools/simkit.py): the real app on Blinka, buttons through keypad's queue.
"""
import pytest

from engine import registry
from lib import app as A
from lib import palette as P
from lib import settings as S
from lib import sound
from lib import screen_bag_of_ice as BOI
from tools.simkit import Sim

from harness import boot
from test_screen_bag_of_ice import Forced, open_game, scr, state, \
    handoff_shown, wait_for, draw, to_turn


def time_to(sim, cond, limit=30000):
    """Sim milliseconds until ``cond()`` holds."""
    start = sim.now
    while not cond():
        assert sim.now - start < limit, "timed out"
        sim.advance(20)
    return sim.now - start


def a_draw(sim, press_during=None, pace=None):
    """One draw from a fresh 1-player game: ms from A until the piece is
    laid out and the turn view is back. ``press_during`` is pressed once,
    100 ms into the effect."""
    if pace is not None:
        sim.app.settings.set("pace", pace)
        sim.app.apply_settings()
    sim.rng.add("L", "y3")
    sim.press("a", after_ms=0)
    start = sim.now
    if press_during:
        sim.advance(100)
        sim.press(press_during, after_ms=0)
    t = time_to(sim, lambda: scr(sim).mode == BOI.TURN and
                len(state(sim).drawn) == 1)
    return sim.now - start if t is not None else None


# ---- pace ---------------------------------------------------------------------
def test_a_draw_takes_its_time_at_normal_speed():
    sim = open_game(players=1)
    ms = a_draw(sim)
    assert 2400 <= ms <= 3200, ms


@pytest.mark.parametrize("key", ["a", "b", "left", "right"])
def test_any_press_skips_a_draw_to_its_end_and_draws_once(key):
    sim = open_game(players=1)
    ms = a_draw(sim, press_during=key)
    assert ms < 500, ms
    st = state(sim)
    assert list(st.drawn) == [2 << 2 | 3], "the same piece, drawn once"
    # the next effect plays at its pace again
    assert not scr(sim).skip
    sim.rng.add("S", "y1")
    sim.press("a", after_ms=0)
    sim.advance(600)
    assert scr(sim).mode != BOI.TURN, "still playing, nobody skipped it"


@pytest.mark.parametrize("pace,low,high", [("1", 4800, 6400), ("3", 1200, 1700),
                                           ("4", 550, 1000)])
def test_the_animation_speed_setting_sets_the_pace(pace, low, high):
    sim = open_game(players=1)
    ms = a_draw(sim, pace=pace)
    assert low <= ms <= high, ms


def bot_game(**opts):
    sim = open_game(rolloff=("L", "S", "M"), **opts)
    to_turn(sim)
    return sim


def bots_turns(press):
    """A person banks 3, then the two bots play on real dice (seed 7):
    ms until it is the person's turn again, and the scores."""
    from engine.rng import Rng
    sim = bot_game(players=3, bots="2,3")
    st = state(sim)
    assert not handoff_shown(sim)
    draw(sim, "L", "y3")
    to_turn(sim)
    sim.press("b")
    sim.press("a")                          # bank: the bots play
    sim.app.rng = Rng(7)
    sim.advance(200)
    assert st.turn == 1
    if press:
        sim.press("a", after_ms=0)          # skip
    t = time_to(sim, lambda: st.turn == 0 and scr(sim).mode == BOI.TURN, 120000)
    assert not handoff_shown(sim), "one person: never a hand-off"
    return t, st.scores()


def test_a_press_skips_the_bots_turns_to_the_persons_next_decision():
    slow, scores = bots_turns(False)
    fast, same = bots_turns(True)
    assert same == scores, "the same turns, only faster"
    assert slow > 3000 and fast < 1000, (slow, fast)


# ---- hand-offs ------------------------------------------------------------------
def test_one_person_against_bots_never_sees_a_handoff():
    from engine.rng import Rng
    sim = bot_game(players=3, bots="2,3")
    assert sim.app.lone
    st = state(sim)
    seen = 0
    for turn in range(3):
        sim.app.rng = sim.rng
        draw(sim, "S", "g1")
        to_turn(sim)
        sim.press("b")
        sim.press("a")                      # bank 1
        sim.app.rng = Rng(turn)             # the bots' own dice
        while st.turn != 0 or scr(sim).mode != BOI.TURN:
            sim.advance(20)
            seen += handoff_shown(sim)
            assert sim.now < 400000
    assert seen == 0
    assert st.scores()[0] == 3


def test_two_people_with_a_bot_still_hand_off():
    sim = open_game(players=3, bots="3", rolloff=("L", "S", "M"))
    assert not sim.app.lone
    assert handoff_shown(sim)


# ---- tones ------------------------------------------------------------------------
def test_tones_move_refuse_roll_bust_win():
    sim = open_game(players=1, target=1)
    sim.tones[:] = []
    sim.press("b")                          # nothing to bank: refused
    assert sim.tones == ["refuse"]
    draw(sim, "S", "g1")
    to_turn(sim)
    assert sim.tones[1:] == ["move", "roll", "roll"], sim.tones
    sim.tones[:] = []
    draw(sim, "S", "y1")
    to_turn(sim)
    sim.tones[:] = []
    sim.press("b")
    sim.press("a")                          # bank 2 >= target 1: the win
    assert sim.tones[-1] == "win", sim.tones


def test_a_bust_sounds():
    sim = open_game(players=1)
    draw(sim, "S", "g1")
    to_turn(sim)
    sim.tones[:] = []
    draw(sim, "S", "r1")                    # a red small: bust
    wait_for(sim, lambda: scr(sim).mode == BOI.BUST)
    assert "bust" in sim.tones


def test_mute_setting_silences_and_tones_drive_the_pwm():
    sim = boot()
    pwm = sim.app.sound.pwm
    sim.app.tone(sound.WIN)
    assert pwm.duty_cycle == sound.LOUD and pwm.frequency == 523
    sim.advance(100)
    assert pwm.frequency == 659, "the next note"
    sim.advance(600)
    assert pwm.duty_cycle == 0, "silent after the last note"
    sim.app.settings.set("sound", "0")
    sim.app.apply_settings()
    sim.tones[:] = []
    sim.app.tone(sound.MOVE)
    assert sim.tones == [] and pwm.duty_cycle == 0


def test_no_piezo_is_silent_and_the_profile_may_name_one():
    import boards
    p = boards.load("pico_8x8")
    assert p.PIEZO_PIN == "GP15"
    assert boards.load("pico_16x16").PIEZO_PIN is None
    assert boards.load("pico_8x8", boards.DESKTOP_BOARD_ID).PIEZO_PIN is None
    assert sound.open_piezo(None) is None
    quiet = sound.Sound(None)
    quiet.play(sound.MOVE, 0)
    quiet.tick(100)                         # nothing to do, nothing raised


# ---- the panel rests -----------------------------------------------------------
def test_the_panel_dims_after_a_minute_and_blanks_after_five():
    sim = boot()
    sim.press("right")                      # the menu: an icon is lit
    lit = sum(1 for c in sim.frame() if c != (0, 0, 0))
    bright = max(max(c) for c in sim.frame())
    sim.advance(A.DIM_MS - 1000)
    assert max(max(c) for c in sim.frame()) == bright
    sim.advance(2000)
    assert sim.app.sleep == A.DIMMED
    assert 0 < max(max(c) for c in sim.frame()) < bright, "dimmed, still on"
    sim.advance(A.BLANK_MS - A.DIM_MS)
    assert sim.app.sleep == A.BLANK
    assert all(c == (0, 0, 0) for c in sim.frame()), "dark"
    assert lit > 0


@pytest.mark.parametrize("key", ["a", "b", "right"])
def test_any_press_wakes_the_panel_without_acting(key):
    sim = boot()
    cursor = sim.app.menu.cursor
    sim.advance(A.BLANK_MS + 1000)
    assert sim.app.sleep == A.BLANK
    sim.press(key)
    assert sim.app.sleep == A.AWAKE
    assert sim.app.scr is sim.app.menu and sim.app.menu.cursor == cursor, \
        "the press only woke it"
    assert sim.app.game is None
    assert max(max(c) for c in sim.frame()) > 0, "lit again"
    sim.press("right")                      # the next press acts
    assert sim.app.menu.cursor == cursor + 1


def test_a_held_b_that_wakes_a_dark_panel_does_not_escape():
    sim = boot()
    sim.run_script("menu:dice a")
    assert sim.app.game == "dice"
    sim.advance(A.BLANK_MS + 500)
    assert sim.app.sleep == A.BLANK
    sim.escape()                            # held past the escape time
    assert sim.app.game == "dice", "waking only"
    sim.escape()
    assert sim.app.game is None


def test_a_press_on_a_dimmed_panel_wakes_it_and_acts():
    """Dimmed, the panel is still readable: a move thought over for a
    minute must not be a lost press."""
    sim = boot()
    cursor = sim.app.menu.cursor
    sim.advance(A.DIM_MS + 1000)
    assert sim.app.sleep == A.DIMMED
    sim.press("right")
    assert sim.app.sleep == A.AWAKE
    assert sim.app.menu.cursor == cursor + 1, "the press acted"


# ---- settings -----------------------------------------------------------------------
@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_speed_and_sound_are_settings_changed_with_one_press(board):
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(board, nvm=nvm)
    sim.run_script("menu:settings a")
    scr = sim.app.scr
    titles = [t for i, t in scr.rows]
    assert titles[-3:] == ["ANIMATION SPEED", "SOUND", "ICE SOLO: DEAL"]
    for _ in range(3):
        sim.press("up")                     # wraps round to the speed
    assert scr.rows[scr.row][1] == "ANIMATION SPEED"
    sim.press("right")                      # one press
    assert sim.app.settings.get("pace") == "3" and sim.app.speed == 8
    assert scr.value.text == "FAST"
    sim.press("down")
    sim.press("left")
    assert sim.app.settings.get("sound") == "0" and not sim.app.sound.on
    sim.press("b")
    sim2 = boot(board, nvm=nvm)
    assert sim2.app.speed == 8 and not sim2.app.sound.on


def test_old_records_get_the_default_speed_and_sound():
    st = S.Settings()
    st.decode(b"PS\x02" + bytes(8) + b"\x00\x00")
    assert st.speed() == 4 and st.sound_on()


# ---- small things --------------------------------------------------------------------
def test_an_unknown_game_lists_only_the_games_built_here(monkeypatch):
    from engine import catalog
    from engine.protocol import Session
    entry = catalog.entry("pointsettia")
    monkeypatch.setattr(entry, "built", False)
    answer = Session(1).handle("new chess")
    assert answer.startswith("? unknown game 'chess' (games: ")
    games = answer.split("(games: ")[1].split(")")[0].split()
    assert "pointsettia" not in games and "ice_solo" in games and "dice" in games
    assert all(catalog.entry(g).built for g in games)


def test_a_bad_bag_shows_the_expected_form_with_an_example():
    from engine.protocol import Session
    answer = Session(1).handle("new bag contents=r3r3y1")
    assert answer.startswith("? contents: bad piece 'r3r3y1'")
    assert "separated by commas" in answer and "e.g. r3*2,y1,g*5" in answer
    # and the example itself is a bag
    assert Session(1).handle("new bag contents=r3*2,y1,g*5").startswith("= bag")


def test_sim_png_alone_without_a_terminal_saves_the_first_settled_frame(tmp_path):
    import os
    import subprocess
    import sys
    from PIL import Image
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = tmp_path / "first.png"
    res = subprocess.run([sys.executable, os.path.join(root, "tools", "sim.py"),
                          "--png", str(out)], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert out.exists() and Image.open(out).size[0] > 100
    # the menu's first icon (Ice Solo), not the boot pyramid part-grown
    sim = boot()
    sim.advance(400)
    assert res.stdout.startswith(sim.ascii())
    assert not any(f.startswith("sim-nvm") for f in os.listdir(tmp_path)), \
        "no NVM file left behind"


# ---- remembered results ------------------------------------------------------------
def finish_ice_solo(sim):
    """Play Ice Solo's nesting by the hint to its end: the final state."""
    from engine.state import OVER
    st = sim.app.state
    for _ in range(2000):
        if st.to_move() == OVER:
            return st
        assert sim.app.play(st.hint())
    raise AssertionError("did not end")


def new_ice_solo(sim):
    sim.store.clear_game()
    assert sim.app.enter("ice_solo")
    for _ in range(400):
        if sim.app.scr is sim.app.game_scr and sim.app.game_scr is not None:
            return sim.app.state
        sim.advance(20)
    raise AssertionError("no deal")


def test_ice_solo_best_per_variant_kept_in_nvm_and_shown_from_the_menu():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    st = new_ice_solo(sim)
    finish_ice_solo(sim)
    score = st.scores()[0]
    key = "ice_solo variant=5"
    assert sim.app.settings.bests == {key: [score]}
    sim.escape()
    sim2 = boot(nvm=nvm, seed=2)
    assert sim2.app.settings.bests == {key: [score]}, "kept in NVM"
    sim2.run_script("menu:scores a")
    scr = sim2.app.scr
    texts = []
    for _ in range(len(scr.games)):
        texts.append(scr.texts[0])
        sim2.press("down")
    assert "BEST %d  VARIANT=5" % score in texts


def test_a_worse_game_keeps_the_best_and_records_stay_in_their_slot():
    st = S.Settings()

    class Done:
        options = "players=1 target=30"
        turns = 9
    st.record("bag_of_ice", [31], Done)
    Done.turns = 12
    st.record("bag_of_ice", [33], Done)
    assert st.bests["bag_of_ice players=1 target=30"] == [9], "fewest turns"

    class Table:
        options = "players=3"
    st.record("bag_of_ice", [60, 12, 60], Table)
    st.record("bag_of_ice", [61, 12, 3], Table)
    assert st.bests["bag_of_ice players=3"] == [2, 0, 1], "wins per seat"
    for i in range(30):             # many option sets: the oldest give way
        Done.options = "players=1 target=%d" % (100 + i)
        st.record("bag_of_ice", [100], Done)
    data = st.encode()
    assert len(data) <= S.MAX_RECORD
    back = S.Settings()
    assert back.decode(data)
    assert "bag_of_ice players=1 target=129" in back.bests, "the latest kept"
    assert list(back.bests)[-1] == "bag_of_ice players=1 target=129"


def test_a_record_of_the_older_layout_still_loads():
    st = S.Settings()
    st.set("bright", "3")
    st.record("dice", [4])
    old = st.encode()
    # what the earlier version wrote: the same, without the tail (an empty
    # bests count, an empty deal game, a zero seed)
    assert old.endswith(b"\x00\x00\x00\x00\x00\x00")
    back = S.Settings()
    assert back.decode(old[:-6])
    assert back.get("bright") == "3" and back.results == {"dice": [4]}
    assert back.bests == {} and back.deal_game == ""


def test_ice_solo_replays_the_same_deal():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm, seed=5)
    first = new_ice_solo(sim).grid_text()
    sim.app.exit_to_menu()
    second = new_ice_solo(sim).grid_text()
    assert second != first, "a new deal each time by default"
    sim.app.exit_to_menu()
    sim.app.settings.set("ice_solo.replay", "same")
    assert new_ice_solo(sim).grid_text() == second
    sim.app.exit_to_menu()
    sim.app.settings.flush()
    sim2 = boot(nvm=nvm, seed=9)            # after a power cut too
    assert new_ice_solo(sim2).grid_text() == second


# ---- rules ---------------------------------------------------------------------------
@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_the_rules_item_scrolls_each_games_summary(board):
    import sys
    from lib import rules
    from engine import catalog
    sim = boot(board)
    sim.run_script("menu:rules a")
    scr = sim.app.scr
    assert type(scr).__name__ == "Rules"
    seen = []
    for _ in range(len(scr.games)):
        gid = scr.games[scr.index]
        assert scr.text.text == rules.text(gid)
        assert scr.text.text.startswith(catalog.entry(gid).name + ":")
        sim.advance(1500)                   # 8x8: the icon, then the text
        assert scr.texting and P.TEXT in sim.indices()
        seen.append(gid)
        sim.press("right")
    assert set(seen) == set(sim.app.playable)
    sim.press("b")
    assert sim.app.scr is sim.app.menu
    assert "lib.rules" not in sys.modules, "its heap back for the menu"


def test_every_summary_is_drawable_and_every_game_has_one():
    from lib import font
    from lib import rules
    from engine import catalog
    assert [g for g, _ in rules.RULES] == list(catalog.ids())
    for gid, text in rules.RULES:
        for ch in text:
            assert ch == " " or font.glyph(ch) != font.glyph("?") or ch == "?", \
                (gid, ch)


def test_no_file_names_a_path_outside_the_repository():
    import os
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = "/" + "work/", "../" + "shared", "shared/" + "RULINGS"
    found = []
    for pattern in bad:
        res = subprocess.run(["git", "grep", "-n", "-I", "-F", pattern, "--", "."],
                             cwd=root, capture_output=True, text=True)
        found += res.stdout.splitlines()
    assert found == []


def test_an_app_without_a_piezo_plays_on_silently():
    import sys
    sim = boot()
    sim.app.sound = None                    # as code.py leaves it without one
    sim.run_script("menu:dice a a wait:900 b")
    assert sim.app.game == "dice" and sim.app.state.rolled
    sim.app.refuse()
    sim.advance(A.BLANK_MS + 100)           # blanking stops no sound
    assert sim.app.sleep == A.BLANK


def test_code_py_loads_no_sound_module_without_a_piezo_pin():
    import sys
    sys.modules.pop("lib.sound", None)
    from tools.simkit import load_code
    code = load_code()
    app = code.make_app("pico_8x8", nvm=bytearray(b"\xff" * 4096), clock=lambda: 0,
                        seed=1)
    assert app.sound is None, "the desktop board has no piezo pin"
    assert "lib.sound" not in sys.modules
