"""A refused ``new`` changes nothing (the game in play and the generator stay),
even when the new game's automatic start raises: a bot's opening move or a
dealt start that fails, MemoryError included, leaves the previous game and
the session's generator as they were."""

import sys
import types

import pytest

from engine import catalog
from engine.protocol import Session
from engine.state import CHANCE, OVER, State


class Boom(State):
    """A one-player game that starts with a deal and then a bot's move;
    ``fail=deal`` makes the deal raise, ``fail=bot`` the bot, and
    ``error=memory`` makes that a MemoryError."""

    GAME = "boom"
    OPTIONS = ("fail", "error")
    __slots__ = ("fail", "error", "dealt", "moved")

    def _configure(self, opts):
        self.fail = opts.pop("fail", "bot")
        self.error = opts.pop("error", "runtime")

    def _init(self):
        self.dealt = False
        self.moved = False

    def num_players(self):
        return 1

    def to_move(self):
        if not self.dealt:
            return CHANCE
        return OVER if self.moved else 0

    def auto_chance(self):
        return True

    def chance_outcomes(self):
        if self.fail == "deal":
            self.explode()
        return [(1, 1), (2, 1)]

    def legal_actions(self):
        return [] if self.to_move() < 0 else [0]

    def token(self, a):
        return ("go", "deal1", "deal2")[a]

    def action(self, tok):
        return ("go", "deal1", "deal2").index(tok)

    def _apply(self, a):
        if a:
            self.dealt = True
        else:
            self.moved = True

    def bot_move(self):
        if self.fail == "bot":
            self.explode()
        return None

    def explode(self):
        if self.error == "memory":
            raise MemoryError("no room for the bot")
        raise RuntimeError("the bot broke")

    def scores(self):
        return [1 if self.moved else 0]


@pytest.fixture(autouse=True)
def boom_registered():
    mod = types.ModuleType("engine.boom")
    mod.Game = Boom
    sys.modules["engine.boom"] = mod
    entry = catalog.Entry("boom", "BOOM", (1, 1), False, "." * 64)
    catalog.GAMES.append(entry)
    yield
    catalog.GAMES.remove(entry)
    del sys.modules["engine.boom"]


def start_dice(session):
    """A dice game with a move and a roll made: a game to keep."""
    assert session.handle("new dice count=3").startswith("= ")
    move = session.handle("legal").split()[1]
    assert session.handle("play " + move).startswith("= ")
    assert session.handle("sample").startswith("= ")


def snapshot(session):
    st = session.state
    return (st, None if st is None else st.serialize(), session.rng.getstate())


@pytest.mark.parametrize("fail", ["deal", "bot"])
@pytest.mark.parametrize("error", ["runtime", "memory"])
@pytest.mark.parametrize("seeded", [False, True])
def test_a_new_whose_automatic_start_raises_changes_nothing(fail, error, seeded):
    session = Session(5)
    start_dice(session)
    before = snapshot(session)
    line = "new boom fail=%s error=%s" % (fail, error) + (" seed=9" if seeded else "")
    answer = session.handle(line)
    assert answer.startswith("? "), answer
    after = snapshot(session)
    assert after[0] is before[0], "the previous game is back"
    assert after[1:] == before[1:]
    # the session carries on as if the line had never come: the same next
    # game as a session that never saw it
    twin = Session(5)
    start_dice(twin)
    assert session.handle("sample") == twin.handle("sample")
    assert session.handle("new dice count=2") == twin.handle("new dice count=2")


def test_a_refused_first_new_leaves_no_game():
    session = Session(3)
    rng = session.rng.getstate()
    assert session.handle("new boom fail=bot error=memory").startswith("? ")
    assert session.state is None and session.rng.getstate() == rng
    assert session.handle("state").startswith("? no game")


def test_the_boom_game_itself_starts_when_nothing_fails():
    session = Session(3)
    answer = session.handle("new boom fail=none")
    assert answer.startswith("= boom seed=") and answer.split()[3] in ("deal1", "deal2")
