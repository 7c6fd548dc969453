"""How the app loads a game: the menu is dropped while a game is in, so a
game compiled from .py sources gets its heap, and comes back on the same
item when the game is left, by escape or by a screen that will not load."""
import sys

from harness import boot


def test_the_menu_is_dropped_while_a_game_is_in_and_made_again_on_its_item():
    sim = boot()
    sim.to_item("bag")
    sim.press("a")
    assert sim.app.game == "bag"
    assert sim.app.menu is None
    assert "lib.menu" not in sys.modules
    assert not sim.app.common.ICONS, "the menu's compiled icons go with it"
    sim.escape()
    assert sim.app.game is None
    assert sim.app.scr is sim.app.menu is not None
    assert sim.app.menu.current() == "bag"
    sim.press("right")
    assert sim.app.menu.current() != "bag", "the new menu moves as the old one did"


def test_a_game_whose_screen_fails_brings_the_menu_back(monkeypatch):
    sim = boot()
    sim.to_item("dice")
    sys.modules.pop("lib.screen_dice", None)
    real = __import__

    def refuse(name, *args, **kw):
        if name == "lib.screen_dice":
            raise MemoryError("no heap for the screen")
        return real(name, *args, **kw)
    monkeypatch.setattr("builtins.__import__", refuse)
    sim.press("a")
    sim.advance(200)
    assert sim.app.game is None
    assert sim.app.scr is sim.app.menu is not None
    assert sim.app.menu.current() == "dice"


def test_resume_after_escape_enters_the_saved_game_again():
    sim = boot()
    sim.to_item("bag")
    sim.press("a")
    sim.press("a")          # a draw: the bag changes, so there is a save
    sim.advance(3000)
    sim.escape()
    sim.press("a")
    sim.advance(500)
    assert sim.app.game == "bag"
    assert sim.app.menu is None
