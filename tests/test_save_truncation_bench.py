"""`make bench`: the truncation walk. A board's NVM file, holding an older
and a newer game (each with its screen's view) and the settings, cut short
at every one of its bytes (0 to 4096 kept), boots to a whole saved game
(the newest or an older one the app wrote, with the view saved with it) or to none: never to
a game that was not saved, a view of another game, or a crash. Every 128th
cut also boots the whole app on it and takes the resume offer."""

import pytest

from lib import save as S
from lib.nvm_file import FileNVM
from tools.simkit import Sim

BOOT_MS = 1500
APP_EVERY = 128     # cuts between two whole-app boots


def saved_image(path, monkeypatch):
    """Ice Solo played on the simulator and saved a few times: the NVM
    file's bytes, every (game, view) the app wrote, and the last."""
    written = []
    store_save = S.Store.save_game

    def recording(store, payload, view=b""):
        written.append((bytes(payload), bytes(view)))
        return store_save(store, payload, view)
    monkeypatch.setattr(S.Store, "save_game", recording)
    sim = Sim(board="pico_8x8", nvm=FileNVM(path), seed=4)
    sim.advance(BOOT_MS)
    sim.run_script("menu:ice_solo a")
    sim.advance(8000)
    saves = []
    for keys in ("b a wait:2500 a right", "b a wait:2500 a down down"):
        sim.run_script(keys)
        sim.advance(3000)
        saves.append((sim.app.state.serialize(), sim.app.game_scr.save_view()))
    sim.app.settings.set("bright", "7")
    sim.app.settings.flush()
    monkeypatch.undo()
    assert saves[0] != saves[1] and written[-1] == saves[1]
    return open(path, "rb").read(), written, saves[1]


@pytest.mark.bench
def test_a_save_cut_at_every_byte_boots_to_a_whole_game_or_to_none(tmp_path,
                                                                   monkeypatch):
    path = str(tmp_path / "nvm.bin")
    full, saves, newest = saved_image(path, monkeypatch)
    assert len(full) == 4096
    kinds = {"newer": 0, "older": 0, "none": 0}
    apps = 0
    for cut in range(len(full) + 1):
        with open(path, "wb") as f:
            f.write(full[:cut])
        store = S.Store(FileNVM(path))        # pads with erased bytes
        state = store.resume()
        if state is None:
            assert store.view == b"", cut
            kinds["none"] += 1
        else:
            got = (state.serialize(), store.view)
            assert got in saves, "cut at %d: a game that was not saved" % cut
            kinds["newer" if got == newest else "older"] += 1
        if cut % APP_EVERY == 0 or cut == len(full):
            with open(path, "wb") as f:
                f.write(full[:cut])
            sim = Sim(board="pico_8x8", nvm=FileNVM(path), seed=9)
            sim.advance(BOOT_MS)
            for _ in range(100):   # a notice that the record was cut first
                name = type(sim.app.scr).__name__
                if name != "Notice":
                    break
                sim.advance(200)
            if state is None:
                assert sim.app.scr is sim.app.menu, (cut, name)
            else:
                assert name == "Prompt", (cut, name)
                sim.press("a")
                sim.advance(500)
                assert sim.app.game == "ice_solo" and sim.app.errors == 0, cut
                got = (sim.app.state.serialize(), sim.app.game_scr.save_view())
                assert got in saves, "cut at %d: the app resumed a game not saved" % cut
            apps += 1
    print("\ntruncation walk: %d cuts (%d newer, %d older, %d none), %d app boots"
          % (len(full) + 1, kinds["newer"], kinds["older"], kinds["none"], apps))
    assert kinds["newer"] and kinds["older"] and kinds["none"]
