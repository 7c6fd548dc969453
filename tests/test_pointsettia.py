"""Pointsettia: scripted positions for the powers and their limits, scoring
on hand-built full plants, the state fields, undo, saves and the bot."""

import json

import pytest

from engine import registry
from engine.pointsettia import (Game, INDEX, NAMES, rim_owners, runs, totals,
                                parse_piece, MOVES)
from engine.protocol import Session
from engine.rng import Rng
from engine.state import IllegalMove, OVER


def new(**opts):
    return registry.new("pointsettia", opts)


def play(st, *toks):
    for t in toks:
        st.apply(t)
    return st


def plant_of(st):
    return st.fields()["plant"]


def full_plant(spec, fill="k1"):
    """A full plant (bytearray by position) from ``{name: token}``; every
    position not named holds ``fill`` (the root a w3 unless named)."""
    plant = bytearray(46)
    for i in range(46):
        plant[i] = parse_piece(fill)
    plant[0] = parse_piece("w3")
    for name, tok in spec.items():
        plant[INDEX[name]] = parse_piece(tok)
    return plant


def rim_text(plant):
    owner, _ = rim_owners(plant)
    return "".join("." if o == 0xFF else "gr"[o] for o in owner)


RIM_NAMES = [n for n in NAMES if len(n) == 4 and n != "root"]


# ---- positions and moves -------------------------------------------------

def test_names_and_clockwise_rim():
    assert NAMES[:4] == ("root", "0", "1", "2")
    assert len(NAMES) == 46 and len(RIM_NAMES) == 24
    assert RIM_NAMES[0] == "0lll" and RIM_NAMES[1] == "0llr"
    assert RIM_NAMES[-1] == "2rrr"
    assert RIM_NAMES == sorted(RIM_NAMES, key=lambda n: n.replace("l", "a").replace("r", "b"))


def test_opening_moves_and_fields():
    st = new()
    assert st.to_move() == 0
    legal = st.legal()
    # 12 kinds on each root child, plus the black power of every k
    # (a root child is 1 from the root); a clear piece there has no power
    assert len(legal) == 3 * (12 + 3)
    assert "k1@0!" in legal and "w3@2" in legal
    assert not any(">" in t for t in legal)
    f = st.fields()
    assert f["plant"] == {"root": "w3"}
    assert f["stash"] == {"g1": 4, "g2": 4, "g3": 4, "r1": 4, "r2": 4, "r3": 4,
                          "w1": 4, "w2": 4, "w3": 3, "k1": 4, "k2": 4, "k3": 4}
    assert f["rim"] is None and f["runs"] is None and f["last"] is None
    assert f["bots"] == []
    assert st.scores() == [0, 0]
    play(st, "r3@1")
    assert st.to_move() == 1
    f = st.fields()
    assert f["plant"] == {"root": "w3", "1": "r3"} and f["stash"]["r3"] == 3
    assert f["last"] == "r3@1"


def test_slots_need_a_parent_and_must_be_empty():
    st = new()
    for tok, why in (("g1@1l", "no parent"), ("g1@0lll", "no parent")):
        with pytest.raises(IllegalMove, match=why):
            st.apply(tok)
    play(st, "g1@1")
    with pytest.raises(IllegalMove, match="taken"):
        st.apply("r1@1")
    play(st, "r1@1r")
    assert "g2@1rl" in st.legal() and "g2@1l" in st.legal()


def test_malformed_tokens_are_refused_and_change_nothing():
    st = play(new(), "g1@1", "r2@1l")
    before = st.serialize()
    for tok in ("g4@1r", "x1@1r", "g1@root", "g1@3", "g1@1lrlr", "g1", "@1r",
                "w2@1lr>2", "w2@1lr>1lr", "w2@1lr>", "g1@1r!!", "g1@1r>"):
        with pytest.raises(IllegalMove):
            st.apply(tok)
        assert st.serialize() == before


def test_any_colour_by_either_player_and_stash_runs_out():
    st = new()
    for i in range(4):
        play(st, "g3@%d" % (i % 3) if i < 3 else "g3@0l")
    assert st.fields()["stash"]["g3"] == 0
    assert not any(t.startswith("g3@") for t in st.legal())
    with pytest.raises(IllegalMove, match="no g3 is left"):
        st.apply("g3@0r")


# ---- the clear power -----------------------------------------------------

def clear_setup():
    # g3 at 1, r2 at 1l, k1 at 1lr (other moves elsewhere)
    return play(new(), "g3@1", "r2@1l", "k1@1lr")


def test_clear_power_reach_is_the_pips():
    st = clear_setup()
    legal = st.legal()
    # w1 reaches the parent, w2 two up, w3 three up but never the root
    assert "w1@1lrl>1lr" in legal and "w1@1lrl>1l" not in legal
    assert "w2@1lrl>1l" in legal and "w2@1lrl>1" not in legal
    assert "w3@1lrl>1" in legal
    with pytest.raises(IllegalMove, match="reaches 2"):
        st.apply("w2@1lrl>1")
    with pytest.raises(IllegalMove, match="root"):
        st.apply("w3@1lrl>root")
    with pytest.raises(IllegalMove, match="root"):
        st.apply("w2@1r>root")   # 2 up is the root
    with pytest.raises(IllegalMove, match="only a clear"):
        st.apply("g2@1lrl>1lr")


def test_clear_power_onto_the_parent_swaps():
    st = play(clear_setup(), "w1@1lrl>1lr")
    p = plant_of(st)
    assert p["1lr"] == "w1" and p["1lrl"] == "k1" and p["1l"] == "r2"


def test_clear_power_shifts_the_path_and_leaves_side_children():
    st = play(clear_setup(), "g1@1ll", "r1@1r")
    play(st, "w2@1lrl>1l")
    p = plant_of(st)
    assert (p["1"], p["1l"], p["1lr"], p["1lrl"]) == ("g3", "w2", "r2", "k1")
    # the child off the path stays at its position, now under w2
    assert p["1ll"] == "g1" and p["1r"] == "r1"
    st.undo()
    play(st, "w3@1lrl>1")
    p = plant_of(st)
    assert (p["1"], p["1l"], p["1lr"], p["1lrl"]) == ("w3", "g3", "r2", "k1")
    assert p["1ll"] == "g1" and p["1r"] == "r1"


def test_clear_on_a_root_child_has_no_power():
    st = new()
    assert not any(t.startswith("w") and ">" in t for t in st.legal())
    with pytest.raises(IllegalMove, match="root"):
        st.apply("w3@0>root")


# ---- the black power -----------------------------------------------------

def test_black_power_reach_is_the_pips():
    st = play(new(), "g3@1", "r2@1l")
    legal = st.legal()
    assert "k1@2!" in legal and "k1@1r!" not in legal and "k2@1r!" in legal
    assert "k2@1ll!" not in legal and "k3@1ll!" in legal
    with pytest.raises(IllegalMove, match="2 from the root"):
        st.apply("k1@1r!")
    with pytest.raises(IllegalMove, match="only a black"):
        st.apply("w2@1r!")


def clockwise(p):
    """The pieces of plant ``p`` (name -> token) with no children, in
    clockwise order (names sorted with l before r: a walk round the plant)."""
    names = sorted(p, key=lambda n: "" if n == "root" else n.replace("l", "a").replace("r", "b"))
    return [p[n] for n in names
            if n != "root" and not any(m != n and m.startswith(n) for m in p)
            or n == "root" and len(p) == 1]


def is_rotation(a, b):
    return len(a) == len(b) and any(a[i:] + a[:i] == b for i in range(len(a)))


def test_black_power_reroots_keeping_clockwise_order():
    st = play(new(), "g1@0", "g2@1", "g3@2", "r1@1l", "r2@1r", "r3@0l", "w1@2r")
    play(st, "k3@1ll!")
    p = plant_of(st)
    # C (g2 at 1) is the root; its left subtree is 0, right 1, old root 2,
    # the old root's child 2 -> 2l and 0 -> 2r
    assert p == {"root": "g2", "0": "r1", "0l": "k3", "1": "r2", "2": "w3",
                 "2l": "g3", "2lr": "w1", "2r": "g1", "2rl": "r3"}
    assert st.fields()["stash"]["k3"] == 3


@pytest.mark.parametrize("branch", [0, 1, 2])
def test_rim_leaves_keep_their_clockwise_order_through_a_reroot(branch):
    # one branch down to the rim with distinct leaves, one depth-3 slot
    # left for the k3 whose power re-roots at that branch
    b = str(branch)
    others = [str(i) for i in range(3) if i != branch]
    st = play(new(), "w1@" + others[0], "k1@" + b, "w2@" + others[1],
              "k2@%sl" % b, "k2@%sr" % b, "k3@%sll" % b, "k3@%slr" % b,
              "k3@%srl" % b)
    for leaf, tok in zip(("lll", "llr", "lrl", "lrr", "rll", "rlr"),
                         ("g1", "g2", "g3", "r1", "r2", "r3")):
        play(st, "%s@%s%s" % (tok, b, leaf))
    # the walk as it would be with the k3 played without its power
    before = plant_of(st)
    before[b + "rr"] = "k3"
    before = clockwise(before)
    assert before[0] in ("w1", "g1") and len(before) == 9
    assert "k3@%srr!" % b in st.legal()
    play(st, "k3@%srr!" % b)
    after = plant_of(st)
    assert after["root"] == "k1" and after["2"] == "w3"
    assert is_rotation(before, clockwise(after))
    assert clockwise(after)[0] == "g1"   # the old left subtree comes first


def test_black_power_refused_past_distance_4():
    st = new()
    # a piece at distance 4 under 0, then a k under 1: re-rooting at 1
    # would put it at distance 5
    play(st, "g1@0", "g1@0l", "g1@0ll", "g1@0lll")
    legal = st.legal()
    assert "k1@1" in legal and "k1@1!" not in legal
    with pytest.raises(IllegalMove, match="past distance 4"):
        st.apply("k1@1!")
    # re-rooting at 0 itself is fine (its pieces come closer)
    assert "k3@0r!" in legal and "k1@0r!" not in legal
    play(st, "k2@0r!")
    p = plant_of(st)
    assert p == {"root": "g1", "0": "g1", "0l": "g1", "0ll": "g1", "1": "k2",
                 "2": "w3"}
    # and the freed slot 0lll is playable again, at distance 4 once more
    assert "r1@0lll" in st.legal()


# ---- scoring on hand-built full plants ------------------------------------
# Every position not named holds a k1 (a black leaf scores for nobody), so
# only the named pieces score. Rim index i is RIM_NAMES[i].

def game_with(plant):
    st = new()
    st.plant = plant
    st.moves = MOVES
    return st


def test_coloured_leaves_score_and_adjacent_ones_make_a_run():
    # 0lll g2, 0llr g3 under a clear 0ll: one run of 2, (2+3) x 2
    # (0lrl r1 under the black 0lr: 1 x (1 - 1) = 0)
    plant = full_plant({"0ll": "w1", "0lll": "g2", "0llr": "g3", "0lrl": "r1"})
    assert rim_text(plant) == "ggr" + "." * 21
    assert runs(plant) == [[0, 0, 2, 10], [1, 2, 1, 0]]
    assert totals(plant) == [10, 0]


def test_clear_leaves_are_scored_through_clear_paths():
    # 0 g3 with a clear path 0l, 0lr down to the clear leaves 0lrl, 0lrr;
    # 0ll is a r1 with clear leaves: r scores twice through one piece
    plant = full_plant({"0": "g3", "0l": "w2", "0lr": "w1", "0lrl": "w1",
                        "0lrr": "w3", "0ll": "r1", "0lll": "w1", "0llr": "w2"})
    assert rim_text(plant)[:5] == "rrgg."
    # r1 counted once, length 2; g3 once, length 2; 0's parent is the
    # clear root: no deduction
    assert runs(plant) == [[1, 0, 2, 2], [0, 2, 2, 6]]


def test_clear_path_ending_at_black_or_at_the_clear_root_scores_nobody():
    # 1 is clear, 1l clear, 1ll clear: 1lll's walk reaches the clear root
    plant = full_plant({"1": "w1", "1l": "w1", "1ll": "w1", "1lll": "w1",
                        "1llr": "g1", "2ll": "k1", "2lll": "w2", "2llr": "r3"})
    t = rim_text(plant)
    assert t[8] == "." and t[9] == "g"
    assert t[16] == "." and t[17] == "r"


def test_runs_wrap_around_the_rim():
    # positions 22, 23, 0, 1 are green
    spec = {"2rrl": "g1", "2rrr": "g1", "0lll": "g2", "0llr": "g1"}
    plant = full_plant(spec)
    assert rim_text(plant) == "gg" + "." * 20 + "gg"
    # 0ll and 2rr are k1 (the fill): every leaf has a black parent
    # distinct pieces 4, pips 1+1+2+1 = 5, length 4, deductions 4: 0
    assert runs(plant) == [[0, 22, 4, 0]]
    spec.update({"0ll": "w1", "2rr": "r1"})
    plant = full_plant(spec)
    # no black parents now: 5 x 4
    assert runs(plant) == [[0, 22, 4, 20]]


def test_black_parent_deduction_and_a_run_worth_exactly_0():
    # 1lll g3 and 1llr g1 under a black 1ll: (3+1) x (2 - 2) = 0
    plant = full_plant({"1lll": "g3", "1llr": "g1"})
    assert runs(plant) == [[0, 8, 2, 0]]
    assert totals(plant) == [0, 0]
    # three greens, one under a clear parent: 6 x (3 - 2) = 6
    plant = full_plant({"1lll": "g3", "1llr": "g1", "1lr": "w2", "1lrl": "g2"})
    assert runs(plant) == [[0, 8, 3, 6]]
    # a clear leaf and its green parent under a black one: the green is
    # the one piece scored, with a black parent: 2 x (2 - 1) = 2
    plant = full_plant({"1lr": "g2", "1lrl": "w1", "1lrr": "w1"})
    assert runs(plant) == [[0, 10, 2, 2]]


def test_clear_path_reaching_a_coloured_root_scores_it():
    # after a black power the root may be red: clear paths reach it, and
    # the root has no parent (no deduction)
    plant = full_plant({"root": "r2", "0": "w1", "0l": "w1", "0ll": "w1",
                        "0lll": "w1", "0llr": "w2", "1": "w1", "1l": "w1",
                        "1ll": "w1", "1lll": "w3"})
    t = rim_text(plant)
    assert t[0] == t[1] == t[8] == "r"
    assert runs(plant) == [[1, 0, 2, 4], [1, 8, 1, 2]]
    # the root scored in two separate runs counts in each
    assert totals(plant) == [0, 6]


def test_a_black_root_scores_nobody_and_its_children_have_a_black_parent():
    plant = full_plant({"root": "k3", "0": "g3", "0l": "w1", "0ll": "w1",
                        "0lll": "w1", "1": "w1", "1l": "w1", "1ll": "w1",
                        "1lll": "w1"})
    t = rim_text(plant)
    assert t[0] == "g" and t[8] == "."
    assert runs(plant) == [[0, 0, 1, 0]]


def test_one_run_all_around():
    plant = full_plant({n: "g1" for n in RIM_NAMES})
    for n in NAMES[1:22]:
        plant[INDEX[n]] = parse_piece("w1")
    assert rim_text(plant) == "g" * 24
    assert runs(plant) == [[0, 0, 24, 24 * 24]]
    st = game_with(plant)
    assert st.scores() == [576, 0] and st.to_move() == OVER
    assert st.fields()["runs"] == [[0, 0, 24, 576]]
    assert st.fields()["rim"] == "g" * 24


def test_a_tie_and_the_end_text():
    # mirror images: g under 0, r under 2
    plant = full_plant({"0lll": "g3", "0llr": "g2", "2rrl": "r3", "2rrr": "r2",
                        "0ll": "w1", "2rr": "w1"})
    st = game_with(plant)
    assert st.scores() == [10, 10]
    text = st.render()
    assert "a tie" in text and "rim: gg" in text
    f = json.loads(json.dumps(st.fields()))
    assert f["runs"] == [[0, 0, 2, 10], [1, 22, 2, 10]]


# ---- whole games, undo, saves, the protocol -------------------------------

def random_game(seed, upto=MOVES):
    rng = Rng(seed)
    st = new()
    while st.to_move() != OVER and st.moves < upto:
        acts = st.legal_actions()
        st.apply_action(acts[rng.randrange(len(acts))])
    return st


def test_a_whole_game_fills_the_plant():
    for seed in range(5):
        st = random_game(seed)
        f = st.fields()
        assert len(f["plant"]) == 46 and sum(f["stash"].values()) == 2
        assert len(f["rim"]) == 24
        t = [0, 0]
        for run in f["runs"]:
            t[run[0]] += run[3]
        assert st.scores() == t
        assert st.legal_actions() == [] and st.bot_move() is None
        assert st.hint() is None


def test_undo_and_saves_round_trip():
    st = random_game(11, 30)
    data = st.serialize()
    copy = registry.deserialize(data)
    assert copy.serialize() == data and copy.fields() == st.fields()
    before = st.fields()
    tok = st.legal()[-1]
    st.apply(tok)
    st.undo()
    assert st.fields() == before and st.serialize() == data


def test_bots_option():
    # seats counted from 1, as in every game, or by colour (``state``
    # lists them as ``to_move`` numbers them, from 0)
    assert new(bots="1,2").fields()["bots"] == [0, 1]
    assert new(bots="2,1").fields()["bots"] == [0, 1]
    assert new(bots="2").fields()["bots"] == [1]
    assert new(bots="red").fields()["bots"] == [1]
    assert new(bots="green").fields()["bots"] == [0]
    assert new(bots="red,green").fields()["bots"] == [0, 1]
    for bad in ("0", "3", "1,1", "red,2", "", "x", "01", "1,", "Red"):
        with pytest.raises(ValueError):
            new(bots=bad)


def test_protocol_plays_bot_seats_and_shows_the_plant():
    s = Session(5)
    out = s.handle("new pointsettia bots=2")
    assert out.startswith("= pointsettia")
    out = s.handle("play r3@0")
    # the bot (Red) answers at once
    assert out.startswith("= r3@0 ") and len(out.split()) == 3
    assert s.handle("to_move") == "= 0\n\n"
    show = s.handle("show")
    assert "root w3" in show and "0 r3" in show and "Green to move" in show
    hint = s.handle("hint")[2:].strip()
    assert hint in s.handle("legal")[2:].split()


def test_bot_plays_both_seats_to_the_end():
    s = Session(1)
    out = s.handle("new pointsettia bots=1,2")
    assert len(out.split()) == 3 + MOVES
    assert s.handle("to_move") == "= over\n\n"
    st = json.loads(s.handle("state")[2:])
    assert len(st["rim"]) == 24 and st["scores"] == [
        sum(r[3] for r in st["runs"] if r[0] == 0),
        sum(r[3] for r in st["runs"] if r[0] == 1)]


def test_think_yields_slices_then_a_legal_move():
    for seed in range(20):
        st = random_game(seed, seed * 2)
        steps = list(st.think())
        assert all(x is None for x in steps[:-1]) and len(steps) >= 2
        assert steps[-1] in st.legal_actions()
        assert st.hint() == steps[-1]


def test_bot_takes_its_largest_piece_to_the_rim_beside_its_run():
    # the last move: Green extends its run with its largest piece
    plant = full_plant({"0ll": "w1", "0lll": "g3"})
    plant[INDEX["0llr"]] = 0
    st = game_with(plant)
    st.moves = MOVES - 1
    st.stash = bytearray(16)
    for tok in ("g1", "g3", "r3", "w1", "k1"):
        st.stash[parse_piece(tok)] = 1
    assert st.to_move() == 0
    assert st.token(st.hint()) == "g3@0llr"
    # Red to move there blocks with a black piece rather than help Green
    st.moves = MOVES - 2
    assert st.to_move() == 1
    assert st.token(st.hint()) in ("k1@0llr", "r3@0llr")


def test_refusals_name_the_reason():
    st = play(new(), "g1@0")
    with pytest.raises(IllegalMove, match="not a position"):
        st.apply("w2@0r>00")
    with pytest.raises(IllegalMove, match="not an ancestor"):
        st.apply("w2@0r>1")
    with pytest.raises(IllegalMove, match="unknown token"):
        st.apply("q2@0r")


def test_a_red_root_after_a_black_power_is_scored_through_clear_paths():
    st = play(new(), "r2@0", "k2@0l!")
    assert plant_of(st) == {"root": "r2", "0": "k2", "2": "w3"}
    # fill the rest by hand: a clear path from the root's child 1 down to
    # 1lll, black everywhere else
    plant = st.plant
    for i in range(46):
        if not plant[i]:
            plant[i] = parse_piece("k1")
    for name in ("1", "1l", "1ll", "1lll"):
        plant[INDEX[name]] = parse_piece("w1")
    st.moves = MOVES
    assert st.fields()["rim"] == "." * 8 + "r" + "." * 15
    # the root has no parent: 2 x 1
    assert st.scores() == [0, 2]


def test_preview_shows_a_power_without_playing_it():
    st = clear_setup()
    data = st.serialize()
    after = st.preview(st.action("w3@1lrl>1"))
    assert [after[INDEX[n]] for n in ("1", "1l", "1lr", "1lrl")] == [
        parse_piece(t) for t in ("w3", "g3", "r2", "k1")]
    assert st.serialize() == data and "1lrl" not in plant_of(st)
    after = st.preview(st.action("k1@0!"))
    assert after[0] == parse_piece("k1") and after[INDEX["2"]] == parse_piece("w3")
    assert st.serialize() == data


def test_bot_move_only_on_a_bot_seat():
    st = new(bots="2")
    assert st.is_bot(1) and not st.is_bot(0)
    assert st.bot_move() is None          # Green, a person, to move
    assert st.hint() in st.legal_actions()
    play(st, "g1@0")
    a = st.bot_move()
    assert a is not None and a in st.legal_actions()
    # the bot buries Green's largest piece inside the plant at the start
    assert st.token(a).startswith("g3@")
