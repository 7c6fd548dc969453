"""engine.rng: portable, seeded, 32-bit arithmetic, unbiased helpers.

The statistical checks (chi-square) are in test_fairness.py.
"""
import json
import os
import sys

import pytest

from engine.rng import Rng

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "vectors"))
import check_vectors  # noqa: E402

M32 = 0xFFFFFFFF
SEEDS = (0, 1, 2, 42, 12345, 2 ** 31, 2 ** 32 - 1)


# An independent reference written straight from the textbook definitions on
# whole 32-bit words (the engine splits the word into 16-bit halves so a board
# never allocates a long int per draw; both must agree bit for bit).
def ref_fmix32(x):
    x &= M32
    x ^= x >> 16
    x = (x * 0x85EBCA6B) & M32
    x ^= x >> 13
    x = (x * 0xC2B2AE35) & M32
    x ^= x >> 16
    return x


def ref_stream(seed, n):
    x = ref_fmix32(seed) or 0x9E3779B9
    out = []
    for _ in range(n):
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        out.append(x)
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_matches_reference_xorshift32(seed):
    r = Rng(seed)
    assert [r.next32() for _ in range(2000)] == ref_stream(seed, 2000)


def _mixed(seed):
    # the generator's state right after seeding: fmix32 of the seed
    return Rng(seed).getstate()


def test_seed_mixing_is_murmur3_fmix32():
    # fmix32(0) is 0, which xorshift cannot start from: replaced by a constant
    assert ref_fmix32(0) == 0 and _mixed(0) == 0x9E3779B9
    for s in SEEDS[1:] + (3, 99, 0xDEADBEEF):
        assert _mixed(s) == ref_fmix32(s)


@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_same_sequence_and_reseeding_restarts(seed):
    a, b = Rng(seed), Rng(seed)
    xs = [a.randrange(1000) for _ in range(100)]
    assert xs == [b.randrange(1000) for _ in range(100)]
    a.seed(seed)
    assert [a.randrange(1000) for _ in range(100)] == xs


def test_nearby_seeds_give_unrelated_streams():
    firsts = [Rng(s).next32() for s in range(1000)]
    assert len(set(firsts)) == 1000
    # consecutive seeds must not give nearby first outputs
    close = sum(1 for i in range(999) if abs(firsts[i] - firsts[i + 1]) < 2 ** 20)
    assert close < 5


def test_seed_is_taken_mod_2_32():
    assert Rng(2 ** 32 + 7).next32() == Rng(7).next32()
    assert Rng(-1).next32() == Rng(2 ** 32 - 1).next32()


def test_unseeded_generators_differ():
    # seeded from os.urandom: two in a row colliding has odds 2**-32
    assert Rng().getstate() != Rng().getstate()


def test_halves_stay_16_bit_and_getstate_is_the_last_output():
    r = Rng(7)
    for _ in range(5000):
        out = r.next32()
        assert 0 <= r.hi <= 0xFFFF and 0 <= r.lo <= 0xFFFF
        assert r.getstate() == out
        assert out != 0     # xorshift never reaches zero


@pytest.mark.parametrize("k", range(0, 31))
def test_randbits_is_the_top_bits_of_the_next_word_and_fits_a_small_int(k):
    r, ref = Rng(99), ref_stream(99, 50)
    for word in ref:
        v = r.randbits(k)
        assert v == (word >> (32 - k) if k else 0)
        assert 0 <= v < 2 ** 30


def test_randbits_over_30_concatenates_30_bit_chunks():
    r, words = Rng(5), ref_stream(5, 4)
    v = r.randbits(34)
    assert v == ((words[0] >> 28) << 30) | (words[1] >> 2)
    assert 0 <= v < 2 ** 34


def ref_randrange(words, n):
    """Rejection sampling on the top k bits, k = bit length of n - 1."""
    if n == 1:
        return 0, words
    k = (n - 1).bit_length()
    assert k <= 30
    while True:
        v = words[0] >> (32 - k)
        words = words[1:]
        if v < n:
            return v, words


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 10, 21, 35, 100, 1000, 1023,
                               1024, 1025, 2 ** 20 + 1, 2 ** 30 - 1, 2 ** 30])
def test_randrange_is_rejection_sampling_never_modulo(n):
    seed = 1000 + n % 977
    r, words = Rng(seed), ref_stream(seed, 5000)
    for _ in range(300):
        want, words = ref_randrange(words, n)
        assert r.randrange(n) == want


def test_randrange_one_consumes_nothing():
    a, b = Rng(3), Rng(3)
    assert [a.randrange(1) for _ in range(10)] == [0] * 10
    assert a.next32() == b.next32()


@pytest.mark.parametrize("n", [1, 2, 6, 1000, 2 ** 31 + 1, 10 ** 10, 2 ** 40])
def test_randrange_stays_in_range(n):
    r = Rng(n % 1000)
    seen = set()
    for _ in range(2000):
        v = r.randrange(n)
        assert 0 <= v < n
        seen.add(v)
    if n <= 6:
        assert seen == set(range(n))
    else:   # 2000 draws from 1000 values hit about 865 of them
        assert len(seen) > 800


def test_randrange_large_reaches_the_top_of_the_range():
    r = Rng(11)
    n = 10 ** 10
    vals = [r.randrange(n) for _ in range(4000)]
    assert max(vals) > n * 99 // 100 and min(vals) < n // 100


@pytest.mark.parametrize("bad", [0, -1, -100])
def test_randrange_of_an_empty_range_is_a_value_error(bad):
    with pytest.raises(ValueError):
        Rng(1).randrange(bad)


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_is_fisher_yates_on_randrange(seed):
    items = list(range(20))
    r, ref = Rng(seed), Rng(seed)
    r.shuffle(items)
    expect = list(range(20))
    for i in range(19, 0, -1):
        j = ref.randrange(i + 1)
        expect[i], expect[j] = expect[j], expect[i]
    assert items == expect
    assert sorted(items) == list(range(20))


def test_shuffle_works_on_bytearrays_and_tiny_lists():
    b = bytearray(range(50))
    Rng(4).shuffle(b)
    assert sorted(b) == list(range(50)) and list(b) != list(range(50))
    for n in (0, 1):
        xs = list(range(n))
        Rng(4).shuffle(xs)
        assert xs == list(range(n))


def test_weighted_is_randrange_over_the_total():
    weights = [3, 0, 5, 1, 11]
    r, ref = Rng(8), Rng(8)
    for _ in range(500):
        i = r.weighted(weights)
        x = ref.randrange(20)
        cum = 0
        for j, w in enumerate(weights):
            cum += w
            if x < cum:
                break
        assert i == j
        assert weights[i] > 0          # a zero weight is never chosen


def test_weighted_handles_huge_exact_weights():
    # exact deal weights can exceed 2**30 (multinomials): still exact
    big = 3 * 10 ** 12
    r = Rng(2)
    picks = [r.weighted([big, 1, big]) for _ in range(200)]
    assert set(picks) == {0, 2}


@pytest.mark.parametrize("weights", [[], [0], [0, 0]])
def test_weighted_with_nothing_to_pick_is_a_value_error(weights):
    with pytest.raises(ValueError):
        Rng(1).weighted(weights)


# ---- recorded vectors (re-checked under MicroPython by the budget tool) ----

def load_vectors():
    with open(os.path.join(HERE, "vectors", "rng.json")) as f:
        return json.load(f)


def test_vectors_file_has_the_agreed_seeds_and_fields():
    data = load_vectors()
    seeds = [v["seed"] for v in data["vectors"]]
    assert seeds == [0, 1, 42, 2 ** 32 - 1]
    for v in data["vectors"]:
        assert set(v) == {"seed", "next32", "randrange6", "randrange1000",
                          "randrange_1e10", "shuffle10", "weighted_1234"}
        assert sorted(v["shuffle10"]) == list(range(10))
        assert all(0 <= x < 6 for x in v["randrange6"])


@pytest.mark.parametrize("index", range(4))
def test_recorded_vectors_match(index):
    want = load_vectors()["vectors"][index]
    assert check_vectors.record(want["seed"]) == want
    # and the raw words agree with the independent reference
    assert want["next32"] == ref_stream(want["seed"], len(want["next32"]))


def test_checker_reports_mismatches():
    data = load_vectors()
    assert check_vectors.check(data) == []
    data["vectors"][2]["randrange6"][3] ^= 1
    data["vectors"][0]["shuffle10"].reverse()
    bad = check_vectors.check(data)
    assert len(bad) == 2
    assert "seed 42 randrange6" in bad[1] and "seed 0 shuffle10" in bad[0]
    assert check_vectors.check({"vectors": []}) == ["no vectors"]
