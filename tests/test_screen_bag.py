"""The bag on the LEDs, through the simulator harness."""
import pytest

from engine.pieces import colour_of, size_of
from lib import palette as P
from lib import screens_common as C
from tools.simkit import Sim

SHAKE_MS = 700


def open_bag(board="pico_8x8", seed=1, nvm=None):
    sim = Sim(board=board, seed=seed, nvm=nvm)
    sim.advance(1500)
    for _ in range(12):
        if sim.app.menu.current() == "bag":
            break
        sim.press("right")
    sim.press("a")
    assert sim.app.game == "bag"
    return sim


def draw(sim):
    sim.press("a")
    sim.advance(SHAKE_MS)


def back_to_bars(sim):
    sim.press("b")


def bar_pixels(sim):
    """{palette index: pixels} in the bar area (all rows on 8x8, the top
    ten on 16x16)."""
    w = sim.display.width
    rows = 8 if w == 8 else 10
    out = {}
    for c in sim.indices()[:rows * w]:
        if c:
            out[c] = out.get(c, 0) + 1
    return out


def column_order_ok(sim):
    """8x8: each column read bottom-up is one colour's pieces, larger
    before smaller, then grey (drawn), then dark."""
    f = sim.indices()
    for x in range(8):
        col = [f[y * 8 + x] for y in range(7, -1, -1)]
        rank = []
        for c in col:
            if c == P.OFF:
                rank.append(0)
            elif c == P.DIM:
                rank.append(1)
            else:
                rank.append(2 + (c - 1) % 3)    # the palette's size step
        if rank != sorted(rank, reverse=True):
            return False
        if len({(c - 1) // 3 for c in col if 1 <= c < 28}) > 1:
            return False
    return True


def lit_in_pattern(p):
    """Pixels of a piece's 2x2 size pattern on 16x16 (the visual language:
    small 1, medium 2, large 4, rock 3)."""
    return bin(C.GLYPHS[p & 3]).count("1")


def expected_bars(st, per_item):
    """What the bars should hold: every piece left as ``per_item`` pixels
    of its colour and size (16x16: its size's pattern), every piece drawn
    as grey."""
    out = {}
    for i in range(len(st.kinds)):
        p = st.kinds[i]
        if st.left[i]:
            c = P.piece(colour_of(p), size_of(p))
            n = lit_in_pattern(p) if per_item == 4 else per_item
            out[c] = out.get(c, 0) + st.left[i] * n
    drawn = len(st.drawn)
    if drawn:
        out[P.DIM] = drawn * per_item
    return out


@pytest.mark.parametrize("board,per_item", [("pico_8x8", 1), ("pico_16x16", 4)])
def test_draw_until_empty_then_refused_then_return_all(board, per_item):
    sim = open_bag(board, seed=6)
    st = sim.app.state
    assert st.name == "bag_of_ice" and st.remaining() == 21
    assert bar_pixels(sim) == expected_bars(st, per_item)
    for n in range(21):
        draw(sim)
        assert st.remaining() == 20 - n
        back_to_bars(sim)
        assert bar_pixels(sim) == expected_bars(st, per_item)
        assert board != "pico_8x8" or column_order_ok(sim)
    assert set(bar_pixels(sim)) == {P.DIM}, "all grey: everything drawn"
    before = st.serialize()
    sim.press("a")
    assert sim.indices()[0] == P.REFUSE, "an empty bag refuses"
    assert st.serialize() == before
    sim.advance(600)
    sim.press("down")          # return all
    assert st.remaining() == 21 and not st.drawn
    assert bar_pixels(sim) == expected_bars(st, per_item)
    assert P.DIM not in bar_pixels(sim)
    sim.advance(600)
    sim.press("down")          # nothing drawn: nothing to return
    assert sim.indices()[0] == P.REFUSE


def test_the_drawn_piece_shows_in_its_colour_and_size():
    sim = open_bag(seed=2)
    st = sim.app.state
    sizes = set()
    for _ in range(8):
        draw(sim)
        p = st.drawn[-1]
        c = P.piece(colour_of(p), size_of(p))
        f = sim.indices()
        # a pyramid seen from the side: rows 1, 3, 5 (, 7) pixels wide
        want = sum(2 * r + 1 for r in range(size_of(p) + 1))
        assert sum(1 for x in f if x == c) == want
        assert all(x in (0, c) for x in f)
        sizes.add(size_of(p))
        back_to_bars(sim)
    assert len(sizes) > 1


def test_reveal_returns_to_the_bars_by_itself():
    sim = open_bag()
    draw(sim)
    assert P.DIM not in sim.indices()
    sim.advance(3000)
    assert P.DIM in sim.indices(), "the bars again, one slot grey"


def test_history_of_draws():
    sim = open_bag(seed=3)
    st = sim.app.state
    for _ in range(3):
        draw(sim)
    back_to_bars(sim)
    seen = []
    for k in range(3):
        sim.press("left")
        p = st.drawn[-1 - k]
        f = sim.indices()
        assert f[k] == P.HILITE, "a dot counts back"
        assert P.piece(colour_of(p), size_of(p)) in f
        seen.append(p)
    sim.press("left")
    assert sim.indices()[0] == P.REFUSE, "nothing older"
    assert seen == list(reversed(st.drawn))


def test_pick_the_ice_stalks_rocks_16x16():
    nvm = bytearray(b"\xff" * 4096)
    sim = open_bag("pico_16x16", nvm=nvm)
    sim.press("up")
    sim.press("right")
    sim.press("a")
    st = sim.app.state
    assert st.name == "ice_stalks" and st.remaining() == 35
    # seven colours, five rocks each, a rock 2x2 less its top-left: 15
    # pixels
    bars = bar_pixels(sim)
    assert bars == {P.piece(c, 2): 15 for c in range(7)}
    f = sim.indices()
    x = next(i for i in range(16) if f[9 * 16 + i])     # the first column
    assert [list(f[y * 16 + x:y * 16 + x + 2]) for y in (0, 1)] == [
        [P.OFF, P.piece(0, 2)], [P.piece(0, 2)] * 2]
    draw(sim)
    back_to_bars(sim)
    assert bar_pixels(sim)[P.DIM] == 4
    sim.escape()
    sim2 = open_bag("pico_16x16", nvm=nvm)
    assert sim2.app.settings.get("bag.preset") == "ice_stalks"


def test_custom_bag_editor():
    sim = open_bag()
    sim.press("up")
    sim.press("left")           # bag_of_ice -> custom (wraps back)
    sim.press("a")
    # edit: red up to 5, orange down to 0, then take it
    sim.press("up")
    sim.press("up")
    f = sim.indices()
    assert sum(1 for y in range(8) if f[y * 8] == P.piece(0, 3)) == 5
    sim.press("right")
    for _ in range(3):
        sim.press("down")
    sim.press("down")           # already none
    assert sim.indices()[0] == P.REFUSE
    sim.advance(600)
    sim.press("a")
    st = sim.app.state
    assert st.name == "custom"
    assert st.counts() == {"r": 5, "y": 3, "g": 3, "c": 3, "b": 3, "p": 3}
    assert bar_pixels(sim) == expected_bars(st, 1)
    for _ in range(5):
        draw(sim)
    assert all(size_of(p) == 0 for p in st.drawn), "rocks"
    assert sim.app.settings.custom[:2] == bytearray(b"\x05\x00")


def test_custom_bag_cannot_be_empty():
    sim = open_bag()
    sim.press("up")
    sim.press("left")
    sim.press("a")
    for i in range(8):
        for _ in range(3):
            sim.press("down")
        sim.press("right")
    sim.advance(600)
    sim.press("a")
    assert sim.indices()[0] == P.REFUSE
    assert sim.app.state.name == "bag_of_ice"
    sim.press("b")             # back to the picker, then the bars
    sim.press("b")
    assert sim.app.state.name == "bag_of_ice"


def test_a_bag_resumes_mid_game():
    nvm = bytearray(b"\xff" * 4096)
    sim = open_bag(nvm=nvm, seed=8)
    for _ in range(4):
        draw(sim)
    sim.escape()
    saved = sim.store.load_game()
    sim2 = Sim(nvm=nvm, seed=1)
    sim2.advance(1500)
    sim2.press("a")
    st = sim2.app.state
    assert st.GAME == "bag" and st.serialize() == saved and st.remaining() == 17
    assert bar_pixels(sim2) == expected_bars(st, 1)


def test_refusals_the_screen_can_see_do_not_reach_the_engine(monkeypatch):
    # an empty bag (A) and nothing to return (DOWN) are refused by the
    # screen itself, with the same red flash, without a move to the engine
    sim = open_bag(seed=3)
    st = sim.app.state

    def no_move(action):
        raise AssertionError("a move was tried: %d" % action)
    monkeypatch.setattr(sim.app, "play", no_move)
    before = st.serialize()
    sim.press("down")
    assert sim.indices()[0] == P.REFUSE and st.serialize() == before
    sim.advance(600)
    for _ in range(st.remaining()):
        st.apply_action(0)          # DRAW, then its outcome
        outs = st.chance_outcomes()
        st.apply_action(outs[0][0])
    assert st.remaining() == 0
    before = st.serialize()
    sim.press("a")
    assert sim.indices()[0] == P.REFUSE and st.serialize() == before


def test_layout_colours_every_kind_as_the_palette_does():
    # _layout works out each kind's palette index without a call per kind:
    # it must agree with palette.piece_code for pyramids and rocks alike
    sim = open_bag("pico_16x16")
    scr = sim.app.scr
    for opts in ({"preset": "ice_stalks"}, {"preset": "bag_of_ice"},
                 {"contents": "r1,o2,y3,g,c*2,b3*4,p2,w1,k"}):
        scr.new_bag(opts)
        sim.advance(40)     # laid out and drawn on the pass after
        kinds = sim.app.state.kinds
        assert len(kinds) > 1
        assert [scr.kind_colour[i] for i in range(len(kinds))] == [P.piece_code(p) for p in kinds]
        assert scr.most == max(scr.column_full[i] for i in range(scr.columns))


def _shown_rows(sim):
    d = sim.display
    return [bytes(d._shown[y * d.width:(y + 1) * d.width]) for y in range(d.height)]


def _fresh_frame(sim):
    """What the screen draws now, on a display that is never shown."""
    from lib.display import Display

    class NoLeds:
        def __setitem__(self, i, v):
            pass

        def show(self):
            pass

    d = Display(NoLeds(), sim.display.width, sim.display.height)
    sim.app.game_scr.draw(d)
    return bytes(d.frame)


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_a_picked_bag_is_made_in_its_pass_and_shown_on_the_next(board):
    from lib.screen_bag import SPREAD
    sim = open_bag(board)
    sim.press("up")
    sim.press("right")                  # the picker on the Ice Stalks rocks
    picker = _shown_rows(sim)
    writes = sim.writes
    sim.down("a")
    sim.advance(20)                     # the pass that sees the press
    assert sim.app.state.name == "ice_stalks"
    assert sim.writes == writes and _shown_rows(sim) == picker
    sim.advance(20)                     # the next pass draws the bars
    assert sim.writes == writes + 1
    changed = sum(a != b for a, b in zip(picker, _shown_rows(sim)))
    assert 0 < changed <= (SPREAD if board == "pico_16x16" else 8)
    sim.up("a")
    sim.advance(200)
    assert not sim.display.owed
    assert bytes(sim.display._shown) == bytes(sim.display.frame) == _fresh_frame(sim)
    # seven colours of rocks, five each
    bars = bar_pixels(sim)
    assert len(bars) == 7 and P.DIM not in bars


def test_16x16_bars_go_up_over_a_few_passes_and_follow_the_bag():
    """Back from a drawn item to the bars changes most of a 16x16 panel:
    at most SPREAD changed rows a pass, ending with the bars as drawn from
    scratch; they follow the bag."""
    from lib.screen_bag import SPREAD
    sim = open_bag("pico_16x16", seed=3)
    for _ in range(3):
        draw(sim)                       # the item drawn shows
        rows = _shown_rows(sim)
        sim.down("b")
        sim.up("b")                     # B: back to the bars
        passes = []
        for _ in range(6):
            sim.advance(20)
            now = _shown_rows(sim)
            passes.append(sum(a != b for a, b in zip(rows, now)))
            rows = now
        assert max(passes) <= SPREAD and sum(passes) > SPREAD
        assert passes[-1] == 0 and not sim.display.owed
        assert bytes(sim.display._shown) == _fresh_frame(sim)
    # the bars count what is left: one grey pixel row per item drawn
    assert bar_pixels(sim).get(P.DIM)
    before = bar_pixels(sim)[P.DIM]
    sim.press("down")                   # everything back in the bag
    sim.advance(100)
    assert P.DIM not in bar_pixels(sim) and before
    assert bytes(sim.display._shown) == _fresh_frame(sim)
