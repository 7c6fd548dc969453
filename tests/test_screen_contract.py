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
import tracemalloc
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tools import simkit  # noqa: E402
from tools import gallery  # noqa: E402
from harness import budget_driver  # noqa: E402

XorShift = budget_driver().XorShift   # the budget driver's button generator

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
    ("pointsettia", (("pointsettia.bots", "red"),)),
    ("ice_solo", ()),
    ("bag_of_ice", ()),
    ("bag_of_ice", (("bag_of_ice.bots", "1"),)),
    ("ice_stalks", ()),
    ("ice_stalks", (("ice_stalks.bots", "1"),)),
    ("dice", ()),
    ("bag", ()),
)
WALK_PRESSES = 40


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


def fresh_modules():
    """Drop the device modules a test before may have imported or left
    caches in, so each walk boots as a board does, importing everything
    afresh (conftest puts the test process's modules back after)."""
    for name in [n for n in sys.modules if n.startswith(("engine.", "lib."))]:
        del sys.modules[name]


def play_case(board, name):
    fresh_modules()
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


# ---- every key in every mode ---------------------------------------------
GAMES = ("ice_towers", "pointsettia", "ice_solo", "bag_of_ice", "ice_stalks",
         "dice", "bag")
KEY_NAMES = ("up", "down", "left", "right", "a", "b")


def mode_of(sim):
    """Which screen has the keys and its mode (None where it has none)."""
    scr = sim.app.scr
    return (type(scr).__name__, getattr(scr, "mode", None))


def delivered(sim, seen):
    """Wrap the game screen's key(): each key it gets is recorded with the
    mode it came in, and must be answered True or False."""
    g = sim.app.game_scr
    if g is None or getattr(g, "_checked", False):
        return
    real = g.key

    def key(k):
        m = getattr(g, "mode", None)
        r = real(k)
        assert r is True or r is False, "key %d in mode %r answered %r" % (k, m, r)
        seen.add((m, k))
        return r
    g.key = key
    g._checked = True


def walk_to(board, gid, settings, n, seed=1, first=None):
    """The walk's console after ``n`` presses, every key it delivers
    checked (see delivered); returns (sim, seen). ``first`` (a dict) gets
    the press at which each mode of the game screen first had the keys."""
    seen = set()
    sim = simkit.Sim(board=board, seed=seed)
    for k, v in settings:
        sim.app.settings.set(k, v)
    rng = XorShift(seed)
    sim.run_script(gallery.BOOT)

    def open_game():
        sim.to_item(gid)
        sim.press("a")
        sim.advance(200)
    open_game()
    for i in range(n):
        delivered(sim, seen)
        if first is not None and sim.app.scr is sim.app.game_scr:
            first.setdefault(mode_of(sim), i)
        sim.press(KEYS[rng.below(len(KEYS))])
        if rng.below(8) == 0:
            sim.advance(1200)
        if sim.app.game is None and sim.app.scr is sim.app.menu:
            open_game()
    delivered(sim, seen)
    return sim, seen


def walk_settings(gid):
    settings = ()
    for g, s in WALKS:
        if g == gid and s:
            settings = s      # with the device's seats where it has them
    return settings


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("gid", GAMES)
def test_every_key_in_every_mode_is_handled(board, gid):
    # the walk's modes, each given every key it did not get in the walk
    # (the walk replayed to where the mode first had the keys, then the
    # key): none raises, each is answered True or False
    settings = walk_settings(gid)
    first = {}
    sim, seen = walk_to(board, gid, settings, WALK_PRESSES, first=first)
    assert sim.app.errors == 0
    assert first, "the walk never reached the game screen"
    for m, i in first.items():
        missing = [k for k in range(6) if (m[1], k) not in seen]
        if not missing:
            continue
        # the first key in the mode itself, the others wherever it leads
        sim, got = walk_to(board, gid, settings, i)
        assert mode_of(sim) == m
        for k in missing:
            delivered(sim, got)
            sim.press(KEY_NAMES[k])
            sim.advance(200)
            assert sim.app.errors == 0
        assert missing[0] in [kk for _, kk in got], "the key reached the screen"


# ---- allocation ------------------------------------------------------------
# CPython makes an object for every int past 256 (a board does not), so a
# pass's passing allocations cannot be told from the screen's here: what is
# checked is that idle passes and key presses keep nothing, measured by
# tracemalloc over what device code (lib/, engine/) allocates
INT_BYTES = 32
DEVICE = [tracemalloc.Filter(True, os.path.join(ROOT, "lib", "*"), all_frames=True),
          tracemalloc.Filter(True, os.path.join(ROOT, "engine", "*"), all_frames=True),
          # the platform's (Blinka's NeoPixel path and the recorder under it)
          tracemalloc.Filter(False, "*site-packages*", all_frames=True)]


def kept(sim, act, times):
    """Bytes that device code allocated and still holds after ``act()``
    ran ``times`` times (once first, to settle)."""
    import gc
    act()
    gc.collect()
    tracemalloc.start(16)
    try:
        before = tracemalloc.take_snapshot()
        for _ in range(times):
            act()
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    diff = after.filter_traces(DEVICE).compare_to(before.filter_traces(DEVICE), "traceback")
    # (blocks of INT_BYTES or less are CPython's ints: a board keeps a small
    # int in the slot itself)
    grown = [d for d in diff if d.size_diff > INT_BYTES * max(d.count_diff, 0)]
    return sum(d.size_diff for d in grown), grown


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("gid", GAMES)
def test_idle_passes_keep_nothing(board, gid):
    sim, _ = walk_to(board, gid, walk_settings(gid), 12)
    sim.advance(3000)           # effects and the idle save done
    n, diff = kept(sim, lambda: sim.advance(20), 100)
    assert n == 0, [str(d.traceback) for d in diff][:3]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("gid", GAMES)
def test_cursor_presses_keep_nothing(board, gid):
    # a press that makes no move (a direction, back and forth) keeps no
    # object: what a move keeps is the game's (its history, its pieces)
    sim, _ = walk_to(board, gid, walk_settings(gid), 12)
    sim.advance(3000)

    def presses():
        sim.press("right")
        sim.press("left")
        sim.advance(2500)       # past the idle save
    n, diff = kept(sim, presses, 6)
    assert n == 0, [str(d.traceback) for d in diff][:3]


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_screen_is_the_contracts_screen(gid):
    # the base declares every hook the app calls (lib/app.py), so no hook
    # is looked up: a screen that is not one would fail where the app calls
    import importlib
    from lib import screens_common as C
    from engine import catalog
    assert gid in [e.gid for e in catalog.GAMES]
    mod = importlib.import_module("lib.screen_" + gid)
    assert issubclass(mod.Screen, C.Screen)
    for hook in ("key", "tick", "draw", "close", "busy", "shown",
                 "draw_handoff", "save_view", "load_view"):
        assert callable(getattr(mod.Screen, hook))
