"""Ice Solo: options, deals, towering, remix, nesting, scoring, undo, saves,
and the text protocol. Positions are given as deal/scatter strings; the few
towering positions a scatter cannot express (partly built towers, finished
towers in the grid) are set up on the state's own field arrays."""
import functools
import itertools
import json

import pytest

from engine import registry
from engine.ice_solo import NONE, REMIX, END, STYLE_YES, STYLE_NO, Game
from fractions import Fraction

from engine.ice_solo_deal import (count2, count3, outcomes as deal_outcomes,
                                  bounds as deal_bounds, start_chk,
                                  OK as DEAL_OK_CODE, REDO as DEAL_REDO_CODE)
from engine.ice_solo_tower import clear_line, tower_moves
from engine.pieces import parse_piece, parse_cell
from engine.protocol import Session
from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove

C4 = "rygb"
C5 = "rygbp"


def new(**opts):
    return registry.new("ice_solo", dict((k, str(v)) for k, v in opts.items()))


def sample_all(st, rng):
    while st.to_move() == CHANCE:
        outs = st.chance_outcomes()
        st.apply_action(outs[rng.weighted([w for _, w in outs])][0])


def latin_grid(cols, width):
    """All clean nests; cell (r, c) has colour (r + c) mod k: every row and
    column holds every colour."""
    k = len(cols)
    return ["%s3%s2%s1" % ((cols[(r + c) % k],) * 3)
            for r in range(5) for c in range(width)]


def grid_str(cells):
    return "/".join(cells)


def scatter(fixed, empties=("e8", "f8", "g8", "h8")):
    """An 8x8 scatter with ``fixed`` {cell: piece}; the other pieces of the
    60 fill the remaining cells in reading order, ``empties`` stay empty."""
    left = {}
    for c in C4:
        for s in "123":
            left[c + s] = 5
    for p in fixed.values():
        left[p] -= 1
    pool = [p for p in sorted(left) for _ in range(left[p])]
    cells = []
    for i in range(64):
        name = "abcdefgh"[i % 8] + str(i // 8 + 1)
        if name in fixed:
            cells.append(fixed[name])
        elif name in empties:
            cells.append("-")
        else:
            cells.append(pool.pop())
    assert not pool
    return "/".join(cells)


def tokens(st):
    return set(st.legal())


# ---- options -----------------------------------------------------------------
def test_defaults_and_phases():
    st = new()
    assert st.variant == 5 and st.to_move() == CHANCE and st.auto_chance()
    sample_all(st, Rng(1))
    f = st.fields()
    assert f["phase"] == "nesting" and f["variant"] == 5 and "field" not in f
    assert len(f["grid"].split("/")) == 25
    st4 = new(variant=4)
    sample_all(st4, Rng(1))
    f = st4.fields()
    assert f["phase"] == "towering" and len(f["field"].split("/")) == 64
    assert f["grid"] == "/".join(["-"] * 20)
    q = new(variant=4, quick=1)
    sample_all(q, Rng(2))
    assert q.fields()["phase"] == "nesting" and len(q.fields()["grid"].split("/")) == 20


@pytest.mark.parametrize("opts,msg", [
    ({"quick": "1"}, "quick=1 is for variant=4 only"),
    ({"variant": "5", "scatter": "-"}, "scatter is for variant=4 only"),
    ({"variant": "6"}, "variant=6: choose one of 4|5"),
    ({"variant": "4", "quick": "1", "deal": "x"}, "give only one of quick=1, deal"),
    ({"deal": "r3"}, "deal: grid has 1 cells, expected 25 (5x5)"),
    ({"deal": grid_str(["r3g2b1"] * 25)}, "deal has 25 r3, expected 5"),
    ({"variant": "4", "deal": grid_str(latin_grid(C5, 5)[:20])},
     "not a colour of this variant (r y g b)"),
    ({"variant": "4", "scatter": scatter({}).replace("r3", "r3r2", 1)},
     "scatter cell"),
    ({"variant": "4", "scatter": scatter({}).replace("r3", "y3", 1)},
     "scatter has 4 r3, expected 5"),
    ({"variant": "4", "scatter": scatter({}).replace("r3", "x3", 1)},
     "scatter: cell"),
    ({"colour": "red"}, "unknown option colour"),
])
def test_bad_options_are_refused_with_a_reason(opts, msg):
    with pytest.raises(ValueError) as e:
        registry.new("ice_solo", opts)
    assert msg in str(e.value)


def test_deal_wrong_counts_name_the_piece():
    cells = latin_grid(C5, 5)
    cells[0] = "r3r2"            # one r1 missing...
    cells[1] = cells[1] + "y1"   # ...and an extra y1
    with pytest.raises(ValueError) as e:
        new(deal=grid_str(cells))
    assert "deal has 6 y1, expected 5" in str(e.value) or \
        "deal has 4 r1, expected 5" in str(e.value)
    cells = latin_grid(C4, 4)
    cells[0] = "p3p2p1"
    with pytest.raises(ValueError) as e:
        new(variant=4, deal=grid_str(cells))
    assert "deal has p3, not a colour of this variant (r y g b)" in str(e.value)


def test_deal_accepts_any_stacks_with_the_right_pieces():
    cells = latin_grid(C5, 5)
    cells[0] = "-"
    cells[1] = cells[1] + "r3r2r1"     # any stack shape, exact multiset
    st = new(deal=grid_str(cells))
    assert st.fields()["grid"] == grid_str(cells)


# ---- the deal ---------------------------------------------------------------------
def _brute(groups, m):
    """Ways to fill cells forbidding the colours ``groups`` (one entry per
    cell) with the pieces ``m`` (alike within a colour): every arrangement,
    counted cell by cell (the same arrangements share their counts)."""
    groups = tuple(groups)

    @functools.lru_cache(maxsize=None)
    def ways(i, left):
        if i == len(groups):
            return 1
        return sum(ways(i + 1, left[:c] + (left[c] - 1,) + left[c + 1:])
                   for c in range(len(left)) if left[c] and c != groups[i])
    return ways(0, tuple(m))


def test_counts_match_brute_force():
    for k in (2, 3, 4):
        for m in itertools.product(range(3), repeat=k):
            tot = sum(m)
            for na in range(tot + 1):
                g2 = [k - 2] * na + [k - 1] * (tot - na)
                assert count2(na, tot - na, list(m)) == _brute(g2, m), (na, m)
            if k < 3:
                continue
            for na in range(tot + 1):
                for nb in range(tot + 1 - na):
                    nc = tot - na - nb
                    g3 = [k - 3] * na + [k - 2] * nb + [k - 1] * nc
                    assert count3(na, nb, nc, list(m)) == _brute(g3, m), (na, nb, m)


def _prefixes(k, per, groups):
    """Piece counts left after the first ``groups`` groups of a layer
    (``per`` cells each, group g forbidding colour g)."""
    out = set()
    visited = set()     # the same counts come by many paths: walk on once

    def rec(g, m):
        if (g, tuple(m)) in visited:
            return
        visited.add((g, tuple(m)))
        if g == groups:
            out.add(tuple(m))
            return
        for comp in itertools.product(range(per + 1), repeat=k):
            if sum(comp) == per and comp[g] == 0 and all(
                    comp[d] <= m[d] for d in range(k)):
                rec(g + 1, [m[d] - comp[d] for d in range(k)])
    rec(0, [per] * k)
    return out


def _bounds(k, per):
    b3 = max(count3(per, per, per, list(m)) for m in _prefixes(k, per, k - 3)) \
        if k >= 3 else 0
    b2 = max(count2(per, per, list(m)) for m in _prefixes(k, per, k - 2))
    return b3, b2


def test_checkpoint_bounds_are_the_largest_counts():
    # a bound below a count would bias the deal; above, it only costs redos
    for k in (4, 5):
        assert deal_bounds(k) == _bounds(k, 5)


def test_a_copy_from_the_history_lists_the_same_deal_outcomes():
    for opts in ({}, {"variant": 4, "quick": 1}):
        st = new(**opts)
        rng = Rng(5)
        while st.to_move() == CHANCE:
            outs = st.chance_outcomes()
            fresh = registry.deserialize(st.serialize())
            assert fresh.chance_outcomes() == outs
            st.apply_action(outs[rng.weighted([w for _, w in outs])][0])


def test_every_listed_deal_outcome_is_accepted_and_no_other():
    rng = Rng(77)
    st = new()
    seen = set()
    while st.to_move() == CHANCE:
        listed = set(a for a, _ in st.chance_outcomes())
        for a in [4100 + (p << 2 | size) for p in (0, 2, 3, 5, 6)
                  for size in (1, 2, 3)] + [4164, 4165]:
            assert st._chance_ok(a) == (a in listed), st.token(a)
        outs = st.chance_outcomes()
        a = outs[rng.weighted([w for _, w in outs])][0]
        seen.add(st.token(a))
        st.apply_action(a)
    assert "=ok" in seen and "=redo" in seen   # both checkpoint outcomes came up


def _layer_paths(forbid, per, bnd):
    """Every accepted outcome of one layer (a colour per cell, reading
    order) with its exact probability, from the engine's node weights. A
    redo sends the layer back to where its stage began and the stage is
    tried again until accepted, so each stage's accepted paths are scaled
    to add up to 1."""
    k = max(forbid) + 1
    order = [x for d in range(k) for x in range(len(forbid)) if forbid[x] == d]

    def stage(pos, chk, m, arr):
        got = rec(pos, chk, m, arr)
        tot = sum(got.values())
        return dict((x, p / tot) for x, p in got.items())

    def rec(pos, chk, m, arr):
        if pos == len(forbid):
            layer = [0] * len(forbid)
            for i in range(len(order)):
                layer[order[i]] = arr[i]
            return {tuple(layer): Fraction(1)}
        out = {}
        ws = deal_outcomes(pos, chk, m, per, bnd)
        tot = sum(w for _, w in ws)
        for d, w in ws:
            if d == DEAL_REDO_CODE:
                continue
            if d == DEAL_OK_CODE:
                sub = stage(pos, chk + 1, m, arr)
            else:
                m[d] -= 1
                sub = rec(pos + 1, chk, m, arr + [d])
                m[d] += 1
            for x, p in sub.items():
                out[x] = out.get(x, 0) + p * Fraction(w, tot)
        return out
    return stage(0, start_chk(k), [per] * k, [])


@pytest.mark.parametrize("k,per", [(2, 2), (3, 2), (4, 1), (4, 2), (5, 1)])
def test_each_layer_is_uniform_over_its_valid_layers(k, per):
    bnd = _bounds(k, per)
    pieces = [c for c in range(k) for _ in range(per)]
    perms = set(itertools.permutations(pieces))
    for below in sorted(perms)[:6]:
        got = _layer_paths(list(below), per, bnd)
        valid = set(p for p in perms
                    if all(p[i] != below[i] for i in range(len(below))))
        assert set(got) == valid
        assert set(got.values()) == set([Fraction(1, len(valid))])


def test_layered_deal_is_uniform_over_every_valid_deal():
    # every layer has the same number of valid layers above it (each colour
    # has as many pieces as cells forbidding it), so uniform layers give a
    # uniform deal: the count must not depend on the layer below
    for k, per in ((2, 2), (3, 2), (4, 1), (4, 2)):
        pieces = [c for c in range(k) for _ in range(per)]
        counts = set()
        for below in set(itertools.permutations(pieces)):
            counts.add(_brute(list(below), [per] * k))
        assert len(counts) == 1


def _deal_cells(st):
    return [c for c in st.fields()["grid"].split("/")]


@pytest.mark.parametrize("opts,cols,n", [({}, C5, 25),
                                         ({"variant": 4, "quick": 1}, C4, 20)])
def test_deals_are_valid_towers(opts, cols, n):
    for seed in range(15):
        st = new(**opts)
        sample_all(st, Rng(seed))
        cells = _deal_cells(st)
        assert len(cells) == n
        counts = {}
        for c in cells:
            assert len(c) == 6 and c[1] == "3" and c[3] == "2" and c[5] == "1"
            assert c[0] != c[2] and c[2] != c[4]      # no piece on its own colour
            for i in (0, 2, 4):
                counts[c[i:i + 2]] = counts.get(c[i:i + 2], 0) + 1
        assert counts == dict((x + s, 5) for x in cols for s in "123")


def test_deal_colours_per_cell_are_fair():
    # 200 deals; the large at a1 and the medium at e5 over 5 colours should
    # be uniform: chi-square with 4 degrees of freedom below 18.47 (p=0.001)
    rng = Rng(12345)
    lc = dict((c, 0) for c in C5)
    mc = dict((c, 0) for c in C5)
    deals = 200
    for _ in range(deals):
        st = new()
        sample_all(st, rng)
        cells = _deal_cells(st)
        lc[cells[0][0]] += 1
        mc[cells[24][2]] += 1
    for tally in (lc, mc):
        e = deals / 5.0
        chi = sum((tally[c] - e) ** 2 / e for c in C5)
        assert chi < 18.47, tally


def test_scatter_is_sixty_lone_pieces_and_four_holes():
    st = new(variant=4)
    sample_all(st, Rng(7))
    cells = st.fields()["field"].split("/")
    assert cells.count("-") == 4
    pieces = [c for c in cells if c != "-"]
    assert all(len(c) == 2 for c in pieces)
    assert sorted(pieces) == sorted([c + s for c in C4 for s in "123"] * 5)


def test_scatter_chance_weights_are_the_counts_left():
    st = new(variant=4)
    outs = dict((st.token(a), w) for a, w in st.chance_outcomes())
    assert outs["=-"] == 4 and outs["=r3"] == 5 and len(outs) == 13
    st.apply("=r3")
    outs = dict((st.token(a), w) for a, w in st.chance_outcomes())
    assert outs["=r3"] == 4


# ---- line of sight ---------------------------------------------------------------
def cell(name):
    return parse_cell(name, 8, 8)


def test_line_of_sight_geometry():
    a1, c1, b1 = cell("a1"), cell("c1"), cell("b1")
    assert not clear_line(a1, c1, [b1, c1])          # straight through b1
    assert clear_line(a1, c1, [c1, cell("b2")])      # b2 is beside the line
    # a1 -> b2 touches a2 and b1 only at a corner
    assert clear_line(a1, cell("b2"), [cell("a2"), cell("b1"), cell("b2")])
    # a1 -> c3 passes the centre of b2
    assert not clear_line(a1, cell("c3"), [cell("b2"), cell("c3")])
    # a1 -> c2: the segment crosses b1 and b2 inside
    assert not clear_line(a1, cell("c2"), [cell("b1")])
    assert not clear_line(a1, cell("c2"), [cell("b2")])
    assert clear_line(a1, cell("c2"), [cell("a2"), cell("c1")])
    # a1 -> c5 (two rows per column): crosses a2 and b3, misses a3 and c3
    assert not clear_line(a1, cell("c5"), [cell("a2")])
    assert not clear_line(a1, cell("c5"), [cell("b3")])
    assert clear_line(a1, cell("c5"), [cell("a3"), cell("c3")])
    # a1 -> d2 passes exactly through the corner shared by b1, c1, b2, c2:
    # it crosses b1 and c2, and only touches c1 and b2
    assert not clear_line(a1, cell("d2"), [cell("b1")])
    assert not clear_line(a1, cell("d2"), [cell("c2")])
    assert clear_line(a1, cell("d2"), [cell("c1"), cell("b2")])
    # a long diagonal touches its side neighbours at corners only
    assert clear_line(a1, cell("d4"), [cell("b1"), cell("a2"), cell("c2"),
                                       cell("d3"), cell("d4")])
    assert not clear_line(a1, cell("d4"), [cell("c3")])
    # the target itself and cells outside the box never block
    assert clear_line(a1, cell("d4"), [cell("e5"), cell("h8"), cell("a4")])


def _crosses(s, t, b):
    """Independent check: does the open segment between the centres of s
    and t meet the open square of b? Exact clipping with fractions."""
    from fractions import Fraction as F
    sx, sy = F(s % 8) + F(1, 2), F(s // 8) + F(1, 2)
    dx, dy = F(t % 8 - s % 8), F(t // 8 - s // 8)
    lo, hi = F(0), F(1)
    for start, d, a, z in ((sx, dx, b % 8, b % 8 + 1), (sy, dy, b // 8, b // 8 + 1)):
        if d == 0:
            if not a < start < z:
                return False
            continue
        l1, l2 = (a - start) / d, (z - start) / d
        lo, hi = max(lo, min(l1, l2)), min(hi, max(l1, l2))
    return lo < hi


def test_line_of_sight_matches_exact_clipping():
    cells = [r * 8 + c for r in range(5) for c in range(5)]
    for s in cells:
        for t in cells:
            if s == t:
                continue
            for b in cells:
                if b in (s, t):
                    continue
                assert clear_line(s, t, [b]) == (not _crosses(s, t, b)), (s, t, b)


def path_clear(s, t, w3, k):
    """Line of sight from ``s`` to ``t`` as the move list decides it:
    False if a cell the segment crosses is flagged in ``w3``, where the
    low byte of ``w3[k + r]`` holds the flags of board row r (bit c:
    column c). The flagged cells and ``t`` become bare larges, targets of
    a medium on ``s``, and the move list is asked (on a game made for
    it), so a test of this is a test of its tables and frames. (Here, not
    in the device module: only the tests need it.)"""
    g = Game()
    g.lo = lo = bytearray(b"\xff" * 64)
    g.hi = bytearray(lo)
    for b in range(64):
        if w3[k + (b >> 3)] >> (b & 7) & 1:
            lo[b] = 11          # y3
    lo[t] = 11
    lo[s] = 2                   # r2
    return s << 6 | t in tower_moves(g, False, s, 0, 8)


def _check_path_table(pairs):
    # the move list reads the crossed cells from MASKS, in the moving
    # piece's frame (path_clear asks it); why_illegal and is_legal use the
    # box test: for each pair of cells, each other cell alone as a target
    checked = 0
    for s, t in pairs:
        for b in range(64):
            if b in (s, t):
                continue
            w3 = [0] * 8        # three rows to an int, as the move list
            for r in range(max(0, (b >> 3) - 2), (b >> 3) + 1):
                w3[r] = (1 << (b & 7)) << 8 * ((b >> 3) - r)
            assert path_clear(s, t, w3, 0) == clear_line(s, t, [b]), (s, t, b)
            checked += 1
    return checked


def test_the_path_table_agrees_with_the_box_test_on_sampled_pairs():
    # every source cell, with 3 seeded targets each (the full walk is below)
    rng = Rng(64)
    pairs = []
    for s in range(64):
        for _ in range(3):
            t = rng.randrange(63)
            pairs.append((s, t + (t >= s)))
    _check_path_table(pairs)


@pytest.mark.bench
def test_the_path_table_agrees_with_the_box_test_everywhere():
    checked = _check_path_table([(s, t) for s in range(64) for t in range(64) if s != t])
    print("\npath table: %d (from, to, blocker) triples agree with the box test"
          % checked)
    assert checked == 64 * 63 * 62


def test_move_list_matches_the_box_test_on_crowded_fields():
    # many targets at once (several blockers per pair), both sizes, every
    # kind range the hint asks for and every single piece: the frames and
    # tables against clear_line over each piece's own targets
    import random
    from engine.ice_solo import Game
    import engine.ice_solo_tower as tw
    rng = random.Random(7)
    for _ in range(300):
        g = Game()
        g.lo = bytearray([NONE] * 64)
        g.hi = bytearray([NONE] * 64)
        dens = rng.random()
        for c in range(64):
            if rng.random() < dens:
                z = rng.choice((1, 2, 3, 3))
                g.lo[c] = rng.choice((0, 2, 3, 5)) << 2 | z
                if z == 3 and rng.random() < 0.4:
                    g.hi[c] = rng.choice((0, 2, 3, 5)) << 2 | 2
        want = {}
        for s in range(64):
            p = g.lo[s]
            if p == NONE or p & 3 == 3:
                continue
            tg = tw.targets(g, p)
            want[s] = [s << 6 | t for t in tg if clear_line(s, t, tg)]
        # a kind: a medium of colour index i is kind i, a small 4 + i
        kind = {s: {0: 0, 2: 1, 3: 2, 5: 3}[g.lo[s] >> 2] +
                (0 if g.lo[s] & 3 == 2 else 4) for s in want}
        for klo, khi in ((0, 8), (0, 4), (4, 8)):
            assert tw.tower_moves(g, False, -1, klo, khi) == [
                m for s in sorted(want) if klo <= kind[s] < khi
                for m in want[s]]
        for s in want:
            assert tw.tower_moves(g, False, s, 0, 8) == want[s]


def test_non_target_never_blocks_and_target_does():
    # row 1: a1 medium r2, b1 small, c1 bare large g3 -> clear;
    # then b1 a bare large y3 (another legal target for r2) -> blocked
    sc = scatter({"a1": "r2", "b1": "b1", "c1": "g3", "a2": "r1", "b2": "r1",
                  "c2": "r1", "d1": "r1", "d2": "r1"})
    st = new(variant=4, scatter=sc)
    assert "a1-c1" in tokens(st)
    sc = scatter({"a1": "r2", "b1": "y3", "c1": "g3", "a2": "r1", "b2": "r1",
                  "c2": "r1", "d1": "r1", "d2": "r1"})
    st = new(variant=4, scatter=sc)
    assert "a1-c1" not in tokens(st) and "a1-b1" in tokens(st)
    with pytest.raises(IllegalMove) as e:
        st.apply("a1-c1")
    assert "blocked by b1" in str(e.value)
    # a large of the mover's own colour is not a target, so it does not block
    sc = scatter({"a1": "r2", "b1": "r3", "c1": "g3", "a2": "r1", "b2": "r1",
                  "c2": "r1", "d1": "r1", "d2": "r1"})
    st = new(variant=4, scatter=sc)
    assert "a1-c1" in tokens(st) and "a1-b1" not in tokens(st)


def test_corner_touch_in_play():
    # a1 r2 -> b2 g3 with b1, a2 bare larges of other colours: corner only
    sc = scatter({"a1": "r2", "b2": "g3", "b1": "y3", "a2": "b3"})
    st = new(variant=4, scatter=sc)
    assert {"a1-b2", "a1-b1", "a1-a2"} <= tokens(st)


# ---- towering ----------------------------------------------------------------------
def test_towering_moves_sizes_and_colours():
    sc = scatter({"a1": "r2", "b1": "g3", "c1": "r3", "d1": "y1", "e1": "g2",
                  "f1": "y3"})
    st = new(variant=4, scatter=sc)
    legal = tokens(st)
    assert "a1-b1" in legal and "a1-c1" not in legal      # not on its own colour
    assert not any(t.startswith("d1-") for t in legal)     # small: no medium yet
    assert not any(t.startswith("b1-") for t in legal)     # a large never moves
    st.apply("a1-b1")
    assert st.fields()["field"].split("/")[1] == "g3r2"
    legal = tokens(st)
    assert not any(t.startswith("b1-") for t in legal)     # medium on large stays
    assert "d1-b1" in legal                                 # small onto medium
    assert "e1-b1" not in legal                             # medium onto medium no
    with pytest.raises(IllegalMove) as e:
        st.apply("b1-f1")
    assert "part of a tower" in str(e.value)
    st.apply("d1-b1")
    f = st.fields()
    assert f["grid"].split("/")[0] == "g3r2y1" and f["field"].split("/")[1] == "-"


def test_small_may_not_land_on_own_colour_medium():
    sc = scatter({"a1": "r2", "b1": "g3", "c1": "r1", "d1": "y1"})
    st = new(variant=4, scatter=sc)
    st.apply("a1-b1")
    assert "c1-b1" not in tokens(st) and "d1-b1" in tokens(st)


def _field_game(grid_towers, field):
    """A towering position set on the state itself: ``grid_towers`` stacks
    for slots 1.., ``field`` {cell: 'r3' or 'r3g2'}."""
    st = new(variant=4, scatter=scatter({}))
    for i in range(64):
        st.lo[i] = NONE
        st.hi[i] = NONE
    for name, text in field.items():
        st.lo[cell(name)] = parse_piece(text[:2])
        if len(text) == 4:
            st.hi[cell(name)] = parse_piece(text[2:])
    for i in range(20):
        st.grid[i] = bytearray()
    for i, t in enumerate(grid_towers):
        st.grid[i] = bytearray([parse_piece(t[j:j + 2]) for j in (0, 2, 4)])
    st._any_move = -1
    return st


def test_slot_order_and_nesting_starts_at_twenty():
    towers = ["r3g2b1"] * 18
    st = _field_game(towers, {"a1": "y3b2", "c1": "g1", "a3": "b3r2", "c3": "y1"})
    assert tokens(st) >= {"c1-a1", "c3-a3"}
    st.apply("c1-a1")
    assert st.fields()["grid"].split("/")[18] == "y3b2g1"
    st.apply("c3-a3")
    f = st.fields()
    assert f["phase"] == "nesting" and "field" not in f
    assert f["grid"].split("/")[19] == "b3r2y1"


def test_remix_only_when_stuck_and_takes_the_last_row():
    # 6 towers (rows 1 and 2 partly); field: b1 can't go on b2
    towers = ["r3g2y1", "g3r2y1", "y3r2g1", "b3r2g1", "r3y2g1", "g3y2r1"]
    field = {"a1": "y3b2", "c1": "b1", "h8": "r3"}
    st = _field_game(towers, field)
    assert st.legal() == ["remix", "end"]
    before = st.serialize()
    st.apply("remix")
    assert st.remixes == 1 and st.scores() == [-5]
    assert st.to_move() == CHANCE and st.auto_chance()
    g = st.fields()["grid"].split("/")
    assert g[:4] == towers[:4] and g[4:6] == ["-", "-"]
    # the six pieces of slots 5 and 6 land one by one in empty cells
    placed = 0
    while st.to_move() == CHANCE:
        outs = st.chance_outcomes()
        assert all(w == 1 for _, w in outs)
        empties = [st.token(a) for a, _ in outs]
        assert "@a1" not in empties and "@c1" not in empties
        st.apply_action(outs[0][0])
        placed += 1
    assert placed == 6
    field_now = st.fields()["field"].split("/")
    assert sorted(x for x in field_now if len(x) == 2) == sorted(
        ["b1", "r3", "r3", "y2", "g1", "g3", "y2", "r1"])
    assert st.serialize() != before


def test_remix_with_an_empty_grid_takes_partial_towers_apart():
    st = _field_game([], {"a1": "y3b2", "c1": "b1", "h8": "g3b2", "d4": "b1"})
    assert st.legal() == ["remix", "end"]
    st.apply("remix")
    n = 0
    while st.to_move() == CHANCE:
        st.apply_action(st.chance_outcomes()[-1][0])
        n += 1
    assert n == 4
    field = [x for x in st.fields()["field"].split("/") if x != "-"]
    assert sorted(field) == ["b1", "b1", "b2", "b2", "g3", "y3"]
    assert st.remixes == 1 and st.breakdown()["remix"] == -5


def stuck_session(seed):
    """A protocol session played at random (never ``end``) from a seeded
    scatter until only remix is left: a real history, so undo works."""
    sess = Session(seed)
    sess.handle("new ice_solo variant=4 seed=%d" % seed)
    rng = Rng(seed)
    for _ in range(300):
        legal = sess.handle("legal")[2:].split()
        if legal == ["remix", "end"]:
            return sess
        moves = [t for t in legal if t != "end"]
        assert sess.handle("play " + moves[rng.randrange(len(moves))]).startswith("=")
    raise AssertionError("no stuck position within 300 moves")


def test_remix_undone_and_redone_lands_the_same_way():
    sess = stuck_session(1)
    st = sess.state
    towers_before = st.towers()
    first = sess.handle("play remix")
    assert first.startswith("= remix @")
    field1 = st.fields()["field"]
    assert st.towers() < towers_before or towers_before == 0
    assert sess.handle("undo") == "= remix\n\n"
    assert st.remixes == 0 and st.undos == 1
    # saved and restored in between: the memo and the undo count survive
    st2 = registry.deserialize(st.serialize())
    assert st2.undos == 1 and st2 == st
    sess.state = st2
    sess.rng = Rng(4242)      # a different generator cannot re-roll it
    st2.apply("remix")
    assert len(st2.chance_outcomes()) == 1
    st2.undo()
    second = sess.handle("play remix")
    assert second == first and st2.fields()["field"] == field1
    assert st2.undos == 2


def test_end_is_legal_while_towering():
    st = new(variant=4)
    sample_all(st, Rng(3))
    assert "end" in st.legal() and "remix" not in st.legal()
    st.apply("end")
    assert st.to_move() == OVER and st.fields()["phase"] == "over"
    assert st.legal() == []


# ---- nesting -------------------------------------------------------------------------
# latin_grid(C5, 5) rows:  r y g b p / y g b p r / g b p r y / b p r y g / p r y g b

def test_nesting_moves_and_the_end_when_nothing_moves():
    cells = latin_grid(C5, 5)
    cells[5] = "y3"                      # a2: a bare large
    cells[6] = "g3g2g1y2y1"              # b2: y2 y1 on a full g nest
    cells[7] = "-"                       # c2: empty
    cells[8] = "p3p2p1b3b2b1"            # d2: c2's b nest sits on the p nest
    st = new(deal=grid_str(cells))
    legal = tokens(st)
    assert "b2-c2" in legal              # a small into an empty cell
    assert "b2-a2" in legal              # onto its own colour, any size
    assert "a2-b2" in legal              # a large onto a small of its colour
    assert "a2-c2" not in legal          # a large never into an empty cell
    assert not any(t.startswith("d2-") for t in legal)   # full nest on top
    assert not any(t.startswith("a1-") for t in legal)   # clean nests stay
    st.apply("b2-c2")
    st.apply("b2-a2")
    st.apply("c2-a2")                    # the y1 travels back along row 2
    g = st.fields()["grid"].split("/")
    assert g[5] == "y3y2y1" and g[6] == "g3g2g1" and g[7] == "-"
    # nothing can move any more: the game is over without `end`
    assert st.to_move() == OVER and st.legal() == []
    assert st.fields()["phase"] == "over"
    b = st.breakdown()
    assert b["clean"] == 23 and b["fully_nested"] == 0
    # rows 1, 3, 4, 5 and columns a, b, e still hold every colour
    assert b["rainbow"] == 5 * 7 and b["total"] == 23 + 35


def test_medium_and_large_never_enter_an_empty_cell_and_colour_rule():
    cells = latin_grid(C5, 5)
    cells[0] = "-"                       # a1 empty
    cells[1] = "y3y2y1r3r2"              # r3 r2 on b1's clean y nest
    cells[2] = "g3g2g1r1"                # r1 on c1's clean g nest
    st = new(deal=grid_str(cells))
    legal = tokens(st)
    assert "b1-a1" not in legal and "c1-a1" in legal and "b1-c1" in legal
    with pytest.raises(IllegalMove) as e:
        st.apply("b1-a1")
    assert "only a small may move into an empty cell" in str(e.value)
    with pytest.raises(IllegalMove) as e:
        st.apply("b1-b2")
    assert "may land only on its own colour" in str(e.value)
    with pytest.raises(IllegalMove) as e:
        st.apply("b1-c2")
    assert "row or column" in str(e.value)
    with pytest.raises(IllegalMove) as e:
        st.apply("a1-f1")
    assert "off the 5x5 grid" in str(e.value)
    st.apply("c1-b1")                    # a full r nest on top of the y nest
    g = st.fields()["grid"].split("/")
    assert g[1] == "y3y2y1r3r2r1" and g[2] == "g3g2g1"
    assert st.breakdown()["clean"] == 23   # a1 empty, b1 two nests
    assert not any(t.startswith("b1-") for t in tokens(st))


def test_completing_every_nest_asks_for_the_style_judgement():
    cells = latin_grid(C5, 5)
    cells[0] = "r3r2"                    # a1 is missing its r1
    cells[3] = "b3b2b1r1"                # d1 carries it
    st = new(deal=grid_str(cells))
    b = st.breakdown()
    assert b["clean"] == 23 and b["rainbow"] == 5 * 7   # not row 1, columns a, d
    # the r2 may go onto the r1 too, and the r1 onto d3's full r nest
    assert tokens(st) == {"d1-a1", "a1-d1", "d1-d3", "end"}
    st.apply("d1-a1")
    assert st.style_due() and st.legal() == ["style-yes", "style-no"]
    assert st.fields()["phase"] == "nesting"
    b = st.breakdown()
    assert (b["clean"], b["fully_nested"], b["rainbow"], b["total"]) == (25, 5, 50, 80)
    with pytest.raises(IllegalMove) as e:
        st.apply("end")
    assert "judge the style" in str(e.value)
    st.undo()
    assert st.undos == 1 and st.breakdown()["clean"] == 23


def test_landing_on_full_nest_small_stays_full_not_clean():
    cells = latin_grid(C5, 5)
    cells[5] = "y3y2y1r1"                # a2 carries an r1 ...
    cells[9] = "r3r2"                    # ... that e2 is missing
    st = new(deal=grid_str(cells))
    assert tokens(st) == {"a2-a1", "a2-e2", "e2-a2", "end"}
    st.apply("a2-a1")                    # onto the small of a1's full r nest
    g = st.fields()["grid"].split("/")
    assert g[0] == "r3r2r1r1" and st.breakdown()["clean"] == 23
    # the extra r1 is not part of the nest, so it could move on, but no r
    # top is in row 1 or column a; e2's r2 has nowhere either: over
    assert st.to_move() == OVER


def test_only_tops_outside_full_nests_move():
    cells = latin_grid(C5, 5)
    cells[0] = "r3r2"
    cells[12] = "p3p2p1r1"               # c3: an r1 on the p nest
    st = new(deal=grid_str(cells))
    # a1's r2 sees no r top in row 1 / column a; c3's r1 may land on the
    # small of the full r nests at d3 (row 3) and c4 (column c)
    assert tokens(st) == {"c3-d3", "c3-c4", "end"}


def test_game_over_when_no_move_and_end():
    cells = latin_grid(C5, 5)
    st = new(deal=grid_str(cells))
    assert st.style_due() and st.to_move() == 0
    st.apply("style-yes")
    b = st.breakdown()
    assert st.to_move() == OVER and b["style"] == 10 and b["double_plus_cool"] == 20
    assert b["total"] == 110 and st.scores() == [110]
    st = new(deal=grid_str(cells))
    st.apply("style-no")
    assert st.scores() == [80]
    with pytest.raises(IllegalMove):
        st.apply("end")


def test_original_perfect_score_is_100():
    st = new(variant=4, deal=grid_str(latin_grid(C4, 4)))
    b = st.breakdown()
    assert b["rainbow"] == 45 and b["clean"] == 20
    st.apply("style-yes")
    assert st.scores() == [100]


def test_double_plus_cool_needs_25_rainbow_points():
    # 4 colours, rows all colours but columns short: cell colour = c only
    # within each row shifted, so rows rainbow (5 x 5 = 25 points)
    cells = []
    for r in range(5):
        for c in range(4):
            x = C4[c]
            cells.append(x + "3" + x + "2" + x + "1")
    st = new(variant=4, deal=grid_str(cells))
    b = st.breakdown()
    assert b["rainbow"] == 25
    st.apply("style-yes")
    assert st.breakdown()["double_plus_cool"] == 20
    # one fewer rainbow row: break a row by swapping colours in a column
    cells2 = list(cells)
    cells2[0], cells2[4] = cells[0], cells[4]
    cells2[1] = cells[0]
    cells2[4] = cells[5]
    # rows: row1 r r g b (no y), row2 y y g b (no r) -> 3 rows x 5 = 15
    st = new(variant=4, deal=grid_str(cells2))
    b = st.breakdown()
    assert b["rainbow"] == 15 + 5 * 0 and b["clean"] == 20
    st.apply("style-yes")
    assert st.breakdown()["double_plus_cool"] == 0 and st.scores() == [20 + 5 + 15 + 10]


# ---- protocol, saves, tokens -----------------------------------------------------------
def test_protocol_session_flow():
    s = Session(5)
    assert s.handle("new ice_solo seed=5").startswith("= ice_solo seed=5")
    st = json.loads(s.handle("state")[2:])
    assert st["phase"] == "nesting" and st["undos"] == 0
    assert set(st["score"]) == {"clean", "fully_nested", "rainbow", "style",
                                "double_plus_cool", "remix", "total"}
    legal = s.handle("legal")[2:].split()
    assert "end" in legal
    mv = legal[0]
    assert s.handle("play " + mv) == "= %s\n\n" % mv
    assert s.handle("undo") == "= %s\n\n" % mv
    st = json.loads(s.handle("state")[2:])
    assert st["undos"] == 1
    assert s.handle("play a1-a1").startswith("? ")
    assert s.handle("play zz").startswith("? unknown token")
    assert s.handle("new ice_solo quick=1").startswith("? quick=1 is for variant=4")


def test_protocol_towering_flow_and_history_replays():
    s = Session(8)
    s.handle("new ice_solo seed=8 variant=4")
    for _ in range(30):
        legal = s.handle("legal")[2:].split()
        mv = [t for t in legal if t not in ("end",)][0]
        assert s.handle("play " + mv).startswith("= " + mv)
    hist = s.handle("history")[2:].split()
    assert len([h for h in hist if h.startswith("=")]) == 64
    st = s.state
    copy = registry.deserialize(st.serialize())
    assert copy == st and copy.fields() == st.fields()


def test_tokens_round_trip_and_do_not_collide():
    st = new(variant=4)
    seen = set()
    for a in list(range(0, 4096, 37)) + [REMIX, END, STYLE_YES, STYLE_NO]:
        tok = st.token(a)
        assert st.action(tok) == a
        seen.add(tok)
    for p in ("=r3", "=b1", "=p2", "=-", "@c5", "@h8", "b3-b4"):
        assert st.token(st.action(p)) == p
        assert p not in seen or p == "b3-b4"
    for bad in ("b3", "r3", "=", "=r", "@", "@i1", "a1-", "a9-a1", "=x1"):
        with pytest.raises(IllegalMove):
            st.action(bad)


def test_move_tokens_from_the_cell_table_match_the_notation():
    import engine.ice_solo as ice
    from engine.pieces import fmt_cell, fmt_piece
    st = new(variant=4)
    ice._tw()                       # towering: the tower module's names
    kept = (ice._CN, ice._CD)
    assert None not in kept
    for names in (kept, (None, None)):      # ... and the game's own names
        ice._CN, ice._CD = names
        try:
            for a in range(4096):
                assert st.token(a) == (fmt_cell(a >> 6, 8) + "-" +
                                       fmt_cell(a & 63, 8))
        finally:
            ice._CN, ice._CD = kept
    for p in range(36):
        if p & 3:
            assert st.token(4100 + p) == "=" + fmt_piece(p)
    for t in range(64):
        assert st.token(4200 + t) == "@" + fmt_cell(t, 8)


def test_random_playthroughs_keep_invariants():
    for seed in range(12):
        opts = ({}, {"variant": 4}, {"variant": 4, "quick": 1})[seed % 3]
        st = new(**opts)
        rng = Rng(seed)
        steps = 0
        while st.to_move() != OVER and steps < 400:
            if st.to_move() == CHANCE:
                sample_all(st, rng)
                continue
            legal = st.legal_actions()
            assert legal
            moves = [a for a in legal if a != END] or legal
            st.apply_action(moves[rng.randrange(len(moves))])
            steps += 1
            if st.to_move() == CHANCE:
                continue            # a remix's pieces are in the air
            # every piece is somewhere, exactly once
            f = st.fields()
            text = f["grid"] + "/" + f.get("field", "")
            n = sum(len(x) // 2 for x in text.split("/") if x != "-")
            assert n == (75 if st.variant == 5 else 60)
        copy = registry.deserialize(st.serialize())
        assert copy == st and copy.fields() == st.fields()


def _follow(st, policy, rng, cap):
    for _ in range(cap):
        if st.to_move() != 0 or st.style_due():
            break
        if policy == "hint":
            a = st.hint()
            assert a in st.legal_actions()
            if a == END:
                break
        else:
            legal = [x for x in st.legal_actions() if x != END]
            a = legal[rng.randrange(len(legal))]
        st.apply_action(a)
    return st.breakdown()["clean"]


def test_hint_is_legal_and_beats_random():
    hint_sum = rand_sum = 0
    for seed in range(6):
        st = new()
        sample_all(st, Rng(seed))
        copy = registry.deserialize(st.serialize())
        hint_sum += _follow(st, "hint", None, 200)
        rand_sum += _follow(copy, "random", Rng(seed), 200)
    assert hint_sum >= 3 * max(rand_sum, 3), (hint_sum, rand_sum)
    st = new(variant=4)
    sample_all(st, Rng(1))
    a = st.hint()
    assert a in st.legal_actions() and a != END


# ---- the whole legal list against a naive reading of the rules ------------------
def _naive_tower_moves(st):
    field = st.fields()["field"].split("/")
    stacks = [[] if c == "-" else [c[i:i + 2] for i in range(0, len(c), 2)]
              for c in field]

    def can_land(p, stack):
        if p[1] == "2":
            return len(stack) == 1 and stack[0][1] == "3" and stack[0][0] != p[0]
        if p[1] == "1":
            return (len(stack) == 2 and stack[1][1] == "2" and
                    stack[0][1] == "3" and stack[1][0] != p[0])
        return False
    out = set()
    for s in range(64):
        if len(stacks[s]) != 1 or stacks[s][0][1] == "3":
            continue
        p = stacks[s][0]
        targets = [t for t in range(64) if t != s and can_land(p, stacks[t])]
        for t in targets:
            if not any(_crosses(s, t, b) for b in targets if b != t):
                out.add("%s-%s" % ("abcdefgh"[s % 8] + str(s // 8 + 1),
                                   "abcdefgh"[t % 8] + str(t // 8 + 1)))
    return out


def _naive_nest_moves(st):
    w = st.width
    cells = st.fields()["grid"].split("/")
    stacks = [[] if c == "-" else [c[i:i + 2] for i in range(0, len(c), 2)]
              for c in cells]
    out = set()
    for s in range(len(stacks)):
        a = stacks[s]
        if not a:
            continue
        top = a[-1]
        if len(a) >= 3 and [x[1] for x in a[-3:]] == ["3", "2", "1"] and \
                len(set(x[0] for x in a[-3:])) == 1:
            continue
        for t in range(len(stacks)):
            if t == s or (t // w != s // w and t % w != s % w):
                continue
            b = stacks[t]
            if (b and b[-1][0] == top[0]) or (not b and top[1] == "1"):
                out.add("%s%d-%s%d" % ("abcde"[s % w], s // w + 1,
                                       "abcde"[t % w], t // w + 1))
    return out


@pytest.mark.parametrize("opts", [{"variant": 4}, {}])
def test_legal_moves_match_a_naive_reading(opts):
    for seed in range(2):
        st = new(**opts)
        rng = Rng(seed + 50)
        for _ in range(120):
            if st.to_move() == CHANCE:
                sample_all(st, rng)
                continue
            if st.to_move() == OVER or st.style_due():
                break
            legal = set(st.legal()) - {"end", "remix"}
            if st.fields()["phase"] == "towering":
                assert legal == _naive_tower_moves(st)
                if not legal:
                    assert "remix" in st.legal()
            else:
                assert legal == _naive_nest_moves(st)
            moves = [a for a in st.legal_actions() if a != END]
            st.apply_action(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("opts", [{}, {"variant": 4, "quick": 1}, {"variant": 4}])
def test_direct_undo_matches_a_fresh_replay(opts):
    # a towering or nesting move, an end or a style judgement is taken back
    # without a replay: the position must be the one replaying the rest gives
    for seed in range(3 if opts.get("quick") or "variant" not in opts else 6):
        st = new(**opts)
        rng = Rng(90 + seed)
        sample_all(st, rng)
        for step in range(60):
            if st.to_move() == OVER or rng.randrange(4) == 0:
                if not st.history() or st.history()[-1][1]:
                    break        # back at the deal: the replay path's job
                st.undo()
                fresh = new(**opts)
                for a, ch in st.history():
                    fresh.apply_action(a)
                fresh.undos = st.undos
                assert fresh.fields() == st.fields()
                assert fresh.legal() == st.legal()
                assert fresh.to_move() == st.to_move() and fresh.style == st.style
                continue
            if st.to_move() == CHANCE:
                sample_all(st, rng)      # after a remix
                continue
            acts = st.legal_actions()
            st.apply_action(acts[rng.randrange(len(acts))])


def test_end_while_towering_is_undone_directly():
    st = new(variant=4)
    rng = Rng(12)
    sample_all(st, rng)
    moves = [a for a in st.legal_actions() if a < 4096]
    st.apply_action(moves[0])
    before = st.fields()
    st.apply_action(END)
    assert st.to_move() == OVER
    st.undo()
    assert st.to_move() == 0 and st.undos == 1
    before["undos"] = 1
    assert st.fields() == before
    fresh = new(variant=4)
    for a, ch in st.history():
        fresh.apply_action(a)
    assert fresh.legal() == st.legal()


@pytest.mark.parametrize("opts", [{}, {"variant": 4}, {"variant": 4, "quick": 1}])
def test_undo_after_the_deal_matches_a_fresh_replay(opts):
    # undo keeps the position after the opening deal and replays only the
    # moves: the result must be what replaying the whole history gives
    st = new(**opts)
    rng = Rng(31)
    sample_all(st, rng)
    dealt = len(st.history())
    played = []
    for _ in range(6):
        moves = [a for a in st.legal_actions() if a not in (END, REMIX)]
        if not moves:
            break
        a = moves[rng.randrange(len(moves))]
        st.apply_action(a)
        played.append(a)
        sample_all(st, rng)
    for k in range(3):
        st.undo()
        fresh = new(**opts)
        for a, ch in st.history():
            fresh.apply_action(a)
        assert fresh.fields()["grid"] == st.fields()["grid"]
        assert fresh.fields().get("field") == st.fields().get("field")
        assert fresh.legal() == st.legal()
    # and going back into the deal itself still works
    while len(st.history()) > dealt - 3:
        st.undo()
    assert st.to_move() == CHANCE
    sample_all(st, Rng(31))
    assert st.to_move() == 0


@pytest.mark.parametrize("opts", [{}, {"variant": 4, "quick": 1}])
def test_a_deal_history_with_its_redos_replays_to_the_same_grid(opts):
    redos = 0
    for seed in (1, 2, 3):
        st = new(**opts)
        rng = Rng(seed)
        sample_all(st, rng)
        toks = [st.token(a) for a, c in st.history() if c]
        redos += toks.count("=redo")
        assert toks.count("=ok") - toks.count("=redo") <= 4
        again = new(**opts)
        for t in toks:
            again.apply(t)
        assert again.fields()["grid"] == st.fields()["grid"]
        assert again.to_move() == 0 and again.history() == st.history()
    assert redos > 0        # the deals above did redo some proposals


def _history_by_tokens(st):
    h = st.hist
    return " ".join(st.token(((h[i] << 8) | h[i + 1]) & 0x7FFF)
                    for i in range(0, len(h), 2))


@pytest.mark.parametrize("board", [False, True])
def test_history_answer_is_every_actions_token(board, request):
    # on a board the names go into one bytearray, on CPython into a list
    if board:
        request.getfixturevalue("board_line")
    import engine.ice_solo as ice
    # the history's answer reads actions by their bytes: the layout it needs
    assert ice.REMIX == 16 << 8 and ice.TARGET == (16 << 8) + 104
    assert len(ice.TOK) == 70 and ice.TOK[ice.DEAL_REDO - ice.REMIX] == "=redo"
    # Game.history_text writes the answer without Game.token: it
    # must say exactly what Game.token says, for the deal (pieces, =ok,
    # =redo), the scatter (=-), towering moves, a remix and its @ cells,
    # nesting moves and the style judgement
    sess = stuck_session(1)
    sess.handle("play remix")
    st = sess.state
    assert "remix @" in st.history_text()
    for s in (sess, Session(5)):
        if s is not sess:
            s.handle("new ice_solo seed=5")
            for _ in range(40):
                legal = s.handle("legal")[2:].split()
                s.handle("play " + legal[len(legal) // 3])
        st = s.state
        text = s.handle("history")
        assert text == "= " + _history_by_tokens(st) + "\n\n"
        assert "=ok" in text or "=-" in text
    st = new(deal=grid_str(latin_grid(C5, 5)))
    st.apply("style-yes")
    assert st.history_text() == "style-yes" and new().history_text() == ""
    # after towering a board has dropped the tower module and its names:
    # field cells past row 5 are then spelt from the game's own string
    import engine.ice_solo as ice
    st = sess.state
    kept = (ice._CN, ice._CD)
    ice._CN = ice._CD = None
    try:
        text = st.history_text()
        assert text == _history_by_tokens(st)
        assert any(t[1] in "678" or t[4] in "678"
                   for t in text.split() if len(t) == 5 and t[2] == "-")
    finally:
        ice._CN, ice._CD = kept


@pytest.mark.parametrize("opts", ["", "variant=4", "variant=4 quick=1"])
def test_undo_in_the_opening_deal_or_scatter_is_refused_and_changes_nothing(opts):
    s = Session(3, auto=False)
    s.handle(("new ice_solo seed=3 " + opts).strip())
    for _ in range(7):
        assert s.handle("sample").startswith("= ")
    before = s.state.serialize()
    assert s.handle("undo") == "? nothing to undo\n\n"
    assert s.state.serialize() == before and s.state.to_move() == CHANCE


def _plain_render(g):
    """The picture as first written: text of the field and grid, split and
    formatted per cell (engine/ice_solo_show.py must say the same)."""
    lines = []
    w = g.width
    if g.lo is not None:
        lines.append("field:")
        cells = g.field_text().split("/")
        for r in range(8):
            row = []
            for c in range(8):
                x = cells[r * 8 + c]
                if x == "-":
                    row.append("  .  ")
                elif len(x) == 2:
                    row.append("  %s " % x)
                else:
                    row.append(x + " ")
            lines.append("%d %s" % (r + 1, "".join(row)))
        lines.append("grid:")
    cells = g.grid_text().split("/")
    for r in range(5):
        lines.append("%d %s" % (r + 1, " ".join(
            ["%-7s" % cells[r * w + c] for c in range(w)])))
    b = g.breakdown()
    lines.append("%s  score %d  remixes %d  undos %d" % (
        g.phase_name(), b["total"], g.remixes, g.undos))
    return "\n".join(lines)


@pytest.mark.parametrize("board", [False, True])
@pytest.mark.parametrize("opts", ["", "variant=4", "variant=4 quick=1"])
def test_show_is_the_plain_picture(opts, board, request):
    # on a board the picture goes into one bytearray, on CPython into a list
    if board:
        request.getfixturevalue("board_line")
    s = Session(11, auto=False)
    s.handle(("new ice_solo seed=11 " + opts).strip())
    rng = Rng(11)
    for i in range(400):
        st = s.state
        if i % 7 == 0:
            assert s.handle("show") == "= " + _plain_render(st) + "\n\n"
        if st.to_move() == OVER:
            break
        if st.to_move() == CHANCE:
            s.handle("sample")
            continue
        legal = s.handle("legal")[2:].split()
        s.handle("play " + legal[rng.randrange(len(legal))])
    assert s.handle("show") == "= " + _plain_render(s.state) + "\n\n"
    # a tall stack (wider than its 7 columns) and an empty cell
    cells = latin_grid(C5, 5)
    st = new(deal=grid_str([cells[0] + cells[1], "-"] + cells[2:]))
    assert st.render() == _plain_render(st)
    assert st.render().startswith("1 r3r2r1y3y2y1 -       g3g2g1  ")


def test_token_reading_matches_the_full_notation_reader():
    # Game.action reads the usual forms itself and leaves the rest to
    # engine/ice_solo_text.py (engine.pieces): both must agree everywhere
    import engine.ice_solo as ice
    import engine.ice_solo_text as text
    assert not hasattr(ice, "parse_cell") and not hasattr(ice, "NotationError")
    st = new(variant=4)
    acts = (list(range(4096)) + [REMIX, END, STYLE_YES, STYLE_NO, 4163, 4164, 4165]
            + [4100 + p for p in range(36) if p & 3] + [4200 + t for t in range(64)])
    for a in acts:
        tok = st.token(a)
        assert st.action(tok) == text.action(st, tok) == a
    for tok in ("b3", "r3", "=", "=r", "=r0", "=x1", "=r4", "@", "@i1", "@a9", "@a10",
                "a1-", "a9-a1", "a1-a0", "i1-a1", "a10-a1", "-a1", "A1-B2", "",
                "=OK", "End", "a1--b2", "a1-b2c", "style-", "=-x"):
        with pytest.raises(IllegalMove) as fast:
            st.action(tok)
        with pytest.raises(IllegalMove) as full:
            text.action(st, tok)
        assert str(fast.value) == str(full.value)


def test_a_towering_move_exists_exactly_when_a_loose_piece_has_a_target():
    # has_move skips the line of sight (a piece's nearest target is never
    # blocked): it must agree with the full move list everywhere
    import engine.ice_solo_tower as tw
    seen = set()
    for seed in range(40):
        sess = Session(seed)
        sess.handle("new ice_solo variant=4 seed=%d" % seed)
        st = sess.state
        rng = Rng(seed)
        for _ in range(200):
            if st.phase != 2:           # P_TOWER
                break
            moves = tw.tower_moves(st, False, -1, 0, 8)
            assert bool(tw.has_move(st)) == bool(moves)
            seen.add(bool(moves))
            legal = [t for t in sess.handle("legal")[2:].split() if t != "end"]
            sess.handle("play " + legal[rng.randrange(len(legal))])
    # and on sparse fields where one colour is all that is left
    st = new(variant=4)
    sample_all(st, Rng(1))
    for p in range(64):
        st.lo[p] = st.hi[p] = NONE
    for cells, want in (({0: "r3", 63: "r2"}, False), ({0: "r3", 63: "y2"}, True),
                        ({0: "r3", 1: "g2", 63: "g2"}, True),
                        ({0: "r3", 9: "y1"}, False)):
        for p in range(64):
            st.lo[p] = st.hi[p] = NONE
        for c, x in cells.items():
            st.lo[c] = parse_piece(x)
        assert bool(tw.has_move(st)) == want == bool(tw.tower_moves(st, False, -1, 0, 8))
    st.lo[0] = parse_piece("r3")
    st.hi[0] = parse_piece("b2")
    for small, want in (("b1", False), ("g1", True)):
        st.lo[9] = parse_piece(small)
        assert bool(tw.has_move(st)) == want == bool(tw.tower_moves(st, False, -1, 0, 8))
    assert seen == {True, False}


# ---- legal_text: the whole legal answer written at once while towering ---------
class _BoardLine(bytearray):
    """A bytearray that takes a str in as it is, as a board's does."""

    def __iadd__(self, x):
        self.extend(x)
        return self

    def extend(self, x):
        bytearray.extend(self, x.encode() if isinstance(x, str) else x)


@pytest.fixture
def board_line(monkeypatch):
    # the modules as the game imports them (sys.modules: other tests may
    # have loaded them afresh, leaving the package's attributes behind)
    import importlib
    for m in ("engine.ice_solo", "engine.ice_solo_tower", "engine.ice_solo_show"):
        monkeypatch.setattr(importlib.import_module(m), "bytearray",
                            _BoardLine, raising=False)


def _check_text(st):
    t = st.legal_text()
    if st.fields()["phase"] == "towering" and st.to_move() == 0:
        assert t == " ".join(st.legal())
        return 1
    assert t is None
    return 0


def _play_checking_text(st, rng, n):
    checked = 0
    for _ in range(n):
        if st.to_move() != 0 or st.fields()["phase"] != "towering":
            break
        checked += _check_text(st)
        moves = [t for t in st.legal() if t != "end"]
        if moves == ["remix"]:
            break
        st.apply(moves[rng.randrange(len(moves))])
        if rng.randrange(4) == 0:
            st.undo()
            checked += _check_text(st)
        if rng.randrange(5) == 0:
            st = registry.deserialize(st.serialize())
    return checked + _check_text(st)


def test_legal_text_is_the_joined_tokens_after_moves_undo_remix_and_load(
        board_line):
    checked = 0
    for seed in (1, 2):
        st = new(variant=4)
        sample_all(st, Rng(seed))
        checked += _play_checking_text(st, Rng(seed + 7), 40)
        sess = stuck_session(seed)          # random moves up to a remix
        st = sess.state
        assert st.legal_text() == "remix end"
        sess.handle("play remix")
        while st.to_move() == CHANCE:
            assert st.legal_text() is None
            sess.handle("sample")
        checked += _play_checking_text(st, Rng(seed + 9), 40)
    assert checked >= 80


def test_legal_text_is_none_outside_towering(board_line):
    st = new(variant=4)
    assert st.legal_text() is None             # the scatter: chance
    sample_all(st, Rng(5))
    assert st.legal_text() == " ".join(st.legal())
    st.apply("end")
    assert st.legal_text() is None and st.legal() == []
    st = new(variant=4, quick=1)
    assert st.legal_text() is None             # the deal: chance
    sample_all(st, Rng(5))
    assert st.fields()["phase"] == "nesting"
    assert st.legal_text() == " ".join(st.legal())
    st.apply("end")
    assert st.legal_text() is None and st.legal() == []


def test_legal_text_leaves_cpython_to_the_protocol():
    # CPython's bytearray takes no str: None, the protocol joins the tokens
    st = new(variant=4)
    sample_all(st, Rng(6))
    assert st.legal() != ["end"] and st.legal_text() is None
    assert stuck_session(3).state.legal_text() == "remix end"
    st = new()
    sample_all(st, Rng(6))
    assert st.legal() != ["end"] and st.legal_text() is None


@pytest.mark.parametrize("opts", [{}, {"variant": 4, "quick": 1}])
def test_nesting_legal_text_is_the_joined_tokens_in_reading_order(
        opts, board_line):
    checked = 0
    for seed in range(3):
        st = new(**opts)
        rng = Rng(seed + 30)
        sample_all(st, rng)
        for _ in range(80):
            if st.to_move() != 0 or st.style_due():
                break
            acts = st.legal_actions()
            assert acts[-1] == END and acts[:-1] == sorted(acts[:-1])
            assert len(acts) > 1
            assert st.legal_text() == " ".join(st.legal())
            checked += 1
            st.apply_action(acts[rng.randrange(len(acts) - 1)])
            if rng.randrange(4) == 0:
                st.undo()
    assert checked >= 60


def test_legal_text_leaves_the_style_judgement_to_the_protocol(board_line):
    cols = "rygbp"
    grid = "/".join(cols[(r + c) % 5] + "3" + cols[(r + c) % 5] + "2" +
                    cols[(r + c) % 5] + "1" for r in range(5) for c in range(5))
    st = new(deal=grid)
    assert st.style_due() and st.legal_text() is None
    assert st.legal() == ["style-yes", "style-no"]


def _remix_game_steps(seed, steps):
    """A towering game played at random with remixes and undos (a take-back
    three times in ten), as the state after each step."""
    rng = Rng(seed)
    st = new(variant=4)
    for _ in range(steps):
        t = st.to_move()
        if t == OVER:
            return
        if t == CHANCE:
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.weighted([w for _, w in outs])][0])
        elif rng.randrange(10) < 3 and any(not h & 0x80 for h in st.hist[0::2]):
            st.undo_move()
        else:
            acts = [a for a in st.legal_actions() if a != END]
            if not acts:
                return
            st.apply_action(acts[rng.randrange(len(acts))])
        yield st


def test_save_and_load_are_byte_exact_through_remixes_and_undos():
    # loading once replayed every remix through the memo, adding back the
    # entries it had dropped, which reordered it and lost outcomes
    # remembered from undone remixes (seed 1 went wrong at step 348)
    remixes = 0
    for st in _remix_game_steps(1, 420):
        data = st.serialize()
        loaded = registry.deserialize(data)
        assert loaded.serialize() == data, len(st.hist)
        remixes += st.remixes
    assert remixes


def test_a_remix_undone_and_made_again_after_a_load_lands_the_same():
    made = 0
    for st in _remix_game_steps(1, 420):
        if not (st.to_move() == 0 and REMIX in st.legal_actions()):
            continue
        st.apply_action(REMIX)
        sample_all(st, Rng(len(st.hist)))
        landed = (st.field_text(), st.grid_text())
        st.undo_move()
        loaded = registry.deserialize(st.serialize())
        loaded.apply_action(REMIX)
        sample_all(loaded, Rng(7 + len(loaded.hist)))   # another generator
        assert (loaded.field_text(), loaded.grid_text()) == landed
        made += 1
    assert made >= 5
