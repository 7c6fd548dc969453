"""Running out of memory where it can happen on a board: at resume, while
saving, while playing. The app must say so on the LEDs, go on to the menu,
and leave a save that still loads (the last good one)."""

import pytest

from lib import palette as P
from lib import save as save_module
from tools.simkit import Sim

BOOT_MS = 1500


def run_passes(sim, n):
    """``n`` passes of the device loop itself (App.run catches what a pass
    raises), the clock moving as in Sim.advance."""
    left = [n]

    def more():
        left[0] -= 1
        sim.now += sim.frame_ms
        return left[0] >= 0
    sim.app.run(more)


def notice_text(sim):
    return getattr(getattr(sim.app.scr, "text", None), "text", None)


def saved_dice_game():
    """An NVM image holding a saved dice game (rolled twice)."""
    nvm = bytearray(b"\xff" * 4096)
    sim = Sim(nvm=nvm, seed=4)
    sim.advance(BOOT_MS)
    sim.to_item("dice")
    sim.press("a")
    sim.advance(400)
    for _ in range(2):
        sim.press("a")
        sim.advance(1500)
    sim.escape()
    sim.advance(500)
    assert sim.store.load_game()
    return nvm


def test_out_of_memory_at_resume_says_so_and_keeps_the_save(monkeypatch):
    nvm = saved_dice_game()
    image = bytes(nvm)

    def no_memory(self):
        raise MemoryError("memory allocation failed, allocating 1800 bytes")
    monkeypatch.setattr(save_module.Store, "resume", no_memory)
    sim = Sim(nvm=nvm, seed=5)
    run_passes(sim, BOOT_MS // sim.frame_ms + 5)
    assert sim.app.errors == 1
    assert notice_text(sim) == "OUT OF MEMORY"
    assert P.NOTICE in sim.indices()
    run_passes(sim, 600)
    assert sim.app.scr is sim.app.menu
    assert bytes(nvm) == image, "nothing was written over the save"
    monkeypatch.undo()
    again = Sim(nvm=nvm, seed=6)
    again.advance(BOOT_MS + 100)
    assert type(again.app.scr).__name__ == "Prompt", "the save is offered again"


def test_out_of_memory_while_saving_keeps_the_last_good_save(monkeypatch):
    nvm = saved_dice_game()
    sim = Sim(nvm=nvm, seed=7)
    sim.advance(BOOT_MS + 100)
    sim.press("a")                       # resume the dice
    sim.advance(400)
    assert sim.app.game == "dice"
    good = sim.store.load_game()
    sim.press("a")                       # roll: the game changes

    def no_memory(self, data, view=b""):
        raise MemoryError("memory allocation failed")
    monkeypatch.setattr(save_module.Store, "save_game", no_memory)
    run_passes(sim, 300)                 # the idle save comes and fails
    assert notice_text(sim) == "OUT OF MEMORY"
    assert sim.app.game is None
    monkeypatch.undo()
    assert sim.store.load_game() == good
    run_passes(sim, 600)
    assert sim.app.scr is sim.app.menu


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_out_of_memory_in_a_game_screen_goes_to_the_menu(board, monkeypatch):
    nvm = saved_dice_game()
    sim = Sim(board=board, nvm=nvm, seed=8)
    sim.advance(BOOT_MS + 100)
    sim.press("a")
    sim.advance(400)
    screen = type(sim.app.game_scr)

    def no_memory(self, k):
        raise MemoryError("memory allocation failed")
    monkeypatch.setattr(screen, "key", no_memory)
    sim.down("a")
    run_passes(sim, 3)
    sim.up("a")
    assert notice_text(sim) == "OUT OF MEMORY"
    assert sim.store.load_game(), "the save is still there"
