"""State.undo_move: a player's undo takes back a whole move with the chance
outcomes that followed it, for every registered game (no re-rolls)."""

import pytest

from engine import registry
from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove


def _position(st):
    # a table tool keeps only its recent history (UNDO_DEPTH) and saves its
    # position; a game's history is its position
    return st._pack() if st.UNDO_DEPTH else bytes(st.hist)


def _sample(st, rng):
    outs = st.chance_outcomes()
    st.apply_action(outs[rng.weighted([w for _, w in outs])][0])


@pytest.mark.parametrize("game", registry.available())
def test_undo_move_returns_to_before_the_move(game):
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
