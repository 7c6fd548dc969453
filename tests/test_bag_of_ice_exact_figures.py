"""Bag of Ice for two players to 60, solved in full: the exact-evaluation
table that docs/games/bag-of-ice.md quotes (tools/bag_of_ice_solver.py),
and seeded games (tools/bag_of_ice_bench.py) that agree with it."""
import math
import time

import pytest

from engine import bag_of_ice_policy as pol
from tools import bag_of_ice_solver as solver
from tools import bag_of_ice_bench as bench

GAMES = 1500


@pytest.mark.bench
def test_the_exact_table_and_seeded_games_agree():
    t0 = time.time()
    s = solver.Solver(60)
    rep = s.solve(log=print)
    # an independent solution written from the rulings found 53.4%
    assert abs(rep["first"] - 0.534) < 0.0005 and rep["residual"] < 1e-12
    # the win table the device advises from is this solve's
    assert bytes(pol.WIN) == solver.win_bytes(s.V)
    c = solver.load_policy()[0]
    rows = solver.table(s, c, log=print)
    got = {(r[0], r[1]): r[2:] for r in rows}
    # the compact policy against optimal play: optimal's row, seen back
    first, second, mean = got["optimal", "compact"]
    assert 1 - mean >= 0.490, mean
    assert got["optimal", "bot"][2] > 0.5
    # the compact policy beats today's bot and every stop-at-N from both
    # seats: starting first and starting second
    for opp in ["bot"] + ["stop-at-%d" % n for n in range(5, 41)]:
        f, sec, m = got["compact", opp]
        assert f > 0.5 and sec > 0.5, (opp, f, sec)
    # seeded games, seats alternating, the roll-off deciding who starts
    for me, opp, key in (("policy", "rule", ("compact", "bot")),
                         ("policy", "stop20", ("compact", "stop-at-20")),
                         ("rule", "stop10", ("bot", "stop-at-10"))):
        won = bench.rate(GAMES, bench.player(me), bench.player(opp))
        p = got[key][2]      # the roll-off's mean
        sd = math.sqrt(GAMES * p * (1 - p))
        print("%s vs %s: won %d of %d, exact %.4f (%.1f sd off)"
              % (me, opp, won, GAMES, p, (won - GAMES * p) / sd))
        assert abs(won - GAMES * p) < 4 * sd, (me, opp, won, p)
    print("exact table and games in %.0f s" % (time.time() - t0))
