"""Ice Stalks on the LEDs, through the simulator harness (tools/simkit).

The rocks are forced: the app's generator is swapped for one that answers
each draw with the next colour a test names (checked against the bag), so
a test knows what must be on the panel.
"""
import random
from functools import partial

import pytest

from engine import registry
from engine.state import CHANCE, OVER
from lib import palette as P
from lib import screen_ice_stalks as S
import harness
from harness import boot, settle

BOARDS = ("pico_8x8", "pico_16x16")


class Forced:
    """An Rng stand-in: each draw takes the next of ``tokens``."""

    def __init__(self, app, tokens=()):
        self.app = app
        self.tokens = list(tokens)

    def add(self, *tokens):
        self.tokens.extend(tokens)

    def weighted(self, weights):
        st = self.app.state
        acts = [o[0] for o in st.chance_outcomes()]
        assert self.tokens, "a draw the test did not expect"
        a = st.action(self.tokens.pop(0))
        assert a in acts, "forced rock not in the bag"
        return acts.index(a)


def open_game(board="pico_8x8", rocks=(), **opts):
    sim = boot(board)
    opts.setdefault("players", 2)
    st = registry.new("ice_stalks", {k: str(v) for k, v in opts.items()})
    sim.rng = Forced(sim.app, rocks)
    sim.app.rng = sim.rng
    assert sim.app.enter("ice_stalks", st)
    wait_for(sim, lambda: scr(sim) is not None, 1000)
    sim.advance(60)
    return sim


def scr(sim):
    return sim.app.game_scr


def handoff_shown(sim):
    return type(sim.app.scr).__name__ == "Handoff"


wait_for = partial(harness.wait_for, then=settle)


def to_turn(sim):
    """Until a hand-off or a mode that waits for the player."""
    wait_for(sim, lambda: handoff_shown(sim) or scr(sim).mode in (
        S.DRAW, S.PLACE, S.SAY, S.END))
    sim.advance(40)
    settle(sim)


def pass_handoff(sim, player):
    assert handoff_shown(sim), "a hand-off was due"
    assert sim.indices()[0] == P.player(player), "in that player's colour"
    sim.press("a")
    assert sim.app.scr is scr(sim)


def draw(sim, colour):
    """A draws; the bag gives ``colour``; returns once the table is back."""
    assert scr(sim).mode == S.DRAW
    sim.rng.add(colour)
    sim.press("a")
    to_turn(sim)


def rows(sim):
    w = sim.display.width
    f = sim.indices()
    return [list(f[y * w:(y + 1) * w]) for y in range(sim.display.height)]


def at(sim, x, y):
    return sim.indices()[y * sim.display.width + x]


def spot(board, stalk, level):
    """(x, y) of the pixel that tells a piece at ``level`` of the
    ``stalk``-th stalk on the panel: 8x8 the piece's pixel; 16x16 the
    bottom-left of its 2x2 cell (lit at every size)."""
    if board == "pico_8x8":
        return 2 * stalk, 7 - level
    return 3 * stalk, 15 - 2 * level


def mark_spot(board, stalk, level):
    """Where a legal target's green mark shows: 16x16 the top row of the
    cell."""
    if board == "pico_8x8":
        return 2 * stalk, 7 - level
    return 3 * stalk, 14 - 2 * level


def cursor_or(sim, x, y, colour):
    """A blinking cursor: white or the piece's colour (8x8: dark beats of
    its blink code too)."""
    ok = (colour, P.CURSOR) if sim.display.width > 8 else (colour, P.CURSOR, P.OFF)
    return at(sim, x, y) in ok


# ---- a turn --------------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_draw_animates_then_the_forced_new_base_is_said_and_placed(board):
    sim = open_game(board)
    pass_handoff(sim, 0)
    st = sim.app.state
    assert scr(sim).mode == S.DRAW and st.to_move() == CHANCE
    # the top row in player 1's colour, the draw slot blinking white
    frames = set()
    for _ in range(4):
        sim.advance(160)
        frames.add(at(sim, sim.display.width // 2, 0))
    assert frames == {P.TEXT, P.OFF}
    assert at(sim, 0, 0) == P.player(0)
    sim.rng.add("c")
    sim.press("a")
    assert scr(sim).mode == S.SHAKE and st.rock < 0, "the bag shakes first"
    seen = set()
    for _ in range(6):
        sim.advance(80)
        seen.add(bytes(sim.indices()))
    assert len(seen) > 1, "the shaking bag changes"
    wait_for(sim, lambda: scr(sim).mode == S.REVEAL)
    assert st.rock == 4 and P.piece(4, 2) in sim.indices(), "a cyan rock"
    to_turn(sim)
    assert scr(sim).mode == S.SAY and scr(sim).label.text == "NEW BASE"
    assert P.piece(4, 3) in sim.indices(), "the large to stand"
    assert st.legal_actions() == [st.action("c3@new")]
    sim.press("a")
    assert st.fields()["stalks"] == ["c3"] and st.placed == 1
    pass_handoff(sim, 1)
    assert scr(sim).mode == S.DRAW
    x, y = spot(board, 0, 0)
    assert at(sim, x, y) == P.piece(4, 3), "the base on the table"


@pytest.mark.parametrize("board", BOARDS)
def test_targets_marked_cursor_steps_and_a_refusal_changes_nothing(board):
    sim = open_game(board)
    st = sim.app.state
    pass_handoff(sim, 0)
    draw(sim, "c")
    sim.press("a")                     # c3@new
    pass_handoff(sim, 1)
    draw(sim, "y")                     # y is no neighbour of c: a new base
    assert scr(sim).mode == S.SAY
    sim.press("right")                 # the table, the new slot marked
    assert scr(sim).mode == S.PLACE
    x, y = spot(board, 1, 0)
    assert cursor_or(sim, x, y, P.piece(2, 3))
    sim.press("a")
    pass_handoff(sim, 0)
    draw(sim, "g")
    # g goes either way: on c3 (down the rainbow) and on y3 (up), each
    # large or medium; the cursor on the first, the other stalk marked
    assert [st.token(a) for a in st.legal_actions()] == [
        "g3@1", "g2@1", "g3@2", "g2@2"]
    assert scr(sim).mode == S.PLACE and scr(sim).sel == 0
    x0, y0 = spot(board, 0, 1)
    x1, y1 = spot(board, 1, 1)
    assert cursor_or(sim, x0, y0, P.piece(3, 3))
    assert at(sim, *mark_spot(board, 1, 1)) == P.OK
    blink = set()
    for _ in range(12):
        sim.advance(160)
        blink.add(at(sim, x0, y0))
    assert {P.piece(3, 3), P.CURSOR} <= blink, "the cursor blinks"
    sim.press("right")                 # g2 on stalk 1
    assert scr(sim).sel == 1
    sim.press("right")                 # g3 on stalk 2
    settle(sim)
    assert cursor_or(sim, x1, y1, P.piece(3, 3))
    assert at(sim, *mark_spot(board, 0, 1)) == P.OK
    sim.press("right")
    sim.press("right")                 # past the last: refused
    before = (st.fields(), scr(sim).sel)
    assert sim.indices()[0] == P.REFUSE, "a red flash"
    assert before == (st.fields(), 3)
    sim.advance(600)
    sim.press("left")
    sim.press("a")                     # g3@2
    assert st.fields()["stalks"] == ["c3", "y3g3"]


@pytest.mark.parametrize("board", BOARDS)
def test_a_small_completes_with_an_effect_for_the_collector(board):
    sim = open_game(board)
    st = sim.app.state
    pass_handoff(sim, 0)
    draw(sim, "r")
    sim.press("a")                     # r3@new
    pass_handoff(sim, 1)
    draw(sim, "r")
    assert [st.token(a) for a in st.legal_actions()] == ["r2@1"]
    sim.press("a")
    pass_handoff(sim, 0)
    draw(sim, "r")
    sim.press("a")                     # r1@1: complete
    g = scr(sim)
    assert g.mode == S.DONE and st.fields()["collected"] == [["r3r2r1"], []]
    sim.advance(40)
    settle(sim)
    c = P.player(0)
    w = sim.display.width
    assert at(sim, 0, 3) == c and at(sim, w - 1, 3) == c, "the collector's colour"
    seen = set()
    for _ in range(10):
        seen.update(sim.indices())
        sim.advance(40)
    assert P.piece(0, 3) in seen and P.piece(0, 1) in seen, "the stalk blinks"
    assert not handoff_shown(sim), "the effect plays first"
    wait_for(sim, lambda: g.phase >= 7)
    assert g.points == 1
    if w == 8:
        # then the points, in the collector's colour, where the stalk was
        assert P.piece(0, 3) not in sim.indices()
        assert at(sim, 3, 1) == c
    wait_for(sim, lambda: handoff_shown(sim), 3000)
    pass_handoff(sim, 1)
    assert st.fields()["stalks"] == [] and st.scores() == [1, 0]


# ---- undo, views -----------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_undo_asks_then_takes_back_the_last_placement(board):
    sim = open_game(board)
    st = sim.app.state
    pass_handoff(sim, 0)
    sim.press("b")                     # nothing placed yet: refused
    assert sim.indices()[0] == P.REFUSE and scr(sim).mode == S.DRAW
    sim.advance(600)
    draw(sim, "o")
    sim.press("a")
    pass_handoff(sim, 1)
    sim.press("b")
    assert scr(sim).mode == S.ASK
    sim.press("left")                  # anything but A goes on
    assert scr(sim).mode == S.DRAW and st.placed == 1
    sim.press("b")
    sim.press("a")
    assert st.placed == 0 and st.rock == 1, "the orange rock waits again"
    pass_handoff(sim, 0)
    assert scr(sim).mode == S.SAY
    sim.press("a")
    assert st.fields()["stalks"] == ["o3"]


@pytest.mark.parametrize("board", BOARDS)
def test_views_of_the_bag_and_of_each_collection(board):
    sim = open_game(board)
    st = sim.app.state
    big = board == "pico_16x16"
    for i, (colour, player) in enumerate((("b", 0), ("b", 1), ("b", 0))):
        pass_handoff(sim, player)
        draw(sim, colour)
        sim.press("a")
    to_turn(sim)
    pass_handoff(sim, 1)
    assert st.fields()["collected"][0] == ["b3b2b1"]
    sim.press("up")
    assert scr(sim).mode == S.BAG
    settle(sim)
    # a column per colour: blue has 2 rocks left, 3 grey
    for c in range(7):
        left = st.bag[c]
        for i in range(5):
            x, y = (1 + 2 * c, 15 - 2 * i) if big else (c, 7 - i)
            assert at(sim, x, y) == (P.piece(c, 0) if i < left else P.DIM)
    sim.press("down")
    assert scr(sim).mode == S.SCORES and scr(sim).viewed == 1
    sim.press("left")
    settle(sim)
    assert scr(sim).viewed == 0 and at(sim, 0, 0) == P.player(0)
    # the solid blue held, toward the +15 (16x16: a large's cell; a grey
    # dot for a colour not held)
    x, y = (1 + 2 * 5, 12) if big else (5, 7)
    assert at(sim, x, y) == P.piece(5, 3) and at(sim, x - (2 if big else 1), y) == P.DIM
    # the collection on the next page, as stalks stand on the table
    sim.advance(1600)
    settle(sim)
    assert [at(sim, *spot(board, 0, k)) for k in range(3)] == [
        P.piece(5, 3), P.piece(5, 2), P.piece(5, 1)]
    sim.press("b")
    assert scr(sim).mode == S.DRAW


# ---- device seats ----------------------------------------------------------------
def test_a_device_seat_plays_by_itself_and_keys_stay_live():
    sim = open_game(bots="2")
    st = sim.app.state
    g = scr(sim)
    assert not handoff_shown(sim), "one person: no hand-off"
    draw(sim, "g")
    sim.press("a")                     # g3@new; the device's turn
    sim.rng.add("c")
    wait_for(sim, lambda: g.mode == S.PLACE and st.is_bot(st.turn), 3000)
    assert st.turn == 1 and st.rock == 4
    # it thinks one slice a pass: the dots walk meanwhile
    slices = 0
    while g.turn.action < 0:
        sim.advance(20)
        slices += 1
    assert slices >= 2
    assert g.turn.action == st.hint(), "the bot's move, as hint names it"
    assert [at(sim, x, 0) for x in range(2)] in ([P.player(1), P.OFF],
                                                 [P.OFF, P.player(1)])
    wait_for(sim, lambda: st.placed == 2, 3000)
    assert not handoff_shown(sim)
    assert g.mode == S.DRAW and st.turn == 0


def test_a_key_hurries_the_device_seats_turn_to_your_decision():
    sim = open_game(bots="2")
    st = sim.app.state
    g = scr(sim)
    draw(sim, "g")
    sim.press("a")                     # g3@new; the device's turn
    sim.rng.add("c")
    sim.advance(100)
    assert g.mode == S.DRAW and st.turn == 1 and st.rock < 0, "its pause"
    sim.press("up", hold_ms=20, after_ms=20)    # not a view: the turn hurries
    assert g.mode != S.BAG and g.rush
    # no pauses left: the draw, the thinking (a slice a pass), the move
    wait_for(sim, lambda: st.placed == 2, 400)
    sim.advance(40)
    assert g.mode == S.DRAW and st.turn == 0 and not g.rush
    sim.press("up")                    # a person's turn: the view opens
    assert g.mode == S.BAG


def test_undo_goes_back_past_the_device_to_your_own_placement():
    sim = open_game(bots="2")
    st = sim.app.state
    g = scr(sim)
    draw(sim, "g")
    sim.press("a")
    sim.rng.add("c")
    wait_for(sim, lambda: st.placed == 2 and g.mode == S.DRAW, 5000)
    sim.press("b")
    sim.press("a")
    wait_for(sim, lambda: g.mode == S.SAY, 1000)
    assert st.placed == 0 and st.rock == 3 and st.turn == 0


@pytest.mark.parametrize("board", BOARDS)
def test_a_table_of_device_seats_plays_to_the_end_screen(board):
    # the setting leaves a person a seat: a table of the device's seats
    # alone is asked for in words (bots=, as a protocol line does)
    sim = boot(board, seed=11)
    assert sim.app.enter("ice_stalks", registry.new(
        "ice_stalks", {"players": "3", "bots": "1,2,3"}))
    sim.advance(200)
    st = sim.app.state
    assert [st.is_bot(p) for p in range(3)] == [True] * 3
    for _ in range(400):
        sim.advance(500)
        if st.to_move() == OVER:
            break
    assert st.to_move() == OVER and sim.app.errors == 0
    to_turn(sim)     # (past a last completion's effect)
    g = scr(sim)
    assert g.mode == S.END
    w = st.winners()[0]
    assert at(sim, 0, 0) == P.player(w), "framed in the winner's colour"
    assert sim.app.settings.results["ice_stalks"] == st.scores()


# ---- the end, whole games -------------------------------------------------------
def near_end(players, seed):
    """A game played at random up to its last rock, drawn and waiting."""
    st = registry.new("ice_stalks", {"players": str(players)})
    rnd = random.Random(seed)
    while True:
        if st.to_move() == CHANCE:
            outs = st.chance_outcomes()
            st.apply_action(rnd.choices([o[0] for o in outs], [o[1] for o in outs])[0])
            continue
        if st.placed == 34:
            return st
        st.apply_action(rnd.choice(st.legal_actions()))


@pytest.mark.parametrize("board", BOARDS)
def test_end_screen_winner_then_scores(board):
    st = near_end(4, 3)
    sim = boot(board)
    assert sim.app.enter("ice_stalks", st)
    wait_for(sim, lambda: handoff_shown(sim), 1000)
    pass_handoff(sim, st.turn)
    sim.press("a")
    assert st.to_move() == OVER
    to_turn(sim)
    g = scr(sim)
    assert g.mode == S.END
    sc = st.scores()
    wins = st.winners()
    assert at(sim, 0, 0) == P.player(wins[0])
    sim.press("right")
    settle(sim)
    big = board == "pico_16x16"
    if big:
        # every score, a quarter each, in their colours
        for q in range(4):
            assert at(sim, (q & 1) * 8, (q >> 1) * 8) == P.player(q)
    else:
        assert at(sim, 0, 0) == P.player(0) and P.player(1) not in sim.indices()
    sim.press("a")
    assert g.mode == S.SCORES
    sim.press("b")
    assert g.mode == S.END
    assert sim.app.settings.results["ice_stalks"] == sc


@pytest.mark.parametrize("board,players", [("pico_8x8", 2), ("pico_16x16", 2),
                                           ("pico_8x8", 4)])
def test_a_whole_game_through_the_buttons_from_the_menu(board, players):
    from tests.test_app import goto
    sim = boot(board, seed=players)
    sim.app.settings.set("ice_stalks.players", str(players))
    goto(sim, "ice_stalks")
    sim.press("a")
    wait_for(sim, lambda: handoff_shown(sim), 1000)
    st = sim.app.state
    rnd = random.Random(players)
    for _ in range(2000):
        if st.to_move() == OVER:
            break
        if handoff_shown(sim):
            sim.press("a")
            continue
        m = scr(sim).mode
        if m == S.DRAW:
            sim.press("a")
            sim.press("a")             # hurries the shaking bag
        elif m in (S.PLACE, S.SAY):
            for _ in range(rnd.randrange(3)):
                sim.press("right")
            sim.advance(500)
            sim.press("a")
        else:
            sim.press("a")             # hurries an effect
    assert st.to_move() == OVER and st.placed == 35 and sim.app.errors == 0
    to_turn(sim)
    assert scr(sim).mode == S.END
    assert sim.app.settings.results["ice_stalks"] == st.scores()


# ---- saving ----------------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_escape_then_resume_restores_the_table(board):
    sim = open_game(board)
    st = sim.app.state
    pass_handoff(sim, 0)
    draw(sim, "y")
    sim.press("a")
    pass_handoff(sim, 1)
    draw(sim, "g")
    sim.press("right")
    assert scr(sim).sel == 1
    before = st.fields()
    sim.escape()
    assert sim.app.game is None
    sim2 = boot(board, nvm=sim.nvm)
    sim2.press("a")                    # resume
    assert sim2.app.game == "ice_stalks"
    wait_for(sim2, lambda: handoff_shown(sim2), 1000)
    pass_handoff(sim2, 1)
    st2 = sim2.app.state
    assert st2.fields() == before
    assert scr(sim2).mode == S.PLACE
    # the cursor is where it was left (saved with the game), one step on
    assert scr(sim2).sel == 1
    sim2.press("left")
    x, y = spot(board, 0, 1)
    assert cursor_or(sim2, x, y, P.piece(3, 3))
    sim2.press("a")
    assert st2.fields()["stalks"] == ["y3g3"]


def test_resume_at_a_draw_hands_the_device_over_first():
    st = registry.new("ice_stalks", {"players": "3"})
    for tok in ("r", "r3@new", "b"):
        st.apply(tok)
    st.apply("b3@new")
    sim = boot()
    sim.store.save_game(st.serialize())
    sim2 = boot(nvm=sim.nvm)
    sim2.press("a")
    wait_for(sim2, lambda: handoff_shown(sim2), 1000)
    pass_handoff(sim2, 2)
    assert scr(sim2).mode == S.DRAW


def test_the_settings_give_the_last_seats_to_the_device():
    from lib.settings import Settings
    s = Settings()
    s.set("ice_stalks.players", "4")
    s.set("ice_stalks.bots", "2")
    opts = s.options("ice_stalks", ("players", "bots"))
    assert opts == {"players": "4", "bots": "3,4"}
    st = registry.new("ice_stalks", opts)
    assert [st.is_bot(p) for p in range(4)] == [False, False, True, True]


@pytest.mark.parametrize("board", BOARDS)
def test_the_cursor_shows_the_size_it_would_place(board):
    # g on a lone c3 base: g3 or g2, two stops on one stalk. 16x16: the
    # cell's shape (a large the whole cell, a medium its bottom row); 8x8:
    # the blink code (a large flashes three times a cycle, a medium twice)
    sim = open_game(board)
    pass_handoff(sim, 0)
    draw(sim, "c")
    sim.press("a")
    pass_handoff(sim, 1)
    draw(sim, "g")
    st = sim.app.state
    assert [st.token(a) for a in st.legal_actions()] == ["g3@1", "g2@1"]
    def lit_cell():
        # the cursor's cell in its piece phase (not the white one)
        for _ in range(20):
            sim.advance(20)
            cell = [at(sim, x, y) for y in (12, 13) for x in (0, 1)]
            if P.CURSOR not in cell:
                return sum(1 for c in cell if c in (P.piece(3, 3), P.piece(3, 2)))
        raise AssertionError("no piece phase")

    def flashes():
        # lit beats in one cycle of the blink code (200 ms a beat)
        g = scr(sim)
        seen = []
        for _ in range(80):
            sim.advance(20)
            seen.append((g.phase, at(sim, 0, 6)))
        beats = dict(seen)
        start = min(b for b in beats if beats[b] == P.CURSOR)
        return sum(1 for b in range(start, start + 8)
                   if beats.get(b) in (P.piece(3, 3), P.piece(3, 2)))

    if board == "pico_16x16":
        assert lit_cell() == 4
        sim.press("right")
        assert lit_cell() == 2
    else:
        assert flashes() == 3
        sim.press("right")
        assert flashes() == 2
