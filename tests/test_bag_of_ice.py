"""Bag of Ice: scripted turns through the protocol, refusals, the optimal
scoring against brute force, the odds against an independent exact
computation, the bot's strength, saves and undo."""
import itertools
import json
import math
from fractions import Fraction

import pytest

from engine import registry
from engine.protocol import Session
from engine.rng import Rng
from engine.state import CHANCE, OVER
from engine import bag_of_ice as boi


# the bag by the rulings, written out independently of the engine's table
BAG = ("r3 y3 g3 c3 p3 r2 y2 p2 c2 c2 g2 g2 "
       "r1 y1 y1 g1 g1 c1 c1 p1 p1").split()
NON_RED = [t for t in BAG if t[0] != "r"]
FACE_SIZES = {"S": (1,), "M": (2,), "L": (3,), "SM": (1, 2), "SL": (1, 3),
              "ML": (2, 3)}
PIPS = {"S": 1, "M": 2, "L": 3, "SM": 3, "SL": 4, "ML": 5}


def run(lines, seed=1, auto=True):
    """Send ``lines`` (``> cmd`` / ``= answer`` pairs in one text) and
    check every answer."""
    s = Session(seed, auto=auto)
    cmd = None
    for line in lines.strip().splitlines():
        line = line.strip()
        if line.startswith(">"):
            cmd = line[1:].strip()
            got = s.handle(cmd)
        else:
            assert got == line + "\n\n", "%s -> %r, expected %r" % (cmd, got, line)
    return s


def state(s):
    a = s.handle("state")
    assert a.startswith("= {"), a
    return json.loads(a[2:])


def start(players=2, extra="", first="SL"):
    """A session past the roll-off, player 1 (index 0) to move: player 1
    rolls ``first`` (pips 4) and the others roll S (1)."""
    s = Session(1)
    assert s.handle("new bag_of_ice players=%d %s" % (players, extra)).startswith("= ")
    if players > 1:
        assert s.handle("play " + first).startswith("= ")
        for _ in range(players - 1):
            assert s.handle("play S").startswith("= ")
    return s


def play(s, *toks):
    for t in toks:
        a = s.handle("play " + t)
        assert a.startswith("= "), (t, a)


# ---- scripted turns ----------------------------------------------------------

def test_a_scripted_two_player_game():
    run("""
    > new bag_of_ice players=2 target=30 seed=4
    = bag_of_ice seed=4
    > legal
    = S:1/6 M:1/6 L:1/6 SM:1/6 SL:1/6 ML:1/6
    > play M
    = M
    > play ML
    = ML
    > to_move
    = 1
    > legal
    = draw
    > play stop
    ? nothing is drawn yet: a turn starts with draw
    > play draw
    = draw
    > play ML
    = ML
    > legal
    = size2 size3
    > play size3
    = size3
    > legal
    = r3:1/5 y3:1/5 g3:1/5 c3:1/5 p3:1/5
    > play y3
    = y3
    > legal
    = draw stop
    > play draw
    = draw
    > play M
    = M
    > legal
    = r2:1/7 y2:1/7 g2:2/7 c2:2/7 p2:1/7
    > play y2
    = y2
    > play draw
    = draw
    > play S
    = S
    > legal
    = r1:1/9 y1:2/9 g1:2/9 c1:2/9 p1:2/9
    > play y1
    = y1
    > score
    = 0 0
    > play stop
    = stop
    > score
    = 0 20
    > to_move
    = 0
    > play draw
    = draw
    > play L
    = L
    > play r3
    = r3
    > score
    = 0 20
    > to_move
    = 1
    > play draw
    = draw
    > play SM
    = SM
    > play size1
    = size1
    > play p1
    = p1
    > play stop
    = stop
    > score
    = 0 21
    """)


def test_state_fields_through_a_turn():
    s = start(3)
    f = state(s)
    assert f["phase"] == "decide" and f["turn"] == 0 and f["drawn"] == []
    assert list(s.state.rolloff) == [4, 0, 0] and "rolloff" not in f
    play(s, "draw", "SL")
    f = state(s)
    assert f["phase"] == "choose" and f["face"] == "SL" and f["to_move"] == 0
    play(s, "size3", "g3", "draw", "M", "g2", "draw", "S", "g1", "draw", "L")
    f = state(s)
    assert f["phase"] == "draw" and s.state.size == 3 and f["face"] == "L"
    assert f["drawn"] == ["g3", "g2", "g1"] and f["turn_points"] == 15
    assert "g3" not in f["bag"] and f["bag"].count("g2") == 1
    assert f["bag"].count("r1") == 1 and len(f["bag"]) == 18
    play(s, "c3", "stop")
    f = state(s)
    assert f["scores"] == [18, 0, 0] and f["turn"] == 1 and f["phase"] == "decide"
    assert f["drawn"] == [] and "g3" in f["bag"] and f["turns"] == 1
    assert list(s.state.last_drawn) == [15, 14, 13, 19] and s.state.last_bust == 0xFF
    play(s, "draw", "S", "c1", "draw", "S", "r1")
    f = state(s)
    assert f["scores"] == [18, 0, 0] and f["turn"] == 2 and f["turns"] == 2
    st = s.state
    assert st.last_bust == 1 and bytes(st.last_drawn) == bytes((17, 1))


def test_the_target_ends_the_game_at_once():
    s = start(3, "target=20")
    play(s, "draw", "L", "p3", "draw", "M", "p2", "draw", "S", "p1")
    assert s.handle("to_move") == "= 0\n\n"
    play(s, "stop")
    f = state(s)
    assert f["to_move"] == "over" and f["phase"] == "done" and f["winner"] == 0
    assert f["scores"] == [20, 0, 0]
    assert s.handle("legal") == "= \n\n"
    assert s.handle("play draw") == "? the game is over\n\n"
    assert s.handle("hint") == "= none\n\n"


def test_stop_banks_the_best_arrangement_and_a_bust_scores_nothing():
    s = start(2)
    # y3 y2 y1 (20) + c3 g2 p1 (a mixed tree, 10) + y1 left over (1)
    play(s, "draw", "L", "y3", "draw", "M", "y2", "draw", "S", "y1",
         "draw", "L", "c3", "draw", "M", "g2", "draw", "S", "p1",
         "draw", "S", "y1")
    f = state(s)
    assert f["turn_points"] == 31
    v, trees, left = s.state.best()
    assert v == 31 and len(trees) == 2 and len(left) == 1
    trees = sorted(bytes(t) for t in trees)
    assert trees[0] == bytes((11, 10, 9)) and trees[1][:2] == bytes((19, 14))
    assert sorted((trees[1][2], left[0])) == [9, 25]     # y1 and p1: either way
    play(s, "draw", "M", "r2")            # bust: player 1 scores nothing
    f = state(s)
    assert f["scores"] == [0, 0] and f["turn"] == 1 and f["drawn"] == []
    assert s.state.last_bust == 2 and list(s.state.last_drawn)[-1] == 2
    assert len(s.state.last_drawn) == 8
    play(s, "draw", "SL", "size1", "c1", "draw", "M", "c2", "stop")
    assert state(s)["scores"] == [0, 3]


def test_two_size_choice_and_its_refusals():
    s = start(2)
    play(s, "draw", "ML")
    before = s.state.serialize()
    assert s.handle("legal") == "= size2 size3\n\n"
    for bad, msg in [("size1", "choose a size first: size2 or size3"),
                     ("draw", "choose a size first: size2 or size3"),
                     ("stop", "choose a size first: size2 or size3"),
                     ("y2", "it is a player's turn to decide, not chance's"),
                     ("S", "it is a player's turn to decide, not chance's")]:
        assert s.handle("play " + bad) == "? %s\n\n" % msg, bad
        assert s.state.serialize() == before
    play(s, "size2")
    assert s.handle("legal") == "= r2:1/7 y2:1/7 g2:2/7 c2:2/7 p2:1/7\n\n"
    assert s.handle("play y3") == "? the die shows ML: draw a pyramid of size 2\n\n"
    assert s.handle("play L") == "? a pyramid is being drawn, not a die rolled\n\n"
    assert s.handle("play stop") == ("? the die is rolling or a pyramid is being "
                                     "drawn: play the outcome or sample it\n\n")
    play(s, "g2", "draw", "M", "g2", "draw")
    assert s.handle("play g2") == "? the die is rolling: play a face (S M L SM SL ML) or sample it\n\n"
    play(s, "M")
    assert s.handle("play g2") == "? no g2 is left in the bag\n\n"
    assert s.handle("legal") == "= r2:1/5 y2:1/5 c2:2/5 p2:1/5\n\n"


def test_unknown_tokens_and_moves_out_of_turn_are_refused():
    s = start(2)
    before = s.state.serialize()
    for bad in ("xyzzy", "o1", "b2", "r4", "y", "size4", "SS", ""):
        a = s.handle("play " + bad) if bad else s.handle("play")
        assert a.startswith("? "), (bad, a)
        assert "internal" not in a
        assert s.state.serialize() == before
    assert s.handle("play o1").startswith("? unknown token 'o1': Bag of Ice moves are draw, stop")
    assert s.handle("play stop") == "? nothing is drawn yet: a turn starts with draw\n\n"
    assert s.handle("play size1") == "? no size to choose now: draw first\n\n"
    assert s.handle("play y1") == "? it is a player's turn to decide, not chance's\n\n"
    play(s, "draw")
    assert s.handle("play y1") == "? the die is rolling: play a face (S M L SM SL ML) or sample it\n\n"
    assert s.state.serialize() != before


@pytest.mark.parametrize("opts,msg", [
    ("players=0", "players=0: expected a whole number 1..12"),
    ("players=13", "players=13: expected a whole number 1..12"),
    ("players=two", "players=two: expected a whole number 1..12"),
    ("target=0", "target=0: expected a whole number 1..999"),
    ("target=1000", "target=1000: expected a whole number 1..999"),
    ("bots=4", "bots=4: expected seats 1..3, separated by commas, each once"),
    ("bots=0", "bots=0: expected seats 1..3, separated by commas, each once"),
    ("bots=1,1", "bots=1,1: expected seats 1..3, separated by commas, each once"),
    ("bots=1,,2", "bots=1,,2: expected seats 1..3, separated by commas, each once"),
    ("bots=01", "bots=01: expected seats 1..3, separated by commas, each once"),
    ("players=2 bots=3", "bots=3: expected seats 1..2, separated by commas, each once"),
    ("colour=red", "unknown option colour for bag_of_ice (options: players, target, bots)"),
])
def test_bad_options_are_refused_and_the_game_stays(opts, msg):
    s = start(2)
    play(s, "draw", "S", "y1")
    before = s.state.serialize()
    assert s.handle("new bag_of_ice " + opts) == "? %s\n\n" % msg
    assert s.state.serialize() == before


def test_options_and_bots():
    st = registry.new("bag_of_ice", ["players=12", "target=999", "bots=12,1,5"])
    assert st.players == 12 and st.target == 999
    assert [p for p in range(12) if st.is_bot(p)] == [0, 4, 11]
    assert state_of(st)["bots"] == [0, 4, 11]
    st = registry.new("bag_of_ice", None)
    assert (st.players, st.target, st.bots) == (3, 60, 0)


def state_of(st):
    return json.loads(json.dumps(st.fields()))


def test_roll_off_with_ties_rolls_again_among_the_tied_only():
    s = Session(1)
    s.handle("new bag_of_ice players=4")
    st = s.state
    assert st.phase == boi.ROLLOFF and st.turn == 0 and s.handle("to_move") == "= chance\n\n"
    play(s, "SM", "ML", "S", "ML")          # pips 3 5 1 5: players 2 and 4 tie
    assert st.phase == boi.ROLLOFF and st.turn == 1
    assert [st.in_rolloff(p) for p in range(4)] == [False, True, False, True]
    assert list(st.rolloff) == [0, 5, 0, 5]
    play(s, "L", "SM")                       # 3 and 3: again
    assert st.phase == boi.ROLLOFF and st.turn == 1 and list(st.rolloff) == [0, 3, 0, 3]
    play(s, "S")
    assert st.turn == 3 and list(st.rolloff) == [0, 1, 0, 3]
    play(s, "M")                             # 1 and 2: player 4 starts
    assert st.phase == boi.DECIDE and st.turn == 3 and st.rolling_off == 0
    assert list(st.rolloff) == [0, 0, 0, 2]
    assert s.handle("to_move") == "= 3\n\n" and s.handle("legal") == "= draw\n\n"
    # only chance has acted (the roll-off): there is no move to take back,
    # and the refusal leaves the roll-off's outcome as it was
    dealt = st.serialize()
    assert s.handle("undo") == "? nothing to undo\n\n"
    assert st.serialize() == dealt and st.phase == boi.DECIDE and st.turn == 3
    # undo (one action) does walk back into the roll-off
    st2 = registry.new("bag_of_ice", ["players=4"])
    for t in ("SM", "ML", "S", "ML", "L", "SM", "S"):
        st2.apply(t)
    data = st2.serialize()
    st2.apply("M")
    st2.undo()
    assert st2.serialize() == data and st2.phase == boi.ROLLOFF and st2.turn == 3


def test_every_roll_off_face_weighs_one_sixth():
    s = Session(1)
    s.handle("new bag_of_ice players=2")
    assert s.handle("legal") == "= S:1/6 M:1/6 L:1/6 SM:1/6 SL:1/6 ML:1/6\n\n"
    play(s, "ML", "ML")                      # a tie of two: both again
    assert s.state.phase == boi.ROLLOFF and s.state.turn == 0
    play(s, "S", "M")
    assert s.state.turn == 1 and s.state.phase == boi.DECIDE


def test_one_player_practice_counts_turns_to_the_target():
    s = Session(1)
    assert s.handle("new bag_of_ice players=1 target=25 seed=9") == "= bag_of_ice seed=9\n\n"
    st = s.state
    assert s.handle("to_move") == "= 0\n\n" and st.phase == boi.DECIDE
    play(s, "draw", "L", "p3", "draw", "M", "p2", "stop")    # 5
    play(s, "draw", "S", "r1")                                # bust
    assert st.turns == 2 and st.scores() == [5] and st.turn == 0
    play(s, "draw", "L", "p3", "draw", "M", "p2", "draw", "S", "p1", "stop")   # 20: 25
    f = state(s)
    assert f["to_move"] == "over" and f["winner"] == 0 and f["turns"] == 3
    assert f["scores"] == [25]
    assert s.handle("show") == "= *1:25 target 25\ndone 1 after 3 turns\n\n"


def test_reaching_the_target_mid_round_ends_the_game_before_the_others_play():
    s = start(3, "target=12")
    play(s, "draw", "L", "y3", "draw", "L", "c3", "stop")            # 6
    play(s, "draw", "M", "g2", "stop")                                # 2
    play(s, "draw", "S", "c1", "stop")                                # 1
    play(s, "draw", "L", "g3", "draw", "M", "c2", "stop")             # 5: 11
    assert state(s)["phase"] == "decide"
    play(s, "draw", "L", "y3", "draw", "L", "p3", "draw", "L", "g3", "stop")   # 9: 11
    play(s, "draw", "S", "y1", "draw", "M", "y2", "stop")             # 3: 4
    play(s, "draw", "S", "p1", "stop")                                # 11 + 1 = 12
    f = state(s)
    assert f["phase"] == "done" and f["winner"] == 0 and f["scores"] == [12, 11, 4]
    assert s.handle("to_move") == "= over\n\n"


# ---- a bag with a size run out (the rulings' re-roll and forced size) --------

@pytest.fixture
def small_bag(monkeypatch):
    """A bag without the red large and with one yellow large only: once y3
    is drawn, no large is left, which the standard bag never allows."""
    full = bytearray(boi.FULL)
    for p in (3, 15, 19, 27):            # r3 g3 c3 p3
        full[p] = 0
    from engine import bag_of_ice_odds as odds
    total = bytearray(odds.TOTAL)
    total[3] = 1
    for mod in (boi, odds):
        monkeypatch.setattr(mod, "FULL", bytes(full))
    monkeypatch.setattr(odds, "TOTAL", bytes(total))
    return bytes(full)


def test_an_empty_size_re_rolls_its_face_and_forces_the_other(small_bag):
    s = start(2)
    play(s, "draw", "L", "y3", "draw")
    # L is re-rolled: five faces left, a fifth each
    assert s.handle("legal") == "= S:1/5 M:1/5 SM:1/5 SL:1/5 ML:1/5\n\n"
    assert s.handle("play L").startswith("? ")
    play(s, "SL")                             # forced: smalls
    assert s.state.phase == boi.DRAW and s.state.size == 1
    assert s.handle("legal") == "= r1:1/9 y1:2/9 g1:2/9 c1:2/9 p1:2/9\n\n"
    play(s, "y1", "draw", "ML")
    assert s.state.phase == boi.DRAW and s.state.size == 2
    st = s.state
    assert st.odds() == exact_odds(list(st.drawn), small_bag)


# ---- optimal scoring against brute force -------------------------------------

PIECES = [(t[0], int(t[1])) for t in NON_RED]        # (colour letter, size)
TREE = {"y": 20, "p": 20, "g": 15, "c": 15}


def brute(ms, memo={}):
    """Best value of a multiset of pieces (a sorted tuple of (colour, size))
    over every partition into trees (an L, an M and an S) and leftovers,
    with no shortcut: the first large left is either left over or made
    into a tree with each medium and each small still there; with no large
    left, everything is left over."""
    if ms in memo:
        return memo[ms]
    larges = [i for i, x in enumerate(ms) if x[1] == 3]
    if not larges:
        best = sum(x[1] for x in ms)
    else:
        first = ms[larges[0]]
        rest = ms[:larges[0]] + ms[larges[0] + 1:]
        best = 3 + brute(rest)
        for i, m in enumerate(rest):
            if m[1] != 2:
                continue
            for j, s in enumerate(rest):
                if s[1] != 1:
                    continue
                left = tuple(x for k, x in enumerate(rest) if k != i and k != j)
                same = first[0] == m[0] == s[0]
                best = max(best, (TREE[first[0]] if same else 10) + brute(left))
    memo[ms] = best
    return best


def code(c, s):
    return "roygcbp".index(c) << 2 | s


def check_subsets(stride):
    """The solver against brute force on one in ``stride`` of the
    sub-multisets of the 18 non-red pyramids (pieces of a kind are alike,
    so each is taken once, not once per choice of the alike ones)."""
    from engine.bag_of_ice_play import best
    assert len(PIECES) == 18
    kinds = sorted(set(PIECES))
    per = [PIECES.count(x) for x in kinds]
    checked = 0
    for n, counts in enumerate(itertools.product(*[range(c + 1) for c in per])):
        if n % stride:
            continue
        key = []
        for kind, c in zip(kinds, counts):
            key += [kind] * c
        k = tuple(key)
        drawn = [code(c, s) for c, s in key]
        want = brute(k)
        # one arrangement that achieves it: the pieces, in trees of an
        # L, M and S and leftovers, worth exactly the maximum
        v, trees, left = best(bytes(drawn))
        assert v == want, k
        used = [p for t in trees for p in t] + list(left)
        assert sorted(used) == sorted(drawn)
        worth = sum(p & 3 for p in left)
        for t in trees:
            assert [p & 3 for p in t] == [3, 2, 1]
            cs = {p >> 2 for p in t}
            worth += TREE["roygcbp"[t[0] >> 2]] if len(cs) == 1 else 10
        assert worth == v, (k, trees, left)
        h = bytearray(28)
        for p in drawn:
            h[p] += 1
        assert boi.value(h) == want, k
        checked += 1
    return checked


def test_optimal_score_equals_brute_force_on_a_spread_of_subsets():
    # a prime stride, so that every kind's count varies across the sample
    assert check_subsets(11) == -(-2 ** 6 * 3 ** 6 // 11)


@pytest.mark.bench
def test_optimal_score_equals_brute_force_on_every_subset():
    assert check_subsets(1) == 2 ** 6 * 3 ** 6       # distinct multisets of the 18


# ---- the odds against an independent exact computation -------------------------

def size_odds(drawn, s, full=None):
    """(bust, gain) as Fractions of drawing a pyramid of size ``s`` and
    stopping, from the bag as the rulings state it and the brute-force
    scorer; None if the bag has no pyramid of that size."""
    full = full or boi.FULL
    kinds = []
    for p in range(28):
        if full[p] and p & 3 == s and full[p] > drawn.count(p):
            kinds.append((p, full[p] - drawn.count(p)))
    n = sum(k for p, k in kinds)
    if not n:
        return None
    have = tuple(sorted(("roygcbp"[p >> 2], p & 3) for p in drawn))
    now = brute(have)
    bust = Fraction(sum(k for p, k in kinds if p >> 2 == 0), n)
    gain = Fraction(0)
    for p, k in kinds:
        if p >> 2 == 0:
            gain -= Fraction(k, n) * now
        else:
            after = tuple(sorted(have + (("roygcbp"[p >> 2], s),)))
            gain += Fraction(k, n) * (brute(after) - now)
    return bust, gain


def exact_odds(drawn, full=None):
    """(bust, gain) as reduced (n, d), from the die and the bag as the
    rulings state them, with Fractions and the brute-force scorer."""
    faces = []
    for f, sizes in FACE_SIZES.items():
        opts = []
        for s in sizes:
            o = size_odds(drawn, s, full)
            if o:
                opts.append(o)
        if opts:           # a face with no size left is rolled again
            faces.append((min(o[0] for o in opts), max(o[1] for o in opts)))
    b = sum(x[0] for x in faces) / len(faces)
    g = sum(x[1] for x in faces) / len(faces)
    return [(b.numerator, b.denominator), (g.numerator, g.denominator)]


def test_odds_of_the_full_bag():
    st = registry.new("bag_of_ice", ["players=1"])
    # S 1/9, M 1/7, L 1/5; a two-size face takes the larger size's pile
    assert tuple(st.bust_odds()) == (43, 315)
    assert [tuple(x) for x in st.odds()] == exact_odds([])
    f = state_of(st)
    assert f["bust_odds"] == "43/315" and f["turn_points"] == 0
    b, g = exact_odds([])
    assert f["expected_gain"] == "%d/%d" % g


def test_odds_equal_an_independent_computation():
    rng = Rng(5)
    codes = [code(c, s) for c, s in PIECES]
    cases = [[], codes[:], [c for c in codes if c & 3 == 1],
             [c for c in codes if c & 3 == 3] + [c for c in codes if c & 3 == 2]]
    for _ in range(600):
        k = rng.randrange(19)
        pool = list(codes)
        rng.shuffle(pool)
        cases.append(pool[:k])
    st = registry.new("bag_of_ice", ["players=1"])
    for drawn in cases:
        st.drawn = bytearray(drawn)
        want = exact_odds(drawn)
        got = [tuple(x) for x in st.odds()]
        assert got == want, drawn
        assert st.bust_odds() == want[0] and st.expected_gain() == want[1]
        f = state_of(st)
        assert f["bust_odds"] == "%d/%d" % want[0]
        assert f["expected_gain"] == "%d/%d" % want[1]
        assert f["turn_points"] == brute(tuple(sorted(("roygcbp"[p >> 2], p & 3) for p in drawn)))
        # small ints only: a board never makes a big integer here
        assert all(abs(x) < 2 ** 30 for pair in got for x in pair)


def test_the_size_picked_on_a_two_size_face_has_the_higher_exact_gain():
    # the engine compares its gains as small-int cross products: checked
    # here against Fractions on random hands, for every two-size face
    rng = Rng(9)
    codes = [code(c, s) for c, s in PIECES]
    st = registry.new("bag_of_ice", ["players=1"])
    ties = 0
    for _ in range(300):
        pool = list(codes)
        rng.shuffle(pool)
        drawn = pool[:rng.randrange(16)]
        st.drawn = bytearray(drawn)
        st.phase = boi.CHOOSE
        for f in (3, 4, 5):              # SM SL ML
            st.face = f
            lo = boi.LO[f]
            hi = boi.HI[f]
            a = size_odds(drawn, lo)[1]
            b = size_odds(drawn, hi)[1]
            ties += a == b
            assert st.hint() == (hi + 1 if b > a else lo + 1), (drawn, f)
    assert ties < 900


def test_odds_through_the_protocol():
    s = start(2)
    play(s, "draw", "L", "y3", "draw", "M", "y2")
    f = state(s)
    b, g = exact_odds([boi_code("y3"), boi_code("y2")])
    assert f["bust_odds"] == "%d/%d" % b and f["expected_gain"] == "%d/%d" % g
    assert f["turn_points"] == 5


def boi_code(tok):
    return code(tok[0], int(tok[1]))


# ---- the bot ---------------------------------------------------------------------

def stop_at(n):
    """A fixed player: draws until the turn is worth ``n`` or stopping would
    reach the target; on a two-size face it takes the bot's size."""
    def move(st):
        if st.phase != boi.DECIDE:
            return st.hint()
        v = st.turn_points()
        if st.drawn and (v >= n or v >= st.target - st.points[st.turn]):
            return boi.STOP
        return boi.DRAW_A
    return move


def duel(seed, seat, opponent):
    """A two-player game to 60 on the State itself, the bot in ``seat``
    (the roll-off decides who starts); True if the bot wins."""
    rng = Rng(seed)
    st = registry.new("bag_of_ice", ["players=2", "bots=%d" % (seat + 1)])
    while True:
        t = st.to_move()
        if t == OVER:
            return st.winner == seat
        if t == CHANCE:
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.weighted([w for a, w in outs])][0])
        elif t == seat:
            st.apply_action(st.bot_move())
        else:
            assert st.bot_move() is None
            st.apply_action(opponent(st))


@pytest.mark.bench
def test_the_bot_beats_a_stop_at_10_player():
    games = 2000
    won = sum(duel(1000 + i, i & 1, stop_at(10)) for i in range(games))
    # one-sided exact binomial test against a fair coin
    p = sum(math.comb(games, k) for k in range(won, games + 1)) / 2 ** games
    print("\nbag_of_ice bot against stop-at-10: won %d of %d, one-sided p = %.3g"
          % (won, games, p))
    assert won > games // 2 and p < 0.01, (won, p)


def test_the_bot_follows_its_rules():
    # the one-step rule (two players to 60 play the solved policy instead:
    # tests/test_bag_of_ice_solver.py)
    st = registry.new("bag_of_ice", ["players=2", "bots=1,2"])
    st.apply("S")
    st.apply("L")                           # player 2 starts
    assert st.bot_move() == boi.DRAW_A      # nothing drawn: always draw
    st.apply("draw")
    assert st.bot_move() is None and st.hint() is None   # chance
    st.apply("SL")
    # a first draw: smalls gain 8/9, larges 12/5 (no bust loss yet)
    assert st.rule_move() == 4 and st.token(st.rule_move()) == "size3"
    st.apply("size3")
    st.apply("p3")
    st.apply("draw")
    st.apply("SM")
    # on a two-size face: the size whose expected gain is higher
    pick = st.rule_move()
    a = size_odds(list(st.drawn), 1)[1]
    b = size_odds(list(st.drawn), 2)[1]
    assert pick == (3 if b > a else 2)
    st.apply(st.token(pick))
    st.apply("y%d" % (pick - 1))
    # stop when the expected gain is not positive, else draw
    st.drawn = bytearray([11, 10, 9, 27, 26, 25, 19, 18, 17])   # three trees: 55
    assert st.turn == 1 and st.turn_points() == 55
    n, d = st.expected_gain()
    assert n < 0 and st.rule_move() == boi.STOP
    st.drawn = bytearray([25])
    assert st.expected_gain()[0] > 0 and st.rule_move() == boi.DRAW_A
    # an opponent close to the target: keep drawing towards the target
    st.drawn = bytearray([11, 10, 9, 27, 26, 25, 19, 18, 17])
    from engine import bag_of_ice_odds as odds
    st.points[0] = 60 - odds.CLOSE
    assert st.rule_move() == boi.DRAW_A
    st.points[0] = 60 - odds.CLOSE - 1
    assert st.rule_move() == boi.STOP
    # stopping that reaches the target always stops
    st.points[0] = 59
    st.points[1] = 60 - st.turn_points()
    assert st.rule_move() == boi.STOP


def test_bots_play_themselves_through_the_protocol():
    s = Session(7)
    a = s.handle("new bag_of_ice players=2 bots=1,2 seed=7")
    assert a.startswith("= bag_of_ice seed=7")
    # the session samples the roll-off and die itself only when told to;
    # the bots' own moves come with each answer
    for _ in range(3000):
        if s.state.to_move() == OVER:
            break
        a = s.handle("sample")
        assert a.startswith("= "), a
    assert s.state.to_move() == OVER and s.state.winner in (0, 1)
    assert max(s.state.scores()) >= 60


# ---- saves and undo ----------------------------------------------------------------

def walk(seed, players=3, steps=400):
    """States along a seeded random game (moves and outcomes at random)."""
    rng = Rng(seed)
    st = registry.new("bag_of_ice", ["players=%d" % players, "target=40"])
    out = []
    for _ in range(steps):
        t = st.to_move()
        if t == OVER:
            break
        if t == CHANCE:
            outs = st.chance_outcomes()
            a = outs[rng.weighted([w for a, w in outs])][0]
        else:
            acts = st.legal_actions()
            a = acts[rng.randrange(len(acts))]
        out.append((st.serialize(), st.fields(), st.render(), a))
        st.apply_action(a)
    out.append((st.serialize(), st.fields(), st.render(), None))
    return st, out


def test_saves_round_trip_and_undo_restores_every_step():
    for seed in range(12):
        st, seen = walk(seed, players=1 + seed % 4)
        # saves: every position comes back from its bytes
        for data, fields, text, a in seen:
            c = registry.deserialize(data)
            assert c.serialize() == data and c.fields() == fields and c.render() == text
        # undo, one action at a time, as far as the snapshots reach
        k = min(boi.Game.UNDO_DEPTH, len(seen) - 1)
        for i in range(1, k + 1):
            st.undo()
            data, fields, text, a = seen[-1 - i]
            assert st.serialize() == data and st.fields() == fields, (seed, i)
            assert st.render() == text


def test_undo_of_a_stop_and_of_a_bust():
    s = start(2, "target=30")
    play(s, "draw", "L", "y3", "draw", "M", "y2", "draw", "S", "y1")
    before = state(s)
    play(s, "stop")
    assert state(s)["scores"] == [20, 0]
    assert s.handle("undo") == "= stop\n\n"
    assert state(s) == before
    play(s, "draw", "L", "r3")
    assert state(s)["turn"] == 1 and s.state.last_bust == 3
    assert s.handle("undo") == "= draw\n\n"
    assert state(s) == before and s.state.last_bust == 0xFF
    play(s, "draw", "L", "g3", "stop")           # 20 + 3 = 23
    play(s, "draw", "M", "c2", "stop")
    play(s, "draw", "L", "p3", "draw", "M", "p2", "draw", "S", "p1", "stop")   # 43: wins
    f = state(s)
    assert f["winner"] == 0 and f["phase"] == "done"
    assert s.handle("undo") == "= stop\n\n"
    f = state(s)
    assert f["winner"] == -1 and f["phase"] == "decide" and f["scores"] == [23, 2]
    assert f["turn_points"] == 20


def test_bad_saves_are_refused():
    st = registry.new("bag_of_ice", ["players=2"])
    for t in ("S", "L", "draw", "L", "y3", "draw", "SM", "size1"):
        st.apply(t)
    data = st.serialize()
    head = len(data) - len(st._pack())
    body = bytearray(data[head:])
    assert registry.deserialize(data) == st
    for i, v in [(0, 5), (0, 7), (1, 2), (2, 9), (3, 3), (4, 1), (5, 7)]:
        bad = bytearray(body)
        bad[i] = v
        with pytest.raises(ValueError):
            registry.deserialize(data[:head] + bytes(bad))
    for extra in (b"\x01", b"\x0b", b"\x63"):      # a red, a second y3, junk
        with pytest.raises(ValueError):
            registry.deserialize(data + extra)
    with pytest.raises(ValueError):
        registry.deserialize(data[:head + 5])
