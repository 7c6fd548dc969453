"""Bag of Ice: scripted turns through the protocol, refusals, the optimal
scoring against brute force, the odds against an independent exact
computation, the bot's strength, saves and undo."""
import itertools
import json
import math
from fractions import Fraction

import pytest

from engine import registry
from engine.protocol import Session
from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove
from engine import bag_of_ice as boi


# the bag by the rulings, written out independently of the engine's table
BAG = ("r3 y3 g3 c3 p3 r2 y2 p2 c2 c2 g2 g2 "
       "r1 y1 y1 g1 g1 c1 c1 p1 p1").split()
NON_RED = [t for t in BAG if t[0] != "r"]
FACE_SIZES = {"S": (1,), "M": (2,), "L": (3,), "SM": (1, 2), "SL": (1, 3),
              "ML": (2, 3)}
PIPS = {"S": 1, "M": 2, "L": 3, "SM": 3, "SL": 4, "ML": 5}


def run(lines, seed=1, auto=True):
    """Send ``lines`` (``> cmd`` / ``= answer`` pairs in one text) and
    check every answer."""
    s = Session(seed, auto=auto)
    cmd = None
    for line in lines.strip().splitlines():
        line = line.strip()
        if line.startswith(">"):
            cmd = line[1:].strip()
            got = s.handle(cmd)
        else:
            assert got == line + "\n\n", "%s -> %r, expected %r" % (cmd, got, line)
    return s


def state(s):
    a = s.handle("state")
    assert a.startswith("= {"), a
    return json.loads(a[2:])


def start(players=2, extra="", first="SL"):
    """A session past the roll-off, player 1 (index 0) to move: player 1
    rolls ``first`` (pips 4) and the others roll S (1)."""
    s = Session(1)
    assert s.handle("new bag_of_ice players=%d %s" % (players, extra)).startswith("= ")
    if players > 1:
        assert s.handle("play " + first).startswith("= ")
        for _ in range(players - 1):
            assert s.handle("play S").startswith("= ")
    return s


def play(s, *toks):
    for t in toks:
        a = s.handle("play " + t)
        assert a.startswith("= "), (t, a)


# ---- scripted turns ----------------------------------------------------------

def test_a_scripted_two_player_game():
    run("""
    > new bag_of_ice players=2 target=30 seed=4
    = bag_of_ice seed=4
    > legal
    = S:1/6 M:1/6 L:1/6 SM:1/6 SL:1/6 ML:1/6
    > play M
    = M
    > play ML
    = ML
    > to_move
    = 1
    > legal
    = draw
    > play stop
    ? nothing is drawn yet: a turn starts with draw
    > play draw
    = draw
    > play ML
    = ML
    > legal
    = size2 size3
    > play size3
    = size3
    > legal
    = r3:1/5 y3:1/5 g3:1/5 c3:1/5 p3:1/5
    > play y3
    = y3
    > legal
    = draw stop
    > play draw
    = draw
    > play M
    = M
    > legal
    = r2:1/7 y2:1/7 g2:2/7 c2:2/7 p2:1/7
    > play y2
    = y2
    > play draw
    = draw
    > play S
    = S
    > legal
    = r1:1/9 y1:2/9 g1:2/9 c1:2/9 p1:2/9
    > play y1
    = y1
    > score
    = 0 0
    > play stop
    = stop
    > score
    = 0 20
    > to_move
    = 0
    > play draw
    = draw
    > play L
    = L
    > play r3
    = r3
    > score
    = 0 20
    > to_move
    = 1
    > play draw
    = draw
    > play SM
    = SM
    > play size1
    = size1
    > play p1
    = p1
    > play stop
    = stop
    > score
    = 0 21
    """)


def test_state_fields_through_a_turn():
    s = start(3)
    f = state(s)
    assert f["phase"] == "decide" and f["turn"] == 0 and f["drawn"] == []
    assert f["rolloff"] == [4, 0, 0]
    play(s, "draw", "SL")
    f = state(s)
    assert f["phase"] == "choose" and f["face"] == "SL" and f["to_move"] == 0
    play(s, "size3", "g3", "draw", "M", "g2", "draw", "S", "g1", "draw", "L")
    f = state(s)
    assert f["phase"] == "draw" and s.state.size == 3 and f["face"] == "L"
    assert f["drawn"] == ["g3", "g2", "g1"] and f["turn_points"] == 15
    assert "g3" not in f["bag"] and f["bag"].count("g2") == 1
    assert f["bag"].count("r1") == 1 and len(f["bag"]) == 18
    play(s, "c3", "stop")
    f = state(s)
    assert f["scores"] == [18, 0, 0] and f["turn"] == 1 and f["phase"] == "decide"
    assert f["drawn"] == [] and "g3" in f["bag"] and f["turns"] == 1
    assert list(s.state.last_drawn) == [15, 14, 13, 19] and s.state.last_bust == 0xFF
    play(s, "draw", "S", "c1", "draw", "S", "r1")
    f = state(s)
    assert f["scores"] == [18, 0, 0] and f["turn"] == 2 and f["turns"] == 2
    st = s.state
    assert st.last_bust == 1 and bytes(st.last_drawn) == bytes((17, 1))


def test_the_target_ends_the_game_at_once():
    s = start(3, "target=20")
    play(s, "draw", "L", "p3", "draw", "M", "p2", "draw", "S", "p1")
    assert s.handle("to_move") == "= 0\n\n"
    play(s, "stop")
    f = state(s)
    assert f["to_move"] == "over" and f["phase"] == "done" and f["winner"] == 0
    assert f["scores"] == [20, 0, 0]
    assert s.handle("legal") == "= \n\n"
    assert s.handle("play draw") == "? the game is over\n\n"
    assert s.handle("hint") == "= none\n\n"
