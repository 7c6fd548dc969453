"""IceTowers bot benchmark (``make bench``): seeded games of the bot against
players that pick uniformly among the legal moves, and the bot's cost.

The bot must win significantly more than its fair share (one
seat in N) over at least 1,000 games of 2 players and of 3 players: a
one-sided exact binomial tail, p < 0.01. A win is an outright win (a shared
highest score counts as not won, which only makes the test harder). The bot
sits in each seat in turn (seat = game number mod N)."""

import gc
import time
from math import comb

import pytest

from engine import registry
from engine.rng import Rng
from engine.state import CHANCE, OVER

GAMES = 1000


def tail(k, n, p_num, p_den):
    """P(X >= k) for X ~ Binomial(n, p_num / p_den), exactly (a fraction
    turned into a float at the end)."""
    total = 0
    for i in range(k, n + 1):
        total += comb(n, i) * p_num ** i * (p_den - p_num) ** (n - i)
    return total / p_den ** n


def play(opts, seed, bot):
    rng = Rng(seed)
    st = registry.new("ice_towers", opts)
    while st.to_move() == CHANCE:
        outs = st.chance_outcomes()
        st.apply_action(outs[rng.weighted([w for a, w in outs])][0])
    while st.to_move() != OVER:
        if st.to_move() == bot:
            a = st.hint()
        else:
            acts = st.legal_actions()
            a = acts[rng.randrange(len(acts))]
        st.apply_action(a)
    return st


@pytest.mark.bench
@pytest.mark.parametrize("players,ghost", [(2, 0), (3, 0), (2, 1)])
def test_the_bot_beats_uniform_random_players(players, ghost):
    opts = {"players": str(players)}
    if ghost:
        opts["ghost"] = "1"
    wins = shared = 0
    moves = 0
    for g in range(GAMES):
        bot = g % players
        st = play(opts, 1000003 * players + 7 * ghost + g, bot)
        w = st.winners()
        wins += w == [bot]
        shared += bot in w and len(w) > 1
        moves += st.moves
    p = tail(wins, GAMES, 1, players)
    print("\nice_towers players=%d ghost=%d: bot won %d of %d outright (%.1f%%, fair "
          "share %.1f%%), shared %d; one-sided p = %.3g; mean %.1f moves a game"
          % (players, ghost, wins, GAMES, 100.0 * wins / GAMES, 100.0 / players,
             shared, p, moves / GAMES))
    assert p < 0.01


@pytest.mark.bench
def test_the_bot_cost_per_move_and_per_slice():
    """CPython time of a whole bot move and of one ``think()`` slice, over
    the positions of seeded games of every table size (each timed 5 times,
    the least kept, so the machine's other work does not count): 15 games
    where the bot plays every other seat against random players, and 2
    games of bots alone (their towers grow tallest)."""
    report = []
    worst_move = worst_slice = 0.0
    for players, ghost in ((2, 0), (2, 1), (3, 0), (4, 0), (5, 0)):
        opts = {"players": str(players)}
        if ghost:
            opts["ghost"] = "1"
        whole = []
        slices = []
        for seed in range(17):
            alone = seed >= 15
            rng = Rng(seed)
            st = registry.new("ice_towers", opts)
            while st.to_move() == CHANCE:
                outs = st.chance_outcomes()
                st.apply_action(outs[rng.weighted([w for a, w in outs])][0])
            while st.to_move() != OVER:
                best = None
                for _ in range(5):
                    gc.disable()
                    t0 = last = time.perf_counter()
                    sl = []
                    for a in st.think():
                        t = time.perf_counter()
                        sl.append(t - last)
                        last = t
                    w = time.perf_counter() - t0
                    gc.enable()
                    if best is None or w < best[0]:
                        best = (w, sl)
                whole.append(best[0])
                slices.extend(best[1])
                if not alone and st.to_move() % 2 == 0:   # a random seat
                    acts = st.legal_actions()
                    a = acts[rng.randrange(len(acts))]
                st.apply_action(a)
        mean = sum(whole) / len(whole)
        report.append("players=%d ghost=%d: %d moves, whole move mean %.3f ms, worst "
                      "%.3f ms; slice worst %.4f ms" % (
                          players, ghost, len(whole), 1000 * mean, 1000 * max(whole),
                          1000 * max(slices)))
        worst_move = max(worst_move, max(whole))
        worst_slice = max(worst_slice, max(slices))
    print("\n" + "\n".join(report))
    # the budgets in CPython time (board time ~ x515): 2 ms a move, 0.08 ms
    # a slice
    assert worst_move < 0.002 and worst_slice < 0.00008
