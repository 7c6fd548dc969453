"""Every game and tool screen against the screen contract (lib/app.py),
through the simulator harness (tools/simkit.py): what every screen must do,
whatever its game.

* Frames: seeded key walks and the gallery's key scripts, on both panels,
  give the frames recorded in tests/vectors/screen_frames.json (a hash of
  the frames shown, in order, see Recorder), so a rework of the screens' machinery cannot
  change a picture unnoticed. A change meant to be seen is recorded anew:
  ``python tests/test_screen_contract.py --record``.
"""
import hashlib
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tools import simkit  # noqa: E402
from tools import gallery  # noqa: E402

VECTORS = os.path.join(ROOT, "tests", "vectors", "screen_frames.json")
BOARDS = ("pico_8x8", "pico_16x16")
KEYS = ("up", "down", "left", "right", "a", "a", "a", "a", "right", "down", "b")

# a key walk per game and setting: seeded presses, as tools/budget's driver
# makes them, with the device's seats where a game has them
WALKS = (
    ("ice_towers", ()),
    ("ice_towers", (("ice_towers.players", "2"), ("ice_towers.ghost", "1"),
                    ("ice_towers.bots", "1"))),
    ("pointsettia", ()),
    ("pointsettia", (("pointsettia.bots", "1"),)),
    ("ice_solo", ()),
    ("bag_of_ice", ()),
    ("bag_of_ice", (("bag_of_ice.bots", "1"),)),
    ("ice_stalks", ()),
    ("ice_stalks", (("ice_stalks.bots", "1"),)),
    ("dice", ()),
    ("bag", ()),
)
WALK_PRESSES = 40


class XorShift:
    """The budget driver's button generator (tools/budget/driver.py)."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n


class Recorder:
    """A hash of the frames a Sim's LED writes sent, in order: each frame
    drawn once however many writes it went up in (a frame spread over
    passes may finish a pass sooner or later) and however long it stayed,
    and the LED bytes of the last write."""

    def __init__(self, sim):
        self.h = hashlib.sha256()
        self.n = 0
        self.last = b""
        self.sim = sim
        written = sim._written

        def hook(buf):
            written(buf)
            f = bytes(sim.display.frame)
            if f != self.last:
                self.h.update(f)
                self.n += 1
                self.last = f
        sim._written = hook

    def digest(self):
        self.h.update(self.sim.last_bytes)
        return "%d:%s" % (self.n, self.h.hexdigest()[:16])


def walk(board, gid, settings, seed=1, presses=WALK_PRESSES):
    """A booted console, ``gid`` opened from the menu with ``settings``,
    then ``presses`` seeded presses; returns (sim, recorder)."""
    sim = simkit.Sim(board=board, seed=seed)
    rec = Recorder(sim)
    for k, v in settings:
        sim.app.settings.set(k, v)
    rng = XorShift(seed)
    sim.run_script(gallery.BOOT)

    def open_game():
        sim.to_item(gid)
        sim.press("a")
        sim.advance(200)
    open_game()
    for _ in range(presses):
        sim.press(KEYS[rng.below(len(KEYS))])
        if rng.below(8) == 0:
            sim.advance(1200)
        if sim.app.game is None and sim.app.scr is sim.app.menu:
            open_game()
    sim.advance(1000)
    return sim, rec


def shot(board, script, seed):
    sim = simkit.Sim(board=board, seed=seed)
    rec = Recorder(sim)
    sim.run_script(gallery.BOOT)
    for part in script.split():
        if part.startswith("handoff:"):
            sim.app.handoff(int(part[8:]))
            sim.advance(100)
        else:
            sim.run_script(part)
    return sim, rec


def cases():
    out = []
    for board in BOARDS:
        for gid, settings in WALKS:
            name = "walk %s %s" % (gid, " ".join("%s=%s" % s for s in settings))
            out.append((board, name.strip()))
        for s in gallery.SHOTS:
            out.append((board, "shot " + s[0]))
    return out


def play_case(board, name):
    if name.startswith("walk "):
        words = name.split()
        settings = tuple(tuple(w.split("=")) for w in words[2:])
        return walk(board, words[1], settings)[1].digest()
    for s in gallery.SHOTS:
        if "shot " + s[0] == name:
            return shot(board, s[2], s[3] if len(s) > 3 else gallery.SEED)[1].digest()
    raise KeyError(name)


def recorded():
    with open(VECTORS) as f:
        return json.load(f)


@pytest.mark.parametrize("board,name", cases())
def test_frames_are_the_recorded_ones(board, name):
    want = recorded()[board + " " + name]
    assert play_case(board, name) == want


def record():
    out = {}
    for board, name in cases():
        out[board + " " + name] = play_case(board, name)
        print(board, name, out[board + " " + name], flush=True)
    with open(VECTORS, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        record()
