"""IceTowers on the LEDs, through the simulator harness (tools/simkit).

Most tests deal a known table (the state is made and dealt here, then
entered as the menu would enter a resumed game), so a test knows what must
be on the panel; one comes in through the menu with the device's settings.
"""
import pytest

from engine import registry
from engine.state import OVER
from lib import palette as P
from lib import font
from lib import screen_ice_towers as S
from harness import boot, settle, wait_for

BOARDS = ("pico_8x8", "pico_16x16")
# two players: a row r1 y1 r2 y2 r3 y3, five times (row 6 empty)
DEAL2 = ["r1", "y1", "r2", "y2", "r3", "y3"] * 5


def dealt(deal=DEAL2, moves=(), **opts):
    o = {k: str(v) for k, v in opts.items()}
    o.setdefault("players", "2")
    st = registry.new("ice_towers", o)
    if deal is None:
        from engine.rng import Rng
        rng = Rng(7)
        while st.to_move() < 0 and st.chance_outcomes():
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.weighted([w for _, w in outs])][0])
    else:
        for tok in deal:
            st.apply_action(st.action(tok))
    for tok in moves:
        st.apply_action(st.action(tok))
    return st


def open_game(board="pico_8x8", deal=DEAL2, moves=(), handoff=True, **opts):
    sim = boot(board)
    st = dealt(deal, moves, **opts)
    assert sim.app.enter("ice_towers", st)
    wait_for(sim, lambda: scr(sim) is not None, 1000)
    sim.advance(60)
    lone = getattr(sim.app, "lone", False)   # one person: no hand-offs
    if handoff and not st.is_bot(st.to_move()) and not lone:
        assert handing(sim)
        sim.press("a")
    return sim


def handing(sim):
    """The app's hand-off screen is up (in the seat's colour)."""
    return type(sim.app.scr).__name__ == "Handoff"


def scr(sim):
    return sim.app.game_scr


def state(sim):
    return sim.app.state


def at(sim, x, y):
    settle(sim)
    return sim.indices()[y * sim.display.width + x]


def cell_xy(sim, i):
    g = scr(sim)
    side = g.side
    return (g.x0 + (i % side - g.ox) * g.cs, g.y0 + (i // side - g.oy) * g.cs)


def cell_pixel(sim, i):
    x, y = cell_xy(sim, i)
    return at(sim, x, y)


def cell_picture(sim, i):
    """What the panel shows of cell ``i``: one pixel on 8x8, the 2x2
    block's four (top-left, top-right, bottom-left, bottom-right)."""
    x, y = cell_xy(sim, i)
    if scr(sim).cs == 1:
        return (at(sim, x, y),)
    return (at(sim, x, y), at(sim, x + 1, y), at(sim, x, y + 1), at(sim, x + 1, y + 1))


def want_picture(t, big):
    """A cell as the controls say it is drawn (written from the doc)."""
    if not big:
        return (S.ink(t[-1]) if t else P.OFF,)
    if not t:
        return (P.DIM, P.OFF, P.OFF, P.OFF)         # a grey dot
    c = S.ink(t[-1])
    if len(t) == 1:
        return {1: (P.OFF, P.OFF, c, P.OFF),        # small: a dot
                2: (P.OFF, P.OFF, c, c),            # medium: the bottom row
                3: (c, c, c, c)}[t[0] & 3]          # large: the whole cell
    mark = P.OFF if len(t) == 2 else (P.DIM if len(t) == 3 else P.TEXT)
    return (c, c, S.ink(t[-2]), mark)


def check_table(sim):
    """Every cell in view but the cursor's drawn as the doc says."""
    st = state(sim)
    g = scr(sim)
    big = g.cs > 1
    n = 0
    for i in range(len(st.cells)):
        vx = i % g.side - g.ox
        vy = i // g.side - g.oy
        if i == g.cur or not (0 <= vx < g.vw and 0 <= vy < g.vw):
            continue
        assert cell_picture(sim, i) == want_picture(st.cells[i], big), i
        n += 1
    return n


def goto(sim, cell):
    """Move the cursor to ``cell`` (a name like ``b3``) with the buttons."""
    g = scr(sim)
    side = g.side
    if isinstance(cell, int):
        want = cell
    else:
        want = ("123456789".index(cell[1])) * side + "abcdefghi".index(cell[0])
    for _ in range(side):
        if g.cur % side != want % side:
            sim.press("right")
    for _ in range(side):
        if g.cur // side != want // side:
            sim.press("down")
    assert g.cur == want
    return want


def phase(sim, odd):
    """Wait for a blink phase (odd: the targets' green shows; even: the
    cursor's white)."""
    wait_for(sim, lambda: scr(sim).phase >= 0 and
             (scr(sim).phase & 1) == (1 if odd else 0) and
             scr(sim).phase % 4 != 3, 2000)
    settle(sim)


def lit(sim, colour):
    settle(sim)
    w = sim.display.width
    f = sim.indices()
    return {(i % w, i // w) for i in range(len(f)) if f[i] == colour}


def number_pixels(n, x, y, w=16):
    """The pixels font.draw_number lights for ``n`` at (x, y)."""
    from lib.display import Display

    class NoLeds:
        def __setitem__(self, i, v):
            pass

        def show(self):
            pass
    d = Display(NoLeds(), w, 16)
    font.draw_number(d, n, x, y, 1)
    return {(i % w, i // w) for i in range(w * 16) if d.frame[i]}


def ink(tok):
    return P.piece("roygcbpwk".index(tok[0]), int(tok[1]))


def handoff_to(sim, p):
    g = scr(sim)
    assert handing(sim) and sim.app.scr.player == p
    settle(sim)
    # the seat's own colour all round, the board hidden
    c = S.seat_ink(p)
    w = sim.display.width
    f = sim.indices()
    assert f[0] == c and f[w - 1] == c and f[-1] == c
    assert set(f) == {P.OFF, c}


# ---- through the menu --------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_from_the_menu_deal_handoff_and_the_table(board):
    sim = boot(board)
    sim.run_script("menu:ice_towers a")
    wait_for(sim, lambda: scr(sim) is not None and handing(sim))
    st = state(sim)
    assert st.players == 3 and st.side == 7 and not st.ghost   # the defaults
    sim.advance(100)
    handoff_to(sim, 0)
    sim.press("a")
    assert scr(sim).mode == S.BOARD
    phase(sim, True)
    # every cell in its top's colour and size
    check_table(sim)


# ---- moves through the buttons ------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_cap_shows_the_targets_then_plays_and_hands_off(board):
    sim = open_game(board)
    st = state(sim)
    sim.press("a")                  # a1: the red small
    g = scr(sim)
    assert g.mode == S.HAND and g.pick == 0
    phase(sim, True)
    # every top of another colour blinks green (a small caps any size)
    for i in range(36):
        t = st.cells[i]
        want = bool(t) and t[-1] >> 2 != 0
        assert (cell_pixel(sim, i) == P.OK) == want, i
    assert cell_pixel(sim, 0) == P.HILITE
    # then a dark beat, so a green piece blinks too (one seat plays green)
    wait_for(sim, lambda: scr(sim).phase % 4 == 2, 2000)
    for i in range(36):
        t = st.cells[i]
        if t and t[-1] >> 2 != 0 and i != scr(sim).cur:
            assert cell_pixel(sim, i) == P.OFF, i
    # the flags are exactly the engine's caps from a1
    caps = {a for a in st.legal_actions() if S.CAP <= a < S.SPLIT
            and (a - S.CAP) // 81 == 0}
    assert caps == {S.CAP + g._c9(i) for i in range(36) if g.flags[i]}
    goto(sim, "b1")
    sim.press("a")
    assert st.stack(1) == "y1r1" and st.stack(0) == "-"
    handoff_to(sim, 1)
    sim.press("a")
    sim.press("down")               # the cursor off b1 (8x8: it flashes b1)
    phase(sim, True)
    if board == "pico_16x16":
        x, y = cell_xy(sim, 1)
        # the tower: its top along the upper row, the piece under it at
        # the lower left, dark at the lower right (2 high)
        assert at(sim, x, y) == ink("r1") and at(sim, x + 1, y) == ink("r1")
        assert at(sim, x, y + 1) == ink("y1") and at(sim, x + 1, y + 1) == P.OFF
        # a freestanding medium: the bottom row
        assert cell_picture(sim, 2) == (P.OFF, P.OFF, ink("r2"), ink("r2"))
        check_table(sim)
    else:
        assert cell_pixel(sim, 1) == ink("r1")
        check_table(sim)
        # the blink's short half shows the piece under the top
        wait_for(sim, lambda: scr(sim).phase % 4 == 3, 2000)
        assert cell_pixel(sim, 1) == ink("y1")
        # and yellow's own freestanding pieces go dark
        assert cell_pixel(sim, 3) == P.OFF and cell_pixel(sim, 2) == ink("r2")


@pytest.mark.parametrize("board", BOARDS)
def test_refused_cap_changes_nothing(board):
    sim = open_game(board)
    st = state(sim)
    before = st.fields()
    goto(sim, "c1")                 # the red medium
    sim.press("a")
    assert scr(sim).mode == S.HAND
    goto(sim, "b2")                 # a yellow small: too small
    sim.down("a")
    sim.advance(40)
    f = sim.indices()
    assert f[0] == P.REFUSE         # the refusal flash
    sim.up("a")
    sim.advance(600)
    assert st.fields() == before and scr(sim).mode == S.HAND
    goto(sim, "e1")                 # own colour: refused too
    sim.press("a")
    assert st.fields() == before
    sim.press("b")                  # put it back
    assert scr(sim).mode == S.BOARD and scr(sim).pick == -1


# b1 ends as y1 r1 y1 r1 y1: red to move may mine heights 2 and 4
TOWER = ("a1-b1", "b2-b1", "a2-b1", "b3-b1")


@pytest.mark.parametrize("board", BOARDS)
def test_mine_then_split_through_the_inside_view(board):
    sim = open_game(board, moves=TOWER)
    st = state(sim)
    assert st.stack(1) == "y1r1y1r1y1" and st.turn == 0
    goto(sim, "b1")
    sim.press("a")
    g = scr(sim)
    assert g.mode == S.INSIDE and g.height == 3
    settle(sim)
    w = sim.display.width
    h = sim.display.height
    ph = 2 if board == "pico_16x16" else 1
    # five bars bottom up in their colours, green marks at heights 2 and 4
    for j, tok in enumerate(("y1", "r1", "y1", "r1", "y1")):
        y = h - (j + 1) * ph
        assert at(sim, w // 2, y) == ink(tok)
        assert at(sim, w - 1, y) == (P.OK if j in (1, 3) else P.OFF)
    sim.press("down")
    assert g.height == 1
    sim.press("a")
    assert g.mode == S.AIM
    goto(sim, "d2")
    sim.press("a")
    assert st.stack(1) == "y1y1r1y1" and st.stack(9) == "y2r1"
    handoff_to(sim, 1)
    sim.press("a")
    sim.run_script("b a")               # yellow passes (PASS is first)
    assert st.passes == 1
    handoff_to(sim, 0)
    sim.press("a")
    goto(sim, "b1")
    sim.press("a")
    # the yellow pair at heights 1 and 2: an amber mark at height 2
    assert g.mode == S.INSIDE and g.marks[1] == 2 and g.height == 1
    assert at(sim, w - 1, h - 2 * ph) == P.NOTICE
    sim.press("a")
    # lifted to the first empty cell: a1, emptied by the first cap
    assert st.stack(1) == "y1" and st.stack(0) == "y1r1y1"


@pytest.mark.parametrize("board", BOARDS)
def test_a_tower_with_nothing_to_do_is_only_looked_at(board):
    sim = open_game(board, moves=("a1-b1",))
    st = state(sim)
    before = st.fields()
    goto(sim, "b1")
    sim.press("a")
    g = scr(sim)
    assert g.mode == S.INSIDE and g.nmarks == 0
    sim.press("a")
    assert st.fields() == before and g.mode == S.INSIDE
    sim.press("b")
    assert g.mode == S.BOARD


def test_marks_and_targets_are_the_engines_moves():
    # random positions: the screen's marks and green cells against legal
    sim = open_game("pico_8x8", deal=None, players="3")
    st = state(sim)
    g = scr(sim)
    from engine.rng import Rng
    rng = Rng(3)
    checked = 0
    for _ in range(60):
        if st.to_move() == OVER:
            break
        legal = set(st.legal_actions())
        got = {S.PASS}
        for i in range(len(st.cells)):
            t = st.cells[i]
            if len(t) == 1 and t[0] >> 2 == st.turn:
                g._targets(t[0] & 3, i)
                got |= {S.CAP + g._c9(i) * 81 + g._c9(j)
                        for j in range(len(st.cells)) if g.flags[j]}
            if t:
                g.pick = i
                g._inside_marks()
                for h in range(len(t)):
                    a = g._c9(i) * S.HEIGHTS + h + 1
                    if g.marks[h] == 2:
                        got.add(S.SPLIT + a)
                    elif g.marks[h] == 1:
                        if g._targets(t[h] & 3, i):
                            got |= {S.MINE + a * 82 + g._c9(j)
                                    for j in range(len(st.cells)) if g.flags[j]}
                        else:
                            got.add(S.MINE + a * 82 + S.SET_DOWN)
        assert got == legal
        checked += len(legal)
        acts = sorted(legal)
        st.apply_action(acts[rng.randrange(len(acts))])
    assert checked > 200


# ---- pass, undo, hint ----------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_undo_takes_the_move_back_and_hands_back(board):
    sim = open_game(board)
    st = state(sim)
    sim.press("a")
    goto(sim, "b1")
    sim.press("a")
    assert st.moves == 1
    handoff_to(sim, 1)
    sim.press("a")
    sim.run_script("b right")
    assert scr(sim).mode == S.MENU and scr(sim).item == S.M_UNDO
    sim.press("a")
    sim.advance(100)
    assert st.moves == 0 and st.stack(0) == "r1" and st.stack(1) == "y1"
    handoff_to(sim, 0)
    sim.press("a")
    sim.run_script("b right a")     # nothing left to undo: refused
    assert st.moves == 0


def test_hint_sets_the_move_up_and_a_plays_it():
    sim = open_game("pico_8x8", moves=TOWER)
    st = state(sim)
    want = st.hint()
    sim.run_script("b right right a")
    wait_for(sim, lambda: scr(sim).mode != S.HINTING)
    sim.press("a")
    assert st.moves == len(TOWER) + 1
    assert st.history()[-1][0] == want


# ---- the device's seats ----------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_a_device_seat_thinks_over_passes_and_shows_its_move(board):
    sim = open_game(board, bots="2")
    st = state(sim)
    sim.press("a")
    goto(sim, "b1")
    sim.down("a")                   # A acts on the press
    sim.advance(20)
    sim.up("a")
    g = scr(sim)
    assert st.turn == 1 and g.mode == S.BOT
    # no hand-off to the device; it thinks a slice a pass, its dot in yellow
    assert sim.app.scr is g
    passes = 0
    while g.turn.action < 0:
        sim.advance(20)
        passes += 1
    assert passes >= 3
    # the move shows before it is played
    sim.advance(200)
    assert st.turn == 1
    if g.kind != S.K_PASS:
        assert cell_pixel(sim, g.af) == P.HILITE
    else:
        assert at(sim, 0, 0) == S.seat_ink(1)
    wait_for(sim, lambda: st.turn == 0, 3000)
    # back to the same person: no hand-off
    sim.advance(60)
    assert g.mode == S.BOARD and sim.app.scr is g
    # next time a key skips the showing, and does nothing else
    goto(sim, "c1")                 # the red medium
    sim.press("a")
    assert g.mode == S.HAND
    goto(sim, list(g.flags).index(1))
    sim.press("a")
    assert st.turn == 1 and st.moves == 3
    cur = g.cur
    wait_for(sim, lambda: g.turn.action >= 0, 3000)
    sim.down("right")
    sim.advance(40)
    sim.up("right")
    sim.advance(40)
    assert st.turn == 0 and st.moves == 4 and g.cur == cur


def test_undo_against_the_device_goes_back_to_your_move():
    sim = open_game("pico_8x8", bots="2")
    st = state(sim)
    sim.press("a")
    goto(sim, "b1")
    sim.press("a")
    wait_for(sim, lambda: st.turn == 0 and scr(sim).mode == S.BOARD, 4000)
    assert st.moves == 2
    sim.run_script("b right a")
    wait_for(sim, lambda: scr(sim).mode != S.UNDOING)
    assert st.moves == 0 and st.turn == 0 and scr(sim).mode == S.BOARD


@pytest.mark.parametrize("board", BOARDS)
def test_a_table_of_device_seats_plays_to_the_end(board):
    sim = open_game(board, deal=None, bots="1,2", ghost="1", handoff=False)
    st = state(sim)
    wait_for(sim, lambda: st.to_move() == OVER, 200000)
    sim.advance(100)
    g = scr(sim)
    assert g.mode == S.END
    win = st.winners()
    c = S.seat_ink(win[0])
    wait_for(sim, lambda: g.phase % 2 == 0 and g.page == 0, 3000)
    assert at(sim, 0, 0) == c
    sc = st.scores()[win[0]]
    w = sim.display.width
    if board == "pico_16x16":
        # P and the seat's number, the pips in white under them
        assert lit(sim, P.TEXT) == number_pixels(sc, (16 - font.number_width(sc)) // 2, 9)
    # A: the winner's score page, the pips in their colour
    sim.press("a")
    assert g.mode == S.SCORES and g.page == win[0]
    assert at(sim, 0, 0) == c and sc == g.scores[win[0]]
    y = 9 if board == "pico_16x16" else 2
    if sc < 100:
        want = number_pixels(sc, (w - font.number_width(sc)) // 2, y, w)
        assert want <= lit(sim, c)


# ---- the end ---------------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_everyone_passing_ends_a_shared_win_in_turns(board):
    sim = open_game(board)
    st = state(sim)
    sim.run_script("b a")
    handoff_to(sim, 1)
    sim.run_script("a b a")
    assert st.to_move() == OVER
    sim.advance(60)
    g = scr(sim)
    assert g.mode == S.END and g.nwin == 2
    seen = set()
    for _ in range(12):
        sim.advance(250)
        if g.phase % 2 == 0:
            seen.add(at(sim, 0, 0))
    assert seen == {S.seat_ink(0), S.seat_ink(1)}
    # DOWN: the final table, A inside a tower, B back
    sim.press("down")
    assert g.mode == S.ENDBOARD
    sim.run_script("a")
    assert g.mode == S.INSIDE and g.nmarks == 0
    sim.run_script("b b")
    assert g.mode == S.END
    # the scores were recorded for the scores screen
    assert sim.app.settings.results["ice_towers"]


# ---- scores, the ghost ---------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_scores_with_the_ghost_apart(board):
    sim = open_game(board, deal=None, ghost="1")
    st = state(sim)
    sim.run_script("b right*3 a")
    g = scr(sim)
    assert g.mode == S.SCORES and g.page == 0
    assert at(sim, 0, 0) == S.seat_ink(0) and at(sim, 1, 0) == S.seat_ink(0)
    sim.run_script("right right")
    assert g.page == 2
    # the ghost's band is dotted, in green
    assert at(sim, 0, 0) == S.seat_ink(2) and at(sim, 1, 0) == P.OFF
    assert g.scores[2] == st.colour_scores()[2] == 30
    sim.press("b")
    assert g.mode == S.BOARD


# ---- a 9x9 table scrolls ----------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_a_nine_wide_table_scrolls_with_the_cursor(board):
    sim = open_game(board, deal=None, players="5")
    st = state(sim)
    g = scr(sim)
    assert st.side == 9 and g.vw == 8
    sim.run_script("right*8")
    assert g.cur == 8 and g.ox == 1
    phase(sim, True)
    # the right-hand column now shows column i
    cs = g.cs
    assert at(sim, 7 * cs, cs) == S.ink(st.cells[9 + 8][-1])
    sim.press("right")              # wraps to a1: back to the left
    assert g.cur == 0 and g.ox == 0


# ---- saved and resumed ---------------------------------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
def test_escape_and_resume(board):
    sim = open_game(board, moves=TOWER)
    st = state(sim)
    sim.press("a")
    goto(sim, "b1")
    sim.run_script("a down a")      # mine b1:2 ...
    goto(sim, "d2")
    sim.press("a")                  # ... onto d2
    hist = st.history_text()
    sim.escape()
    assert sim.app.game is None
    sim2 = boot(board, nvm=sim.nvm)
    sim2.press("a")                 # resume
    wait_for(sim2, lambda: scr(sim2) is not None and handing(sim2))
    assert state(sim2).history_text() == hist
    handoff_to(sim2, 1)
    sim2.press("a")
    phase(sim2, True)
    check_table(sim2)


def test_the_8x8_cursor_flashes_the_stack_under_it():
    # b1 holds y1 r1 y1 r1 y1: the shared blink code (screens_common.flash:
    # white, dark, then each piece bottom first, once per size step), a
    # beat a blink phase, in the palette's colours
    from lib import screens_common as C
    sim = open_game("pico_8x8", moves=TOWER)
    goto(sim, "b1")
    g = scr(sim)
    stack = bytes(S.shared_code(pc) for pc in state(sim).cells[1])
    seen = []
    beat = g.phase
    for _ in range(400):
        sim.advance(20)
        if g.phase != beat:
            beat = g.phase
            got = cell_pixel(sim, 1)
            assert got == C.flash(beat, stack, len(stack))
            if got not in (P.OFF, P.CURSOR):
                seen.append(got)
        if len(seen) >= 5:
            break
    y = ink("y1")
    r = ink("r1")
    assert seen == [y, r, y, r, y]


@pytest.mark.parametrize("board", BOARDS)
def test_button_mashing_never_breaks_the_game(board):
    # random keys, a device seat among people: every move the engine took
    # was legal where it was played (the replay checks it), nothing raised
    import random
    rnd = random.Random(5)
    sim = open_game(board, deal=None, players="3", bots="3")
    st = state(sim)
    keys = ("up", "down", "left", "right", "a", "a", "a", "b")
    for _ in range(250):
        sim.press(rnd.choice(keys), hold_ms=20, after_ms=rnd.choice((20, 60, 300)))
        if st.to_move() == OVER:
            break
    assert sim.app.errors == 0 and sim.app.game == "ice_towers"
    assert st.moves > 0
    again = registry.new("ice_towers", {"players": "3", "bots": "3"})
    for a, _ in st.history():
        again.apply_action(a)
    assert again.fields() == st.fields()


# a random game's position where red's bottom piece in e1 may cap nothing
SET_DOWN_GAME = (
    "y1 r3 r1 r3 r3 r1 y2 r2 y1 y2 r1 r1 y3 y3 y3 r2 y1 y3 r2 y2 y1 r1 r2 y2 "
    "r2 y1 r3 r3 y3 y2 f1-a2 b5-f2 e2-f3 c2-e4 a5-b3 e5-b1 d5-c3 a3-e1 d3-f5 "
    "a1-f3 c1-b4 f4-b2 d1-e1 pass d4-b2 c4-a2 a4-b1 d2-e1").split()


@pytest.mark.parametrize("board", BOARDS)
def test_a_mined_piece_with_nothing_to_cap_is_set_down(board):
    sim = open_game(board, deal=SET_DOWN_GAME[:30], moves=SET_DOWN_GAME[30:])
    st = state(sim)
    assert "e1:1" in st.legal_text().split()
    e1 = st.stack(4)
    empty = [i for i in range(36) if not st.cells[i]][0]
    goto(sim, "e1")
    sim.press("a")
    g = scr(sim)
    assert g.mode == S.INSIDE and g.marks[0] == 1
    for _ in range(len(e1)):
        if g.height:
            sim.press("down")
    assert g.height == 0
    sim.press("a")                  # no tower to cap: set down at once
    assert st.history_text().split()[-1] == "e1:1"
    assert st.stack(empty) == e1[:2] and st.stack(4) == e1[2:]


def test_the_8x8_zooms_to_the_16x16_cells_and_back():
    sim = open_game("pico_8x8", moves=TOWER)
    g = scr(sim)
    sim.run_script("b left a")               # ZOOM, the last item on 8x8
    assert g.mode == S.BOARD and g.cs == 2 and g.vw == 4
    sim.press("down")
    phase(sim, True)
    # a 4x4 window of 2x2 cells: b1 is the tower y1 r1 y1 r1 y1 (white: 5)
    assert check_table(sim) == 15
    assert cell_picture(sim, 1) == (ink("y1"), ink("y1"), ink("r1"), P.TEXT)
    # the window follows the cursor
    sim.run_script("right*4")
    assert g.ox == 1 and g.cur == 10
    phase(sim, True)
    assert check_table(sim) == 15
    sim.run_script("b a")                    # the menu stays on ZOOM
    assert g.cs == 1 and g.vw == 6
    phase(sim, True)
    assert check_table(sim) == 35
    # 16x16 has no ZOOM: the menu wraps from PASS to SCORES
    sim16 = open_game("pico_16x16")
    sim16.run_script("b left")
    assert scr(sim16).item == S.M_SCORES
