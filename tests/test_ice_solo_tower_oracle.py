"""Ice Solo's original (4-colour) towering phase against a second
implementation, written here from the project rulings ("Notation", "Ice
Solo: the original, 4 colours", the remix and its -5) and the protocol
interface documented in docs/games/ice-solo.md (``scatter=``, move and
chance tokens, the ``state`` JSON) alone: no engine code of the game is
read or imported. The engine is driven through the text protocol only:
``new ice_solo variant=4 scatter=...``, then ``legal``, ``play``,
``sample``, ``state``, ``history``.

Line of sight is worked out here in exact fractions: the segment between
the two cell centres, clipped against each open cell square (Liang-Barsky:
the parameter interval where the point is strictly inside the square on
both axes, cut to the open interval (0, 1)); a cell is crossed when that
interval is not empty. A corner touch gives a single point, an empty open
interval."""

import json
from fractions import Fraction
from itertools import permutations

import pytest

from engine.protocol import Session
from harness import ask, refused
from engine.rng import Rng

N = 8                       # the field is N x N
COLOURS = "rygb"
GRID_W, GRID_H = 4, 5
SLOTS = GRID_W * GRID_H     # 20 towers


# ---- notation ----------------------------------------------------------------------
def cell_name(i):
    """Field cell index (reading order) -> name; the letter is the column."""
    return "abcdefgh"[i % N] + str(i // N + 1)


def cell_index(name):
    return (int(name[1:]) - 1) * N + "abcdefgh".index(name[0])


def parse_stacks(text):
    """A grid string -> list of stacks, each a list of (colour, size)."""
    out = []
    for cell in text.split("/"):
        st = []
        if cell != "-":
            for k in range(0, len(cell), 2):
                st.append((cell[k], int(cell[k + 1])))
        out.append(st)
    return out


def write_stacks(cells):
    return "/".join("".join(c + str(s) for c, s in st) or "-" for st in cells)


ALL_PIECES = sorted((c, s) for c in COLOURS for s in (1, 2, 3) for _ in range(5))


# ---- line of sight, exact ------------------------------------------------------------
def _open_axis(p, d, lo, hi):
    """The open interval of u where lo < p + u*d < hi, as (a, b), or None
    when it is empty; (None, None) stands for the whole line."""
    if d == 0:
        return (None, None) if lo < p < hi else None
    a = Fraction(lo - p) / d
    b = Fraction(hi - p) / d
    return (a, b) if a < b else (b, a)


def segment_crosses(s, t, b):
    """Whether the open segment between the centres of cells s and t
    passes through the interior of cell b (Liang-Barsky in fractions)."""
    sx, sy = Fraction(2 * (s % N) + 1, 2), Fraction(2 * (s // N) + 1, 2)
    tx, ty = Fraction(2 * (t % N) + 1, 2), Fraction(2 * (t // N) + 1, 2)
    bx, by = b % N, b // N
    lo, hi = Fraction(0), Fraction(1)       # the open segment: 0 < u < 1
    for p, d, c in ((sx, tx - sx, bx), (sy, ty - sy, by)):
        iv = _open_axis(p, d, c, c + 1)
        if iv is None:
            return False
        if iv[0] is not None:
            lo = max(lo, iv[0])
            hi = min(hi, iv[1])
    return lo < hi


_CROSSED = {}


def crossed(s, t):
    """The cells (other than s and t) whose interior the open segment s-t
    passes through. Only cells in the box of rows and columns spanned by s
    and t can be met (the segment stays inside that box), so only those are
    clipped; the answer is pure geometry, so it is kept."""
    key = (s, t)
    got = _CROSSED.get(key)
    if got is None:
        c0, c1 = sorted((s % N, t % N))
        r0, r1 = sorted((s // N, t // N))
        got = frozenset(
            r * N + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
            if r * N + c not in (s, t) and segment_crosses(s, t, r * N + c))
        _CROSSED[key] = got
    return got


# ---- the rules ---------------------------------------------------------------------
def could_land(piece, stack):
    """Whether ``piece`` may land on ``stack`` by size and colour alone:
    a medium onto a bare large, a small onto a medium that sits on a large;
    never onto a piece of its own colour (the piece it lands on)."""
    colour, size = piece
    if size == 2:
        return len(stack) == 1 and stack[0][1] == 3 and stack[0][0] != colour
    if size == 1:
        return (len(stack) == 2 and stack[0][1] == 3 and stack[1][1] == 2
                and stack[1][0] != colour)
    return False


def tower_moves(field):
    """Every legal towering move as a token. The moving piece is a loose
    one: alone in its cell (a large has nothing to land on)."""
    out = set()
    for s, a in enumerate(field):
        if len(a) != 1 or a[0][1] == 3:
            continue
        targets = {t for t, b in enumerate(field) if t != s and could_land(a[0], b)}
        for t in targets:
            if not (crossed(s, t) & targets):
                out.add(cell_name(s) + "-" + cell_name(t))
    return out


def play_tower_move(field, grid, token):
    """The position after a towering move: a small finishes the tower,
    which leaves the field for the lowest empty grid slot."""
    s, t = (cell_index(x) for x in token.split("-"))
    field = [list(x) for x in field]
    grid = [list(x) for x in grid]
    piece = field[s].pop()
    field[t].append(piece)
    if piece[1] == 1:
        k = next(i for i, x in enumerate(grid) if not x)
        grid[k] = field[t]
        field[t] = []
    return field, grid


def remix_takes(field, grid):
    """A remix: the pieces it takes apart, in the order the documented
    chance steps scatter them (grid slots in order, each tower bottom to
    top; or field cells in reading order, large then medium), and the field
    and grid without them. None when there is nothing to take apart."""
    field = [list(x) for x in field]
    grid = [list(x) for x in grid]
    rows = [r for r in range(GRID_H) if any(grid[r * GRID_W + c] for c in range(GRID_W))]
    taken = []
    if rows:
        r = rows[-1]
        for k in range(r * GRID_W, (r + 1) * GRID_W):
            taken += grid[k]
            grid[k] = []
    else:
        for i, st in enumerate(field):
            if len(st) == 2:
                taken += st
                field[i] = []
    return (taken, field, grid) if taken else None


def expected_score(remixes):
    """During towering the grid holds only towers, never a one-colour
    stack (no piece lands on its own colour), so only the remix counts."""
    return {"clean": 0, "fully_nested": 0, "rainbow": 0, "style": 0,
            "double_plus_cool": 0, "remix": -5 * remixes, "total": -5 * remixes}


# ---- positions ---------------------------------------------------------------------
def random_scatter(rng):
    """The 60 pieces and 4 empties in random cells, every piece alone."""
    cells = [[p] for p in ALL_PIECES] + [[] for _ in range(N * N - len(ALL_PIECES))]
    for i in range(len(cells) - 1, 0, -1):
        j = rng.randrange(i + 1)
        cells[i], cells[j] = cells[j], cells[i]
    return write_stacks(cells)


def build_scatter(placed, empty=()):
    """A scatter with the pieces of ``placed`` (cell name -> piece token)
    where given, the cells of ``empty`` empty (four empties in all, the
    first free cells from h8 backwards when fewer are named), and the other
    pieces in a fixed order in the remaining cells."""
    cells = [None] * (N * N)
    left = list(ALL_PIECES)
    for name, tok in placed.items():
        p = (tok[0], int(tok[1]))
        left.remove(p)          # ValueError: more than five of a kind
        cells[cell_index(name)] = [p]
    empties = [cell_index(x) for x in empty]
    for i in range(N * N - 1, -1, -1):
        if len(empties) == 4:
            break
        if cells[i] is None and i not in empties:
            empties.append(i)
    for i in empties:
        assert cells[i] is None
        cells[i] = []
    left.sort(key=lambda p: (p[1] == 3, p))     # fillers: smalls, mediums, then larges
    for i in range(N * N):
        if cells[i] is None:
            cells[i] = [left.pop(0)]
    assert not left
    return write_stacks(cells)


# ---- the protocol ------------------------------------------------------------------
def state(sess):
    return json.loads(ask(sess, "state"))


def start(scatter, seed=0):
    sess = Session(seed, auto=False)
    a = ask(sess, "new ice_solo variant=4 scatter=%s seed=%d" % (scatter, seed))
    assert a.startswith("ice_solo"), a
    return sess


class Tally:
    positions = 0
    moves = 0
    remixes = 0
    chance_steps = 0
    repeated_remix_steps = 0
    blocked = 0             # moves allowed by size and colour, blocked by sight
    finished = 0


def check_towering(sess, field, grid, remixes):
    """The engine's state and legal list against the oracle's position;
    returns the oracle's move set (empty when stuck)."""
    st = state(sess)
    assert st["phase"] == "towering", st
    assert st["variant"] == 4
    assert st["field"] == write_stacks(field), (st["field"], write_stacks(field))
    assert st["grid"] == write_stacks(grid), (st["grid"], write_stacks(grid))
    assert st["remixes"] == remixes
    assert st["score"] == expected_score(remixes), st["score"]
    assert st["scores"] == [-5 * remixes], st["scores"]
    expect = tower_moves(field)
    Tally.blocked += sum(1 for s, a in enumerate(field) if len(a) == 1
                         for t, b in enumerate(field)
                         if t != s and could_land(a[0], b)) - len(expect)
    legal = set(ask(sess, "legal").split())
    if expect:
        assert legal == expect | {"end"}, (
            write_stacks(field), sorted(legal ^ (expect | {"end"})))
        assert st["to_move"] == 0
    elif remix_takes(field, grid) is not None:
        assert legal == {"remix", "end"}, (write_stacks(field), write_stacks(grid), legal)
        assert st["to_move"] == 0
    else:
        # nothing stuck in a tower anywhere and nothing to play: over
        assert legal == set() and st["to_move"] == "over", st
    Tally.positions += 1
    return expect


def do_remix(sess, rng, field, grid, remixes, seen=None, choose=None):
    """Play ``remix`` and its chance steps (by ``sample``, or by playing an
    outcome picked here, alternately at random; ``choose`` lists the cells
    to play instead), checking each step's outcomes (every empty field
    cell, weight 1) and where each piece went. Returns the oracle's field
    and grid afterwards.

    ``seen`` holds the positions (field and grid) this game has remixed
    from: a position met again by play is remixed as randomly as any (see
    test_a_remix_from_a_position_met_again_by_play_is_random), and such
    steps are counted so the test knows it met them."""
    key = (write_stacks(field), write_stacks(grid))
    again = seen is not None and key in seen
    if seen is not None:
        seen.add(key)
    taken, field, grid = remix_takes(field, grid)
    empty_before = {i for i, st in enumerate(field) if not st}
    assert ask(sess, "play remix") == "remix"
    landed = []
    for piece in taken:
        st = state(sess)
        assert st["to_move"] == "chance" and st["phase"] == "towering", st
        assert st["remixes"] == remixes + 1
        assert st["score"] == expected_score(remixes + 1), st["score"]
        assert st["field"] == write_stacks(field) and st["grid"] == write_stacks(grid), (
            st["field"], write_stacks(field), st["grid"], write_stacks(grid))
        empties = [i for i, x in enumerate(field) if not x]
        odds = {}
        for w in ask(sess, "legal").split():
            tok, p = w.split(":")
            odds[tok] = Fraction(p)
        if again:
            Tally.repeated_remix_steps += 1
        assert odds == {"@" + cell_name(i): Fraction(1, len(empties))
                        for i in empties}, (key, odds)
        if choose is not None:
            tok = "@" + choose[len(landed)]
            assert ask(sess, "play " + tok) == tok
        elif rng.randrange(2):
            tok = ask(sess, "sample")
        else:
            outs = sorted(odds)
            tok = outs[rng.randrange(len(outs))]
            assert ask(sess, "play " + tok) == tok
        i = cell_index(tok[1:])
        assert i in empties, tok
        field[i] = [piece]
        landed.append(i)
        Tally.chance_steps += 1
    # every remixed piece alone in a cell that was empty once the pieces
    # were taken apart, and the field holds exactly what the oracle says
    assert len(set(landed)) == len(taken) and set(landed) <= empty_before
    st = state(sess)
    assert st["field"] == write_stacks(field) and st["grid"] == write_stacks(grid)
    on_field = sorted(p for x in field for p in x)
    in_grid = sorted(p for x in grid for p in x)
    assert sorted(on_field + in_grid) == ALL_PIECES
    Tally.remixes += 1
    return field, grid


def pick(rng, field, grid, moves, greedy):
    """A move for the playthrough: when ``greedy``, mostly one that leaves
    the fewest size-and-colour pairs (of six drawn at random), which drives
    games into stuck positions and so into remixes; else any legal move."""
    cands = sorted(moves)
    if not greedy or rng.randrange(3) == 0:
        return cands[rng.randrange(len(cands))]

    def pairs(f):
        return sum(1 for a in f if len(a) == 1 and a[0][1] < 3
                   for b in f if could_land(a[0], b))
    sub = [cands[rng.randrange(len(cands))] for _ in range(6)]
    return min(sub, key=lambda m: pairs(play_tower_move(field, grid, m)[0]))


def can_finish(pieces):
    """Whether these pieces (as many larges as mediums as smalls) can make
    valid towers at all, whatever their places: a remix only ever takes
    apart the last grid row, so when they cannot, the game is locked."""
    L = [p for p in pieces if p[1] == 3]
    M = [p for p in pieces if p[1] == 2]
    S = [p for p in pieces if p[1] == 1]
    for pm in set(permutations(M)):
        if all(a[0] != b[0] for a, b in zip(L, pm)):
            for ps in set(permutations(S)):
                if all(a[0] != b[0] for a, b in zip(pm, ps)):
                    return True
    return False


def play_through(seed, rng, scatter, greedy, max_steps=300, end_at=None, max_remixes=5):
    """One towering game through the protocol, every step checked against
    the oracle, up to the start of nesting; or ``end`` at step ``end_at``,
    or once the game has remixed ``max_remixes`` times. A game can lock
    itself: when the last grid row's towers and the pieces left on the
    field cannot make valid towers together (four yellow larges and a
    yellow medium among them, say), every remix takes the same row apart
    and the pieces can only be rebuilt into a stuck position again."""
    sess = start(scatter, seed)
    field = parse_stacks(scatter)
    grid = [[] for _ in range(SLOTS)]
    remixes = 0
    seen = set()
    locked = False
    for step in range(max_steps):
        moves = check_towering(sess, field, grid, remixes)
        if step == end_at or remixes >= max_remixes:
            assert ask(sess, "play end") == "end"
            st = state(sess)
            assert st["to_move"] == "over" and ask(sess, "legal") == ""
            assert st["score"] == expected_score(remixes)
            if step == end_at:
                return "ended"
            return "locked" if locked else "gave up"
        if not moves:
            pieces = [p for x in field for p in x] + remix_takes(field, grid)[0]
            locked = not can_finish(pieces)
            field, grid = do_remix(sess, rng, field, grid, remixes, seen)
            remixes += 1
            continue
        mv = pick(rng, field, grid, moves, greedy)
        assert ask(sess, "play " + mv) == mv
        Tally.moves += 1
        field, grid = play_tower_move(field, grid, mv)
        if all(grid):
            # the 20th tower: nesting starts with the grid as built
            st = state(sess)
            assert st["phase"] == "nesting" and st["to_move"] == 0, st
            assert st["grid"] == write_stacks(grid)
            assert st["score"] == expected_score(remixes)
            assert not any(field), field
            assert ask(sess, "legal").split()   # nesting has its moves
            Tally.finished += 1
            return "nesting"
    return "unfinished"


def setup_position(placed, setup=(), empty=(), seed=0):
    """A hand-made scatter, the ``setup`` moves played (each checked), and
    the session with the oracle's field and grid."""
    scatter = build_scatter(placed, empty)
    sess = start(scatter, seed)
    field = parse_stacks(scatter)
    grid = [[] for _ in range(SLOTS)]
    for mv in setup:
        assert mv in check_towering(sess, field, grid, 0), mv
        assert ask(sess, "play " + mv) == mv
        field, grid = play_tower_move(field, grid, mv)
    return sess, field, grid


# ---- tests -------------------------------------------------------------------------
def play_scatters(games):
    """Random scatters, played through the protocol to the start of
    nesting (or the end): at every step the legal list, field, grid, remix
    count and score against the oracle, remixes and every one of their
    chance steps included. Half the games steer into stuck positions; the
    last is ended part-way. Returns how each game ended."""
    for name in ("positions", "moves", "remixes", "chance_steps",
                 "repeated_remix_steps", "blocked", "finished"):
        setattr(Tally, name, 0)
    rng = Rng(2024)
    ends = []
    for game in range(games):
        scatter = random_scatter(rng)
        ends.append(play_through(game, rng, scatter, game % 2 == 0,
                                 end_at=25 if game == games - 1 else None))
    print("\nends", ends)
    print("positions %d moves %d remixes %d chance steps %d (repeated %d) finished %d"
          " blocked %d" % (Tally.positions, Tally.moves, Tally.remixes, Tally.chance_steps,
                           Tally.repeated_remix_steps, Tally.finished, Tally.blocked))
    # games reached nesting, some after remixes, some locked, one ended early
    assert ends[-1] == "ended", ends
    assert "unfinished" not in ends and "locked" in ends, ends
    # remixes from a position met again by play were among them, checked
    # exactly like the first remix from it
    assert Tally.repeated_remix_steps > 0
    assert Tally.blocked >= 1000, Tally.blocked     # line of sight mattered
    return ends


def test_random_scatters_played_through_match_the_rulings():
    ends = play_scatters(8)
    assert ends.count("nesting") >= 4, ends
    assert Tally.remixes >= 10 and Tally.chance_steps >= 60, Tally.remixes


@pytest.mark.bench
def test_many_random_scatters_played_through_match_the_rulings():
    ends = play_scatters(40)
    assert ends.count("nesting") >= 10, ends
    assert Tally.remixes >= 20 and Tally.chance_steps >= 100, Tally.remixes


def test_line_of_sight_geometry_by_hand():
    """The oracle's own geometry on cases worked out by hand, so the
    comparisons below rest on something checked."""
    def names(s, t):
        return sorted(cell_name(i) for i in crossed(cell_index(s), cell_index(t)))
    assert names("a1", "h1") == ["b1", "c1", "d1", "e1", "f1", "g1"]
    assert names("a1", "b2") == []                       # corners only
    assert names("a1", "c3") == ["b2"]                   # a2 b1 b3 c2: corners
    assert names("a1", "b3") == ["a2", "b2"]             # knight
    assert names("a1", "c2") == ["b1", "b2"]             # knight, mid-edge
    assert names("a1", "d2") == ["b1", "c2"]             # c1 b2: corners
    assert names("h8", "g5") == ["g6", "h7"]             # g7 h6: corners
    assert names("a1", "e3") == ["b1", "b2", "c2", "d2", "d3"]   # through c2's centre
    assert names("a1", "h8") == ["b2", "c3", "d4", "e5", "f6", "g7"]
    for s in range(N * N):                               # symmetric
        for t in range(0, N * N, 7):
            if s != t:
                assert crossed(s, t) == crossed(t, s)


HAND = {
    # a medium, knight offsets: a2 (a target) blocks a1-b3; for a1-c2 the
    # crossed b1 and b2 are no targets (a small, a yellow large)
    "knight": ({"a1": "y2", "b3": "r3", "a2": "g3", "b2": "y3", "b1": "r1", "c2": "b3",
                "h8": "b2", "g6": "r3", "h7": "b3", "g7": "g3"}, (),
               {"a1-b3": False, "a1-a2": True, "a1-b2": False, "a1-c2": True,
                "h8-g6": False, "h8-g7": True, "h8-h7": False}),
    # the same knight offsets with blockers that are no targets: the wrong
    # colour (yellow large for a yellow medium), the wrong size (a medium)
    "knight, no targets between": (
        {"a1": "y2", "b3": "r3", "a2": "y3", "b2": "r2",
         "h8": "b2", "g6": "r3", "h7": "b3", "g7": "g1"}, (),
        {"a1-b3": True, "a1-a2": False, "h8-g6": True}),
    # offsets (3, 1) and (1, 3): the line passes a grid corner; the cells
    # touched only there (c1 b2, g7 h6) are targets and do not block
    "corner touch": (
        {"a1": "y2", "d2": "r3", "b1": "y3", "c2": "y1", "c1": "g3", "b2": "b3",
         "h8": "y2", "g5": "r3", "h7": "y3", "g6": "r1", "g7": "g3", "h6": "b3"}, (),
        {"a1-d2": True, "a1-c1": True, "a1-b2": True, "h8-g5": True, "h8-g7": True}),
    # the same lines with a crossed cell a target: blocked; b2 and g7,
    # touched at a corner by those lines, are crossed by a1-c2 and h8-g6
    "corner touch, crossed target": (
        {"a1": "y2", "d2": "r3", "b1": "y3", "c2": "g3", "c1": "g3", "b2": "b3",
         "h8": "y2", "g5": "r3", "h7": "y3", "g6": "r3", "g7": "g3", "h6": "b3"}, (),
        {"a1-d2": False, "a1-c2": False, "a1-c1": True, "h8-g5": False, "h8-g6": False,
         "h8-g7": True}),
    # the long diagonal: the six cells on it are no targets, all fourteen
    # cells touching it at corners are
    "long diagonal": (
        dict({"a1": "g2", "h8": "r3", "b2": "g3", "c3": "g3", "d4": "g3", "e5": "g3",
              "f6": "r1", "g7": "b1"},
             **{cell_name(i): p for i, p in zip(
                 [r * N + r + 1 for r in range(7)] + [(r + 1) * N + r for r in range(7)],
                 ["r3"] * 4 + ["y3"] * 5 + ["b3"] * 5)}), (),
        {"a1-h8": True, "a1-b1": True, "a1-a2": True, "a1-b2": False}),
    # the same with a target on the diagonal: d4 blocks a1-h8 only
    "long diagonal, target on it": (
        dict({"a1": "g2", "h8": "r3", "b2": "g3", "c3": "g3", "d4": "r3", "e5": "g3",
              "f6": "r1", "g7": "b1"},
             **{cell_name(i): p for i, p in zip(
                 [r * N + r + 1 for r in range(7)] + [(r + 1) * N + r for r in range(7)],
                 ["r3"] * 3 + ["g3"] + ["y3"] * 5 + ["b3"] * 5)}), (),
        {"a1-h8": False, "a1-d4": True, "a1-e5": False}),
    # collinear targets in a row, a column, a diagonal and through a centre
    # at offset (4, 2): the nearer one blocks the farther; non-targets
    # (a small, a blue large, a medium) in between do not
    "collinear": (
        {"a1": "b2", "b1": "g1", "c1": "r3", "d1": "b3", "e1": "y3",
         "b2": "b3", "c3": "g3", "d4": "b3", "e5": "r3",
         "a2": "r2", "a3": "y3", "a4": "b1", "a5": "g3",
         "c2": "y3", "e3": "g3", "d2": "y1", "d3": "r1"}, (),
        {"a1-c1": True, "a1-e1": False, "a1-c3": True, "a1-e5": False,
         "a1-a3": True, "a1-a5": False, "a1-c2": True, "a1-e3": False}),
    # smalls: only the medium's colour counts (y1 onto r2 on y3 is fine),
    # a medium-on-large with a yellow medium does not block a yellow small,
    # a bare large never blocks a small
    "smalls": (
        {"a1": "y1", "c1": "r3", "c2": "g2", "b1": "r3", "b2": "y2",
         "a3": "y3", "a4": "r2", "a2": "g3"}, ("c2-c1", "b2-b1", "a4-a3"),
        {"a1-c1": True, "a1-b1": False, "a1-a3": True, "a1-a2": False,
         "b1-a2": False}),
    # a small blocked by a medium-on-large it could land on
    "smalls, blocked": (
        {"a1": "y1", "b1": "r3", "b2": "g2", "c1": "b3", "c2": "r2", "d1": "b1"},
        ("b2-b1", "c2-c1"),
        {"a1-c1": False, "a1-b1": True, "d1-c1": True, "d1-b1": False}),
}


@pytest.mark.parametrize("name", sorted(HAND))
def test_crowded_hand_made_positions(name):
    """Hand-made positions that stress line of sight: the listed moves are
    legal or not as worked out by hand, the oracle agrees, and the whole
    legal list matches the oracle's, before and after every move played
    from them (towers finished and leaving for the grid included)."""
    placed, setup, expect = HAND[name]
    sess, field, grid = setup_position(placed, setup)
    moves = check_towering(sess, field, grid, 0)
    legal = set(ask(sess, "legal").split())
    for mv, ok in expect.items():
        assert (mv in moves) == ok, ("oracle", name, mv)
        assert (mv in legal) == ok, ("engine", name, mv)
    # play on from here: every legal move in turn from the same start, the
    # expected moves first
    for mv in [m for m in expect if expect[m]] + sorted(moves)[:12]:
        s2, f2, g2 = setup_position(placed, setup)
        assert ask(s2, "play " + mv) == mv
        f2, g2 = play_tower_move(f2, g2, mv)
        check_towering(s2, f2, g2, 0)
        Tally.moves += 1


def test_finished_towers_fill_the_grid_in_order():
    """Two smalls land: each tower leaves the field for the next slot."""
    placed, setup, _ = HAND["smalls, blocked"]
    sess, field, grid = setup_position(placed, setup)
    for mv, slot, tower in (("d1-c1", 0, "b3r2b1"), ("a1-b1", 1, "r3g2y1")):
        assert ask(sess, "play " + mv) == mv
        field, grid = play_tower_move(field, grid, mv)
        assert write_stacks([grid[slot]]) == tower
        assert field[cell_index(mv[3:])] == []
        check_towering(sess, field, grid, 0)
    assert state(sess)["grid"].startswith("b3r2b1/r3g2y1/-/")


def test_illegal_towering_moves_are_refused_and_change_nothing():
    """Moves the rulings forbid (blocked line of sight, own colour, wrong
    size, a large or a built medium moving, empty cells, remix while a
    move exists) are refused with a reason, and state and history stay as
    they were; then every move the oracle does not list, on random
    positions part-way through towering."""
    cases = {
        "knight": ["a1-b3",        # blocked by a2
                   "a1-b2",        # y2 onto y3
                   "h8-h7",        # b2 onto b3
                   "b1-a1",        # a small onto a lone medium
                   "b3-c2",        # a large moves
                   "a1-a1", "remix", "a1", "a1-i9", "z"],
        "corner touch, crossed target": ["a1-d2", "h8-g5", "c2-a1"],
        "smalls": ["a1-b1",        # y1 onto y2 (on r3)
                   "a1-a2",        # a small onto a bare large
                   "b1-a2",        # the medium of a built pair moves
                   "c1-a2", "a4-a3", "a1-a4"],   # a4 is empty now
        "smalls, blocked": ["a1-c1", "d1-b1", "b2-b1"],
        "long diagonal, target on it": ["a1-h8", "a1-e5"],
    }
    for name, tokens in cases.items():
        placed, setup, _ = HAND[name]
        sess, field, grid = setup_position(placed, setup)
        before = (ask(sess, "state"), ask(sess, "history"), ask(sess, "legal"))
        for tok in tokens:
            assert tok not in tower_moves(field)
            refused(sess, "play " + tok, look=None)
        assert (ask(sess, "state"), ask(sess, "history"), ask(sess, "legal")) == before
    rng = Rng(99)
    names = [cell_name(i) for i in range(N * N)]
    for game in range(6):
        scatter = random_scatter(rng)
        sess = start(scatter, game)
        field = parse_stacks(scatter)
        grid = [[] for _ in range(SLOTS)]
        for _ in range(8 * game):
            moves = sorted(tower_moves(field))
            if not moves:
                break
            mv = moves[rng.randrange(len(moves))]
            ask(sess, "play " + mv)
            field, grid = play_tower_move(field, grid, mv)
        ok = check_towering(sess, field, grid, 0)
        before = (ask(sess, "state"), ask(sess, "history"))
        tried = 0
        for s in names:
            for t in names:
                tok = s + "-" + t
                if tok in ok or rng.randrange(8):
                    continue
                refused(sess, "play " + tok, look=None)
                tried += 1
        assert tried > 300
        if ok:
            refused(sess, "play remix", look=None)
        assert (ask(sess, "state"), ask(sess, "history")) == before


# ---- a stuck end game by hand, and the remix from it -------------------------------------
# 19 towers, each laid out as large, medium, small in a line of three cells
# (built by two moves: the medium onto the large beside it, the small over
# the now empty middle cell), and y3 y2 g1 left over: stuck, as y2 may not
# land on y3 and no tower is half built for g1.
TOWERS = (["r3g2r1"] * 3 + ["r3y2b1"] * 2 + ["g3b2y1"] * 4 + ["g3y2b1"]
          + ["b3r2g1"] * 3 + ["b3r2b1", "b3y2r1", "y3g2r1", "y3g2b1", "y3b2y1",
                              "y3r2g1"])
LINES = ([[(r, c), (r, c + 1), (r, c + 2)] for r in range(N) for c in (0, 3)]
         + [[(r, c), (r + 1, c), (r + 2, c)] for c in (6, 7) for r in (0, 3)])


def _line(k):
    return ["abcdefgh"[c] + str(r + 1) for r, c in LINES[k]]


def build_towers(sess, field, grid, ks):
    for k in ks:
        large, medium, small = _line(k)
        for mv in (medium + "-" + large, small + "-" + large):
            assert mv in check_towering(sess, field, grid, state(sess)["remixes"]), mv
            assert ask(sess, "play " + mv) == mv
            field, grid = play_tower_move(field, grid, mv)
    return field, grid


def stuck_end_game():
    placed = {}
    for k, tower in enumerate(TOWERS + ["y3y2g1"]):
        for name, j in zip(_line(k), (0, 2, 4)):
            placed[name] = tower[j:j + 2]
    sess, field, grid = setup_position(placed, (), empty=("g7", "h7", "g8", "h8"), seed=5)
    field, grid = build_towers(sess, field, grid, range(19))
    assert write_stacks(grid) == "/".join(TOWERS) + "/-"
    assert check_towering(sess, field, grid, 0) == set()
    assert set(ask(sess, "legal").split()) == {"remix", "end"}
    return sess, field, grid


def remix_back_and_rebuild(sess, field, grid):
    """Remix the last row (towers 17-19), playing its pieces back onto
    their first cells, and rebuild the same towers: the position is the
    one remixed from, one remix later."""
    cells = _line(16) + _line(17) + _line(18)
    field, grid = do_remix(sess, Rng(0), field, grid, 0, choose=cells)
    assert write_stacks(grid) == "/".join(TOWERS[:16]) + "/-/-/-/-"
    field, grid = build_towers(sess, field, grid, (16, 17, 18))
    return field, grid


def test_remix_of_a_stuck_end_game():
    """The stuck end game: remix takes the last grid row apart (the three
    towers of slots 17-19, nine pieces), -5, each piece to an empty cell
    with equal odds; the same towers rebuilt give the position back."""
    sess, field, grid = stuck_end_game()
    before = state(sess)
    field2, grid2 = remix_back_and_rebuild(sess, field, grid)
    after = state(sess)
    assert (after["field"], after["grid"]) == (before["field"], before["grid"])
    assert after["remixes"] == 1 and after["score"]["total"] == -5
    assert set(ask(sess, "legal").split()) == {"remix", "end"}
    # the end ends it with the score as it stands
    assert ask(sess, "play end") == "end"
    assert state(sess)["score"] == expected_score(1)


def test_undoing_a_remix_does_not_reroll_it():
    """docs/games/ice-solo.md, "Undo is not a re-roll": undo a remix and
    remix again from the same position, and each piece's only outcome is
    the cell it went to before. (Contrast with the test below, where the
    position comes back by play, not by undo.)"""
    sess, field, grid = stuck_end_game()

    def position():
        st = state(sess)
        del st["undos"]             # the state counts undos
        return st
    before = position()
    assert ask(sess, "play remix") == "remix"
    first = [ask(sess, "sample") for _ in range(9)]
    after = position()
    assert after["remixes"] == 1 and after["to_move"] == 0
    assert ask(sess, "undo") == "remix"
    assert position() == before
    assert ask(sess, "play remix") == "remix"
    for tok in first:
        assert ask(sess, "legal") == tok + ":1/1"
        assert ask(sess, "sample") == tok
    assert position() == after


def test_a_remix_from_a_position_met_again_by_play_is_random():
    """After a remix and the same towers rebuilt (one remix later, -5 paid),
    a second remix is a new remix: the rulings scatter its pieces into
    random empty cells, so the first piece may go to any of the 61."""
    sess, field, grid = stuck_end_game()
    field, grid = remix_back_and_rebuild(sess, field, grid)
    assert ask(sess, "play remix") == "remix"
    odds = ask(sess, "legal").split()
    empties = [i for i, x in enumerate(field) if not x]
    assert len(empties) == 61
    assert sorted(odds) == sorted("@%s:1/61" % cell_name(i) for i in empties), odds
