"""Ice Solo's deal of the medium and small layers (the 5-colour game and the
quick start), exactly uniform with small integers only. Imported when a
deal first needs it (see ``engine.ice_solo._dl``).

A layer goes over ``k`` groups of ``per`` cells: group ``g`` is the cells
whose piece below has colour index ``g`` (each colour has exactly ``per``
pieces of a size, so every group has ``per`` cells, in reading order).
Exact weights for every cell would be counts of the ways to finish the
layer, up to 2**42 for five colours (big integers, garbage on a board), so
only the last groups are weighed exactly:

* groups ``0 .. k-3`` are *proposed*: each cell gets one of the ``k - 1``
  colours its group allows, weight 1 each (a colour with no piece left is
  folded into a ``redo`` outcome: such a layer could never be accepted);
* two checkpoints accept or redo what was proposed, ``ok`` with weight
  ``F``, ``redo`` with ``bound - F``, where ``F`` counts the ways to finish
  the layer from there: after group ``k-4`` with :func:`count3` (the last
  three groups) and after group ``k-3`` with :func:`count2` (the last two).
  A redo goes back to the previous checkpoint (or the layer's start). A
  proposal accepted with probability proportional to its completions is
  exactly a draw of that prefix from the uniform layer;
* the last two groups are weighed exactly with :func:`count2`, which is
  closed-form.

All counts are below 2**23; the bounds are their largest values (five
colours: 6125000 and 14000; four: 255200 and 2000).
"""

from engine.ice_solo import CIX, PLACE, DEAL_OK, DEAL_REDO, P_NEST

OK = 8        # outcome codes beside the colour indices 0..k-1
REDO = 9


# 0! .. 12! (13! is past a small int)
F = (1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880, 3628800, 39916800,
     479001600)


def _multi(m, lo, hi):
    """(sum m[lo:hi])! / prod m[i]! (at most 12 pieces here)."""
    n = 0
    d = 1
    for i in range(lo, hi):
        n += m[i]
        d *= F[m[i]]
    return F[n] // d


def count2(na, nb, m):
    """Ways to fill ``na`` cells forbidding colour k-2 and ``nb`` cells
    forbidding k-1 with the pieces ``m`` (``sum(m) == na + nb``): every
    piece of k-1 goes to the first cells, every piece of k-2 to the second,
    and the free colours fill the rest in any order."""
    k = len(m)
    a = m[k - 2]
    b = m[k - 1]
    if a > nb or b > na:
        return 0
    return (F[na] // (F[b] * F[na - b]) * (F[nb] // (F[a] * F[nb - a])) *
            _multi(m, 0, k - 2))


def count3(na, nb, nc, m):
    """As :func:`count2` for three groups forbidding k-3, k-2, k-1: sum
    over how the pieces of those colours split between the two groups
    that accept them; the free colours fill the rest in any order."""
    k = len(m)
    a = m[k - 3]
    b = m[k - 2]
    c = m[k - 1]
    tot = 0
    for yb in range(b + 1):             # b pieces in the a-group
        for yc in range(c + 1):         # c pieces in the a-group
            fa = na - yb - yc
            if fa < 0:
                break
            ta = F[na] // (F[yb] * F[yc] * F[fa])
            cb = c - yc                 # ... and the rest in the b-group
            bc = b - yb                 # ... or the c-group
            for za in range(a + 1):     # a pieces in the b-group
                fb = nb - za - cb
                if fb < 0:
                    break
                fc = nc - (a - za) - bc
                if fc >= 0:
                    tot += (ta * (F[nb] // (F[za] * F[cb] * F[fb])) *
                            (F[nc] // (F[a - za] * F[bc] * F[fc])))
    if not tot:
        return 0
    return tot * _multi(m, 0, k - 3)


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def bounds(k):
    """The two checkpoints' bounds for ``k`` colours of 5 pieces."""
    return (6125000, 14000) if k == 5 else (255200, 2000)


def start_chk(k):
    """Checkpoints already behind a layer's first cell (fewer than four
    colours leave nothing to propose before them)."""
    return 0 if k >= 4 else (1 if k == 3 else 2)


def redo_to(k, per, chk):
    """Where a redo sends the layer back to, with ``chk`` checkpoints
    passed."""
    return per * (k - 3) if chk and k >= 3 else 0


def outcomes(pos, chk, m, per, bnd):
    """The node at position ``pos`` of a layer (``chk`` checkpoints passed,
    ``m`` pieces left per colour, ``per`` cells a group, ``bnd`` the two
    bounds): ``[(colour index, OK or REDO, weight)]``."""
    k = len(m)
    cp2 = per * (k - 2)
    if pos == cp2 - per and chk == 0:
        return _accept(count3(per, per, per, m), bnd[0])
    if pos == cp2 and chk == 1:
        return _accept(count2(per, per, m), bnd[1])
    g = pos // per
    out = []
    if pos < cp2:
        for d in range(k):
            if d != g and m[d]:
                out.append((d, 1))
        if len(out) < k - 1:
            out.append((REDO, k - 1 - len(out)))
        return out
    if g == k - 2:
        na = cp2 + per - pos - 1
        nb = per
    else:
        na = 0
        nb = per * k - pos - 1
    for d in range(k):
        if d != g and m[d]:
            m[d] -= 1
            w = count2(na, nb, m)
            m[d] += 1
            if w:
                out.append((d, w))
    h = 0
    for d, w in out:
        h = _gcd(h, w)
    if h > 1:
        out = [(d, w // h) for d, w in out]
    return out


def _accept(f, bound):
    if f >= bound:
        return [(OK, 1)]
    if not f:
        return [(REDO, 1)]
    h = _gcd(f, bound)
    return [(OK, f // h), (REDO, (bound - f) // h)]


# ---- the Game's deal steps (engine.ice_solo delegates) ----

def outcomes_of(g):
    """The deal node's chance outcomes (tokens' actions and weights)."""
    size = 3 - g.layer
    cols = g.cols
    left = g.left
    if g.layer == 0:                # the larges: as many as are left
        return [(PLACE + ((cols[d] << 2) | size), left[d])
                for d in range(len(cols)) if left[d]]
    out = outcomes(g.pos, g.checkpoints, left, 5, bounds(len(cols)))
    for i in range(len(out)):
        d, w = out[i]
        if d == OK:
            out[i] = (DEAL_OK, w)
        elif d == REDO:
            out[i] = (DEAL_REDO, w)
        else:
            out[i] = (PLACE + ((cols[d] << 2) | size), w)
    return out


def apply(g, a):
    """A deal outcome: a piece for the layer's next cell (reading order for
    the larges, group by group after them), or a checkpoint's ``ok`` /
    ``redo``."""
    grid = g.grid
    k = len(g.cols)
    left = g.left
    if a == DEAL_OK:
        g.checkpoints += 1
        return
    ly = g.layer
    if a == DEAL_REDO:
        # the proposed pieces go back (the history keeps them and the redo:
        # it is every action applied, and replays to the same grid)
        r = redo_to(k, 5, g.checkpoints)
        o = g.order
        for i in range(r, g.pos):
            c = o[i]
            grid[c] = grid[c][:ly]
        g.pos = r
        for i in range(k):
            left[i] = 5
        for i in range(r):
            left[CIX[grid[o[i]][ly] >> 2]] -= 1
        return
    p = a - PLACE
    grid[g.order[g.pos] if ly else g.pos].append(p)
    left[CIX[p >> 2]] -= 1
    g.pos += 1
    n = len(grid)
    if g.pos < n:
        return
    g.pos = 0
    g.layer = ly = ly + 1
    for i in range(k):
        left[i] = 5
    if ly == 3:
        g.phase = P_NEST
        g.left = None
        g.order = None
        return
    # the layer's cells group by group (the colour below), each group in
    # reading order
    o = bytearray()
    for d in range(k):
        for x in range(n):
            if CIX[grid[x][ly - 1] >> 2] == d:
                o.append(x)
    g.order = o
    g.checkpoints = start_chk(k)
