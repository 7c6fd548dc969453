"""The Ice Solo nesting hint against a slow reading of its documented
heuristic (docs/games/ice-solo.md, The hint): every cell valued from its
own stack, a move's gain as the change of its two cells, the one-move
lookahead for the uncovered piece, the recent moves not taken back, and
the tie order."""
import pytest

from engine import registry
from engine.ice_solo import END, P_NEST
from engine.rng import Rng
from engine.state import CHANCE

GOOD = (0, 10, 30, 55)


def value(st):
    """A cell's value from its stack alone (a list of piece codes)."""
    if not st or st[0] & 3 != 3:
        return -40
    b = st[0]
    k = 1
    while k < len(st) and k < 3 and st[k] == b - k:
        k += 1
    for x in range(k, len(st) - 2):
        q = st[x]
        if q & 3 == 3 and st[x + 1] == q - 1 and st[x + 2] == q - 2:
            return -40              # a full nest locked above the run
    if k == 3 and len(st) == 3:
        return 100
    return GOOD[k] - 6 * (len(st) - k)


def locked(st):
    n = len(st)
    return (n >= 3 and st[-1] & 3 == 1 and st[-2] == st[-1] + 1 and
            st[-3] == st[-1] + 2)


def naive_hint(state):
    g = [list(x) for x in state.grid]
    w = state.width
    n = len(g)

    def inline(s, t):
        return s != t and (s // w == t // w or s % w == t % w)

    def land(t, piece):
        return value(g[t] + [piece]) - value(g[t])

    def can(s, t):
        if not g[s] or locked(g[s]) or not inline(s, t):
            return False
        p = g[s][-1]
        return (not g[t] and p & 3 == 1) or (g[t] and g[t][-1] >> 2 == p >> 2)

    # the reverse of the last four moves (back to the last chance outcome)
    back = []
    h = state.hist
    i = len(h) - 2
    while i >= 0 and len(back) < 4 and not h[i] & 0x80:
        a = ((h[i] << 8) | h[i + 1]) & 0x7FFF
        if a < 4096:
            back.append((state._g(a & 63), state._g(a >> 6)))
        i -= 2
    best = None
    found = False
    for s in range(n):
        for t in range(n):
            if not can(s, t):
                continue
            found = True
            if (s, t) in back:
                continue
            a = g[s]
            p = a[-1]
            gain = value(a[:-1]) - value(a) + land(t, p)
            # the lookahead: the uncovered piece's best next gain in the row
            # or column of s, judged on the cells as they are now; on the
            # cell of that best, the second best
            u = []
            if len(a) >= 2 and not locked(a[:-1]):
                q = a[-2]
                lv = value(a[:-2]) - value(a[:-1])
                for y in range(n):
                    if not inline(s, y):
                        continue
                    if (g[y] and g[y][-1] >> 2 == q >> 2) or (not g[y] and q & 3 == 1):
                        u.append((lv + land(y, q), y))
            u1 = max([x for x, _ in u] + [0])
            ut = next((y for x, y in u if x == u1), None) if u1 > 0 else None
            u2 = max([x for x, y in u if y != ut] + [0])
            score = 10 * gain + 9 * (u2 if t == ut else u1)
            if best is None or score > best[0]:
                best = (score, s, t)
    if best is None:
        if found:
            # only take-backs are left: the newest legal one
            for t, s in back:
                if can(t, s):
                    return state._a(t) * 64 + state._a(s)
        return naive_raising(state)
    if best[0] < 0:
        return naive_raising(state)
    return state._a(best[1]) * 64 + state._a(best[2])


def naive_raising(state):
    """END, unless a legal move raises the score: then the one raising it
    most (first in legal order), each tried on a copy of the state."""
    base = state.scores()[0]
    best = (base, END)
    for a in state.legal_actions():
        if a == END:
            continue
        copy = registry.deserialize(state.serialize())
        copy.apply_action(a)
        x = copy.scores()[0]
        if x > best[0]:
            best = (x, a)
    return best[1]


def dealt(seed, variant):
    opts = {"variant": variant}
    if variant == "4":
        opts["quick"] = "1"
    st = registry.new("ice_solo", opts)
    rng = Rng(seed)
    while st.to_move() == CHANCE:
        outs = st.chance_outcomes()
        st.apply_action(outs[rng.weighted([w for _, w in outs])][0])
    assert st.phase == P_NEST
    return st


def test_the_hint_is_the_documented_heuristic():
    checked = 0
    for variant in ("5", "4"):
        for seed in range(8):
            st = dealt(seed, variant)
            rng = Rng(500 + seed)
            for step in range(70):
                if st.to_move() != 0 or st.style_due():
                    break
                a = st.hint()
                assert a == naive_hint(st), (variant, seed, step, st.grid_text())
                assert st.is_legal(a)
                checked += 1
                if a == END:
                    break
                if seed % 2:        # follow the hint: its own positions
                    st.apply_action(a)
                else:               # or wander: tall piles, empty cells
                    legal = [x for x in st.legal_actions() if x != END]
                    st.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 500


def test_following_the_hint_does_not_take_back_a_recent_move():
    seen = 0
    for seed in range(6):
        st = dealt(seed, "5")
        done = []
        for _ in range(120):
            if st.to_move() != 0 or st.style_due():
                break
            a = st.hint()
            if a == END:
                break
            undo = {(m & 63) * 64 + (m >> 6) for m in done[-4:]}
            others = [x for x in st.legal_actions() if x != END and x not in undo]
            if others:
                assert a not in undo
                seen += 1
            st.apply_action(a)
            done.append(a)
    assert seen > 100


def test_the_moves_in_parts_give_the_same_hint():
    from engine.ice_solo_hint import cells, moves, hint
    n = 0
    for variant in ("5", "4"):
        for seed in range(4):
            st = dealt(seed, variant)
            rng = Rng(700 + seed)
            for _ in range(40):
                if st.to_move() != 0 or st.style_due():
                    break
                want = hint(st)
                for cut in (1, 7, 13, 19):
                    f = cells(st)
                    assert moves(st, f, 0, cut) is None
                    assert moves(st, f, cut, 99) == want
                    n += 1
                legal = [x for x in st.legal_actions() if x != END]
                st.apply_action(legal[rng.randrange(len(legal))])
    assert n > 400


def test_when_only_take_backs_are_left_the_hint_is_a_legal_one():
    # every move left takes back one of the last four, and taking
    # back the very last (c3-c5, a medium into an empty cell) is refused;
    # the hint must still name a legal move
    from engine.protocol import Session
    deal = ("b3b2b1/p3p2p1/r3r2r1/y3y2y1/g3g2g1/p3p2p1/r3r2r1/y3y2y1/g3g2g1/"
            "b3b2b1/r3r2r1/y3y2y1/g3g2g1/b3b2b1/p3p2p1/y3y2y1/g3g2g1/b3b2b1/"
            "p3p2p1/r3r2r1/g3g2/b3b2b1/p3p2p1g1/r3r2r1/y3y2y1")
    s = Session(1)
    assert s.handle("new ice_solo variant=5 deal=%s seed=1" % deal).startswith("= ")
    for mv in ("a5-c5", "c5-c3", "c3-c5", "a5-c5"):
        assert s.handle("play " + mv) == "= %s\n\n" % mv
    assert s.handle("legal") == "= c5-c3 end\n\n"
    hint = s.handle("hint")
    assert hint == "= c5-c3\n\n"
    assert naive_hint(s.state) == s.state.hint()
    assert s.handle("play " + hint[2:-2]) == hint


def check_hint_never_says_end_early(monkeypatch, seeds):
    """The hint followed from ``seeds`` deals of each variant: whenever it
    says end, the naive reading finds no move that raises the score."""
    from engine import ice_solo_hint as H
    decided = []
    real = H.raising

    def counted(state):
        a = real(state)
        decided.append(a != END)
        return a
    monkeypatch.setattr(H, "raising", counted)
    for variant in ("4", "5"):
        for seed in range(seeds):
            st = dealt(seed, variant)
            for _ in range(400):
                a = st.hint()
                if a == END:
                    assert naive_raising(st) == END, (variant, seed, st.grid_text())
                    break
                st.apply_action(a)
    assert any(decided), "some deal reached the rule (else this tests nothing)"


def test_the_hint_never_says_end_while_a_move_raises_the_score(monkeypatch):
    check_hint_never_says_end_early(monkeypatch, 12)


@pytest.mark.bench
def test_the_hint_never_says_end_while_a_move_raises_the_score_on_many_deals(monkeypatch):
    check_hint_never_says_end_early(monkeypatch, 80)
