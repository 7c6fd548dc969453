"""The visual language for pieces and stacks (docs/visual-language.md).

Every piece kind (colour x size) and every stack kind the games show is
drawn by lib.screens_common on both boards, as the screens draw it. Any
two kinds must differ in their pixels' on/off pattern, or in the hue of a
pixel lit in both, never only in brightness: on 16x16 in the 2x2 cell; on
8x8, where a cell is one pixel, in what the player sees of it (the cell
over a few beats, the cursor's blink code and the side gauge). Every kind
must also stay within the power model and above a visibility floor on a
real WS2812 at each board's default brightness.
"""

import colorsys
import itertools
import random

import pytest

from tools.simkit import Sim  # (selects Blinka's board first)
from engine import registry
from lib import palette as P
from lib import screens_common as C

COLOURS = range(9)              # r o y g c b p w k
GAME_COLOURS = (0, 2, 3, 5, 6)  # Ice Solo's r y g b p
SIZES = (0, 1, 2, 3)            # 0: a rock
BOARDS = ("pico_8x8", "pico_16x16")
BEATS = 48                      # beats of the 8x8 codes compared


def code(colour, size):
    return colour << 2 | size


# ---- hue: what a pixel's colour is, brightness apart -----------------------
_PAL = P.Palette()


def _hsv(index):
    v = _PAL.rgb[index]
    r, g, b = [((x / 255) ** (1 / 2.5)) for x in (v >> 16, (v >> 8) & 255, v & 255)]
    return colorsys.rgb_to_hsv(r, g, b)


def hue_differs(a, b):
    """Two lit palette indices read as different colours, whatever their
    brightness: hues 20 degrees apart (both visibly tinted), or one far
    more saturated than the other (a colour against a grey or white)."""
    ha, sa, _ = _hsv(a)
    hb, sb, _ = _hsv(b)
    d = abs(ha - hb) * 360
    d = min(d, 360 - d)
    return (min(sa, sb) >= 0.15 and d >= 20) or abs(sa - sb) >= 0.3


def differ(x, y):
    """Two renderings (equal-length sequences of palette indices) differ
    in on/off pattern or in the hue of a pixel lit in both."""
    assert len(x) == len(y)
    for a, b in zip(x, y):
        if (a == P.OFF) != (b == P.OFF):
            return True
        if a != P.OFF and b != P.OFF and a != b and hue_differs(a, b):
            return True
    return False


def test_hue_rule_is_not_fooled_by_brightness():
    # the rule itself: a colour's sizes are the same hue, distinct colours
    # are not (so the checks below test shape, not this helper)
    for c in COLOURS:
        assert not hue_differs(P.piece(c, 1), P.piece(c, 3))
        assert not hue_differs(P.piece(c, 2), P.piece(c, 3))
    for a, b in itertools.combinations(COLOURS, 2):
        for s in (1, 2, 3):
            for t in (1, 2, 3):
                assert hue_differs(P.piece(a, s), P.piece(b, t)), (a, b, s, t)
    assert not differ([P.piece(0, 1)], [P.piece(0, 3)])


# ---- 16x16: the 2x2 cells ---------------------------------------------------
def cell16(draw):
    f = bytearray(4 * 3)
    draw(f, 0, 3)
    return (f[0], f[1], f[3], f[4])


def kinds16():
    """Every kind as the 16x16 screens draw it: name -> 2x2 pixels."""
    out = {"empty": cell16(lambda f, j, W: C.put_empty(f, j, W))}
    for c in COLOURS:
        for s in SIZES:
            p = code(c, s)
            out["piece %s" % p] = cell16(lambda f, j, W: C.put_piece(f, j, W, p))
    # the stacks a game shows: nests in Ice Solo's colours (a grey mark
    # beside a black, which no nesting game has, would be a grey on a grey)
    for c in GAME_COLOURS:
        nest = bytes((code(c, 3), code(c, 2), code(c, 1)))
        out["nest %d" % c] = cell16(lambda f, j, W: C.put_stack(f, j, W, nest, 3))
        for u in GAME_COLOURS:
            pile = bytes((code(u, 3),)) + nest
            out["nest %d on %d" % (c, u)] = cell16(
                lambda f, j, W: C.put_stack(f, j, W, pile, 4))
        for s in (1, 2, 3):
            # a piece on a covered nest (of the colour before it)
            u = GAME_COLOURS[GAME_COLOURS.index(c) - 1]
            buried = bytes((code(u, 3), code(u, 2), code(u, 1), code(c, s)))
            out["covered %d" % code(c, s)] = cell16(
                lambda f, j, W: C.put_stack(f, j, W, buried, 4))
    # towering: a medium on a large of another colour; finished towers
    for lo, hi in itertools.permutations(GAME_COLOURS, 2):
        out["tower %d %d" % (lo, hi)] = cell16(
            lambda f, j, W: C.put_tower(f, j, W, code(lo, 3), code(hi, 2)))
    for a, b, c in itertools.product(GAME_COLOURS, repeat=3):
        if a != b and b != c:
            out["tree %d %d %d" % (a, b, c)] = cell16(
                lambda f, j, W: C.put_tree(f, j, W, code(a, 3), code(b, 2),
                                           code(c, 1)))
    return out


def _distinct(kinds):
    names = list(kinds)
    for i in range(len(names)):
        for j in range(i):
            a, b = kinds[names[i]], kinds[names[j]]
            if a == b and "nest" in names[i] and "nest" in names[j] and \
                    names[i].split()[1] == names[j].split()[1]:
                # a nest on a pile is one kind whatever the pile holds
                continue
            assert differ(a, b), "%s and %s look alike: %s %s" % (
                names[i], names[j], a, b)


def test_every_16x16_kind_differs_from_every_other():
    k = kinds16()
    assert len(k) > 150
    _distinct(k)
    # the two easiest to confuse: y3 on y3 is a large, not a clean nest
    yy = cell16(lambda f, j, W: C.put_stack(f, j, W, bytes((11, 11)), 2))
    yn = cell16(lambda f, j, W: C.put_stack(f, j, W, bytes((11, 10, 9)), 3))
    assert yy == k["piece 11"] and differ(yy, yn)


def test_stack_kinds():
    n = bytes((15, 14, 13))                 # g3 g2 g1
    assert C.stack_kind(b"", 0) == C.EMPTY
    assert C.stack_kind(n, 3) == C.NEST
    assert C.stack_kind(b"\x0b" + n, 4) == C.NEST_ON_PILE
    assert C.stack_kind(n + b"\x19", 4) == C.COVERED
    assert C.stack_kind(b"\x0b" + n + b"\x19\x1a", 6) == C.COVERED
    assert C.stack_kind(bytes((15, 14, 25)), 3) == C.LOOSE
    assert C.stack_kind(bytes((11, 11)), 2) == C.LOOSE


def test_the_size_patterns_grow_with_the_size():
    # small within medium within large: a bigger piece covers a smaller
    for s in (1, 2):
        assert C.GLYPHS[s] & C.GLYPHS[s + 1] == C.GLYPHS[s]
    assert [bin(C.GLYPHS[s]).count("1") for s in (1, 2, 3)] == [1, 2, 4]


# ---- 8x8: one pixel a cell --------------------------------------------------
def flash_seq(stack):
    return [C.flash(b, stack, len(stack)) for b in range(BEATS)]


def gauge8(stack):
    """The side gauge's rows (3 wide), top to bottom, for ``stack``."""
    f = bytearray(8 * 3)
    for k in range(len(stack)):
        y = 7 - k
        C.put_gauge(f, y * 3 + 2, stack[k], 0)
    return list(f)


def grid_pixel(kind, colour_index):
    """The 8x8 nesting grid's pixel over BEATS beats (see Ice Solo)."""
    return [colour_index if C.nest_lit(kind, b) else P.OFF for b in range(BEATS)]


def kinds8():
    """Every kind as an 8x8 player sees it: the cell over a few beats,
    with the cursor on it (the blink code) and the side gauge."""
    out = {}
    for c in COLOURS:
        for s in SIZES:
            p = code(c, s)
            st = bytes((p,))
            out["piece %d" % p] = (grid_pixel(C.LOOSE, P.piece_code(p)) +
                                   flash_seq(st) + gauge8(st))
    for c in GAME_COLOURS:
        nest = bytes((code(c, 3), code(c, 2), code(c, 1)))
        top = P.piece(c, 3)
        out["nest %d" % c] = (grid_pixel(C.NEST, top) + flash_seq(nest) +
                              gauge8(nest))
        pile = bytes((code(c, 2),)) + nest
        out["nest %d on pile" % c] = (grid_pixel(C.NEST_ON_PILE, top) +
                                      flash_seq(pile) + gauge8(pile))
        for s in (1, 2, 3):
            buried = nest + bytes((code(c, s),))
            assert C.stack_kind(buried, 4) == C.COVERED
            out["covered %d" % code(c, s)] = (
                grid_pixel(C.COVERED, P.piece(c, s)) + flash_seq(buried) +
                gauge8(buried))
    for lo, hi in itertools.permutations(GAME_COLOURS, 2):
        st = bytes((code(lo, 3), code(hi, 2)))
        out["tower %d %d" % (lo, hi)] = (grid_pixel(C.LOOSE, P.piece(hi, 2)) +
                                         flash_seq(st) + gauge8(st))
    return out


def test_every_8x8_kind_differs_from_every_other():
    _distinct(kinds8())


def test_8x8_sizes_differ_without_the_gauge_and_nests_without_the_cursor():
    # the cursor's code alone tells every piece from every other (the
    # towering field has no room for a gauge) ...
    for a, b in itertools.combinations([code(c, s) for c in COLOURS for s in SIZES], 2):
        assert differ(flash_seq(bytes((a,))), flash_seq(bytes((b,)))), (a, b)
    # ... and the grid's pixel alone tells a nest from a loose large and
    # from a nest on a pile (never a dim phase: a nest is never a small)
    c = P.piece(5, 3)
    seqs = [grid_pixel(k, c) for k in (C.LOOSE, C.NEST, C.NEST_ON_PILE, C.COVERED)]
    for a, b in itertools.combinations(seqs, 2):
        assert differ(a, b)
    for s in seqs:
        assert set(s) <= {c, P.OFF}


def test_the_flash_code_counts_the_size():
    for s in (1, 2, 3):
        p = code(5, s)
        seq = [C.flash(b, bytes((p,)), 1) for b in range(C.flash_length(bytes((p,)), 1))]
        assert seq[0] == P.CURSOR
        flashes = sum(1 for i in range(1, len(seq))
                      if seq[i] == P.piece_code(p) and seq[i - 1] != seq[i])
        assert flashes == s


# ---- power and visibility -----------------------------------------------------
FLOOR_CHANNEL = 4     # the brightest channel's duty, of 255
FLOOR_LUMA = 24       # 4r + 7g + 2b: a WS2812B's chips (red ~400 mcd,
                      # green ~700, blue ~190), about a red at duty 6


def _luma(rgb):
    return 4 * rgb[0] + 7 * rgb[1] + 2 * rgb[2]


def _shown(sim):
    """(palette index, (r, g, b) duty) of every pixel of the last show."""
    return list(zip(sim.display.frame, sim.frame()))


def _tile(sim, cell):
    """Fill the panel with one kind: a 2x2 cell repeated (16x16) or one
    pixel everywhere (8x8); shown; returns the Sim."""
    d = sim.display
    f = d.frame
    W = d.width
    if W >= 16:
        for y in range(0, d.height, 2):
            for x in range(0, W, 2):
                j = y * W + x
                f[j], f[j + 1], f[j + W], f[j + W + 1] = cell
    else:
        for i in range(d.n):
            f[i] = cell[0]
    d.show()
    return sim


def _check_visible(sim, what):
    budget = sim.profile.BUDGET_MA
    assert sim.display.last_ma <= budget, what
    assert sim.modelled_ma() <= budget, what
    for index, rgb in _shown(sim):
        if 1 <= index < 28:                   # a piece's colour
            assert max(rgb) >= FLOOR_CHANNEL, (what, index, rgb)
            assert _luma(rgb) >= FLOOR_LUMA, (what, index, rgb)


@pytest.mark.parametrize("board", BOARDS)
def test_every_kind_fills_the_panel_within_the_budget_and_stays_visible(board):
    sim = Sim(board=board, app=False)
    assert sim.display.brightness == sim.profile.BRIGHTNESS
    for c in COLOURS:
        for s in (1, 2, 3):
            i = P.piece(c, s)
            if board == "pico_8x8":
                cell = (i,)
            else:
                cell = kinds16()["piece %d" % code(c, s)]
            _check_visible(_tile(sim, cell), (c, s))
    # the brightest mix: every large of every colour, whole panel
    d = sim.display
    for i in range(d.n):
        d.frame[i] = P.piece(i % 9, 3)
    d.show()
    _check_visible(sim, "all larges")


@pytest.mark.parametrize("board", BOARDS)
def test_a_full_towering_field_keeps_every_small_visible(board):
    # the fullest real frame: Ice Solo's 60-piece field
    sim = Sim(board=board, seed=2)
    sim.app.settings.set("ice_solo.variant", "4")
    sim.advance(1500)
    sim.to_item("ice_solo")
    sim.press("a")
    for _ in range(600):
        if sim.app.scr is sim.app.game_scr and sim.app.game_scr is not None:
            break
        sim.advance(20)
    sim.advance(1500)
    idx = [i for i in sim.indices() if 1 <= i < 28]
    assert len(idx) >= 59                   # (the cursor's cell may blink)
    assert any((i - 1) % 3 == 0 for i in idx), "some smalls on the field"
    budget = sim.profile.BUDGET_MA
    assert sim.modelled_ma() <= budget
    for index, rgb in zip(sim.indices(), sim.frame()):
        if 1 <= index < 28:
            assert max(rgb) >= FLOOR_CHANNEL and _luma(rgb) >= FLOOR_LUMA, (index, rgb)


# ---- Bag of Ice: trees read as trees, leftovers never do ----------------------
def _bag_of_ice(board):
    sim = Sim(board=board, seed=1)
    sim.advance(1500)
    st = registry.new("bag_of_ice", {"players": "1"})
    assert sim.app.enter("bag_of_ice", st)
    for _ in range(100):
        if sim.app.game_scr is not None:
            break
        sim.advance(20)
    return sim, sim.app.game_scr, st


@pytest.mark.parametrize("board", BOARDS)
def test_bag_of_ice_leftovers_never_stack_into_a_tree(board):
    sim, scr, st = _bag_of_ice(board)
    d = sim.display
    W = d.width
    big = W >= 16
    pieces = [p for p in range(28) if p >> 2 and p & 3
              for _ in range(st.bag_count(p))]
    rnd = random.Random(22)
    subsets = [pieces, [p for p in pieces if p & 3 != 3],
               [p for p in pieces if p & 3 == 3]]
    # turns as the bag gives them: everything drawn before the first red
    # (a player who never stops), the reds being the bag's colour 0
    bag = pieces + [p for p in range(1, 4) for _ in range(st.bag_count(p))]
    assert len(bag) == 21
    for _ in range(400):
        rnd.shuffle(bag)
        sub = []
        for p in bag:
            if not p >> 2:
                break
            sub.append(p)
        subsets.append(sub)
    # a three-of-a-kind row of same-size larges never stacks either
    subsets.append([code(4, 3), code(6, 3), code(3, 3)])
    subsets.append([code(6, 3), code(3, 2), code(4, 2)])
    saved = bytes(st.drawn)
    crowded = [0]
    for sub in subsets:
        st.drawn[:] = bytes(sub)
        scr._refresh()
        d.fill(P.OFF)
        scr._pieces(d, -1)
        f = d.frame
        trees_w = scr.ntrees * 3 if big else scr.ntrees
        lit = [[f[y * W + x] for x in range(W)] for y in range(6 if big else 3)]
        # the trees: columns, large at the bottom, small on top
        for t in range(scr.ntrees):
            lay = scr.layout[3 * t:3 * t + 3]
            if big:
                x = 3 * t
                want = [[0, 0], [P.piece_code(lay[2]), 0], [0, 0],
                        [P.piece_code(lay[1])] * 2, [P.piece_code(lay[0])] * 2,
                        [P.piece_code(lay[0])] * 2]
                assert [row[x:x + 2] for row in lit] == want
            else:
                assert [lit[y][t] for y in range(3)] == [
                    P.piece_code(lay[2]), P.piece_code(lay[1]), P.piece_code(lay[0])]
        left = [row[trees_w:] for row in lit]
        if big:
            # every leftover shown by its size's pattern
            rest = scr.layout[3 * scr.ntrees:3 * scr.ntrees + scr.nleft]
            assert sorted(c for row in left for c in row if c) == sorted(
                P.piece_code(p) for p in rest
                for _ in range(bin(C.GLYPHS[p & 3]).count("1")))
            # a ground row (rows 4-5) and a top row (0-1), rows 2-3 empty:
            # no leftover stands on another; only when both rows are full
            # (three or four trees and many leftovers) the middle row too
            room = 16 - trees_w
            if scr.nleft <= 2 * (room // 2):
                assert all(c == P.OFF for c in left[2] + left[3]), sub
            else:
                crowded[0] += 1
        else:
            # leftovers on rows 2 and 0 only, row 1 empty: never a column
            assert all(c == P.OFF for c in left[1]), sub
            got = sorted(c for row in left for c in row if c)
            assert got == sorted(P.piece_code(p) for p in
                                 scr.layout[3 * scr.ntrees:3 * scr.ntrees + scr.nleft])
    # the rare turn (see above): the two extremes and at most 2% of turns
    assert crowded[0] <= 2 + 8
    st.drawn[:] = saved
    scr._refresh()


# ---- allocation-free helpers ----------------------------------------------------
def test_the_helpers_make_no_objects_per_call():
    import tracemalloc
    f = bytearray(256)
    nest = bytes((15, 14, 13))
    one = bytearray(1)
    one[0] = 22
    C.put_stack(f, 0, 16, nest, 3)          # warm up
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for k in range(200):
        C.put_piece(f, 34, 16, k % 36)
        C.put_stack(f, 2, 16, nest, 3)
        C.put_tower(f, 4, 16, 15, 10)
        C.put_tree(f, 6, 16, 15, 10, 21)
        C.put_gauge(f, 15, 15, 1)
        C.flash(k, one, 1)
        C.nest_lit(C.NEST, k)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename")
                if "screens_common" in str(s.traceback))
    assert grown <= 0
