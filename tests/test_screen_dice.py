"""The dice roller on the LEDs, through the simulator harness.

Expected faces are worked out here independently: a fresh engine state and
an engine.rng.Rng with the app's seed, sampled the way every front end
samples (weighted over the chance outcomes).
"""
import pytest

from engine import registry
from engine.rng import Rng
from lib import palette as P
from lib import font
from tools.simkit import Sim
from lib.display import Display


class _NoLeds:
    """Pixels for a Display that is drawn into but never shown."""

    def __setitem__(self, i, v):
        pass

    def show(self):
        pass

# the sizes lit for each pyramid face S M L SM SL ML (0 small .. 2 large)
PYRAMID_SIZES = ({0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2})


def open_dice(board="pico_8x8", seed=1, nvm=None):
    sim = Sim(board=board, seed=seed, nvm=nvm)
    sim.advance(1500)
    for _ in range(12):
        if sim.app.menu.current() == "dice":
            break
        sim.press("right")
    sim.press("a")
    assert sim.app.game == "dice"
    return sim


def expected_rolls(seed, die, count, rolls):
    st = registry.new("dice", {"die": die, "count": str(count)})
    rng = Rng(seed)
    out = []
    for _ in range(rolls):
        st.apply("roll")
        for _ in range(count):
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.weighted([w for _, w in outs])][0])
        out.append(bytes(st.rolled))
    return out, st


def pick(sim, kind_steps, count):
    """Open the picker, step the kind right ``kind_steps`` times, set the
    count, take it."""
    sim.press("down")
    for _ in range(kind_steps):
        sim.press("right")
    now = sim.app.game_scr.count
    for _ in range(abs(count - now)):
        sim.press("up" if count > now else "down")
    sim.press("a")


def number_pixels(n, width, y):
    """The pixels ``font.draw_number`` lights for ``n`` centred on a panel
    ``width`` wide with its top at ``y``."""
    d = Display(_NoLeds(), width, 16)
    font.draw_number(d, n, (width - font.number_width(n)) // 2, y, 1)
    return {(i % width, i // width) for i in range(width * 16) if d.frame[i]}


def number_at(n, x, y):
    """The pixels ``font.draw_number`` lights for ``n`` at (x, y)."""
    d = Display(_NoLeds(), 16, 16)
    font.draw_number(d, n, x, y, 1)
    return {(i % 16, i // 16) for i in range(256) if d.frame[i]}


def total_lit(sim, colour):
    """8x8, one die: the pixels of ``colour`` right of the die (x >= 4),
    where its total stands."""
    f = sim.indices()
    return {(i % 8, i // 8) for i in range(64) if f[i] == colour and i % 8 >= 4}


def touching(a, b):
    """Any pixel of ``a`` next to (or on) one of ``b``, diagonals too."""
    return any(abs(x - u) <= 1 and abs(y - v) <= 1 for x, y in a for u, v in b)


def lit(sim, colour, rows):
    w = sim.display.width
    f = sim.indices()
    return {(i % w, i // w) for i in range(len(f))
            if f[i] == colour and i // w in rows}


def roll(sim):
    sim.press("a")
    sim.advance(800)


def test_before_the_first_roll_grey_places():
    sim = open_dice()
    f = sim.indices()
    assert P.DIM in f and P.TEXT not in f


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_seeded_pyramid_roll_on_8x8(seed):
    sim = open_dice(seed=seed)
    roll(sim)
    (faces,), st = expected_rolls(seed, "pyramid", 1, 1)
    assert bytes(sim.app.state.rolled) == faces
    f = sim.indices()
    # one die on the left: bar i (height i+1) is white when size i is on
    # the face
    sizes = PYRAMID_SIZES[faces[0]]
    for col in range(3):
        want = P.TEXT if col in sizes else P.DIM
        for row in range(3):
            assert f[(2 + row) * 8 + col] == (want if row >= 2 - col else P.OFF)
    # the pip total beside it, never touching it
    assert total_lit(sim, P.TEXT) == number_at(st.pips(st.rolled), 5, 1)
    die = {(i % 8, i // 8) for i in range(64) if f[i] and i % 8 < 4}
    assert die and not touching(die, total_lit(sim, P.TEXT))


def test_tumble_hides_the_total_then_shows_it():
    sim = open_dice(seed=3)
    sim.press("a")
    sim.advance(100)
    a = bytes(sim.indices())
    assert not total_lit(sim, P.TEXT), "no total while tumbling"
    frames = set()
    for _ in range(5):
        sim.advance(80)
        frames.add(bytes(sim.indices()))
    assert len(frames | {a}) > 1, "the faces change while tumbling"
    sim.advance(600)
    assert total_lit(sim, P.TEXT)


def test_d6_three_dice_on_16x16_pips_and_total():
    seed = 11
    sim = open_dice("pico_16x16", seed=seed)
    pick(sim, 3, 3)                       # pyramid -> color -> treehouse -> d6
    assert sim.app.state.die == "d6" and sim.app.state.count == 3
    roll(sim)
    (faces,), st = expected_rolls(seed, "d6", 3, 1)
    assert bytes(sim.app.state.rolled) == faces
    # all three fit in a row, 3x3 each, 2 apart, centred in the ten rows
    # above the total; a face shows (face + 1) pips
    f = sim.indices()
    for j in range(3):
        x0 = 1 + 5 * j
        pips = sum(1 for y in range(3, 6) for x in range(x0, x0 + 3)
                   if f[y * 16 + x] == P.TEXT)
        assert pips == faces[j] + 1
    assert not any(f[:3 * 16]) and not any(f[6 * 16:11 * 16])
    assert lit(sim, P.TEXT, range(11, 16)) == number_pixels(st.pips(st.rolled), 16, 11)


def test_history_steps_back_and_forward():
    seed = 4
    sim = open_dice(seed=seed)
    for _ in range(3):
        roll(sim)
    rolls, st = expected_rolls(seed, "pyramid", 1, 3)
    assert list(sim.app.state.past) == rolls[:2]
    latest = total_lit(sim, P.TEXT)
    sim.press("left")
    # the roll before, its total in magenta
    assert total_lit(sim, P.HILITE) == number_at(
        st.pips(rolls[1]), 5, 1)
    sim.press("left")
    assert total_lit(sim, P.HILITE) == number_at(
        st.pips(rolls[0]), 5, 1)
    sim.press("left")            # nothing older
    assert sim.indices()[0] == P.REFUSE
    sim.advance(600)
    sim.press("right")
    assert total_lit(sim, P.HILITE) == number_at(
        st.pips(rolls[1]), 5, 1)
    sim.press("b")               # back to the latest
    assert total_lit(sim, P.TEXT) == latest
    assert not lit(sim, P.HILITE, range(0, 8))
    sim.press("right")           # nothing newer
    assert sim.indices()[0] == P.REFUSE


def test_colour_dice_pages_on_8x8_and_choice_remembered():
    nvm = bytearray(b"\xff" * 4096)
    seed = 9
    sim = open_dice(seed=seed, nvm=nvm)
    pick(sim, 1, 5)
    assert sim.app.state.die == "color" and sim.app.state.count == 5
    roll(sim)
    (faces,), st = expected_rolls(seed, "color", 5, 1)
    assert bytes(sim.app.state.rolled) == faces
    colours = (0, 2, 3, 4, 6)    # r y g c p; face 5 is the wild rainbow

    def block(x, y):
        f = sim.indices()
        return [f[(y + r) * 8 + x + c] for r in range(3) for c in range(3)]

    def check(first, n):
        spots = ((0, 0), (5, 0), (0, 5), (5, 5))
        for j in range(n):
            b = block(*spots[j])
            face = faces[first + j]
            if face == 5:
                assert len(set(b)) >= 5, "wild: many colours"
            else:
                assert b == [P.piece(colours[face], 3)] * 9
    # four fit an 8x8 panel; the fifth is on the next page
    sim.advance(100)
    page0 = bytes(sim.indices())
    check(0, 4)
    sim.advance(1300)
    assert bytes(sim.indices()) != page0
    check(4, 1)
    assert not any(sim.indices()[y * 8 + x] for y in range(3) for x in range(5, 8))
    # no pips on a colour die: no total
    sim.escape()
    sim2 = Sim(seed=1, nvm=nvm)
    sim2.advance(1500)
    assert sim2.app.settings.get("dice.die") == "color"
    assert sim2.app.settings.get("dice.count") == "5"


def test_picker_refuses_more_than_six_and_b_keeps_the_dice():
    sim = open_dice()
    sim.press("down")
    for _ in range(7):
        sim.press("up")
    assert sim.app.game_scr.count == 6
    assert sim.indices()[0] == P.REFUSE, "a red frame"
    sim.press("right")
    sim.press("b")
    assert sim.app.state.die == "pyramid" and sim.app.state.count == 1


def test_treehouse_faces_have_distinct_glyphs():
    from lib.screen_dice import draw_face

    for kind in range(4):
        seen = set()
        for face in range(6):
            d = Display(_NoLeds(), 16, 16)
            draw_face(d, kind, face, 2, 3, 1)
            px = {(i % 16 - 2, i // 16 - 3): d.frame[i]
                  for i in range(256) if d.frame[i]}
            assert px and all(0 <= x < 3 and 0 <= y < 3 for x, y in px)
            seen.add(tuple(sorted(px.items())))
            # on 16x16 the same glyph at twice the size, dot for dot
            big = Display(_NoLeds(), 16, 16)
            draw_face(big, kind, face, 5, 4, 2)
            for i in range(256):
                x, y = i % 16 - 5, i // 16 - 4
                inside = 0 <= x < 6 and 0 <= y < 6
                want = px.get((x // 2, y // 2), 0) if inside else 0
                assert big.frame[i] == want, (kind, face, x, y)
        assert len(seen) == 6, "kind %d: six different faces" % kind


def test_dice_land_one_per_pass_while_tumbling():
    """A press does little work: the roll starts, and each loop pass of the
    tumble after it lands one die (the engine's chance nodes, one at a
    time)."""
    seed = 21
    sim = open_dice(seed=seed)
    pick(sim, 3, 6)
    st = sim.app.state
    sim.down("a")
    sim.advance(20)                 # the pass that sees the press: no die yet
    assert st.pending == 6 and len(st.rolled) == 0
    sim.advance(20)
    assert st.pending == 5 and len(st.rolled) == 1
    sim.advance(60)
    assert st.pending == 2
    sim.up("a")
    sim.advance(800)
    (faces,), _ = expected_rolls(seed, "d6", 6, 1)
    assert st.pending == 0 and bytes(st.rolled) == faces


def _shown_rows(sim):
    d = sim.display
    return [bytes(d._shown[y * d.width:(y + 1) * d.width]) for y in range(d.height)]


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_a_picked_die_kind_is_made_in_its_pass_and_shown_on_the_next(board):
    """Picking builds the new engine state in the A press's pass and leaves
    the picker up; the pass after lays the new dice out and draws them."""
    from lib.screen_dice import SPREAD
    sim = open_dice(board)
    sim.press("down")
    sim.press("right")                  # the picker on colour dice
    picker = _shown_rows(sim)
    writes = sim.writes
    sim.down("a")
    sim.advance(20)                     # the pass that sees the press
    assert sim.app.state.die == "color"
    assert sim.writes == writes and _shown_rows(sim) == picker
    sim.advance(20)                     # the next pass draws the new dice
    assert sim.writes == writes + 1
    changed = sum(a != b for a, b in zip(picker, _shown_rows(sim)))
    assert 0 < changed <= (SPREAD if board == "pico_16x16" else 8)
    sim.up("a")
    sim.advance(200)
    # one die of the new kind, not rolled yet: one grey square, as the
    # screen draws it from scratch
    f = sim.display.frame
    assert bytes(sim.display._shown) == bytes(f) and not sim.display.owed
    fresh = Display(_NoLeds(), sim.display.width, sim.display.height)
    sim.app.game_scr.draw(fresh)
    assert bytes(fresh.frame) == bytes(f)
    s = 2 if board == "pico_16x16" else 1
    assert f.count(P.DIM) == (3 * s) ** 2 and not f.count(P.HILITE)


def test_a_whole_new_16x16_frame_goes_up_over_a_few_passes():
    """Opening the picker over a roll changes most rows of a 16x16 panel:
    each pass shows at most SPREAD changed rows, and the last one leaves
    the LEDs holding the whole picker."""
    from lib.screen_dice import SPREAD
    sim = open_dice("pico_16x16", seed=5)
    pick(sim, 3, 6)
    roll(sim)
    rows = _shown_rows(sim)
    sim.down("down")
    passes = []
    for _ in range(8):
        sim.advance(20)
        now = _shown_rows(sim)
        passes.append(sum(a != b for a, b in zip(rows, now)))
        rows = now
    sim.up("down")
    assert max(passes) <= SPREAD
    assert sum(passes) > 2 * SPREAD, "most of the panel changed"
    assert passes[-1] == 0 and not sim.display.owed
    fresh = Display(_NoLeds(), 16, 16)
    sim.app.game_scr.draw(fresh)
    assert bytes(sim.display._shown) == bytes(fresh.frame)


@pytest.mark.parametrize("seed", range(12))
def test_8x8_a_d6_never_touches_its_total(seed):
    sim = open_dice(seed=seed)
    pick(sim, 3, 1)
    roll(sim)
    st = sim.app.state
    f = sim.indices()
    die = {(i % 8, i // 8) for i in range(64) if f[i] and i % 8 < 4}
    total = total_lit(sim, P.TEXT)
    assert total == number_at(st.pips(st.rolled), 5, 1)
    assert die and not touching(die, total)


def test_8x8_two_pyramid_dice_then_their_total_on_a_page_of_its_own():
    seed = 5
    sim = open_dice(seed=seed)
    pick(sim, 0, 2)
    roll(sim)
    (faces,), st = expected_rolls(seed, "pyramid", 2, 1)
    scr = sim.app.game_scr
    assert scr.pages == 2 and scr.total_page == 1
    dice = bytes(sim.indices())
    assert P.TEXT in dice or P.DIM in dice
    sim.advance(1300)                     # the page turns: the total alone
    assert scr.page == 1
    assert lit(sim, P.TEXT, range(8)) == number_pixels(st.pips(faces), 8, 1)
    assert not lit(sim, P.DIM, range(8)), "no die on the total's page"


@pytest.mark.parametrize("key", ["b", "left", "up"])
def test_any_key_lands_the_tumbling_dice_and_does_nothing_else(key):
    sim = open_dice(seed=2)
    sim.press("a", after_ms=0)
    sim.advance(60)
    assert sim.app.game_scr.mode == 1     # ROLLING
    sim.press(key, after_ms=40)
    scr = sim.app.game_scr
    assert scr.mode == 0 and scr.back == 0, "landed, no setup, no history"
    assert total_lit(sim, P.TEXT)


def test_the_tumble_follows_the_animation_speed():
    sim = open_dice(seed=2)
    sim.app.settings.set("pace", "4")     # fastest: a quarter of the time
    sim.app.apply_settings()
    sim.press("a", after_ms=0)
    sim.advance(200)
    assert sim.app.game_scr.mode == 0
