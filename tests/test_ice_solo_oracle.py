"""Ice Solo's nesting phase and score against a second implementation,
written here from the project rulings alone (no engine code), on random
positions the other tests do not list. The engine is driven through the
text protocol only, as an outside checker would drive it: ``new ice_solo
deal=...``, then ``legal``, ``play``, ``state``, ``to_move``, ``undo``.
The oracle keeps its own grid, starting from the deal and applying each
move and undo itself, so where every piece lands is checked against the
engine's grid at every step.

The positions: every piece of the variant, stacked at random into the
grid's cells, a share of the stacks built as full nests (locked tops);
and grids of clean nests a few random carries from the end (rainbow
lines, the style judgement, a stuck grid)."""

import json

import pytest

from engine.protocol import Session
from harness import ask, refused
from engine.rng import Rng

COLOURS = {4: "rygb", 5: "rygbp"}
WIDTH = {4: 4, 5: 5}
ROWS = 5


# ---- the second implementation ---------------------------------------------------
def cell_name(i, w):
    return "abcde"[i % w] + str(i // w + 1)


def parse_grid(text):
    """Grid string -> list of stacks, each a list of (colour, size)."""
    out = []
    for cell in text.split("/"):
        st = []
        if cell != "-":
            for k in range(0, len(cell), 2):
                st.append((cell[k], int(cell[k + 1])))
        out.append(st)
    return out


def in_full_nest(st, k):
    """Whether the piece at height k belongs to three consecutive pieces,
    bottom to top large, medium, small, of one colour."""
    for b in range(max(0, k - 2), min(k, len(st) - 3) + 1):
        (c0, s0), (c1, s1), (c2, s2) = st[b], st[b + 1], st[b + 2]
        if (s0, s1, s2) == (3, 2, 1) and c0 == c1 == c2:
            return True
    return False


def moves(grid, w):
    """Every legal nesting move as a token, by the rulings."""
    out = set()
    for s, a in enumerate(grid):
        if not a or in_full_nest(a, len(a) - 1):
            continue
        colour, size = a[-1]
        for t, b in enumerate(grid):
            if t == s:
                continue
            if s // w != t // w and s % w != t % w:
                continue
            if b:
                ok = b[-1][0] == colour
            else:
                ok = size == 1
            if ok:
                out.add(cell_name(s, w) + "-" + cell_name(t, w))
    return out


def cell_index(name, w):
    return "abcde".index(name[0]) + (int(name[1]) - 1) * w


def carry(grid, token, w):
    """Apply the nesting move ``token`` (like ``a1-c1``) to the oracle's
    grid: the top piece of the first cell goes on top of the second."""
    s, t = token.split("-")
    grid[cell_index(t, w)].append(grid[cell_index(s, w)].pop())


def clean(st):
    return (len(st) == 3 and st[0][1] == 3 and st[1][1] == 2 and st[2][1] == 1
            and st[0][0] == st[1][0] == st[2][0])


def score(grid, w, variant, style, remixes=0):
    cols = set(COLOURS[variant])
    cl = [st[0][0] if clean(st) else None for st in grid]
    n_clean = sum(1 for c in cl if c)
    fully = 5 if n_clean == len(grid) else 0
    lines = [[cl[r * w + c] for c in range(w)] for r in range(ROWS)]
    lines += [[cl[r * w + c] for r in range(ROWS)] for c in range(w)]
    rainbow = 5 * sum(1 for line in lines if cols <= set(x for x in line if x))
    sty = 10 if style == 1 else 0
    dpc = 20 if rainbow >= 25 and style == 1 else 0
    rem = -5 * remixes
    return {"clean": n_clean, "fully_nested": fully, "rainbow": rainbow,
            "style": sty, "double_plus_cool": dpc, "remix": rem,
            "total": n_clean + fully + rainbow + sty + dpc + rem}


# ---- positions ---------------------------------------------------------------------
def random_position(rng, variant, nests):
    """Every piece of the variant in the grid's cells, ``nests`` of the
    colours' nests stacked whole (at random cells), the rest one by one."""
    w = WIDTH[variant]
    n = w * ROWS
    pieces = [(c, s) for c in COLOURS[variant] for s in (3, 2, 1) for _ in range(5)]
    cells = [[] for _ in range(n)]
    for _ in range(nests):
        c = COLOURS[variant][rng.randrange(len(COLOURS[variant]))]
        if all((c, s) in pieces for s in (3, 2, 1)):
            i = rng.randrange(n)
            for s in (3, 2, 1):
                pieces.remove((c, s))
                cells[i].append((c, s))
    while pieces:
        p = pieces.pop(rng.randrange(len(pieces)))
        cells[rng.randrange(n)].append(p)
    return "/".join("".join(c + str(s) for c, s in st) or "-" for st in cells)


def near_solved(rng, variant, k, latin):
    """Clean nests in every cell (each row and column holding every colour
    when ``latin``, less a few cells swapped so some lines lose it, else
    shuffled), then ``k`` top pieces carried to other cells at random:
    positions a few moves from the end, where the style judgement, rainbow
    lines around the double-plus-cool threshold and a stuck grid come up."""
    cols = COLOURS[variant]
    w = WIDTH[variant]
    n = w * ROWS
    if latin:
        order = [cols[(r + c) % len(cols)] for r in range(ROWS) for c in range(w)]
        for _ in range(rng.randrange(2 * w)):
            i, j = rng.randrange(n), rng.randrange(n)
            order[i], order[j] = order[j], order[i]
    else:
        order = [c for c in cols for _ in range(5)]
        for i in range(n - 1, 0, -1):
            j = rng.randrange(i + 1)
            order[i], order[j] = order[j], order[i]
    cells = [[(c, 3), (c, 2), (c, 1)] for c in order]
    for _ in range(k):
        s = rng.randrange(n)
        t = rng.randrange(n)
        if cells[s] and s != t:
            cells[t].append(cells[s].pop())
    return "/".join("".join(c + str(z) for c, z in st) or "-" for st in cells)


def check_position(sess, variant, style, grid):
    """The engine's grid, legal list, score and phase against the
    oracle's, worked out from the oracle's own ``grid``."""
    w = WIDTH[variant]
    st = json.loads(ask(sess, "state"))
    assert parse_grid(st["grid"]) == grid, st["grid"]
    expect = moves(grid, w)
    legal = set(ask(sess, "legal").split())
    all_clean = all(clean(x) for x in grid)
    over = ask(sess, "to_move") == "over"
    if over:
        assert legal == set(), st["grid"]
    elif all_clean and style == 0:
        # nothing moves in a grid of clean nests: the judgement is due
        assert not expect and legal == {"style-yes", "style-no"}, st["grid"]
    else:
        assert legal == expect | {"end"}, st["grid"]
    if style == 0 and not all_clean:
        assert over == (not expect), st["grid"]
    assert st["score"] == score(grid, w, variant, style), st["grid"]
    assert st["phase"] == ("over" if over else "nesting")
    return expect, over


@pytest.mark.parametrize("variant", [4, 5])
def test_nesting_and_score_match_the_rulings_on_random_positions(variant):
    rng = Rng(4000 + variant)
    seen = set()
    for game in range(60):
        if game % 2:
            deal = near_solved(rng, variant, 1 + rng.randrange(4), game % 4 == 1)
        else:
            nests = rng.randrange(4 * variant) if game % 4 else 5 * variant
            deal = random_position(rng, variant, nests)
        sess = Session(game)
        a = ask(sess, "new ice_solo variant=%d deal=%s" % (variant, deal))
        assert a.startswith("ice_solo"), (deal, a)
        grid = parse_grid(deal)
        style = 0
        made = []
        for step in range(60):
            expect, over = check_position(sess, variant, style, grid)
            if over:
                seen.add("over")
                break
            legal = ask(sess, "legal").split()
            if legal == ["style-yes", "style-no"]:
                seen.add("style")
                style = 1 + rng.randrange(2)
                ask(sess, "play " + legal[style - 1])
                check_position(sess, variant, style, grid)
                break
            if made and rng.randrange(9) == 0:
                # back one move, then on again: the piece goes home
                mv = made.pop()
                assert ask(sess, "undo") == mv
                back = mv.split("-")
                carry(grid, back[1] + "-" + back[0], WIDTH[variant])
                continue
            mv = sorted(expect)[rng.randrange(len(expect))]
            ask(sess, "play " + mv)
            carry(grid, mv, WIDTH[variant])
            made.append(mv)
            if json.loads(ask(sess, "state"))["score"]["rainbow"]:
                seen.add("rainbow")
    # the random positions reached every kind of ending the rulings have
    assert seen == {"over", "style", "rainbow"}, seen


@pytest.mark.parametrize("variant", [4, 5])
def test_double_plus_cool_either_side_of_its_threshold(variant):
    """Grids of clean nests with 4, 5 and 6 rainbow lines (20, 25, 30
    points), found among Latin grids with cells swapped: the judgement is
    due at once, and either answer scores as the oracle says."""
    rng = Rng(5000 + variant)
    w = WIDTH[variant]
    found = {}
    for _ in range(2000):           # a bound, so a mistake fails, not hangs
        deal = near_solved(rng, variant, 0, True)
        r = score(parse_grid(deal), w, variant, 0)["rainbow"]
        if r in (20, 25, 30):
            found.setdefault(r, deal)
    assert sorted(found) == [20, 25, 30]
    for r, deal in sorted(found.items()):
        for style, word in ((1, "style-yes"), (2, "style-no")):
            sess = Session(r)
            ask(sess, "new ice_solo variant=%d deal=%s" % (variant, deal))
            assert ask(sess, "legal").split() == ["style-yes", "style-no"]
            ask(sess, "play " + word)
            got = json.loads(ask(sess, "state"))["score"]
            assert got == score(parse_grid(deal), w, variant, style), deal
            assert got["double_plus_cool"] == (20 if r >= 25 and style == 1 else 0)
            assert ask(sess, "to_move") == "over"


@pytest.mark.parametrize("variant", [4, 5])
def test_refused_moves_change_nothing(variant):
    """A move the rulings forbid is refused with a reason and the grid,
    score and history stay as they were."""
    rng = Rng(77 + variant)
    w = WIDTH[variant]
    names = [cell_name(i, w) for i in range(w * ROWS)]
    for game in range(15):
        deal = random_position(rng, variant, rng.randrange(3 * variant))
        sess = Session(game)
        ask(sess, "new ice_solo variant=%d deal=%s" % (variant, deal))
        grid = parse_grid(json.loads(ask(sess, "state"))["grid"])
        ok = moves(grid, w)
        before = (ask(sess, "state"), ask(sess, "history"))
        tried = 0
        for s in names:
            for t in names:
                tok = s + "-" + t
                if tok in ok or tried > 40 or rng.randrange(6):
                    continue
                tried += 1
                refused(sess, "play " + tok, look=None)
        assert (ask(sess, "state"), ask(sess, "history")) == before
