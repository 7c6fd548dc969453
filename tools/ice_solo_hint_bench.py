#!/usr/bin/env python3
"""Measure the Ice Solo hint: clean nests reached by always taking the hint
versus always a random legal move, over seeded 5-colour deals.

    .venv/bin/python tools/ice_solo_hint_bench.py [--deals 500] [--cap 300]

Deal k is dealt by a generator seeded with k (the same deals for both
players). A game stops at the end, at ``end``, or after ``--cap`` moves (the
random player would otherwise wander for ever). It also prints the slowest
hint on this machine (and the mean and 99th percentile, since a single
slow call is often the machine, not the hint).
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine import registry  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.state import CHANCE, OVER  # noqa: E402


def deal(seed):
    st = registry.new("ice_solo", {"variant": "5"})
    rng = Rng(seed)
    while st.to_move() == CHANCE:
        outs = st.chance_outcomes()
        st.apply_action(outs[rng.weighted([w for _, w in outs])][0])
    return st


def play(st, policy, rng, cap, timing):
    for _ in range(cap):
        if st.to_move() == OVER or st.style_due():
            break
        if policy == "hint":
            t0 = time.perf_counter()
            a = st.hint()
            timing.append(time.perf_counter() - t0)
        else:
            legal = [x for x in st.legal_actions() if x != 4097]  # not `end`
            a = legal[rng.randrange(len(legal))] if legal else 4097
        st.apply_action(a)
    return st.breakdown()["clean"]


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    deals = 500
    cap = 300
    while args:
        k = args.pop(0)
        if k == "--deals":
            deals = int(args.pop(0))
        elif k == "--cap":
            cap = int(args.pop(0))
        else:
            sys.exit("usage: ice_solo_hint_bench.py [--deals N] [--cap N]")
    timing = []
    hint_total = 0
    rand_total = 0
    best = 0
    for k in range(deals):
        h = play(deal(k), "hint", None, cap, timing)
        r = play(deal(k), "random", Rng(1000003 + k), cap, timing)
        hint_total += h
        rand_total += r
        best = max(best, h)
    print("deals %d, cap %d moves" % (deals, cap))
    print("mean clean nests: hint %.2f, random %.2f (best hint game %d of 25)"
          % (hint_total / deals, rand_total / deals, best))
    timing.sort()
    print("hint time here over %d hints: mean %.3f ms, 99%% under %.3f ms, "
          "slowest %.2f ms" % (len(timing), 1000 * sum(timing) / len(timing),
                               1000 * timing[len(timing) * 99 // 100],
                               1000 * timing[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
