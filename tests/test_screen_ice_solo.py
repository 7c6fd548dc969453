"""Ice Solo on the LEDs, through the simulator harness (tools/simkit)."""
import pytest

from engine.ice_solo import NONE, is_clean, top_locked, END
from engine import registry
from lib import palette as P
from tools.simkit import Sim

BLINK = 300


def open_game(board="pico_8x8", seed=1, variant="5", nvm=None):
    sim = Sim(board=board, seed=seed, nvm=nvm)
    sim.app.settings.set("ice_solo.variant", variant)
    sim.advance(1500)
    for _ in range(12):
        if sim.app.menu.current() == "ice_solo":
            break
        sim.press("right")
    sim.press("a")
    assert sim.app.game == "ice_solo"
    # the deal goes one chance node per loop pass before the board shows
    for _ in range(500):
        if sim.app.game_scr is not None and sim.app.scr is sim.app.game_scr:
            break
        sim.advance(20)
    assert sim.app.scr is sim.app.game_scr, "the deal never finished"
    return sim


def owes_nothing(sim):
    """The game screen owes the LEDs nothing: no cell left to draw, no
    rows held back, no hint or text on its way."""
    scr = sim.app.game_scr
    return scr is None or not (scr.later or scr.dirty or
                               scr.think or scr.pend or sim.app.d.owed)


def at_phase(sim, k):
    """Advance to a blink phase ``k`` (0..2) of the cursor's three, with
    the frame of that phase wholly drawn (the screen spreads big redraws
    over a few loop passes)."""
    for _ in range(80):
        if (sim.app.now // BLINK) % 3 == k and owes_nothing(sim):
            return
        sim.advance(20)
    raise AssertionError("phase not reached")


def state(sim):
    return sim.app.state


def screen(sim):
    return sim.app.game_scr


def grid_top_colour(st, i, ph):
    s = st.grid[i]
    if not s:
        return P.DIM
    top = s[-1]
    # nests at their large's brightness: a clean one winks (off one beat
    # in four), one on a pile blinks (off every other beat)
    if is_clean(s):
        return P.piece(top >> 2, 3) if ph % 4 != 3 else P.OFF
    if top_locked(s):
        return P.piece(top >> 2, 3) if ph % 2 == 0 else P.OFF
    if covered(s):
        return P.piece_code(top) if ph % 4 < 2 else P.OFF
    return P.piece_code(top)


def covered(s):
    """A full nest lies in the stack with pieces on it."""
    return any(s[i] & 3 == 3 and s[i + 1] == s[i] - 1 and s[i + 2] == s[i] - 2
               for i in range(len(s) - 3))


def gauge(f, y, p):
    """The 8x8 side gauge's row ``y`` (columns 5-7) as piece ``p`` shows
    there: a bar from the right edge, as wide as its size."""
    w = (p & 3) if p is not None else 0
    return [f[y * 8 + x] for x in (5, 6, 7)] == (
        [P.OFF] * (3 - w) + [P.piece_code(p)] * w if w else [P.OFF] * 3)


def test_8x8_nesting_shows_every_top_and_the_stack_under_the_cursor():
    sim = open_game()
    st = state(sim)
    assert st.fields()["phase"] == "nesting"
    at_phase(sim, 1)
    ph = sim.app.now // BLINK
    f = sim.indices()
    for i in range(25):
        assert f[(i // 5) * 8 + i % 5] == grid_top_colour(st, i, ph), i
    # the stack under the cursor (a1), bottom at the bottom, in columns
    # 5-7, each piece as wide as its size
    s = st.grid[0]
    assert len(s) == 3
    for j in range(len(s)):
        assert gauge(f, 7 - j, s[j]), j
    assert gauge(f, 4, None)
    # move the cursor: the side shows the new cell's stack
    sim.press("right")
    sim.press("down")
    at_phase(sim, 1)
    f = sim.indices()
    s = st.grid[6]
    assert all(gauge(f, 7 - j, s[j]) for j in range(3))
    assert [f[7 * 8 + x] for x in (5, 6, 7)] == [P.piece_code(s[0])] * 3


def latin():
    cols = "rygbp"
    return [cols[(r + c) % 5] * 3 for r in range(5) for c in range(5)]


def nest(x):
    return x[0] + "3" + x[1] + "2" + x[2] + "1"


def start_from(sim, cells, cur=None):
    """Replace the game by one dealt as ``cells`` (the app's restart),
    the cursor on ``cur`` if given (before the board is drawn, so no
    frame shows it elsewhere, whatever the blink phase)."""
    st = sim.app.restart({"deal": "/".join(cells)})
    scr = screen(sim)
    scr.state = st
    if cur is not None:
        scr.cursor = cur
    scr._layout()
    sim.step()   # one pass draws it, whatever the clock's blink phase
    return st


def test_clean_full_and_loose_look_different_on_8x8():
    sim = open_game()
    cells = [nest(x) for x in latin()]
    cells[0] = "-"                         # a1 empty
    cells[1] = "y3y2y1r3r2r1"              # b1: a full r nest on the y nest
    cells[2] = "g3g2g1p1"                  # c1: a p1 on the clean g nest
    cells[4] = "p3p2"                      # e1: loose p2 on top
    st = start_from(sim, cells, 24)
    # one frame per beat, eight beats from a beat that is 0 mod 4
    while (sim.app.now + BLINK // 2) // BLINK % 4:
        sim.advance(BLINK // 3)
    seen = [[] for _ in range(5)]
    for k in range(8):
        while (sim.app.now // BLINK) % 4 != k % 4 or sim.app.now % BLINK < BLINK // 3:
            sim.advance(BLINK // 6)
        f = sim.indices()
        for i in range(5):
            seen[i].append(f[i])
    r3, b3, off = P.piece(0, 3), P.piece(5, 3), P.OFF
    assert seen[0] == [P.DIM] * 8                          # empty cell
    assert seen[1] == [r3, off] * 4                        # full, not clean: blinks
    p1 = P.piece(6, 1)
    assert seen[2] == [p1, p1, off, off] * 2               # on a covered nest: slow blink
    assert seen[3] == [b3, b3, b3, off] * 2                # clean: winks
    assert seen[4] == [P.piece(6, 2)] * 8                  # loose medium
    # a nest is never dimmer than a large: never mistaken for a small
    assert P.piece(0, 1) not in seen[1] and P.piece(5, 1) not in seen[3]
    assert st.breakdown()["clean"] == 21


def test_clean_full_and_loose_look_different_on_16x16():
    sim = open_game(board="pico_16x16")
    cells = [nest(x) for x in latin()]
    cells[1] = "y3y2y1r3r2r1"
    cells[0] = "-"
    cells[2] = "g3g2g1p1"
    cells[4] = "p3p2"
    start_from(sim, cells)
    screen(sim).cursor = 24
    at_phase(sim, 1)
    f = sim.indices()

    def block(i):
        x, y = (i % 5) * 2, (i // 5) * 2
        return (f[y * 16 + x], f[y * 16 + x + 1], f[(y + 1) * 16 + x],
                f[(y + 1) * 16 + x + 1])
    r3, b3, off, dim = P.piece(0, 3), P.piece(5, 3), P.OFF, P.DIM
    assert block(1) == (r3, off, dim, r3)          # full nest on a pile: pair + grey dot
    assert block(3) == (b3, off, off, b3)          # clean nest: a diagonal pair
    assert block(2) == (dim, off, P.piece(6, 1), off)     # a small on a covered nest
    assert block(4) == (off, off) + (P.piece(6, 2),) * 2  # loose medium: bottom row
    assert block(0) == (dim, off, off, off)        # empty


def test_pick_up_highlights_destinations_and_refuses_others():
    sim = open_game(seed=4)
    st = state(sim)
    scr = screen(sim)
    # find a cell whose top can move
    moves = st.legal_actions()
    a = [m for m in moves if m != END][0]
    s8, t8 = a >> 6, a & 63
    s = (s8 >> 3) * 5 + (s8 & 7)
    t = (t8 >> 3) * 5 + (t8 & 7)
    scr.cursor = s
    sim.press("a")
    assert scr.held == s
    legal_t = set()
    for m in moves:
        if m != END and m >> 6 == s8:
            legal_t.add(((m & 63) >> 3) * 5 + (m & 7))
    assert set(i for i in range(25) if scr.dest[i]) == legal_t
    # on the blink phase the destinations are green
    for _ in range(20):
        if (sim.app.now // BLINK) & 1 and (sim.app.now // BLINK) % 3 != 0:
            break
        sim.advance(20)
    f = sim.indices()
    for i in legal_t:
        if i != scr.cursor:
            assert f[(i // 5) * 8 + i % 5] == P.OK
    # an illegal destination is refused: red frame, nothing changes
    bad = [i for i in range(25) if i not in legal_t and i != s][0]
    before = st.serialize()
    scr.cursor = bad
    sim.press("a")
    assert st.serialize() == before and scr.held == s
    assert P.REFUSE in sim.indices()
    sim.advance(600)
    # a legal one plays the move
    scr.cursor = t
    sim.press("a")
    assert st.history()[-1] == (a, False) and scr.held == -1


def test_8x8_towering_field_fits_exactly():
    sim = open_game(variant="4", seed=2)
    st = state(sim)
    assert st.fields()["phase"] == "towering"
    at_phase(sim, 1)
    f = sim.indices()
    lit = 0
    for i in range(64):
        p = st.lo[i]
        if i == screen(sim).cursor:
            continue
        if p == NONE:
            assert f[i] == P.OFF
        else:
            top = st.hi[i] if st.hi[i] != NONE else p
            assert f[i] == P.piece_code(top)
            lit += 1
    assert lit + (1 if st.lo[screen(sim).cursor] != NONE else 0) == 60


def test_towering_move_and_16x16_shows_medium_over_large():
    sim = open_game(board="pico_16x16", variant="4", seed=2)
    st = state(sim)
    scr = screen(sim)
    a = [m for m in st.legal_actions() if m != END and st.lo[m >> 6] & 3 == 2][0]
    s, t = a >> 6, a & 63
    scr.cursor = s
    sim.press("a")
    assert scr.dest[t]
    scr.cursor = t
    sim.press("a")
    assert st.hi[t] != NONE
    scr.cursor = 0 if t != 0 else 1
    at_phase(sim, 1)
    f = sim.indices()
    x, y = (t % 8) * 2, (t // 8) * 2
    assert f[y * 16 + x] == P.piece_code(st.hi[t])
    assert f[(y + 1) * 16 + x] == P.piece_code(st.lo[t])


def test_menu_hint_undo_and_end_screen_scrolls():
    sim = open_game(seed=5)
    st = state(sim)
    scr = screen(sim)
    dealt = len(st.history())           # the deal's chance outcomes
    sim.press("b")                      # the menu, on HINT
    assert scr.mode == 1 and scr.item == 0
    sim.press("a")
    assert scr.held >= 0 and scr.suggested == scr.cursor
    sim.press("a")                      # play the suggestion
    assert len(st.history()) == dealt + 1 and st.undos == 0
    sim.press("b")
    sim.press("right")                  # UNDO
    sim.press("a")
    assert st.undos == 1 and len(st.history()) == dealt
    # END: the breakdown scrolls
    sim.press("b")
    for _ in range(6):
        if scr.item == 5:
            break
        sim.press("right")
    sim.press("a")
    assert st.fields()["phase"] == "over" and scr.mode == 3
    first = sim.indices()
    sim.advance(2000)
    assert sim.indices() != first and P.TEXT in sim.indices()


def test_style_question_when_all_clean():
    sim = open_game()
    cells = [nest(x) for x in latin()]
    cells[0] = "r3r2"
    cells[3] = "b3b2b1r1"
    st = start_from(sim, cells)
    scr = screen(sim)
    scr.cursor = 3
    sim.press("a")                      # the r1 on d1
    for _ in range(3):
        sim.press("left")
    sim.press("a")                      # onto a1's r2
    assert st.style_due()
    sim.advance(100)
    assert scr.mode == 3 and scr.text_for == 3
    sim.press("a")
    assert st.scores() == [110] and scr.text_for == 2


def test_game_survives_power_loss():
    sim = open_game(seed=6)
    st = state(sim)
    a = [m for m in st.legal_actions() if m != END][0]
    scr = screen(sim)
    s8, t8 = a >> 6, a & 63
    scr.cursor = (s8 >> 3) * 5 + (s8 & 7)
    sim.press("a")
    scr.cursor = (t8 >> 3) * 5 + (t8 & 7)
    sim.press("a")
    sim.advance(2500)                     # the idle save
    data = st.serialize()
    # power off: a new console on the same flash offers the game
    sim2 = Sim(board="pico_8x8", seed=9, nvm=sim.nvm)
    sim2.advance(1500)
    sim2.press("a")
    assert sim2.app.game == "ice_solo"
    assert sim2.app.state.serialize() == data


def test_8x8_field_cursor_reads_the_stack_bottom_first():
    sim = open_game(variant="4", seed=2)
    st = state(sim)
    scr = screen(sim)
    a = [m for m in st.legal_actions() if m != END and st.lo[m >> 6] & 3 == 2][0]
    s, t = a >> 6, a & 63
    scr.cursor = s
    sim.press("a")
    scr.cursor = t
    sim.press("a")
    assert st.hi[t] != NONE
    # the size code: white, two dark beats, the large three flashes, a
    # dark beat, the medium two flashes; then again
    lo, hi, off = P.piece_code(st.lo[t]), P.piece_code(st.hi[t]), P.OFF
    code = [P.CURSOR, off, off, lo, off, lo, off, lo, off, off, hi, off, hi, off]
    seen = []
    while len(seen) < 2 * len(code):
        ph = sim.app.now // BLINK
        while sim.app.now // BLINK == ph or not owes_nothing(sim):
            sim.advance(20)
        seen.append(sim.indices()[t])
    start = seen.index(P.CURSOR)
    assert seen[start:start + len(code)] == code
    # the medium on the large is part of a tower: picking it up is refused
    sim.advance(400)
    sim.press("a")
    assert scr.held == -1 and P.REFUSE in sim.indices()


def test_towering_menu_offers_grid_and_mix_when_stuck():
    from engine.ice_solo import REMIX
    from engine.rng import Rng
    sim = open_game(variant="4", seed=1)
    st = state(sim)
    scr = screen(sim)
    sim.press("b")
    m = scr._items()
    assert m & (1 << 3) and not m & (1 << 2)       # GRID yes, MIX no
    sim.press("b")
    # play at random through the app until only a remix is left
    rng = Rng(1)
    for _ in range(400):
        if st.is_legal(REMIX):
            break
        moves = [a for a in st.legal_actions() if a != END]
        assert sim.app.play(moves[rng.randrange(len(moves))])
    assert st.is_legal(REMIX)
    scr._check_phase()
    sim.press("b")
    assert scr._items() & (1 << 2)
    for _ in range(6):
        if scr.item == 2:
            break
        sim.press("right")
    sim.press("a")
    assert st.remixes == 1 and st.to_move() == 0 and st.scores()[0] <= -5
    # GRID shows the finished towers; A or B goes back to the field
    sim.press("b")
    for _ in range(6):
        if scr.item == 3:
            break
        sim.press("right")
    sim.press("a")
    assert scr.mode == 2
    at_phase(sim, 1)
    f = sim.indices()
    for i in range(20):
        s = st.grid[i]
        want = P.DIM if not s else P.piece_code(s[-1])
        assert f[(i // 4) * 8 + i % 4] == want
    sim.press("b")
    assert scr.mode == 0


def test_the_deal_goes_one_chance_node_per_loop_pass():
    # a 5-colour deal is 75 pieces and the checkpoints' outcomes (about 150
    # chance nodes); dealing them all in the pass that opens the game made
    # that one pass seconds long on a board
    sim = Sim(board="pico_8x8", seed=3)
    sim.app.settings.set("ice_solo.variant", "5")
    sim.advance(1500)
    for _ in range(12):
        if sim.app.menu.current() == "ice_solo":
            break
        sim.press("right")
    sim.press("a")
    st = sim.app.state
    seen = [len(st.hist)]
    while sim.app.game_scr is None:
        assert type(sim.app.scr).__name__ == "Dealing"
        sim.step()
        seen.append(len(st.hist))
        assert len(seen) < 2000, "the deal never finished"
    steps = [b - a for a, b in zip(seen, seen[1:])]
    assert max(steps) <= 2, "more than one chance node (2 history bytes) in a pass"
    assert st.to_move() == 0 and len(seen) > 50
    assert all(c for a, c in st.history()) and len(st.history()) >= 75
    assert sim.app.scr is sim.app.game_scr


# ---- passes kept short: the hint over several passes, drawing cached ----------
def shown_rows(sim):
    """The LED bytes last written, as rows of logical pixels."""
    d = sim.display
    b = sim.last_bytes
    m = d.map
    rows = []
    for y in range(d.height):
        rows.append(b"".join(b[3 * m[y * d.width + x]:3 * m[y * d.width + x] + 3]
                             for x in range(d.width)))
    return rows


def test_the_hint_arrives_after_a_few_passes_and_is_the_engines():
    from engine.ice_solo_hint import hint
    for board in ("pico_8x8", "pico_16x16"):
        sim = open_game(board=board, seed=5)
        st = state(sim)
        scr = screen(sim)
        want = hint(st)
        sim.press("b")                  # the menu, on HINT
        assert scr.item == 0
        sim.down("a")
        sim.now += 20
        sim.step()                      # the press: thinking, nothing picked
        assert scr.think and scr.held < 0
        W = sim.display.width
        y = 5 * (2 if W == 16 else 1)   # the dots under the grid
        f = sim.app.d.frame
        assert [f[y * W + x] for x in (0, 2, 4)] == [P.HILITE] * 3
        passes = 0
        while scr.think:
            sim.now += 20
            sim.step()
            passes += 1
            assert passes < 10
        assert passes == 5
        s8, t8 = want >> 6, want & 63
        assert scr.held == (s8 >> 3) * 5 + (s8 & 7)
        assert scr.suggested == scr.cursor == (t8 >> 3) * 5 + (t8 & 7)
        sim.up("a")
        sim.advance(100)
        sim.press("a")                  # plays it
        assert st.history()[-1] == (want, False)


def test_keys_wait_while_the_hint_is_worked_out():
    sim = open_game(seed=5)
    scr = screen(sim)
    sim.press("b")
    sim.down("a")
    sim.now += 20
    sim.step()
    sim.up("a")
    sim.down("b")                       # a click of B while thinking
    sim.now += 20
    sim.step()
    sim.up("b")
    sim.now += 20
    sim.step()
    assert scr.think                    # (B comes on release: in thinking)
    sim.advance(200)
    # not taken as "open the menu" nor "put the piece back"
    assert scr.mode == 0 and scr.held >= 0 and scr.cursor == scr.suggested


def test_a_on_a_cell_that_is_not_green_is_refused_without_trying_the_move():
    sim = open_game(seed=4)
    st = state(sim)
    scr = screen(sim)
    a = [m for m in st.legal_actions() if m != END][0]
    s8 = a >> 6
    scr.cursor = (s8 >> 3) * 5 + (s8 & 7)
    sim.press("a")
    assert scr.held == scr.cursor
    bad = [i for i in range(25) if not scr.dest[i] and i != scr.held][0]
    tried = []
    app = sim.app
    real = app.play
    app.play = lambda x: tried.append(x) or real(x)
    scr.cursor = bad
    sim.press("a")
    del app.play
    assert tried == [] and scr.held >= 0
    assert P.REFUSE in sim.indices()


def full_picture(sim):
    """The frame as drawn from scratch (every cell again), at this time."""
    scr = screen(sim)
    d = sim.app.d
    scr._layout()
    scr.later = 0
    for _ in range(10):
        scr.draw(d)
        if not scr.dirty:
            break
    return bytes(d.frame)


def test_a_move_draws_two_cells_again_and_the_frame_is_the_same_as_drawn_afresh():
    from engine.rng import Rng
    from lib.screen_ice_solo import _OWED
    for board in ("pico_8x8", "pico_16x16"):
        sim = open_game(board=board, seed=7)
        st = state(sim)
        scr = screen(sim)
        rng = Rng(3)
        for k in range(12):
            moves = [m for m in st.legal_actions() if m != END]
            a = moves[rng.randrange(len(moves))]
            s8, t8 = a >> 6, a & 63
            scr.cursor = (s8 >> 3) * 5 + (s8 & 7)
            sim.press("a")
            scr.cursor = (t8 >> 3) * 5 + (t8 & 7)
            sim.down("a")
            before = bytes(sim.app.d.frame)
            sim.now += 20
            sim.step()
            assert st.history()[-1] == (a, False)
            # only the move's two cells were marked, and this pass painted
            # the frame on the panel again (the next one draws the move)
            assert sum(scr.todo[:25]) == 2 and scr.later == _OWED
            assert bytes(sim.app.d.frame) == before
            sim.up("a")
            at_phase(sim, 1 + k % 2)
            got = bytes(sim.app.d.frame)
            assert got == full_picture(sim), (board, k)
            if st.to_move() != 0:
                break


def test_16x16_passes_send_at_most_a_few_rows():
    from lib.screen_ice_solo import SPREAD
    from engine.rng import Rng
    sim = open_game(board="pico_16x16", seed=2)
    rng = Rng(11)
    keys = ("up", "down", "left", "right", "a", "a", "b")
    before = shown_rows(sim)
    worst = 0
    for _ in range(60):
        k = keys[rng.randrange(len(keys))]
        sim.down(k)
        for j in range(8):
            sim.now += 20
            sim.step()
            if j == 2:
                sim.up(k)
            now = shown_rows(sim)
            if sim.app.scr is sim.app.game_scr:
                worst = max(worst, sum(1 for a, b in zip(before, now) if a != b))
            before = now
    assert 0 < worst <= SPREAD


def test_16x16_side_shows_the_stack_by_width_and_the_total():
    sim = open_game(board="pico_16x16")
    cells = [nest(x) for x in latin()]
    cells[0] = cells[0] + "y1"          # r3r2r1y1
    cells[1] = cells[1][:4]             # y3y2
    st = start_from(sim, cells, 0)
    at_phase(sim, 1)
    f = sim.indices()
    s = st.grid[0]
    for j, p in enumerate(s):
        row = f[(15 - j) * 16:(16 - j) * 16]
        w = (p & 3) + 1
        assert list(row[16 - w:]) == [P.piece_code(p)] * w, j
        assert all(c == P.OFF for c in row[10:16 - w]), j
    assert P.OK in f[11 * 16:12 * 16 - 4]       # the total, under the grid


def test_the_towering_hint_arrives_in_its_halves_and_is_the_engines():
    from engine.ice_solo_hint import tower_hint
    sim = open_game(variant="4", seed=2)
    st = state(sim)
    scr = screen(sim)
    want = tower_hint(st)
    assert want < 4096
    sim.press("b")
    assert scr.item == 0
    sim.press("a")
    assert not scr.think
    assert scr.held == want >> 6 and scr.suggested == scr.cursor == want & 63
    sim.press("a")
    assert st.history()[-1] == (want, False)


def test_the_screens_piece_colours_are_the_palettes():
    sim = open_game()
    pc = screen(sim).piece_colour
    for c in range(9):
        for z in (1, 2, 3):
            assert pc[c << 2 | z] == P.piece_code(c << 2 | z)


# ---- its modules --------------------------------------------------------------
MODULES = ("engine.ice_solo_hint", "lib.screen_ice_solo")


def _forget_modules():
    from engine.state import release
    for n in MODULES:
        release(n)


def test_the_screen_plays_and_leaving_drops_its_modules():
    import sys
    _forget_modules()
    sim = Sim(board="pico_8x8", seed=1)
    sim.app.settings.set("ice_solo.variant", "5")
    sim.advance(1500)
    assert sim.app.enter("ice_solo", registry.new("ice_solo", {"variant": "5"}))
    for _ in range(500):            # the deal, a node a pass
        if sim.app.scr is sim.app.game_scr:
            break
        sim.advance(20)
    assert sim.app.scr is sim.app.game_scr
    assert all(n in sys.modules for n in MODULES)
    # the screen plays: the grid, a pick and a move
    st = state(sim)
    scr = screen(sim)
    at_phase(sim, 1)
    ph = sim.app.now // BLINK
    f = sim.indices()
    for i in range(25):
        assert f[(i // 5) * 8 + i % 5] == grid_top_colour(st, i, ph), i
    moves = [m for m in st.legal_actions() if m < 4096]
    s8, t8 = moves[0] >> 6, moves[0] & 63
    scr.cursor = (s8 >> 3) * 5 + (s8 & 7)
    sim.press("a")
    assert scr.held == scr.cursor
    scr.cursor = (t8 >> 3) * 5 + (t8 & 7)
    sim.press("a")
    assert st.history()[-1] == (moves[0], False)
    # the hint is worked out without a module loaded in play
    before = set(sys.modules)
    sim.press("b")
    sim.press("a")
    for _ in range(10):
        sim.step()
    assert not scr.think and scr.held >= 0
    assert set(sys.modules) - before == set()
    sim.escape()
    assert sim.app.game is None
    assert not [n for n in MODULES if n in sys.modules], "its modules dropped"


@pytest.mark.parametrize("broken", MODULES)
def test_a_screen_that_will_not_load_is_refused_and_dropped(monkeypatch, broken):
    import sys
    _forget_modules()
    sim = Sim(board="pico_8x8", seed=1)
    sim.advance(1500)
    monkeypatch.setitem(sys.modules, broken, None)
    assert sim.app.enter("ice_solo", registry.new("ice_solo", {"variant": "5"}))
    for _ in range(10):
        sim.step()
    assert sim.app.game is None and sim.app.state is None
    assert sim.app.scr is sim.app.menu
    assert P.REFUSE in sim.indices(), "the menu says no"
    left = [n for n in MODULES if n != broken and sys.modules.get(n) is not None]
    assert left == [], left
