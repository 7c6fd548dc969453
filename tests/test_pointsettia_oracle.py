"""Pointsettia, whole games, against a second implementation written here
from the project rulings ("Notation", "Pointsettia"), the Pointsettia seed
where the rulings leave a point to it, and the protocol contract (options,
tokens, the end, scoring, the ``state`` fields) in docs/protocol.md and
docs/games/pointsettia.md. No engine module of the
game is read or imported: the engine is driven only through
``engine.protocol.Session``, as an outside checker would.

The oracle keeps its own plant (position name to piece) and stash, and
applies every move itself. At every step it predicts, and the engine must
answer:

* who is to move (``to_move``, and ``to_move`` inside ``state``);
* ``legal``: the exact set of moves (every stash piece into every empty
  slot whose parent is in the plant; a clear piece also with each ancestor
  it may displace; a black piece also with its power where the rulings
  allow it);
* the whole ``state`` object, field by field (plant, stash, rim, runs,
  last, bots, scores), with no field the doc does not name;
* ``score``, ``history``, ``undo``, the tree lines of ``show``, ``hint``
  (a legal move); every well-formed token off the legal set is refused.

Besides whole random games (none, one or both seats played by the device),
scripted positions test each power and its limits, and hand-built full
plants test the scoring, worked by hand. The oracle checks itself too:
re-rooting must keep the slots around every piece in cyclic order, and runs
found two ways must agree.

Positions are named as docs/games/pointsettia.md names them: ``root``; the root's child slots
``0 1 2``; every deeper slot its parent's name then ``l`` or ``r``.
"""

import json
import random
import re
from collections import Counter

import pytest

from engine.protocol import Session
from harness import OracleSession, Refused, refused

# ---- the rules, from RULINGS.md --------------------------------------------------
# "The stash is 4 of each size in r g w k. The root is a w3, standing, so 47
# pieces remain."
PIECES = [c + s for c in "rgwk" for s in "123"]
FULL_STASH = Counter({p: 4 for p in PIECES})
FULL_STASH["w3"] -= 1
SEAT_COLOUR = "gr"         # "Green moves first": seat 0 is Green, seat 1 Red
MAX_DEPTH = 4              # "No piece may be more than 4 from the root."
ROOT = "root"


def pips(piece):
    return int(piece[1])


def depth(name):
    return 0 if name == ROOT else len(name)


def parent(name):
    return ROOT if len(name) == 1 else name[:-1]


def children(name):
    """Child slots in clockwise order: the root's 0 1 2, a piece's l then r."""
    if name == ROOT:
        return ["0", "1", "2"]
    if len(name) >= MAX_DEPTH:
        return []
    return [name + "l", name + "r"]


def _preorder(name):
    yield name
    for c in children(name):
        yield from _preorder(c)


# every position, visited in order from the root (clockwise)
POSITIONS = list(_preorder(ROOT))
# "The circumference is the 24 leaves in clockwise order, found by visiting
# slots in order from the root."
LEAVES = [n for n in POSITIONS if depth(n) == MAX_DEPTH]
assert len(POSITIONS) == 46 and len(LEAVES) == 24


def ancestors(name):
    """From the parent up to the root."""
    out = []
    while name != ROOT:
        name = parent(name)
        out.append(name)
    return out


def reroot_name(name, i):
    """Where the piece at ``name`` goes when the root's child ``i`` becomes the
    root: C's left and right subtrees become the new root's slots 0 and 1,
    the old root its third child (slot 2), whose left and right are the old
    root's other children in clockwise order after C, so the circumference
    keeps its clockwise order."""
    c = str(i)
    if name == ROOT:
        return "2"
    if name[0] == c:
        if name == c:
            return ROOT
        return ("0" if name[1] == "l" else "1") + name[2:]
    if name[0] == str((i + 1) % 3):
        return "2l" + name[1:]
    return "2r" + name[1:]


TOKEN = re.compile(r"^([rgwk][123])@([012][lr]{0,3})(?:>([012][lr]{0,3})|(!))?$")


class Oracle:
    """A whole game of Pointsettia, by the rulings."""

    def __init__(self, bots=()):
        self.bots = sorted(bots)
        self.plant = {ROOT: "w3"}
        self.stash = Counter(FULL_STASH)
        self.turn = 0
        self.moves = 0
        self.last = None
        self._legal = None

    def copy(self):
        o = Oracle(self.bots)
        o.plant = dict(self.plant)
        o.stash = Counter(self.stash)
        o.turn = self.turn
        o.moves = self.moves
        o.last = self.last
        return o

    # -- moves --
    def full(self):
        return len(self.plant) == len(POSITIONS)

    def to_move(self):
        return "over" if self.full() else self.turn

    def empty_slots(self):
        return [n for n in POSITIONS
                if n not in self.plant and parent(n) in self.plant]

    def clear_targets(self, piece, slot):
        """Ancestors a clear ``piece`` played at ``slot`` may displace: not
        the root, at most its pips away."""
        return [a for a in ancestors(slot)[:pips(piece)] if a != ROOT]

    def black_allowed(self, piece, slot):
        if depth(slot) > pips(piece):
            return False
        plant = dict(self.plant)
        plant[slot] = piece
        return all(depth(reroot_name(n, int(slot[0]))) <= MAX_DEPTH for n in plant)

    def legal(self):
        """The legal tokens (kept until the next move: a set, not to be
        changed by the caller)."""
        if self._legal is None:
            self._legal = self._find_legal()
        return self._legal

    def _find_legal(self):
        if self.full():
            return set()
        out = set()
        slots = self.empty_slots()
        # whether re-rooting on each root child keeps every piece within 4
        # (P, in that branch, only comes nearer)
        reroot_ok = [all(depth(reroot_name(n, i)) <= MAX_DEPTH for n in self.plant)
                     for i in range(3)]
        for piece in PIECES:
            if not self.stash[piece]:
                continue
            for s in slots:
                out.add("%s@%s" % (piece, s))
                if piece[0] == "w":
                    for a in self.clear_targets(piece, s):
                        out.add("%s@%s>%s" % (piece, s, a))
                elif (piece[0] == "k" and depth(s) <= pips(piece)
                      and reroot_ok[int(s[0])]):
                    assert self.black_allowed(piece, s)
                    out.add("%s@%s!" % (piece, s))
        return out

    def apply(self, tok):
        m = TOKEN.match(tok)
        piece, slot, target, black = m.groups()
        assert self.stash[piece] > 0 and slot not in self.plant
        assert parent(slot) in self.plant
        self._legal = None
        self.stash[piece] -= 1
        self.plant[slot] = piece
        if target:
            self.clear_power(slot, target)
        if black:
            self.black_power(slot)
        self.turn = 1 - self.turn
        self.moves += 1
        self.last = tok

    def clear_power(self, slot, target):
        """"P takes A's position, and each piece on the path from A down to
        P's parent moves one position toward P's old place"; slots belong to
        positions, so children off the path stay where they are."""
        path = [target] + [slot[:k] for k in range(len(target) + 1, len(slot) + 1)]
        assert path[-1] == slot and target in ancestors(slot) and target != ROOT
        moved = [self.plant[n] for n in path]
        p = moved.pop()
        self.plant[path[0]] = p
        for n, q in zip(path[1:], moved):
            self.plant[n] = q

    def black_power(self, slot):
        """The root's child on the path to P becomes the root."""
        i = int(slot[0])
        new = {}
        for n, q in self.plant.items():
            m = reroot_name(n, i)
            assert depth(m) <= MAX_DEPTH
            new[m] = q
        self.plant = new

    # -- the end --
    def rim(self):
        """For each circumference position: (owner colour or None, the
        position of the piece scored)."""
        out = []
        for leaf in LEAVES:
            n = leaf
            # a clear leaf is scored through the first non-clear piece inward
            while self.plant[n][0] == "w" and n != ROOT:
                n = parent(n)
            colour = self.plant[n][0]
            out.append((colour, n) if colour in "rg" else (None, None))
        return out

    def runs(self):
        """Maximal runs of consecutive positions scoring for one player,
        wrapping around: (colour, start, length, value), by start; a run
        that wraps starts before the wrap, a run of all 24 at 0."""
        rim = self.rim()
        owners = [c for c, _ in rim]
        if len(set(owners)) == 1:
            starts = [0]
        else:
            starts = [i for i in range(24) if owners[i] != owners[i - 1]]
        out = []
        for k, st in enumerate(starts):
            end = starts[(k + 1) % len(starts)] if len(starts) > 1 else st + 24
            if end <= st:
                end += 24
            colour = owners[st]
            if colour is None:
                continue
            scored = set(rim[i % 24][1] for i in range(st, end))
            total = sum(pips(self.plant[n]) for n in scored)
            black_parent = sum(1 for n in scored
                               if n != ROOT and self.plant[parent(n)][0] == "k")
            out.append((colour, st, end - st,
                        max(0, total * (end - st - black_parent))))
        return out

    def scores(self):
        if not self.full():
            return [0, 0]
        runs = self.runs()
        return [sum(v for c, _, _, v in runs if c == SEAT_COLOUR[seat])
                for seat in (0, 1)]

    def rim_text(self):
        if not self.full():
            return None
        return "".join(c or "." for c, _ in self.rim())

    def expected_state(self):
        return {
            "game": "pointsettia",
            "to_move": self.to_move(),
            "plant": dict(self.plant),
            "stash": {p: self.stash[p] for p in PIECES},
            "rim": self.rim_text(),
            "scores": self.scores(),
            # docs: every run as [player, start, length, worth]
            "runs": ([[SEAT_COLOUR.index(c), st, n, v] for c, st, n, v in self.runs()]
                     if self.full() else None),
            "last": self.last,
            "bots": list(self.bots),
        }


def parse_legal(text):
    return set(text.split())


def bots_option(bots):
    """The ``bots=`` option for device-played seats (``to_move`` numbers
    them from 0; the option counts from 1)."""
    return "bots=" + ",".join(str(b + 1) for b in sorted(bots))


class Harness(OracleSession):
    """One engine session beside one oracle; every check of a position.
    ``log`` is the tokens played, for history and undo."""

    def __init__(self, seed, bots=(), auto=False, stats=None):
        super().__init__(seed, auto, stats)
        made = self.start("pointsettia", bots_option(bots) if bots else "", seed)
        self.o = Oracle(bots)
        self.follow(made)
        self.stats["games"] += 1

    def _apply(self, tok):
        legal = self.o.legal()
        assert tok in legal, (tok, sorted(legal), self.o.expected_state())
        self.stack.append(self.o.copy())
        if tok.endswith("!"):
            self.stats["black_powers"] += 1
        elif ">" in tok:
            self.stats["clear_powers"] += 1
        self.o.apply(tok)
        self.log.append(tok)

    def follow(self, toks):
        """Moves the session made by itself: the bot seats'."""
        for t in toks:
            assert self.o.to_move() in self.o.bots, (t, self.o.expected_state())
            self._apply(t)
            self.stats["bot_moves"] += 1
        if self.s.auto:
            assert self.o.to_move() not in self.o.bots, self.o.expected_state()

    def check_state(self):
        # every field the rulings and the doc name, and no other
        got = super().check_state(self.o.expected_state())
        self.stats["states"] += 1
        return got

    def check(self):
        o = self.o
        self.check_state()
        self.count_cases()
        assert self.ask("to_move") == str(o.to_move())
        assert self.ask("score") == " ".join(str(x) for x in o.scores())
        assert self.ask("history") == " ".join(self.log)
        legal = parse_legal(self.ask("legal"))
        exp = o.legal()
        assert legal == exp, (sorted(legal - exp), sorted(exp - legal))
        self.stats["steps"] += 1
        return legal

    def count_cases(self):
        """What came up, so that the tests can say the rare cases did."""
        o = self.o
        if o.plant[ROOT] != "w3":
            self.stats["re_rooted_steps"] += 1
        if o.full():
            rim = o.rim()
            if any(n == ROOT for _, n in rim):
                self.stats["root_scored"] += 1
            if any(n is not None and n != leaf for (_, n), leaf in zip(rim, LEAVES)):
                self.stats["clear_leaf_scored"] += 1
            runs = o.runs()
            if any(st + n > 24 for _, st, n, _ in runs):
                self.stats["wrapping_run"] += 1
            if any(v == 0 for *_, v in runs):
                self.stats["zero_run"] += 1
            return
        for s in o.empty_slots():
            for k in ("k1", "k2", "k3"):
                if o.stash[k] and depth(s) <= pips(k) and not o.black_allowed(k, s):
                    self.stats["black_past_4"] += 1
                    return

    def refuse(self, tok):
        """``play tok`` is refused and changes nothing."""
        self.refused("play " + tok)

    def undo(self):
        """Takes back the last move: the engine's position must be the
        oracle's from before it."""
        if not self.log:
            with pytest.raises(Refused):
                self.ask("undo")
            self.stats["undo_refused"] += 1
            return False
        assert self.ask("undo") == self.log[-1]
        self.log.pop()
        self.o = self.stack.pop()
        self.stats["undos"] += 1
        return True


# ---- how the test plays -------------------------------------------------------------
class Driver:
    """Random but seeded choices for a whole game. Uniform choice among the
    tokens favours the powers (a clear piece has several); some games lean
    to plain moves, some to powers, so both long-lived and reshuffled
    plants come up."""

    def __init__(self, rng):
        self.rng = rng
        self.p_power = rng.choice([None, 0.1, 0.5, 0.9])

    def move(self, h, legal):
        rng = self.rng
        pool = sorted(legal)
        if self.p_power is not None:
            powers = [t for t in pool if ">" in t or "!" in t]
            plain = [t for t in pool if t not in powers]
            if powers and (rng.random() < self.p_power or not plain):
                pool = powers
            else:
                pool = plain
        h.play(rng.choice(pool))


def bad_tokens(o, rng, k):
    """``k`` tokens the oracle considers illegal here, chosen to be near
    misses: a piece the stash lacks, an occupied or unreachable slot, an
    ancestor too far or the root, a black power the rulings forbid, a
    power on the wrong colour, malformed words."""
    legal = o.legal()
    slots = o.empty_slots()
    out = []
    names = POSITIONS[1:]
    for _ in range(40 * k):
        piece = rng.choice(PIECES)
        slot = rng.choice(slots if slots and rng.random() < 0.7 else names)
        kind = rng.randrange(6)
        if kind == 0:
            t = "%s@%s" % (piece, slot)
        elif kind == 1:
            t = "%s@%s>%s" % (piece, slot, rng.choice(ancestors(slot) + [slot]))
        elif kind == 2:
            t = "%s@%s!" % (piece, slot)
        elif kind == 3:
            t = "%s@%s>root" % ("w" + piece[1], slot)
        elif kind == 4:
            t = rng.choice(["%s@root" % piece, "%s@%sl" % (piece, rng.choice(LEAVES)),
                            "%s@3" % piece, "%s@0x" % piece, "x1@0", "%s" % piece,
                            "@0", "%s@" % piece, "%s@%s!!" % (piece, slot),
                            "%s@%s>%s!" % (piece, slot, parent(slot)),
                            "%s@%s >%s" % (piece, slot, parent(slot)),
                            piece.upper() + "@" + slot, "r4@0", "g0@1", "y1@0"])
        else:
            t = "%s@%s>%s" % (piece, slot, rng.choice(names))
        if t not in legal and t not in out:
            out.append(t)
            if len(out) == k:
                break
    return out


def probe(h, rng, k):
    """``k`` refused lines at this position: each answered ``?`` with a
    reason, and nothing changed."""
    before = [h.ask(c) for c in ("state", "legal", "history", "to_move", "score")]
    lines = ["play " + t for t in bad_tokens(h.o, rng, k)]
    lines.append(rng.choice(["play", "legal x", "state now", "to_move 1", "undo 2",
                             "sample"]))
    if not h.log:
        lines.append("undo")
    if rng.random() < 0.2:
        lines.append(rng.choice(["new pointsettia bots=3", "new pointsettia bots=1,1",
                                 "new pointsettia bots=x", "new pointsettia colour=1",
                                 "new pointsettia bots=1 bots=2"]))
    for line in lines:
        refused(h.s, line, look=None)
        h.stats["refusals"] += 1
    after = [h.ask(c) for c in ("state", "legal", "history", "to_move", "score")]
    assert after == before, lines


def check_show(h):
    """docs: `show` has one line per filled position and one per playable
    empty slot (`.`), indented by depth, in clockwise order."""
    o = h.o
    lines = h.ask("show").split("\n")
    names = set(POSITIONS)
    drawn = [ln.split() for ln in lines[1:] if ln.split() and ln.split()[0] in names]
    exp = [[n, o.plant[n] if n in o.plant else "."] for n in POSITIONS
           if n in o.plant or n in o.empty_slots()]
    assert [d[:2] for d in drawn] == exp, lines
    h.stats["shows"] += 1


def play_game(seed, bots=(), auto=False, p_undo=0.0, p_probe=0.0, p_check=1.0,
              stats=None):
    """One whole game; every step checked (or a share ``p_check`` of them,
    always the last); ``stats`` counts what came up."""
    rng = random.Random(seed * 7919 + 104729 * len(bots) + sum(bots))
    h = Harness(seed, bots, auto, stats)
    d = Driver(rng)
    for _ in range(2000):
        t = h.o.to_move()
        if t == "over" or rng.random() < p_check:
            legal = h.check()
        else:
            legal = h.o.legal()
        if p_probe and rng.random() < p_probe:
            probe(h, rng, 4)
        if t != "over" and rng.random() < 0.1:
            # `hint` names a legal move; `show` draws the plant
            assert h.ask("hint") in legal
            check_show(h)
        if p_undo and rng.random() < p_undo:
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                if h.undo():
                    h.check()
            legal = h.check()
            t = h.o.to_move()
        if t == "over":
            break
        if t in h.o.bots:
            # a bot's move taken back by undo waits (and a session without
            # automatic moves never plays one): `hint` names the bot's
            # choice, and it is played
            tok = h.ask("hint")
            assert tok in legal, (tok, legal)
            h.play(tok)
            continue
        d.move(h, legal)
    else:
        raise AssertionError("game %d did not end" % seed)
    o = h.o
    assert o.full() and o.moves == 45 and sum(o.stash.values()) == 2
    assert h.ask("legal") == "" and h.ask("hint") == "none"
    check_show(h)
    for line in ("play g1@0", "play w1@0lll", "sample"):
        refused(h.s, line, look=None)
    a, b = o.scores()
    h.stats["green_wins" if a > b else "red_wins" if b > a else "ties"] += 1
    h.stats["ended"] += 1
    return h


def scripted(h, toks):
    """Play ``toks``, checking every step."""
    for t in toks:
        h.check()
        h.play(t)
    return h.check()


def spec(text):
    """A plant written as ``position piece`` pairs."""
    words = text.split()
    return dict(zip(words[::2], words[1::2]))


def fill(h, pieces):
    """Plain moves putting ``pieces`` (position -> piece) into the plant,
    parents first, checking every step."""
    assert not set(pieces) & set(h.o.plant)
    for n in POSITIONS:
        if n in pieces:
            h.check()
            h.play("%s@%s" % (pieces[n], n))
    return h.check()


# ---- the oracle by itself --------------------------------------------------------
def test_the_plant_has_46_positions_and_24_on_the_rim():
    assert POSITIONS[:6] == ["root", "0", "0l", "0ll", "0lll", "0llr"]
    assert LEAVES[0] == "0lll" and LEAVES[-1] == "2rrr"
    assert LEAVES == sorted(LEAVES, key=lambda n: [("012lr".index(c)) for c in n])
    assert sum(FULL_STASH.values()) == 47


def test_the_oracle_on_the_docs_examples():
    # docs: `w3@1lrl>1` puts w3 at 1, g3 at 1l, r2 at 1lr, k1 at 1lrl
    o = Oracle()
    for t in ("g3@1", "r2@1l", "k1@1lr"):
        o.apply(t)
    assert "w2@1lrl>1" not in o.legal() and "w2@1lrl>1l" in o.legal()
    w2 = o.copy()
    w2.apply("w2@1lrl>1l")
    assert w2.plant == {ROOT: "w3", "1": "g3", "1l": "w2", "1lr": "r2", "1lrl": "k1"}
    o.apply("w3@1lrl>1")
    assert o.plant == {ROOT: "w3", "1": "w3", "1l": "g3", "1lr": "r2", "1lrl": "k1"}
    # docs: k2@1l! makes the piece at 1 the root; 1l to 0, 1r to 1, the old
    # root to 2, old 2 to 2l, old 0 to 2r
    o = Oracle()
    for t in ("g1@0", "g2@1", "r1@1r", "r2@2", "k2@1l!"):
        o.apply(t)
    assert o.plant == {ROOT: "g2", "0": "k2", "1": "r1", "2": "w3", "2l": "r2", "2r": "g1"}
    # docs: the run g2, w1 w1 (under g3), g1 under black: 6 x (4 - 1)
    o = Oracle()
    o.plant = {n: "k1" for n in POSITIONS}
    o.plant.update({ROOT: "w3", "0r": "r1", "0rl": "r1",
                    "0rlr": "g2", "0rr": "g3", "0rrl": "w1", "0rrr": "w1",
                    "1lll": "g1", "1ll": "k3"})
    assert o.runs() == [("g", 5, 4, 18)] and o.scores() == [18, 0]


def test_the_oracle_scores_one_run_of_all_24_and_runs_that_wrap():
    """Rulings: a run covering all 24 positions is one run of length 24;
    a piece scored in two separate runs counts in each. (Plants no stash
    could build: the oracle's own scoring, by itself.)"""
    o = Oracle()
    o.plant = {n: "g1" for n in POSITIONS}
    assert o.runs() == [("g", 0, 24, 24 * 24)]
    o.plant["1lll"] = "r3"
    assert o.runs() == [("r", 8, 1, 3), ("g", 9, 23, 23 * 23)]
    # a clear branch: every rim position under 0 scores the g3 at 0, which
    # is one piece in the run; the red at 1lll cuts 2rrr..0 from 1llr..
    o.plant.update({n: "w2" for n in POSITIONS if n[0] == "0" and len(n) > 1})
    o.plant["0"] = "g3"
    o.plant["2rrr"] = "r1"
    runs = o.runs()
    assert runs[0] == ("g", 0, 8, 3 * 8) and runs[-1] == ("r", 23, 1, 1), runs
    # black root: its children have a black parent, a clear path into it
    # scores nobody
    o.plant[ROOT] = "k1"
    o.plant["0"] = "w1"
    assert o.rim_text().startswith("........")
    o.plant["1"] = "g1"
    o.plant.update({n: "w1" for n in POSITIONS if n[0] == "1" and len(n) > 1})
    runs = o.runs()
    # the g1 at 1 (black parent) and the seven g1 leaves 2lll..2rrl
    assert runs[0] == ("g", 8, 15, 8 * (15 - 1)), runs


def neighbour_cycle(plant, name):
    """The slots around the piece at ``name`` in clockwise order: the
    root's three children; a branch's parent, left, right (``-`` for an
    empty slot, and for slots past distance 4, which cannot hold a piece)."""
    around = ([] if name == ROOT else [parent(name)]) + children(name)
    around += ["-"] * (3 - len(around))
    return [n if n in plant else "-" for n in around]


def same_cycle(a, b):
    return len(a) == len(b) and any(a[i:] + a[:i] == b for i in range(len(a)))


def test_the_oracle_re_roots_keeping_every_clockwise_order():
    """A second derivation of "everything keeps its clockwise order": in
    random plants, every black power the oracle allows leaves the slots
    around each piece in the same cyclic order (pieces followed by
    identity, empty slots as ``-``), and the pieces of the plant in the
    same cyclic order of a walk around it."""
    rng = random.Random(8)
    done = 0
    for g in range(60):
        o = Oracle()
        while not o.full():
            legal = sorted(o.legal())
            black = [t for t in legal if t.endswith("!")]
            if black and rng.random() < 0.5:
                tok = rng.choice(black)
                before = o.copy()
                o.apply(tok)
                slot = TOKEN.match(tok).group(2)
                i = int(slot[0])
                placed = dict(before.plant)
                placed[slot] = tok[:2]          # P placed, before its power
                old_of = {reroot_name(n, i): n for n in placed}
                assert set(old_of) == set(o.plant)
                old_of["-"] = "-"
                for m in o.plant:
                    n = old_of[m]
                    around = [old_of[x] for x in neighbour_cycle(o.plant, m)]
                    assert same_cycle(around, neighbour_cycle(placed, n)), (tok, m, n)
                done += 1
            else:
                o.apply(rng.choice(legal))
    assert done >= 50


def runs_by_growing(o):
    """Runs found a second way: grow each scoring position left and right
    while the owner stays the same (at most all 24), then keep each set
    once; the worth straight from the rulings' words."""
    rim = o.rim()
    found = {}
    for i, (c, _) in enumerate(rim):
        if c is None:
            continue
        members = {i}
        for step in (1, -1):
            j = i
            while len(members) < 24 and rim[(j + step) % 24][0] == c:
                j += step
                members.add(j % 24)
        pieces = {rim[k][1] for k in members}
        worth = sum(pips(o.plant[n]) for n in pieces) * (
            len(members) - len([n for n in pieces
                                if n != ROOT and o.plant[parent(n)].startswith("k")]))
        found[frozenset(members)] = (c, max(worth, 0))
    return sorted((c, sorted(m), w) for m, (c, w) in found.items())


def test_the_oracle_scores_runs_two_ways():
    """In random full plants the runs (and so the scores) come out the
    same by the oracle's walk from the run starts and by growing runs from
    every position."""
    rng = random.Random(9)
    for g in range(80):
        o = Oracle()
        while not o.full():
            o.apply(rng.choice(sorted(o.legal())))
        walk = sorted((c, sorted((st + k) % 24 for k in range(n)), v)
                      for c, st, n, v in o.runs())
        assert walk == runs_by_growing(o)
        assert sum(v for c, _, v in walk if c == "g") == o.scores()[0]


# ---- scripted positions: the powers and their limits ---------------------------------
def test_clear_power_swaps_with_the_parent_and_has_none_on_a_root_child():
    h = Harness(1)
    legal = h.check()
    # a clear piece on a root child: its only ancestor is the root
    assert not [t for t in legal if ">" in t]
    for bad in ("w3@0>root", "w1@0>0", "w2@1>1"):
        h.refuse(bad)
    legal = scripted(h, ["g1@0"])
    assert {t for t in legal if t.startswith("w1@0l")} == {"w1@0l", "w1@0l>0"}
    assert "w3@0l>root" not in legal
    h.refuse("w3@0l>root")
    legal = scripted(h, ["w1@0l>0"])
    assert h.o.plant == {ROOT: "w3", "0": "w1", "0l": "g1"}
    # a g or r piece has no power, a k no ancestor power
    for bad in ("g2@0r>0", "r2@0ll>0l", "k3@0ll>0l", "g1@1!", "w2@1!"):
        h.refuse(bad)


def test_clear_power_reach_is_the_pips_and_off_path_children_stay():
    """A path 1, 1l, 1lr and children off it (1r, 1ll, 1lrr): a w1 at 1lrl
    reaches 1lr, a w2 also 1l, a w3 also 1; the root never. The pieces on
    the path move one step down, the children off it keep their
    positions."""
    h = Harness(2)
    legal = scripted(h, ["g3@1", "r2@1l", "k1@1lr", "r3@1r", "g2@1ll", "k3@1lrr"])
    reach = {t for t in legal if t.startswith("w") and t.split("@")[1].startswith("1lrl")}
    assert reach == {"w1@1lrl", "w1@1lrl>1lr", "w2@1lrl", "w2@1lrl>1lr", "w2@1lrl>1l",
                     "w3@1lrl", "w3@1lrl>1lr", "w3@1lrl>1l", "w3@1lrl>1"}
    for bad in ("w1@1lrl>1l", "w2@1lrl>1", "w3@1lrl>root", "w3@1lrl>0", "w3@1lrl>1r",
                "w3@1lrl>1lrl", "w3@1lrl>2"):
        h.refuse(bad)
    before = h.o.copy()
    scripted(h, ["w3@1lrl>1"])
    assert h.o.plant == dict(before.plant, **{
        "1": "w3", "1l": "g3", "1lr": "r2", "1lrl": "k1",
        "1r": "r3", "1ll": "g2", "1lrr": "k3"})
    assert h.undo()
    h.check()
    scripted(h, ["w2@1lrl>1l"])
    assert h.o.plant["1"] == "g3" and h.o.plant["1l"] == "w2"
    assert h.o.plant["1lr"] == "r2" and h.o.plant["1lrl"] == "k1"


def test_black_power_reach_is_the_pips_from_the_root():
    h = Harness(3)
    legal = scripted(h, ["g3@1", "r2@1l", "g1@1lr"])
    black = {t for t in legal if t.endswith("!")}
    # distance 1: every k; 2 (1r): k2 and k3; 3 (1ll): k3; 4 (1lrl): none
    assert black == ({"k%d@%s!" % (k, s) for k in (1, 2, 3) for s in ("0", "2")}
                     | {"k2@1r!", "k3@1r!", "k3@1ll!"})
    assert "k3@1lrl" in legal
    for bad in ("k1@1r!", "k2@1ll!", "k3@1lrl!", "k3@1lrr!", "k1@1ll!"):
        h.refuse(bad)


def test_black_power_re_roots_keeping_the_clockwise_order():
    """Every root child's branch marked, then `k2@1l!`: C (at 1) becomes
    the root, its subtrees the new 0 and 1, the old root 2 with old 2 as
    2l and old 0 as 2r; the rim order is the old one turned, and later
    moves use the new names."""
    h = Harness(4)
    scripted(h, ["r1@0", "g2@1", "g1@2", "r3@0l", "w2@0r", "r2@1r", "w1@2r",
                 "k1@2rl", "g3@1rr", "k3@2l"])
    legal = scripted(h, ["k2@1l!"])
    assert h.o.plant == {ROOT: "g2", "0": "k2", "1": "r2", "1r": "g3", "2": "w3",
                         "2l": "g1", "2lr": "w1", "2lrl": "k1", "2ll": "k3",
                         "2r": "r1", "2rl": "r3", "2rr": "w2"}
    # the old root is an ordinary piece now: a clear piece may displace it
    assert {"w3@2lll", "w3@2lll>2ll", "w3@2lll>2l", "w3@2lll>2"} <= legal
    assert "g1@1l" in legal and "g1@2l" not in legal
    # the k1 now at 2lrl (distance 4) stops every black power outside
    # branch 2, and branch 2 has no empty slot a black piece reaches
    assert not [t for t in legal if t.endswith("!")]
    for bad in ("k2@0l!", "k3@0l!", "k3@1l!", "k3@2lll!", "k1@1l!"):
        h.refuse(bad)



def test_black_power_refused_past_distance_4():
    """A piece at distance 4 in branch 0 stops any black power in branches
    1 and 2 (it would end at 5), not in its own branch."""
    h = Harness(5)
    legal = scripted(h, ["g1@0", "g2@0l", "g3@0ll", "r1@1"])
    assert "k1@2!" in legal and "k2@1l!" in legal and "k3@0lr!" in legal
    legal = scripted(h, ["r2@0lll"])
    black = {t for t in legal if t.endswith("!")}
    assert black == {"k2@0r!", "k3@0r!", "k3@0lr!"}
    for bad in ("k1@2!", "k2@1l!", "k3@1r!", "k3@2!", "k3@0llr!"):
        h.refuse(bad)
    # re-rooting on branch 0 lifts it: 0lll comes to distance 3
    scripted(h, ["k3@0lr!"])
    assert h.o.plant == {ROOT: "g1", "0": "g2", "0l": "g3", "0ll": "r2", "0r": "k3",
                         "2": "w3", "2l": "r1"}
    # a second black power from the empty slot 1: a black root
    scripted(h, ["k1@1!"])
    assert h.o.plant == {ROOT: "k1", "2": "g1", "2l": "w3", "2ll": "r1",
                         "2r": "g2", "2rl": "g3", "2rll": "r2", "2rr": "k3"}


# ---- scoring on hand-built full plants ---------------------------------------------
PLANT_CLEAR_PATHS = spec("""
    0 w1  0l w2  0r g3  0ll w3  0lr k1  0rl r2  0rr w2
    0lll g1  0llr w1  0lrl w2  0lrr r1  0rll g1  0rlr r3  0rrl w3  0rrr g2
    1 k3  1l g2  1r r3  1ll k2  1lr g3  1rl w1  1rr k1
    1lll r2  1llr g1  1lrl g2  1lrr w2  1rll w3  1rlr r1  1rrl k3  1rrr r2
    2 k3  2l r1  2r k2  2ll g3  2lr r3  2rl g1  2rr k2
    2lll k3  2llr w1  2lrl r3  2lrr k1  2rll r1  2rlr k1  2rrl g3  2rrr g2""")


def end_state(h):
    got = json.loads(h.ask("state"))
    assert h.ask("to_move") == "over" and h.ask("legal") == ""
    return got


def test_scoring_clear_paths_wrapping_runs_and_black_parents():
    """Worked by hand: position 1 is a clear path to the clear root and 2 a
    clear leaf under black (nobody); 6 scores the g3 at 0r through w3 and
    w2; 22, 23, 0 wrap (g3 and g2 under black, g1: 6 x (3 - 2) = 6); the
    r1 at 3, r2 at 8 and at 15 each sit under black (runs worth exactly 0);
    9..11 score g1 (under black), g2 and, through w2, g3: 6 x (3 - 1) = 12;
    12..13 the r3 at 1 (under black) through w3, w1, and r1: 4 x 1 = 4."""
    h = Harness(20)
    fill(h, PLANT_CLEAR_PATHS)
    got = end_state(h)
    assert got["rim"] == "g..rgrggrgggrr.r.gr.r.gg"
    assert got["runs"] == [[1, 3, 1, 0], [0, 4, 1, 1], [1, 5, 1, 3], [0, 6, 2, 10],
                           [1, 8, 1, 0], [0, 9, 3, 12], [1, 12, 2, 4], [1, 15, 1, 0],
                           [0, 17, 1, 3], [1, 18, 1, 3], [1, 20, 1, 1], [0, 22, 3, 6]]
    assert got["scores"] == [32, 11] and h.ask("score") == "32 11"
    assert got["stash"] == dict({p: 0 for p in PIECES}, r2=1, k2=1)


PLANT_TIE = spec("""
    0 r1  0l g2  0r r2  0ll w1  0lr w2  0rl g3  0rr w2
    0lll w1  0llr r3  0lrl r1  0lrr w2  0rll w3  0rlr w3  0rrl r2  0rrr k2
    1 g1  1l k1  1r g3  1ll r3  1lr g2  1rl k2  1rr r1
    1lll g1  1llr r2  1lrl k1  1lrr k3  1rll r3  1rlr g2  1rrl k3  1rrr k2
    2 k3  2l g3  2r r2  2ll k1  2lr w1  2rl g1  2rr r3
    2lll g3  2llr k3  2lrl w2  2lrr k2  2rll k1  2rlr g2  2rrl w3  2rrr r1""")


def test_scoring_a_piece_in_two_runs_and_a_tie():
    """The g2 at 0l is scored at 0 (alone: 2) and again in 3..5 with the g3
    at 0rl, which two clear leaves score once: 5 x 3 = 15. 20 all: a tie."""
    h = Harness(21)
    fill(h, PLANT_TIE)
    got = end_state(h)
    assert got["rim"] == "grrgggr.gr..rg..g.g..grr"
    assert got["runs"][:4] == [[0, 0, 1, 2], [1, 1, 2, 8], [0, 3, 3, 15], [1, 6, 1, 2]]
    assert got["scores"] == [20, 20] and h.ask("score") == "20 20"


PLANT_GREEN_ROOT = spec("""
    1 r3  0l g2  0r r1  2l w2  2r r2
    1l r1  1r g1  0ll k1  0lr w1  0rl g1  0rr r2  2ll w1  2lr g3  2rl k3  2rr w3
    1ll k3  1lr k1  1rl r3  1rr k3  0lll r3  0llr g3  0lrl w3  0lrr w1
    0rll g2  0rlr r1  0rrl k3  0rrr g1  1lll k1  1llr r2  1lrl g1  1lrr r1
    1rll k2  1rlr g2  1rrl r3  1rrr k2
    2lll w1  2llr w2  2lrl k1  2lrr g3  2rll g2  2rlr k2  2rrl r2  2rrr w2""")


def test_scoring_a_clear_path_to_a_green_root():
    """`k2@1l!` makes the g3 at 1 the root. Rim 16 and 17 reach it through
    w1 w2 w3 (the old root): the root is scored, with no parent: 3 x 2.
    The k2 at 0 is a black parent for 0l, scored through w1 and w3 in the
    run 1..4 (7 x (4 - 2) = 14); 22, 23, 0 wrap for Red (r2, r2 through
    w2 w3, r3 under black: 7 x 2 = 14)."""
    h = Harness(22)
    scripted(h, ["g3@1", "k2@1l!"])
    assert h.o.plant == {ROOT: "g3", "0": "k2", "2": "w3"}
    fill(h, PLANT_GREEN_ROOT)
    got = end_state(h)
    assert got["rim"] == "rggggr.g.rgr.gr.gg.gg.rr"
    assert [0, 16, 2, 6] in got["runs"] and [0, 1, 4, 14] in got["runs"]
    assert got["runs"][-1] == [1, 22, 3, 14]
    assert got["scores"] == [28, 15]


PLANT_BLACK_ROOT = spec("""
    0 w1  1 r3  0l w2  0r g1  1l w3  1r k3  2ll w1  2lr r2  2rl g2  2rr r1
    0ll w1  0lr g2  0rl r2  0rr k3  1ll r1  1lr w2  1rl g3  1rr r3
    2lll w2  2llr w1  2lrl g1  2lrr k1  2rll r3  2rlr k2  2rrl g2  2rrr r2
    0lll w2  0llr g1  0lrl r1  0lrr k3  0rll g3  0rlr k1  0rrl r2  0rrr g2
    1lll k1  1llr k2  1lrl w3  1lrr g1  1rll k2  1rlr r1  1rrl g3  1rrr r3""")


def test_scoring_under_a_black_root():
    """Two black powers leave a k1 root with the g3 (the first new root) at
    2. A clear path into the black root (rim 0) scores nobody; the r3 at 1,
    reached through w3 w2 w3, has a black parent: 3 x (1 - 1) = 0; the g3
    at 2 through w1 w3 with g1: 4 x (3 - 1) = 8."""
    h = Harness(23)
    scripted(h, ["g3@1", "k2@1l!", "k1@1!"])
    assert h.o.plant == {ROOT: "k1", "2": "g3", "2l": "w3", "2r": "k2"}
    fill(h, PLANT_BLACK_ROOT)
    got = end_state(h)
    assert got["rim"] == ".gr.g.rg..rg.rgrggg.r.gr"
    assert [1, 10, 1, 0] in got["runs"] and [0, 16, 3, 8] in got["runs"]
    assert got["scores"] == [18, 10]


# ---- whole games ----------------------------------------------------------------------
def test_random_games_match_the_rulings():
    """Whole games, every step checked against the oracle, to the end."""
    stats = Counter()
    for g in range(30):
        play_game(100 + g, stats=stats)
    assert stats["ended"] == 30
    assert stats["clear_powers"] >= 100 and stats["black_powers"] >= 20, stats
    assert stats["black_past_4"] >= 5 and stats["re_rooted_steps"] >= 100, stats


def test_many_full_plants_score_as_the_rulings_say():
    """Full plants built quickly by random play (a few steps checked on the
    way, the end always): every rim, run and total as the oracle's."""
    stats = Counter()
    for g in range(100):
        play_game(1000 + g, p_check=0.05, stats=stats)
    assert stats["ended"] == 100
    assert stats["green_wins"] and stats["red_wins"], stats
    for case in ("root_scored", "clear_leaf_scored", "wrapping_run", "zero_run"):
        assert stats[case] >= 3, (case, stats)


def test_undo_restores_the_position_before_the_move():
    stats = Counter()
    for g in range(3):
        play_game(300 + g, p_undo=0.15, stats=stats)
    assert stats["undos"] > 10, stats


def test_moves_off_the_legal_set_are_refused_and_change_nothing():
    stats = Counter()
    for g in range(2):
        play_game(900 + g, p_probe=0.3, p_check=0.5, stats=stats)
    assert stats["refusals"] > 50, stats


@pytest.mark.parametrize("bots", [(0,), (1,), (0, 1)])
def test_bot_games_follow_the_rulings(bots):
    """The device plays the bot seats: each of its moves must be legal at a
    bot's turn, and everything after as the rulings say."""
    stats = Counter()
    for g in range(2):
        play_game(500 + g, bots, auto=True, p_undo=0.05 if g else 0.0, stats=stats)
    play_game(510, bots, auto=False, stats=stats)
    assert stats["ended"] == 3
    assert stats["bot_moves"] >= 20, stats


def test_options():
    """`bots` counts seats from 1 (`to_move`'s seat plus one) or names
    their colours, in either order; bad values are refused and leave the
    game in play as it was."""
    s = Session(7, auto=False)
    assert s.handle("new pointsettia seed=7") == "= pointsettia seed=7\n\n"
    assert json.loads(s.handle("state")[2:]) == Oracle().expected_state()
    for opt, seats in (("bots=2", [1]), ("bots=1", [0]), ("bots=2,1", [0, 1]),
                       ("bots=1,2", [0, 1]), ("bots=green", [0]), ("bots=red", [1]),
                       ("bots=red,1", [0, 1])):
        assert s.handle("new pointsettia seed=7 " + opt).startswith("= pointsettia seed=7")
        assert json.loads(s.handle("state")[2:]) == Oracle(seats).expected_state()
    assert s.handle("play g1@0").startswith("= g1@0")
    before = s.handle("state")
    for bad in ("bots=0", "bots=3", "bots=1,1", "bots=green,1", "bots=-1", "bots=",
                "bots=1,2,3", "players=3", "bots=1 bots=2", "bots=blue"):
        assert s.handle("new pointsettia " + bad).startswith("? "), bad
        assert s.handle("state") == before, bad


@pytest.mark.bench
def test_a_long_sweep_of_random_and_bot_games():
    """`make bench`: 300 games checked at every step (a quarter with
    refusals and undo), 1000 full plants built quickly, and bot games from
    each seat and bot against bot."""
    stats = Counter()
    for g in range(300):
        play_game(20000 + g, p_undo=0.05 if g % 4 == 1 else 0.0,
                  p_probe=0.1 if g % 4 == 2 else 0.0, stats=stats)
    for g in range(1000):
        play_game(40000 + g, p_check=0.02, stats=stats)
    for bots in ((0,), (1,), (0, 1)):
        for g in range(15):
            play_game(60000 + g, bots, auto=g % 3 != 2, p_undo=0.05 if g % 3 == 1 else 0.0,
                      stats=stats)
    print("pointsettia oracle sweep:", dict(sorted(stats.items())))
    assert stats["ended"] == 300 + 1000 + 45
    for case in ("root_scored", "wrapping_run", "zero_run", "black_past_4", "ties"):
        assert stats[case] >= 5, (case, stats)


def every_token():
    """Every well-formed move token: each piece into each slot, plain, with
    a black power, and onto each ancestor (the root included)."""
    out = []
    for piece in PIECES:
        for s in POSITIONS[1:]:
            out.append("%s@%s" % (piece, s))
            out.append("%s@%s!" % (piece, s))
            out += ["%s@%s>%s" % (piece, s, a) for a in ancestors(s)]
    return out


def test_every_token_off_the_legal_set_is_refused():
    """At positions along random games (a fresh one, mid-game after powers,
    one slot from full): every well-formed token the oracle does not list is
    refused, and the position is the same after all of them."""
    tokens = every_token()
    rng = random.Random(31)
    stats = Counter()
    for g, stops in ((0, (0, 7, 20)), (1, (12, 33, 44)), (2, (45,))):
        h = Harness(700 + g, stats=stats)
        d = Driver(rng)
        while True:
            legal = h.check()
            if h.o.moves in stops:
                before = h.ask("state")
                for t in tokens:
                    if t not in legal:
                        refused(h.s, "play " + t, look=None)
                        h.stats["refusals"] += 1
                assert h.ask("state") == before and h.ask("history") == " ".join(h.log)
            if h.o.full():
                break
            d.move(h, legal)
    assert stats["refusals"] > 15000, stats
