"""Ice Stalks bot: strength over seeded games and time per move (``make
bench``; each prints its figures).

The bot (``Game.think``/``hint``) plays against a player picking uniformly
among legal moves and against a greedy player that takes the placement
worth the most points to it now (ties at random), seats alternating. A win
is a strictly higher score; a tie is no win.
"""
import time
from math import comb

import pytest

from engine.ice_stalks import Game, worth, BONUS
from engine.registry import deserialize
from engine.rng import Rng
from engine.state import CHANCE, OVER

pytestmark = pytest.mark.bench

GAMES = 2000


def tail(n, k, num, den):
    """Exact P(X >= k) for X ~ Binomial(n, num/den)."""
    hits = 0
    for i in range(k, n + 1):
        hits += comb(n, i) * num ** i * (den - num) ** (n - i)
    return hits / den ** n


def uniform(st, rng):
    acts = st.legal_actions()
    return acts[rng.randrange(len(acts))]


def greedy(st, rng):
    """The placement worth the most points to the placer now."""
    me = st.turn
    top = -1
    best = []
    for a in st.legal_actions():
        piece = a & 31
        t = (a >> 5) - 2
        gain = 0
        if t >= 0 and piece & 3 == 1:
            stalk = bytes(st.stalks[t]) + bytes((piece,))
            gain = worth(stalk)
            colour = 1 << (piece >> 2)
            if (stalk[1] >> 2 == stalk[0] >> 2 and not st.solids[me] & colour
                    and st.solids[me] | colour == 127):
                gain += BONUS
        if gain > top:
            top = gain
            best = [a]
        elif gain == top:
            best.append(a)
    return best[rng.randrange(len(best))]


def bot(st, rng):
    return st.hint()


def play(policies, seed):
    rng = Rng(seed)
    st = Game({"players": str(len(policies))})
    while True:
        t = st.to_move()
        if t == OVER:
            return st.scores()
        if t == CHANCE:
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.weighted([w for a, w in outs])][0])
        else:
            st.apply_action(policies[t](st, rng))


def two_player(opponent, base):
    wins = losses = ties = 0
    for i in range(GAMES):
        seat = i % 2
        pols = [opponent, opponent]
        pols[seat] = bot
        sc = play(pols, base + i)
        if sc[seat] > sc[1 - seat]:
            wins += 1
        elif sc[seat] < sc[1 - seat]:
            losses += 1
        else:
            ties += 1
    return wins, losses, ties


def test_bot_beats_the_uniform_player():
    wins, losses, ties = two_player(uniform, 1)
    p = tail(GAMES, wins, 1, 2)
    print("\nvs uniform: %d wins, %d losses, %d ties of %d (%.1f%%), p = %.3g"
          % (wins, losses, ties, GAMES, 100.0 * wins / GAMES, p))
    assert wins > GAMES // 2 and p < 0.01


def test_bot_against_the_greedy_player():
    wins, losses, ties = two_player(greedy, 50001)
    n = wins + losses
    p_better = tail(n, wins, 1, 2)
    p_worse = tail(n, losses, 1, 2)
    print("\nvs greedy: %d wins, %d losses, %d ties of %d (%.1f%%); of the "
          "decided games %.1f%%, p(better) = %.3g" % (
              wins, losses, ties, GAMES, 100.0 * wins / GAMES,
              100.0 * wins / n, p_better))
    # the bot completes stalks as greedily, and avoids opening completions
    # for the next player: of the games not tied it wins more than half
    assert p_better < 0.01 < p_worse


@pytest.mark.parametrize("players", (3, 4))
def test_bot_beats_uniform_players_at_a_bigger_table(players):
    games = 1000
    wins = 0
    for i in range(games):
        seat = i % players
        pols = [uniform] * players
        pols[seat] = bot
        sc = play(pols, 7000 + i)
        if sc[seat] > max(sc[q] for q in range(players) if q != seat):
            wins += 1
    p = tail(games, wins, 1, players)
    print("\n%d players, the bot against uniform players: %d wins of %d "
          "(%.1f%%), p = %.3g" % (players, wins, games, 100.0 * wins / games, p))
    assert p < 0.01


def test_time_per_move():
    # CPython time of a whole bot move and of each think() slice over the
    # positions of random games (2 to 4 players); board time is about 515
    # times CPython's (700 vs ~360,000 pystones/s)
    rng = Rng(5)
    whole = []
    saves = []
    for g in range(300):
        st = Game({"players": str(2 + g % 3)})
        while st.to_move() != OVER:
            if st.to_move() == CHANCE:
                outs = st.chance_outcomes()
                st.apply_action(outs[rng.weighted([w for a, w in outs])][0])
                continue
            st.cache = None         # the legal list is part of the work
            start = time.perf_counter()
            for _ in st.think():
                pass
            whole.append((time.perf_counter() - start, st.serialize()))
            st.apply_action(uniform(st, rng))
    # this machine is shared: the slowest single timings are mostly other
    # work. The 30 slowest positions are timed again, 7 times each, and
    # each keeps its fastest run
    whole.sort()
    worst = 0
    for _, data in whole[-30:]:
        st = deserialize(data)
        runs = []
        for _ in range(7):
            st.cache = None
            start = time.perf_counter()
            for _ in st.think():
                pass
            runs.append(time.perf_counter() - start)
        worst = max(worst, min(runs))
    whole = [w for w, _ in whole]
    mean = sum(whole) / len(whole)
    print("\nbot move, CPython: mean %.4f ms, 99%% %.4f ms, worst %.4f ms"
          " (timed again: %.4f ms) over %d moves (board ~x515: mean %.0f ms,"
          " worst %.0f ms)" % (
              1e3 * mean, 1e3 * whole[len(whole) * 99 // 100], 1e3 * whole[-1],
              1e3 * worst, len(whole), 515e3 * mean, 515e3 * worst))
    assert mean < 0.002 and worst < 0.002


def test_time_per_slice():
    rng = Rng(6)
    gaps = []
    for g in range(300):
        st = Game({"players": str(2 + g % 3)})
        while st.to_move() != OVER:
            if st.to_move() == CHANCE:
                outs = st.chance_outcomes()
                st.apply_action(outs[rng.weighted([w for a, w in outs])][0])
                continue
            st.cache = None
            it = st.think()
            while True:
                start = time.perf_counter()
                try:
                    next(it)
                except StopIteration:
                    break
                gaps.append(time.perf_counter() - start)
            st.apply_action(uniform(st, rng))
    gaps.sort()
    mean = sum(gaps) / len(gaps)
    p99 = gaps[len(gaps) * 99 // 100]
    print("\nthink() slice, CPython: mean %.4f ms, 99%% %.4f ms, worst %.4f ms"
          " over %d slices (budget ~0.08 ms)" % (1e3 * mean, 1e3 * p99,
                                                1e3 * gaps[-1], len(gaps)))
    assert p99 < 0.00008
