"""An independent oracle for the two table tools, `dice` and `bag`.

The model below is written only from the project rulings ("Notation",
"Table tools", and the bags of "Bag of Ice" and "Ice Stalks") and from
docs/protocol.md (framing, "Moves, chance nodes and tokens", the commands,
and the `dice` and `bag` sections). It does not import or read the engine's
dice or bag modules: the engine is driven only through the text protocol
(engine.protocol.Session with auto=False), and every answer is compared with
what the model predicts.

At every step of every session the model predicts and checks:

* `to_move`, and the exact `legal` answer: the move set at player 0's turn,
  and at a chance node every outcome with its exact weight (a Fraction,
  written `n/d` in lowest terms);
* the whole `state` object, field by field (dict equality), `score` and
  `history` (the last 24 tokens);
* `undo`: it restores exactly the position before the move (the model keeps
  its own stack of snapshots), never leaves a chance node to re-roll, and
  cannot reach a move that fell out of the 24-token history;
* refusals: a line the docs do not allow answers `?` and leaves `state`,
  `legal`, `history`, `to_move`, `score` and the generator as they were.
"""
import json
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from engine.protocol import Session
from harness import answer as send, ask as ok, refused


# ---- the model: docs/protocol.md and RULINGS.md, nothing else --------------

# docs/protocol.md, `dice`: option names and the face table (RULINGS "Table
# tools" lists the same faces; the protocol spells the die `color`).
DIE_FACES = {
    "pyramid": ("S", "M", "L", "SM", "SL", "ML"),
    "color": ("r", "y", "g", "c", "p", "*"),
    "treehouse": ("TIP", "SWAP", "DIG", "HOP", "AIM", "WILD"),
    "d6": ("1", "2", "3", "4", "5", "6"),
}
DIE_PIPS = {
    "pyramid": {"S": 1, "M": 2, "L": 3, "SM": 3, "SL": 4, "ML": 5},
    "color": None,
    "treehouse": None,
    "d6": {str(i): i for i in range(1, 7)},
}
MAX_DICE = 6          # count=1..6
RECENT_KEEP = 8       # "`recent`: up to 8 earlier rolls, oldest first"
HISTORY_KEEP = 24     # "The table tools keep only their last 24 actions"

# RULINGS "Bag of Ice" (and docs/protocol.md `bag`): 21 pyramids.
BAG_OF_ICE = Counter("r3 y3 g3 c3 p3 r2 y2 p2 c2 c2 g2 g2 "
                     "r1 y1 y1 g1 g1 c1 c1 p1 p1".split())
# RULINGS "Ice Stalks": 35 rocks, five of each colour r o y g c b p.
ICE_STALKS = Counter({c: 5 for c in "roygcbp"})
PRESETS = {"bag_of_ice": BAG_OF_ICE, "ice_stalks": ICE_STALKS}
MAX_BAG_ITEMS = 250   # "At most 250 items, with counts of 1 to 250"

# RULINGS "Notation": colour letters and sizes.
COLOURS = "roygcbpwk"
PIECES = [c + s for c in COLOURS for s in "123"]
ROCKS = list(COLOURS)


def parse_contents(text):
    """A valid `contents=` value -> Counter (docs: items separated by commas,
    `*n` repeats one). Only used on values the tests know are valid."""
    bag = Counter()
    for item in text.split(","):
        kind, _, n = item.partition("*")
        bag[kind] += int(n) if n else 1
    return bag


def fmt_weight(w):
    return "%d/%d" % (w.numerator, w.denominator)


class ToolModel:
    """History (24 tokens kept) and undo shared by both tools.

    Each log entry is (token, snapshot taken just before it if it is a move,
    else None). `undo` goes back to the last move still in the log.
    """

    def __init__(self):
        self.log = []

    # subclasses: snapshot(), restore(snap), legal(), apply(token), state()
    def history(self):
        return [tok for tok, _ in self.log]

    def play(self, token):
        """Apply a move or an outcome; False if the docs refuse it."""
        if token not in self.legal():
            return False
        snap = self.snapshot() if self.to_move() != "chance" else None
        self.apply(token)
        self.log.append((token, snap))
        del self.log[:-HISTORY_KEEP]
        return True

    def undo(self):
        """The move token taken back, or None ("? nothing to undo")."""
        for i in range(len(self.log) - 1, -1, -1):
            tok, snap = self.log[i]
            if snap is not None:
                self.restore(snap)
                del self.log[i:]
                return tok
        return None

    def score(self):
        return self.state()["scores"][0]


class DiceModel(ToolModel):
    def __init__(self, die="pyramid", count=1):
        super().__init__()
        self.die, self.count = die, count
        self.rolling = 0
        self.last = []
        self.recent = []

    def snapshot(self):
        return (self.rolling, list(self.last), [list(r) for r in self.recent])

    def restore(self, snap):
        self.rolling, last, recent = snap
        self.last, self.recent = list(last), [list(r) for r in recent]

    def to_move(self):
        return "chance" if self.rolling else 0

    def legal(self):
        """token -> Fraction at a chance node, token -> None at a turn."""
        if self.rolling:
            return {f: Fraction(1, 6) for f in DIE_FACES[self.die]}
        return {"roll": None}

    def apply(self, token):
        if token == "roll":
            if self.last:                    # the last roll becomes "earlier"
                self.recent.append(self.last)
                del self.recent[:-RECENT_KEEP]
            self.last = []
            self.rolling = self.count
        else:
            self.last = self.last + [token]
            self.rolling -= 1

    def pips(self):
        table = DIE_PIPS[self.die]
        return None if table is None else sum(table[f] for f in self.last)

    def state(self):
        pips = self.pips()
        return {"game": "dice", "to_move": self.to_move(),
                "scores": [pips or 0], "die": self.die, "count": self.count,
                "rolling": self.rolling, "last": list(self.last),
                "pips": pips, "recent": [list(r) for r in self.recent]}

    def universe(self):
        """Every token any table tool knows, for building illegal plays."""
        return (["roll", "draw", "return", "reset"]
                + [f for faces in DIE_FACES.values() for f in faces])


class BagModel(ToolModel):
    def __init__(self, contents, name):
        super().__init__()
        self.full = Counter(contents)
        self.name = name
        self.drawn = []
        self.drawing = False

    def snapshot(self):
        return (list(self.drawn), self.drawing)

    def restore(self, snap):
        drawn, self.drawing = snap
        self.drawn = list(drawn)

    def left(self):
        out = Counter(self.full)
        out.subtract(self.drawn)
        return {k: out[k] for k in self.full}   # every kind in the bag

    def remaining(self):
        return sum(self.full.values()) - len(self.drawn)

    def to_move(self):
        return "chance" if self.drawing else 0

    def legal(self):
        if self.drawing:
            n = self.remaining()
            return {k: Fraction(c, n) for k, c in self.left().items() if c}
        moves = {}
        if self.remaining():
            moves["draw"] = None
        if self.drawn:
            moves["return"] = None
        return moves

    def apply(self, token):
        if token == "draw":
            self.drawing = True
        elif token == "return":
            self.drawn = []
        else:
            self.drawn = self.drawn + [token]
            self.drawing = False

    def state(self):
        return {"game": "bag", "to_move": self.to_move(),
                "scores": [len(self.drawn)], "bag": self.name,
                "left": self.left(), "remaining": self.remaining(),
                "drawn": list(self.drawn)}

    def universe(self):
        return ["roll", "draw", "return", "reset"] + PIECES + ROCKS + ["S", "1"]


# ---- talking to the engine --------------------------------------------------

class Stats:
    sessions = steps = chance_nodes = undos = refusals = 0


STATS = Stats()


def parse_legal(body, at_chance):
    words = body.split()
    assert len(words) == len(set(words)), "duplicate tokens in %r" % body
    out = {}
    for w in words:
        if at_chance:
            tok, _, weight = w.rpartition(":")
            out[tok] = weight
        else:
            out[w] = None
    return out


def expected_legal(model):
    return {t: (None if w is None else fmt_weight(w))
            for t, w in model.legal().items()}


def check(s, model):
    """Compare the whole position with the model."""
    tm = model.to_move()
    assert ok(s, "to_move") == str(tm)
    legal = parse_legal(ok(s, "legal"), tm == "chance")
    assert legal == expected_legal(model)
    if tm == "chance":
        STATS.chance_nodes += 1
        assert sum(Fraction(w) for w in legal.values()) == 1
    assert json.loads(ok(s, "state")) == model.state()
    assert ok(s, "score") == str(model.score())
    assert ok(s, "history").split() == model.history()


def refuse(s, line, message=None):
    body = refused(s, line)
    if message is not None:
        assert body == message
    STATS.refusals += 1
    return body


def do_undo(s, model):
    expect = model.undo()
    if expect is None:
        refuse(s, "undo", "nothing to undo")
    else:
        assert ok(s, "undo") == expect
        STATS.undos += 1
        assert model.to_move() == 0      # undo never leaves a die to re-roll


def illegal_lines(model, rng):
    """Lines the docs refuse in the model's current position."""
    legal = model.legal()
    bad_tokens = [t for t in model.universe() if t not in legal]
    lines = ["play " + rng.choice(bad_tokens) for _ in range(2)]
    lines += [rng.choice(["play", "play roll roll", "play draw draw",
                          "play ROLL", "play Draw", "play =r3", "play r3:1/21",
                          "play S:1/6", "play 7", "play 0", "play x9",
                          "state x", "legal x", "history x", "to_move x",
                          "score x", "sample x", "undo x", "frobnicate"])]
    if model.to_move() != "chance":
        lines.append("sample")
    return lines


def run_random(s, model, rng, steps, p_undo=0.1, p_refuse=0.08, p_return=0.05):
    """A seeded walk: moves, sampled and hand-played outcomes, undos and
    refusals, with a full comparison after each. Returns what it reached."""
    STATS.sessions += 1
    seen = Counter()
    check(s, model)
    for _ in range(steps):
        STATS.steps += 1
        r = rng.random()
        if r < p_undo:
            do_undo(s, model)
        elif r < p_undo + p_refuse:
            for line in illegal_lines(model, rng):
                tok = line[5:]
                if line == "sample":
                    refuse(s, line, "not a chance node (to_move is 0)")
                elif line.endswith(" x"):
                    refuse(s, line, "unexpected 'x'")
                elif (isinstance(model, BagModel) and model.drawing
                      and tok in PIECES + ROCKS):
                    refuse(s, line, "no %s is left in the bag" % tok)
                else:
                    refuse(s, line)
        elif isinstance(model, BagModel) and model.to_move() == 0 \
                and not model.remaining():
            refuse(s, "play draw",
                   "the bag is empty: return the drawn items first")
            seen["empty bag refused"] += 1
            assert ok(s, "play return") == "return" and model.play("return")
        elif model.to_move() == "chance":
            if rng.random() < 0.5:
                tok = ok(s, "sample")
                assert tok in model.legal(), "sampled %r, not legal" % tok
            else:
                tok = rng.choice(sorted(model.legal()))
                assert ok(s, "play " + tok) == tok
            assert model.play(tok)
        else:
            moves = sorted(model.legal())
            if "return" in moves and "draw" in moves:
                tok = "return" if rng.random() < p_return else "draw"
            else:
                tok = rng.choice(moves)
            assert ok(s, "play " + tok) == tok
            assert model.play(tok)
        check(s, model)
        seen["history full"] += len(model.log) == HISTORY_KEEP
        seen["undo"] += r < p_undo
        if isinstance(model, DiceModel):
            seen["recent full"] += len(model.recent) == RECENT_KEEP
        else:
            seen["return"] += model.history()[-1:] == ["return"]
    return seen


# ---- seeded random sessions -------------------------------------------------

@pytest.mark.parametrize("die", sorted(DIE_FACES))
def test_dice_random_sessions_every_kind_and_count(die):
    seen = Counter()
    for count in range(1, MAX_DICE + 1):
        for seed in (1000 * count + len(die), 7 * count + 3):
            s = Session(seed, auto=False)
            assert ok(s, "new dice die=%s count=%d seed=%d"
                      % (die, count, seed)) == "dice seed=%d" % seed
            seen += run_random(s, DiceModel(die, count), random.Random(seed),
                               steps=70)
    # the walk reached the bounded lists and took moves back
    assert seen["recent full"] and seen["history full"] and seen["undo"], seen


BAG_CASES = [
    ("preset=bag_of_ice", BAG_OF_ICE, "bag_of_ice"),
    ("preset=ice_stalks", ICE_STALKS, "ice_stalks"),
    ("", BAG_OF_ICE, "bag_of_ice"),                      # the default
    ("contents=r3*2,y1*4,k2", parse_contents("r3*2,y1*4,k2"), "custom"),
    ("contents=r*5,g*5", parse_contents("r*5,g*5"), "custom"),
    ("contents=w1*3,k3*7,b2,o2*2,p1,c3*11", parse_contents(
        "w1*3,k3*7,b2,o2*2,p1,c3*11"), "custom"),
    ("contents=k3", Counter({"k3": 1}), "custom"),
    ("contents=r*125,g3*100,k1*25",                      # the 250 maximum
     Counter({"r": 125, "g3": 100, "k1": 25}), "custom"),
]


@pytest.mark.parametrize("opts,contents,name", BAG_CASES,
                         ids=[c[0] or "default" for c in BAG_CASES])
def test_bag_random_sessions_every_preset_and_custom(opts, contents, name):
    seen = Counter()
    # p_return 0: `return` only once the bag is empty, so every walk of that
    # seed runs the bag dry; the others return now and then
    for seed, p_return in ((11, 0.0), (12, 0.03), (13, 0.1)):
        s = Session(seed, auto=False)
        assert ok(s, ("new bag %s seed=%d" % (opts, seed)).replace("  ", " ")) \
            == "bag seed=%d" % seed
        seen += run_random(s, BagModel(contents, name), random.Random(seed),
                           steps=4 * sum(contents.values()) + 30,
                           p_return=p_return)
    assert seen["history full"] and seen["undo"] and seen["return"], seen
    assert seen["empty bag refused"], seen


def test_bag_drawn_empty_then_refused_then_returned():
    """Every item of a preset drawn in turn (the weights shrink to 1/1), then
    the empty bag refuses `draw` with the documented reason; `return` refills
    it, and undo of the return empties it again."""
    for opts, contents, name in BAG_CASES[:2]:
        s = Session(7, auto=False)
        ok(s, "new bag %s seed=7" % opts)
        model = BagModel(contents, name)
        rng = random.Random(7)
        STATS.sessions += 1
        while model.remaining():
            assert ok(s, "play draw") == "draw" and model.play("draw")
            check(s, model)
            tok = ok(s, "sample") if rng.random() < 0.5 else None
            if tok is None:
                tok = rng.choice(sorted(model.legal()))
                ok(s, "play " + tok)
            assert model.play(tok)
            check(s, model)
            STATS.steps += 2
        assert model.legal() == {"return": None}
        refuse(s, "play draw", "the bag is empty: return the drawn items first")
        assert ok(s, "play return") == "return" and model.play("return")
        check(s, model)
        assert model.state()["remaining"] == sum(contents.values())
        do_undo(s, model)
        check(s, model)
        assert model.remaining() == 0


# ---- undo and the 24-token history -----------------------------------------

@pytest.mark.parametrize("count", [1, 5, 6])
def test_dice_undo_down_to_the_edge_of_the_history(count):
    """Roll many times, then undo until refused: each undo restores the exact
    earlier position, and undo stops where the 24 kept tokens stop."""
    s = Session(count, auto=False)
    ok(s, "new dice die=d6 count=%d seed=%d" % (count, count))
    model = DiceModel("d6", count)
    STATS.sessions += 1
    states = [json.loads(ok(s, "state"))]
    for _ in range(13):
        ok(s, "play roll")
        model.play("roll")
        for _ in range(count):
            model.play(ok(s, "sample"))
        check(s, model)
        states.append(json.loads(ok(s, "state")))
    rolls_kept = HISTORY_KEEP // (count + 1)
    undone = 0
    while True:
        expect = model.undo()
        if expect is None:
            refuse(s, "undo", "nothing to undo")
            break
        assert ok(s, "undo") == "roll"
        undone += 1
        states.pop()
        assert json.loads(ok(s, "state")) == states[-1]
        check(s, model)
    assert undone == min(13, rolls_kept) < 13   # the edge was reached


def test_bag_undo_of_a_pending_draw_and_of_a_return():
    s = Session(3, auto=False)
    ok(s, "new bag preset=bag_of_ice seed=3")
    model = BagModel(BAG_OF_ICE, "bag_of_ice")
    STATS.sessions += 1
    for tok in ("draw", "y1", "draw", "c2", "return", "draw"):
        assert ok(s, "play " + tok) == tok and model.play(tok)
        check(s, model)
    for _ in range(4):                 # draw (pending), return, c2's draw, y1's
        do_undo(s, model)
        check(s, model)
    refuse(s, "undo", "nothing to undo")


def test_undo_neither_rewinds_nor_uses_the_generator():
    """docs: undo never samples and does not rewind the generator. Twin
    sessions with one seed: the roll made after an undo equals the second
    roll of a session that never undid."""
    for count in (1, 3, 6):
        a, b = Session(9, auto=False), Session(9, auto=False)
        for s in (a, b):
            ok(s, "new dice die=pyramid count=%d seed=42" % count)
        first = []
        for s in (a, b):
            ok(s, "play roll")
            first.append([ok(s, "sample") for _ in range(count)])
        assert first[0] == first[1]
        assert ok(a, "undo") == "roll"
        model = DiceModel("pyramid", count)
        check(a, model)                        # back to before the roll
        seconds = []
        for s in (a, b):
            ok(s, "play roll")
            seconds.append([ok(s, "sample") for _ in range(count)])
        assert seconds[0] == seconds[1]


# ---- the docs' own examples -------------------------------------------------

def test_doc_example_framing_and_pyramid_session():
    s = Session(1, auto=False)
    assert ok(s, "new dice seed=1") == "dice seed=1"
    refuse(s, "play sideways",
           "unknown token 'sideways': dice moves are roll and the faces "
           "S M L SM SL ML")
    assert ok(s, "play roll") == "roll"

    s = Session(1, auto=False)
    assert ok(s, "new dice die=pyramid count=2 seed=7") == "dice seed=7"
    model = DiceModel("pyramid", 2)
    check(s, model)
    assert ok(s, "play roll") == "roll" and model.play("roll")
    check(s, model)
    assert ok(s, "play SL") == "SL" and model.play("SL")
    check(s, model)
    assert ok(s, "sample") == "SL" and model.play("SL")
    check(s, model)
    assert json.loads(ok(s, "state")) == json.loads(
        '{"game":"dice","to_move":0,"scores":[8],"die":"pyramid","count":2,'
        '"rolling":0,"last":["SL","SL"],"pips":8,"recent":[]}')
    assert ok(s, "score") == "8"
    assert ok(s, "show") == "SL SL  (8 pips)"
    assert ok(s, "history") == "roll SL SL"
    assert ok(s, "undo") == "roll" and model.undo() == "roll"
    check(s, model)


def test_doc_example_d6_by_hand_then_sampled():
    s = Session(1, auto=False)
    assert ok(s, "new dice die=d6 count=2 seed=1") == "dice seed=1"
    model = DiceModel("d6", 2)
    for line, tok in (("play roll", "roll"), ("play 6", "6"), ("sample", "1")):
        assert ok(s, line) == tok and model.play(tok)
        check(s, model)
    assert ok(s, "score") == "7"


def test_doc_example_bag_weights():
    s = Session(1, auto=False)
    assert ok(s, "new bag preset=bag_of_ice seed=3") == "bag seed=3"
    model = BagModel(BAG_OF_ICE, "bag_of_ice")
    assert ok(s, "play draw") == "draw" and model.play("draw")
    check(s, model)
    assert ok(s, "legal") == (
        "r1:1/21 r2:1/21 r3:1/21 y1:2/21 y2:1/21 y3:1/21 g1:2/21 g2:2/21 "
        "g3:1/21 c1:2/21 c2:2/21 c3:1/21 p1:2/21 p2:1/21 p3:1/21")
    refuse(s, "play k3", "no k3 is left in the bag")
    check(s, model)


def test_doc_example_ice_stalks():
    s = Session(1, auto=False)
    assert ok(s, "new bag preset=ice_stalks seed=5") == "bag seed=5"
    model = BagModel(ICE_STALKS, "ice_stalks")
    assert ok(s, "play draw") == "draw" and model.play("draw")
    assert ok(s, "legal") == "r:1/7 o:1/7 y:1/7 g:1/7 c:1/7 b:1/7 p:1/7"
    assert ok(s, "sample") == "c" and model.play("c")
    check(s, model)


def test_rolls_and_draws_wait_even_in_an_automatic_session():
    """docs: "Dice rolls and bag draws are *not* automatic"."""
    for new, move in (("new dice count=3 seed=2", "roll"),
                      ("new bag seed=2", "draw")):
        s = Session(2)                         # the default, auto=True
        ok(s, new)
        assert ok(s, "play " + move) == move
        assert ok(s, "to_move") == "chance"


# ---- options on `new` ---------------------------------------------------------

GOOD_NEW = [
    ("new dice", DiceModel("pyramid", 1)),
    ("new dice die=color count=6 seed=0", DiceModel("color", 6)),
    ("new dice count=1 die=treehouse seed=4294967295", DiceModel("treehouse", 1)),
    ("new dice die=d6", DiceModel("d6", 1)),
    ("new bag", BagModel(BAG_OF_ICE, "bag_of_ice")),
    ("new bag contents=r*250", BagModel(Counter({"r": 250}), "custom")),
    ("new bag contents=r*125,g3*125 seed=5",
     BagModel(Counter({"r": 125, "g3": 125}), "custom")),
    ("new bag contents=w1,k1,k1 seed=5",
     BagModel(parse_contents("w1,k1,k1"), "custom")),
]


@pytest.mark.parametrize("line,model", GOOD_NEW, ids=[g[0] for g in GOOD_NEW])
def test_good_options_start_the_documented_position(line, model):
    s = Session(77, auto=False)
    # a game already under way, with history: the new one starts afresh
    for earlier in ("new bag contents=r*2,g1 seed=3", "play draw", "sample",
                    "new dice die=d6 count=2 seed=3", "play roll", "sample"):
        ok(s, earlier)
    game = line.split()[1]
    body = ok(s, line)
    assert body.startswith(game + " seed=")
    if "seed=" in line:
        seed = line.split("seed=")[1].split()[0]
        assert body == "%s seed=%s" % (game, seed)
    assert 0 <= int(body.split("seed=")[1]) <= 0xFFFFFFFF
    check(s, model)
    refuse(s, "undo", "nothing to undo")
    STATS.sessions += 1


BAD_NEW = [
    "new dice die=d20", "new dice die=colour", "new dice die=", "new dice die",
    "new dice die=Pyramid", "new dice count=0", "new dice count=7",
    "new dice count=x", "new dice count=", "new dice count=1.5",
    "new dice count=-1", "new dice die=d6 die=d6", "new dice count=2 count=3",
    "new dice sides=6", "new dice preset=ice_stalks", "new dice seed=-1",
    "new dice seed=4294967296", "new dice seed=abc", "new dice seed=",
    "new dice seed=1 seed=1",
    "new bag preset=marbles", "new bag preset=", "new bag preset=dice",
    "new bag preset=bag_of_ice contents=r*2",
    "new bag contents=r*2 preset=ice_stalks",
    "new bag preset=ice_stalks preset=ice_stalks",
    "new bag contents=r*0", "new bag contents=r*251",
    "new bag contents=r*200,g*51", "new bag contents=r3*250,y1",
    "new bag contents=x3", "new bag contents=r4", "new bag contents=r0",
    "new bag contents=", "new bag contents=r3,,y1", "new bag contents=r3*",
    "new bag contents=r3*x", "new bag contents=*5", "new bag count=2",
    "new bag die=d6", "new bag seed=4294967296",
    "new nosuchgame", "new", "new dice count=2 =", "new dice count",
]


@pytest.mark.parametrize("tool", ["dice", "bag"])
def test_bad_options_change_nothing(tool):
    """Each refused `new` leaves the game in progress (mid-roll or mid-draw,
    with history) and the generator exactly as they were: a twin session that
    never saw the bad lines samples the same outcomes afterwards."""
    a, b = Session(5, auto=False), Session(5, auto=False)
    if tool == "dice":
        start, model = "new dice die=treehouse count=2 seed=31", \
            DiceModel("treehouse", 2)
        moves = ["roll", "sample", "sample", "roll", "sample"]
    else:
        start, model = "new bag preset=ice_stalks seed=31", \
            BagModel(ICE_STALKS, "ice_stalks")
        moves = ["draw", "sample", "draw", "sample", "draw"]
    STATS.sessions += 1
    for s in (a, b):
        ok(s, start)
    for m in moves:
        got = [ok(s, "sample" if m == "sample" else "play " + m) for s in (a, b)]
        assert got[0] == got[1]
        model.play(got[0])
    check(a, model)
    for line in BAD_NEW:
        refuse(a, line)
    check(a, model)
    # the generator was not touched: both sessions go on alike
    for _ in range(6):
        if model.to_move() != "chance":
            mv = "roll" if tool == "dice" else "draw"
            got = [ok(s, "play " + mv) for s in (a, b)]
        else:
            got = [ok(s, "sample") for s in (a, b)]
        assert got[0] == got[1]
        assert model.play(got[0])
        check(a, model)


def test_refusals_before_any_game():
    s = Session(1, auto=False)
    for line in ("to_move", "legal", "state", "score", "history", "undo",
                 "sample", "play roll"):
        assert send(s, line) == (False, "no game: start one with new <id>")
    for line in BAD_NEW:
        assert not send(s, line)[0], line
    assert send(s, "state") == (False, "no game: start one with new <id>")


def test_refused_lines_leave_the_generator_alone():
    """docs: a refused command changes nothing, not the random generator.
    One session is peppered with refusals at both kinds of node, its twin
    is not; their samples agree throughout."""
    for new, model, move in (
            ("new dice die=color count=2 seed=8", DiceModel("color", 2), "roll"),
            ("new bag contents=r3*2,y1*4,k2 seed=8",
             BagModel(parse_contents("r3*2,y1*4,k2"), "custom"), "draw")):
        a, b = Session(1, auto=False), Session(1, auto=False)
        ok(a, new), ok(b, new)
        rng = random.Random(8)
        STATS.sessions += 1
        for _ in range(6):
            for line in illegal_lines(model, rng):
                refuse(a, line)
            line = "play " + move if model.to_move() == 0 else "sample"
            got = [ok(a, line), ok(b, line)]
            assert got[0] == got[1]
            assert model.play(got[0])
            check(a, model)


# ---- statistics: one cheap check per tool -----------------------------------

# Hoeffding: for n independent draws of an event of probability q, the
# frequency f has P(|f - q| >= t) <= 2 exp(-2 n t^2). With a union bound over
# k outcomes, t = sqrt(ln(2k / ALPHA) / (2n)) makes a false alarm at most
# ALPHA. Fairness itself is tested elsewhere; this only catches a gross error
# (a weight ignored, a face never drawn).
ALPHA = 1e-6


def hoeffding_t(n, k):
    return math.sqrt(math.log(2 * k / ALPHA) / (2 * n))


def test_dice_faces_roughly_uniform():
    s = Session(1, auto=False)
    ok(s, "new dice die=d6 count=6 seed=2024")
    rolls = 300
    seen = Counter()
    for _ in range(rolls):
        ok(s, "play roll")
        for _ in range(6):
            seen[ok(s, "sample")] += 1
    n = rolls * 6
    t = hoeffding_t(n, 6)
    assert t < Fraction(1, 6)          # so a face never rolled would fail
    for face in DIE_FACES["d6"]:
        assert abs(Fraction(seen[face], n) - Fraction(1, 6)) < t, (face, seen)


def test_bag_first_draw_follows_the_counts():
    """draw, sample, undo: every draw is the first from the full bag, and
    undo does not rewind the generator, so the draws are independent."""
    s = Session(1, auto=False)
    ok(s, "new bag preset=bag_of_ice seed=2024")
    n = 6000
    t = hoeffding_t(n, len(BAG_OF_ICE))
    # so a pyramid never drawn, or one drawn at twice its weight, would fail
    assert t < Fraction(1, 21)
    seen = Counter()
    for _ in range(n):
        ok(s, "play draw")
        seen[ok(s, "sample")] += 1
        ok(s, "undo")
    for kind, c in BAG_OF_ICE.items():
        assert abs(Fraction(seen[kind], n) - Fraction(c, 21)) < t, (kind, seen)
    assert set(seen) <= set(BAG_OF_ICE)


def test_one_walk_of_each_tool_compares_every_kind_of_step():
    """A walk of the dice and one of the bag, counted: each compares chance
    nodes, takes moves back and has lines refused, at every step."""
    for line, model, seed in (("new dice die=d6 count=3 seed=5", DiceModel("d6", 3), 5),
                              ("new bag seed=6", BagModel(BAG_OF_ICE, "bag_of_ice"), 6)):
        before = (STATS.steps, STATS.chance_nodes, STATS.undos, STATS.refusals)
        s = Session(seed, auto=False)
        ok(s, line)
        run_random(s, model, random.Random(seed), steps=60)
        steps, chance, undos, refusals = (
            now - then for now, then in zip(
                (STATS.steps, STATS.chance_nodes, STATS.undos, STATS.refusals),
                before))
        print("\n%s: %d steps, %d chance nodes compared, %d undos, %d refusals"
              % (line, steps, chance, undos, refusals))
        assert steps == 60
        assert chance >= 10 and undos >= 2 and refusals >= 5, (
            line, chance, undos, refusals)
