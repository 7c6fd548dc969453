"""Ice Stalks, whole games, against a second implementation written here
from the project rulings ("Notation", "Ice Stalks"), the seed
(seeds/ice-stalks.txt) for its worked examples, and the protocol as
docs/protocol.md and docs/games/ice-stalks.md describe it (options,
tokens, the odds listed at a draw, the ``state`` fields). No engine
module of the game is read or imported: the engine is driven only through
``engine.protocol.Session``, as an outside checker would.

At every step the oracle predicts, and the engine must answer:

* who is to move (``to_move``, and ``to_move`` inside ``state``);
* ``legal``: at a player's turn the exact placements in the doc's order,
  at a draw the colours left in the bag with their exact odds, in rainbow
  order;
* the whole ``state`` object, field for field (the drawn rock, the bag per
  colour, the standing stalks in order, each player's collection in the
  order collected, the scores);
* ``score`` and ``history``;
* ``hint``, and every move of a device-played seat: the placement the
  doc's bot rule gives (recomputed here from the doc's "The bot").

Draws are passed by ``sample`` (which must name one of the listed colours)
or by playing a colour the test chooses, so long rainbows, colours drawn
out, additions refused because a stalk could no longer be completed, and
forced new bases that can never be completed come up often.
"""

import json
import re
import random
from collections import Counter
from fractions import Fraction

import pytest

from engine.protocol import Session
from harness import OracleSession, Refused, parse_odds, refused, state_diff

# ---- the rules, from the rulings ----------------------------------------------------
# "Rainbow order (Ice Stalks): r o y g c b p"; "The rainbow does not wrap"
RAINBOW = "roygcbp"
ROCKS_PER_COLOUR = 5           # "five of each colour", 35 rocks in all
TOTAL_ROCKS = ROCKS_PER_COLOUR * len(RAINBOW)
ALL_SEVEN_BONUS = 15
SEVEN_HIGH = 10


def idx(colour):
    return RAINBOW.index(colour)


def colour_at(i):
    """The colour at rainbow position ``i``, or None past either end."""
    return RAINBOW[i] if 0 <= i < len(RAINBOW) else None


def stack(stalk):
    """A stalk (list of pieces) in stack notation, bottom to top."""
    return "".join(stalk)


def kind(stalk):
    """None for a base alone; "solid" or ("rainbow", direction) once the
    second piece fixed it: direction +1 toward p, -1 toward r."""
    if len(stalk) < 2:
        return None
    if stalk[1][0] == stalk[0][0]:
        return "solid"
    return idx(stalk[1][0]) - idx(stalk[0][0])


def completable(kind_, top, bag):
    """Whether a stalk of ``kind_`` whose top is now ``top`` can still be
    completed with the rocks in ``bag`` (the rulings: each stalk alone)."""
    colour, size = top[0], int(top[1])
    if size == 1:
        return True                         # a small completes it
    if kind_ == "solid":
        # "a solid stalk whose top is a medium of colour c needs at least
        # one rock of c"
        return bag[colour] >= 1
    # "a rainbow stalk whose top has size s needs each of the next s-1
    # colours in its direction to exist and to have at least one rock left"
    for k in range(1, size):
        nxt = colour_at(idx(colour) + kind_ * k)
        if nxt is None or bag[nxt] < 1:
            return False
    return True


def additions_by_shape(stalk, colour):
    """The pieces of ``colour`` the placement rules allow on ``stalk``,
    each with the stalk kind it then has, before completability."""
    top = stalk[-1]
    tc, ts = top[0], int(top[1])
    k = kind(stalk)
    out = []
    if k is None:
        # "A stalk that is only a base may go either way"
        if colour == tc:
            out.append((colour + str(ts - 1), "solid"))
        elif abs(idx(colour) - idx(tc)) == 1:
            d = idx(colour) - idx(tc)
            out += [(colour + str(s), d) for s in (ts, ts - 1)]
    elif k == "solid":
        if colour == tc:
            out.append((colour + str(ts - 1), "solid"))
    else:
        if colour_at(idx(tc) + k) == colour:
            out += [(colour + str(s), k) for s in (ts, ts - 1) if s >= 1]
    return out


def stalk_additions(stalk, colour, bag):
    """(legal pieces, pieces refused only because the stalk could then no
    longer be completed)."""
    ok, refused = [], []
    for piece, k in additions_by_shape(stalk, colour):
        (ok if completable(k, piece, bag) else refused).append(piece)
    return ok, refused


def hopeless(colour, bag):
    """Whether a new base of ``colour`` can never be completed, whatever
    is drawn: no two rocks of its colour left for a solid, and in each
    direction the next two colours do not both exist with a rock left."""
    if bag[colour] >= 2:
        return False
    for d in (-1, 1):
        a, b = colour_at(idx(colour) + d), colour_at(idx(colour) + 2 * d)
        if a and b and bag[a] and bag[b]:
            return False
    return True


def stalk_points(st):
    """A collected stalk's points: solid 1; rainbow its height, 10 at 7."""
    pieces = [st[i:i + 2] for i in range(0, len(st), 2)]
    if pieces[1][0] == pieces[0][0]:
        return 1
    return SEVEN_HIGH if len(pieces) == 7 else len(pieces)


def is_solid(st):
    return st[0] == st[2]


def collection_points(coll):
    pts = sum(stalk_points(st) for st in coll)
    if {st[0] for st in coll if is_solid(st)} == set(RAINBOW):
        pts += ALL_SEVEN_BONUS
    return pts


def parse_move(tok):
    """``g2@3`` -> ("g2", 2) (0-based stalk), ``g3@new`` -> ("g3", None)."""
    piece, where = tok.split("@")
    return piece, (None if where == "new" else int(where) - 1)


class Oracle:
    """A whole game of Ice Stalks, by the rulings."""

    def __init__(self, players, bots=()):
        self.n = players
        self.bots = sorted(bots)
        self.bag = Counter({c: ROCKS_PER_COLOUR for c in RAINBOW})
        self.rock = None            # the drawn colour waiting to be placed
        self.turn = 0               # "Seat 0 moves first"
        self.stalks = []            # lists of pieces, oldest base first
        self.collected = [[] for _ in range(players)]
        self.placed = 0

    def copy(self):
        o = Oracle.__new__(Oracle)
        o.__dict__.update(self.__dict__)
        o.bag = Counter(self.bag)
        o.stalks = [list(st) for st in self.stalks]
        o.collected = [list(c) for c in self.collected]
        o.bots = list(self.bots)
        return o

    # -- what is asked ---------------------------------------------------------
    def over(self):
        # "The game ends after the 35th placement."
        return self.placed == TOTAL_ROCKS

    def to_move(self):
        if self.over():
            return "over"
        if self.rock is None:
            return "chance"
        return self.turn

    def scores(self):
        return [collection_points(c) for c in self.collected]

    def additions(self):
        """Every legal addition as a token, in the doc's order (stalk 1
        first, the larger piece first on one stalk), and the count of
        additions refused only for completability (for the statistics)."""
        # "While a drawn rock waits to be placed, it is out of the bag"
        out, refused = [], 0
        for i, st in enumerate(self.stalks):
            ok, no = stalk_additions(st, self.rock, self.bag)
            out += ["%s@%d" % (p, i + 1) for p in sorted(ok, reverse=True)]
            refused += len(no)
        return out, refused

    def legal(self):
        """Moves as a list in the doc's order, or draws as a list of
        (colour, Fraction) in rainbow order."""
        t = self.to_move()
        if t == "over":
            return []
        if t == "chance":
            left = sum(self.bag.values())
            return [(c, Fraction(self.bag[c], left)) for c in RAINBOW if self.bag[c]]
        adds, _ = self.additions()
        # "If any legal addition exists, the player must make one"
        return adds or [self.rock + "3@new"]

    def legal_tokens(self):
        return [t if isinstance(t, str) else t[0] for t in self.legal()]

    def winners(self):
        """Empty until the end; then every seat with the highest score
        (docs: "equal highest scores share the win")."""
        if not self.over():
            return []
        sc = self.scores()
        return [i for i, x in enumerate(sc) if x == max(sc)]

    def expected_state(self):
        return {
            "game": "ice_stalks",
            "to_move": self.to_move(),
            "scores": self.scores(),
            "players": self.n,
            "rock": self.rock,
            "bag": {c: self.bag[c] for c in RAINBOW},
            "stalks": [stack(st) for st in self.stalks],
            "collected": [list(c) for c in self.collected],
            # docs: the seat drawing or placing now (after the end, the
            # seat that would be next), pieces placed, bot seats, winners
            "turn": self.turn,
            "placed": self.placed,
            "bots": list(self.bots),
            "winners": self.winners(),
        }

    # -- what happens ----------------------------------------------------------
    def apply(self, tok):
        if self.rock is None:               # a draw
            assert self.bag[tok] > 0, tok
            self.bag[tok] -= 1
            self.rock = tok
            return
        piece, where = parse_move(tok)
        if where is None:
            self.stalks.append([piece])
        elif piece[1] == "1":
            # "A small completes its stalk. The player who placed it
            # collects the stalk."
            st = self.stalks.pop(where)
            self.collected[self.turn].append(stack(st + [piece]))
        else:
            self.stalks[where].append(piece)
        self.rock = None
        self.placed += 1
        self.turn = (self.turn + 1) % self.n


# ---- the bot, as the game doc's "The bot" section defines it -------------------------
def bot_gain(stalk, colour, coll):
    """Quarter points of completing ``stalk`` (as it stands) with a small
    of ``colour``, for a player holding ``coll``: a solid 4, 64 when it is
    the seventh solid colour, 6 for another new colour; a rainbow that
    becomes h high 4h, 40 at 7."""
    if kind(stalk) == "solid":
        held = {st[0] for st in coll if is_solid(st)}
        if colour in held:
            return 4
        return 64 if len(held) == 6 else 6
    h = len(stalk) + 1
    return 40 if h == 7 else 4 * h


def bot_openings(stalks, coll):
    """{colour: the largest gain for a player holding ``coll``} over the
    standing stalks of two or more pieces whose top is a medium."""
    best = {}
    for st in stalks:
        k = kind(st)
        if k is None or st[-1][1] != "2":
            continue
        c = st[-1][0] if k == "solid" else colour_at(idx(st[-1][0]) + k)
        if c is None:
            continue
        best[c] = max(best.get(c, 0), bot_gain(st, c, coll))
    return best


def bot_choice(o):
    """The placement the doc's bot plays for the seat to place: the only
    legal one, else the highest ``own x total - risk`` (``own`` when the
    bag is empty), the first in legal order on equal scores."""
    legal = o.legal_tokens()
    if len(legal) == 1:
        return legal[0]
    me, nxt = o.turn, (o.turn + 1) % o.n
    total = sum(o.bag.values())
    best = None
    for tok in legal:
        piece, where = parse_move(tok)
        table = [list(st) for st in o.stalks]
        own = 0
        if where is None:
            table.append([piece])
        elif piece[1] == "1":
            own = bot_gain(table[where], piece[0], o.collected[me])
            del table[where]
        else:
            table[where].append(piece)
        if total:
            opens = bot_openings(table, o.collected[nxt])
            score = own * total - sum(o.bag[c] * g for c, g in opens.items())
        else:
            score = own
        if best is None or score > best[0]:
            best = (score, tok)
    return best[1]


# ---- the oracle on the seed's worked examples -------------------------------------
def bag_without(**drawn):
    bag = Counter({c: ROCKS_PER_COLOUR for c in RAINBOW})
    for c, k in drawn.items():
        bag[c] -= k
    return bag


def test_the_oracle_follows_the_seeds_examples():
    full = bag_without()
    # "a green medium piece may be placed on top a green large base, but
    # never on top of another green medium piece or a green small piece";
    # on a blue (c) or yellow large, or a medium of them
    assert stalk_additions(["g3"], "g", bag_without(g=1))[0] == ["g2"]
    assert stalk_additions(["g3", "g2"], "g", bag_without(g=2))[0] == ["g1"]
    assert "g2" in stalk_additions(["c3"], "g", bag_without(g=1))[0]
    assert "g2" in stalk_additions(["y3"], "g", bag_without(g=1))[0]
    assert "g2" in stalk_additions(["r3", "o3", "y2"], "g", bag_without(g=1))[0]
    # red medium on red large: only a red small; no yellow, no orange
    assert stalk_additions(["r3", "r2"], "r", full)[0] == ["r1"]
    assert stalk_additions(["r3", "r2"], "o", full) == ([], [])
    # a green large on a blue (c) large base: only yellow may follow
    assert stalk_additions(["c3", "g3"], "y", full)[0] == ["y3", "y2"]
    assert stalk_additions(["c3", "g3"], "c", full) == ([], [])
    assert stalk_additions(["c3", "g3"], "g", full) == ([], [])
    # blue (c) large base, indigo (b) drawn: b3 cannot be completed, b2 can
    assert stalk_additions(["c3"], "b", bag_without(b=1)) == (["b2"], ["b3"])
    # all yellows drawn, indigo (b) base, blue (c) drawn: c2 only
    assert stalk_additions(["b3"], "c", bag_without(y=5, c=1)) == (["c2"], ["c3"])
    # the final rock of a colour cannot make a medium on its large base
    assert stalk_additions(["o3"], "o", bag_without(o=5)) == ([], ["o2"])
    assert stalk_additions(["o3"], "o", bag_without(o=4))[0] == ["o2"]
    # no wrap: p has no neighbour above, r none below
    assert stalk_additions(["p3"], "r", full) == ([], [])
    assert stalk_additions(["b3"], "p", full) == ([], ["p3", "p2"])
    assert stalk_additions(["o3"], "r", full) == ([], ["r3", "r2"])
    assert stalk_additions(["o3", "r2"], "r", full) == ([], [])
    # a 7-high rainbow, and the scores
    assert stalk_points("r3o3y3g3c3b2p1") == 10
    assert stalk_points("p3b3c2g1") == 4 and stalk_points("g3g2g1") == 1
    seven = ["%s3%s2%s1" % (c, c, c) for c in RAINBOW]
    assert collection_points(seven) == 7 + 15
    assert collection_points(seven[:6] + ["p3b2c1"]) == 6 + 3


# ---- the checker --------------------------------------------------------------------
def parse_legal(text):
    """``legal`` -> a list of moves or of (token, Fraction), in the order
    given; odds in lowest terms."""
    words = text.split()
    assert len(words) == len(set(words)), text
    if words and ":" in words[0]:
        return parse_odds(words)
    assert all(":" not in w for w in words), text
    return words


def is_move(tok):
    return "@" in tok


class Harness(OracleSession):
    """One engine session beside one oracle; every check of a position."""

    def __init__(self, seed, players, bots=(), auto=False, stats=None,
                 options=None):
        super().__init__(seed, auto, stats)
        if options is None:
            options = "players=%d" % players
            if bots:
                options += " bots=" + ",".join(str(b + 1) for b in bots)
        made = self.start("ice_stalks", options, seed)
        assert made == [], made            # the first draw waits
        self.o = Oracle(players, bots)

    def _apply(self, tok):
        o = self.o
        legal = o.legal_tokens()
        assert tok in legal, (tok, legal, o.expected_state())
        st = self.stats
        if is_move(tok):
            self.stack.append(o.copy())
            adds, refused = o.additions()
            if refused:
                st["refused_for_completion"] += 1
            piece, where = parse_move(tok)
            if where is None:
                st["new_bases"] += 1
                if o.stalks:
                    st["new_base_beside_stalks"] += 1
                if hopeless(piece[0], o.bag):
                    st["new_base_hopeless"] += 1
            elif piece[1] == "1":
                got = stack(o.stalks[where] + [piece])
                st["completed"] += 1
                if is_solid(got):
                    st["solid"] += 1
                else:
                    st["rainbow_%d" % (len(got) // 2)] += 1
                    d = idx(got[2]) - idx(got[0])
                    st["rainbow_up" if d > 0 else "rainbow_down"] += 1
            if len(legal) > 1:
                st["choices"] += 1
        o.apply(tok)
        self.log.append(tok)

    def follow(self, toks):
        """Moves the session made by itself after a command: the bot
        seats'. Each is one of the oracle's legal moves at a bot's turn;
        the session stops at a draw or a person's turn or the end."""
        # a session made with auto=False plays nothing by itself
        assert self.s.auto or not toks, toks
        for t in toks:
            assert self.o.to_move() in self.o.bots, (t, self.o.expected_state())
            assert is_move(t), t
            assert t == bot_choice(self.o), (t, bot_choice(self.o))
            self._apply(t)
            self.stats["bot_moves"] += 1
        if self.s.auto:
            assert self.o.to_move() not in self.o.bots, self.o.expected_state()

    def check(self):
        o = self.o
        exp = o.expected_state()
        raw = self.ask("state")
        got = json.loads(raw)
        # docs: the bag's seven keys, "written in rainbow order on a desktop"
        bag = re.search(r'"bag":(\{[^}]*\})', raw).group(1)
        assert "".join(re.findall(r'"(\w)":', bag)) == RAINBOW, raw
        assert got == exp, state_diff(got, exp)
        assert self.ask("to_move") == str(o.to_move())
        assert self.ask("score") == " ".join(str(x) for x in o.scores())
        assert self.ask("history") == " ".join(self.log)
        legal = parse_legal(self.ask("legal"))
        assert legal == o.legal(), (legal, o.legal(), exp)
        hint = self.ask("hint")
        if o.to_move() in ("chance", "over"):
            assert hint == "none", hint
        else:
            assert hint == bot_choice(o), (hint, bot_choice(o), exp)
            self.stats["hints"] += 1
            if len(o.legal()) > 1:
                self.stats["hints_with_a_choice"] += 1
        assert self.ask("show")         # a picture, whatever it shows
        self.stats["steps"] += 1
        return o.legal_tokens()

    def can_undo(self):
        return any(is_move(t) for t in self.log)

    def undo(self):
        """Takes back the last move and the draw after it: the engine's
        position must be the oracle's from before that move."""
        if not self.can_undo():
            with pytest.raises(Refused):
                self.ask("undo")
            self.stats["undo_refused"] += 1
            return False
        i = max(k for k, t in enumerate(self.log) if is_move(t))
        assert self.ask("undo") == self.log[i]
        self.log = self.log[:i]
        self.o = self.stack.pop()
        self.stats["undos"] += 1
        return True


# ---- how the test plays -------------------------------------------------------------
class Driver:
    """Random but seeded choices for a whole game: draws sampled or chosen
    (chosen draws often favour the colour that grows a rainbow, or drain
    one colour), placements uniform or favouring tall rainbows."""

    def __init__(self, rng):
        self.rng = rng
        self.p_sample = rng.choice([0.0, 0.3, 0.7, 1.0])
        self.p_grow = rng.choice([0.0, 0.5, 0.8])     # a chosen draw grows a rainbow
        self.p_tall = rng.choice([0.0, 0.6, 0.9])     # a placement keeps the size
        self.p_drain = rng.choice([0.0, 0.3])         # a chosen draw repeats the last

    def chance(self, h, legal):
        rng = self.rng
        if rng.random() < self.p_sample:
            h.sample()
            return
        pool = sorted(legal)
        o = h.o
        if rng.random() < self.p_grow:
            grow = []
            for st in o.stalks:
                k = kind(st)
                top = st[-1]
                if isinstance(k, int):
                    grow.append(colour_at(idx(top[0]) + k))
                elif k is None:
                    grow += [colour_at(idx(top[0]) + d) for d in (-1, 1)]
            grow = [c for c in grow if c in legal]
            if grow:
                pool = grow
        elif self.p_drain and rng.random() < self.p_drain and h.log:
            last = [t for t in h.log if not is_move(t)][-1]
            if last in legal:
                pool = [last]
        h.play(rng.choice(pool))

    def move(self, h, legal):
        rng = self.rng
        pool = sorted(legal)
        if rng.random() < self.p_tall:
            tall = []
            for t in pool:
                piece, where = parse_move(t)
                if where is not None and o_top_size(h.o, where) == int(piece[1]):
                    tall.append(t)
            pool = tall or pool
        h.play(rng.choice(pool))


def o_top_size(o, where):
    return int(o.stalks[where][-1][1])


# tokens to try where they are not legal: every piece of the notation's
# colours on stalks 1..8 and new, the colours as draws, malformed words
def probe_tokens(o):
    toks = [c + s + "@" + w for c in "roygcbpwk" for s in "123"
            for w in ["new"] + [str(i) for i in range(1, len(o.stalks) + 3)]]
    toks += list("roygcbpwk")
    toks += ["draw", "g2", "g2@", "@1", "g2@0", "g2@-1", "g4@1", "g0@1", "G2@1",
             "g2@NEW", "g2@1@2", "gg@1", "2g@1", "g@1", "g:1/7", "-", "g3@new1",
             "sample", "1", "r3r2", "pass"]
    return toks


def probe(h, rng, k):
    """``k`` refused lines at this position: each answered ``?`` with a
    reason, and nothing changed (state, legal and history the same)."""
    cmds = ("state", "legal", "history", "to_move", "score")
    before = [h.ask(c) for c in cmds]
    legal = h.o.legal_tokens()
    bad = [t for t in probe_tokens(h.o) if t not in legal]
    lines = ["play " + t for t in rng.sample(bad, min(k, len(bad)))]
    # a legal placement spelt another way: the docs' stalk number is
    # "decimal, no leading zero" (ASCII digits, as every token)
    for t in legal:
        if is_move(t) and not t.endswith("@new"):
            piece, n = t.split("@")
            wide = "".join(chr(0xFF10 + int(d)) for d in n)
            lines += ["play %s@%s" % (piece, v) for v in ("0" + n, "+" + n, wide)]
            break
    lines += [rng.choice(["play", "play g g", "legal x", "state now",
                          "to_move 1", "undo 2", "score 0"])]
    if h.o.to_move() != "chance":
        lines.append("sample")          # not a chance node
    if not h.can_undo():
        lines.append("undo")            # nothing to undo
    if rng.random() < 0.3:
        # a bad `new` leaves the game in play as it was
        lines.append(rng.choice([
            "new ice_stalks players=1", "new ice_stalks players=5",
            "new ice_stalks players=0", "new ice_stalks players=x",
            "new ice_stalks players=3 bots=4", "new ice_stalks bots=0",
            "new ice_stalks bots=1,1", "new ice_stalks colour=5",
            "new ice_stalks players=2 players=3", "new ice_stalks bots=3",
            "new ice_stalks players=+3", "new ice_stalks players=\uff13",
            "new ice_stalks bots=\uff11", "new ice_stalks players=03"]))
    for line in lines:
        refused(h.s, line, look=None)
        h.stats["refusals"] += 1
    after = [h.ask(c) for c in cmds]
    assert after == before, lines


def finish(h):
    """The end: nothing is legal, nothing can be played or sampled, the
    35 rocks are all placed, every piece is accounted for."""
    o = h.o
    assert o.over() and sum(o.bag.values()) == 0 and o.rock is None
    pieces = "".join(stack(st) for st in o.stalks) + "".join(
        "".join(c) for c in o.collected)
    assert len(pieces) == 2 * TOTAL_ROCKS
    assert Counter(pieces[::2]) == Counter({c: ROCKS_PER_COLOUR for c in RAINBOW})
    assert h.ask("legal") == ""
    assert h.ask("to_move") == "over"
    for line in ("play r3@new", "play r", "sample", "play g2@1"):
        refused(h.s, line, look=None)
    h.check()
    h.stats["games"] += 1
    if len(o.winners()) > 1:
        h.stats["shared_win"] += 1


def play_game(seed, players, bots=(), auto=False, p_undo=0.0, p_probe=0.0,
              stats=None, options=None):
    """One whole game, checked at every step; ``stats`` counts what came up."""
    rng = random.Random(seed * 7919 + players * 104729)
    h = Harness(seed, players, bots, auto, stats, options)
    d = Driver(rng)
    if p_undo:
        h.undo()                # nothing to undo yet: refused
    for _ in range(400):
        legal = h.check()
        if p_probe and rng.random() < p_probe:
            probe(h, rng, 4)
        if p_undo and rng.random() < p_undo:
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                if h.undo():
                    h.check()
            legal = h.check()
        t = h.o.to_move()
        if t == "over":
            break
        if t in h.o.bots:
            # after an undo the bot seat waits, and without automatic play
            # it always does: its move is asked with `hint` and played
            tok = h.ask("hint")
            assert tok in legal, (tok, legal)
            h.play(tok)
            continue
        if t == "chance":
            d.chance(h, legal)
        else:
            d.move(h, legal)
    else:
        raise AssertionError("game %d did not end" % seed)
    finish(h)
    return h


# ---- whole games --------------------------------------------------------------------
GAMES = [(2, 14), (3, 10), (4, 10)]      # players, games


# the random games and the count of their rare cases share one worker, so
# that the count reads the games' figures rather than playing them again
@pytest.mark.xdist_group("ice_stalks_games")
@pytest.mark.parametrize("players,games", GAMES)
def test_random_games_match_the_rulings(players, games):
    """Whole games with ``sample`` and chosen draws mixed, checked at every
    step against the oracle, to the end."""
    run_games(players, games)


_RUN = {}


def run_games(players, games, base=0):
    """``games`` whole games (kept: the rare-case test reads the same
    games' figures rather than playing them again)."""
    key = (players, games, base)
    if key not in _RUN:
        stats = Counter()
        for g in range(games):
            play_game(base + 1000 * players + g, players, stats=stats)
        assert stats["games"] == games
        _RUN[key] = stats
    return _RUN[key]


@pytest.mark.xdist_group("ice_stalks_games")
def test_the_random_games_reach_the_rare_cases():
    """Across the games above: additions refused for completability,
    rainbows of every height (7 included) in both directions, forced new
    bases beside standing stalks and ones that can never be completed, a
    shared win."""
    stats = Counter()
    for players, games in GAMES:
        stats.update(run_games(players, games))
    assert stats["steps"] > 2000 and stats["hints_with_a_choice"] > 300, stats
    for key in ("refused_for_completion", "new_base_beside_stalks",
                "new_base_hopeless", "rainbow_up", "rainbow_down", "solid",
                "rainbow_3", "rainbow_4", "rainbow_5", "rainbow_6",
                "rainbow_7", "shared_win"):
        assert stats[key] >= 1, (key, stats)


# ---- scripted situations, with forced rocks ------------------------------------------
def scripted(h, toks):
    """Play ``toks`` (draws and placements), checking every step; answers
    the legal tokens at the end."""
    for t in toks:
        h.check()
        h.play(t)
    return h.check()


def refused_unchanged(h, toks):
    """Each ``play`` of ``toks`` is refused, and nothing changes."""
    for t in toks:
        h.refused("play " + t)


def test_the_docs_session_and_the_seeds_first_example():
    """A cyan (the seed's "blue") base, then an indigo (b) rock: `b3` on
    it is refused (only `p2` could follow, and nothing after purple), `b2`
    is the one move; a new base is not allowed beside it."""
    h = Harness(4, 2)
    assert h.check() == list(RAINBOW)
    assert scripted(h, ["c"]) == ["c3@new"]
    assert scripted(h, ["c3@new", "b"]) == ["b2@1"]
    refused_unchanged(h, ["b3@1", "b3@new", "b1@1", "c2@1", "b2@2", "b2@0"])
    scripted(h, ["b2@1"])
    assert h.o.expected_state()["stalks"] == ["c3b2"]
    assert json.loads(h.ask("state"))["bag"] == {
        "r": 5, "o": 5, "y": 5, "g": 5, "c": 4, "b": 4, "p": 5}
    # only purple can go on now: p2 is refused (it would need a colour after
    # purple), p1 completes it and player 1 collects a 3-high rainbow
    assert scripted(h, ["p"]) == ["p1@1"]
    scripted(h, ["p1@1"])
    assert h.o.collected == [["c3b2p1"], []] and h.o.scores() == [3, 0]


def test_the_yellows_drawn_out():
    """Every yellow drawn: a solid yellow collected; the fifth yellow finds
    a yellow base it may not grow (its medium would need a yellow rock: the
    seed's "final magic rock" example), so it is forced to a new base that
    can never be completed; then, with an indigo (b) base standing, a blue
    (c) rock may not make `c3` on it (it would need `g` then `y`): the
    seed's second example. The legal list keeps the doc's order."""
    h = Harness(18, 2)
    scripted(h, ["y", "y3@new", "y", "y2@1", "y", "y1@1"])
    assert h.o.collected == [["y3y2y1"], []] and h.o.scores() == [1, 0]
    assert h.o.stalks == []
    assert scripted(h, ["y", "y3@new", "y"]) == ["y3@new"]
    refused_unchanged(h, ["y2@1", "y3@1", "y1@1", "y3@2"])
    assert scripted(h, ["y3@new", "b"]) == ["b3@new"]
    assert scripted(h, ["b3@new", "c"]) == ["c2@3"]
    refused_unchanged(h, ["c3@3", "c3@new", "c1@3", "c2@1"])
    # green on the two yellow bases (large or medium, upward) and a small
    # only on the b3c2 rainbow (a medium would need a yellow next)
    assert scripted(h, ["c2@3", "g"]) == ["g3@1", "g2@1", "g3@2", "g2@2", "g1@3"]
    scripted(h, ["g1@3"])
    assert h.o.collected == [["y3y2y1"], ["b3c2g1"]]
    assert h.o.stalks == [["y3"], ["y3"]] and h.o.scores() == [1, 3]
    # a yellow base took a green large going up: now it needs c then b
    scripted(h, ["g", "g3@2"])
    assert h.o.stalks == [["y3"], ["y3", "g3"]]
    assert scripted(h, ["c"]) == ["c3@2", "c2@2"]


def test_a_base_goes_either_way_then_its_second_piece_decides():
    """On a base alone: its own colour as a medium, or a neighbour, large
    or medium, up or down the rainbow. The second piece fixes the kind and
    the direction: a downward rainbow takes no colour above it, an upward
    one none below, neither its own colour again; a solid stalk takes only
    its colour. Completions in both directions, and a solid."""
    h = Harness(19, 2)
    scripted(h, ["g", "g3@new"])
    assert scripted(h, ["y"]) == ["y3@1", "y2@1"]          # down
    h.undo()
    assert h.check() == ["g3@new"] and h.o.stalks == []
    scripted(h, ["g3@new"])
    assert scripted(h, ["c"]) == ["c3@1", "c2@1"]          # up
    h.undo()
    scripted(h, ["g3@new"])
    assert scripted(h, ["g"]) == ["g2@1"]                  # solid
    h.undo()
    scripted(h, ["g3@new", "y", "y3@1"])                   # g3y3: down
    assert scripted(h, ["c"]) == ["c3@new"]                # not up
    scripted(h, ["c3@new"])
    assert scripted(h, ["g"]) == ["g3@2", "g2@2"]          # not g again on 1
    scripted(h, ["g2@2"])                                  # c3g2: down
    # o after y, but only a medium: a large would need red, then a colour
    # below red for its small
    assert scripted(h, ["o"]) == ["o2@1"]
    scripted(h, ["o2@1"])                                  # g3y3o2
    assert scripted(h, ["y"]) == ["y2@2", "y1@2"]          # y after g only on 2
    scripted(h, ["y1@2"])                                  # c3g2y1 collected
    assert h.o.stalks == [["g3", "y3", "o2"]]
    assert scripted(h, ["r"]) == ["r1@1"]
    scripted(h, ["r1@1"])
    assert h.o.stalks == []
    assert h.o.collected == [["g3y3o2r1"], ["c3g2y1"]] and h.o.scores() == [4, 3]
    # a solid stalk: red base, red medium; then no orange on it, red small
    scripted(h, ["r", "r3@new", "r", "r2@1"])
    assert scripted(h, ["o"]) == ["o3@new"]
    scripted(h, ["o3@new"])
    assert scripted(h, ["r"]) == ["r1@1"]
    scripted(h, ["r1@1"])
    assert h.o.collected[0][-1] == "r3r2r1" and h.o.scores() == [5, 3]
    assert h.o.stalks == [["o3"]]


def test_stalks_renumber_when_one_is_collected():
    """Three stalks; the middle one is completed, and the third becomes
    stalk 2 in tokens and in `state`."""
    h = Harness(20, 3)
    scripted(h, ["r", "r3@new", "c", "c3@new", "p", "p3@new"])
    assert scripted(h, ["c"]) == ["c2@2"]
    scripted(h, ["c2@2", "c", "c1@2"])
    assert h.o.stalks == [["r3"], ["p3"]] and h.o.collected[1] == ["c3c2c1"]
    assert scripted(h, ["b"]) == ["b3@2", "b2@2"]
    refused_unchanged(h, ["b3@3"])


def test_a_seven_high_rainbow_upward_with_two_players():
    """r3 o3 y3 g3 c3 b2 p1: each large keeps the size (legal while the
    next colours have rocks), `b3` is refused on `c3` (nothing after
    purple for its small), and the purple small collects 10 points."""
    h = Harness(21, 2)
    scripted(h, ["r", "r3@new"])
    for c in "oygc":
        assert scripted(h, [c]) == ["%s3@1" % c, "%s2@1" % c]
        scripted(h, ["%s3@1" % c])
    assert scripted(h, ["b"]) == ["b2@1"]
    assert scripted(h, ["b2@1", "p"]) == ["p1@1"]
    scripted(h, ["p1@1"])
    assert h.o.collected == [["r3o3y3g3c3b2p1"], []]
    assert h.o.scores() == [10, 0] and h.ask("score") == "10 0"


def test_a_seven_high_rainbow_downward_with_four_players():
    """p3 b3 c3 g3 y3 o2 r1 among four players: `o3` is refused on `y3`
    (nothing below red for its small), and the seventh placement is seat
    2's, which collects the stalk for 10."""
    h = Harness(22, 4)
    scripted(h, ["p", "p3@new"])
    for c in "bcgy":
        assert scripted(h, [c]) == ["%s3@1" % c, "%s2@1" % c]
        scripted(h, ["%s3@1" % c])
    assert scripted(h, ["o"]) == ["o2@1"]
    assert scripted(h, ["o2@1", "r"]) == ["r1@1"]
    scripted(h, ["r1@1"])
    assert h.o.collected == [[], [], ["p3b3c3g3y3o2r1"], []]
    assert h.o.scores() == [0, 0, 10, 0] and h.o.turn == 3


def finish_first_legal(h, rng):
    """Play the game out: draws sampled, placements picked at random."""
    while h.o.to_move() != "over":
        legal = h.check()
        if h.o.to_move() == "chance":
            h.sample()
        else:
            h.play(rng.choice(legal))
    finish(h)


def test_all_seven_solid_colours_with_three_players():
    """Three players; the solids r, o, y, g, c, b, p each placed base,
    medium, small by seats 0, 1, 2, so seat 2 collects all seven: 6 points
    after six, 7 + 15 after the seventh. The game is then played out."""
    h = Harness(23, 3)
    for i, c in enumerate(RAINBOW):
        assert scripted(h, [c]) == [c + "3@new"]
        assert scripted(h, [c + "3@new", c]) == [c + "2@1"]
        assert scripted(h, [c + "2@1", c]) == [c + "1@1"]
        scripted(h, [c + "1@1"])
        assert h.o.scores() == [0, 0, i + 1 + (15 if i == 6 else 0)]
    assert h.ask("score") == "0 0 22"
    assert h.o.collected[2] == [c + "3" + c + "2" + c + "1" for c in RAINBOW]
    assert h.o.bag == Counter({c: 2 for c in RAINBOW})
    finish_first_legal(h, random.Random(23))
    assert h.o.scores()[2] >= 22 and 2 in h.o.winners()
    # the last placement taken back: its rock waits again, no winners yet
    last = h.log[-1]
    assert h.undo() and h.check() == h.o.legal_tokens()
    assert h.o.rock == last[0] and h.o.winners() == [] and h.o.placed == 34
    scripted(h, [last])
    assert h.ask("to_move") == "over"


def test_six_solids_and_a_rainbow_earn_no_bonus():
    """Solids of six colours and a rainbow holding the seventh: no +15."""
    h = Harness(24, 3)
    for c in RAINBOW[:6]:
        scripted(h, [c, c + "3@new", c, c + "2@1", c, c + "1@1"])
    scripted(h, ["p", "p3@new", "b", "b2@1", "c", "c1@1"])
    assert h.o.collected[2][-1] == "p3b2c1"
    assert h.o.scores() == [0, 0, 6 + 3]
    finish_first_legal(h, random.Random(24))


def test_defaults_and_the_start():
    """Without options: two players, no bots, seat 0 to draw from a full
    bag; `hint` has nothing to say at a draw; the first draw cannot be
    undone (no move before it)."""
    s = Session(31, auto=False)
    assert s.handle("new ice_stalks seed=31") == "= ice_stalks seed=31\n\n"
    got = json.loads(s.handle("state")[2:])
    assert got == Oracle(2).expected_state()
    assert s.handle("hint") == "= none\n\n"
    assert s.handle("play g") == "= g\n\n"
    assert s.handle("undo").startswith("? ")
    assert s.handle("legal") == "= g3@new\n\n"
    assert s.handle("hint") == "= g3@new\n\n"
    h = Harness(32, 4, bots=(1, 3))
    assert h.check() == list(RAINBOW)


def test_the_bots_half_point_credit_decides():
    """A position (found by a search with the oracle's bot) where the
    doc's credit for a new solid colour decides. Seat 0 has drawn the last
    orange but one; stalks y3o2, r3o2, c3c2, o3, g3y3, b3; bag r1 o1 y3 g4
    c3 b4 p2; seat 1 holds solid r and p. `o2@4` opens the last orange to
    seat 1 for a new solid colour (4 + 2 quarter points, x 1 rock); `o2@5`
    makes g3y3o2, whose red small (16) outbids the 12 y3o2 already offers
    for the one red left: 4 more. The bot plays `o2@5`; without the credit
    the two would tie at 4 and the first, `o2@4`, would be played."""
    h = Harness(25, 2)
    toks = ("y y3@new r r3@new o o2@2 r r3@new c c3@new r r2@3 o o2@1 o o3@new "
            "p p3@new c c2@4 p p2@6 g g3@new y y3@7 r r1@3 b b3@new p p1@5 o")
    assert scripted(h, toks.split()) == ["o2@4", "o2@5"]
    assert h.o.expected_state()["stalks"] == ["y3o2", "r3o2", "c3c2", "o3", "g3y3", "b3"]
    assert h.ask("hint") == "o2@5"
    h.play("o2@5")
    assert h.o.stalks[4] == ["g3", "y3", "o2"]


BOT_GAMES = [  # players, bot seats (from 0)
    (2, (1,)), (2, (0,)), (2, (0, 1)), (3, (0, 2)), (4, (1, 2, 3)),
    (4, (0, 1, 2, 3)),
]


@pytest.mark.parametrize("players,bots", BOT_GAMES)
def test_bot_games_follow_the_rulings(players, bots):
    """The device plays the bot seats (a session with automatic moves):
    each bot placement must be legal at a bot's turn, and everything that
    follows from it must be as the rulings say; `hint` names a legal move
    at every placement."""
    stats = Counter()
    for g in range(3):
        play_game(500 + 17 * g + players, players, bots, auto=True,
                  p_undo=0.04 if g == 2 else 0.0, p_probe=0.05, stats=stats)
    assert stats["bot_moves"] >= 3 * 35 * len(bots) // players - 10, stats
    assert stats["games"] == 3


def test_bot_seats_wait_in_a_session_without_automatic_play():
    """`Session(seed, auto=False)`: a bot seat's placement is not made for
    it; the seat waits, and the move `hint` names is played by hand."""
    stats = Counter()
    play_game(550, 3, (0, 2), auto=False, p_undo=0.03, stats=stats)
    assert stats["bot_moves"] == 0 and stats["hints"] > 30, stats


def test_hint_is_legal_and_the_bot_seats_answer_it():
    """At every placement of random games `hint` is one legal token, the
    same when asked twice; a bot seat plays exactly what `hint` named."""
    for players in (2, 3, 4):
        rng = random.Random(players)
        h = Harness(40 + players, players)
        while h.o.to_move() != "over":
            legal = h.check()
            if h.o.to_move() == "chance":
                assert h.ask("hint") == "none"
                h.sample()
                continue
            hint = h.ask("hint")
            assert hint in legal and h.ask("hint") == hint
            h.play(rng.choice(legal))
        assert h.ask("hint") == "none"
    # a bot seat in an automatic session plays the hint of the same position
    for seed in range(3):
        a = Harness(60 + seed, 2, auto=False)
        b = Harness(60 + seed, 2, bots=(1,), auto=True)
        rng = random.Random(seed)
        while a.o.to_move() != "over":
            a.check()
            b.check()
            if a.o.to_move() == "chance":
                c = a.sample()
                if a.o.to_move() == 1:
                    hint = a.ask("hint")
                    b.play(c)
                    assert b.log[-1] == hint
                    a.play(hint)
                else:
                    b.play(c)
            else:
                t = rng.choice(a.o.legal_tokens())
                a.play(t)
                b.play(t)
        finish(a)
        finish(b)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_undo_restores_the_position_before_the_move(players):
    """`undo` at random points, sometimes several in a row, after a
    completion, past the start: each time the engine's position is the
    oracle's from before the placement taken back (and `undo` is refused
    before the first placement)."""
    stats = Counter()
    for g in range(3):
        play_game(300 + g * 13 + players, players, p_undo=0.12, stats=stats)
    assert stats["undos"] > 10 and stats["undo_refused"] >= 3, stats


@pytest.mark.parametrize("players", [2, 3, 4])
def test_moves_off_the_legal_set_are_refused_and_change_nothing(players):
    """At random points of whole games: placements not in the oracle's
    legal list (other colours, sizes, stalks, a new base beside a legal
    addition), colours not in the bag, malformed tokens, `sample` at a
    placement, bad `new` options. Each is refused with `?` and the
    position, its legal list and history stay exactly as they were."""
    stats = Counter()
    for g in range(3):
        play_game(900 + g * 11 + players, players, p_probe=0.3, stats=stats)
    assert stats["refusals"] > 60, stats


def test_sample_follows_the_odds():
    """With one red left and five of every other colour, `sample` (then
    the placement and the draw taken back by `undo`, again and again)
    draws red about 1 time in 31 and each other colour 5 in 31."""
    h = Harness(88, 2)
    scripted(h, ["r", "r3@new", "r", "r2@1", "r", "r1@1", "r", "r3@new"])
    counts = Counter()
    for _ in range(3100):
        counts[h.ask("sample")] += 1
        assert h.ask("undo") == "r3@new"
        assert h.ask("play r3@new") == "r3@new"
    assert 60 <= counts["r"] <= 145, counts
    assert all(420 <= counts[c] <= 580 for c in RAINBOW[1:]), counts
    h.check()


def test_refusals_leave_the_random_generator_alone():
    """Two sessions with the same seed, one of them sent refused lines
    between its samples, sample the same rocks."""
    rng = random.Random(5)
    a = Harness(77, 3)
    b = Harness(77, 3)
    while a.o.to_move() != "over":
        legal = a.check()
        probe(a, rng, 3)
        if a.o.to_move() == "chance":
            assert a.sample() == b.sample()
        else:
            tok = legal[rng.randrange(len(legal))]
            a.play(tok)
            b.play(tok)
    assert a.ask("state") == b.ask("state") and a.ask("history") == b.ask("history")


@pytest.mark.bench
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_long_sweep(players):
    """Many more seeded games, some with bot seats, all checked at every
    step (``make bench``)."""
    stats = Counter()
    rng = random.Random(players)
    for g in range(400):
        bots = tuple(s for s in range(players) if rng.random() < 0.3)
        play_game(10000 + 1000 * players + g, players, bots, auto=bool(bots),
                  p_undo=0.03 if g % 5 == 0 else 0.0,
                  p_probe=0.05 if g % 7 == 0 else 0.0, stats=stats)
    assert stats["games"] == 400
    print("ice_stalks oracle sweep, %d players:" % players, sorted(stats.items()))
