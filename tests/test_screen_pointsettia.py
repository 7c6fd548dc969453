"""Pointsettia on the LEDs, through the simulator harness (tools/simkit):
moves made with the buttons, the powers previewed before they are played,
refusals, undo, the device's seat, escape and resume, the end screen.
Frames are checked through the palette indices written to the LEDs."""
import sys

import pytest

from engine import registry
from engine import pointsettia as G
from engine.rng import Rng
from lib import palette as P
from lib import screen_pointsettia as S
from harness import boot

BOARDS = ("pico_8x8", "pico_16x16")


def handing(sim):
    """The app's hand-off screen is up (this game's picture)."""
    return type(sim.app.scr).__name__ == "Handoff"


def scr(sim):
    return sim.app.game_scr


def enter(sim, state):
    assert sim.app.enter("pointsettia", state)
    for _ in range(50):
        if scr(sim) is not None:
            break
        sim.advance(20)
    sim.advance(100)
    if handing(sim):
        sim.press("a")


def new(board, tokens=(), **opts):
    sim = boot(board)
    st = registry.new("pointsettia", {k: str(v) for k, v in opts.items()})
    for t in tokens:
        st.apply_action(st.action(t))
    enter(sim, st)
    return sim


def frame(sim):
    """Let a spread 16x16 frame finish going up; the palette indices."""
    sim.advance(200)
    return sim.indices()


def lit(sim, p, plant_cells=True):
    """The palette indices of position ``p``'s cell as drawn now (16x16)."""
    idx = sim.indices()
    out = []
    for k in range(4):
        i = S.CELLS16[4 * p + k]
        if i != S.NONE:
            out.append(idx[i])
    return out


def choose(sim, kind):
    """In the stash view: LEFT/RIGHT and UP/DOWN to ``kind``, then A."""
    g = scr(sim)
    assert g.mode == S.STASH
    while g.colour != kind >> 2:
        sim.press("right")
    while g.size != kind & 3:
        sim.press("up")
    sim.press("a")


def to_slot(sim, slot):
    g = scr(sim)
    for _ in range(50):
        if g.cursor == slot:
            return
        sim.press("right")
    raise AssertionError("slot not reached")


def play(sim, token):
    """Play ``token`` with the buttons; returns once it is in the state."""
    st = sim.app.state
    a = st.action(token)
    moves = st.moves
    if handing(sim):
        sim.press("a")
    choose(sim, a >> 9)
    to_slot(sim, a >> 3 & 63)
    sim.press("a")
    g = scr(sim)
    if g.mode == S.POWER:
        while g.opts[g.opt] != a & 7:
            sim.press("right")
        sim.press("a")
    assert st.moves == moves + 1
    assert st.token(st.last) == token


@pytest.mark.parametrize("board", BOARDS)
def test_a_whole_game_through_the_buttons(board):
    """From the menu to the end: each move takes the kind shown (or the
    next with pieces left) and the slot under the cursor."""
    sim = boot(board)
    sim.run_script("menu:pointsettia a")
    sim.advance(200)
    g = scr(sim)
    assert g is not None and handing(sim)
    st = sim.app.state
    seen_handoffs = 0
    while st.to_move() >= 0:
        if handing(sim):
            seen_handoffs += 1
            assert sim.indices()[0] == S.SEAT_INK[st.to_move()], "in the seat's colour"
            sim.press("a")
        assert g.mode == S.STASH
        while not st.stash[g.colour << 2 | g.size]:
            sim.press("right")
        kind = g.colour << 2 | g.size
        sim.press("a")
        assert g.mode == S.PLACE
        slot = g.cursor
        sim.press("a")
        if g.mode == S.POWER:
            sim.press("a")          # no power: the choice starts there
        assert st.plant[slot] == kind
    assert seen_handoffs == G.MOVES
    sim.advance(200)
    assert g.mode == S.END
    idx = frame(sim)
    sc = st.scores()
    if board == "pico_16x16":
        # the totals in Green's and Red's colours inside the rim
        assert S.SEAT_INK[0] in idx[3 * 16:8 * 16] or sc[0] == 0
        assert S.SEAT_INK[1] in idx[9 * 16:14 * 16]
    else:
        win = 0 if sc[0] > sc[1] else 1
        if sc[0] != sc[1]:
            assert idx[3 * 8 + 3] == S.SEAT_INK[win]
    # each rim position in the colour it scores for
    owners = G.rim_owners(st.plant)[0]
    cells = S.CELLS16 if board == "pico_16x16" else S.CELLS8
    for r in range(24):
        want = P.DIM if owners[r] == 0xFF else S.SEAT_INK[owners[r]]
        assert idx[cells[4 * (G.RIM + r)]] == want
    # B: the app's scores screen
    sim.press("b")
    sim.advance(100)
    assert type(sim.app.scr).__name__ == "Scores"


@pytest.mark.parametrize("board", BOARDS)
def test_the_clear_power_is_previewed_before_it_is_played(board):
    # the doc's example: g3 at 1, r2 at 1l, k1 at 1lr
    sim = new(board, ("g3@1", "r2@1l", "k1@1lr", "g1@0"))
    st = sim.app.state
    g = scr(sim)
    choose(sim, G.CLEAR << 2 | 2)
    to_slot(sim, G.INDEX["1lrl"])
    sim.press("a")
    assert g.mode == S.POWER and g.opts[g.opt] == 0 and g.nopts == 3
    sim.press("right")
    sim.press("right")              # two up: onto 1l
    # the plant as it would be: w2 at 1l, r2 down to 1lr, k1 at 1lrl
    assert g.view[G.INDEX["1l"]] == G.CLEAR << 2 | 2
    assert g.view[G.INDEX["1lr"]] == G.RED << 2 | 2
    assert g.view[G.INDEX["1lrl"]] == G.BLACK << 2 | 1
    assert st.plant[G.INDEX["1l"]] == G.RED << 2 | 2, "not played yet"
    assert st.moves == 4
    sim.advance(20)
    if board == "pico_16x16":
        frame(sim)
        cell = lit(sim, G.INDEX["1lr"])
        assert cell.count(S.INK[G.RED << 2 | 2]) == 2, "r2 drawn where it would go"
        idx = sim.indices()
        assert idx[S.CORNERS16[0]] == idx[S.CORNERS16[1]] == P.HILITE  # two up
        assert idx[S.CORNERS16[2]] != P.HILITE
    else:
        assert sim.indices()[0] == P.HILITE
    sim.press("a")
    assert st.token(st.last) == "w2@1lrl>1l"
    assert st.plant[G.INDEX["1lrl"]] == G.BLACK << 2 | 1


@pytest.mark.parametrize("board", BOARDS)
def test_the_black_power_is_previewed_and_can_be_declined(board):
    sim = new(board, ("g3@1", "r2@0", "g2@2"))
    st = sim.app.state
    g = scr(sim)
    choose(sim, G.BLACK << 2 | 2)
    to_slot(sim, G.INDEX["1l"])
    sim.press("a")
    assert g.mode == S.POWER and g.nopts == 2
    sim.press("right")
    want = st.preview(st.action("k2@1l!"))
    assert bytes(g.view) == bytes(want)
    assert g.view[0] == G.GREEN << 2 | 3, "g3 is the root in the preview"
    assert st.plant[0] == G.ROOT_PIECE
    sim.press("left")               # back to no power
    sim.press("a")
    assert st.token(st.last) == "k2@1l"
    assert st.plant[0] == G.ROOT_PIECE


@pytest.mark.parametrize("board", BOARDS)
def test_a_kind_with_none_left_is_refused_and_nothing_changes(board):
    sim = new(board, ("w3@0", "w3@1", "w3@2"))
    st = sim.app.state
    g = scr(sim)
    before = bytes(st.plant), bytes(st.stash), st.moves
    g.colour = G.CLEAR
    g.size = 3
    sim.press("a")
    assert g.mode == S.STASH
    assert sim.app._refuse_at >= 0 or P.REFUSE in sim.indices()
    assert P.REFUSE in sim.indices(), "the refusal flash"
    assert (bytes(st.plant), bytes(st.stash), st.moves) == before


@pytest.mark.parametrize("board", BOARDS)
def test_undo_takes_the_move_back(board):
    sim = new(board)
    st = sim.app.state
    play(sim, "g3@1")
    sim.press("a")                  # the hand-off to Red
    g = scr(sim)
    assert g.mode == S.STASH
    sim.press("b")                  # LOOK
    assert g.mode == S.LOOK
    idx = frame(sim)
    cells = S.CELLS16 if board == "pico_16x16" else S.CELLS8
    assert idx[cells[4 * G.INDEX["1"]]] == S.INK[G.GREEN << 2 | 3]
    sim.press("b")                  # undo
    assert st.moves == 0 and st.plant[G.INDEX["1"]] == 0
    sim.press("a")                  # Green's hand-off again
    idx = frame(sim)
    assert g.mode in (S.STASH, S.LOOK)
    sim.press("b")
    sim.press("b")                  # nothing left to take back
    assert P.REFUSE in sim.indices()
    assert st.moves == 0


@pytest.mark.parametrize("board", BOARDS)
def test_the_device_plays_its_seat_over_several_passes(board, monkeypatch):
    # the bot module as a board has it before the device first thinks: not
    # loaded (the screen loads it in a pass of its own)
    monkeypatch.delitem(sys.modules, "engine.pointsettia_bot", raising=False)
    sim = new(board, bots=2)
    st = sim.app.state
    g = scr(sim)
    # count the engine's slices and the passes they run in
    slices = []
    think = G.Game.think

    def counted(self):
        for a in think(self):
            slices.append(sim.now)
            yield a
    monkeypatch.setattr(G.Game, "think", counted)
    play(sim, "w3@0")
    assert g.mode in (S.THINK, S.BOTSHOW), "no hand-off to the device"
    assert st.moves == 1, "shown before it lands"
    shown = False
    while st.moves == 1:
        sim.advance(20)
        if g.mode == S.BOTSHOW and not g.phase & 1:
            # the move shows where it lands before it is played, shaped
            # by its size (8x8: in the zoom around it)
            k = g.turn.action >> 9
            i = S.CELLS16[4 * g.moved]
            x, y, w = i & 15, i >> 4, 16
            if board == "pico_8x8":
                x, y, w = x - g.ox, y - g.oy, 8
            shown |= g.view[g.moved] == k and sim.indices()[y * w + x] == S.INK[k]
        assert sim.now < 5000
    assert len(slices) >= 2 and len(set(slices)) == len(slices), \
        "one slice of thinking a pass"
    assert shown
    assert st.moves == 2 and g.mode == S.STASH
    assert type(sim.app.scr).__name__ == "Screen", "no hand-off back either"
    # undo goes back to the person's own move
    sim.press("b")
    sim.press("b")
    assert st.moves == 0


def test_the_device_can_play_green_from_the_setting():
    sim = boot("pico_8x8")
    sim.app.settings.set("pointsettia.bots", "green")
    sim.run_script("menu:pointsettia a")
    st = sim.app.state
    assert st.is_bot(0) and not st.is_bot(1)
    for _ in range(200):
        sim.advance(20)
        if st.moves:
            break
    assert st.moves == 1, "the device opened"
    assert scr(sim).mode == S.STASH
    sim.press("b")
    sim.press("b")                  # only the device's move: nothing to undo
    assert st.moves == 1 and P.REFUSE in sim.indices()


@pytest.mark.parametrize("board", BOARDS)
def test_escape_and_resume(board):
    sim = new(board)
    st = sim.app.state
    play(sim, "g3@1")
    sim.press("a")
    play(sim, "w1@1l")
    sim.escape()
    sim.advance(300)
    assert sim.app.game is None
    sim.run_script("menu:pointsettia a")
    sim.advance(300)
    st2 = sim.app.state
    assert st2 is not st and st2.moves == 2
    assert bytes(st2.plant) == bytes(st.plant)
    g = scr(sim)
    assert handing(sim)
    sim.press("a")
    idx = frame(sim)
    sim.press("b")
    idx = frame(sim)
    cells = S.CELLS16 if board == "pico_16x16" else S.CELLS8
    assert idx[cells[4 * G.INDEX["1l"]]] == S.INK[G.CLEAR << 2 | 1]


def test_sizes_are_shapes_on_16x16():
    sim = new("pico_16x16", ("g1@0", "g2@1", "g3@2"))
    g = scr(sim)
    sim.press("b")
    frame(sim)
    for p, n in ((1, 1), (2, 2), (3, 4)):
        assert lit(sim, p).count(S.INK[G.GREEN << 2 | (n if n < 4 else 3)]) == n


def test_the_layouts_give_every_position_its_own_pixels():
    for cells, w in ((S.CELLS16, 16), (S.CELLS8, 8)):
        seen = set()
        for p in range(46):
            px = [i for i in cells[4 * p:4 * p + 4] if i != S.NONE]
            assert px, "position %d has no pixel" % p
            for i in px:
                assert i < w * w and i not in seen
                seen.add(i)
        if w == 8:
            assert not seen & set(S.SPIN8)


def test_the_cursor_goes_round_every_empty_slot():
    sim = new("pico_8x8", ("g3@0", "r3@1", "w1@2"))
    g = scr(sim)
    choose(sim, G.GREEN << 2 | 1)
    seen = set()
    for _ in range(g.nslots):
        seen.add(g.cursor)
        sim.press("right")
    assert seen == {G.INDEX[n] for n in ("0l", "0r", "1l", "1r", "2l", "2r")}
    g.cursor = G.INDEX["0l"]
    sim.press("down")               # inward: nothing emptier there
    assert g.cursor == G.INDEX["0l"]
    sim.press("left")
    assert g.cursor == G.INDEX["2r"]


def test_2x2_cells_use_the_shared_size_patterns():
    """The rim, distance 3 and the root draw lib.screens_common's patterns
    (put_piece): a small a dot bottom-left, a medium the bottom row, a
    large the whole cell; an empty playable slot a grey dot top-left."""
    from lib import screens_common as C
    sim = new("pico_16x16", ("g3@0", "r2@0l", "g1@0ll", "k2@0lll"))
    sim.press("b")
    idx = frame(sim)
    for name in ("0ll", "0lll", "root", "0llr"):
        p = G.INDEX[name]
        i = min(S.CELLS16[4 * p:4 * p + 4])
        got = [idx[i], idx[i + 1], idx[i + 16], idx[i + 17]]
        f = bytearray(256)
        k = sim.app.state.plant[p]
        if k:
            colour = S.INK[k]
            C.put_cell(f, i, 16, C.GLYPHS[k & 3], colour)
        else:
            C.put_empty(f, i, 16)
        assert got == [f[i], f[i + 1], f[i + 16], f[i + 17]], name


def test_the_8x8_look_zooms_and_pans():
    sim = new("pico_8x8", ("g3@0", "r2@0l", "g1@0ll", "k2@0lll"))
    g = scr(sim)
    st = sim.app.state
    sim.press("b")
    assert g.mode == S.LOOK and not g.pan
    sim.press("up")                 # zoom in, at the middle
    assert g.pan and (g.ox, g.oy) == (4, 4)
    sim.press("up")
    sim.press("left")
    assert (g.ox, g.oy) == (2, 2)
    idx = frame(sim)
    # the root's 2x2 cell (7..8, 7..8 on 16x16) at (5..6, 5..6) in the zoom
    assert [idx[5 * 8 + 5], idx[5 * 8 + 6], idx[6 * 8 + 5], idx[6 * 8 + 6]] == \
        [S.INK[G.ROOT_PIECE]] * 4
    sim.press("b")                  # back to the overview, nothing undone
    assert not g.pan and st.moves == 4
    sim.press("b")
    assert st.moves == 3


@pytest.mark.parametrize("board", BOARDS)
def test_the_end_picks_each_run(board):
    """A finished game (played by the engine's own player) opened on the
    screen: RIGHT steps through the runs, each blinking on the rim with
    its worth inside (16x16), then back to the totals."""
    st = registry.new("pointsettia", {})
    while st.to_move() >= 0:
        st.apply_action(st.hint())
    sim = boot(board)
    enter(sim, st)
    g = scr(sim)
    assert g.mode == S.END
    runs = G.runs(st.plant)
    assert runs and [list(r) for r in g.runs] == [list(r) for r in runs]
    cells = S.CELLS16 if board == "pico_16x16" else S.CELLS8
    for i, run in enumerate(runs):
        sim.press("right")
        assert g.run == i
        seen = set()
        for _ in range(6):
            sim.advance(100)
            seen.add(sim.indices()[cells[4 * (G.RIM + run[1])]])
        assert seen == {P.CURSOR, S.SEAT_INK[run[0]]}, "the run blinks"
        if board == "pico_16x16":
            assert S.SEAT_INK[run[0]] in sim.indices()[6 * 16:11 * 16], "its worth"
    sim.press("right")
    assert g.run == -1


def test_a_game_shown_anew_keeps_its_seats():
    """A protocol line's new game on the screen (App.adopt) keeps the
    device's seat it was made with, whatever the setting says."""
    sim = new("pico_8x8")
    sim.app.settings.set("pointsettia.bots", "green")
    st = registry.new("pointsettia", {"bots": "2"})
    sim.app.state = st
    assert sim.app.adopt(st) is None       # done, no reason to refuse
    assert sim.app.state is st and st.is_bot(1) and not st.is_bot(0)
