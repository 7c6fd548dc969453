"""Bag of Ice, whole games, against a second implementation written here
from the project rulings ("Notation", "Bag of Ice"), the seed
(seeds/bag-of-ice.txt) where the rulings leave a point to it, and the
protocol as docs/protocol.md and docs/games/bag-of-ice.md describe it
(options, tokens, the odds listed at chance nodes, the ``state`` fields).
No engine module of the game is read or imported: the engine is driven
only through ``engine.protocol.Session``, as an outside checker would.

At every step the oracle predicts, and the engine must answer:

* who is to move (``to_move``, and ``to_move`` inside ``state``);
* ``legal``: at a player's turn the exact set of moves, at a chance node
  the exact outcomes with their exact odds (the die's available faces,
  shared equally; the bag's pieces of the size, weighted by count; the
  roll-off's faces);
* the whole ``state`` object, field for field (scores, phase, whose turn,
  the face, the pieces drawn this turn, the bag, the value of stopping by
  a brute force over every partition into trees, the odds of one more
  draw, the winner, the turns completed, the bot seats);
* ``score`` and ``history`` (the last 24 tokens).

Chance nodes are passed by ``sample`` (which must name one of the listed
outcomes) or by playing an outcome the test chooses, so red draws, long
turns that empty a size down to its red, and roll-off ties come up often.
"""

import json
import random
from collections import Counter
from fractions import Fraction
from functools import lru_cache

import pytest

from engine.protocol import Session
from harness import OracleSession, Refused, parse_odds, refused

# ---- the rules, from RULINGS.md -------------------------------------------------
# "The bag holds 21 pyramids" (Notation: colour letter, then size digit)
FULL_BAG = Counter("r3 y3 g3 c3 p3 "
                   "r2 y2 p2 c2 c2 g2 g2 "
                   "r1 y1 y1 g1 g1 c1 c1 p1 p1".split())
# "The pyramid die has faces S M L SM SL ML, each with probability 1/6."
FACES = {"S": (1,), "M": (2,), "L": (3,), "SM": (1, 2), "SL": (1, 3), "ML": (2, 3)}
# the roll-off counts the pip total of a face: a piece's pips equal its size
PIPS = {f: sum(sz) for f, sz in FACES.items()}
# "An all-yellow or all-purple tree is worth 20; an all-cyan or all-green
# tree 15; any other tree 10."
TREE = {"y": 20, "p": 20, "c": 15, "g": 15}
# docs: `bag` lists larges, mediums, smalls, each in the order r y g c p
BAG_ORDER = [c + s for s in "321" for c in "rygcp"]
HISTORY_KEPT = 24          # docs: "up to 24 actions are kept"
MOVES = {"draw", "stop", "size1", "size2", "size3"}


def size(tok):
    return int(tok[1])


@lru_cache(maxsize=None)
def best_value(pieces):
    """The best arrangement of ``pieces`` (a sorted tuple of tokens), by
    brute force: the first large either stays a leftover or makes a tree
    with every medium and every small in turn; leftovers score their pips."""
    larges = [p for p in pieces if p[1] == "3"]
    if not larges:
        return sum(size(p) for p in pieces)
    lg = larges[0]
    rest = list(pieces)
    rest.remove(lg)
    best = 3 + best_value(tuple(rest))
    for m in sorted(set(p for p in rest if p[1] == "2")):
        for s in sorted(set(p for p in rest if p[1] == "1")):
            r2 = list(rest)
            r2.remove(m)
            r2.remove(s)
            one = lg[0] == m[0] == s[0]
            tree = TREE.get(lg[0], 10) if one else 10
            best = max(best, tree + best_value(tuple(r2)))
    return best


def value(drawn):
    return best_value(tuple(sorted(drawn)))


def size_left(bag, sz):
    return sum(n for t, n in bag.items() if size(t) == sz)


def available_faces(bag):
    """A face none of whose sizes has a pyramid left is rolled again: the
    others share its chance."""
    return [f for f, sz in FACES.items() if any(size_left(bag, s) for s in sz)]


def odds(drawn, bag):
    """(bust_odds, expected_gain) of one more roll and draw, as the docs
    define them: faces equally likely among the available ones; on a
    two-size face the lower bust chance, and (separately) the higher
    expected gain; a red loses the turn's value, any other piece adds the
    change of the best value."""
    v = value(drawn)
    bust, gain = {}, {}
    for s in (1, 2, 3):
        n = size_left(bag, s)
        if not n:
            continue
        b = g = Fraction(0)
        for t, k in bag.items():
            if size(t) != s or not k:
                continue
            if t[0] == "r":
                b += Fraction(k, n)
                g += Fraction(k * -v, n)
            else:
                g += Fraction(k * (value(drawn + [t]) - v), n)
        bust[s], gain[s] = b, g
    faces = available_faces(bag)
    tb = sum(min(bust[s] for s in FACES[f] if s in bust) for f in faces)
    tg = sum(max(gain[s] for s in FACES[f] if s in gain) for f in faces)
    return tb / len(faces), tg / len(faces)


def frac(x):
    return "%d/%d" % (x.numerator, x.denominator)


class Oracle:
    """A whole game of Bag of Ice, by the rulings."""

    def __init__(self, players, target, bots=()):
        self.n = players
        self.target = target
        self.bots = sorted(bots)
        self.scores = [0] * players
        self.bag = Counter(FULL_BAG)
        self.drawn = []
        self.face = None
        self.size = None
        self.winner = -1
        self.turns = 0
        if players == 1:
            # docs, Decision: one player, no roll-off
            self.phase, self.turn = "decide", 0
            self.contenders = None
        else:
            # "the highest pip total wins, and only the tied players roll
            # again" (in seat order)
            self.phase = "rolloff"
            self.contenders = list(range(players))
            self.rolled = {}
            self.turn = 0

    def copy(self):
        o = Oracle.__new__(Oracle)
        o.__dict__.update(self.__dict__)
        o.scores = list(self.scores)
        o.bag = Counter(self.bag)
        o.drawn = list(self.drawn)
        if self.contenders is not None:
            o.contenders = list(self.contenders)
            o.rolled = dict(self.rolled)
        return o

    # -- what is asked ---------------------------------------------------------
    def to_move(self):
        if self.phase == "done":
            return "over"
        if self.phase in ("rolloff", "roll", "draw"):
            return "chance"
        return self.turn

    def legal(self):
        """Moves as a set, or chance outcomes as {token: Fraction}."""
        ph = self.phase
        if ph == "done":
            return set()
        if ph == "rolloff":
            return {f: Fraction(1, 6) for f in FACES}
        if ph == "roll":
            faces = available_faces(self.bag)
            return {f: Fraction(1, len(faces)) for f in faces}
        if ph == "draw":
            n = size_left(self.bag, self.size)
            return {t: Fraction(k, n) for t, k in self.bag.items()
                    if k and size(t) == self.size}
        if ph == "choose":
            return {"size%d" % s for s in FACES[self.face] if size_left(self.bag, s)}
        # decide: "a turn starts with draw" (docs, Decision); stop once drawn
        return {"draw", "stop"} if self.drawn else {"draw"}

    def expected_state(self):
        b, g = odds(self.drawn, self.bag)
        return {
            "game": "bag_of_ice",
            "to_move": self.to_move(),
            "scores": list(self.scores),
            "phase": self.phase,
            "turn": self.turn,
            "target": self.target,
            "face": self.face,
            "drawn": list(self.drawn),
            "bag": [t for t in BAG_ORDER for _ in range(self.bag[t])],
            "turn_points": value(self.drawn),
            "bust_odds": frac(b),
            "expected_gain": frac(g),
            "winner": self.winner,
            "turns": self.turns,
            "bots": list(self.bots),
        }

    # -- what happens ----------------------------------------------------------
    def apply(self, tok):
        ph = self.phase
        if ph == "rolloff":
            self.rolled[self.turn] = PIPS[tok]
            self.face = tok
            i = self.contenders.index(self.turn)
            if i + 1 < len(self.contenders):
                self.turn = self.contenders[i + 1]
                return
            top = max(self.rolled.values())
            tied = [p for p in self.contenders if self.rolled[p] == top]
            if len(tied) == 1:
                self.contenders = None
                self.turn = tied[0]
                self._open_turn()
            else:
                self.contenders, self.rolled = tied, {}
                self.turn = tied[0]
        elif ph == "decide":
            if tok == "draw":
                self.phase = "roll"
            else:                                   # stop: bank the best arrangement
                self.scores[self.turn] += value(self.drawn)
                self.turns += 1
                if self.scores[self.turn] >= self.target:
                    # "The first player to reach the target wins at once."
                    self.winner = self.turn
                    self.phase = "done"
                    self._return_pieces()
                else:
                    self._next_player()
        elif ph == "roll":
            self.face = tok
            left = [s for s in FACES[tok] if size_left(self.bag, s)]
            if len(left) == 1:                      # one size, or only one left
                self.size = left[0]
                self.phase = "draw"
            else:
                self.phase = "choose"
        elif ph == "choose":
            self.size = int(tok[4])
            self.phase = "draw"
        elif ph == "draw":
            self.bag[tok] -= 1
            if tok[0] == "r":                       # a red busts: nothing scored
                self.turns += 1
                self._next_player()
            else:
                self.drawn.append(tok)
                self.phase = "decide"
                self.face = self.size = None
        else:
            raise AssertionError("no action after the end")

    def _return_pieces(self):
        # "Between turns every drawn pyramid goes back into the bag."
        self.bag = Counter(FULL_BAG)
        self.drawn = []
        self.face = self.size = None

    def _open_turn(self):
        self.phase = "decide"
        self.face = self.size = None

    def _next_player(self):
        self._return_pieces()
        self.turn = (self.turn + 1) % self.n
        self._open_turn()


# ---- the checker --------------------------------------------------------------------
def parse_legal(text):
    """``legal`` -> a set of moves or {token: Fraction}; odds in lowest terms."""
    words = text.split()
    assert len(words) == len(set(words)), text
    if words and ":" in words[0]:
        return dict(parse_odds(words))
    assert all(":" not in w for w in words), text
    return set(words)


class Harness(OracleSession):
    """One engine session beside one oracle; every check of a position.
    ``log`` is the tokens the engine keeps for history and undo."""

    def __init__(self, seed, players, target, bots=(), auto=False, stats=None):
        super().__init__(seed, auto, stats)
        opts = "players=%d target=%d" % (players, target)
        if bots:
            opts += " bots=" + ",".join(str(b + 1) for b in bots)
        made = self.start("bag_of_ice", opts, seed)
        self.o = Oracle(players, target, bots)
        self.follow(made)
        self.stats["games"] += 1

    def _apply(self, tok):
        legal = self.o.legal()
        assert tok in legal, (tok, legal, self.o.expected_state())
        if tok in MOVES:
            self.stack.append(self.o.copy())
        ph = self.o.phase
        if ph == "draw" and len(legal) == 1:
            self.stats["last_of_a_size"] += 1      # e.g. r3:1/1
        if ph == "draw" and tok[0] == "r":
            self.stats["busts"] += 1
        if tok == "stop":
            self.stats["stops"] += 1
        self.o.apply(tok)
        if ph == "rolloff" and self.o.phase == "rolloff" and not self.o.rolled:
            self.stats["rolloff_ties"] += 1
        self.log.append(tok)
        del self.log[:-HISTORY_KEPT]

    def follow(self, toks):
        """Moves the session made by itself after a command: the bot seats'.
        Each is one of the oracle's legal moves at a bot's turn; the session
        stops at a chance node, a person's turn or the end."""
        for t in toks:
            assert self.o.to_move() in self.o.bots, (t, self.o.expected_state())
            assert t in MOVES, t
            self._apply(t)
            self.stats["bot_moves"] += 1
        if self.s.auto:
            assert self.o.to_move() not in self.o.bots, self.o.expected_state()

    def check(self):
        o = self.o
        exp = o.expected_state()
        self.check_state(exp)
        assert self.ask("to_move") == str(o.to_move())
        assert self.ask("score") == " ".join(str(x) for x in o.scores)
        assert self.ask("history") == " ".join(self.log)
        legal = parse_legal(self.ask("legal"))
        assert legal == o.legal(), (legal, o.legal(), exp)
        self.stats["steps"] += 1
        if isinstance(legal, dict):
            self.stats["chance_nodes"] += 1
        return legal

    def can_undo(self):
        return any(t in MOVES for t in self.log)

    def undo(self):
        """Takes back the last move and the outcomes after it: the engine's
        position must be the oracle's from before that move."""
        if not self.can_undo():
            with pytest.raises(Refused):
                self.ask("undo")
            self.stats["undo_refused"] += 1
            if self.log:        # outcomes whose move fell out of the kept 24
                self.stats["undo_refused_with_history"] += 1
            return False
        i = max(k for k, t in enumerate(self.log) if t in MOVES)
        assert self.ask("undo") == self.log[i]
        self.log = self.log[:i]
        self.o = self.stack.pop()
        self.stats["undos"] += 1
        return True


# ---- how the test plays -------------------------------------------------------------
class Driver:
    """Random but seeded choices for a whole game."""

    def __init__(self, rng):
        self.rng = rng
        self.p_sample = rng.choice([0.0, 0.3, 0.6, 1.0])
        self.p_stop = rng.choice([0.1, 0.2, 0.35, 0.5])
        self.p_hot = rng.choice([0.0, 0.5, 0.9])      # a chosen draw avoids red
        # some games play long turns: no stop before this many pieces, and
        # (chosen) draws that avoid red, down to a size's last pyramid
        self.min_len = rng.choice([0, 0, 0, 10, 18])
        if self.min_len:
            self.p_hot, self.p_sample = 1.0, 0.0
        # chosen roll-off faces from a narrow set, so that ties are common
        # (SM and L both have 3 pips)
        self.rolloff_faces = rng.choice([["SM", "L"], ["ML", "SL"], list(FACES), ["S"]])

    def chance(self, h, legal):
        rng = self.rng
        if rng.random() < self.p_sample:
            h.sample()
            return
        if h.o.phase == "rolloff":
            # mostly the narrow set (ties), sometimes any face (an end)
            pool = self.rolloff_faces if rng.random() < 0.7 else sorted(legal)
        else:
            pool = sorted(legal)
            if h.o.phase == "draw":
                safe = [t for t in pool if t[0] != "r"]
            else:       # the die: a face that can still give a non-red
                safe = [f for f in pool if any(
                    h.o.bag[t] for t in h.o.bag if t[0] != "r" and size(t) in FACES[f])]
            if safe and rng.random() < self.p_hot:
                pool = safe
        h.play(rng.choice(pool))

    def move(self, h, legal):
        rng = self.rng
        if len(h.o.drawn) < self.min_len and "draw" in legal:
            h.play("draw")
        elif "stop" in legal and rng.random() < (
                0.5 if self.min_len else self.p_stop + 0.03 * len(h.o.drawn)):
            h.play("stop")
        else:
            pool = sorted(legal)
            if h.o.phase == "choose" and rng.random() < self.p_hot:
                # a size that still has a non-red pyramid, if one does
                safe = [m for m in pool if any(
                    h.o.bag[t] for t in h.o.bag if t[0] != "r" and size(t) == int(m[4]))]
                pool = safe or pool
            h.play(rng.choice(pool))


# tokens to try where they are not legal: every move, face and piece of the
# notation's colours (red to black), and malformed words
PROBES = (sorted(MOVES) + list(FACES)
          + [c + s for c in "roygcbpwk" for s in "123"]
          + ["Draw", "STOP", "size0", "size4", "size", "sizeS", "y4", "y0",
             "3y", "yy", "MS", "LS", "LM", "SS", "SML", "roll", "return", "r3,y3",
             "y2:1/7", "-", "=y1", "1", "quit", "done"])


def probe(h, rng, k):
    """``k`` refused lines at this position: each answered ``?`` with a
    reason, and nothing changed (state, legal and history the same)."""
    before = [h.ask(c) for c in ("state", "legal", "history", "to_move", "score")]
    legal = h.o.legal()
    bad = [t for t in PROBES if t not in legal]
    lines = ["play " + t for t in rng.sample(bad, min(k, len(bad)))]
    lines += [rng.choice(["play", "play draw stop", "play y1 y1", "legal x",
                          "state now", "to_move 1", "undo 2"])]
    if h.o.to_move() != "chance":
        lines.append("sample")          # not a chance node
    if not h.can_undo():
        lines.append("undo")            # nothing to undo
    if rng.random() < 0.2:
        # a bad `new` leaves the game in play as it was
        lines.append(rng.choice(["new bag_of_ice players=13", "new bag_of_ice players=0",
                                 "new bag_of_ice target=0", "new bag_of_ice target=1000",
                                 "new bag_of_ice players=3 bots=4",
                                 "new bag_of_ice bots=1,1", "new bag_of_ice colour=5",
                                 "new bag_of_ice players=2 players=3"]))
    for line in lines:
        refused(h.s, line, look=None)
        h.stats["refusals"] += 1
    after = [h.ask(c) for c in ("state", "legal", "history", "to_move", "score")]
    assert after == before, lines


def play_game(seed, players, target, bots=(), auto=False, p_undo=0.0, p_probe=0.0,
              stats=None, max_steps=6000):
    """One whole game, checked at every step; ``stats`` counts what came up."""
    rng = random.Random(seed * 7919 + players * 104729 + target)
    h = Harness(seed, players, target, bots, auto, stats)
    d = Driver(rng)
    if p_undo:
        h.undo()                # refused but in a bot's practice game
    for _ in range(max_steps):
        legal = h.check()
        if p_probe and rng.random() < p_probe:
            probe(h, rng, 4)
        if p_undo and rng.random() < p_undo:
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                if h.undo():
                    h.check()
            legal = h.check()
        t = h.o.to_move()
        if t in h.o.bots and h.s.auto:
            # the session does not replay a bot's move that was taken
            # back: the bot's own choice is asked with `hint` and played
            tok = h.ask("hint")
            assert tok in legal, (tok, legal)
            h.play(tok)
            continue
        if t == "over":
            break
        if t == "chance":
            d.chance(h, legal)
        else:
            d.move(h, legal)
    else:
        raise AssertionError("game %d did not end in %d steps" % (seed, max_steps))
    # the end: nothing is legal, nothing can be played or sampled
    o = h.o
    assert o.winner >= 0 and o.scores[o.winner] >= target
    assert all(sc < target for i, sc in enumerate(o.scores) if i != o.winner)
    assert h.ask("legal") == ""
    for line in ("play draw", "play stop", "sample", "play S", "play y1"):
        refused(h.s, line, look=None)
    h.check()
    h.stats["won"] += 1
    return h


# ---- the oracle against the worked examples of the rules and docs ----------------
def test_the_oracle_scores_the_worked_examples():
    # seed: "20 points for the yellow tree, 10 points for the mixed tree,
    # and 2 points for the spare smalls, for 32 points in total"
    assert value("y3 y2 y1 c3 g2 p1 y1 c1".split()) == 32
    assert value("y3 y2 y1 c3 g2 y1 p1 c1".split()) == 32
    # docs: 13 pips + 4 x 2 trees + 10 (yellow) = 31
    assert value("y3 y2 y1 c3 g2 p1 y1".split()) == 31
    # every non-red pyramid: y, p, g, c trees (20+20+15+15), then a
    # medium of cyan and green and a small of each colour left over
    every = [t for t in FULL_BAG.elements() if t[0] != "r"]
    assert value(every) == 20 + 20 + 15 + 15 + 2 * 2 + 4 * 1
    # docs: the odds at the start of a turn, and after y3 y2
    assert odds([], FULL_BAG) == (Fraction(43, 315), Fraction(1814, 945))
    bag = FULL_BAG - Counter(["y3", "y2"])
    assert odds(["y3", "y2"], bag) == (Fraction(11, 72), Fraction(127, 36))
    # a face whose sizes are all gone is rolled again (not reachable with
    # the standard bag, whose reds stay until a bust): the others share it
    no_smalls = Counter({t: k for t, k in FULL_BAG.items() if t[1] != "1"})
    assert available_faces(no_smalls) == ["M", "L", "SM", "SL", "ML"]


# ---- whole games --------------------------------------------------------------------
GAMES = [  # players, target, games
    (1, 20, 10), (1, 60, 4),
    (2, 1, 3), (2, 10, 12), (2, 30, 8), (2, 60, 4),
    (3, 25, 8), (3, 60, 3),
    (5, 15, 6), (5, 40, 3),
    (12, 12, 3), (12, 30, 2),
]


# the random games and the count of their rare cases share one worker, so
# that the count reads the games' figures rather than playing them again
@pytest.mark.xdist_group("bag_of_ice_games")
@pytest.mark.parametrize("players,target,games", GAMES)
def test_random_games_match_the_rulings(players, target, games):
    """Whole games with ``sample`` and chosen outcomes mixed, checked at
    every step against the oracle, to the win."""
    run_games(players, target, games)


_RUN = {}


def run_games(players, target, games):
    """The figures of these games (played once per test process)."""
    key = (players, target, games)
    if key not in _RUN:
        stats = Counter()
        for g in range(games):
            play_game(1000 * players + target * 31 + g, players, target, stats=stats)
        assert stats["won"] == games
        assert stats["busts"] and stats["stops"], stats
        _RUN[key] = stats
    return _RUN[key]


@pytest.mark.xdist_group("bag_of_ice_games")
def test_the_random_games_reach_the_rare_cases():
    """Across the games above: roll-off ties, and a size drawn down to its
    last pyramid (its red, at odds 1/1)."""
    stats = Counter()
    for players, target, games in GAMES:
        stats.update(run_games(players, target, games))
    assert stats["rolloff_ties"] >= 10 and stats["last_of_a_size"] >= 1, stats


def scripted(h, toks):
    """Play ``toks`` (moves and chosen outcomes), checking every step."""
    for t in toks:
        h.check()
        h.play(t)
    return h.check()


def draw_toks(piece, face=None):
    """One draw of ``piece``: the move, a face showing its size (``face``,
    or the one-size face), the size if the face shows two, the piece."""
    f = face or "SML"[size(piece) - 1]
    out = ["draw", f]
    if len(FACES[f]) == 2:
        out.append("size%d" % size(piece))
    return out + [piece]


def test_a_turn_drawn_down_to_the_reds():
    """Three players, target 60: player 1 wins the roll-off after a
    three-way tie, draws all 18 non-red pyramids (two-size faces among
    the rolls), then each die face can only give a red, at odds 1/1: a
    bust; player 2 does the same and stops at 78, winning mid-round, so
    player 3 never plays. Every step is checked against the oracle."""
    h = Harness(11, 3, 60)
    scripted(h, ["ML", "ML", "ML", "SL", "S", "M"])     # tie, then player 1
    assert h.o.turn == 0
    non_red = [t for t in BAG_ORDER for _ in range(FULL_BAG[t]) if t[0] != "r"]
    two = {1: "SM", 2: "ML", 3: "SL"}
    for i, t in enumerate(non_red):
        scripted(h, draw_toks(t, two[size(t)] if i % 2 else None))
    assert h.o.drawn == non_red and value(h.o.drawn) == 78
    assert h.o.expected_state()["bust_odds"] == "1/1"
    legal = scripted(h, ["draw", "SL"])
    assert legal == {"size1", "size3"}
    legal = scripted(h, ["size3"])
    assert legal == {"r3": 1}
    scripted(h, ["r3"])
    assert h.o.turn == 1 and h.o.scores == [0, 0, 0] and h.o.turns == 1
    for t in non_red:
        scripted(h, draw_toks(t))
    scripted(h, ["stop"])
    assert h.o.phase == "done" and h.o.winner == 1 and h.o.scores == [0, 78, 0]
    assert h.ask("to_move") == "over" and h.ask("legal") == ""


def test_every_large_drawn_leaves_only_the_red_large():
    """Two players: the four non-red larges drawn, then L draws the red
    for sure; on SL/ML both sizes are still offered (the red large is
    still in the bag) and size3 again gives r3 at 1/1."""
    h = Harness(12, 2, 60)
    scripted(h, ["S", "L"])
    assert h.o.turn == 1
    for t in ("y3", "g3", "c3", "p3"):
        scripted(h, draw_toks(t))
    assert scripted(h, ["draw", "L"]) == {"r3": 1}
    assert scripted(h, ["r3"]) == {"draw"}
    assert h.o.turn == 0 and h.o.turns == 1
    assert h.undo()                     # back to the roll of L
    assert h.check() == {"draw", "stop"}
    assert scripted(h, ["draw", "ML"]) == {"size2", "size3"}
    assert scripted(h, ["size3"]) == {"r3": 1}


def test_reaching_the_target_exactly_wins_at_once():
    """Target 5, three players: player 1 stops at 4 (short), player 2
    busts, player 3 reaches exactly 5 and wins at once: player 1 does not
    get another turn in that round or any other."""
    h = Harness(14, 3, 5)
    scripted(h, ["L", "S", "S"])
    scripted(h, draw_toks("y3") + draw_toks("p1") + ["stop"])
    assert h.o.scores == [4, 0, 0] and h.o.turn == 1
    scripted(h, draw_toks("g2") + draw_toks("r1"))
    assert h.o.scores == [4, 0, 0] and h.o.turn == 2 and h.o.turns == 2
    scripted(h, draw_toks("y3") + draw_toks("y2", "ML") + ["stop"])
    assert h.o.scores == [4, 0, 5] and h.o.winner == 2 and h.o.turns == 3
    assert h.ask("to_move") == "over"


def test_defaults_and_one_player_practice():
    """Without options: three players, target 60, the roll-off first. One
    player: no roll-off, player 1 draws at once; turns count busts and
    stops until the target."""
    s = Session(21, auto=False)
    assert s.handle("new bag_of_ice seed=21") == "= bag_of_ice seed=21\n\n"
    got = json.loads(s.handle("state")[2:])
    assert got == Oracle(3, 60).expected_state()
    h = Harness(22, 1, 8)
    assert h.check() == {"draw"}
    scripted(h, draw_toks("c1") + draw_toks("r2", "SM"))
    scripted(h, draw_toks("c3") + draw_toks("c2") + ["stop"])
    assert h.o.scores == [5] and h.o.turns == 2 and h.o.turn == 0
    scripted(h, draw_toks("g3") + ["stop"])
    assert h.o.winner == 0 and h.o.turns == 3 and h.ask("score") == "8"


def test_twelve_players_roll_off_ties():
    """Twelve players: all tie, then only the tied roll again, in seat
    order, until one is highest (SM and L both count 3 pips)."""
    h = Harness(13, 12, 30)
    scripted(h, ["ML"] * 12)                                    # all tie at 5
    assert h.o.contenders == list(range(12)) and h.o.turn == 0
    scripted(h, ["SM", "L", "S", "M", "L", "SM", "S", "S", "M", "L", "S", "M"])
    assert h.o.contenders == [0, 1, 4, 5, 9] and h.o.turn == 0
    assert h.ask("state").count('"face":"M"') == 1              # the last roll shows
    scripted(h, ["SL", "S", "SL", "M", "L"])
    assert h.o.contenders == [0, 4] and h.o.turn == 0
    scripted(h, ["S", "M"])
    assert h.o.phase == "decide" and h.o.turn == 4


BOT_GAMES = [  # players, target, bot seats (from 0)
    (1, 30, (0,)), (2, 60, (1,)), (2, 40, (0,)), (3, 50, (0, 2)),
    (5, 30, (0, 1, 2, 3, 4)), (12, 20, (1, 4, 11)), (2, 60, (0, 1)),
]


@pytest.mark.parametrize("players,target,bots", BOT_GAMES)
def test_bot_games_follow_the_rulings(players, target, bots):
    """The device plays the bot seats (a session with automatic moves):
    each bot move must be legal at a bot's turn, and everything that
    follows from it must be as the rulings say."""
    stats = Counter()
    for g in range(3):
        play_game(500 + 17 * g + players, players, target, bots, auto=True,
                  p_undo=0.03 if g == 2 else 0.0, stats=stats)
    assert stats["bot_moves"] > 10, stats
    assert stats["won"] == 3


@pytest.mark.parametrize("players", [1, 2, 3, 5, 12])
def test_undo_restores_the_position_before_the_move(players):
    """``undo`` at random points, sometimes several in a row, past the
    start of a turn, after a bust or a win: each time the engine's position
    is the oracle's from before the move taken back (and ``undo`` is
    refused where the kept history holds no move)."""
    stats = Counter()
    for g in range(4):
        play_game(300 + g * 13 + players, players, 20 + 5 * g, p_undo=0.12, stats=stats)
    assert stats["undos"] > 20 and stats["undo_refused"] >= 4, stats


@pytest.mark.parametrize("players", [1, 2, 3, 5, 12])
def test_moves_off_the_legal_set_are_refused_and_change_nothing(players):
    """At random points of whole games: moves, faces and pieces not in the
    oracle's legal set, malformed tokens, moves out of turn, ``sample`` at
    a player's turn, bad ``new`` options. Each is refused with ``?`` and
    the position, its legal list and history stay exactly as they were."""
    stats = Counter()
    for g in range(3):
        play_game(900 + g * 11 + players, players, 15 + 10 * g, p_probe=0.25,
                  stats=stats)
    assert stats["refusals"] > 50, stats


def test_refusals_leave_the_random_generator_alone():
    """Two sessions with the same seed, one of them sent refused lines
    between its samples, sample the same outcomes."""
    rng = random.Random(5)
    a = Harness(77, 3, 30)
    b = Harness(77, 3, 30)
    for _ in range(300):
        if a.o.to_move() == "over":
            break
        legal = a.check()
        probe(a, rng, 3)
        if a.o.to_move() == "chance":
            assert a.sample() == b.sample()
        else:
            tok = sorted(legal)[rng.randrange(len(legal))]
            a.play(tok)
            b.play(tok)
    assert a.ask("state") == b.ask("state") and a.ask("history") == b.ask("history")
