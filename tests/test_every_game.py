"""Every game of the catalog walked through the same checks (OpenSpiel's
"basic tests"): its engine, its saves, the text protocol and its screen.

Every catalog entry marked built (engine/catalog.py) is walked through
seeded random playthroughs of at most 300 actions (the table tools never
end): 16 in the everyday suite, 200 in `make bench`. One whose engine
module is missing fails here rather than drop out.
An entry not built yet is walked as soon as its engine module exists. A game
added to the catalog is covered without touching this file; ``VARIANTS``
only adds option sets worth walking for games that have options.

Sections: the engine (playthroughs with every invariant, undo), corrupted
saves, the protocol (a game played through its text lines), the screen
(each built entry opened from the menu on both boards, played, left and
resumed).

A small history-mode game (``toy``, below) is added to the catalog for these
tests only: dice and bag keep snapshots (UNDO_DEPTH), so without it the
default path of State (replayed undo, saved histories) would go unchecked.
"""
import json
import sys
import types

import pytest

from engine import catalog
from engine import registry
from engine.protocol import Session, to_json
from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove, State
from harness import BOARDS, ask, boot, game_part, refused, wait_for

# The everyday suite walks each game PLAYTHROUGHS times, FULL of them
# deep-checked at every step; `make bench` walks LONG_PLAYTHROUGHS, LONG_FULL
# of them fully (the suite must stay fast as games are added).
PLAYTHROUGHS = 16
LONG_PLAYTHROUGHS = 200
MAX_ACTIONS = 300
# Every step of every playthrough gets the cheap checks (check_cheap). The
# deep ones (a copy via deserialize, every chance outcome applied on its own
# copy, refused tokens, undo at 1 deep step in UNDO_ODDS) run at every step
# of the first FULL playthroughs and at 1 step in DEEP_ODDS of the others:
# a copy of a history-mode game replays its whole history, so deep checks
# everywhere would cost minutes per game. A dice or bag walk costs about
# 0.3 s fully checked and 15 ms sampled.
FULL = 2
LONG_FULL = 10
DEEP_ODDS = 30
UNDO_ODDS = 4           # undo is checked at 1 deep step in UNDO_ODDS
MOVES_TRIED = 6         # legal moves applied on copies per deep step

# option sets worth walking, per game id; any other game is walked with {}
VARIANTS = {
    "dice": [{}, {"die": "d6", "count": "3"}, {"die": "treehouse", "count": "6"},
             {"die": "color", "count": "2"}],
    "bag": [{}, {"preset": "ice_stalks"}, {"contents": "r3*2,y1,k2*3,w"},
            {"contents": "g1"}],
    "ice_solo": [{}, {"variant": "4"}, {"variant": "4", "quick": "1"}],
}

GARBAGE = ["", " ", "xyzzy", "\x00", "\u2603", "-1", "99999", "r9", "a0",
           "play", "roll roll", "draw\n", "#", "=", "?", "\U0001F600" * 3,
           "x" * 300, "0", "-", "/"]


# ---- the toy game --------------------------------------------------------
ROLL, HOLD = 0, 1
_FACE = 2            # faces 1..6 are actions 2..7
_DEAL = 8            # start bonus 0..3 (auto-dealt) are actions 8..11
_TOY_TOKENS = ["roll", "hold", "1", "2", "3", "4", "5", "6",
               "bonus0", "bonus1", "bonus2", "bonus3"]


class ToyGame(State):
    """Two-player Pig to ``target``: a dealt start bonus, then roll or hold.
    Rolling a 1 loses the turn total. Kept naive on purpose: ``token`` of an
    unknown action raises IndexError, as a hasty game's might."""

    GAME = "toy"
    OPTIONS = ("target",)
    __slots__ = ("target", "banked", "turn", "player", "rolling", "dealt")

    def _configure(self, opts):
        from engine.state import opt_int
        self.target = opt_int(opts, "target", 5, 99, 12)

    def _init(self):
        self.banked = [0, 0]
        self.turn = 0
        self.player = 0
        self.rolling = False
        self.dealt = False

    def num_players(self):
        return 2

    def to_move(self):
        if not self.dealt or self.rolling:
            return CHANCE
        if max(self.banked) >= self.target:
            return OVER
        return self.player

    def auto_chance(self):
        return not self.dealt

    def legal_actions(self):
        t = self.to_move()
        if t < 0:
            return []
        return [ROLL, HOLD] if self.turn else [ROLL]

    def chance_outcomes(self):
        if not self.dealt:
            return [(_DEAL + i, i + 1) for i in range(4)]
        if self.rolling:
            return [(_FACE + i, 1) for i in range(6)]
        return []

    def token(self, a):
        return _TOY_TOKENS[a]

    def action(self, tok):
        if tok in _TOY_TOKENS:
            return _TOY_TOKENS.index(tok)
        raise IllegalMove("unknown token %r" % tok)

    def _apply(self, a):
        if a >= _DEAL:
            self.banked[1] = a - _DEAL
            self.dealt = True
        elif a == ROLL:
            self.rolling = True
        elif a == HOLD:
            self.banked[self.player] += self.turn
            self.turn = 0
            self.player ^= 1
        else:
            self.rolling = False
            if a == _FACE:
                self.turn = 0
                self.player ^= 1
            else:
                self.turn += a - _FACE + 1

    def scores(self):
        return list(self.banked)

    def fields(self):
        return {"turn": self.turn, "target": self.target}

    def render(self):
        return "%d:%d turn %d" % (self.banked[0], self.banked[1], self.turn)


@pytest.fixture(scope="module", autouse=True)
def toy_registered():
    """The toy engine and its catalog entry (no screen: not built)."""
    mod = types.ModuleType("engine.toy")
    mod.Game = ToyGame
    sys.modules["engine.toy"] = mod
    toy = catalog.Entry("toy", "TOY", (2, 2), False, "." * 64)
    catalog.GAMES.append(toy)
    yield
    catalog.GAMES.remove(toy)
    del sys.modules["engine.toy"]


# every built entry, whether or not its engine is found (a missing one
# fails), then those not built yet whose engine is already written
GAMES = catalog.built() + [g for g in registry.available()
                           if g not in catalog.built()]
VARIANTS["toy"] = [{}, {"target": "30"}]
CASES = GAMES + ["toy"]


def test_the_table_tools_are_in_the_catalog():
    # the generic tests below would silently cover nothing without them
    assert "dice" in GAMES and "bag" in GAMES


@pytest.mark.parametrize("game", catalog.built())
def test_every_built_entry_has_its_engine_and_screen(game):
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    assert os.path.exists(os.path.join(root, "engine", game + ".py")), game
    assert os.path.exists(os.path.join(root, "lib", "screen_" + game + ".py")), game
    assert registry.game_class(game).GAME == game


def test_every_entry_with_a_screen_is_marked_built():
    # built means its engine and its screen exist: an entry whose screen
    # has landed must say so, or the menu keeps it grey (one test over the
    # unbuilt entries, so it runs, and can fail, when there are none)
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    unbuilt = [g for g in catalog.ids() if g not in catalog.built()]
    with_screen = [g for g in unbuilt
                   if os.path.exists(os.path.join(root, "lib", "screen_" + g + ".py"))]
    assert with_screen == []


def test_a_built_entry_whose_engine_is_missing_fails(monkeypatch):
    # what a missing module does to the walks above: it raises, and a
    # built entry is in CASES whether or not its engine is found
    monkeypatch.setattr(catalog, "GAMES", catalog.GAMES + [
        catalog.Entry("ghostgame", "GHOST", (1, 1), True, "." * 64)])
    assert "ghostgame" in catalog.built()
    assert "ghostgame" not in registry.available()
    with pytest.raises(ValueError, match="not built yet"):
        registry.new("ghostgame")


# ---- checks ----------------------------------------------------------------

VIEW = ("serialize", "to_move", "legal", "scores", "fields", "render")


def view(st):
    """Everything an observer can see of a state (named by VIEW)."""
    return (st.serialize(), st.to_move(), st.legal(), st.scores(),
            to_json(st.fields()), st.render())


def undo_view(st):
    """What an undo must restore. State's own undo (replay or snapshot) must
    restore everything, bytes included. A game that overrides ``undo`` may
    keep bookkeeping across it on purpose (Ice Solo counts undos and
    remembers remix outcomes so an undo is not a re-roll), so for it the
    position must come back: turn, legal tokens and scores (and the
    history, checked by the callers)."""
    if type(st).undo is State.undo:
        return view(st)
    return (None, st.to_move(), st.legal(), st.scores(), None, None)


def differ(a, b):
    return "differs in " + ", ".join(VIEW[i] for i in range(len(VIEW))
                                     if a[i] != b[i])


def check_cheap(st, rng=None):
    """Invariants checked at every step. With ``rng``, only a few tokens are
    mapped back through ``action`` (every one is at the deep steps)."""
    t = st.to_move()
    assert isinstance(t, int)
    assert t in (CHANCE, OVER) or 0 <= t < st.num_players()
    outs = st.chance_outcomes()
    if t == CHANCE:
        assert outs, "a chance node with no outcomes"
        acts = [a for a, w in outs]
        for a, w in outs:
            assert type(w) is int and w > 0, "weight %r of %r" % (w, a)
            assert type(a) is int and 0 <= a < 0x8000
        assert len(set(acts)) == len(acts), "duplicate outcomes"
        assert st.legal_actions() == []
    else:
        assert outs == []
        acts = st.legal_actions()
        if t == OVER:
            assert acts == []
        else:
            assert acts, "a player to move with no legal action"
            assert len(set(acts)) == len(acts), "duplicate legal actions"
    toks = [st.token(a) for a in acts]
    assert len(set(toks)) == len(toks), "two actions share a token"
    for tok in toks:
        assert isinstance(tok, str) and tok.split() == [tok], repr(tok)
    some = range(len(acts))
    if rng is not None and len(acts) > 3:
        some = [rng.randrange(len(acts)) for _ in range(3)]
    for i in some:
        assert st.action(toks[i]) == acts[i], "token %r does not map back" % toks[i]
    scores = st.scores()
    assert len(scores) == st.num_players()
    assert all(type(s) is int for s in scores)
    return t, acts, outs, toks


def check_text(st):
    """The ``state`` JSON and ``show`` text the protocol sends."""
    fields = st.fields()
    assert isinstance(fields, dict)
    assert not set(fields) & {"game", "to_move", "scores"}
    assert json.loads(to_json(fields)) == json.loads(json.dumps(fields))
    text = st.render()
    assert isinstance(text, str) and text
    assert "\n\n" not in text and not text.endswith("\n"), "breaks framing"


def check_deep(st, pool, rng):
    check_text(st)
    data = st.serialize()
    assert isinstance(data, bytes)
    copy = registry.deserialize(data)
    assert type(copy) is type(st)
    assert copy.serialize() == data and copy == st
    assert view(copy)[1:] == view(st)[1:]
    t, acts, outs, toks = check_cheap(st)
    assert st.legal() == toks
    if t == CHANCE:
        tried = toks                      # every outcome must be legal
    else:
        tried = list(toks)
        rng.shuffle(tried)
        tried = tried[:MOVES_TRIED]
    for tok in tried:
        c = registry.deserialize(data)
        c.apply(tok)
        c.to_move()
    # tokens that are legal somewhere else, and garbage, are refused here
    before = view(st)
    others = sorted(tok for tok in pool if tok not in toks)   # sets vary by hash seed
    rng.shuffle(others)
    for tok in others[:5] + [g for g in GARBAGE if g not in toks]:
        try:
            st.apply(tok)
        except IllegalMove as e:
            assert str(e), "IllegalMove without a message"
        else:
            pytest.fail("%r is not listed as legal, yet was applied" % tok)
        assert st.serialize() == data, "a refused token %r changed the state" % tok
    after = view(st)
    assert after == before, "refused tokens left a state that " + differ(after, before)
    return data


def check_undo(st, rng):
    toks = st.legal()
    if not toks:
        return
    before = undo_view(st)
    hist = st.history()
    st.apply(toks[rng.randrange(len(toks))])
    assert st.can_undo()
    st.undo()
    after = undo_view(st)
    assert after == before, "after a move and undo the state " + differ(after, before)
    if st.UNDO_DEPTH and len(hist) == st.UNDO_DEPTH:
        hist = hist[1:]     # a full snapshot window forgot its oldest action
    assert st.history() == hist


def pick(st, rng):
    if st.to_move() == CHANCE:
        outs = st.chance_outcomes()
        return outs[rng.weighted([w for a, w in outs])][0]
    acts = st.legal_actions()
    return acts[rng.randrange(len(acts))]


def pick_from(t, acts, outs, rng):
    if t == CHANCE:
        return outs[rng.weighted([w for a, w in outs])][0]
    return acts[rng.randrange(len(acts))]


def playthrough(game, opts, seed, deep_every_step, pool, saves=None):
    rng = Rng(seed)
    st = registry.new(game, opts)
    applied = []
    for step in range(MAX_ACTIONS + 1):
        t, acts, outs, toks = check_cheap(st, None if deep_every_step else rng)
        pool.update(toks)
        if saves is not None:
            saves.add(st.serialize())
        if deep_every_step or rng.randrange(DEEP_ODDS) == 0 or \
                t == OVER:
            check_deep(st, pool, rng)
            if rng.randrange(UNDO_ODDS) == 0:
                check_undo(st, rng)
        if t == OVER or step == MAX_ACTIONS:
            break
        a = pick_from(t, acts, outs, rng)
        st.apply_action(a)
        applied.append((a, t == CHANCE))
    # the history is the actions applied; a snapshot game keeps the newest
    # (its window can be short by the ones an undo check made it forget)
    hist = st.history()
    if st.UNDO_DEPTH:
        assert len(hist) <= st.UNDO_DEPTH and (hist or not applied)
        assert hist == applied[len(applied) - len(hist):]
    else:
        assert hist == applied
    assert st.last_was_chance() == bool(hist and hist[-1][1])
    return st


def walk(game, playthroughs, full):
    variants = VARIANTS.get(game, [{}])
    pool = set()
    ends = 0
    for i in range(playthroughs):
        st = playthrough(game, variants[i % len(variants)], 7919 * i + 1,
                         i < full, pool)
        ends += st.to_move() == OVER
    assert len(pool) > 1
    if game == "toy":
        assert ends > playthroughs // 2    # the walk reaches terminal states


@pytest.mark.parametrize("game", CASES)
def test_random_playthroughs(game):
    walk(game, PLAYTHROUGHS, FULL)


@pytest.mark.bench
@pytest.mark.parametrize("game", CASES)
def test_many_random_playthroughs(game):
    walk(game, LONG_PLAYTHROUGHS, LONG_FULL)
    print("%s: %d playthroughs, %d fully checked" % (game, LONG_PLAYTHROUGHS, LONG_FULL))


def test_options_are_validated_and_canonical():
    for game in CASES:
        with pytest.raises(ValueError):
            registry.new(game, {"no_such_option": "1"})
    for game, variants in VARIANTS.items():
        for opts in variants:
            st = registry.new(game, opts)
            assert st.options == " ".join("%s=%s" % kv for kv in sorted(opts.items()))
            assert registry.new(game, st.options.split() or None) == st


@pytest.mark.parametrize("game", CASES)
def test_undo_walks_all_the_way_back(game):
    rng = Rng(3)
    st = registry.new(game, VARIANTS.get(game, [{}])[0])
    views = [undo_view(st)]
    for _ in range(60):
        if st.to_move() == OVER:
            break
        st.apply_action(pick(st, rng))
        views.append(undo_view(st))
    hist = st.history()
    n = len(views) - 1
    # a snapshot game takes back its newest UNDO_DEPTH actions, others all
    k = min(n, st.UNDO_DEPTH) if st.UNDO_DEPTH else n
    for i in range(k):
        st.undo()
        now = undo_view(st)
        assert now == views[n - 1 - i], "undo %d %s" % (i + 1, differ(now, views[n - 1 - i]))
        assert st.history() == hist[:len(hist) - i - 1]
    assert not st.can_undo()
    with pytest.raises(IllegalMove):
        st.undo()
    assert undo_view(st) == views[n - k]


def _position(st):
    # a table tool keeps only its recent history (UNDO_DEPTH) and saves its
    # position; a game's history is its position
    return st._pack() if st.UNDO_DEPTH else bytes(st.hist)


def _sample(st, rng):
    outs = st.chance_outcomes()
    st.apply_action(outs[rng.weighted([w for _, w in outs])][0])


@pytest.mark.parametrize("game", CASES)
def test_undo_move_returns_to_before_the_move(game):
    """A player's undo takes back a whole move with the chance outcomes that
    followed it (no re-rolls)."""
    rng = Rng(11)
    checked = 0
    for seed in range(6):
        st = registry.new(game)
        while st.to_move() == CHANCE:          # the deal is not the player's
            _sample(st, rng)
        # only chance has acted (a deal, a roll-off, or nothing at all):
        # there is no move to take back, and the refusal changes nothing
        assert all(was_chance for _, was_chance in st.history())
        dealt = st.serialize()
        with pytest.raises(IllegalMove):
            st.undo_move()
        assert st.serialize() == dealt
        for _ in range(40):
            if st.to_move() == OVER:
                break
            before = (st.to_move(), st.legal(), st.scores(), _position(st))
            acts = st.legal_actions()
            a = acts[rng.randrange(len(acts))]
            st.apply_action(a)
            while st.to_move() == CHANCE:
                _sample(st, rng)
            assert st.undo_move() == a
            assert (st.to_move(), st.legal(), st.scores(), _position(st)) == before
            checked += 1
            st.apply_action(a)              # play on with the same move
            while st.to_move() == CHANCE:
                _sample(st, rng)
    assert checked > 20


def test_app_style_undo_of_a_roll_is_not_a_reroll():
    st = registry.new("dice", {"count": "3"})
    st.apply("roll")
    for f in ("S", "ML", "L"):
        st.apply(f)
    assert st.token(st.undo_move()) == "roll"
    assert st.to_move() == 0 and st.fields()["last"] == []
    with pytest.raises(IllegalMove):
        st.undo_move()


# ---- corrupted saves -----------------------------------------------------

def mutations(data, rng):
    """Truncations, small edits of single bytes, inserted bytes and random
    junk. Every byte of the header and the first bytes of the body (where
    games keep flags and counts) get edits; long bodies a sample of others."""
    head = header_length(data)
    n = len(data)
    cuts = set(range(min(n, head + 8)))
    cuts.update(rng.randrange(n) for _ in range(16))
    out = [data[:i] for i in sorted(cuts)]
    spots = set(range(min(n, head + 6)))
    spots.update(rng.randrange(n) for _ in range(24))
    for i in sorted(spots):
        for v in sorted({0, 1, 2, 0xFF, (data[i] + 1) & 0xFF, (data[i] - 1) & 0xFF,
                         data[i] ^ (1 << rng.randrange(8))}):
            if v != data[i]:
                out.append(data[:i] + bytes((v,)) + data[i + 1:])
    for _ in range(20):
        i = rng.randrange(n + 1)
        out.append(data[:i] + bytes((rng.randrange(256),)) + data[i:])
        out.append(data + bytes(rng.randrange(256) for _ in range(rng.randrange(4) + 1)))
        out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(40))))
    return out


def header_length(data):
    n = data[3]
    return 4 + n + 2 + ((data[4 + n] << 8) | data[5 + n])


@pytest.mark.parametrize("game", CASES)
def test_corrupted_saves_are_refused_or_sane(game):
    # three distinct positions from each of 6 playthroughs (a tiny bag has
    # only three, so its rare ones are not missed)
    pool = set()
    variants = VARIANTS.get(game, [{}])
    rng = Rng(17)
    saves = []
    for i in range(6):
        seen = set()
        playthrough(game, variants[i % len(variants)], 31 * i + 5, False, pool,
                    seen)
        seen = sorted(seen)
        rng.shuffle(seen)
        saves += seen[:3]
    refused = accepted = 0
    for data in saves:
        head = header_length(data)
        for bad in mutations(data, rng):
            try:
                st = registry.deserialize(bad)
            except ValueError:
                refused += 1
                continue
            except Exception as e:      # pragma: no cover - the failure path
                pytest.fail("deserialize(%r) raised %s: %s"
                            % (bad, type(e).__name__, e))
            accepted += 1
            assert len(bad) >= head, "a truncated header was accepted"
            # whatever is accepted is a state that keeps its own rules
            check_cheap(st)
            check_text(st)
            again = st.serialize()
            assert registry.deserialize(again).serialize() == again
    assert refused > accepted


@pytest.mark.parametrize("bad", [b"", b"PP", b"XX\x01\x04dice\x00\x00",
                                 b"PP\x02\x04dice\x00\x00",
                                 b"PP\x01\x07nothing\x00\x00",
                                 b"PP\x01\x04dic\xff\x00\x00",
                                 b"PP\x01\x04dice\x00\x05die=x",
                                 b"PP\x01\x04dice\x00\x0bdie=pyramid\x07"])
def test_hand_made_bad_saves(bad):
    with pytest.raises(ValueError):
        registry.deserialize(bad)


def test_bag_presets_are_their_texts_parsed():
    # engine.bag keeps each preset parsed, so starting one parses nothing
    from engine.bag import PRESETS, _PARSED, parse_contents
    assert sorted(_PARSED) == sorted(PRESETS)
    for name, text in PRESETS.items():
        kinds, counts = parse_contents(text)
        assert (kinds, bytes(counts)) == _PARSED[name]
        st = registry.new("bag", {"preset": name})
        assert (st.kinds, st.full) == (kinds, counts) and st.name == name


# ---- the protocol --------------------------------------------------------

@pytest.mark.parametrize("game", CASES)
def test_the_protocol_plays_it(game):
    """``new``, then the listed tokens played one by one: each is echoed and
    lands in the history, the state names the game and whose turn it is,
    junk is refused without a change, and undo takes back a move."""
    rng = Rng(5)
    s = Session(7)
    assert ask(s, "new %s seed=3" % game).split()[:2] == [game, "seed=3"]
    moves = 0
    for _ in range(40):
        to_move = ask(s, "to_move")
        if to_move == "over":
            break
        legal = ask(s, "legal").split()
        assert legal and len(legal) == len(set(legal)), legal
        tok = legal[rng.randrange(len(legal))]
        if to_move == "chance":
            tok = tok.rpartition(":")[0]
        else:
            moves += 1
        made = ask(s, "play " + tok).split()
        assert made[0] == tok, (tok, made)
        assert ask(s, "history").split()[-len(made):] == made
        fields = json.loads(ask(s, "state"))
        assert fields["game"] == game and str(fields["to_move"]) == ask(s, "to_move")
        assert len(ask(s, "score").split()) == len(fields["scores"])
    assert moves
    for junk in ("xyzzy", "r9", "a0-a0", "\u2603", "-1", "x" * 300):
        refused(s, "play " + junk)
    if ask(s, "to_move") != "over":
        ask(s, "undo")


# ---- the screen ----------------------------------------------------------

KEYS = ("a", "a", "right", "down", "left", "up", "b")


def moved(sim):
    """A player's move is in the game's history (the deal is not one)."""
    return any(not chance for _, chance in sim.app.state.history())


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("game", catalog.built())
def test_the_screen_opens_plays_leaves_and_resumes_it(game, board):
    """Opened from the menu, past any hand-off, played with seeded random
    keys until a move is made; it shows something, the escape gesture
    saves it and goes to the menu, and a reboot offers it back."""
    rng = Rng(len(game))
    sim = boot(board)
    sim.to_item(game)
    sim.press("a")
    assert sim.app.game == game
    for _ in range(400):
        wait_for(sim, lambda: sim.app.game_scr is not None, 15000)
        if moved(sim):
            break
        key = KEYS[rng.randrange(len(KEYS))]
        sim.press(key)
        sim.advance(100)
        assert sim.app.game == game, key
    assert moved(sim), "no move made by the keys"
    assert any(sim.indices()), "a blank panel"
    sim.escape()
    wait_for(sim, lambda: sim.app.scr is sim.app.menu, 3000)
    assert registry.deserialize(game_part(sim.store.load_game())).GAME == game
    again = boot(board, nvm=sim.nvm)
    assert type(again.app.scr).__name__ == "Prompt"
    assert again.app.scr.state.GAME == game
