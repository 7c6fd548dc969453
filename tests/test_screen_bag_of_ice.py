"""Bag of Ice on the LEDs, through the simulator harness (tools/simkit).

The die faces and pieces are forced: the app's generator is swapped for one
that answers each chance node with the next token a test names (checked
against the node's outcomes), so a test knows what must be on the panel.
"""
import random
from functools import partial
import sys

import pytest

from engine import registry
from engine.state import CHANCE, OVER
from engine.bag_of_ice import DECIDE, CHOOSE
from lib import palette as P
from lib import font
from lib import screens_common as C
from lib import screen_bag_of_ice as S
import harness
from harness import boot

BOARDS = ("pico_8x8", "pico_16x16")


class Forced:
    """An Rng stand-in: each chance node takes the next of ``tokens``."""

    def __init__(self, app, tokens=()):
        self.app = app
        self.tokens = list(tokens)

    def add(self, *tokens):
        self.tokens.extend(tokens)

    def weighted(self, weights):
        st = self.app.state
        outs = st.chance_outcomes()
        assert self.tokens, "a chance node the test did not expect"
        a = st.action(self.tokens.pop(0))
        acts = [o[0] for o in outs]
        assert a in acts, "forced outcome not possible here"
        return acts.index(a)


def open_game(board="pico_8x8", rolloff=("L", "S"), **opts):
    """A new game entered as the menu does, the roll-off forced (player 1
    starts by default) and played through to the first hand-off."""
    sim = boot(board)
    opts.setdefault("players", 2)
    o = {k: str(v) for k, v in opts.items()}
    st = registry.new("bag_of_ice", o)
    rng = Forced(sim.app, rolloff if st.players > 1 else ())
    sim.app.rng = rng
    assert sim.app.enter("bag_of_ice", st)
    sim.rng = rng
    # the screen loads one module a pass (lib/app.py Loading)
    wait_for(sim, lambda: scr(sim) is not None, 1000)
    if st.players > 1:
        wait_for(sim, lambda: not rng.tokens and scr(sim).mode != S.ROLLING
                 and scr(sim).mode != S.FACE, 30000)
    sim.advance(40)
    return sim


def scr(sim):
    return sim.app.game_scr


def state(sim):
    return sim.app.state


def handoff_shown(sim):
    return type(sim.app.scr).__name__ == "Handoff"


def whole(sim):
    """On 16x16 a frame that changes many rows goes up over a few passes
    (Display.spread), and a die or bag outcome is drawn in the pass
    after it is resolved: the passes that finish it."""
    g = scr(sim)
    for _ in range(5):
        if g is None or not (sim.display.owed or g.later):
            return
        sim.advance(20)


wait_for = partial(harness.wait_for, then=whole)


def draw(sim, face, piece, pick=None):
    """A: the die shows ``face``; ``pick`` ('left'/'right') on a two-size
    face; the bag gives ``piece``. Returns once the piece is revealed."""
    sim.rng.add(face)
    sim.press("a")
    wait_for(sim, lambda: scr(sim).mode in (S.PICK, S.SHAKE))
    if scr(sim).mode == S.PICK:
        assert pick is not None, "a choice the test did not expect"
        sim.press(pick)
        sim.rng.add(piece)
        sim.press("a")
    else:
        assert pick is None, "the face should have forced the size"
        sim.rng.add(piece)
    wait_for(sim, lambda: scr(sim).mode == S.REVEAL)


def to_turn(sim):
    """Until a hand-off or a mode that waits for the player."""
    wait_for(sim, lambda: scr(sim).mode in (S.TURN, S.PICK, S.END) or
             handoff_shown(sim))
    sim.advance(40)


def pass_handoff(sim):
    assert handoff_shown(sim)
    sim.press("a")
    assert sim.app.scr is scr(sim)


def rows(sim):
    w = sim.display.width
    f = sim.indices()
    return [list(f[y * w:(y + 1) * w]) for y in range(sim.display.height)]


def number_pixels(n, x, y, w=16):
    from lib.display import Display

    class NoLeds:
        def __setitem__(self, i, v):
            pass

        def show(self):
            pass
    d = Display(NoLeds(), w, 16)
    font.draw_number(d, n, x, y, 1)
    return {(i % w, i // w) for i in range(w * 16) if d.frame[i]}


def lit(sim, colour):
    w = sim.display.width
    f = sim.indices()
    return {(i % w, i // w) for i in range(len(f)) if f[i] == colour}


# ---- hand-off and the roll-off ------------------------------------------------
def test_twelve_player_colours_are_distinct():
    cols = [P.player(i) for i in range(12)]
    assert len(set(cols)) == 12
    rgb = P.Palette().rgb
    assert len({rgb[c] for c in cols}) == 12


@pytest.mark.parametrize("board", BOARDS)
def test_rolloff_then_handoff_to_the_winner_in_their_colour(board):
    # 12 players: seat 11 rolls the only L, so player 11 starts
    faces = ["S"] * 10 + ["ML", "M"]
    sim = open_game(board, rolloff=faces, players=12)
    st = state(sim)
    assert st.turn == 10 and st.to_move() == 10
    assert handoff_shown(sim)
    c = P.player(10)
    f = sim.indices()
    w = sim.display.width
    assert f[0] == c and f[w - 1] == c and f[-1] == c
    # the number 11 in that colour, and no other colour
    assert set(f) == {P.OFF, c}
    pass_handoff(sim)
    assert scr(sim).mode == S.TURN


def test_rolloff_shows_each_roll_in_the_rollers_colour_and_a_hurries_it():
    sim = boot()
    st = registry.new("bag_of_ice", {"players": "3"})
    sim.app.rng = Forced(sim.app, ["S", "M", "L"])
    sim.app.enter("bag_of_ice", st)
    sim.advance(200)
    assert scr(sim).mode == S.ROLLING and sim.indices()[0] == P.player(0)
    wait_for(sim, lambda: scr(sim).mode == S.FACE)
    # player 1's pip total (1), in their colour, framed
    assert lit(sim, P.player(0)) >= number_pixels(1, 2, 1, 8)
    wait_for(sim, lambda: scr(sim).mode == S.ROLLING)
    assert sim.indices()[0] == P.player(1)
    sim.press("a")                        # hurry: the rest lands quickly
    sim.advance(400)
    assert st.to_move() == 2 and handoff_shown(sim)


def test_leaving_drops_the_screen_and_the_engine():
    name = "lib.screen_bag_of_ice"
    sys.modules.pop(name, None)
    sim = boot()
    st = registry.new("bag_of_ice", {"players": "2"})
    assert sim.app.enter("bag_of_ice", st)
    sim.step()
    assert name not in sys.modules, "the screen comes in the next pass"
    sim.step()
    assert scr(sim) is not None and name in sys.modules
    sim.escape()
    assert sim.app.game is None
    assert name not in sys.modules and "engine.bag_of_ice" not in sys.modules


def test_one_player_has_no_rolloff_and_no_handoff():
    sim = open_game(players=1)
    assert not handoff_shown(sim) and scr(sim).mode == S.TURN
    assert state(sim).to_move() == 0


# ---- a turn -------------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_roll_then_two_size_choice_then_draw(board):
    sim = open_game(board)
    pass_handoff(sim)
    st = state(sim)
    sim.rng.add("SL")
    sim.press("a")
    assert scr(sim).mode == S.ROLLING, "the die tumbles first"
    frames = set()
    for _ in range(6):
        sim.advance(80)
        frames.add(bytes(sim.indices()))
    assert len(frames) > 1, "the faces change while tumbling"
    wait_for(sim, lambda: scr(sim).mode == S.FACE)
    # the face lands: small and large bars white, the medium grey
    assert P.TEXT in sim.indices() and P.DIM in sim.indices()
    wait_for(sim, lambda: scr(sim).mode == S.PICK)
    assert st.phase == CHOOSE
    big = board == "pico_16x16"
    s = 2 if big else 1
    step, top = (10, 10) if big else (5, 5)
    mark = top - 2 if big else top - 1
    r = rows(sim)
    # the marker over the left half (the small size), each half showing
    # the bag's pyramids of its size, one dot each (16x16: the size's 2x2
    # pattern, whose bottom-left pixel is always lit)
    assert r[mark][:3 * s] == [P.HILITE] * (3 * s)
    assert P.HILITE not in r[mark][3 * s:]
    for i, size in ((0, 1), (1, 3)):
        want = sorted(P.piece_code(p) for p in range(28)
                      if p & 3 == size for _ in range(st.bag_count(p)))
        got = sorted(r[y + s - 1][x] for y in range(top, sim.display.height, s)
                     for x in range(i * step, i * step + 3 * s, s)
                     if r[y + s - 1][x])
        assert got == want
        if big:
            pattern = C.GLYPHS[size]
            for y in range(top, sim.display.height, 2):
                for x in range(i * step, i * step + 6, 2):
                    c = r[y + 1][x]
                    if c:
                        cell = (r[y][x], r[y][x + 1], r[y + 1][x], r[y + 1][x + 1])
                        assert cell == tuple(c if pattern & b else P.OFF
                                             for b in (8, 4, 2, 1))
    sim.press("right")
    r = rows(sim)
    assert r[mark][step:step + 3 * s] == [P.HILITE] * (3 * s)
    assert P.HILITE not in r[mark][:step]
    sim.press("b")
    assert sim.indices()[0] == P.REFUSE and st.phase == CHOOSE, \
        "B cannot refuse a face"
    sim.advance(500)
    sim.rng.add("y3")
    sim.press("a")
    assert st.size == 3
    wait_for(sim, lambda: scr(sim).mode == S.REVEAL)
    assert P.piece(2, 3) in sim.indices(), "the yellow large comes out"
    to_turn(sim)
    assert bytes(st.drawn) == bytes([2 << 2 | 3])
    # the turn view: the leftover large at the bottom of the first column
    # (no trees yet), the value 3
    assert rows(sim)[2 * s][0] == P.piece(2, 3)


@pytest.mark.parametrize("board", BOARDS)
def test_a_redraw_with_nothing_changed_copies_the_picture_back(board, monkeypatch):
    """A refusal flash going on and off redraws the frame twice with the
    screen unchanged: the picture is put back from the copy, not worked
    out again; a key that changes nothing (the half already chosen) asks
    for no redraw at all."""
    from lib.screen_bag_of_ice import Screen
    sim = open_game(board)
    pass_handoff(sim)
    sim.rng.add("SL")
    sim.press("a")
    wait_for(sim, lambda: scr(sim).mode == S.PICK)
    sim.advance(100)
    before = bytes(sim.indices())
    calls = []
    real = Screen._draw
    monkeypatch.setattr(Screen, "_draw", lambda self, d: (calls.append(self.mode), real(self, d)))
    shows = sim.display.shows
    sim.press("left")
    assert sim.display.shows == shows, "the half already chosen: no redraw"
    sim.press("b")
    assert sim.indices()[0] == P.REFUSE, "the flash is up"
    sim.advance(600)
    whole(sim)
    assert bytes(sim.indices()) == before, "the flash is gone, the choice as it was"
    assert calls == [], "the picture was copied back, not drawn again"
    sim.press("right")
    whole(sim)
    assert calls and calls[0] == S.PICK, "a change is drawn afresh"
    assert bytes(sim.indices()) != before


@pytest.mark.parametrize("board", BOARDS)
def test_an_outcome_is_resolved_in_one_pass_and_drawn_in_the_next(board):
    """The die's landing and the bag's piece: the engine's chance node in
    one pass (the frame as it was), the new picture in the next; the
    turn's layout is worked out while the piece shows."""
    sim = open_game(board)
    pass_handoff(sim)
    st = state(sim)
    sim.rng.add("M")
    sim.press("a")
    assert scr(sim).mode == S.ROLLING
    while st.face < 0:
        frame = bytes(sim.indices())
        sim.advance(20)
    g = scr(sim)
    assert g.mode == S.FACE and g.later, "landed, not drawn yet"
    assert bytes(sim.indices()) == frame
    sim.advance(20)
    assert not g.later and P.TEXT in sim.indices(), "the face is up"
    sim.rng.add("g2")
    for _ in range(150):
        if st.drawn:
            break
        frame = bytes(sim.indices())
        sim.advance(20)
    assert g.mode == S.REVEAL and g.later and not g.laid
    assert bytes(sim.indices()) == frame
    sim.advance(20)
    assert P.piece(3, 2) in sim.indices(), "the green medium comes out"
    sim.advance(40)
    assert g.laid and g.value == st.turn_points() == 2 and g.mode == S.REVEAL
    to_turn(sim)
    assert g.mode == S.TURN and g.nleft == 1


def test_single_face_forces_the_size():
    sim = open_game()
    pass_handoff(sim)
    draw(sim, "M", "c2")
    assert state(sim).drawn[-1] == (4 << 2 | 2)


@pytest.mark.parametrize("board", BOARDS)
def test_trees_are_grouped_and_the_value_runs(board):
    sim = open_game(board)
    pass_handoff(sim)
    st = state(sim)
    for face, piece in (("L", "y3"), ("S", "c1"), ("M", "y2"), ("S", "y1")):
        draw(sim, face, piece)
        to_turn(sim)
    assert st.turn_points() == 21
    s = 2 if board == "pico_16x16" else 1
    r = rows(sim)
    # the yellow tree first (small on top), then a gap, then the cyan small
    y1, y2, y3, off = P.piece(2, 1), P.piece(2, 2), P.piece(2, 3), P.OFF
    if s == 1:
        assert [r[j][0] for j in range(3)] == [y1, y2, y3]
        assert r[2][2] == P.piece(4, 1)
    else:
        # a column of the sizes' patterns: a dot, a bar, a block
        assert [r[y][:2] for y in range(6)] == [
            [off, off], [y1, off], [off, off], [y2, y2], [y3, y3], [y3, y3]]
        # the leftover on the ground, after a gap column: a dot
        assert [r[y][3:5] for y in range(6)] == [[off, off]] * 5 + [
            [P.piece(4, 1), off]]
    # the value 21 in white under the pieces
    if s == 1:
        assert lit(sim, P.TEXT) == number_pixels(21, 0, 3, 8)
        assert all(r[y][7] == P.player(0) for y in range(3, 8))
    else:
        assert lit(sim, P.TEXT) >= number_pixels(21, 0, 9)


def tree_value(t):
    cols = {p >> 2 for p in t}
    if len(cols) == 1:
        return {2: 20, 6: 20, 3: 15, 4: 15}[cols.pop()]
    return 10


def test_the_layout_is_a_best_arrangement():
    # every subset the bag can give in a turn (non-red), sampled: the trees
    # shown are real trees and the layout is worth the engine's best value
    sim = open_game()
    st = state(sim)
    sc = scr(sim)
    pieces = [p for p in range(28) if p >> 2 and p & 3
              for _ in range(st.bag_count(p))]
    assert len(pieces) == 18
    rnd = random.Random(3)
    subsets = [pieces, [], [p for p in pieces if p & 3 == 3]]
    subsets += [rnd.sample(pieces, rnd.randint(1, 18)) for _ in range(3000)]
    saved = bytes(st.drawn)
    for sub in subsets:
        st.drawn[:] = bytes(sub)
        sc._refresh()
        lay = list(sc.layout[:3 * sc.ntrees + sc.nleft])
        assert sorted(lay) == sorted(sub)
        trees = [lay[3 * i:3 * i + 3] for i in range(sc.ntrees)]
        for t in trees:
            assert [p & 3 for p in t] == [3, 2, 1]
        v = sum(tree_value(t) for t in trees) + sum(p & 3 for p in lay[3 * sc.ntrees:])
        assert v == st.turn_points() == sc.value
    assert st.best()[0] == st.turn_points()
    st.drawn[:] = saved
    sc._refresh()


@pytest.mark.parametrize("board", BOARDS)
def test_bust_effect_then_handoff(board):
    sim = open_game(board)
    pass_handoff(sim)
    st = state(sim)
    draw(sim, "L", "g3")
    to_turn(sim)
    draw(sim, "S", "r1")
    assert P.piece(0, 1) in sim.indices(), "the red small comes out"
    assert st.to_move() == 1 and not st.drawn and st.last_bust == 1
    assert sim.app.scr is scr(sim), "no hand-off before the effect"
    wait_for(sim, lambda: scr(sim).mode == S.BUST)
    w = sim.display.width
    cross = greys = text = 0
    for _ in range(30):
        sim.advance(60)
        if sim.app.scr is not scr(sim):
            break
        f = sim.indices()
        if all(f[i * w + i] == P.REFUSE and f[i * w + w - 1 - i] == P.REFUSE
               for i in range(w)):
            cross += 1
        elif f.count(P.REFUSE) > 2 * w:
            text += 1
        greys = max(greys, f.count(P.DIM))
    assert cross, "a red cross over the panel"
    assert text, "then BUST (8x8: a 0) blinks"
    s = 2 if board == "pico_16x16" else 1
    assert greys >= s * s, "the lost pieces show grey"
    wait_for(sim, lambda: handoff_shown(sim))
    assert sim.indices()[0] == P.player(1)
    assert st.scores() == [0, 0]


@pytest.mark.parametrize("board", BOARDS)
def test_stop_needs_a_confirm_and_banks_the_trees(board):
    sim = open_game(board)
    pass_handoff(sim)
    st = state(sim)
    sim.press("b")
    assert sim.indices()[0] == P.REFUSE, "nothing drawn: nothing to bank"
    sim.advance(500)
    for face, piece in (("L", "p3"), ("M", "p2"), ("S", "p1"), ("S", "g1")):
        draw(sim, face, piece)
        to_turn(sim)
    assert st.turn_points() == 21
    sim.press("b")
    assert scr(sim).mode == S.ASK
    seen = set()
    for _ in range(8):
        sim.advance(100)
        seen |= set(sim.indices())
    assert P.OK in seen, "the value to bank blinks green"
    sim.press("b")                     # no: keep playing
    assert scr(sim).mode == S.TURN and st.scores() == [0, 0]
    sim.press("left")                  # a stray direction does nothing
    assert scr(sim).mode == S.TURN
    sim.press("b")
    sim.press("a")                     # yes
    assert st.scores() == [21, 0]
    assert scr(sim).mode == S.BANKED and sim.app.scr is scr(sim)
    assert P.OK in sim.indices()
    # the purple tree stays up during the effect
    s = 2 if board == "pico_16x16" else 1
    assert rows(sim)[2 * s][0] == P.piece(6, 3)
    wait_for(sim, lambda: handoff_shown(sim))
    assert sim.indices()[0] == P.player(1)
    pass_handoff(sim)
    assert not any(rows(sim)[0]), "player 2 starts with nothing drawn"


def odds_at_start():
    # independent: one red per size; on a two-size face the safer size
    from fractions import Fraction as F
    n = {1: 9, 2: 7, 3: 5}
    faces = ((1,), (2,), (3,), (1, 2), (1, 3), (2, 3))
    return sum(min(F(1, n[s]) for s in f) for f in faces) / 6


@pytest.mark.parametrize("board", BOARDS)
def test_odds_on_request(board):
    sim = open_game(board)
    pass_handoff(sim)
    st = state(sim)
    want = odds_at_start()
    assert st.bust_odds() == (want.numerator, want.denominator)
    pct = (200 * want.numerator + want.denominator) // (2 * want.denominator)
    sim.press("up")
    assert scr(sim).mode == S.ODDS
    if board == "pico_8x8":
        x = 8 - font.number_width(pct)
        assert lit(sim, P.REFUSE) == number_pixels(pct, x, 2, 8) | {
            (i, 0) for i in range(8)}
        sim.advance(1600)
        assert P.OK in sim.indices(), "then the expected gain, in green"
    else:
        x = (16 - font.number_width(pct)) // 2
        assert lit(sim, P.REFUSE) == number_pixels(pct, x, 1)
        gn, gd = st.expected_gain()
        assert gn > 0 and P.OK in sim.indices()
        t = (20 * gn + gd) // (2 * gd)
        assert lit(sim, P.OK) >= number_pixels(t % 10, 4 + font.number_width(t // 10) + 3, 9)
    sim.press("b")
    assert scr(sim).mode == S.TURN and st.phase == DECIDE


# ---- scores and the end --------------------------------------------------------
def test_scoreboard_scrolls_on_8x8_with_twelve_players():
    sim = open_game("pico_8x8", rolloff=["L"] + ["S"] * 11, players=12)
    pass_handoff(sim)
    sim.press("down")
    assert scr(sim).mode == S.SCORES
    first = rows(sim)
    assert P.player(0) in first[1] or P.player(0) in first[2] or \
        scr(sim).scroll_rows == 0
    seen = set()
    for _ in range(150):
        sim.advance(100)
        seen |= set(sim.indices())
    for i in range(12):
        assert P.player(i) in seen, "player %d scrolled into view" % (i + 1)
    # DOWN steps a line at a time
    sim.press("b")
    sim.press("down")
    y = scr(sim).scroll_rows
    sim.press("down")
    assert scr(sim).scroll_rows == y + 6
    sim.press("a")
    assert scr(sim).mode == S.TURN


def test_scoreboard_on_16x16_has_two_columns():
    sim = open_game("pico_16x16", rolloff=("L", "S", "S"), players=3)
    pass_handoff(sim)
    st = state(sim)
    sim.press("down")
    sim.advance(700)
    seen = set()
    for _ in range(6):
        sim.advance(100)
        r = rows(sim)
        seen |= {r[y][x] for y in range(5) for x in range(16)}
    assert {P.player(0), P.player(1)} <= seen
    assert st.to_move() == 0


@pytest.mark.parametrize("board", BOARDS)
def test_reaching_the_target_shows_the_winner(board):
    sim = open_game(board, target=30)
    pass_handoff(sim)
    st = state(sim)
    for face, piece in (("L", "y3"), ("M", "y2"), ("S", "y1"),
                        ("L", "p3"), ("M", "p2"), ("S", "p1")):
        draw(sim, face, piece)
        to_turn(sim)
    sim.press("b")
    sim.press("a")
    assert st.to_move() == OVER and st.winner == 0
    wait_for(sim, lambda: scr(sim).mode == S.END)
    assert not handoff_shown(sim)
    seen = set()
    for _ in range(10):
        sim.advance(100)
        seen.add(sim.indices()[0])
    assert seen == {P.player(0), P.OFF}, "the frame blinks in the winner's colour"
    assert sim.app.settings.results["bag_of_ice"] == [40, 0]
    sim.press("a")
    assert scr(sim).mode == S.SCORES
    sim.press("b")
    assert scr(sim).mode == S.END


def test_one_player_practice_counts_turns():
    sim = open_game(players=1, target=30)
    st = state(sim)
    draw(sim, "S", "r1")                  # a bust: turn 1
    to_turn(sim)
    assert st.turns == 1 and not handoff_shown(sim)
    for face, piece in (("L", "y3"), ("M", "y2"), ("S", "y1"),
                        ("L", "p3"), ("M", "p2"), ("S", "p1")):
        draw(sim, face, piece)
        to_turn(sim)
    sim.press("b")
    sim.press("a")
    wait_for(sim, lambda: scr(sim).mode == S.END)
    assert st.turns == 2
    sim.advance(40)
    assert lit(sim, P.TEXT) == number_pixels(2, 2, 1, 8)


# ---- bots ------------------------------------------------------------------------
def test_bot_seat_plays_itself_without_a_handoff():
    sim = open_game(players=2, bots="2")
    to_turn(sim)
    assert not handoff_shown(sim), "one person against the device: no hand-off"
    st = state(sim)
    draw(sim, "L", "y3")
    to_turn(sim)
    sim.press("b")
    sim.press("a")                        # bank 3: the bot's turn
    # the bot draws for itself; feed it a bust, with its pace visible
    sim.rng.add("S", "r1")
    wait_for(sim, lambda: st.turn == 1 and scr(sim).mode == S.TURN, 4000)
    assert not handoff_shown(sim)
    # the bot's colour column is dotted, and it waits a moment before acting
    assert [rows(sim)[y][7] for y in range(3, 8)] == [P.player(1), P.OFF] * 2 + [P.player(1)]
    assert st.phase == DECIDE and not st.drawn
    sim.advance(300)
    assert st.phase == DECIDE and not st.drawn, "a visible pace"
    wait_for(sim, lambda: st.turn == 0 and scr(sim).mode == S.TURN, 8000)
    assert not handoff_shown(sim), "back to the only person: no hand-off"
    assert st.scores() == [3, 0]


# ---- saving ------------------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_save_and_resume_mid_turn(board):
    sim = open_game(board)
    pass_handoff(sim)
    st = state(sim)
    for face, piece in (("L", "c3"), ("M", "c2")):
        draw(sim, face, piece)
        to_turn(sim)
    before = rows(sim)
    sim.escape()
    assert sim.app.game is None
    sim2 = boot(board, nvm=sim.nvm)
    sim2.press("a")                       # resume
    assert sim2.app.game == "bag_of_ice"
    assert handoff_shown(sim2), "the device may have changed hands"
    sim2.press("a")
    assert rows(sim2) == before
    assert bytes(state(sim2).drawn) == bytes(st.drawn)


def test_resume_mid_roll_lands_the_die():
    # saved while the die was in the air (the escape saves at once)
    st = registry.new("bag_of_ice", {"players": "2"})
    for tok in ("L", "S", "draw", "L", "y3", "draw"):
        st.apply(tok)
    assert st.to_move() == CHANCE and st.phase == S.ROLL
    sim = boot()
    sim.store.save_game(st.serialize())
    sim2 = boot(nvm=sim.nvm)
    sim2.app.rng = Forced(sim2.app, ["S", "g1"])
    sim2.press("a")
    assert sim2.app.game == "bag_of_ice"
    # (the screen loads one module a pass; its first pass hands over)
    wait_for(sim2, lambda: handoff_shown(sim2), 1000)
    assert handoff_shown(sim2) and sim2.indices()[0] == P.player(0), \
        "the turn's owner gets the device first"
    assert len(state(sim2).drawn) == 1
    sim2.press("a")
    assert scr(sim2).mode == S.ROLLING, "then the die lands"
    wait_for(sim2, lambda: scr(sim2).mode == S.TURN)
    assert not handoff_shown(sim2)
    assert bytes(state(sim2).drawn) == bytes([2 << 2 | 3, 3 << 2 | 1])


@pytest.mark.parametrize("board", BOARDS)
def test_resume_at_a_two_size_choice(board):
    st = registry.new("bag_of_ice", {"players": "3"})
    for tok in ("S", "L", "M", "draw", "SM"):
        st.apply(tok)
    assert st.phase == CHOOSE and st.to_move() == 1
    sim = boot(board)
    sim.store.save_game(st.serialize())
    sim2 = boot(board, nvm=sim.nvm)
    sim2.press("a")
    assert handoff_shown(sim2) and sim2.indices()[0] == P.player(1)
    sim2.press("a")
    assert scr(sim2).mode == S.PICK
    sim2.app.rng = Forced(sim2.app, ["g2"])
    sim2.press("right")
    sim2.press("a")
    wait_for(sim2, lambda: scr(sim2).mode == S.TURN)
    assert bytes(state(sim2).drawn) == bytes([3 << 2 | 2])


# ---- mashing -----------------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_button_mashing_changes_nothing_illegal(board):
    sim = boot(board, seed=7)
    st = registry.new("bag_of_ice", {"players": "3", "bots": "3", "target": "30"})
    sim.app.enter("bag_of_ice", st)
    rnd = random.Random(5)
    keys = ("up", "down", "left", "right", "a", "a", "a", "b")
    stops = 0
    prev = list(st.scores())
    for n in range(400):
        sim.press(rnd.choice(keys), hold_ms=20, after_ms=rnd.choice((20, 60, 300)))
        if sim.app.game is None:
            break
        sc = st.scores()
        if sc != prev:
            # scores only ever grow, by one player's banked turn
            diff = [b - a for a, b in zip(prev, sc)]
            assert sum(1 for x in diff if x) == 1 and max(diff) > 0
            stops += 1
            prev = sc
        if st.to_move() == OVER:
            break
    assert sim.app.errors == 0
    # the state is still one the engine can replay from its save
    again = registry.deserialize(st.serialize())
    assert again.scores() == st.scores()


@pytest.mark.parametrize("board", BOARDS)
def test_a_table_of_device_seats_plays_itself_to_a_winner(board):
    # every seat the device's (asked for in words, bots=, as Settings
    # always leave a person a seat). A draw's bag shake leaves its pick in
    # the flicker counter, and the next die roll must not read it as a
    # face (it did once: an IndexError mid-game)
    from engine import registry
    sim = boot(board, seed=7)
    assert sim.app.enter("bag_of_ice", registry.new(
        "bag_of_ice", {"players": "3", "bots": "1,2,3", "target": "30"}))
    sim.advance(100)
    st = sim.app.state
    assert [st.is_bot(p) for p in range(3)] == [True, True, True]
    for _ in range(900):
        sim.advance(500)
        if st.to_move() == OVER:
            break
    assert st.to_move() == OVER and max(st.scores()) >= 30
    assert st.scores()[st.winner] == max(st.scores())


def leds(sim):
    """The LED bytes as last written, in reading order (3 a pixel): a
    frame spread over passes (Display.spread) is whole in the display's
    frame and goes up on the LEDs a few rows a pass."""
    return bytes(v for px in sim.frame() for v in px)


def changed_rows(a, b, w):
    return sum(1 for y in range(len(a) // w) if a[y * w:(y + 1) * w] != b[y * w:(y + 1) * w])


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_a_whole_new_frame_goes_up_over_passes_on_16x16(board):
    # a bust, then the hand-off and back: frames that change every row.
    # 16x16: no pass shows more than SPREAD (6) changed rows (show() is
    # paid per changed row), the passes after it complete the picture; an
    # 8x8 frame is cheap and goes up at once
    sim = open_game(board)
    pass_handoff(sim)
    w = sim.display.width
    big = board == "pico_16x16"
    draw(sim, "S", "r1")
    most = 0
    last = leds(sim)
    for _ in range(200):
        sim.advance(20)
        f = leds(sim)
        most = max(most, changed_rows(last, f, 3 * w))
        last = f
        if handoff_shown(sim):
            break
    assert handoff_shown(sim)
    assert sim.indices()[0] == P.player(1), "the hand-off's picture is whole"
    sim.down("a")
    sim.step()
    counts = [changed_rows(last, leds(sim), 3 * w)]
    for _ in range(4):
        last = leds(sim)
        sim.now += sim.frame_ms
        sim.step()
        counts.append(changed_rows(last, leds(sim), 3 * w))
    if big:
        assert most <= 6 and counts[0] == 6, (most, counts)
        assert counts[1] and max(counts) <= 6, counts   # (rows alike on both stay)
        assert not sim.display.owed
    else:
        # (8 rows is the whole 8x8 panel)
        assert counts[0] == 8 and sum(counts) == 8, counts
    sim.up("a")
    sim.advance(40)
    assert sim.app.scr is scr(sim) and scr(sim).mode == S.TURN
