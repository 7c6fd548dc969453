"""Bag of Ice for two players, solved exactly: the policy that maximises
the chance of winning, exact evaluation of any two policies, and the
compact policy and win table the device plays and advises from.

    .venv/bin/python tools/bag_of_ice_solver.py [--target 60] [--write-policy]
                                                [--table]

Always prints the first player's win chance with optimal play, how the
solve converged and how long it took; ``--write-policy`` also fits the
compact policy against the optimal one and writes
engine/bag_of_ice_policy.py; ``--table`` prints the exact-evaluation
table of that policy (or of the one in the module), today's bot, optimal
play and stop-at-N players.

The bag, the die and the scoring are the engine's own (engine/
bag_of_ice_score.py: FULL, TOTAL, LO, HI, value); today's bot's moves are
asked of the engine's rule (Odds.rule_move). docs/games/bag-of-ice.md
explains the method, the merged states and the figures.

A turn in progress is (my score, their score, the multiset drawn). For a
fixed score pair the turn is a finite DAG (the bag only empties), whose
ends are a bust (the opponent's turn at (their, mine)) or a stop (theirs at
(their, mine + value)); V(a, b), the chance that the player to move at the
start of a turn wins, is therefore solved by descending a + b, each pair
(a, b) coupled only with (b, a) through the bust. For fixed policies that
coupling is linear and solved exactly; for the optimal policy it is solved
by policy iteration (the turn's value is a convex piecewise-linear function
of the bust value, so Newton steps end in a few rounds), and a last sweep
checks every pair's residual.
"""
import argparse
import itertools
import math
import os
import sys
import time

import numpy as np
from numba import njit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import bag_of_ice_score as score   # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POLICY_PY = os.path.join(ROOT, "engine", "bag_of_ice_policy.py")
# a policy byte per drawn state: bit 0 stop, bits 1..3 the higher size on
# SM, SL, ML
STOP_BIT = 1
NKEY = 5 * 7 * 9          # (larges, mediums, smalls) drawn: 0..4, 0..6, 0..8


# ---- the states of a turn ------------------------------------------------------
class Turn:
    """Every multiset of non-red pyramids that can be drawn in one turn,
    colours that are interchangeable merged (see ``colour_classes``),
    ordered by value, highest first (a draw always adds value, so every
    successor comes before its state; the empty draw is last)."""

    def __init__(self):
        self.colours = cols = [c for c in score.COLS if c and score.FULL[c << 2 | 1]]
        for z in (1, 2, 3):
            # the red of each size stays in the bag until the turn busts
            assert score.FULL[z] == 1, "the solver expects one red per size"
        full = [score.FULL[c << 2 | z] for c in cols for z in (1, 2, 3)]
        raw = list(itertools.product(*[range(f + 1) for f in full]))
        # the engine's value of every drawn multiset
        vals = {v: self.value(v) for v in raw}
        self.classes = colour_classes(cols, vals)
        canon = {}
        of = {}
        for v in raw:
            k = self.canonical(v)
            of[v] = k
            canon.setdefault(k, []).append(v)
        keys = sorted(canon, key=lambda v: (-vals[v], v))
        self.states = keys
        self.members = [canon[k] for k in keys]
        ix = {k: i for i, k in enumerate(keys)}
        self.raw_index = {v: ix[of[v]] for v in raw}
        n = len(keys)
        nc = len(cols)
        self.val = np.array([vals[v] for v in keys], np.int64)
        self.cnt = np.zeros((n, 3, nc), np.int64)    # left in the bag, non-red
        self.nxt = np.zeros((n, 3, nc), np.int64)
        self.nsz = np.zeros((n, 3), np.int64)        # left per size, red included
        self.key = np.zeros(n, np.int64)
        ri = self.raw_index
        for i, v in enumerate(keys):
            drawn = [0, 0, 0]
            w = list(v)
            for k in range(3 * nc):
                z = k % 3
                drawn[z] += v[k]
                left = full[k] - v[k]
                self.cnt[i, z, k // 3] = left
                if left:
                    w[k] += 1
                    self.nxt[i, z, k // 3] = ri[tuple(w)]
                    w[k] -= 1
            for z in (1, 2, 3):
                self.nsz[i, z - 1] = score.TOTAL[z] - drawn[z - 1]
            self.key[i] = (drawn[2] * 7 + drawn[1]) * 9 + drawn[0]
        # the same transitions as flat lists, state by state and size by
        # size: counts (as floats) and successors; inv[i, z] 1 / nsz
        off = [0]
        tc = []
        tn = []
        for i in range(n):
            for z in range(3):
                for k in range(nc):
                    if self.cnt[i, z, k]:
                        tc.append(self.cnt[i, z, k])
                        tn.append(self.nxt[i, z, k])
                off.append(len(tc))
        self.off = np.array(off, np.int64)
        self.tc = np.array(tc, np.float64)
        self.tn = np.array(tn, np.int64)
        self.inv = 1.0 / self.nsz
        self.n = n
        self.maxv = int(self.val[0])
        # below[t]: the first state worth less than t (they run to the end)
        self.below = np.searchsorted(-self.val, -np.arange(self.maxv + 2), "right")

    def codes(self, v):
        """The piece codes of drawn vector ``v``."""
        out = []
        for j, c in enumerate(self.colours):
            for z in (1, 2, 3):
                out += [c << 2 | z] * v[3 * j + z - 1]
        return out

    def value(self, v):
        return score.value(score.counts(self.codes(v)))

    def canonical(self, v):
        """``v`` with the colours of each class in a fixed order."""
        per = [v[3 * j:3 * j + 3] for j in range(len(self.colours))]
        for cl in self.classes:
            got = sorted(per[j] for j in cl)
            for j, t in zip(cl, got):
                per[j] = t
        return tuple(x for t in per for x in t)

    def index_of(self, drawn):
        """The state index of the piece codes ``drawn``."""
        v = [0] * (3 * len(self.colours))
        for p in drawn:
            v[3 * self.colours.index(p >> 2) + (p & 3) - 1] += 1
        return self.raw_index[tuple(v)]


def colour_classes(cols, vals):
    """Groups of colours (indexes into ``cols``) any two of which can be
    swapped without changing the game: the bag holds as many of each size
    of both, and swapping them leaves the value (``vals``: every drawn
    multiset's) unchanged, checked on all of them. Then the chances, the
    values and so the win chances of a state and its swap are the same."""
    full = [tuple(score.FULL[c << 2 | z] for z in (1, 2, 3)) for c in cols]
    classes = []
    for j in range(len(cols)):
        for cl in classes:
            i = cl[0]
            if full[i] != full[j]:
                continue
            ok = True
            for v in vals:
                w = list(v)
                w[3 * i:3 * i + 3], w[3 * j:3 * j + 3] = v[3 * j:3 * j + 3], v[3 * i:3 * i + 3]
                if vals[tuple(w)] != vals[v]:
                    ok = False
                    break
            if ok:
                cl.append(j)
                break
        else:
            classes.append([j])
    return classes


# ---- one turn, worked out for one score pair ------------------------------------
@njit(cache=False)
def _turn(optimal, pol, start, win, won, stopw, x, val, off, tc, tn, inv, D, C,
          out, gain):
    """The turn from the empty draw for the player to move: returns
    (win chance, chance of a bust), given ``stopw[v]`` the win chance of
    stopping with v and ``x`` the win chance after a bust. ``win``: the
    value that reaches the target, ``won`` the first state worth less (a
    stop there wins: every policy here stops). States before ``start``
    stop. ``optimal``: the moves that maximise, written to ``out``; else
    the moves of ``pol``. ``gain`` (n x 4, or 0 x 4 for none): per state,
    how much the higher size of SM, SL, ML is worth over the lower one,
    and drawing over stopping."""
    n = val.shape[0]
    for i in range(won):
        D[i] = 1.0
        C[i] = 0.0
    for i in range(won, start):
        D[i] = stopw[val[i]]
        C[i] = 0.0
    g = gain.shape[0] > 0
    for i in range(max(won, start), n):
        v = val[i]
        # per size: the chance to win after drawing it (a bust, 1 / n, or
        # a piece, count / n each), and the chance of a bust within
        b0 = i * 3
        a0 = x
        c0 = 1.0
        for e in range(off[b0], off[b0 + 1]):
            a0 += tc[e] * D[tn[e]]
            c0 += tc[e] * C[tn[e]]
        a1 = x
        c1 = 1.0
        for e in range(off[b0 + 1], off[b0 + 2]):
            a1 += tc[e] * D[tn[e]]
            c1 += tc[e] * C[tn[e]]
        a2 = x
        c2 = 1.0
        for e in range(off[b0 + 2], off[b0 + 3]):
            a2 += tc[e] * D[tn[e]]
            c2 += tc[e] * C[tn[e]]
        a0 *= inv[i, 0]
        c0 *= inv[i, 0]
        a1 *= inv[i, 1]
        c1 *= inv[i, 1]
        a2 *= inv[i, 2]
        c2 *= inv[i, 2]
        # the faces S, M, L, then SM, SL, ML with their sizes chosen
        dv = a0 + a1 + a2
        dc = c0 + c1 + c2
        p = pol[i]
        bits = 0
        if (a1 > a0) if optimal else (p >> 1) & 1:
            bits |= 2
            dv += a1
            dc += c1
        else:
            dv += a0
            dc += c0
        if (a2 > a0) if optimal else (p >> 2) & 1:
            bits |= 4
            dv += a2
            dc += c2
        else:
            dv += a0
            dc += c0
        if (a2 > a1) if optimal else (p >> 3) & 1:
            bits |= 8
            dv += a2
            dc += c2
        else:
            dv += a1
            dc += c1
        dv *= 1.0 / 6.0
        dc *= 1.0 / 6.0
        if g:
            gain[i, 0] = a1 - a0
            gain[i, 1] = a2 - a0
            gain[i, 2] = a2 - a1
            gain[i, 3] = dv - stopw[v]
        if v == 0:              # a turn opens with a draw
            D[i] = dv
            C[i] = dc
        else:
            sw = stopw[v]
            if (sw >= dv) if optimal else p & 1:
                bits |= 1
                D[i] = sw
                C[i] = 0.0
            else:
                D[i] = dv
                C[i] = dc
        out[i] = bits
    return D[n - 1], C[n - 1]


@njit(cache=False)
def _reach(pol, start, win, val, cnt, nxt, nsz, R, dist):
    """Forward through one turn played by ``pol`` (as in _turn): ``R[i]``
    the chance the turn reaches state i, ``dist[v]`` the chance it stops
    with v (a win included). Returns the chance of a bust."""
    n = val.shape[0]
    nc = cnt.shape[2]
    R[:] = 0.0
    dist[:] = 0.0
    R[n - 1] = 1.0
    bust = 0.0
    for i in range(n - 1, -1, -1):
        r = R[i]
        if r == 0.0:
            continue
        v = val[i]
        if v and (v >= win or i < start or pol[i] & 1):
            dist[v] += r
            continue
        for f in range(6):
            if f < 3:
                z = f
            else:
                lo = 0 if f < 5 else 1
                hi = 1 if f == 3 else 2
                z = hi if (pol[i] >> (f - 2)) & 1 else lo
            q = r / (6.0 * nsz[i, z])
            bust += q
            for k in range(nc):
                c = cnt[i, z, k]
                if c:
                    R[nxt[i, z, k]] += q * c
    return bust


class Solver:
    """Two players to ``target``: ``solve`` the optimal policy, ``evaluate``
    any two."""

    def __init__(self, target=60, turn=None):
        self.target = target
        self.t = turn or Turn()
        t = self.t
        self.D = np.zeros(t.n)
        self.C = np.zeros(t.n)
        self.scratch = np.zeros(t.n, np.uint8)
        self.nopol = np.zeros(t.n, np.uint8)
        self.nogain = np.zeros((0, 4))

    def pairs(self):
        """Score pairs (a, b), a <= b, both below the target, by descending
        a + b: each pair needs only higher sums and its mirror."""
        T = self.target
        for s in range(2 * T - 2, -1, -1):
            for a in range(max(0, s - T + 1), s // 2 + 1):
                yield a, s - a

    def stopw(self, a, b, opp):
        """Win chance of stopping with each value at (a, b): the opponent
        to move at (b, a + v), ``opp`` their start-of-turn table."""
        w = np.ones(self.t.maxv + 1)
        k = min(self.target - a, self.t.maxv + 1)
        w[1:k] = 1.0 - opp[b, a + 1:a + k]
        return w

    def turn(self, a, b, opp, x, optimal=False, pol=None, start=0, out=None,
             gain=None):
        t = self.t
        win = self.target - a
        won = t.below[min(win, t.maxv + 1)]
        return _turn(optimal, self.nopol if pol is None else pol, start, win,
                     won, self.stopw(a, b, opp), x, t.val, t.off, t.tc, t.tn,
                     t.inv, self.D, self.C, self.scratch if out is None else out,
                     self.nogain if gain is None else gain)

    # ---- the optimal policy ---------------------------------------------------------
    def solve(self, keep_policy=True, log=None):
        """V[a, b] for optimal play, and (if ``keep_policy``) the optimal
        move byte of every state at every pair. Returns a report dict."""
        T = self.target
        t0 = time.time()
        V = np.zeros((T, T))
        pol = np.zeros((T, T, self.t.n), np.uint8) if keep_policy else None
        rounds = []
        for a, b in self.pairs():
            va = vb = 0.5
            for r in range(1, 60):
                if a == b:
                    d, c = self.turn(a, a, V, 1.0 - va, True)
                    k = d - c * (1.0 - va)
                    na = (k + c) / (1.0 + c)
                    nb = na
                else:
                    da, ca = self.turn(a, b, V, 1.0 - vb, True)
                    db, cb = self.turn(b, a, V, 1.0 - va, True)
                    ka = da - ca * (1.0 - vb)
                    kb = db - cb * (1.0 - va)
                    na = (ka + ca * (1.0 - kb - cb)) / (1.0 - ca * cb)
                    nb = kb + cb * (1.0 - na)
                ch = max(abs(na - va), abs(nb - vb))
                va, vb = na, nb
                if ch < 1e-15:
                    break
            rounds.append(r)
            V[a, b] = va
            V[b, a] = vb
            if keep_policy:
                self.turn(a, b, V, 1.0 - vb, True, out=pol[a, b])
                self.turn(b, a, V, 1.0 - va, True, out=pol[b, a])
        solved = time.time() - t0
        # the Bellman residual of the whole table, one more sweep
        res = 0.0
        for a in range(T):
            for b in range(T):
                d, _ = self.turn(a, b, V, 1.0 - V[b, a], True)
                res = max(res, abs(d - V[a, b]))
        self.V = V
        self.pol = pol
        rep = {"first": V[0, 0], "pairs": len(rounds),
               "rounds_max": max(rounds), "rounds_mean": sum(rounds) / len(rounds),
               "residual": res, "seconds": solved,
               "check_seconds": time.time() - t0 - solved}
        if log:
            log("target %d: %d drawn states (%d before merging), %d score pairs"
                % (T, self.t.n, sum(len(m) for m in self.t.members), T * T))
            log("policy iteration per pair: %d rounds at most, %.2f on average; "
                "Bellman residual after the solve %.1e" % (rep["rounds_max"],
                                                          rep["rounds_mean"], res))
            log("first player wins %.5f with optimal play (solved in %.1f s, "
                "checked in %.1f s)" % (rep["first"], solved, rep["check_seconds"]))
        return rep

    # ---- any two policies --------------------------------------------------------
    def evaluate(self, p1, p2):
        """Exact start-of-turn win tables (V1, V2) of policies ``p1`` and
        ``p2`` against each other: V1[a, b] is p1's chance to win when p1
        is to move with a and p2 has b. A policy is a function (a, b) ->
        (move bytes per state, start) (see ``Policies``)."""
        T = self.target
        V1 = np.zeros((T, T))
        V2 = np.zeros((T, T))
        for a, b in self.pairs():
            for x, y in ((a, b), (b, a)) if a != b else ((a, b),):
                # p1 to move at (x, y) with p2's table, p2 at (y, x)
                m, s = p1(x, y)
                k1, c1 = self.turn(x, y, V2, 0.0, pol=m, start=s)
                m, s = p2(y, x)
                k2, c2 = self.turn(y, x, V1, 0.0, pol=m, start=s)
                v1 = (k1 + c1 * (1.0 - k2 - c2)) / (1.0 - c1 * c2)
                V1[x, y] = v1
                V2[y, x] = k2 + c2 * (1.0 - v1)
        return V1, V2


def match(V1, V2):
    """(p1 starting, p1 second, the roll-off's mean) from ``evaluate``."""
    first = V1[0, 0]
    second = 1.0 - V2[0, 0]
    return first, second, (first + second) / 2


# ---- policies ------------------------------------------------------------------------
class Policies:
    """Policies as the solver plays them: each a function (a, b) -> (the
    move byte of every state, the first state that may draw)."""

    def __init__(self, solver):
        self.s = solver
        t = solver.t
        self.t = t
        self._bot = None

    def optimal(self):
        pol = self.s.pol

        def p(a, b):
            return pol[a, b], 0
        return p

    def bot_tables(self):
        """Per state: today's bot's size bits and whether its one-step rule
        draws, asked of the engine (Odds.rule_move) for every member of
        each merged state (they must agree: the rule is colour-blind)."""
        if self._bot is None:
            from engine.bag_of_ice import Game, CHOOSE, DECIDE, STOP
            g = Game({"players": "2", "target": str(self.s.target)})
            t = self.t
            sizes = np.zeros(t.n, np.uint8)
            draws = np.zeros(t.n, bool)
            for i, ms in enumerate(t.members):
                got = set()
                for v in ms:
                    g.drawn = bytearray(t.codes(v))
                    g.points = [0, 0]
                    bits = 0
                    for f in (3, 4, 5):
                        g.phase = CHOOSE
                        g.face = f
                        if g.rule_move() == score.HI[f] + 1:
                            bits |= 2 << (f - 3)
                    g.phase = DECIDE
                    g.face = -1
                    d = bool(g.drawn) and g.rule_move() != STOP
                    got.add((bits, d))
                assert len(got) == 1, "the bot's rule tells merged states apart"
                bits, d = got.pop()
                sizes[i] = bits
                draws[i] = d
            self._bot = (sizes, draws)
        return self._bot

    def bot(self, close=None):
        """Today's bot: stop when the one-step expected gain is not
        positive, unless the opponent is within CLOSE of the target."""
        from engine import bag_of_ice_odds as odds
        close = odds.CLOSE if close is None else close
        sizes, draws = self.bot_tables()
        T = self.s.target
        stop_rule = sizes | np.where(draws, 0, STOP_BIT).astype(np.uint8)
        keep = sizes.copy()

        def p(a, b):
            return (keep if T - b <= close else stop_rule), 0
        return p

    def stop_at(self, n):
        """Draws until the turn is worth ``n`` (or stopping wins), the
        bot's sizes."""
        sizes, _ = self.bot_tables()
        below = self.t.below

        def p(a, b):
            return sizes, below[min(n, self.t.maxv + 1)]
        return p

    def compact(self, c):
        """The device's policy ``c`` (a Compact)."""
        t = self.t
        top = t.maxv + 1
        sizes = c.size_bytes(t)
        thr = c.adj[t.key]
        hi = int(c.adj.max())

        def p(a, b):
            # every state worth T + hi or more stops, whatever its key
            T = int(c.T[a, b])
            m = sizes | (t.val >= T + thr).astype(np.uint8)
            return m, t.below[min(max(T + hi, 0), top)]
        return p


class Compact:
    """The device's policy: with a points against b, stop once the turn is
    worth ``T[a, b] + adj[key]``, key the (larges, mediums, smalls) drawn;
    on a two-size face take the higher size when ``sizes[face - 3, key]``."""

    def __init__(self, T, adj, sizes):
        self.T = T
        self.adj = adj
        self.sizes = sizes

    def copy(self):
        return Compact(self.T.copy(), self.adj.copy(), self.sizes.copy())

    def size_bytes(self, t):
        """Per state, its size bits (as in the solver's move bytes)."""
        k = t.key
        sb = self.sizes
        return ((sb[0, k] << 1) | (sb[1, k] << 2) | (sb[2, k] << 3)).astype(np.uint8)


# ---- fitting the compact policy ------------------------------------------------------
def fit_sizes(solver):
    """A first size table: per (face, larges, mediums, smalls drawn) the size
    the optimal policy takes most often over the states with those counts,
    each weighted by how many draws reach it within the counts (every set
    of that many non-red pieces of each size is equally likely), over every
    score pair where the turn is still open."""
    t = solver.t
    T = solver.target
    w = np.zeros(t.n)
    for i, ms in enumerate(t.members):
        tot = 0
        for v in ms:
            p = 1
            for j, c in enumerate(t.colours):
                for z in (1, 2, 3):
                    p *= math.comb(score.FULL[c << 2 | z], v[3 * j + z - 1])
            tot += p
        w[i] = tot
    votes = np.zeros((3, NKEY))
    for a in range(T):
        open_ = (t.val < T - a).astype(float) * w
        for b in range(T):
            pb = solver.pol[a, b]
            for f in range(3):
                hi = (pb >> (f + 1)) & 1
                votes[f] += np.bincount(t.key, open_ * (2.0 * hi - 1.0), NKEY)
    return (votes > 0).astype(np.int64)


def improve(solver, c, step=1):
    """One policy-improvement step of ``c``'s size table and stop
    adjustments against the optimal policy: each size bit, and each key's
    adjustment (by at most ``step``), takes the choice whose exact worth
    at the states it decides, summed over them weighted by how often play
    reaches them (visits of each score pair, then of each state within
    the turn), is higher. Returns (the new Compact, c's exact score)."""
    t = solver.t
    Tg = solver.target
    pols = Policies(solver)
    comp = pols.compact(c)
    opt = pols.optimal()
    Vc, Vo = solver.evaluate(comp, opt)
    n = t.n
    R = np.zeros(n)
    gain = np.zeros((n, 4))
    dist = np.zeros(t.maxv + 1)
    deltas = [d for d in range(-step, step + 1) if d]
    out = {}
    keyed = {}
    thr_k = c.adj[t.key]
    for a in range(Tg):
        for b in range(Tg):
            m, st = comp(a, b)
            bust = _reach(m, st, Tg - a, t.val, t.cnt, t.nxt, t.nsz, R, dist)
            out[0, a, b] = (bust, dist.copy())
            solver.turn(a, b, Vo, 1.0 - Vo[b, a], pol=m, start=0, gain=gain)
            live = (t.val < Tg - a) & (t.val > 0)
            draws = (((m & STOP_BIT) == 0) & live) | (t.val == 0)
            w = R * draws
            got = [np.bincount(t.key, w * gain[:, f], NKEY) for f in range(3)]
            thr = c.T[a, b] + thr_k
            for d in deltas:
                if d < 0:
                    sel = live & (t.val >= thr + d) & (t.val < thr)
                    g = -gain[:, 3]
                else:
                    sel = live & (t.val >= thr) & (t.val < thr + d)
                    g = gain[:, 3]
                got.append(np.bincount(t.key, R * sel * g, NKEY))
            keyed[a, b] = got
            m, st = opt(a, b)
            bust = _reach(m, st, Tg - a, t.val, t.cnt, t.nxt, t.nsz, R, dist)
            out[1, a, b] = (bust, dist.copy())
    # visits of each start-of-turn (the roll-off picks either to start):
    # the compact player at (a, b) and the optimal at (b, a) feed each
    # other by busts, and every stop feeds a higher sum
    inflow = np.zeros((2, Tg, Tg))
    inflow[0, 0, 0] = inflow[1, 0, 0] = 0.5
    votes = np.zeros((3 + len(deltas), NKEY))
    for s in range(0, 2 * Tg - 1):
        for a in range(max(0, s - Tg + 1), min(s, Tg - 1) + 1):
            b = s - a
            bc = out[0, a, b][0]
            bo = out[1, b, a][0]
            vc = (inflow[0, a, b] + bo * inflow[1, b, a]) / (1.0 - bc * bo)
            vo = inflow[1, b, a] + bc * vc
            for who, x, y, w in ((0, a, b, vc), (1, b, a, vo)):
                d = out[who, x, y][1]
                for v in np.nonzero(d)[0]:
                    if x + v < Tg:
                        inflow[1 - who, y, x + v] += w * d[v]
            votes += vc * np.array(keyed[a, b])
    new = c.copy()
    sv = votes[:3]
    new.sizes = np.where(sv > 0, 1, np.where(sv < 0, 0, c.sizes)).astype(np.int64)
    dv = votes[3:]
    best = dv.argmax(axis=0)
    up = dv.max(axis=0) > 0
    new.adj = c.adj + np.where(up, np.array(deltas)[best], 0)
    return new, match(Vc, Vo)[2]


def fit_thresholds(solver, c, full=False):
    """T[a, b] for ``c`` (its sizes and adjustments kept) that maximises
    the compact player's win chance against the optimal policy at every
    pair, by descending a + b (a better chance at a pair is better for
    every pair before it, so this is the best threshold table for the rest
    of ``c`` against that opponent). Each pair tries every threshold
    (``full``) or those from its present one outwards while they improve
    (a few past the last gain). Returns (the Compact, V compact, V
    optimal)."""
    t = solver.t
    Tg = solver.target
    c = c.copy()
    opt = solver.pol
    Vc = np.zeros((Tg, Tg))
    Vo = np.zeros((Tg, Tg))
    pols = Policies(solver)
    for a, b in solver.pairs():
        for x, y in ((a, b), (b, a)) if a != b else ((a, b),):
            # the optimal opponent at (y, x) is affine in Vc[x, y]
            ko, co = solver.turn(y, x, Vc, 0.0, pol=opt[y, x])
            seen = {}

            def score_of(th):
                if th not in seen:
                    c.T[x, y] = th
                    m, st = pols.compact(c)(x, y)
                    kc, cc = solver.turn(x, y, Vo, 0.0, pol=m, start=st)
                    seen[th] = (kc + cc * (1.0 - ko - co)) / (1.0 - cc * co)
                return seen[th]
            th = min(max(int(c.T[x, y]), 1), Tg - x)
            best = score_of(th)
            for k in range(1, Tg - x + 1) if full else ():
                v = score_of(k)
                if v > best + 1e-13:
                    best = v
                    th = k
            for d in (1, -1):
                k = th + d
                # a few steps past the last improvement (the curve is bumpy)
                miss = 0
                while 1 <= k <= Tg - x and miss < 3 and not full:
                    v = score_of(k)
                    if v > best + 1e-13:
                        best = v
                        th = k
                        miss = 0
                    else:
                        miss += 1
                    k += d
            c.T[x, y] = th
            Vc[x, y] = best
            Vo[y, x] = ko + co * (1.0 - best)
    return c, Vc, Vo


# ---- the device's data -------------------------------------------------------------
def pack_sizes(size_bits):
    """The (3, NKEY) size table as bits, face-major, low bit first."""
    flat = size_bits.reshape(-1)
    out = bytearray((len(flat) + 7) // 8)
    for i, bit in enumerate(flat):
        if bit:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def win_bytes(V):
    """V in units of 1/255, rounded."""
    return bytes(int(round(x * 255)) for x in V.reshape(-1))


def _literal(name, data, comment):
    lines = ["# " + comment, "%s = (" % name]
    per = 18
    for i in range(0, len(data), per):
        lines.append('    b"%s"' % "".join("\\x%02x" % c for c in data[i:i + per]))
    lines.append(")")
    return "\n".join(lines)


def policy_source(c, V, target):
    """The text of engine/bag_of_ice_policy.py for Compact ``c`` and the
    optimal win table ``V``."""
    th = bytes(int(x) for x in c.T.reshape(-1))
    assert all(-128 <= x < 128 for x in c.adj)
    adj = bytes(int(x) + 128 for x in c.adj)
    parts = [
        '"""Bag of Ice for two players to %d: the compact solved policy and the\n'
        'win table, written by tools/bag_of_ice_solver.py --write-policy (do\n'
        'not edit). Imported only for that game (engine/bag_of_ice_odds.py)."""'
        % target,
        "KEYS = %d   # (larges * 7 + mediums) * 9 + smalls drawn" % NKEY,
        _literal("STOP", th, "with a points against b, stop once the turn is "
                 "worth STOP[a * %d + b] + ADJ[key] - 128" % target),
        _literal("ADJ", adj, "key: the sizes drawn, as above"),
        _literal("SIZE", pack_sizes(c.sizes), "bit (face - 3) * KEYS + key: "
                 "on SM, SL, ML take the higher size"),
        _literal("WIN", win_bytes(V), "WIN[a * %d + b] / 255: the chance to "
                 "win from the start of a turn, optimal play" % target),
    ]
    return "\n\n".join(parts) + "\n"


def load_policy(target=60):
    """The Compact held in engine/bag_of_ice_policy.py, and its win table."""
    from engine import bag_of_ice_policy as pol
    T = np.frombuffer(pol.STOP, np.uint8).astype(np.int64).reshape(target, target)
    adj = np.frombuffer(pol.ADJ, np.uint8).astype(np.int64) - 128
    bits = np.unpackbits(np.frombuffer(pol.SIZE, np.uint8), bitorder="little")
    sizes = bits[:3 * NKEY].astype(np.int64).reshape(3, NKEY)
    W = np.frombuffer(pol.WIN, np.uint8).reshape(target, target)
    return Compact(T, adj, sizes), W


def compact_policy(solver, rounds=20, log=None):
    """The Compact fitted against the optimal policy: a first size table
    (``fit_sizes``), the best thresholds for it (``fit_thresholds``, every
    threshold tried), then rounds of improvement (``improve``) each
    followed by the best thresholds near the last ones, while a round
    gains. Returns (Compact, V compact, V optimal)."""
    t0 = time.time()
    Tg = solver.target
    T = np.minimum(20, Tg - np.arange(Tg))[:, None] * np.ones(Tg, np.int64)[None, :]
    c = Compact(T.astype(np.int64), np.zeros(NKEY, np.int64), fit_sizes(solver))
    c, Vc, Vo = fit_thresholds(solver, c, full=True)
    sc = match(Vc, Vo)[2]
    if log:
        log("compact policy: first thresholds, %.5f against optimal (%.0f s)"
            % (sc, time.time() - t0))
    for r in range(rounds):
        n, _ = improve(solver, c)
        n, nVc, nVo = fit_thresholds(solver, n)
        nsc = match(nVc, nVo)[2]
        if nsc <= sc:
            break
        gained = nsc - sc
        c, Vc, Vo, sc = n, nVc, nVo, nsc
        if log:
            log("compact policy: round %d, %.5f against optimal (%.0f s)"
                % (r + 1, sc, time.time() - t0))
        if gained < 1e-5:
            break
    return c, Vc, Vo


def table(solver, c, stops=range(5, 41), bot_stops=(10, 15, 20, 25), log=print):
    """The exact-evaluation table for Compact ``c``: rows (policy,
    opponent, policy starting, policy second, the roll-off's mean)."""
    pols = Policies(solver)
    named = [("optimal", pols.optimal()), ("compact", pols.compact(c)),
             ("bot", pols.bot())]
    rows = []

    def row(n1, p1, n2, p2):
        V1, V2 = solver.evaluate(p1, p2)
        r = (n1, n2) + match(V1, V2)
        rows.append(r)
        if log:
            log("%-8s vs %-11s first %.4f  second %.4f  mean %.4f" % r)
        return r
    for i, (n1, p1) in enumerate(named):
        for n2, p2 in named[i + 1:]:
            row(n1, p1, n2, p2)
    for n in stops:
        row("compact", named[1][1], "stop-at-%d" % n, pols.stop_at(n))
    for n in bot_stops:
        row("bot", named[2][1], "stop-at-%d" % n, pols.stop_at(n))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", type=int, default=60)
    ap.add_argument("--write-policy", action="store_true",
                    help="write engine/bag_of_ice_policy.py (target 60 only)")
    ap.add_argument("--table", action="store_true",
                    help="print the exact-evaluation table (of the policy "
                    "written, or else of engine/bag_of_ice_policy.py)")
    a = ap.parse_args()
    t0 = time.time()
    s = Solver(a.target)
    print("states built in %.1f s" % (time.time() - t0))
    s.solve(log=print)
    if a.write_policy:
        if a.target != 60:
            sys.exit("--write-policy: the device plays the policy to 60 only")
        c, Vc, Vo = compact_policy(s, log=print)
        with open(POLICY_PY, "w") as f:
            f.write(policy_source(c, s.V, a.target))
        print("wrote %s: thresholds %d bytes, adjustments %d, sizes %d, win "
              "table %d" % (POLICY_PY, c.T.size, c.adj.size,
                            len(pack_sizes(c.sizes)), s.V.size))
    elif a.table:
        c = load_policy(a.target)[0]
    if a.table:
        table(s, c)
    print("total %.1f s" % (time.time() - t0))


if __name__ == "__main__":
    main()
