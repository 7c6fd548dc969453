"""The reliability campaign, engine half: protocol fuzzing and seeded random
playouts of every registered game, each step checked against invariants.

It is marked ``bench``: `make bench` (and CI) runs it at the sizes below,
`make test` leaves it out. ``POCKET_CAMPAIGN=N`` in the environment
multiplies every size by N for a longer run (docs/reliability.md). The
figures are printed at the end of each test.

What a step must keep, whatever the line or the move:
- a refused protocol line (``? ...``) changes nothing: not the position, not
  the session's generator, not the game that was loaded;
- every answer is framed (ends with one empty line, holds no other), and a
  refusal shows no raw control character;
- no answer is an internal error;
- a position's save round-trips byte for byte; an undone move restores the
  exact position; a hint names a legal move; chance weights are positive.
"""

import os
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine import registry
from engine.protocol import Session
from engine.state import CHANCE, OVER
from harness import Tally, answer, snapshot

pytestmark = pytest.mark.bench

SCALE = int(os.environ.get("POCKET_CAMPAIGN", "1"))
FUZZ_LINES = 1500 * SCALE      # fuzzed lines per game
PLAYOUTS = 12 * SCALE          # random games per game id
MAX_STEPS = 700                # actions per playout at most (tools never end)
GAMES = registry.available()

COMMANDS = ("help", "games", "new", "to_move", "legal", "play", "sample",
            "state", "score", "show", "undo", "history", "hint")
JUNK = ["", " ", "\t", "\x00", "\x1b[2J", "\x07", "\u2603", "\U0001F600",
        "-1", "+3", "1_000", "\u0663", "\u00b3", "99999999999999999999",
        "a0", "z9", "@", "/", ":", "=", "==", "x=", "=y", "seed=", "seed=-1"]


def position(state):
    """The position an undo must restore: whose turn, the scores, the legal
    moves and the game's own ``state`` fields, but for a count of undos
    (Ice Solo shows how often you took back). The saved bytes may differ:
    a game can remember chance outcomes across an undo, so that undoing
    never re-rolls them."""
    fields = dict(state.fields())
    fields.pop("undos", None)
    return (state.to_move(), state.scores(), state.legal(), sorted(fields.items()))


def mutate(rng, word):
    """A token with one character changed, added or taken away."""
    if not word:
        return rng.choice(JUNK)
    i = rng.randrange(len(word))
    kind = rng.randrange(4)
    if kind == 0:
        return word[:i] + word[i + 1:]
    if kind == 1:
        return word[:i] + chr(rng.randrange(32, 127)) + word[i:]
    if kind == 2:
        return word[:i] + chr(rng.randrange(32, 127)) + word[i + 1:]
    return word + word


def fuzz_line(rng, session, gid):
    """One line: mostly plausible (a legal token, a command), often broken."""
    state = session.state
    legal = []
    if state is not None and state.to_move() != OVER:
        legal = state.legal()
    r = rng.randrange(20)
    if r < 6 and legal:
        return "play " + legal[rng.randrange(len(legal))].split(":")[0]
    if r < 9 and legal:
        return "play " + mutate(rng, legal[rng.randrange(len(legal))].split(":")[0])
    if r < 11:
        return rng.choice(COMMANDS)
    if r < 13:
        return "%s %s" % (rng.choice(COMMANDS), rng.choice(JUNK))
    if r < 14:
        return "new %s %s=%s" % (gid, rng.choice(("seed", "players", "count", "bots",
                                                  "variant", "xyz")), rng.choice(JUNK))
    if r < 15:
        return "x" * rng.choice((4096, 4097, 20000))
    if r < 16:
        return "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(1, 30)))
    if r < 17:
        return "sample"
    if r < 18:
        return "undo"
    return "play " + rng.choice(JUNK)


@pytest.mark.parametrize("gid", GAMES)
def test_fuzzed_protocol_lines_never_break_a_session(gid):
    rng = random.Random("fuzz " + gid)
    session = Session(11)
    assert session.handle("new %s seed=5" % gid).startswith("= ")
    refused = 0
    for _ in range(FUZZ_LINES):
        line = fuzz_line(rng, session, gid)
        before = snapshot(session)
        good, body = answer(session, line)
        if not good:
            refused += 1
            assert snapshot(session) == before, (line, body)
        if session.state is None or session.state.GAME != gid or rng.randrange(300) == 0:
            assert session.handle("new %s seed=%d" % (gid, rng.randrange(1000))
                                  ).startswith("= ")
    print("\ncampaign fuzz %s: %d lines, %d refused, none changed anything"
          % (gid, FUZZ_LINES, refused))
    assert 0 < refused < FUZZ_LINES


@pytest.mark.parametrize("gid", GAMES)
def test_random_playouts_keep_every_invariant(gid):
    rng = random.Random("playout " + gid)
    steps = hints = undos = 0
    for game in range(PLAYOUTS):
        state = registry.new(gid)
        for _ in range(MAX_STEPS):
            who = state.to_move()
            if who == OVER:
                break
            saved = state.serialize()
            assert registry.deserialize(saved).serialize() == saved
            if who == CHANCE:
                outcomes = state.chance_outcomes()
                assert outcomes and all(w > 0 for _, w in outcomes)
                total = sum(w for _, w in outcomes)
                pick = rng.randrange(total)
                for action, weight in outcomes:
                    pick -= weight
                    if pick < 0:
                        break
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                assert legal, "a player to move with no legal move"
                hint = getattr(state, "hint", None)
                if hint is not None and rng.randrange(4) == 0:
                    h = hint()
                    hints += 1
                    assert h is None or h in legal, (gid, state.token(h), saved)
                    assert state.serialize() == saved, "hint changed the position"
                action = legal[rng.randrange(len(legal))]
                seen = position(state)
                state.apply_action(action)
                if rng.randrange(5) == 0:
                    state.undo_move()
                    undos += 1
                    assert position(state) == seen, "undo did not restore"
                    state.apply_action(action)
            steps += 1
    print("\ncampaign playouts %s: %d games, %d steps, %d hints, %d undos"
          % (gid, PLAYOUTS, steps, hints, undos))
    assert steps > PLAYOUTS


LINE_WORDS = st.sampled_from(list(COMMANDS) + JUNK + [
    "roll", "draw", "stop", "end", "pass", "a1-a2", "r3", "g1@new", "size1"])


@pytest.mark.parametrize("gid", GAMES)
def test_shrunk_line_sequences_refuse_without_change(gid):
    """Hypothesis shrinks a failure down to the shortest lines that show it;
    some of the lines must have been accepted and some refused."""
    tally = Tally()

    @settings(max_examples=60 * SCALE)
    @given(lines=st.lists(st.lists(LINE_WORDS, min_size=1, max_size=3), max_size=12))
    def each(lines):
        session = Session(3)
        session.handle("new %s seed=9" % gid)
        for words in lines:
            line = " ".join(words)
            before = snapshot(session)
            good, body = answer(session, line)
            tally("accepted" if good else "refused")
            if not good:
                assert snapshot(session) == before, (line, body)

    each()
    tally.require("accepted", "refused")
