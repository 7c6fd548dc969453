"""Bag of Ice bot benchmark: seeded two-player games of the engine's bot
against fixed "stop at N" players, played on the State directly.

    .venv/bin/python tools/bag_of_ice_bench.py [--games 4000] [--close 10]

``--close`` overrides the bot's CLOSE threshold (engine.bag_of_ice_odds)
to compare settings; several values may be given. The figures in
docs/games/bag-of-ice.md come from the default run.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import bag_of_ice_odds as odds   # noqa: E402
from engine.bag_of_ice import Game, DRAW_A, STOP, DECIDE   # noqa: E402
from engine.rng import Rng   # noqa: E402
from engine.state import CHANCE, OVER   # noqa: E402


def stop_at(n):
    """A player who draws until the turn is worth ``n`` (or stopping would
    reach the target), taking the bot's size on a two-size face."""
    def move(st):
        if st.phase != DECIDE:
            return st.hint()
        v = st.turn_points()
        if st.drawn and (v >= n or v >= st.target - st.points[st.turn]):
            return STOP
        return DRAW_A
    return move


def bot(st):
    return st.hint()


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


def rate(games, opponent, first_seed=1):
    """Games the bot wins, seat 0 and 1 alternating, out of ``games``."""
    won = 0
    for i in range(games):
        seat = i & 1
        ps = [opponent, opponent]
        ps[seat] = bot
        won += play(ps, first_seed + i) == seat
    return won


def p_one_sided(k, n):
    """P(X >= k) for X ~ Binomial(n, 1/2), exactly."""
    return sum(math.comb(n, j) for j in range(k, n + 1)) / 2 ** n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--close", type=int, nargs="*", default=[odds.CLOSE])
    ap.add_argument("--stops", type=int, nargs="*", default=[10, 15, 20])
    a = ap.parse_args()
    for c in a.close:
        odds.CLOSE = c
        for n in a.stops:
            w = rate(a.games, stop_at(n))
            print("CLOSE=%d vs stop-at-%d: %d/%d = %.1f%% (one-sided p %.2g)"
                  % (c, n, w, a.games, 100.0 * w / a.games, p_one_sided(w, a.games)))


if __name__ == "__main__":
    main()
