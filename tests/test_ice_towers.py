"""IceTowers in turns (engine/ice_towers.py): scripted positions for every
move and its refusals, both end rules, the state fields, undo, saves and the
bot's bounds. The rules are in docs/games/icetowers.md."""

import json

import pytest

from engine import registry
from engine.protocol import Session
from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove


def session(line, seed=1):
    s = Session(seed, auto=False)
    ans = s.handle(line)
    assert ans.startswith("= "), ans
    return s


def ok(s, line):
    ans = s.handle(line)
    assert ans.startswith("= "), (line, ans)
    return ans[2:].rstrip("\n")


def refused(s, line):
    before = ok(s, "state")
    ans = s.handle(line)
    assert ans.startswith("? "), (line, ans)
    assert ok(s, "state") == before
    return ans[2:].rstrip("\n")


def state(s):
    return json.loads(ok(s, "state"))


def deal(s, pieces):
    for p in pieces.split():
        ok(s, "play " + p)


def test_f1_towers_with_the_same_pieces_at_the_same_depths_are_different():
    # the oracle's finding F1: {y3, y3r3r2} and {r2, y3r3y3} have the same
    # pieces at the same depths from the top, yet are different towers
    s = session("new ice_towers players=2 seed=1")
    deal(s, "r1 r2 y1 r3 y3 y1 r2 r3 r1 y2 y1 r1 r3 y2 y3 r1 y3 r2 y2 y1 r3 "
            "y2 r2 y1 r2 r3 y3 y3 r1 y2")
    for m in ("a1-f4 d4-a3 d3-d2 b4-c4 c2-b3 a4-f3 e5-e3 c1-f4 b2-d5 f5-e4 "
              "b1-e1 f1-d2 a2-e4 e2-b5 f2-b5 c3-d5 a5-d5 c5-d1 pass d5:3 pass "
              "d5/3 pass").split():
        ok(s, "play " + m)
    ok(s, "play a1-d5")
    assert state(s)["repeats"] == 1
