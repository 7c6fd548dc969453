"""Fairness: chi-square goodness-of-fit tests on dice, bags and engine.rng.

Method. Each test counts outcomes over a fixed, seeded run and compares the
Pearson statistic X^2 = sum (observed - expected)^2 / expected against the
chi-square critical value for its degrees of freedom at ALPHA = 0.001 (a fair
source fails a given test with probability 1/1000; the seeds are fixed, so
a run is deterministic: it passes today and keeps passing). Every expected
count is far above 5, so the chi-square approximation holds.

scipy is not installed, so ``chi2_sf`` below computes the upper tail exactly
for whole-number df from its closed forms:

* even df = 2m:     Q = exp(-x/2) * sum_{i<m} (x/2)^i / i!
* odd  df = 2m + 1: Q = erfc(sqrt(x/2)) + exp(-x/2) * sum_{i=1..m} (x/2)^(i-1/2) / Gamma(i+1/2)

and ``critical`` inverts it by bisection. ``test_critical_values_match_tables``
checks the result against published table values (e.g. df=5: 20.515).

Each check also runs once on a deliberately biased source (modulo bias, a bag
that ignores counts) and must reject it, so the tests are shown to have power.

The runs over many samples are marked ``bench``: ``make bench`` runs them and
prints each statistic; the everyday suite keeps the exact checks.
"""
import math
from collections import Counter

import pytest

from engine import registry
from engine.protocol import Session
from engine.rng import Rng
from engine.bag import PRESETS, parse_contents
from engine.pieces import fmt_piece

ALPHA = 0.001


def chi2_sf(x, df):
    """P(X >= x) for a chi-square variable with whole-number ``df``."""
    if x <= 0:
        return 1.0
    h = x / 2.0
    logh = math.log(h)
    if df % 2 == 0:
        # terms in log space: exp(-h) alone underflows for large x
        return math.fsum(math.exp(-h + i * logh - math.lgamma(i + 1))
                         for i in range(df // 2))
    return math.erfc(math.sqrt(h)) + math.fsum(
        math.exp(-h + (i - 0.5) * logh - math.lgamma(i + 0.5))
        for i in range(1, (df - 1) // 2 + 1))


def critical(df, alpha=ALPHA):
    """The x with P(X >= x) = alpha, by bisection (chi2_sf is decreasing)."""
    lo, hi = 0.0, df + 40.0 * math.sqrt(2.0 * df) + 100.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_sf(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def wilson_hilferty(df, z):
    """The classic approximation, as a second opinion on ``critical``."""
    c = 2.0 / (9.0 * df)
    return df * (1 - c + z * math.sqrt(c)) ** 3


def chi2(observed, expected):
    assert min(expected) >= 5, "expected counts too small for chi-square"
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected))


# Upper 0.1% and 5% points from standard tables (NIST/SEMATECH e-Handbook,
# table 1.3.6.7.4), to 3 decimals.
TABLE = {(1, 0.001): 10.828, (2, 0.001): 13.816, (5, 0.001): 20.515,
         (6, 0.001): 22.458, (10, 0.001): 29.588, (14, 0.001): 36.123,
         (20, 0.001): 45.315, (30, 0.001): 59.703, (100, 0.001): 149.449,
         (1, 0.05): 3.841, (5, 0.05): 11.070, (23, 0.05): 35.172}


@pytest.mark.parametrize("df,alpha", sorted(TABLE))
def test_critical_values_match_tables(df, alpha):
    assert abs(critical(df, alpha) - TABLE[(df, alpha)]) < 0.002


@pytest.mark.parametrize("df", [5, 19, 49, 204, 280, 999])
def test_critical_values_agree_with_wilson_hilferty(df):
    # z for the upper 0.1% of the normal distribution
    wh = wilson_hilferty(df, 3.090232)
    assert abs(critical(df) - wh) / wh < 0.012


def test_tail_of_known_points():
    assert abs(chi2_sf(3.841459, 1) - 0.05) < 1e-6
    assert abs(chi2_sf(2.0, 2) - math.exp(-1)) < 1e-12
    assert chi2_sf(0, 7) == 1.0 and chi2_sf(1e4, 7) < 1e-300


def assert_fits(observed, expected, df):
    x = chi2(observed, expected)
    crit = critical(df)
    print("\n  X^2 = %.2f, df %d, critical %.2f (alpha %g)" % (x, df, crit, ALPHA))
    assert x < crit, "X^2 = %.2f >= %.2f (df %d, alpha %g)" % (x, crit, df, ALPHA)
    return x


def assert_rejected(observed, expected, df):
    x = chi2(observed, expected)
    assert x > critical(df), "the biased source passed: X^2 = %.2f" % x


# ---- dice -------------------------------------------------------------------

PYRAMID = ("S", "M", "L", "SM", "SL", "ML")


@pytest.mark.bench
def test_pyramid_die_60000_rolls_through_the_protocol():
    # 10,000 rolls of six dice = 60,000 faces, each sampled by the session
    s = Session(1)
    s.handle("new dice die=pyramid count=6 seed=60000")
    faces = Counter()
    for _ in range(10000):
        s.handle("play roll")
        for _ in range(6):
            faces[s.handle("sample")[2:-2]] += 1
    assert sum(faces.values()) == 60000 and set(faces) == set(PYRAMID)
    # six faces at 1/6 each: df = 6 - 1 = 5, critical 20.515
    assert_fits([faces[f] for f in PYRAMID], [10000] * 6, 5)


@pytest.mark.bench
def test_dice_in_one_roll_are_independent():
    # pairs (first die, second die) of 14,400 two-dice rolls: 36 cells at
    # 1/36 each, expected 400; df = 35
    s = Session(2)
    s.handle("new dice die=d6 count=2 seed=36")
    pairs = Counter()
    for _ in range(14400):
        s.handle("play roll")
        a = s.handle("sample")[2:-2]
        b = s.handle("sample")[2:-2]
        pairs[a, b] += 1
    cells = [pairs[str(a), str(b)] for a in range(1, 7) for b in range(1, 7)]
    assert_fits(cells, [400] * 36, 35)


# ---- rng ---------------------------------------------------------------------

@pytest.mark.bench
def test_randrange_6_has_no_modulo_bias():
    r = Rng(6)
    c = Counter(r.randrange(6) for _ in range(60000))
    assert_fits([c[i] for i in range(6)], [10000] * 6, 5)
    # the bias rejection sampling avoids: 3 bits mod 6 makes 0 and 1 twice
    # as likely as the rest
    r = Rng(6)
    c = Counter(r.randbits(3) % 6 for _ in range(60000))
    assert_rejected([c[i] for i in range(6)], [10000] * 6, 5)


@pytest.mark.bench
def test_randrange_1000_bucketed_has_no_modulo_bias():
    # 100,000 draws in 50 buckets of 20 values: expected 2000 each, df 49.
    # 10 bits mod 1000 would make 0..23 twice as likely; bucket 0 would
    # hold about 3900.
    r = Rng(1000)
    c = Counter(r.randrange(1000) // 20 for _ in range(100000))
    assert_fits([c[i] for i in range(50)], [2000] * 50, 49)
    r = Rng(1000)
    c = Counter((r.randbits(10) % 1000) // 20 for _ in range(100000))
    assert_rejected([c[i] for i in range(50)], [2000] * 50, 49)


@pytest.mark.bench
def test_randrange_over_30_bits_is_uniform():
    # n > 2**30 takes the chunked path; 20 equal-width buckets, df 19
    n = 3 * 2 ** 31 + 7
    r = Rng(31)
    c = Counter(r.randrange(n) * 20 // n for _ in range(40000))
    assert_fits([c[i] for i in range(20)], [2000] * 20, 19)


@pytest.mark.bench
def test_shuffle_gives_every_permutation_equally():
    # 48,000 shuffles of 4 items: 24 permutations at 2000 each, df 23
    r = Rng(24)
    c = Counter()
    for _ in range(48000):
        xs = [0, 1, 2, 3]
        r.shuffle(xs)
        c[tuple(xs)] += 1
    assert len(c) == 24
    assert_fits(list(c.values()), [2000] * 24, 23)


@pytest.mark.bench
def test_weighted_follows_its_weights():
    weights = [1, 2, 3, 4, 10]
    r = Rng(20)
    c = Counter(r.weighted(weights) for _ in range(40000))
    assert_fits([c[i] for i in range(5)], [40000 * w // 20 for w in weights], 4)


# ---- bags ----------------------------------------------------------------------

def full_draws(preset, n, seed, session=True):
    """``n`` complete emptyings of a preset bag, as lists of tokens."""
    s = Session(seed)
    s.handle("new bag preset=%s seed=%d" % (preset, seed))
    size = s.state.remaining()
    out = []
    for _ in range(n):
        seq = []
        for _ in range(size):
            s.handle("play draw")
            seq.append(s.handle("sample")[2:-2])
        out.append(seq)
        s.handle("play return")
    return out


def bag_kinds(preset):
    kinds, counts = parse_contents(PRESETS[preset])
    return [fmt_piece(k) for k in kinds], list(counts)


# (preset, full draws): expected first-draw counts are at least 2000/7 and
# 3000/21; position cells at least 2000*5/35 and 3000/21
BAGS = [("bag_of_ice", 3000), ("ice_stalks", 2000)]


@pytest.fixture(scope="module", params=BAGS, ids=[b[0] for b in BAGS])
def bag_run(request):
    preset, n = request.param
    return preset, n, full_draws(preset, n, seed=len(preset) * 1000 + n)


@pytest.mark.bench
def test_bag_draws_hold_exactly_the_contents(bag_run):
    preset, n, draws = bag_run
    kinds, counts = bag_kinds(preset)
    for seq in draws:
        assert Counter(seq) == Counter(dict(zip(kinds, counts)))


@pytest.mark.bench
def test_bag_first_draw_is_weighted_by_counts(bag_run):
    # first item of each emptying: kind k with probability count_k / M;
    # the emptyings are independent, so df = kinds - 1
    # (bag_of_ice: 15 kinds, df 14, critical 36.12; ice_stalks: 7, df 6, 22.46)
    preset, n, draws = bag_run
    kinds, counts = bag_kinds(preset)
    m = sum(counts)
    c = Counter(seq[0] for seq in draws)
    assert_fits([c[k] for k in kinds], [n * w / m for w in counts], len(kinds) - 1)


@pytest.mark.bench
def test_bag_every_position_is_weighted_by_counts(bag_run):
    # The table of (position, kind) over all n emptyings. In a uniformly
    # random order every position holds kind k with probability c_k / M, but
    # one emptying fills each kind's column exactly, so cells of a column are
    # negatively correlated: Pearson's X^2 then has mean M (K - 1) and
    # X^2 * (M - 1) / M is chi-square with (M - 1)(K - 1) df (the
    # finite-population factor of sampling without replacement).
    # bag_of_ice: M 21, K 15, df 280; ice_stalks: M 35, K 7, df 204.
    preset, n, draws = bag_run
    kinds, counts = bag_kinds(preset)
    m, k = sum(counts), len(kinds)
    table = Counter()
    for seq in draws:
        for pos, tok in enumerate(seq):
            table[pos, tok] += 1
    obs = [table[p, t] for p in range(m) for t in kinds]
    exp = [n * w / m for p in range(m) for w in counts]
    x = chi2(obs, exp) * (m - 1) / m
    df = (m - 1) * (k - 1)
    print("\n  %s positions: X^2 (scaled) = %.1f, df %d, critical %.1f"
          % (preset, x, df, critical(df)))
    assert x < critical(df), "X^2 (scaled) = %.1f, df %d" % (x, df)
    # and the scaling is right: the statistic sits near its mean df
    assert abs(x - df) < 5 * math.sqrt(2 * df)


def test_bag_tests_reject_a_bag_that_ignores_counts():
    # a broken sampler that picks a kind uniformly, not by count
    kinds, counts = bag_kinds("bag_of_ice")
    r = Rng(5)
    c = Counter()
    n = 3000
    for _ in range(n):
        c[kinds[r.randrange(len(kinds))]] += 1
    assert_rejected([c[k] for k in kinds], [n * w / 21 for w in counts],
                    len(kinds) - 1)


def test_bag_chance_weights_are_the_counts_left():
    st = registry.new("bag", {"preset": "bag_of_ice"})
    st.apply("draw")
    st.apply("c2")
    st.apply("draw")
    w = dict((st.token(a), x) for a, x in st.chance_outcomes())
    assert w["c2"] == 1 and w["g2"] == 2 and w["r3"] == 1 and sum(w.values()) == 20
