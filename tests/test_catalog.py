"""The catalog (engine/catalog.py) is the one place a game is named.

A toy game, Nim, is added here exactly as the README says a game is added:
an engine module (``engine.nim``), a screen module (``lib.screen_nim``) and
one catalog entry; nothing else is touched. The menu, the settings, saving
and resuming, the text protocol and the generic tests must all pick it up.
"""
import sys

import pytest

from engine import catalog
from engine import protocol
from engine import registry
from lib import palette as P
from lib import screens_common as C
from harness import boot

import test_every_game


ENGINE = """\
from engine.state import OVER, IllegalMove, State, opt_int


class Game(State):
    '''Two players take one or two stones in turn from a pile; whoever
    takes the last stone wins.'''

    GAME = "nim"
    OPTIONS = ("pile",)
    __slots__ = ("pile", "left", "player")

    def _configure(self, opts):
        self.pile = opt_int(opts, "pile", 3, 20, 7)

    def _init(self):
        self.left = self.pile
        self.player = 0

    def _apply(self, a):
        self.left -= a
        self.player = 1 - self.player

    def num_players(self):
        return 2

    def to_move(self):
        return OVER if self.left == 0 else self.player

    def legal_actions(self):
        return [a for a in (1, 2) if a <= self.left] if self.left else []

    def token(self, a):
        return "take%d" % a

    def action(self, tok):
        if tok in ("take1", "take2"):
            return int(tok[4])
        raise IllegalMove("moves are take1 and take2")

    def scores(self):
        if self.left:
            return [0, 0]
        # the player who took the last stone is the one not to move now
        return [1, 0] if self.player == 1 else [0, 1]

    def fields(self):
        return {"left": self.left}

    def render(self):
        return "%d left %s" % (self.left, "o" * self.left)
"""

SCREEN = """\
from lib import palette as P
from lib import screens_common as C
from lib.buttons import A, RIGHT


class NimScreen(C.Screen):
    '''A takes one stone, RIGHT takes two; the stones left are a row of
    pixels.'''

    def __init__(self, app, state):
        self.app = app

    def key(self, k):
        if k == A:
            return self.app.play(1)
        if k == RIGHT:
            return self.app.play(2)
        return False

    def tick(self, now):
        return False

    def save_view(self):
        return b""

    def load_view(self, data):
        pass

    def draw(self, d):
        d.fill(P.OFF)
        for i in range(self.app.state.left):
            d.pixel(i % d.width, i // d.width, P.OK)

Screen = NimScreen
"""


ENTRY = catalog.Entry(
    "nim", "NIM", (2, 2), True,
    "........"
    "........"
    "..y..y.."
    "........"
    ".y..y..y"
    "........"
    "........"
    "........",
    (catalog.Setting("pile", ("5", "7", "9"), "7", "NIM: PILE"),))


@pytest.fixture
def nim(monkeypatch, tmp_path):
    """The documented path: the engine module and the screen module as
    files (here in folders added to the packages' search paths), and one
    catalog entry."""
    import engine
    import lib
    for package, name, source in ((engine, "nim", ENGINE),
                                  (lib, "screen_nim", SCREEN)):
        folder = tmp_path / package.__name__
        folder.mkdir()
        (folder / (name + ".py")).write_text(source)
        monkeypatch.setattr(package, "__path__", list(package.__path__) + [str(folder)])
    monkeypatch.setattr(catalog, "GAMES", catalog.GAMES + [ENTRY])
    yield ENTRY
    for name in ("engine.nim", "lib.screen_nim"):
        sys.modules.pop(name, None)


def test_the_menu_lists_it_in_its_name_and_icon_and_opens_it(nim):
    sim = boot()
    assert "nim" in sim.app.menu.items
    assert "nim" in sim.app.playable
    sim.run_script("menu:nim")
    assert C.name("nim") == "NIM"
    frame = sim.indices()
    assert frame[2 * 8 + 2] == P.piece(2, 3), "its icon, undimmed"
    sim.press("a")
    sim.advance(100)
    assert sim.app.game == "nim"
    assert sim.app.scr is not sim.app.game_scr, "two players: the hand-off first"
    sim.press("a")
    assert sim.app.scr is sim.app.game_scr
    assert sim.indices().count(P.OK) == 7, "the default pile"
    sim.press("a")
    assert sim.app.state.left == 6


def test_its_settings_show_and_reach_the_engine(nim):
    sim = boot()
    sim.run_script("menu:settings a")
    titles = [title for i, title in sim.app.scr.rows]
    assert "NIM: PILE" in titles
    sim.app.settings.set("nim.pile", "9")
    sim.press("b")
    sim.run_script("menu:nim a wait:100 a")
    assert sim.app.state.pile == 9
    assert sim.app.state.options == "pile=9"


def test_it_is_saved_and_resumed_by_its_id(nim):
    sim = boot()
    sim.run_script("menu:nim a wait:100 a")
    sim.press("right")          # takes two: 5 left, player 2's hand-off
    sim.escape()
    assert sim.store.load_game()[4:7] == b"nim"
    sim2 = boot(nvm=sim.nvm)    # the resume offer, then A resumes
    assert type(sim2.app.scr).__name__ == "Prompt"
    assert sim2.app.scr.state.GAME == "nim"
    sim2.press("a")
    sim2.advance(100)
    assert sim2.app.game == "nim" and sim2.app.state.left == 5


def test_its_result_is_remembered_by_its_id(nim):
    sim = boot()
    sim.app.settings.record("nim", [1, 0])
    sim.app.settings.flush()
    sim2 = boot(nvm=sim.nvm)
    assert sim2.app.settings.results == {"nim": [1, 0]}


def test_the_protocol_lists_and_plays_it(nim):
    session = protocol.Session(1)
    assert "nim" in session.handle("games").split()
    assert session.handle("new nim pile=5").startswith("= nim")
    assert session.handle("play take2") == "= take2\n\n"
    assert session.handle("legal") == "= take1 take2\n\n"


def test_the_generic_tests_pick_it_up(nim):
    assert "nim" in catalog.built()
    assert "nim" in registry.available()
    pool = set()
    for i in range(4):
        test_every_game.playthrough("nim", {"pile": "9"}, 7919 * i + 1, True, pool)
    assert len(pool) > 1


def test_nothing_else_names_the_built_games():
    # the catalog is the list: the menu's order is the catalog's
    sim = boot()
    games = sim.app.menu.items[:sim.app.menu.games]
    assert list(games) == catalog.ids()
    assert sim.app.playable == [g for g in catalog.built()
                                if g in registry.available()]
