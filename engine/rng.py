"""A portable, seedable random number generator.

xorshift32 (13, 17, 5), kept as two 16-bit halves so every intermediate stays
a small int on a 32-bit MicroPython/CircuitPython port (no heap allocation per
draw). The same seed gives the same sequence on every interpreter.
"""


class Rng:
    """xorshift32 with unbiased ``randrange`` and helpers built on it."""

    __slots__ = ("hi", "lo")

    def __init__(self, seed=None):
        if seed is None:
            # 32 bits from the OS (``os.urandom`` exists on the boards too)
            import os
            b = os.urandom(4)
            seed = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)
        self.seed(seed)

    def seed(self, seed):
        # murmur3's finaliser spreads nearby seeds (1, 2, 3...) over the
        # state space
        m = 0xFFFFFFFF
        x = seed & m
        x ^= x >> 16
        x = (x * 0x85EBCA6B) & m
        x ^= x >> 13
        x = (x * 0xC2B2AE35) & m
        x ^= x >> 16
        x = x or 0x9E3779B9  # xorshift must not start at zero
        self.hi = x >> 16
        self.lo = x & 0xFFFF

    def getstate(self):
        return (self.hi << 16) | self.lo

    def setstate(self, state):
        """Continue from ``getstate()``'s answer: another generator's
        sequence, from where it is (the board's USB protocol hands the app
        the session's seeded generator this way)."""
        self.hi = (state >> 16) & 0xFFFF
        self.lo = state & 0xFFFF

    def _step(self):
        h = self.hi
        l = self.lo
        # x ^= x << 13
        h ^= ((h << 13) | (l >> 3)) & 0xFFFF
        l ^= (l << 13) & 0xFFFF
        # x ^= x >> 17
        l ^= h >> 1
        # x ^= x << 5
        h ^= ((h << 5) | (l >> 11)) & 0xFFFF
        l ^= (l << 5) & 0xFFFF
        self.hi = h
        self.lo = l

    def next32(self):
        """The next raw 32-bit output (a long int on boards; for tests)."""
        self._step()
        return (self.hi << 16) | self.lo

    def randbits(self, k):
        """``k`` random bits as an int; small-int only for ``k <= 30``."""
        if k <= 0:
            return 0
        if k > 30:
            # large ranges (exact deal weights) concatenate 30-bit chunks
            return (self.randbits(k - 30) << 30) | self.randbits(30)
        self._step()
        if k <= 16:
            return self.hi >> (16 - k)
        return (self.hi << (k - 16)) | (self.lo >> (32 - k))

    def randrange(self, n):
        """Uniform in ``0..n-1``: rejection sampling, never a bare modulo."""
        if n <= 0:
            raise ValueError("empty range")
        if n == 1:
            return 0
        k = 0
        m = n - 1
        while m:
            m >>= 1
            k += 1
        while True:
            r = self.randbits(k)
            if r < n:
                return r

    def shuffle(self, seq):
        """Fisher-Yates in place (``random.shuffle`` is not on the boards)."""
        i = len(seq) - 1
        while i > 0:
            j = self.randrange(i + 1)
            seq[i], seq[j] = seq[j], seq[i]
            i -= 1

    def weighted(self, weights):
        """Index ``i`` with probability ``weights[i] / sum(weights)``."""
        total = 0
        for w in weights:
            total += w
        r = self.randrange(total)
        for i in range(len(weights)):
            r -= weights[i]
            if r < 0:
                return i
        raise ValueError("weights must be positive")
