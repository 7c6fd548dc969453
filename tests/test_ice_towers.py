"""IceTowers in turns (engine/ice_towers.py): scripted positions for every
move and its refusals, both end rules, the state fields, undo, saves and the
bot's bounds. The rules are in docs/games/icetowers.md."""

import json

import pytest

from engine import registry
from engine.protocol import Session
from engine.rng import Rng
from engine.ice_towers_bot import BOT_LIMIT
from engine.state import CHANCE, OVER, IllegalMove


def session(line, seed=1):
    s = Session(seed, auto=False)
    ans = s.handle(line)
    assert ans.startswith("= "), ans
    return s


def ok(s, line):
    ans = s.handle(line)
    assert ans.startswith("= "), (line, ans)
    return ans[2:].rstrip("\n")


def refused(s, line):
    before = ok(s, "state")
    ans = s.handle(line)
    assert ans.startswith("? "), (line, ans)
    assert ok(s, "state") == before
    return ans[2:].rstrip("\n")


def state(s):
    return json.loads(ok(s, "state"))


def deal(s, pieces):
    for p in pieces.split():
        ok(s, "play " + p)


def test_f1_towers_with_the_same_pieces_at_the_same_depths_are_different():
    # the oracle's finding F1: {y3, y3r3r2} and {r2, y3r3y3} have the same
    # pieces at the same depths from the top, yet are different towers
    s = session("new ice_towers players=2 seed=1")
    deal(s, "r1 r2 y1 r3 y3 y1 r2 r3 r1 y2 y1 r1 r3 y2 y3 r1 y3 r2 y2 y1 r3 "
            "y2 r2 y1 r2 r3 y3 y3 r1 y2")
    for m in ("a1-f4 d4-a3 d3-d2 b4-c4 c2-b3 a4-f3 e5-e3 c1-f4 b2-d5 f5-e4 "
              "b1-e1 f1-d2 a2-e4 e2-b5 f2-b5 c3-d5 a5-d5 c5-d1 pass d5:3 pass "
              "d5/3 pass").split():
        ok(s, "play " + m)
    ok(s, "play a1-d5")
    assert state(s)["repeats"] == 1


# ---- a scripted table ---------------------------------------------------
# Two players, red (seat 0) and yellow (seat 1). Each of rows 1-5 is dealt
# r1 y3 r2 y2 r3 y1 (columns a-f); row 6 stays empty.
ROW = "r1 y3 r2 y2 r3 y1"


def table(moves="", players=2):
    s = session("new ice_towers players=%d" % players)
    deal(s, " ".join([ROW] * 5))
    for m in moves.split():
        ok(s, "play " + m)
    return s


def cell(s, name):
    st = state(s)
    side = st["side"]
    i = (int(name[1]) - 1) * side + "abcdefghi".index(name[0])
    return st["grid"].split("/")[i]


def legal(s):
    return ok(s, "legal").split()


def test_the_deal_fills_cells_in_reading_order_with_weighted_outcomes():
    s = session("new ice_towers players=2")
    assert ok(s, "to_move") == "chance"
    assert ok(s, "legal") == "r1:1/6 r2:1/6 r3:1/6 y1:1/6 y2:1/6 y3:1/6"
    ok(s, "play y3")
    assert ok(s, "legal") == "r1:5/29 r2:5/29 r3:5/29 y1:5/29 y2:5/29 y3:4/29"
    st = state(s)
    assert st["grid"].split("/")[:2] == ["y3", "-"]
    assert st["turn"] == -1 and st["repeats"] == 0 and st["side"] == 6


def test_deal_refusals_and_the_end_of_the_deal():
    s = session("new ice_towers players=2")
    assert "is left to deal" in refused(s, "play g3")      # no green stash
    assert "deal is not finished" in refused(s, "play pass")
    deal(s, " ".join([ROW] * 5))
    st = state(s)
    assert st["to_move"] == 0 and st["turn"] == 0 and st["repeats"] == 1
    assert st["grid"].split("/")[30:] == ["-"] * 6
    assert "deal is over" in refused(s, "play r1")
    assert st["scores"] == [30, 30] and st["ghost_score"] is None


@pytest.mark.parametrize("players,ghost,side,colours", [
    (2, 0, 6, "ry"), (2, 1, 7, "ryg"), (3, 0, 7, "ryg"), (4, 0, 8, "rygb"),
    (5, 0, 9, "rygbp")])
def test_sides_and_colours(players, ghost, side, colours):
    s = Session(3)
    ans = s.handle("new ice_towers players=%d ghost=%d" % (players, ghost))
    assert ans.startswith("= ")
    st = state(s)
    assert st["side"] == side and st["colours"] == colours
    assert st["ghost"] is bool(ghost)
    cells = st["grid"].split("/")
    assert len(cells) == side * side
    assert sum(c != "-" for c in cells) == 15 * len(colours)
    assert all(c == "-" for c in cells[15 * len(colours):])
    assert sum(st["scores"]) + (st["ghost_score"] or 0) == 30 * len(colours)
    assert st["ghost_score"] == (30 if ghost else None)


def test_options_are_checked():
    for bad in ("players=1", "players=6", "ghost=2", "players=3 ghost=1",
                "ghost=1", "bots=4", "players=2 bots=3", "bots=0", "bots=1,1", "bots=01", "bots="):
        ans = Session(1).handle("new ice_towers " + bad)
        assert ans.startswith("? "), (bad, ans)
    st = registry.new("ice_towers", {"players": "2", "ghost": "1", "bots": "2"})
    assert st.options == "bots=2 ghost=1 players=2" and st.is_bot(1)


def test_cap_and_its_refusals():
    s = table()
    toks = legal(s)
    assert "a1-b1" in toks and toks[-1] == "pass"
    assert toks.index("a1-b1") < toks.index("c1-b1")
    assert "smaller" in refused(s, "play e1-d1")         # r3 onto y2
    assert "your own colour" in refused(s, "play a1-c1")  # r1 onto r2
    assert "not yours" in refused(s, "play b1-a1")        # yellow's piece
    assert "no tower" in refused(s, "play a1-a6")
    assert "no cell g1 on a 6x6 table" in refused(s, "play a1-g1")
    assert "cannot cap itself" in refused(s, "play a1-a1")
    ok(s, "play a1-b1")
    assert cell(s, "a1") == "-" and cell(s, "b1") == "y3r1"
    assert state(s)["scores"] == [33, 27]
    # the capped tower is no longer a free piece; an empty cell has none
    ok(s, "play pass")
    assert "not a freestanding piece" in refused(s, "play b1-d1")
    assert "no piece in a1" in refused(s, "play a1-d1")


def test_same_size_is_allowed_and_a_small_caps_a_large():
    s = table("e1-b1")                 # r3 onto y3: the same size
    assert cell(s, "b1") == "y3r3"
    ok(s, "play f1-b1")                # y1 onto r3
    assert cell(s, "b1") == "y3r3y1"


# b1 becomes y3 r1 y1 r1 y1: red holds two pieces there, yellow on top
MINE_SETUP = "a1-b1 f1-b1 a2-b1 f2-b1"


def test_mine_and_its_refusals():
    s = table(MINE_SETUP + " pass f3-c3")   # c3 = r2 y1: one red piece
    assert cell(s, "b1") == "y3r1y1r1y1"
    toks = legal(s)
    assert "b1:2-b2" in toks and "b1:4-b2" in toks
    assert "b1:2" not in toks                      # it has caps
    assert "b1:2-b1" not in toks
    assert "may not go back onto b1" in refused(s, "play b1:2-b1")
    assert "must cap a tower" in refused(s, "play b1:2")
    assert "not yours" in refused(s, "play b1:1-b2")            # y3
    assert "fewer than two" in refused(s, "play c3:1-b2")       # one red
    assert "your own colour" in refused(s, "play b1:2-c1")      # r2 top
    assert "b1 is 5 high" in refused(s, "play b1:6-b2")
    ok(s, "play b1:2-b2")
    assert cell(s, "b1") == "y3y1r1y1" and cell(s, "b2") == "y3r1"
    st = state(s)
    assert st["passes"] == 0 and st["turn"] == 1


def test_mining_from_a_tower_you_control_is_refused():
    s = table(MINE_SETUP + " a3-b1")   # red on top of b1, yellow to move
    assert cell(s, "b1") == "y3r1y1r1y1r1"
    # yellow holds three pieces in b1 and red controls it: yellow may mine
    assert "b1:3-c1" in legal(s)
    ok(s, "play b1:3-c1")
    assert cell(s, "b1") == "y3r1r1y1r1" and cell(s, "c1") == "r2y1"
    # red holds three there too, but controls it
    assert not [t for t in legal(s) if t.startswith("b1:")]
    assert "you control b1" in refused(s, "play b1:2-b3")


def test_a_mined_piece_with_no_cap_is_set_down_in_the_first_empty_cell():
    # b1 = y3 r3 y3 r3 y3; the other yellow larges are covered by red smalls,
    # so a mined r3 has nowhere to go
    s = table("e1-b1 b2-b1 e2-b1 b3-b1 a4-b4 pass a5-b5 pass")
    assert cell(s, "b1") == "y3r3y3r3y3"
    toks = legal(s)
    assert "b1:2" in toks and "b1:4" in toks
    assert not [t for t in toks if t.startswith("b1:2-") or t.startswith("b1:4-")]
    assert "your own colour" in refused(s, "play b1:2-b4")
    assert "smaller" in refused(s, "play b1:2-d1")
    ok(s, "play b1:2")
    # the first empty cell in reading order is e1 (capped away first)
    assert cell(s, "e1") == "r3" and cell(s, "b1") == "y3y3r3y3"


def test_split_at_the_top_and_of_your_own_colour():
    s = table(MINE_SETUP + " b1:4-b2")   # b1 = y3 r1 y1 y1
    assert cell(s, "b1") == "y3r1y1y1"
    assert "b1/4" not in legal(s)
    assert "your own colour" in refused(s, "play b1/4")
    ok(s, "play pass")
    assert "b1/4" in legal(s)
    assert "not one colour" in refused(s, "play b1/3")
    assert "height 2 or higher" in refused(s, "play b1/1")
    ok(s, "play b1/4")                 # the top piece alone is lifted
    assert cell(s, "b1") == "y3r1y1" and cell(s, "a1") == "y1"


def test_three_in_a_row_give_two_splits_and_a_tower_you_control_may_be_split():
    s = table("a1-b1 f1-b1 a2-b1 f2-b1 a3-b1 f3-b1 b1:4-b2 pass b1:5-b3 pass "
              "a4-b1 pass")
    # red capped the yellow run: red controls b1 and is to move
    assert cell(s, "b1") == "y3r1y1y1y1r1"
    toks = legal(s)
    assert "b1/4" in toks and "b1/5" in toks and "b1/3" not in toks
    ok(s, "play b1/4")                 # red splits a tower it controls
    assert cell(s, "b1") == "y3r1y1"
    assert cell(s, "a1") == "y1y1r1"


def test_legal_lists_exactly_the_accepted_moves():
    # every well-formed token over the table is accepted iff it is listed
    s = table(MINE_SETUP + " b1:4-b2")
    st = registry.deserialize(s.state.serialize())
    names = [c + r for r in "123456" for c in "abcdef"]
    toks = ["pass"]
    for f in names:
        toks += ["%s-%s" % (f, g) for g in names]
        for h in range(1, 7):
            toks += ["%s/%d" % (f, h), "%s:%d" % (f, h)]
            toks += ["%s:%d-%s" % (f, h, g) for g in names]
    listed = set(st.legal())
    data = st.serialize()
    for tok in toks:
        if tok in listed:
            registry.deserialize(data).apply(tok)
        else:
            with pytest.raises(IllegalMove):
                st.apply(tok)
    assert st.serialize() == data
    assert listed <= set(toks) and len(listed) == len(st.legal())


def test_tokens_map_back_and_malformed_ones_are_refused():
    st = registry.new("ice_towers", {"players": "5"})
    for tok in ("pass", "r1", "p3", "a1-i9", "i9:75-a1", "c4:2", "c4/3", "e5:12-b2"):
        assert st.token(st.action(tok)) == tok
    for bad in ("c4:02", "c4/0", "c4:76", "j1-a1", "a0-a1", "a10-a1", "c4:2-",
                "c4:-b2", "r4", "w1", "PASS", "a1_b2", "c4/1x"):
        with pytest.raises(IllegalMove):
            st.action(bad)


# ---- the end ---------------------------------------------------------------

def test_every_player_passing_in_a_row_ends_the_game():
    s = table(players=2)
    ok(s, "play pass")
    assert state(s)["passes"] == 1
    ok(s, "play f1-a1")                # a move resets the count
    assert state(s)["passes"] == 0
    ok(s, "play pass")
    assert ok(s, "to_move") == "1"
    ok(s, "play pass")
    st = state(s)
    assert st["to_move"] == "over" and st["turn"] == -1 and st["passes"] == 2
    assert st["winners"] == [1] and st["scores"] == [29, 31]
    assert legal(s) == []
    assert "over" in refused(s, "play pass")


def test_three_players_need_three_passes():
    s = session("new ice_towers players=3", seed=5)
    while ok(s, "to_move") == "chance":
        ok(s, "sample")
    ok(s, "play pass")
    ok(s, "play pass")
    assert ok(s, "to_move") == "2" and state(s)["passes"] == 2
    ok(s, "play pass")
    st = state(s)
    assert st["to_move"] == "over" and st["repeats"] == 2
    assert st["winners"] == [0, 1, 2]          # all 30: a shared win


# A cycle: red splits the yellow pair off the top of one r3y2y1, yellow caps
# red's r3y2r1 with it, red mines its r1 back onto the other r3y2. The
# towers come back as a multiset (where they stand does not matter).
CYCLE_SETUP = "pass d1-e1 pass d2-e2 a1-e1 f1-e1 e1:3-e2 pass"


def test_a_third_repetition_by_moves_that_undo_each_other_ends_the_game():
    s = table(CYCLE_SETUP)
    assert cell(s, "e1") == "r3y2y1" and cell(s, "e2") == "r3y2r1"
    assert state(s)["repeats"] == 1 and ok(s, "to_move") == "0"
    ok(s, "play e1/3")
    # the towers as after a1-e1 above (yellow to move then too)
    assert state(s)["repeats"] == 2
    ok(s, "play a1-e2")
    ok(s, "play e2:3-e1")
    assert state(s)["repeats"] == 2            # as after e1:3-e2
    ok(s, "play pass")
    st = state(s)
    assert st["repeats"] == 2 and st["to_move"] == 0 and st["passes"] == 1
    assert cell(s, "e2") == "r3y2y1" and cell(s, "e1") == "r3y2r1"
    ok(s, "play e2/3")
    st = state(s)
    assert st["to_move"] == "over" and st["repeats"] == 3 and st["passes"] == 0
    assert legal(s) == []
    # undo takes the ending move back
    ok(s, "undo")
    st = state(s)
    assert st["to_move"] == 0 and st["repeats"] == 2 and st["passes"] == 1


# ---- the ghost ---------------------------------------------------------------

def random_game(opts, seed, bot_seats=(), limit=2000):
    """A seeded game: bots for ``bot_seats``, uniform random moves else."""
    rng = Rng(seed)
    st = registry.new("ice_towers", opts)
    while st.to_move() == CHANCE:
        outs = st.chance_outcomes()
        st.apply_action(outs[rng.weighted([w for a, w in outs])][0])
    for _ in range(limit):
        p = st.to_move()
        if p == OVER:
            break
        if p in bot_seats:
            a = st.hint()
        else:
            acts = st.legal_actions()
            a = acts[rng.randrange(len(acts))]
        yield st, a
        st.apply_action(a)
    yield st, None


def test_the_ghost_never_moves_and_scores_for_nobody():
    # a ghost piece is never moved: capping onto one is allowed, and a split
    # lifts from the upper piece of a pair, so a ghost piece always stays at
    # the bottom of the cell it was dealt to; its colour never forms a pair,
    # so a split of the ghost's colour never arises
    capped_ghost = 0
    for seed in range(12):
        ghosts = None
        for st, a in random_game({"players": "2", "ghost": "1"}, seed):
            if ghosts is None:
                ghosts = [i for i, t in enumerate(st.cells) if t and t[0] >> 2 == 2]
                assert len(ghosts) == 15
            for i in ghosts:
                assert st.cells[i][0] >> 2 == 2
            for t in st.cells:
                assert all(pc >> 2 != 2 for pc in t[1:])
            capped_ghost += sum(len(st.cells[i]) > 1 for i in ghosts)
            f = st.fields()
            lone = sum(st.cells[i][0] & 3 for i in ghosts if len(st.cells[i]) == 1)
            assert f["ghost_score"] == lone
            assert sum(st.scores()) + lone == 90
            assert "(ghost g:%d)" % lone in st.render()
    assert capped_ghost


def test_capping_a_ghost_piece_is_allowed_and_splitting_it_is_not():
    s = Session(3)
    ok(s, "new ice_towers players=2 ghost=1")
    st = s.state
    cells = [st.stack(i) for i in range(49)]
    ghost = cells.index("g3")
    red = cells.index("r1")
    name = lambda i: "abcdefg"[i % 7] + str(i // 7 + 1)
    tok = "%s-%s" % (name(red), name(ghost))
    assert tok in legal(s)
    ok(s, "play " + tok)
    f = state(s)
    assert f["ghost_score"] == 27 and f["scores"] == [33, 30]
    assert cell(s, name(ghost)) == "g3r1"
    assert "%s/2" % name(ghost) not in legal(s)
    assert "not one colour" in refused(s, "play %s/2" % name(ghost))
    assert "no piece in" in refused(s, "play %s-%s" % (name(red), name(ghost)))


# ---- undo, saves, text ---------------------------------------------------

def test_undo_and_saves_round_trip_exactly():
    for seed in range(4):
        states = []
        for st, a in random_game({"players": str(2 + seed)}, seed, limit=60):
            data = st.serialize()
            copy = registry.deserialize(data)
            assert copy.serialize() == data
            assert copy.fields() == st.fields() and copy.legal() == st.legal()
            states.append((data, st.fields()))
        # undo walks every move back (a deal piece is never taken back)
        while True:
            try:
                st.undo_move()
            except IllegalMove as e:
                assert str(e) == "nothing to undo"
                break
            states.pop()
            assert st.serialize() == states[-1][0]
            assert st.fields() == states[-1][1]
        assert not any(not c for _, c in st.history())
        assert st.to_move() == 0


def test_bad_saves_are_refused():
    st = registry.new("ice_towers", {"players": "2"})
    for st, a in random_game({"players": "2"}, 9, limit=10):
        pass
    data = st.serialize()
    # a pass added is a longer game, still valid
    assert registry.deserialize(data + b"\x00\x00\x00").history()[-1] == (0, False)
    for bad in (data[:-1], data[:-2], data + b"\x00", data + b"\x80\x00\x01",
                data[:-3] + b"\x7f\xff\xff", data[:-3] + b"\x80\x00\x01"):
        with pytest.raises(ValueError):
            registry.deserialize(bad)


def test_show_and_history():
    s = table("a1-b1 pass")
    shown = ok(s, "show")
    lines = shown.split("\n")
    assert lines[0].split() == list("abcdef")
    assert lines[1].split() == ["1", "-", "y3r1", "r2", "y2", "r3", "y1"]
    assert lines[7] == "1 r:33  2 y:27"
    assert lines[8].startswith("1 (r) to move; passes 1")
    hist = ok(s, "history").split()
    assert hist[:6] == ROW.split() and hist[30:] == ["a1-b1", "pass"]


# ---- the bot -------------------------------------------------------------

def test_the_bot_moves_legally_in_slices():
    for seed in range(6):
        opts = {"players": str(2 + seed % 4)}
        for st, a in random_game(opts, seed, limit=80):
            if a is None:
                break
            g = st.think()
            steps = list(g)
            assert steps[-1] in st.legal_actions()
            assert all(x is None for x in steps[:-1]) and len(steps) > 2
            assert st.hint() == steps[-1]
            assert st.bot_move() is None          # no seat is a bot here
    done = registry.new("ice_towers", {"players": "2"})
    assert list(done.think()) == [None] and done.hint() is None   # the deal


def test_bot_seats_play_through_the_protocol():
    s = Session(4)
    ans = ok(s, "new ice_towers players=2 bots=2")
    assert ok(s, "to_move") == "0"
    mine = s.state.legal()[0]
    ans = ok(s, "play " + mine)
    words = ans.split()
    assert words[0] == mine and len(words) == 2      # the bot answered
    assert words[1] in registry.deserialize(s.state.serialize()).history_text().split()
    assert ok(s, "to_move") in ("0", "over")
    assert state(s)["bots"] == [1]


def test_a_table_of_bots_ends_and_bots_cause_no_repetition():
    for players in (2, 3, 4, 5):
        for seed in range(3):
            n = 0
            last = None
            for st, a in random_game({"players": str(players)}, seed,
                                     bot_seats=range(players)):
                if last:                             # not a pass
                    assert st.repeats() == 1         # a position never seen
                if a is None:
                    break
                last = a
                n += 1
            assert st.to_move() == OVER and st.passes == players
            assert n <= BOT_LIMIT + players


def test_the_bot_passes_to_win_and_plays_on_when_behind():
    # yellow passed after red's cap: red, ahead 33-27, ends the game by passing
    s = table("a1-b1 pass")
    assert s.state.hint() == 0
    ok(s, "play pass")
    assert state(s)["to_move"] == "over" and state(s)["winners"] == [0]
    # red passed and yellow is behind: a pass would lose, yellow plays on
    s = table("a1-b1 f1-a2 pass")
    assert state(s)["scores"] == [32, 28]
    assert s.state.hint() != 0


def test_the_bot_passes_once_the_move_limit_is_reached():
    for st, a in random_game({"players": "3"}, 2, limit=6):
        pass
    assert st.to_move() >= 0 and st.hint() != 0
    st.moves = BOT_LIMIT
    assert st.hint() == 0


def test_moves_naming_an_empty_cell_say_so():
    s = table("a1-b1 pass")
    assert refused(s, "play a1/2") == "no tower in a1"
    assert refused(s, "play a1:1-b2") == "no tower in a1"
    assert refused(s, "play a6:1") == "no tower in a6"
    assert refused(s, "play b1:2-a1") == "you control b1: mine only from a tower you do not control"


def test_position_counts_keep_apart_fingerprints_that_share_their_first_part():
    # counts are keyed by the first hash sum and the seat; the second sum
    # sits in the value, and a clash of first parts keeps both apart
    st = registry.new("ice_towers", {"players": "2"})
    assert st._seen(5, 7, 1, 1) == 1
    assert st._seen(5, 7, 1, 1) == 2
    assert st._seen(5, 9, 1, 0) == 0
    assert st._seen(5, 9, 1, 1) == 1            # the clash: now a list
    assert st._seen(5, 7, 1, 0) == 2 and st._seen(5, 9, 1, 1) == 2
    assert st._seen(5, 11, 1, 1) == 1 and st._seen(5, 7, 1, 1) == 3
    assert st._seen(5, 7, 0, 0) == 0            # another seat to move
    assert st._seen(6, 7, 1, 0) == 0


def test_legal_text_is_the_legal_tokens():
    for seed in range(8):
        for st, a in random_game({"players": str(2 + seed % 4)}, seed, limit=60):
            if st.to_move() >= 0:
                assert st.legal_text() == " ".join(st.legal())
            else:
                assert st.legal_text() is None       # the end
    assert registry.new("ice_towers", {}).legal_text() is None   # the deal
