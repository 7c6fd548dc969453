"""Ice Solo's deal weights (the 5-colour game and the quick start): exact
counts of the ways to finish a layer. Imported only while a deal is being
weighed (see ``engine.ice_solo._dl``) and dropped on a board when the deal
is over, so the nesting phase never holds its code.
"""


def _poly(n, m):
    """One colour's factor: sum_k (-1)^k C(n, k) m! / (m - k)! t^k, k up to
    min(n, m) (at most 6 small ints)."""
    kmax = n if n < m else m
    q = []
    term = 1
    for k in range(kmax + 1):
        q.append(-term if k & 1 else term)
        term = term * (n - k) * (m - k) // (k + 1)
    return q


def _counts(n, m, ok, total):
    """For each colour index d in ``ok`` (in order), how many ways the
    pieces ``m`` less one of colour d fill the ``sum(n)`` cells, ``n[i]``
    of which forbid colour i. With ``total`` (their sum, if known) one
    group below is not counted but taken from it.

    Inclusion-exclusion over the forbidden placements: the count for
    pieces m' is (1 / prod m'_i!) * sum_j coef_j * (M - j)!, coef the
    product over the colours of :func:`_poly`. Candidates with the same
    pieces left and forbidding cells have the same count (swap the two
    colours), so one of each group is counted. Every counted candidate
    shares all factors but its own, so one sweep serves them all: prefix
    products of the factors from the first colour up, and from the last
    colour down the factors applied to the sequence (M - j)! as operators
    (S'[j] = sum_k P[k] * S[j + k]); each then costs one short dot
    product. The counted ones go first and everything else after, so
    nothing else lengthens a prefix. Big ints on purpose."""
    c = len(m)
    # order: one candidate per group first (u of them), then the rest
    order = bytearray()
    grp = bytearray(len(ok))         # each candidate's group (its place)
    for x in range(len(ok)):
        d = ok[x]
        for y in range(len(order)):
            e = order[y]
            if n[e] == n[d] and m[e] == m[d]:
                grp[x] = y
                break
        else:
            grp[x] = len(order)
            order.append(d)
    u = len(order)
    seen = 0
    for i in order:
        seen |= 1 << i
    for i in range(c):
        if not seen >> i & 1:
            order.append(i)
    nk = u - (1 if total is not None else 0)     # groups counted
    res = [0] * u
    if nk > 0:
        pre = [[1]]
        for x in range(nk - 1):
            i = order[x]
            a = pre[x]
            b = _poly(n[i], m[i])
            out = [0] * (len(a) + len(b) - 1)
            for v in range(len(a)):
                y = a[v]
                for k in range(len(b)):
                    out[v + k] += y * b[k]
            pre.append(out)
        big_m = 0
        for x in n:
            big_m += x
        s = [1] * (big_m + 1)      # s[j] = (M - j)!
        ls = big_m + 1
        f = 1
        for j in range(big_m - 1, -1, -1):
            f *= big_m - j
            s[j] = f
        div = 1
        for x in m:
            for k in range(2, x + 1):
                div *= k
        x = c - 1
        while x >= 0:
            i = order[x]
            if x < nk:
                # a counted candidate: its own factor with one piece
                # fewer, then the prefix of the colours before it
                q = _poly(n[i], m[i] - 1)
                a = pre[x]
                raw = 0
                for j in range(len(a)):
                    h = 0
                    for k in range(len(q)):
                        h += q[k] * s[j + k]
                    raw += a[j] * h
                res[x] = raw * m[i] // div
                if x == 0:
                    break
            b = _poly(n[i], m[i])
            kb = len(b)
            if kb > 1:
                ls -= kb - 1        # s is used up to ls (no slice del on a board)
                for j in range(ls):
                    h = 0
                    for k in range(kb):
                        h += b[k] * s[j + k]
                    s[j] = h
            x -= 1
    if nk < u:
        # the last group from the total: what the others leave, shared
        got = 0
        size = 0
        for x in range(len(ok)):
            if grp[x] == nk:
                size += 1
            else:
                got += res[grp[x]]
        res[nk] = (total - got) // size
    return [res[grp[x]] for x in range(len(ok))]


def completions(n, m):
    """How many ways ``m[i]`` pieces of colour i (alike) can fill the cells,
    ``n[i]`` of which forbid colour i (``sum(n) == sum(m)``)."""
    m = list(m)
    m[0] += 1
    return _counts(n, m, bytearray(1), None)[0]


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def layer_counts(forbid_here, forbid_rest, counts, total=None):
    """Exact weights of each colour index for the next cell of a layer:
    ``forbid_here`` is its forbidden colour index (or -1), ``forbid_rest``
    the per-colour counts of later cells' forbidden colours, ``counts`` the
    pieces left per colour. Returns ``[(index, count)]`` with count > 0: the
    number of ways to finish the layer after that colour here. ``total``,
    if known, is their sum (the count the previous cell's outcome had), and
    saves counting one colour."""
    m = counts
    rest = 0
    for x in forbid_rest:
        rest += x
    ok = bytearray()
    for d in range(len(m)):
        if d == forbid_here or not m[d]:
            continue
        # Hall: no way to finish if a colour has more pieces left than
        # cells that accept it; such a colour gets no outcome at all
        fits = True
        for c in range(len(m)):
            if m[c] - (1 if c == d else 0) + forbid_rest[c] > rest:
                fits = False
                break
        if fits:
            ok.append(d)
    if not ok:
        return []
    res = _counts(forbid_rest, m, ok, total)
    return [(ok[x], res[x]) for x in range(len(ok))]


def reduce_weights(counts):
    """``[(x, w)]`` with the weights divided by their gcd."""
    g = 0
    for x, w in counts:
        g = _gcd(g, w)
    if g > 1:
        return [(x, w // g) for x, w in counts]
    return counts


def layer_weights(forbid_here, forbid_rest, counts):
    """:func:`layer_counts` divided by their gcd (the chance weights)."""
    return reduce_weights(layer_counts(forbid_here, forbid_rest, counts))
