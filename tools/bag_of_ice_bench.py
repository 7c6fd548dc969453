"""Bag of Ice bot benchmark: seeded two-player games on the State itself,
to check the exact figures of tools/bag_of_ice_solver.py by sampling.

    .venv/bin/python tools/bag_of_ice_bench.py [--games 4000] [--target 60]
                                               [--pairs policy:rule rule:stop20]

Players: ``policy`` (the device's solved policy, two players to 60),
``rule`` (today's one-step rule, which plays every other game), ``stopN``
(draws until the turn is worth N or stopping would win, the rule's sizes).
Seats alternate and the roll-off decides who starts, as in the exact
figures' roll-off mean. The figures in docs/games/bag-of-ice.md are the
solver's exact ones; this only confirms them.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.bag_of_ice import Game, DRAW_A, STOP, DECIDE   # noqa: E402
from engine.rng import Rng   # noqa: E402
from engine.state import CHANCE, OVER   # noqa: E402


def rule(st):
    return st.rule_move()


def policy(st):
    return st.policy_move()


def stop_at(n):
    """A player who draws until the turn is worth ``n`` (or stopping would
    reach the target), taking the rule's size on a two-size face."""
    def move(st):
        if st.phase != DECIDE:
            return st.rule_move()
        v = st.turn_points()
        if st.drawn and (v >= n or v >= st.target - st.points[st.turn]):
            return STOP
        return DRAW_A
    return move


def player(name):
    """The move function called ``name`` (see the module docstring)."""
    if name == "rule":
        return rule
    if name == "policy":
        return policy
    if name.startswith("stop") and name[4:].isdigit():
        return stop_at(int(name[4:]))
    raise ValueError("unknown player %r: policy, rule or stopN" % name)


def play(players, seed, target=60):
    """One game; ``players`` are move functions. The winner's index."""
    rng = Rng(seed)
    st = Game({"players": str(len(players)), "target": str(target)})
    while True:
        t = st.to_move()
        if t == OVER:
            return st.winner
        if t == CHANCE:
            outs = st.chance_outcomes()
            total = 0
            for o in outs:
                total += o[1]
            r = rng.randrange(total)
            for o in outs:
                r -= o[1]
                if r < 0:
                    break
            st.apply_action(o[0])
        else:
            st.apply_action(players[t](st))


def rate(games, me, opponent, target=60, first_seed=1):
    """Games ``me`` wins against ``opponent``, seats 0 and 1 alternating,
    out of ``games``."""
    won = 0
    for i in range(games):
        seat = i & 1
        ps = [opponent, opponent]
        ps[seat] = me
        won += play(ps, first_seed + i, target) == seat
    return won


def p_one_sided(k, n):
    """P(X >= k) for X ~ Binomial(n, 1/2), exactly."""
    return sum(math.comb(n, j) for j in range(k, n + 1)) / 2 ** n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--target", type=int, default=60)
    ap.add_argument("--pairs", nargs="*",
                    default=["policy:rule", "policy:stop20", "rule:stop10"])
    a = ap.parse_args()
    for pr in a.pairs:
        me, _, opp = pr.partition(":")
        w = rate(a.games, player(me), player(opp), a.target)
        print("%s vs %s: %d/%d = %.1f%% (one-sided p %.2g)"
              % (me, opp, w, a.games, 100.0 * w / a.games, p_one_sided(w, a.games)))


if __name__ == "__main__":
    main()
