"""A resumed game shows exactly the frame it showed when it was saved, the
cursor included: in every game, on both panels, a few moves and cursor
steps, the idle save, a power cut, a boot, A on the resume offer, and the
frames after are the frames before (sampled over whole blink cycles)."""

import sys

import pytest

from engine import catalog
from lib import save as S
from tools.simkit import Sim

BOOT_MS = 1500
SAMPLE_MS = 6000    # longer than every blink and flash cycle

# what is played before the power cut: moves and cursor steps that leave
# the cursor (or the view) away from where a new screen puts it
SCRIPTS = {
    "ice_solo": "b a wait:2500 a wait:1500 right right down",
    "bag_of_ice": "a wait:2500 a wait:2500",
    "ice_stalks": "a wait:2500 right",
    "ice_towers": "right right down down right",
    "pointsettia": "right down",
    "dice": "a wait:2500",
    "bag": "a wait:2500",
}


def frames(sim):
    seen = set()
    for _ in range(SAMPLE_MS // sim.frame_ms):
        sim.advance(sim.frame_ms)
        seen.add(bytes(sim.indices()))
    return seen


def past_handoff(sim):
    """A on the hand-off (two people share the device): the app's screen,
    or a game screen's own (its mode HANDOFF)."""
    for _ in range(3):
        app = sim.app
        scr = app.scr
        if scr is app.game_scr and scr is not None:
            mod = sys.modules["lib.screen_" + app.game]
            if getattr(scr, "mode", None) != getattr(mod, "HANDOFF", None):
                return
        sim.press("a")
        sim.advance(500)


def test_every_game_has_a_script():
    assert sorted(SCRIPTS) == sorted(g for g in catalog.built())


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
@pytest.mark.parametrize("gid", sorted(SCRIPTS))
def test_a_resumed_game_shows_the_frame_it_was_saved_with(gid, board):
    sim = Sim(board=board, seed=11)
    sim.advance(BOOT_MS)
    sim.run_script("menu:%s a" % gid)
    sim.advance(3000)
    past_handoff(sim)
    assert sim.app.game == gid and sim.app.scr is sim.app.game_scr
    sim.run_script(SCRIPTS[gid])
    sim.advance(3000)          # the idle save
    app = sim.app
    assert not app.unsaved and app.scr is app.game_scr
    before = frames(sim)
    game = app.state.serialize()
    view = app.game_scr.save_view()
    # the power goes: a new board boots on what the NVM holds
    after = Sim(board=board, nvm=bytearray(bytes(sim.nvm)), seed=12)
    store = S.Store(bytearray(bytes(sim.nvm)))
    resumed = store.resume()
    assert resumed is not None, (store.status, bytes(store.load_game() or b"")[:40])
    assert resumed.serialize() == game and store.view == view
    after.advance(BOOT_MS)
    assert type(after.app.scr).__name__ == "Prompt"
    after.press("a")
    after.advance(500)
    past_handoff(after)
    assert after.app.game == gid and after.app.state.serialize() == game
    assert after.app.game_scr.save_view() == view
    assert frames(after) == before


def test_a_save_without_a_view_still_resumes():
    sim = Sim(board="pico_8x8", seed=11)
    sim.advance(BOOT_MS)
    sim.run_script("menu:ice_towers a")
    sim.advance(3000)
    past_handoff(sim)
    game = sim.app.state.serialize()
    # the record as saves were written before they carried a view
    nvm = bytearray(b"\xff" * 4096)
    S.Store(nvm).save_game(game)
    again = Sim(board="pico_8x8", nvm=nvm, seed=3)
    again.advance(BOOT_MS)
    again.press("a")
    again.advance(500)
    assert again.app.game == "ice_towers" and again.app.state.serialize() == game
    assert again.app.game_scr.cur == 0


def test_a_view_that_does_not_fit_is_ignored():
    sim = Sim(board="pico_8x8", seed=11)
    sim.advance(BOOT_MS)
    sim.run_script("menu:ice_towers a")
    sim.advance(3000)
    game = sim.app.state.serialize()
    for junk in (b"\xff\xff\xff\xff", b"\x01", b"\x05\x00\x00\x07"):
        nvm = bytearray(b"\xff" * 4096)
        S.Store(nvm).save_game(game, junk)
        again = Sim(board="pico_8x8", nvm=nvm, seed=3)
        again.advance(BOOT_MS)
        again.press("a")
        again.advance(500)
        assert again.app.game == "ice_towers", junk
        assert again.app.game_scr.save_view() == bytes((0, 0, 0, 1)), junk


def test_a_view_longer_than_its_record_is_no_game():
    with pytest.raises(ValueError):
        S.split_game(b"PV\x05ab")
    assert S.split_game(b"PV\x02abPP..") == (b"ab", b"PP..")
    assert S.split_game(b"PP..") == (b"", b"PP..")
