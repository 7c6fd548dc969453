"""The two-player Bag of Ice solver (tools/bag_of_ice_solver.py) on small
targets against an independent brute force, the policy data module it
writes, the device bot that plays it and the advice view that shows it."""
import itertools
import random
from functools import lru_cache

import numpy as np
import pytest

from engine import registry
from engine import bag_of_ice_policy as pol
from engine.bag_of_ice import DECIDE, CHOOSE, DRAW_A, STOP
from lib import palette as P
from lib import font
from lib import screen_bag_of_ice as S
from tools import bag_of_ice_solver as solver
from tests.test_screen_bag_of_ice import (open_game, pass_handoff, draw, scr,
                                          lit, number_pixels, BOARDS)


@pytest.fixture(scope="module")
def turn():
    return solver.Turn()


@pytest.fixture(scope="module")
def small(turn):
    s = solver.Solver(8, turn)
    s.solve()
    return s


# ---- an independent brute force, from the rulings alone ---------------------------
# the bag's non-red pyramids by size (colour letters), one red per size
BAG = {1: "yyggccpp", 2: "ypccgg", 3: "ygcp"}
MONO = {"y": 20, "p": 20, "g": 15, "c": 15}


@lru_cache(maxsize=None)
def best(drawn):
    """Best arrangement of ``drawn`` ((colour, size) pairs), by trying every
    way to make trees of one large, one medium and one small."""
    ls = [c for c, z in drawn if z == 3]
    ms = [c for c, z in drawn if z == 2]
    ss = [c for c, z in drawn if z == 1]
    top = sum(z for _, z in drawn)
    for k in range(1, min(len(ls), len(ms), len(ss)) + 1):
        for L in itertools.combinations(range(len(ls)), k):
            for M in itertools.permutations(range(len(ms)), k):
                for Sm in itertools.permutations(range(len(ss)), k):
                    v = top
                    for i, j, h in zip(L, M, Sm):
                        c = ls[i]
                        tree = MONO[c] if ms[j] == c == ss[h] else 10
                        v += tree - 6
                    top = max(top, v) if v > top else top
    return top


FACES = ((1, 0), (2, 0), (3, 0), (1, 2), (1, 3), (2, 3))


def brute(target, p1=None, p2=None, sweeps=400):
    """Start-of-turn win tables (V1, V2) by value iteration over raw draws
    (no merging): V1[a][b] is player 1's chance to win when to move with a
    against b. A policy ``p(a, b, drawn, face)`` gives True to stop (face
    None) or the size taken; None plays optimally."""
    Vs = [[[0.5] * target for _ in range(target)] for _ in range(2)]
    pols = (p1, p2)

    def turn(who, a, b):
        policy = pols[who]
        other = Vs[1 - who]

        @lru_cache(maxsize=None)
        def dec(drawn):
            v = best(drawn)
            if a + v >= target:
                return 1.0
            draw = sum(face(drawn, f) for f in range(6)) / 6
            if not drawn:
                return draw
            stop = 1.0 - other[b][a + v]
            if policy is None:
                return max(stop, draw)
            return stop if policy(a, b, drawn, None) else draw

        def size(drawn, z):
            left = list(BAG[z])
            for c, y in drawn:
                if y == z:
                    left.remove(c)
            n = len(left) + 1
            out = (1.0 - other[b][a]) / n          # the red: a bust
            for c in left:
                out += dec(tuple(sorted(drawn + ((c, z),)))) / n
            return out

        def face(drawn, f):
            lo, hi = FACES[f]
            if not hi:
                return size(drawn, lo)
            if policy is None:
                return max(size(drawn, lo), size(drawn, hi))
            return size(drawn, policy(a, b, drawn, f))
        return dec(())
    for _ in range(sweeps):
        ch = 0.0
        for who in (0, 1):
            for a in range(target):
                for b in range(target):
                    v = turn(who, a, b)
                    ch = max(ch, abs(v - Vs[who][a][b]))
                    Vs[who][a][b] = v
        if ch < 1e-13:
            break
    return np.array(Vs[0]), np.array(Vs[1])


def test_merged_states_are_the_colour_swaps_and_keep_the_engine_value(small):
    t = small.t
    from engine.bag_of_ice_score import value, counts
    # yellow with purple, green with cyan: 78 x 171 merged states of 46656
    assert [[t.colours[j] for j in cl] for cl in t.classes] == [[2, 6], [3, 4]]
    assert t.n == 78 * 171 and sum(len(m) for m in t.members) == 46656
    for i in range(0, t.n, 7):
        for v in t.members[i]:
            assert value(counts(t.codes(v))) == t.val[i]
    # a draw always adds value: successors come first
    for z in range(3):
        for k in range(4):
            has = t.cnt[:, z, k] > 0
            assert (t.nxt[has, z, k] < np.arange(t.n)[has]).all()


@pytest.mark.parametrize("target", [3, 4])
def test_the_solve_agrees_with_a_brute_force(turn, target):
    s = solver.Solver(target, turn)
    rep = s.solve()
    assert rep["residual"] < 1e-12
    want, again = brute(target)
    assert np.abs(want - again).max() < 1e-12
    assert np.abs(s.V - want).max() < 1e-9, (s.V, want)


def test_exact_evaluation_agrees_with_a_brute_force(turn):
    # stop at 2 taking the lower size, against stop at 3 taking the higher
    target = 4
    s = solver.Solver(target, turn)
    t = s.t

    def fixed(n, hi):
        sizes = np.full(t.n, 14 if hi else 0, np.uint8)

        def p(a, b):
            return sizes, t.below[n]
        return p

    def rule(n, hi):
        def p(a, b, drawn, f):
            if f is None:
                return best(drawn) >= n
            return FACES[f][1 if hi else 0]
        return p
    got1, got2 = s.evaluate(fixed(2, False), fixed(3, True))
    want1, want2 = brute(target, rule(2, False), rule(3, True))
    assert np.abs(got1 - want1).max() < 1e-9 and np.abs(got2 - want2).max() < 1e-9
    assert abs(got1[0, 0] - got2[0, 0]) > 1e-3       # not the same policy


def test_evaluating_optimal_against_itself_gives_the_solve(small):
    p = solver.Policies(small).optimal()
    V1, V2 = small.evaluate(p, p)
    assert np.abs(V1 - small.V).max() < 1e-12 and np.abs(V2 - small.V).max() < 1e-12
    # and optimal beats a fixed stopping rule, from either seat
    sizes = np.zeros(small.t.n, np.uint8)

    def q(a, b):
        return sizes, small.t.below[4]
    first, second, mean = solver.match(*small.evaluate(p, q))
    assert first > small.V[0, 0] - 1e-12 and second > 1 - small.V[0, 0] - 1e-12


# ---- the policy module ------------------------------------------------------------
def test_the_policy_module_is_what_the_solver_writes():
    c, W = solver.load_policy()
    assert (len(pol.STOP), len(pol.ADJ), len(pol.SIZE), len(pol.WIN)) == (3600, 315, 119, 3600)
    with open(solver.POLICY_PY) as f:
        text = f.read()
    assert solver.policy_source(c, W / 255.0, 60) == text
    # a start-of-turn chance is 1/255ths of a chance, the first player ahead
    assert 0 < W[0, 0] < 255 and W[0, 0] > 255 // 2


def engine_move(st):
    """The compact policy's move worked out from the module's bytes."""
    k = 0
    for p in st.drawn:
        k += {1: 1, 2: 9, 3: 63}[p & 3]
    if st.phase == CHOOSE:
        f = st.face
        i = (f - 3) * 315 + k
        lo, hi = ((1, 2), (1, 3), (2, 3))[f - 3]
        return (hi if pol.SIZE[i // 8] >> (i % 8) & 1 else lo) + 1
    if not st.drawn:
        return DRAW_A
    a = st.points[st.turn]
    b = st.points[1 - st.turn]
    v = st.turn_points()
    if a + v >= 60 or v >= pol.STOP[a * 60 + b] + pol.ADJ[k] - 128:
        return STOP
    return DRAW_A


def random_positions(n, players=2, target=60, seed=5):
    """States at decisions, drawn and scores at random."""
    rng = random.Random(seed)
    pieces = [c << 2 | z for c in (2, 3, 4, 6) for z in (1, 2, 3)
              for _ in range({(2, 1): 2, (6, 1): 2, (3, 1): 2, (4, 1): 2,
                              (3, 2): 2, (4, 2): 2}.get((c, z), 1))]
    for _ in range(n):
        st = registry.new("bag_of_ice", ["players=%d" % players, "target=%d" % target])
        st.phase = DECIDE
        st.turn = rng.randrange(players)
        st.points = [rng.randrange(target) for _ in range(players)]
        st.drawn = bytearray(rng.sample(pieces, rng.randrange(12)))
        if rng.random() < 0.5:
            st.phase = CHOOSE
            st.face = rng.choice((3, 4, 5))
        yield st


def test_the_bot_plays_the_table_for_two_players_to_60():
    for st in random_positions(400):
        assert st.hint() == engine_move(st) == st.policy_move()
        if st.phase == DECIDE:
            assert st.bot_move() is None          # no bot seats here
            st.bots = 3
            assert st.bot_move() == st.hint()


@pytest.mark.parametrize("players,target", [(2, 50), (3, 60), (2, 61)])
def test_other_games_keep_the_rule(players, target):
    for st in random_positions(100, players, target):
        assert st.hint() == st.rule_move()
        assert st.advice() is None


def test_the_solver_models_the_device_policy(turn):
    # the solver's compact player makes the engine's moves
    s = solver.Solver(60, turn)
    c = solver.load_policy()[0]
    p = solver.Policies(s).compact(c)
    for st in random_positions(300, seed=8):
        a = st.points[st.turn]
        b = st.points[1 - st.turn]
        m, start = p(a, b)
        i = s.t.index_of(st.drawn)
        if st.phase == CHOOSE:
            hi = m[i] >> (st.face - 2) & 1
            lo_hi = ((1, 2), (1, 3), (2, 3))[st.face - 3]
            assert st.policy_move() == lo_hi[hi] + 1
        elif st.drawn and a + st.turn_points() < 60:
            stop = i < start or m[i] & 1
            assert (st.policy_move() == STOP) == bool(stop)


def test_advice_is_the_win_table_and_the_policy():
    for st in random_positions(200, seed=3):
        w, mv = st.advice()
        assert mv == st.policy_move()
        a = st.points[st.turn]
        b = st.points[1 - st.turn]
        if not st.drawn:
            assert w == pol.WIN[a * 60 + b]
        elif a + st.turn_points() >= 60:
            assert w == 255
        else:
            assert w == 255 - pol.WIN[b * 60 + a + st.turn_points()]


# ---- the advice view --------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_the_advice_view_on_a_known_turn(board):
    sim = open_game(board)
    pass_handoff(sim)
    draw(sim, "L", "y3")
    sim.advance(1200)
    st = sim.app.state
    assert list(st.drawn) == [0x0b] and st.turn_points() == 3
    w = 255 - pol.WIN[0 * 60 + 3]
    pct = (w * 100 + 127) // 255
    word = "DRAW" if engine_move(st) == DRAW_A else "STOP"
    sim.press("up")
    assert scr(sim).mode == S.ODDS
    sim.press("up")
    assert scr(sim).mode == S.ADVICE
    sim.advance(40)
    if board == "pico_8x8":
        x = 8 - font.number_width(pct)
        assert lit(sim, P.OK) == number_pixels(pct, x, 2, 8) | {(i, 0) for i in range(8)}
        sim.advance(1600)
        text = lit(sim, P.TEXT)
        assert {(i, 0) for i in range(8)} < text and not lit(sim, P.OK)
    else:
        x = (16 - font.number_width(pct)) // 2
        assert lit(sim, P.OK) == number_pixels(pct, x, 1)
        assert len(lit(sim, P.TEXT)) > 10 and word in ("DRAW", "STOP")
    sim.press("b")
    assert scr(sim).mode == S.TURN and st.phase == DECIDE and list(st.drawn) == [0x0b]


def test_no_advice_with_three_players():
    sim = open_game("pico_16x16", rolloff=("L", "S", "S"), players=3)
    pass_handoff(sim)
    sim.press("up")
    sim.press("up")
    sim.advance(60)
    assert scr(sim).mode == S.ADVICE and scr(sim).advice is None
    assert scr(sim).no_advice.text == "NO ADVICE" and P.REFUSE in sim.indices()


def test_the_advice_at_a_two_size_face_points_to_the_half():
    sim = open_game("pico_16x16")
    pass_handoff(sim)
    draw(sim, "L", "y3")
    sim.advance(1200)
    sim.rng.add("SM")
    sim.press("a")
    from tests.test_screen_bag_of_ice import wait_for
    wait_for(sim, lambda: scr(sim).mode == S.PICK)
    st = sim.app.state
    assert st.phase == CHOOSE
    want = engine_move(st)
    sim.press("up")
    assert scr(sim).mode == S.ADVICE
    sim.advance(40)
    arrow = ">" if want == 3 else "<"
    shown = lit(sim, P.HILITE)
    assert shown and all(x >= 6 for x, _ in shown)
    assert {(x, y) for x, y in shown if y < 8} == glyph_pixels(arrow, 6, 1)
    sim.press("b")
    assert scr(sim).mode == S.PICK and st.phase == CHOOSE


def glyph_pixels(ch, x, y):
    g = font.glyph(ch)
    return {(x + i, y + r) for r in range(5) for i in range(3)
            if g >> (14 - 3 * r - i) & 1}
