"""The app shell through the simulator harness: the real code.py app on
Blinka, buttons through keypad's queue, pixels as written to the LEDs.

Time is the harness clock (no sleeping). A two-player game that exists only
in this file stands in for a pass-and-play game to test the hand-off.
"""
import sys
import types

import pytest

from engine import catalog
from engine.rng import Rng
from engine.state import State, OVER, CHANCE, IllegalMove
from lib import palette as P
from lib import font
from lib import screens_common as C
from lib import settings as S
from lib.buttons import A, DOWN, LEFT, RIGHT
from lib.app import SAVE_START, SAVE_LOAD, SAVE_PACK, SAVE_WRITE
from tools.simkit import Sim
from harness import boot, game_part


def goto(sim, item):
    for _ in range(12):
        if sim.app.menu.current() == item:
            return
        sim.press("right")
    raise AssertionError("menu has no %s" % item)


def icon_frame(item, dim):
    icon = C.icon(item)
    return bytes([(P.DIM if dim and c else c) for c in icon])


def count(sim, index):
    return sum(1 for c in sim.indices() if c == index)


def record_offset(nvm):
    """Where the game record starts (magic 'PR', version 1, kind game)."""
    i = bytes(nvm).find(b"PR\x01\x01")
    assert i >= 0, "no game record in the NVM"
    return i


# ---- a pass-and-play game that lives only in this test -------------------
class Duel(State):
    """Two players alternate; any move is 0 or 1; over after four moves.
    Scores: player 0 gets 10 per move made, player 1 gets 7."""

    GAME = "pointsettia"
    __slots__ = ("n",)

    def _init(self):
        self.n = 0

    def _apply(self, a):
        self.n += 1

    def num_players(self):
        return 2

    def to_move(self):
        return OVER if self.n >= 4 else self.n % 2

    def legal_actions(self):
        return [] if self.n >= 4 else [0, 1]

    def token(self, a):
        return "m%d" % a

    def action(self, tok):
        if tok in ("m0", "m1"):
            return int(tok[1])
        raise IllegalMove("moves are m0 and m1")

    def scores(self):
        return [10 * self.n, 7]

    def render(self):
        return "n=%d" % self.n


class DealDuel(Duel):
    """Duel after a deal: an auto chance node with weights 1, 2, 3 first."""

    GAME = "ice_towers"
    __slots__ = ("dealt",)

    def _init(self):
        self.n = 0
        self.dealt = -1

    def _apply(self, a):
        if self.dealt < 0:
            self.dealt = a - 10
        else:
            self.n += 1

    def to_move(self):
        return CHANCE if self.dealt < 0 else Duel.to_move(self)

    def auto_chance(self):
        return True

    def chance_outcomes(self):
        return [(10, 1), (11, 2), (12, 3)] if self.dealt < 0 else []

    def legal_actions(self):
        return [] if self.dealt < 0 else Duel.legal_actions(self)


class DuelScreen(C.Screen):
    def __init__(self, app, state):
        self.app = app

    def key(self, k):
        if k == A:
            return self.app.play(0)
        if k == LEFT:
            return self.app.play(7)     # never legal
        if k == RIGHT:
            return self.app.undo()
        if k == DOWN:
            self.app.show_scores()
            return True
        return False

    def tick(self, now):
        return False

    def save_view(self):
        return b""

    def load_view(self, data):
        pass

    def draw(self, d):
        d.fill(P.OFF)
        d.pixel(3, 3, P.OK)


@pytest.fixture
def duel(monkeypatch):
    eng = types.ModuleType("engine.pointsettia")
    eng.Game = Duel
    scr = types.ModuleType("lib.screen_pointsettia")
    scr.Screen = DuelScreen
    monkeypatch.setitem(sys.modules, "engine.pointsettia", eng)
    monkeypatch.setitem(sys.modules, "lib.screen_pointsettia", scr)
    # with its screen here, the catalog's entry is built
    monkeypatch.setattr(catalog.entry("pointsettia"), "built", True)
    return eng


@pytest.fixture
def deal_duel(monkeypatch):
    eng = types.ModuleType("engine.ice_towers")
    eng.Game = DealDuel
    scr = types.ModuleType("lib.screen_ice_towers")
    scr.Screen = DuelScreen
    monkeypatch.setitem(sys.modules, "engine.ice_towers", eng)
    monkeypatch.setitem(sys.modules, "lib.screen_ice_towers", scr)
    monkeypatch.setattr(catalog.entry("ice_towers"), "built", True)
    return eng


# ---- boot and menu -----------------------------------------------------------
def test_boot_animation_then_menu():
    sim = Sim(board="pico_8x8")
    sim.advance(300)
    lit = [c for c in sim.indices() if c]
    assert lit, "the boot animation draws something"
    assert all(1 <= c < 28 for c in lit), "it is made of piece colours"
    assert sim.app.scr is not sim.app.menu
    sim.advance(1200)
    assert sim.app.scr is sim.app.menu


def test_a_key_skips_the_boot_animation():
    sim = Sim(board="pico_8x8")
    sim.press("a")
    assert sim.app.scr is sim.app.menu
    assert sim.app.game is None, "the skipping press does not open a game"


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_menu_shows_every_item_icon_and_wraps(board):
    sim = boot(board)
    app = sim.app
    seen = []
    n = len(app.menu.items)     # the games and tools, rules, settings, scores, about
    assert n == 11
    for i in range(n):
        item = app.menu.current()
        dim = i < 7 and item not in app.playable
        if board == "pico_8x8":
            assert sim.indices() == icon_frame(item, dim)
        else:
            # the icon at the top, its name under it (in grey if not playable)
            rows = bytes(sim.indices()[y * 16 + 4 + x] for y in range(8)
                         for x in range(8))
            assert rows == icon_frame(item, dim)
            text = sim.indices()[10 * 16:15 * 16]
            want = P.DIM if dim else P.TEXT
            assert want in text and not any(c not in (0, want) for c in text)
        seen.append(bytes(sim.indices()))
        sim.press("right")
    assert len(set(seen)) == n, "every item looks different"
    assert app.menu.current() == "ice_solo", "RIGHT wraps to the first item"
    sim.press("left")
    assert app.menu.current() == "about", "LEFT wraps to the last"
    sim.press("up")
    assert app.menu.current() == "scores"


def test_playable_is_engine_and_screen_present():
    from engine import registry
    import lib.app
    import os
    here = os.path.join(os.path.dirname(lib.app.__file__))
    want = [g for g in registry.available()
            if os.path.exists(os.path.join(here, "screen_%s.py" % g))]
    assert lib.app.playable() == want
    assert "dice" in want and "bag" in want


def test_8x8_menu_names_an_item_once_after_a_rest():
    sim = boot()
    goto(sim, "dice")
    icon = icon_frame("dice", False)
    sim.advance(1500)
    assert sim.indices() == icon, "not while moving on"
    sim.advance(1000)
    assert sim.indices() != icon and P.TEXT in sim.indices()
    seen = set()
    for _ in range(40):
        sim.advance(100)
        seen.add(bytes(sim.indices()))
    assert len(seen) > 5, "the name scrolls"
    assert sim.indices() == icon, "then the icon is back"
    sim.advance(5000)
    assert sim.indices() == icon, "once per rest"
    sim.press("right")
    assert sim.indices() == icon_frame("bag", False)


def test_tools_are_playable_and_listed_games_always_shown():
    sim = boot()
    assert "dice" in sim.app.playable and "bag" in sim.app.playable
    for g in ("ice_solo", "bag_of_ice", "ice_stalks", "ice_towers", "pointsettia"):
        goto(sim, g)   # every game is in the menu, built or not


def test_not_yet_game_is_refused_visibly():
    sim = boot()
    sim.app.playable = ["dice", "bag"]      # as if no game engine were built
    goto(sim, "ice_stalks")
    assert P.DIM in sim.indices() and P.piece(0, 3) not in sim.indices()
    sim.press("a")
    assert sim.app.game is None and sim.app.scr is sim.app.menu
    f = sim.indices()
    # a red cross over the grey icon
    assert all(f[i * 8 + i] == P.REFUSE and f[i * 8 + 7 - i] == P.REFUSE
               for i in range(8))
    sim.advance(1000)
    assert P.REFUSE not in sim.indices(), "the cross goes away"


@pytest.mark.parametrize("board", ("pico_8x8", "pico_16x16"))
def test_refusal_flash_touches_few_rows_on_the_big_panel(board):
    sim = boot(board)
    before = sim.indices()
    sim.app.refuse()
    sim.app.redraw()
    sim.step()
    f = sim.indices()
    w = sim.app.d.width
    changed = {i // w for i in range(len(f)) if f[i] != before[i]}
    assert all(f[i] == P.REFUSE for i in range(w)), "the top edge is red"
    if w == 8:
        assert changed == set(range(8)), "a frame round the 8x8 panel"
    else:
        # show() pays per changed row: top and bottom bars only
        assert changed == {0, 1, 14, 15}
    sim.advance(600)
    assert P.REFUSE not in sim.indices()


def test_entering_a_tool_imports_it_and_escape_releases_it():
    sim = boot()
    for name in ("lib.screen_dice", "engine.dice"):
        sys.modules.pop(name, None)
    goto(sim, "dice")
    sim.press("a")
    assert sim.app.game == "dice"
    assert "lib.screen_dice" in sys.modules and "engine.dice" in sys.modules
    assert sim.app.state.GAME == "dice"
    sim.escape()
    assert sim.app.scr is sim.app.menu and sim.app.game is None
    assert sim.app.state is None and sim.app.game_scr is None
    assert "lib.screen_dice" not in sys.modules
    assert "engine.dice" not in sys.modules
    assert sim.indices() == icon_frame("dice", False), "back on the dice item"


def test_entering_loads_the_screen_a_pass_after_the_engine():
    # from .py sources each import compiles; apart, a collection runs
    # between the two (the device budget measured the app's heap past
    # its cap when both fell in one pass)
    sim = boot()
    for name in ("lib.screen_dice", "engine.dice"):
        sys.modules.pop(name, None)
    goto(sim, "dice")
    assert sim.app.enter("dice")
    assert "engine.dice" in sys.modules and "lib.screen_dice" not in sys.modules
    assert type(sim.app.scr).__name__ == "Loading"
    sim.step()    # the first pass of the screen (arms it)
    assert "lib.screen_dice" not in sys.modules
    sim.step()
    assert "lib.screen_dice" in sys.modules
    assert sim.app.scr is sim.app.game_scr is not None


def test_a_screen_that_will_not_load_is_refused_and_nothing_saved(monkeypatch):
    sim = boot()
    goto(sim, "bag_of_ice")
    # the engine is there, the screen module is not (None in sys.modules
    # makes its import fail, as a missing or broken file would)
    monkeypatch.setitem(sys.modules, "lib.screen_bag_of_ice", None)
    saved = []
    monkeypatch.setattr(sim.app, "save", lambda whole=True: saved.append(1))
    sim.press("a")
    assert sim.app.game is None and sim.app.state is None
    assert sim.app.scr is sim.app.menu
    assert P.REFUSE in sim.indices(), "the menu says no"
    assert saved == [], "a game that never started is not saved"
    assert "engine.bag_of_ice" not in sys.modules, "its engine is dropped again"


def test_boot_loads_no_game_and_the_shell_only_while_needed():
    for name in ("lib.screen_dice", "engine.dice", "lib.screen_bag", "engine.bag",
                 "lib.shell"):
        sys.modules.pop(name, None)
    sim = boot()
    assert "dice" in sim.app.playable
    for name in ("lib.screen_dice", "engine.dice", "lib.screen_bag", "engine.bag"):
        assert name not in sys.modules, "finding what is playable loaded " + name
    assert "lib.shell" not in sys.modules, "boot screens dropped at the menu"
    goto(sim, "settings")
    sim.press("a")
    assert "lib.shell" in sys.modules
    sim.press("b")
    assert "lib.shell" not in sys.modules


def test_short_b_does_not_escape():
    sim = boot()
    goto(sim, "dice")
    sim.press("a")
    sim.press("b", hold_ms=400)
    assert sim.app.game == "dice"


# ---- hand-off, scores --------------------------------------------------------
def test_handoff_shows_whose_turn_in_their_colour(duel):
    sim = boot()
    assert "pointsettia" in sim.app.playable
    goto(sim, "pointsettia")
    sim.press("a")
    assert sim.app.game == "pointsettia"
    # first the hand-off to player 1, the board hidden
    f = sim.indices()
    p1 = P.player(0)
    assert f[0] == p1 and f[7] == p1 and f[63] == p1
    assert P.OK not in f
    ones = bin(font.glyph("1")).count("1")
    assert count(sim, p1) == 28 + ones, "a border and the digit 1"
    sim.press("a")
    assert sim.indices()[3 * 8 + 3] == P.OK, "A shows the game"
    sim.press("a")                 # player 1 moves: now player 2's turn
    assert sim.app.state.to_move() == 1
    p2 = P.player(1)
    f = sim.indices()
    assert f[0] == p2 and P.OK not in f and p1 not in f
    assert count(sim, p2) == 28 + bin(font.glyph("2")).count("1")
    sim.press("b")
    assert sim.app.scr is not sim.app.game_scr, "only A passes the hand-off"
    sim.press("a")
    assert sim.indices()[3 * 8 + 3] == P.OK


def test_illegal_move_is_refused_and_undo_hands_back(duel):
    sim = boot()
    goto(sim, "pointsettia")
    sim.press("a")
    sim.press("a")                 # pass the first hand-off
    st = sim.app.state
    sim.press("left")              # an illegal move
    assert sim.indices()[0] == P.REFUSE and sim.indices()[3 * 8 + 3] == P.OK
    assert st.n == 0 and not st.hist
    sim.advance(600)
    sim.press("right")             # nothing to undo
    assert sim.indices()[0] == P.REFUSE
    sim.advance(600)
    sim.press("a")                 # player 1 moves; hand-off to player 2
    sim.press("a")
    assert st.to_move() == 1
    sim.press("right")             # undo: back to player 1, so a hand-off
    assert st.n == 0 and st.to_move() == 0
    assert sim.indices()[0] == P.player(0)


def test_deal_is_resolved_at_once_with_the_seeded_rng(deal_duel):
    for seed in (1, 2, 3, 4):
        sim = boot(seed=seed)
        goto(sim, "ice_towers")
        sim.press("a")
        st = sim.app.state
        want = Rng(seed).weighted([1, 2, 3])
        assert st.history() == [(10 + want, True)]
        assert st.to_move() == 0
        assert sim.indices()[0] == P.player(0), "then the first hand-off"


def test_handoff_on_16x16_names_the_player(duel):
    sim = boot("pico_16x16")
    goto(sim, "pointsettia")
    sim.press("a")
    sim.press("a")
    sim.press("a")
    f = sim.indices()
    c = P.player(1)
    # a frame two pixels thick and "P2" inside
    assert all(f[y * 16 + x] == c for y in (0, 1, 14, 15) for x in range(16))
    inner = bin(font.glyph("P")).count("1") + bin(font.glyph("2")).count("1")
    assert count(sim, c) == 16 * 4 + 12 * 4 + inner


def test_finished_game_scores_are_shown_and_remembered(duel):
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    goto(sim, "pointsettia")
    sim.press("a")
    for _ in range(4):
        sim.press("a")      # pass the hand-off
        sim.press("a")      # move
    assert sim.app.state.to_move() == OVER
    sim.press("down")       # this game's screen asks for the scores
    f = sim.indices()
    assert f[0] == P.player(0), "page 1: player 1's colour on top"
    assert P.OK in f, "the best score is green"
    sim.press("right")
    assert sim.indices()[0] == P.player(1)
    assert P.TEXT in sim.indices() and P.OK not in sim.indices()
    sim.press("b")
    assert sim.app.scr is sim.app.game_scr
    sim.escape()
    assert sim.store.load_game() is None, "a finished game is not offered"
    # after a reboot the scores screen in the menu still has the result
    sim2 = boot(nvm=nvm)
    assert sim2.app.scr is sim2.app.menu, "no resume prompt"
    goto(sim2, "scores")
    sim2.press("a")
    assert sim2.app.settings.results["pointsettia"] == [40, 7]
    f = sim2.indices()
    assert f[0] == P.player(0) and P.OK in f
    sim2.press("b")
    assert sim2.app.scr is sim2.app.menu


def test_scores_screen_without_results():
    sim = boot()
    goto(sim, "scores")
    sim.press("a")
    assert P.DIM in sim.indices() and P.TEXT not in sim.indices()
    sim.press("b")
    assert sim.app.scr is sim.app.menu


def test_about_screen_scrolls_and_returns():
    sim = boot()
    goto(sim, "about")
    sim.press("a")
    a = bytes(sim.indices())
    assert P.TEXT in a
    sim.advance(1500)
    assert bytes(sim.indices()) != a, "the text moves"
    sim.press("b")
    assert sim.app.scr is sim.app.menu


def test_a_crashing_game_goes_back_to_the_menu_with_a_notice(duel, monkeypatch,
                                                           capsys):
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    roll_dice(sim)
    sim.escape()                       # a good save to keep
    saved = sim.store.load_game()
    goto(sim, "pointsettia")
    sim.press("a")
    sim.press("a")                     # hand-off: A shows the game

    def boom(self, k):
        raise RuntimeError("bug in a game screen")
    monkeypatch.setattr(DuelScreen, "key", boom)
    sim.down("a")
    passes = [3]

    def more():
        passes[0] -= 1
        return passes[0] >= 0
    sim.app.run(more)                  # the device loop catches it
    assert "bug in a game screen" in capsys.readouterr().err
    assert sim.app.errors == 1 and sim.app.game is None
    assert type(sim.app.scr).__name__ == "Notice"
    assert "lib.screen_pointsettia" not in sys.modules
    sim.up("a")
    sim.advance(40)
    assert P.NOTICE in sim.indices()
    sim.advance(8000)
    assert sim.app.scr is sim.app.menu
    assert sim.store.load_game() == saved, "the last good save is kept"


def test_step_itself_does_not_hide_bugs(duel, monkeypatch):
    sim = boot()
    goto(sim, "pointsettia")
    sim.press("a")
    sim.press("a")

    def boom(self, k):
        raise RuntimeError("bug")
    monkeypatch.setattr(DuelScreen, "key", boom)
    with pytest.raises(RuntimeError):
        sim.press("a")


# ---- settings ----------------------------------------------------------------
def test_settings_are_changed_and_remembered_across_a_reboot():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    before = sim.display.brightness
    goto(sim, "settings")
    sim.press("a")
    sim.press("right")      # one press, on 8x8 too (the name stops scrolling)
    assert sim.app.settings.get("bright") == "6"
    assert sim.display.brightness == S.LEVELS[5] != before, "applied at once"
    for _ in range(3):
        sim.press("down")   # bag of ice: players
    sim.press("right")
    sim.press("right")
    assert sim.app.settings.get("bag_of_ice.players") == "4"
    assert P.HILITE in sim.indices(), "the value shows"
    sim.press("b")
    assert sim.app.scr is sim.app.menu
    sim2 = boot(nvm=nvm)
    assert sim2.display.brightness == S.LEVELS[5]
    assert sim2.app.settings.get("bag_of_ice.players") == "4"
    assert sim2.app.settings.options("bag_of_ice", ("players",)) == {"players": "4"}


def test_settings_choose_the_seats_the_device_plays():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    goto(sim, "settings")
    sim.press("a")
    for _ in range(3):
        sim.press("down")   # bag of ice: players (2 at first)
    assert sim.app.scr.rows[sim.app.scr.row][1] == "BAG OF ICE: PLAYERS"
    sim.press("right")
    sim.press("right")      # 4 players
    sim.press("down")
    sim.press("down")       # bag of ice: how many seats the device plays
    scr = sim.app.scr
    assert scr.rows[scr.row][1] == "BAG OF ICE: DEVICE PLAYS"
    assert scr._value() == "none"
    sim.press("right")
    sim.press("right")
    assert sim.app.settings.get("bag_of_ice.bots") == "2"
    sim.press("b")
    opts = sim.app.settings.options("bag_of_ice", ("players", "target", "bots"))
    assert opts == {"players": "4", "target": "60", "bots": "3,4"}, "the last seats"
    # the engine takes it: seats 3 and 4 are the device's
    from engine import registry
    st = registry.new("bag_of_ice", opts)
    assert [st.is_bot(p) for p in range(4)] == [False, False, True, True]
    # more than the players: held to every seat but the first, and none is
    # no option at all
    sim.app.settings.set("bag_of_ice.bots", "11")
    assert sim.app.settings.options("bag_of_ice", ("players", "bots"))["bots"] == "2,3,4"
    sim.app.settings.set("bag_of_ice.bots", "0")
    assert "bots" not in sim.app.settings.options("bag_of_ice", ("players", "bots"))


def test_settings_list_only_playable_games():
    sim = boot()
    # as on a build without these two games' modules
    sim.app.playable = [g for g in sim.app.playable
                        if g not in ("ice_stalks", "ice_towers")]
    goto(sim, "settings")
    sim.press("a")
    names = [name for i, name in sim.app.scr.rows]
    assert "BAG OF ICE: DEVICE PLAYS" in names
    assert not any(n.startswith("ICE STALKS") or n.startswith("ICETOWERS")
                   for n in names), "games not playable here have no settings shown"
    for _ in range(len(names)):
        sim.press("down")
    assert sim.app.scr.row == 0, "the list wraps round"


def test_settings_refuse_past_the_last_choice():
    sim = boot()
    goto(sim, "settings")
    sim.press("a")
    sim.press("down")       # ice solo colours: 4 or 5 (5 at first)
    sim.press("right")      # already the last choice: refused at once
    assert sim.app.settings.get("ice_solo.variant") == "5"
    assert sim.indices()[0] == P.REFUSE


def test_settings_show_on_off_for_switches():
    sim = boot("pico_16x16")
    goto(sim, "settings")
    sim.press("a")
    sim.press("down")
    sim.press("left")       # 4 colours: the quick start applies
    sim.press("down")       # ice solo quick start: 0/1 shown as OFF/ON
    off = bytes(sim.indices()[9 * 16:14 * 16])
    sim.press("right")
    assert sim.app.settings.options("ice_solo", ("variant", "quick")) == {
        "variant": "4", "quick": "1"}
    on = bytes(sim.indices()[9 * 16:14 * 16])
    assert P.OK in on and P.OK not in off, "ON is green"
    assert on.count(P.OK) < off.count(P.HILITE), "OFF is one letter longer"


def test_settings_record_survives_garbage():
    st = S.Settings()
    assert not st.decode(b"PS\x01\x05\x01")      # truncated
    assert st.get("bright") == S.BRIGHTNESS.default
    st.set("bag_of_ice.target", "80")
    st.record("ice_towers", [12, -3, 40])
    again = S.Settings()
    assert again.decode(st.encode())
    assert again.get("bag_of_ice.target") == "80"
    assert again.results == {"ice_towers": [12, -3, 40]}
    assert again.last == "ice_towers"


# ---- save and resume ------------------------------------------------------------
def roll_dice(sim):
    goto(sim, "dice")
    sim.press("a")
    sim.press("a")          # roll
    sim.advance(800)        # the tumble ends


def test_save_after_two_idle_seconds_and_resume_the_same_state():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm, seed=5)
    roll_dice(sim)
    assert sim.app.saves == 0 and sim.store.load_game() is None
    sim.advance(1000)   # 1.9 s idle since the press: not yet
    assert sim.app.saves == 0
    sim.advance(300)
    assert sim.app.saves == 1
    saved = sim.app.state.serialize()
    assert sim.store.load_game() == saved
    sim.advance(5000)
    assert sim.app.saves == 1, "nothing new: no more writes"
    shown = bytes(sim.indices())

    sim2 = boot(nvm=nvm, seed=99)
    assert type(sim2.app.scr).__name__ == "Prompt", "offered at boot"
    # the offer shows the saved game's icon (blinking)
    frames = set()
    for _ in range(4):
        frames.add(bytes(sim2.indices()))
        sim2.advance(250)
    assert icon_frame("dice", False) in frames and icon_frame("dice", True) in frames
    sim2.press("a")
    assert sim2.app.game == "dice"
    assert "lib.shell" not in sys.modules, "the offer is not kept in the game"
    assert sim2.app.state.serialize() == saved
    assert bytes(sim2.indices()) == shown, "the same roll on the LEDs"


def test_leaving_saves_at_once():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    roll_dice(sim)
    sim.escape()
    assert sim.app.saves == 1
    assert sim.store.load_game() is not None


def half_saved(sim, stage=SAVE_WRITE):
    """Run passes until the idle save has got to ``stage``: serialized the
    game but not written it (SAVE_WRITE; returns the bytes), or an earlier
    step (SAVE_LOAD)."""
    for _ in range(400):
        sim.advance(sim.frame_ms)
        if sim.app.save_stage == stage:
            return sim.app.save_bytes
    raise AssertionError("the idle save never got to %r" % (stage,))


def test_the_idle_save_serializes_in_one_pass_and_writes_in_the_next():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm, seed=5)
    roll_dice(sim)
    before = bytes(nvm)
    data = half_saved(sim)
    assert data == sim.app.state.serialize()
    assert bytes(nvm) == before and sim.app.saves == 0, "nothing written yet"
    sim.advance(sim.frame_ms)
    assert sim.app.saves == 1 and sim.app.unsaved is False
    assert sim.app.save_stage == SAVE_START and sim.app.save_bytes == b""
    assert sim.store.load_game() == data


@pytest.mark.parametrize("loaded", [False, True])
def test_a_save_module_loads_in_a_pass_before_the_serialize(monkeypatch, loaded):
    # Ice Solo's save format is in engine/ice_solo_undo.py, loaded for the
    # call: the idle save imports it alone in a pass, serializes in the
    # next and writes in the one after
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    goto(sim, "ice_solo")
    sim.press("a")
    sim.advance(8000)                   # the deal
    assert sim.app.state.to_move() == 0 and sim.app.saves == 0
    sim.app.play(sim.app.state.legal_actions()[0])
    if loaded:
        # as from .py sources, where the deal compiles it with the game:
        # the pass is spent all the same, so .py and .mpy boards show the
        # same frames at the same times
        import engine.ice_solo_undo  # noqa: F401
    else:
        monkeypatch.delitem(sys.modules, "engine.ice_solo_undo", raising=False)
    assert sim.app.unsaved is True
    import lib.app
    # found at boot, so no pass of a game looks for files
    assert "ice_solo_undo" in lib.app.AHEAD and "ice_solo_deal" in lib.app.AHEAD
    assert "dice_undo" not in lib.app.AHEAD
    seen = []
    for _ in range(200):
        sim.advance(sim.frame_ms)
        step = (sim.app.unsaved, sim.app.save_stage,
                "engine.ice_solo_undo" in sys.modules, sim.app.saves)
        if not seen or seen[-1] != step:
            seen.append(step)
        if sim.app.saves:
            break
    # the buttons have rested since the deal: the save starts at once, and
    # goes on one thing a pass: is the game over, the import, serialize,
    # the write
    assert seen == [(True, SAVE_LOAD, loaded, 0), (True, SAVE_PACK, True, 0),
                    (True, SAVE_WRITE, True, 0), (False, SAVE_START, True, 1)]
    assert game_part(sim.store.load_game()) == sim.app.state.serialize()


def test_a_move_between_the_two_passes_drops_the_serialized_bytes():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm, seed=5)
    roll_dice(sim)
    old = half_saved(sim)
    sim.press("a")          # roll again in the very next pass
    sim.advance(800)
    assert sim.app.unsaved is True and sim.app.saves == 0
    assert sim.app.save_bytes != old
    assert sim.store.load_game() is None, "the stale bytes were not written"
    sim.advance(2500)
    assert sim.app.saves == 1
    assert sim.store.load_game() == sim.app.state.serialize() != old


def test_leaving_halfway_through_the_idle_save_saves_the_latest_game():
    for move, stage in ((False, SAVE_WRITE), (True, SAVE_WRITE), (False, SAVE_LOAD),
                        (True, SAVE_LOAD)):
        nvm = bytearray(b"\xff" * 4096)
        sim = boot(nvm=nvm, seed=5)
        roll_dice(sim)
        half_saved(sim, stage)
        if move:
            sim.app.play(sim.app.state.legal_actions()[0])
        latest = sim.app.state.serialize()
        sim.escape()
        assert sim.app.game is None and sim.app.saves == 1
        assert sim.store.load_game() == latest


# ---- the menu and the one save slot -----------------------------------------------
def ice_solo_in_play(nvm, moves=3):
    """Ice Solo from the menu, dealt, ``moves`` nesting moves made and the
    idle save written: the sim and the saved bytes."""
    from engine.ice_solo import END
    sim = boot(nvm=nvm, seed=4)
    goto(sim, "ice_solo")
    sim.press("a")
    for _ in range(400):
        if sim.app.game_scr is not None and sim.app.scr is sim.app.game_scr:
            break
        sim.advance(20)
    st = sim.app.state
    for _ in range(moves):
        assert sim.app.play([m for m in st.legal_actions() if m != END][0])
    sim.advance(3000)
    saved = game_part(sim.store.load_game())
    assert saved == st.serialize()
    return sim, saved


def open_item(sim, item):
    goto(sim, item)
    sim.press("a")
    for _ in range(400):
        if sim.app.game_scr is not None and sim.app.scr is sim.app.game_scr:
            return
        if type(sim.app.scr).__name__ == "Prompt":
            return
        sim.advance(20)


def test_the_waiting_game_is_resumed_from_the_menu_not_dealt_again():
    nvm = bytearray(b"\xff" * 4096)
    sim, saved = ice_solo_in_play(nvm)
    sim.escape()
    assert sim.app.scr is sim.app.menu
    open_item(sim, "ice_solo")
    assert sim.app.game == "ice_solo"
    assert sim.app.state.serialize() == saved, "the same game, where it was left"
    assert sim.app.errors == 0


def test_a_tool_opened_while_a_game_waits_does_not_save_over_it():
    nvm = bytearray(b"\xff" * 4096)
    sim, saved = ice_solo_in_play(nvm)
    sim.escape()
    open_item(sim, "dice")
    assert sim.app.game == "dice"
    sim.press("a")              # roll
    sim.advance(3000)           # long past the idle save
    sim.escape()
    assert game_part(sim.store.load_game()) == saved
    open_item(sim, "ice_solo")
    assert sim.app.state.serialize() == saved
    # and after a power cut the boot offers the game, not the die
    sim2 = boot(nvm=nvm, seed=9)
    assert type(sim2.app.scr).__name__ == "Prompt"
    assert sim2.app.scr.state.GAME == "ice_solo"


def test_another_game_asks_first_b_discards_the_waiting_one():
    nvm = bytearray(b"\xff" * 4096)
    sim, saved = ice_solo_in_play(nvm)
    sim.escape()
    open_item(sim, "bag_of_ice")
    scr = sim.app.scr
    assert type(scr).__name__ == "Prompt" and scr.state.GAME == "ice_solo"
    assert game_part(sim.store.load_game()) == saved, "nothing written yet"
    sim.press("b")
    assert sim.app.scr is scr and scr.asking, "B only asks"
    assert game_part(sim.store.load_game()) == saved
    sim.press("down")
    sim.advance(600)
    assert sim.app.game == "bag_of_ice"
    assert sim.store.load_game() is None, "the waiting game was discarded"
    assert sim.app.errors == 0


def test_another_game_asks_first_a_resumes_the_waiting_one():
    nvm = bytearray(b"\xff" * 4096)
    sim, saved = ice_solo_in_play(nvm)
    sim.escape()
    open_item(sim, "bag_of_ice")
    assert type(sim.app.scr).__name__ == "Prompt"
    sim.press("a")
    sim.advance(600)
    assert sim.app.game == "ice_solo"
    assert sim.app.state.serialize() == saved


def test_a_waiting_tool_gives_way_to_a_game_without_asking():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm, seed=5)
    roll_dice(sim)
    sim.advance(3000)
    assert sim.store.load_game() == sim.app.state.serialize()
    sim.escape()
    open_item(sim, "bag_of_ice")
    assert sim.app.game == "bag_of_ice", "no offer for a die"
    assert sim.app.keep is False, "the game saves as usual"


def test_a_tool_leaves_another_waiting_tool_alone():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm, seed=5)
    roll_dice(sim)
    sim.advance(3000)
    saved = bytes(sim.store.load_game())
    sim.escape()
    open_item(sim, "bag")
    assert sim.app.game == "bag" and sim.app.keep is True
    sim.press("a")              # a draw
    sim.advance(3000)
    assert sim.app.state.history(), "the bag drew"
    sim.escape()
    assert game_part(sim.store.load_game()) == saved
    open_item(sim, "dice")
    assert sim.app.keep is False and sim.app.state.serialize() == saved


def test_power_lost_between_the_two_passes_resumes_the_last_good_save():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm, seed=5)
    roll_dice(sim)
    sim.advance(2500)
    first = sim.store.load_game()
    assert first is not None and sim.app.saves == 1
    sim.press("a")
    sim.advance(800)
    half_saved(sim)         # the power goes now
    sim2 = boot(nvm=bytearray(nvm), seed=9)
    assert type(sim2.app.scr).__name__ == "Prompt"
    sim2.press("a")
    assert sim2.app.state.serialize() == first


def test_declining_the_offer_discards_the_save():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    roll_dice(sim)
    sim.escape()
    sim2 = boot(nvm=nvm)
    assert type(sim2.app.scr).__name__ == "Prompt"
    sim2.press("b")
    sim2.press("down")
    assert sim2.app.scr is sim2.app.menu and sim2.app.game is None
    assert "engine.dice" not in sys.modules
    sim3 = boot(nvm=nvm)
    assert sim3.app.scr is sim3.app.menu, "not offered again"


def scrolled_text(sim, ms):
    """Every character the panel showed over ``ms``: the Scroller's text
    each pass it was drawn (read back from the screen object)."""
    seen = set()
    end = sim.now + ms
    while sim.now < end:
        sim.advance(20)
        scr = sim.app.scr
        if not scr.small or scr.texting:
            seen.add(scr.text.text)
    return seen


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_one_b_at_boot_discards_nothing(board):
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(board=board, nvm=nvm)
    roll_dice(sim)
    sim.escape()
    saved = bytes(sim.store.load_game())
    sim2 = boot(board=board, nvm=nvm)
    scr = sim2.app.scr
    assert type(scr).__name__ == "Prompt"
    # the offer says what A and B do, on 8x8 too (in place of the icon)
    assert "DICE WAITS  A RESUME  B DISCARD" in scrolled_text(sim2, 4000)
    for again in ("b", "b"):       # a double press of B only asks
        sim2.press(again)
        assert sim2.app.scr is scr
    assert bytes(sim2.store.load_game()) == saved
    # the question is said in red, on 8x8 in place of the icon
    assert not scr.asking, "the second B answered no"
    sim2.press("b")
    assert scr.asking
    sim2.advance(1500)
    assert P.REFUSE in sim2.indices()
    assert scr.text.text.startswith("DISCARD DICE?")
    sim2.press("a")                # not DOWN: back to the offer
    assert sim2.app.scr is scr and not scr.asking
    assert bytes(sim2.store.load_game()) == saved
    sim2.press("b")
    sim2.press("down")
    assert sim2.app.scr is sim2.app.menu
    assert sim2.store.load_game() is None


def test_choosing_another_game_names_the_waiting_one_and_the_keys():
    nvm = bytearray(b"\xff" * 4096)
    sim, saved = ice_solo_in_play(nvm)
    sim.escape()
    open_item(sim, "bag_of_ice")
    scr = sim.app.scr
    assert scr.offer == ("ICE SOLO WAITS  A RESUMES IT  B DISCARDS IT FOR "
                         "BAG OF ICE")
    assert scr.offer in scrolled_text(sim, 4000)
    sim.press("b")
    sim.press("b")                 # twice: still nothing discarded
    assert sim.app.scr is scr and game_part(sim.store.load_game()) == saved


@pytest.mark.parametrize("damage", ["payload", "header", "foreign"])
def test_damaged_record_is_ignored_with_a_notice(damage):
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    roll_dice(sim)
    sim.escape()
    at = record_offset(nvm)
    if damage == "payload":
        nvm[at + 14] ^= 0x40           # a bit flipped in the saved game
    elif damage == "header":
        nvm[at + 7] ^= 0x01            # a torn length
    else:
        nvm[at:at + 16] = b"another program"[:16].ljust(16, b"!")
    sim2 = boot(nvm=nvm)
    assert type(sim2.app.scr).__name__ == "Notice"
    assert P.NOTICE in sim2.indices(), "an amber message"
    assert sim2.app.game is None
    sim2.press("a")      # dismiss
    assert sim2.app.scr is sim2.app.menu and sim2.app.game is None
    sim3 = boot(nvm=nvm)
    assert sim3.app.scr is sim3.app.menu, "the notice shows once"


def test_notice_goes_away_by_itself():
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    roll_dice(sim)
    sim.escape()
    nvm[record_offset(nvm) + 14] ^= 0x40
    sim2 = boot(nvm=nvm)
    assert type(sim2.app.scr).__name__ == "Notice"
    sim2.advance(8000)
    assert sim2.app.scr is sim2.app.menu


def test_saved_game_that_cannot_be_played_here_is_a_notice(monkeypatch):
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(nvm=nvm)
    roll_dice(sim)
    sim.escape()
    from engine import registry
    real = registry.installed
    monkeypatch.setattr(registry, "installed", lambda pkg, names: [
        n for n in real(pkg, names) if n != "screen_dice"])
    sim2 = boot(nvm=nvm)
    assert type(sim2.app.scr).__name__ == "Notice"
    assert "DICE" in sim2.app.scr.text.text


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_random_buttons_never_crash_the_shell_or_tools(board):
    """A seeded monkey on the buttons: menu, settings, scores, about, dice
    and bag, with escapes and rests (saves) mixed in. Every pass must run
    without an exception and every frame must be shown."""
    nvm = bytearray(b"\xff" * 4096)
    sim = boot(board, nvm=nvm, seed=12)
    sim.app.playable = ["dice", "bag"]   # the shell and tools only
    rng = Rng(2024)
    names = ("up", "down", "left", "right", "a", "a", "b")
    games = set()
    for n in range(300):
        r = rng.randrange(40)
        if r == 0:
            sim.escape()
        elif r == 1:
            sim.advance(2500)
        else:
            sim.press(names[rng.randrange(len(names))])
        if sim.app.game:
            games.add(sim.app.game)
        assert sim.app.errors == 0
    assert games == {"dice", "bag"}, "the walk reached both tools"
    sim.escape()
    sim2 = boot(board, nvm=nvm, seed=1)    # whatever was saved loads cleanly
    assert type(sim2.app.scr).__name__ in ("Prompt", "Menu")


def test_the_boards_parts_kept_on_the_app_survive_entering_a_game():
    # code.make_app keeps the board's parts as ``app.parts``: entering and
    # leaving a game must not overwrite them
    sim = boot()
    sim.app.parts = sim.parts
    goto(sim, "bag_of_ice")
    sim.press("a")
    sim.advance(600)
    assert sim.app.game == "bag_of_ice"
    assert type(sim.app.game_scr).__module__ == "lib.screen_bag_of_ice"
    assert sim.app.parts is sim.parts
    sim.escape()
    assert sim.app.game is None and sim.app.parts is sim.parts


@pytest.mark.parametrize("loaded", [False, True])
def test_a_deal_module_loads_in_a_pass_of_its_own_before_the_first_node(monkeypatch, loaded):
    # engine/ice_solo_deal.py is imported by Dealing, alone in a pass, and
    # the deal then goes on one node a pass; with the module in already
    # (from .py sources) the pass is spent all the same
    if not loaded:
        monkeypatch.delitem(sys.modules, "engine.ice_solo_deal", raising=False)
        monkeypatch.delitem(sys.modules, "engine.ice_solo", raising=False)
    sim = boot()
    goto(sim, "ice_solo")
    sim.down("a")
    seen = []
    for _ in range(40):
        sim.now += sim.frame_ms
        sim.step()
        if type(sim.app.scr).__name__ == "Dealing":
            seen.append((sim.app.scr.dealt, len(sim.app.state.hist),
                         "engine.ice_solo_deal" in sys.modules))
        if len(seen) == 3:
            break
    assert seen[0] == (0, 0, loaded), "the screen is up, nothing dealt yet"
    assert seen[1] == (0, 0, True), "a pass that only loads the deal module"
    assert seen[2] == (1, 2, True), "then one node a pass"
    sim.up("a")
    sim.advance(6000)
    assert type(sim.app.scr).__name__ == "Screen"
    assert sim.app.state.to_move() != CHANCE


def test_leaving_a_game_forgets_its_helper_modules():
    # compiled from sources a game's helpers (engine/<id>_*.py) stay loaded
    # while it is played; the menu must not keep them (~25 KB for Ice Solo)
    import importlib
    sim = boot()
    goto(sim, "ice_solo")
    sim.app.settings.set("ice_solo.variant", "4")
    sim.press("a")
    for _ in range(500):
        if sim.app.scr is sim.app.game_scr:
            break
        sim.advance(20)
    importlib.import_module("engine.ice_solo_text")      # as a refusal loads it
    held = [n for n in sys.modules if n.startswith("engine.ice_solo")]
    assert "engine.ice_solo_tower" in held and "engine.ice_solo_text" in held
    sim.escape()
    assert sim.app.game is None
    left = [n for n in sys.modules
            if n.startswith("engine.ice_solo") or n.startswith("lib.screen_ice_solo")]
    assert left == []
    import engine
    assert not hasattr(engine, "ice_solo_tower")
    # and the game comes back whole
    goto(sim, "ice_solo")
    sim.press("a")
    assert sim.app.game == "ice_solo"
