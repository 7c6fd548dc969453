"""Recorded RNG vectors: the same seed must give the same numbers everywhere.

Device-safe (MicroPython/CircuitPython): it uses only ``engine.rng`` and
plain Python. ``check(data)`` takes the parsed ``rng.json`` and returns a
list of mismatch messages (empty when every vector matches).

    micropython tests/vectors/check_vectors.py     # from the repo root
    python tests/vectors/check_vectors.py
"""
try:
    from engine.rng import Rng
except ImportError:
    # run as a script: put the repo root (two folders up) on the path
    import sys
    _parts = __file__.split("/")
    if len(_parts) > 3:     # drop tests/vectors/check_vectors.py
        sys.path.insert(0, "/".join(_parts[:-3]) or "/")
    else:                   # started from inside tests/ or tests/vectors/
        sys.path.insert(0, "/".join([".."] * (3 - len(_parts))) or ".")
    from engine.rng import Rng

N_RAW = 8          # outputs recorded per sequence
N_SMALL = 16
BIG = 10 ** 10     # above 2**30: exercises the chunked randbits path
WEIGHTS = [1, 2, 3, 4]


def record(seed):
    """The vector for one seed; each field starts from a fresh ``Rng(seed)``."""
    r = Rng(seed)
    raw = [r.next32() for _ in range(N_RAW)]
    r = Rng(seed)
    six = [r.randrange(6) for _ in range(N_SMALL)]
    r = Rng(seed)
    thousand = [r.randrange(1000) for _ in range(N_SMALL)]
    r = Rng(seed)
    big = [r.randrange(BIG) for _ in range(4)]
    r = Rng(seed)
    deck = list(range(10))
    r.shuffle(deck)
    r = Rng(seed)
    picks = [r.weighted(WEIGHTS) for _ in range(N_SMALL)]
    return {"seed": seed, "next32": raw, "randrange6": six,
            "randrange1000": thousand, "randrange_1e10": big,
            "shuffle10": deck, "weighted_1234": picks}


def check(data):
    """Mismatches between ``data`` (parsed rng.json) and this interpreter."""
    bad = []
    vectors = data["vectors"]
    if not vectors:
        bad.append("no vectors")
    for want in vectors:
        got = record(want["seed"])
        for key in sorted(want):
            if got.get(key) != want[key]:
                bad.append("seed %d %s: expected %r, got %r"
                           % (want["seed"], key, want[key], got.get(key)))
    return bad


def dumps(vectors, about):
    """rng.json text: one field per line, so a diff shows what moved."""
    import json
    out = ['{"about": %s,' % json.dumps(about), ' "vectors": [']
    for i, v in enumerate(vectors):
        keys = sorted(v)
        out.append('  {' + ",\n   ".join(['"%s": %s' % (k, json.dumps(v[k]))
                                          for k in keys]) +
                   ('}' if i == len(vectors) - 1 else '},'))
    out.append(' ]}')
    return "\n".join(out) + "\n"


def main(path="tests/vectors/rng.json"):
    import json
    with open(path) as f:
        bad = check(json.load(f))
    for line in bad:
        print(line)
    print("rng vectors: %s" % ("%d mismatches" % len(bad) if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    import sys
    sys.exit(main(*sys.argv[1:2]))
