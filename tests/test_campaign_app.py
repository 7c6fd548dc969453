"""The reliability campaign, app half: button mashing of
the whole console on both boards through tools/simkit.Sim, power cuts,
the clock wrap, the power limit on every frame, and boots from corrupted
save images.

It is marked ``bench``: `make bench` (and CI) runs it at the sizes below,
`make test` leaves it out. ``POCKET_CAMPAIGN=N`` multiplies every size by N
(docs/reliability.md). The figures are printed at the end of each test.

What must hold, whatever is pressed and whenever the power goes:
- no pass raises, and the app never goes through its error recovery;
- every frame written to the LEDs is within the board's BUDGET_MA by the
  display's own current model (Sim.modelled_ma);
- the clock starts just before its 2**29 wrap, so every run crosses it;
- after a power cut (between passes, or part way through a write to the
  NVM: the image as it is after the first k bytes) a fresh app booted from
  the image reaches the menu or offers the last game saved whole, never
  something else, and never nothing while a saved game would load;
- every boot from a damaged image (torn at every byte, bit flips, wrong
  headers, mutated payloads with a correct CRC) ends in the menu or in a
  game that resumes and plays.

A reboot keeps the simulated hardware (LEDs, buttons) and makes a new
store and app on the image, as a board's reset does.
"""

import gc
import os
import random
import zlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import catalog
from lib import save as S
from lib.app import App
from tools.simkit import Sim

pytestmark = pytest.mark.bench

SCALE = int(os.environ.get("POCKET_CAMPAIGN", "1"))
MASH_PASSES = 15000 * SCALE       # app loop passes of mashing per board
SHRINK_EXAMPLES = 20 * SCALE      # hypothesis press sequences
TORN_BOOTS = 60 * SCALE           # torn images per game (every byte when the
                                  # record is no longer than that)
FLIP_BOOTS = 40 * SCALE           # bit-flipped images per game
MUTANT_BOOTS = 40 * SCALE         # CRC-correct mutated payloads per game
BOARDS = ("pico_8x8", "pico_16x16")
BUILT = catalog.built()
WRAP = 1 << 29
BUTTONS = ("up", "down", "left", "right", "a", "b")


class PowerCut(Exception):
    pass


class CutNVM:
    """The board's NVM whose next write can be cut: ``arm(k)`` makes it
    keep only the first ``k`` bytes of the next write and raise PowerCut
    (the board is off from then on: the test reboots from ``image()``)."""

    def __init__(self, data):
        self.buf = bytearray(data)
        self.cut = None
        self.writes = 0
        self.torn = None     # (offset, bytes meant) of the write cut short

    def __len__(self):
        return len(self.buf)

    def __getitem__(self, i):
        return self.buf[i]

    def __setitem__(self, where, data):
        if self.cut is not None and isinstance(where, slice):
            k = min(self.cut, len(data))
            self.cut = None
            self.buf[where.start:where.start + k] = data[:k]
            self.torn = (where.start, bytes(data))
            raise PowerCut()
        self.buf[where] = data
        self.writes += 1

    def arm(self, k):
        self.cut = k

    def image(self):
        return bytes(self.buf)


def offered_by(image):
    """What a boot from ``image`` must offer: the saved game's record, or
    None for the menu (nothing loads, or what loads is over)."""
    state = S.Store(bytearray(image)).resume()
    if state is None or state.to_move() == -2:
        return None
    return state.serialize()


class Rig(Sim):
    """A Sim that checks every pass: the power model on every frame, and
    no error recovery; ``reboot`` starts a new store and app on an image."""

    passes = 0
    frames = 0
    peak_ma = 0

    def step(self):
        shown = self.writes
        self.app.step()
        self.passes += 1
        if self.writes != shown:
            ma = self.modelled_ma()
            assert ma <= self.profile.BUDGET_MA, (
                "frame %d on %s: %d mA over the %d mA budget" % (
                    self.frames, self.profile.NAME, ma, self.profile.BUDGET_MA))
            self.frames += 1
            if ma > self.peak_ma:
                self.peak_ma = ma
        assert self.app.errors == 0, "a pass raised and the app recovered"

    def reboot(self, image, seed=1):
        """Power on again with ``image`` in the NVM: the LEDs and buttons
        are the same parts, the store and the app are new."""
        self.nvm = CutNVM(image)
        self.store = S.Store(self.nvm)
        self.parts.store = self.store
        self.keys.events.clear()
        self.app = App(self.display, self.buttons, self.store, clock=self.clock,
                       seed=seed)
        self.step()

    def settle(self, skip_boot):
        """Through the boot animation (or skip it with a key) and any
        notice, to the screen the boot leads to."""
        if skip_boot:
            self.press("up", hold_ms=20, after_ms=20)
        for _ in range(400):
            name = type(self.app.scr).__name__
            if name not in ("Boot", "Notice"):
                return name
            self.advance(20)
        raise AssertionError("the boot did not end: %s" % name)


def check_boot(rig, image, skip_boot=True):
    """Boot ``rig`` from ``image``: it must reach the menu when nothing
    would load, else the resume offer of exactly that game. Returns the
    offered record or None."""
    want = offered_by(image)
    rig.reboot(image)
    where = rig.settle(skip_boot)
    app = rig.app
    if want is None:
        assert app.scr is app.menu, "a boot offered %s, expected the menu" % where
        return None
    assert where == "Prompt", "a saved game would load but the boot showed %s" % where
    assert app.scr.state.serialize() == want, "the offer is not the saved game"
    return want


def resume_and_play(rig, rng, presses=6):
    """A on the offer: the game must load and take a few presses."""
    gid = rig.app.scr.state.GAME
    rig.press("a")
    rig.advance(200)
    assert rig.app.game == gid, "the offered %s did not resume" % gid
    for _ in range(presses):
        rig.press(rng.choice(BUTTONS), hold_ms=rng.choice((20, 60, 400)),
                  after_ms=rng.choice((20, 100)))


@pytest.fixture(scope="module", autouse=True)
def frozen_heap_released():
    """new_rig freezes what CPython's collector has seen (the app collects
    at every boot, and the campaign boots thousands of times); the rest of
    a `make bench` run gets its collector back."""
    yield
    gc.unfreeze()


def new_rig(board, seed=1):
    rig = Rig(board=board, nvm=CutNVM(b"\xff" * 4096), seed=seed,
              start_ms=WRAP - 20000)
    gc.collect()
    gc.freeze()       # the app's gc.collect() per boot: only new objects
    return rig


# ---- button mashing with power cuts --------------------------------------------
class Masher:
    """Random presses, holds, escapes, idle spells and trips to every
    built game and the settings, with power cuts at random passes."""

    def __init__(self, rig, rng):
        self.rig = rig
        self.rng = rng
        self.entered = dict((g, 0) for g in BUILT)
        self.settings = 0
        self.cuts = 0
        self.torn_cuts = 0
        self.resumed = 0
        self.escapes = 0
        self.presses = 0

    def note(self):
        app = self.rig.app
        if app.game in self.entered:
            self.entered[app.game] += 1
        if type(app.scr).__name__ == "SettingsScreen":
            self.settings += 1

    def press(self, name, hold_ms, after_ms):
        self.rig.press(name, hold_ms=hold_ms, after_ms=after_ms)
        self.presses += 1

    def steer(self):
        """From the menu to a game (the one seen least) or the settings."""
        rig = self.rig
        if rig.app.scr is not rig.app.menu:
            return
        if self.rng.randrange(4) == 0:
            item = "settings"
        else:
            item = min(BUILT, key=lambda g: (self.entered[g], self.rng.random()))
        rig.to_item(item)
        self.press("a", 60, 100)
        if type(rig.app.scr).__name__ == "Prompt" and self.rng.randrange(3):
            # another game waits: B asks, DOWN discards it for this one
            self.press("b", 60, 100)
            self.press("down", 60, 100)

    def power_cut(self):
        """Cut the power between passes or in the middle of the next write,
        then boot from the image and check what it offers."""
        rig = self.rig
        rng = self.rng
        nvm = rig.nvm
        if rng.randrange(2):
            # torn: the next write keeps only its first k bytes; mash until
            # something writes (an idle save, a setting, an escape)
            nvm.arm(rng.randrange(0, 200))
            try:
                for _ in range(40):
                    self.act(cuts=False)
                    if rng.randrange(3) == 0:
                        rig.advance(2500)     # an idle save
                nvm.cut = None                # nothing was written
            except PowerCut:
                self.torn_cuts += 1
        image = nvm.image()
        self.cuts += 1
        got = check_boot(rig, image, skip_boot=rng.randrange(2) == 0)
        if got is not None:
            if rng.randrange(4):
                rig.press("a")                # resume
                self.resumed += 1
                rig.advance(100)
            else:
                rig.press("b")                # asks; DOWN would discard
                rig.press("up")

    def act(self, cuts=True):
        rng = self.rng
        r = rng.randrange(1000)
        if cuts and r < 10:
            self.power_cut()
        elif r < 40 or (r < 500 and self.rig.app.scr is self.rig.app.menu):
            self.steer()
        elif r < 60:
            self.press("b", rng.randrange(1200, 1600), 100)    # escape
            self.escapes += 1
        elif r < 110:
            self.press(rng.choice(BUTTONS), rng.randrange(300, 1600),
                       rng.randrange(0, 200))                 # repeat, long
        elif r < 150:
            self.rig.advance(rng.randrange(200, 2600))        # bots, saves
        else:
            self.press(rng.choice(BUTTONS), rng.choice((20, 40, 60, 100)),
                       rng.choice((0, 20, 40, 100)))
        self.note()


@pytest.mark.parametrize("board", BOARDS)
def test_button_mashing_with_power_cuts(board):
    rig = new_rig(board, seed=23)
    masher = Masher(rig, random.Random("mash " + board))
    while rig.passes < MASH_PASSES:
        masher.act()
    print("\ncampaign mash %s: %d passes, %d presses, %d frames (peak %d of %d mA), "
          "%d power cuts (%d in a write), %d resumed, %d escapes, visits %s"
          % (board, rig.passes, masher.presses, rig.frames, rig.peak_ma,
             rig.profile.BUDGET_MA, masher.cuts, masher.torn_cuts, masher.resumed,
             masher.escapes, " ".join("%s=%d" % kv for kv in sorted(masher.entered.items()))))
    assert rig.now > WRAP, "the clock wrapped during the run"
    for g in BUILT:
        assert masher.entered[g], "%s was never played" % g
    assert masher.settings, "the settings were never opened"
    assert masher.cuts >= 2 and masher.torn_cuts >= 1


# ---- shrinkable press sequences -------------------------------------------------
RIGS = {}


def rig_for(board):
    if board not in RIGS:
        RIGS[board] = new_rig(board, seed=5)
    return RIGS[board]


PRESS = st.tuples(st.sampled_from(BUTTONS + ("wait",)),
                  st.sampled_from((20, 60, 400, 900, 1400)),
                  st.sampled_from((0, 20, 100, 2500)))


@settings(max_examples=SHRINK_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(board=st.sampled_from(BOARDS), start=st.sampled_from(["menu"] + BUILT),
       presses=st.lists(PRESS, max_size=40), cut=st.integers(0, 300))
def test_press_sequences_then_a_power_cut_in_the_next_write(board, start, presses, cut):
    # a failure here is shrunk to a short sequence of presses
    rig = rig_for(board)
    rig.reboot(b"\xff" * 4096)
    rig.settle(True)
    if start != "menu":
        rig.to_item(start)
        rig.press("a")
    for name, hold, after in presses:
        if name == "wait":
            rig.advance(hold + after)
        else:
            rig.press(name, hold_ms=hold, after_ms=after)
    rig.nvm.arm(cut)
    try:
        rig.press("b", hold_ms=1400)       # the escape saves the game
        rig.advance(3000)
        rig.nvm.cut = None
    except PowerCut:
        pass
    check_boot(rig, rig.nvm.image())


# ---- boots from damaged images ----------------------------------------------------
def record(seq, payload, version=S.VERSION, kind=S.GAME):
    head = bytes([0x50, 0x52, version, kind, seq >> 8, seq & 255,
                  len(payload) >> 8, len(payload) & 255])
    crc = zlib.crc32(payload, zlib.crc32(head[2:])) & 0xFFFFFFFF
    return head + crc.to_bytes(4, "big") + payload


def into_game(rig, gid):
    """A on ``gid`` in the menu, then until its screen is up (a deal may
    take a few seconds)."""
    rig.to_item(gid)
    rig.press("a")
    for _ in range(500):
        if rig.app.game == gid and type(rig.app.scr).__name__ not in ("Loading", "Dealing"):
            return
        rig.advance(20)
    raise AssertionError("%s did not start: %s" % (gid, type(rig.app.scr).__name__))


def played_image(rig, gid, rng):
    """An NVM after two sessions of ``gid`` (two game records and the
    settings), and the record a third session would save next."""
    rig.reboot(b"\xff" * 4096)
    rig.settle(True)
    into_game(rig, gid)
    for session in range(3):
        for _ in range(120):
            rig.press(rng.choice(("right", "down", "a", "a", "left", "up")))
            if rig.app.unsaved:         # a move was made
                break
        else:
            # presses found no move (a screen that wants a sequence these
            # do not make): the engine makes one, as the screen would
            state = rig.app.state
            if state.to_move() == -1:
                state.apply_action(state.chance_outcomes()[0][0])
            else:
                state.apply_action(state.legal_actions()[0])
            rig.app.changed()
        rig.advance(300)
        assert rig.app.game == gid and rig.app.unsaved, "no move in %s" % gid
        if session < 2:
            rig.escape()                  # saves: one record per session
            rig.advance(200)
            into_game(rig, gid)           # resumes it
    assert rig.app.game == gid
    return rig.nvm.image(), rig.app.state.serialize()


def mutants(payload, rng):
    """Payloads near ``payload``: a byte changed, dropped, added, two
    swapped, the end cut off or extended, a run of random bytes."""
    p = bytearray(payload)
    n = len(p)
    i = rng.randrange(n)
    kind = rng.randrange(7)
    if kind == 0:
        p[i] ^= 1 << rng.randrange(8)
    elif kind == 1:
        del p[i]
    elif kind == 2:
        p.insert(i, rng.randrange(256))
    elif kind == 3:
        j = rng.randrange(n)
        p[i], p[j] = p[j], p[i]
    elif kind == 4:
        p = p[:i]
    elif kind == 5:
        p += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    else:
        for k in range(i, min(n, i + rng.randrange(1, 6))):
            p[k] = rng.randrange(256)
    return bytes(p)


@pytest.mark.parametrize("gid", BUILT)
def test_boots_from_damaged_images_end_in_the_menu_or_a_game(gid):
    rng = random.Random("damage " + gid)
    rig = rig_for(BOARDS[BUILT.index(gid) % 2])
    base, nxt = played_image(rig, gid, rng)
    store = S.Store(bytearray(base))
    assert store.resume() is not None
    g = store.game
    newest_at = g.base + g.newest * g.slot
    older_at = g.base + (1 - g.newest) * g.slot
    images = []
    # torn: the next save cut after k bytes (every byte, or a spread)
    length = S.HEADER + len(nxt)
    step = max(1, length // TORN_BOOTS)
    for k in list(range(0, length, step)) + [length - 1]:
        img = bytearray(base)
        img[older_at:older_at + k] = record((g.seq + 1) & 0xFFFF, nxt)[:k]
        images.append(("torn", bytes(img)))
    # bit flips anywhere in the settings and game records
    used = [(0, 2 * S.SETTINGS_SLOT), (older_at, older_at + 200),
            (newest_at, newest_at + S.HEADER + (g.head[6] << 8 | g.head[7]))]
    for _ in range(FLIP_BOOTS):
        lo, hi = used[rng.randrange(3)]
        img = bytearray(base)
        for _ in range(rng.choice((1, 1, 2, 8))):
            at = rng.randrange(lo, hi)
            img[at] ^= 1 << rng.randrange(8)
        images.append(("flip", bytes(img)))
    # wrong headers, with and without a CRC to match
    payload = bytes(base[newest_at + S.HEADER:newest_at + S.HEADER +
                         (g.head[6] << 8 | g.head[7])])
    for version, kind in ((S.VERSION + 1, S.GAME), (0, S.GAME), (S.VERSION, S.SETTINGS),
                          (S.VERSION, 0xFF), (0xFF, 0xFF)):
        img = bytearray(base)
        img[newest_at:newest_at + S.HEADER + len(payload)] = record(
            g.seq, payload, version, kind)
        images.append(("header", bytes(img)))
    for at, value in ((0, 0x51), (1, 0), (6, 0xFF), (7, 0), (4, g.seq >> 8 ^ 0x80)):
        img = bytearray(base)
        img[newest_at + at] = value
        images.append(("header", bytes(img)))
    # CRC-correct mutations of the newest payload, as the newest record;
    # every other time the only record (the older slot erased), so that a
    # mutant the engine takes is what resumes and is played
    for i in range(MUTANT_BOOTS):
        img = bytearray(base)
        bad = mutants(payload, rng)
        img[newest_at:newest_at + g.slot] = b"\xff" * g.slot
        img[newest_at:newest_at + S.HEADER + len(bad)] = record(g.seq, bad)
        if i % 2:
            img[older_at:older_at + g.slot] = b"\xff" * g.slot
            images.append(("mutant alone", bytes(img)))
        else:
            images.append(("mutant", bytes(img)))
    counts = {}
    for kind, img in images:
        got = check_boot(rig, img, skip_boot=rng.randrange(3) != 0)
        if got is not None:
            resume_and_play(rig, rng)
        c = counts.setdefault(kind, [0, 0])
        c[0] += 1
        c[1] += got is not None
    print("\ncampaign damaged saves %s: %s (boots, of them a game offered and played)"
          % (gid, " ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in sorted(counts.items()))))
