"""Ice Stalks: scripted games with forced rocks, through the text protocol.

Each script is a list of tokens: a colour letter forces that draw, a
placement token plays it. The rulings' points are covered one by one:
additions both ways, the base that may go either way, the direction fixed by
the second piece, the seed's three completability refusals, a forced base
that can never be completed, a 7-high rainbow, the all-seven bonus, and 3
and 4 players.
"""
import json

import pytest

from engine import registry
from engine.ice_stalks import Game
from engine.protocol import Session
from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove


def ok(s, line):
    ans = s.handle(line)
    assert ans.startswith("= "), (line, ans)
    return ans[2:].strip()


def refused(s, line):
    before = s.handle("state")
    ans = s.handle(line)
    assert ans.startswith("? "), (line, ans)
    assert s.handle("state") == before
    return ans[2:].strip()


def game(script, players=2, bots=None):
    s = Session(1)
    words = "new ice_stalks players=%d" % players
    if bots:
        words += " bots=" + bots
    ok(s, words)
    for tok in script.split():
        ok(s, "play " + tok)
    return s


def state(s):
    return json.loads(ok(s, "state"))


def legal(s):
    return ok(s, "legal").split()


# ---- the draw --------------------------------------------------------------

def test_a_fresh_game_draws_each_colour_one_in_seven():
    s = game("")
    assert ok(s, "to_move") == "chance"
    assert legal(s) == ["r:1/7", "o:1/7", "y:1/7", "g:1/7", "c:1/7", "b:1/7", "p:1/7"]
    st = state(s)
    assert st["bag"] == {"r": 5, "o": 5, "y": 5, "g": 5, "c": 5, "b": 5, "p": 5}
    assert (st["rock"], st["turn"], st["stalks"], st["placed"]) == (None, 0, [], 0)
    assert st["collected"] == [[], []] and st["scores"] == [0, 0]
    assert ok(s, "hint") == "none"
    refused(s, "play g3@new")     # draw first


def test_the_drawn_rock_is_out_of_the_bag_and_weights_follow_the_bag():
    s = game("g g3@new g")
    st = state(s)
    assert st["rock"] == "g" and st["bag"]["g"] == 3 and st["turn"] == 1
    ok(s, "play g2@1")
    assert legal(s) == ["r:5/33", "o:5/33", "y:5/33", "g:1/11", "c:5/33",
                        "b:5/33", "p:5/33"]


def test_a_colour_drawn_out_is_no_outcome():
    s = game("r r3@new r r2@1 r r1@1 r r3@new r")
    # the fifth red: a medium on the red base would need a red rock
    assert legal(s) == ["r3@new"]
    ok(s, "play r3@new")
    assert "r:" not in ok(s, "legal")
    refused(s, "play r")


# ---- additions -------------------------------------------------------------

def test_a_base_alone_goes_either_way():
    assert legal(game("g g3@new y")) == ["y3@1", "y2@1"]     # down
    assert legal(game("g g3@new c")) == ["c3@1", "c2@1"]     # up
    assert legal(game("g g3@new g")) == ["g2@1"]             # solid
    assert legal(game("g g3@new r")) == ["r3@new"]           # not a neighbour
    refused(game("g g3@new g"), "play g3@1")
    refused(game("g g3@new g"), "play g1@1")
    refused(game("g g3@new y"), "play y1@1")


def test_solid_stalk_is_large_medium_small_and_scores_one():
    s = game("g g3@new g g2@1 c")
    # a solid takes only its own colour's small: no cyan, though cyan
    # could have gone on the green base
    assert legal(s) == ["c3@new"]
    ok(s, "play c3@new")
    ok(s, "play g")
    # green also goes down on the cyan base, as a large or a medium
    assert legal(s) == ["g1@1", "g3@2", "g2@2"]
    ok(s, "play g1@1")
    st = state(s)
    assert st["stalks"] == ["c3"]
    assert st["collected"] == [[], ["g3g2g1"]]
    assert st["scores"] == [0, 1]


def test_rainbow_going_up():
    s = game("g g3@new c c2@1 b")
    assert legal(s) == ["b2@1", "b1@1"]   # b2 needs a purple to come
    ok(s, "play b1@1")
    st = state(s)
    assert st["collected"] == [["g3c2b1"], []] and st["scores"] == [3, 0]
    assert st["stalks"] == []


def test_rainbow_going_down():
    s = game("g g3@new y y3@1 o")
    # o3 would need red and then a colour below red
    assert legal(s) == ["o2@1"]
    ok(s, "play o2@1")
    ok(s, "play r")
    assert legal(s) == ["r1@1"]
    ok(s, "play r1@1")
    st = state(s)
    assert st["collected"] == [[], ["g3y3o2r1"]] and st["scores"] == [0, 4]


def test_the_second_piece_fixes_the_direction():
    # the seed: a green large on a cyan ("blue") base; only yellow follows
    s = game("c c3@new g g3@1")
    for rock, moves in (("y", ["y3@1", "y2@1"]), ("c", ["c3@new"]),
                        ("g", ["g3@new"]), ("b", ["b3@new"])):
        t = game("c c3@new g g3@1 " + rock)
        assert legal(t) == moves, rock
    t = game("c c3@new g g3@1 c")
    assert "does not fit" in refused(t, "play c2@1")
    t = game("c c3@new g g3@1 g")
    refused(t, "play g2@1")
    assert state(s)["stalks"] == ["c3g3"]


def test_a_medium_on_its_base_makes_the_stalk_solid():
    # the seed: after r3 r2 only a red small; no orange, though an orange
    # could have gone on the red base
    assert legal(game("r r3@new r r2@1 o")) == ["o3@new"]
    assert legal(game("r r3@new r r2@1 r")) == ["r1@1"]


def test_a_rainbow_keeps_size_or_steps_down_one():
    s = game("r r3@new o o2@1 y")
    assert legal(s) == ["y2@1", "y1@1"]
    refused(s, "play y3@1")


def test_several_stalks_are_listed_in_order_larger_first():
    s = game("g g3@new r r3@new c c3@1 o")
    # stalk 1 g3c3 (up) takes no orange; stalk 2 r3 takes o3 and o2
    assert legal(s) == ["o3@2", "o2@2"]
    # cyan goes up on the green base and down on the blue one
    s = game("g g3@new b b3@new c")
    assert legal(s) == ["c3@1", "c2@1", "c3@2", "c2@2"]


# ---- completability: the seed's three examples ----------------------------

def test_seed_example_blue_base_indigo_rock():
    # "blue" is c, "indigo" b: b3 on c3 leaves only p2, then no small
    s = game("c c3@new b")
    assert legal(s) == ["b2@1"]
    assert "impossible to complete" in refused(s, "play b3@1")


def test_seed_example_yellow_all_drawn():
    # every yellow drawn, an indigo (b) base: blue (c) large on it would
    # need green then yellow
    s = game("y y3@new y y2@1 y y1@1 y y3@new y y3@new b b3@new c")
    st = state(s)
    assert st["bag"]["y"] == 0 and st["stalks"] == ["y3", "y3", "b3"]
    assert legal(s) == ["c2@3"]
    assert "impossible to complete" in refused(s, "play c3@3")


def test_seed_example_last_rock_of_a_colour():
    # a red base; the fifth red may not go on it as a medium
    s = game("r r3@new y y3@new o o2@2 r r1@2 "
             "y y3@new o o2@2 r r1@2 y y3@new o o2@2 r r1@2 r")
    st = state(s)
    assert st["bag"]["r"] == 0 and st["stalks"] == ["r3"]
    assert legal(s) == ["r3@new"]
    assert "impossible to complete" in refused(s, "play r2@1")
    # one red earlier, the medium was legal
    s = game("r r3@new y y3@new o o2@2 r r1@2 y y3@new o o2@2 r")
    assert legal(s) == ["r2@1", "r1@2"]


def test_a_forced_base_that_can_never_be_completed():
    s = game("b b3@new b b2@1 b b1@1 b b3@new b")
    assert legal(s) == ["b3@new"]      # the fifth blue: no medium on blue
    ok(s, "play b3@new")
    # purples: nothing goes on a blue base going up (no colour past purple)
    s2 = game("b b3@new b b2@1 b b1@1 b b3@new b b3@new "
              "p p3@new p p2@3 p p1@3 p p3@new p")
    st = state(s2)
    assert st["bag"]["p"] == 0 and st["bag"]["b"] == 0
    assert st["stalks"] == ["b3", "b3", "p3"]
    assert legal(s2) == ["p3@new"]     # the player's own move, the only one
    assert ok(s2, "to_move") == "1"
    refused(s2, "play p2@3")
    ok(s2, "play p3@new")
    # no rock can ever go on any of them again
    st = state(s2)
    assert st["stalks"] == ["b3", "b3", "p3", "p3"]


def test_new_base_refused_while_an_addition_exists():
    s = game("g g3@new g")
    assert "no new base" in refused(s, "play g3@new")
    s = game("g")
    assert "a new base is a large" in refused(s, "play g2@new")
    assert "place a g piece" in refused(s, "play r3@new")
    assert "no stalk 2" in refused(game("g g3@new g"), "play g2@2")


def test_bad_tokens_are_refused():
    s = game("g g3@new g")
    assert legal(s) == ["g2@1"]     # each bad spelling below is near it
    for tok in ("g2@0", "g2@01", "g4@1", "x3@new", "g3@", "g3new", "gg",
                "g3@new1", "G3@new", "g3@99", "new", "g2@+1", "g2@1.0",
                "g2@\uff11", "g2@\u0663", "g2@ 1"):
        refused(s, "play " + tok)
        # the spelling itself is refused, wherever it is played
        with pytest.raises(IllegalMove, match="unknown token"):
            Game({}).action(tok)


# ---- scoring ---------------------------------------------------------------

SEVEN_HIGH = "r r3@new o o3@1 y y3@1 g g3@1 c c2@1 b b2@1 p"


def test_a_seven_high_rainbow_is_worth_ten():
    s = game(SEVEN_HIGH)
    assert legal(s) == ["p1@1"]        # p2 would need a colour past purple
    ok(s, "play p1@1")
    st = state(s)
    assert st["collected"] == [["r3o3y3g3c2b2p1"], []]
    assert st["scores"] == [10, 0]
    assert ok(s, "score") == "10 0"


def test_six_high_rainbow_is_worth_six():
    s = game("r r3@new o o3@1 y y3@1 g g3@1 c c2@1 b b1@1")
    assert state(s)["scores"] == [0, 6]


ALL_SEVEN = ("r r3@new r r2@1 r r1@1 o o3@new o o2@1 c c3@new o o1@1 "
             "c c2@1 c c1@1 y y3@new y y2@1 b b3@new y y1@1 b b2@1 b b1@1 "
             "g g3@new g g2@1 p p3@new g g1@1 p p2@1 p")


def test_solid_stalks_of_all_seven_colours_earn_fifteen():
    s = game(ALL_SEVEN)
    st = state(s)
    assert st["scores"] == [6, 0]       # six solids so far
    ok(s, "play p1@1")
    st = state(s)
    assert st["collected"][0] == ["r3r2r1", "o3o2o1", "c3c2c1", "y3y2y1",
                                  "b3b2b1", "g3g2g1", "p3p2p1"]
    assert st["scores"] == [7 + 15, 0]
    ok(s, "undo")
    assert state(s)["scores"] == [6, 0]


# ---- the end ---------------------------------------------------------------

def finish(s, rng):
    """Play random legal moves and draws to the end."""
    while True:
        t = ok(s, "to_move")
        if t == "over":
            return
        if t == "chance":
            ok(s, "sample")
        else:
            moves = legal(s)
            ok(s, "play " + moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("players", (2, 3, 4))
def test_the_game_ends_after_the_35th_placement(players):
    s = game("", players)
    rng = Rng(players)
    placed = 0
    while ok(s, "to_move") != "over":
        if ok(s, "to_move") == "chance":
            ok(s, "sample")
        else:
            assert int(ok(s, "to_move")) == placed % players
            moves = legal(s)
            ok(s, "play " + moves[rng.randrange(len(moves))])
            placed += 1
    assert placed == 35
    st = state(s)
    assert st["placed"] == 35 and st["rock"] is None
    assert st["bag"] == dict.fromkeys("roygcbp", 0)
    assert st["turn"] == 35 % players
    pieces = sum(len(x) // 2 for x in st["stalks"])
    pieces += sum(len(x) // 2 for mine in st["collected"] for x in mine)
    assert pieces == 35
    hi = max(st["scores"])
    assert st["winners"] == [p for p in range(players) if st["scores"][p] == hi]
    assert legal(s) == [] and ok(s, "hint") == "none"
    refused(s, "play r")
    assert "over" in ok(s, "show")


def test_winners_stay_empty_until_the_end():
    s = game(SEVEN_HIGH + " p1@1")
    assert state(s)["winners"] == []


# ---- 3 and 4 players -------------------------------------------------------

def test_three_players_take_turns_and_collect():
    s = game("r r3@new r r2@1 r", players=3)
    assert ok(s, "to_move") == "2"
    ok(s, "play r1@1")
    st = state(s)
    assert st["players"] == 3 and st["turn"] == 0
    assert st["collected"] == [[], [], ["r3r2r1"]]
    assert st["scores"] == [0, 0, 1]


def test_four_players_seven_high_rainbow_goes_to_seat_three():
    s = game(SEVEN_HIGH + " p1@1", players=4)
    st = state(s)
    assert st["collected"] == [[], [], ["r3o3y3g3c2b2p1"], []]
    assert st["scores"] == [0, 0, 10, 0] and st["turn"] == 3


# ---- undo, saves, show -----------------------------------------------------

def test_undo_takes_back_the_move_and_the_draw_after_it():
    s = game("c c3@new b b2@1 r")
    assert ok(s, "undo") == "b2@1"
    st = state(s)
    assert st["rock"] == "b" and st["stalks"] == ["c3"] and st["turn"] == 1
    assert st["bag"]["r"] == 5 and st["bag"]["b"] == 4
    assert ok(s, "history") == "c c3@new b"
    assert ok(s, "undo") == "c3@new"
    assert ok(s, "history") == "c"
    refused(s, "undo")


def test_save_and_resume_at_every_step():
    rng = Rng(9)
    st = registry.new("ice_stalks", {"players": "3"})
    while st.to_move() != OVER:
        data = st.serialize()
        copy = registry.deserialize(data)
        assert copy.serialize() == data and copy.fields() == st.fields()
        assert copy.legal() == st.legal()
        if st.to_move() == CHANCE:
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.weighted([w for a, w in outs])][0])
        else:
            acts = st.legal_actions()
            st.apply_action(acts[rng.randrange(len(acts))])
    assert len(st.serialize()) - len(registry.new("ice_stalks", {"players": "3"}).serialize()) == 140


def test_show_names_the_stalks_the_rock_and_the_scores():
    s = game("c c3@new b b2@1 g g3@new r")
    text = ok(s, "show")
    assert "bag r4 o5 y5 g4 c4 b4 p5" in text
    assert "player 2 places r" in text
    assert "1 c3b2" in text and "2 g3" in text
    assert "player 1: 0" in text and "player 2: 0" in text


# ---- options ---------------------------------------------------------------

def test_options():
    s = Session(1)
    for bad in ("players=1", "players=5", "bots=3", "bots=1,1", "bots=0",
                "bots=", "bots=a", "colours=3"):
        assert s.handle("new ice_stalks " + bad).startswith("? "), bad
    ok(s, "new ice_stalks players=4 bots=4,2")
    st = state(s)
    assert st["players"] == 4 and st["bots"] == [1, 3]
    assert st["collected"] == [[], [], [], []]


# ---- the bot ---------------------------------------------------------------

def test_a_bot_seat_places_once_its_rock_is_drawn():
    s = game("c c3@new", bots="2")
    assert ok(s, "to_move") == "chance"      # the bot's draw waits
    assert ok(s, "play b") == "b b2@1"       # then it places at once
    assert ok(s, "to_move") == "chance"
    st = state(s)
    assert st["stalks"] == ["c3b2"] and st["bots"] == [1]


def test_bot_takes_the_best_completion():
    # a solid (1) and a rainbow (4 high) both wait for an orange small;
    # the orange-down rainbow y3 o2 is completed by r
    st = registry.new("ice_stalks")
    for tok in "o o3@new o o2@1 g g3@new y y2@2 o".split():
        st.apply(tok)
    acts = [st.token(a) for a in st.legal_actions()]
    assert acts == ["o1@1", "o2@2", "o1@2"]
    assert st.token(st.hint()) == "o1@2"      # the 3-high rainbow over the solid


def test_bot_does_not_open_a_completion_for_the_next_player():
    # y on the green base: y2 would let an orange small complete it next;
    # y3 needs two more pieces
    st = registry.new("ice_stalks")
    for tok in "g g3@new y".split():
        st.apply(tok)
    assert st.token(st.hint()) == "y3@1"


def test_think_yields_slices_then_the_move():
    st = registry.new("ice_stalks")
    for tok in "g g3@new r r3@new o".split():
        st.apply(tok)
    steps = list(st.think())
    assert steps[-1] == st.hint() and steps[-1] in st.legal_actions()
    assert all(x is None for x in steps[:-1]) and len(steps) > 2
    st = registry.new("ice_stalks")
    assert list(st.think()) == []             # chance: nothing to think
    st.apply("g")
    assert list(st.think()) == [st.legal_actions()[0]]


def test_state_class_is_the_registered_one():
    assert registry.game_class("ice_stalks") is Game
    with pytest.raises(IllegalMove):
        Game({}).apply("zz")
