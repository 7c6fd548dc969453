"""The text protocol (engine.protocol.Session) and tools/ptp.py.

Every answer is "= ..." or "? ..." followed by an empty line; a refused line
changes nothing and never ends the session.
"""
import json
import os
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import given, settings, strategies as st

from engine import registry
from engine.protocol import Session, HELP, MAX_LINE
from engine.state import State, OVER
import harness
from harness import Tally, answer, ask as ok, session, snapshot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PTP = os.path.join(ROOT, "tools", "ptp.py")


refused = partial(harness.refused, look=snapshot)


# ---- a session's basics: the tools, garbage, help ----------------------------

def test_pyramid_die_lists_six_faces_at_one_sixth():
    s = Session(1)
    assert ok(s, "new dice die=pyramid").startswith("dice seed=")
    assert ok(s, "play roll") == "roll"
    assert ok(s, "legal") == "S:1/6 M:1/6 L:1/6 SM:1/6 SL:1/6 ML:1/6"


def test_ice_stalks_bag_gives_five_of_each_colour_then_refuses():
    s = Session(2)
    ok(s, "new bag preset=ice_stalks seed=2026")
    drawn = []
    for _ in range(35):
        assert ok(s, "play draw") == "draw"
        drawn.append(ok(s, "sample"))
    assert Counter(drawn) == Counter({c: 5 for c in "roygcbp"})
    assert refused(s, "play draw").startswith("the bag is empty")
    st = json.loads(ok(s, "state"))
    assert st["remaining"] == 0 and sorted(st["drawn"]) == sorted(drawn)


@pytest.mark.parametrize("line", ["xyzzy", "play", "new", "new nothing",
                                  "legal extra", "\x00\x01", "= 1", "? 2",
                                  "PLAY roll", "sample sample", "undo 3"])
def test_garbage_is_refused_and_the_session_goes_on(line):
    s = session("new dice seed=4")
    refused(s, line)
    assert ok(s, "play roll") == "roll"
    assert ok(s, "to_move") == "chance"


def test_garbage_before_any_game():
    s = Session(1)
    for line in ("legal", "play roll", "state", "undo", "show", "score",
                 "history", "to_move", "sample"):
        assert "no game" in refused(s, line)
    assert ok(s, "new dice").startswith("dice")


# ---- each command ----------------------------------------------------------

def test_help_lists_every_command_and_each_one_exists():
    s = Session(1)
    assert ok(s, "help").split() == list(HELP)
    for cmd in HELP:
        assert callable(getattr(s, "cmd_" + cmd))


def test_blank_lines_and_comments_are_accepted_silently():
    s = session("new dice seed=3")
    before = snapshot(s)
    for line in ("", "   ", "\t", "# a comment", "#play roll", "  # indented"):
        assert ok(s, line) == ""
    assert snapshot(s) == before


def test_games_lists_the_registry():
    s = Session(1)
    games = ok(s, "games").split()
    assert games == registry.available()
    assert "dice" in games and "bag" in games
    refused(s, "games extra")


def test_new_echoes_the_seed_it_used():
    s = Session(1)
    assert ok(s, "new dice seed=123") == "dice seed=123"
    assert ok(s, "new bag preset=ice_stalks seed=0") == "bag seed=0"
    assert ok(s, "new dice seed=4294967295") == "dice seed=4294967295"
    echoed = ok(s, "new dice")
    seed = int(echoed.split("seed=")[1])
    assert 0 <= seed <= 0xFFFFFFFF


def test_new_refuses_what_is_not_a_game():
    s = session("new dice seed=3")
    assert ok(s, "new dice count=2 seed=9") == "dice seed=9"
    assert s.state.options == "count=2"
    for line in ("new state", "new protocol", "new bag_of_ice_odds", "new nope"):
        assert refused(s, line).startswith("unknown game ")
    assert refused(s, "new dice count=0").startswith("count=0")

def rolls(s, n, count=1):
    out = []
    for _ in range(n):
        ok(s, "play roll")
        out.append(" ".join(ok(s, "sample") for _ in range(count)))
    return out


def test_same_seed_same_outcomes_whatever_came_before():
    a = session("new dice die=d6 seed=77")
    b = session("new bag seed=1", "play draw", "sample", "new dice die=d6 seed=77",
                seed=999)
    assert rolls(a, 40) == rolls(b, 40)
    c = session("new dice die=d6 seed=78")
    assert rolls(c, 40) != rolls(session("new dice die=d6 seed=77"), 40)


def test_an_echoed_seed_replays_the_game():
    s = Session()                         # unseeded: os.urandom
    seed = ok(s, "new dice die=treehouse").split("seed=")[1]
    first = rolls(s, 20)
    again = session("new dice die=treehouse seed=" + seed, seed=5)
    assert rolls(again, 20) == first


def test_session_seed_makes_unseeded_new_reproducible():
    # ptp.py --seed N: every `new` without seed= follows from N
    a, b = Session(42), Session(42)
    assert ok(a, "new dice") == ok(b, "new dice")
    assert ok(a, "new bag") == ok(b, "new bag")
    assert ok(a, "new dice") != ok(Session(43), "new dice")
    s = Session(42)
    assert ok(s, "new dice") != ok(s, "new dice")   # two games, two seeds


@pytest.mark.parametrize("line", [
    "new", "new chess", "new Dice", "new dice die=d7", "new dice count=0",
    "new dice count=7", "new dice count=01", "new dice colour=red",
    "new dice die", "new dice =d6", "new dice die=", "new dice die=d6 die=d6",
    "new dice seed=-1", "new dice seed=4294967296", "new dice seed=x",
    "new bag preset=ice_stalks contents=r3", "new bag preset=nope",
    "new bag contents=", "new bag contents=r4", "new bag contents=r3*0",
    "new bag contents=r3*251", "new bag contents=r3*\u00b2",
    "new bag contents=r3*200,r3*200", "new bag contents=,r3",
])
def test_bad_new_keeps_the_old_game(line):
    s = session("new dice die=d6 seed=9", "play roll")
    msg = refused(s, line)
    assert "Traceback" not in msg and "invalid literal" not in msg
    assert ok(s, "to_move") == "chance"


def test_to_move():
    s = session("new dice seed=1")
    assert ok(s, "to_move") == "0"
    ok(s, "play roll")
    assert ok(s, "to_move") == "chance"
    ok(s, "sample")
    assert ok(s, "to_move") == "0"
    refused(s, "to_move now")


def fractions(body):
    out = {}
    for part in body.split():
        tok, frac = part.rsplit(":", 1)
        n, d = frac.split("/")
        f = Fraction(int(n), int(d))
        assert (f.numerator, f.denominator) == (int(n), int(d)), \
            "%s is not in lowest terms" % part
        out[tok] = f
    assert sum(out.values()) == 1
    return out


def test_legal_weights_are_reduced_fractions():
    s = session("new bag seed=3", "play draw")
    f = fractions(ok(s, "legal"))
    # the Bag of Ice bag: 21 pyramids, two each of c2 g2 y1 g1 c1 p1
    assert f["r3"] == Fraction(1, 21) and f["c2"] == Fraction(2, 21)
    assert len(f) == 15
    s = session("new bag preset=ice_stalks seed=3", "play draw")
    assert fractions(ok(s, "legal")) == {c: Fraction(1, 7) for c in "roygcbp"}
    s = session("new bag contents=r3*2,y1*4 seed=3", "play draw")
    assert ok(s, "legal") == "r3:1/3 y1:2/3"
    ok(s, "sample")
    ok(s, "play draw")
    assert sum(fractions(ok(s, "legal")).values()) == 1


def test_legal_at_a_decision_lists_moves():
    s = session("new bag seed=3")
    assert ok(s, "legal") == "draw"
    ok(s, "play draw")
    ok(s, "sample")
    assert ok(s, "legal") == "draw return"


def test_play_an_explicit_outcome_sets_a_die_by_hand():
    s = session("new dice die=d6 count=2 seed=1")
    ok(s, "play roll")
    assert ok(s, "play 6") == "6"
    assert ok(s, "play 3") == "3"
    st = json.loads(ok(s, "state"))
    assert st["last"] == ["6", "3"] and st["pips"] == 9
    assert ok(s, "score") == "9"
    assert ok(s, "history") == "roll 6 3"


def test_play_refuses_what_is_not_legal_with_a_reason():
    s = session("new dice die=pyramid seed=1")
    assert "roll first" in refused(s, "play S")
    ok(s, "play roll")
    assert "sample" in refused(s, "play roll")
    assert "unknown token" in refused(s, "play SS")
    refused(s, "play")
    refused(s, "play S M")
    s = session("new bag contents=r3,y1 seed=1", "play draw")
    assert "no k3" in refused(s, "play k3")
    assert ok(s, "play y1") == "y1"


def test_sample_applies_one_weighted_outcome():
    s = session("new bag contents=r3,y1*3 seed=5")
    assert "not a chance node" in refused(s, "sample")
    ok(s, "play draw")
    tok = ok(s, "sample")
    assert tok in ("r3", "y1")
    st = json.loads(ok(s, "state"))
    assert st["drawn"] == [tok] and st["remaining"] == 3
    refused(s, "sample 2")


def test_state_is_json_with_the_common_fields():
    s = session("new dice die=color count=2 seed=8")
    st = json.loads(ok(s, "state"))
    assert st["game"] == "dice" and st["to_move"] == 0 and st["scores"] == [0]
    assert st["die"] == "color" and st["count"] == 2 and st["pips"] is None
    ok(s, "play roll")
    st = json.loads(ok(s, "state"))
    assert st["to_move"] == "chance" and st["rolling"] == 2
    s = session("new bag preset=ice_stalks seed=8")
    st = json.loads(ok(s, "state"))
    assert st == {"game": "bag", "to_move": 0, "scores": [0], "bag": "ice_stalks",
                  "left": {c: 5 for c in "roygcbp"}, "remaining": 35, "drawn": []}
    refused(s, "state json")


def test_score_and_show():
    s = session("new dice die=pyramid count=3 seed=6", "play roll", "play SM",
                "play L", "play S")
    assert ok(s, "score") == "7"              # SM 3 + L 3 + S 1
    assert ok(s, "show") == "SM L S  (7 pips)"
    s = session("new bag contents=r3,y1 seed=6", "play draw", "play y1")
    assert ok(s, "show") == "left 1  r3:1 y1:0\ndrawn y1"
    assert ok(s, "score") == "1"
    refused(s, "show all")
    refused(s, "score 1")


def test_undo_takes_back_a_move_and_its_outcomes():
    s = session("new dice die=d6 count=3 seed=2", "play roll", "sample", "sample",
                "sample")
    st_before = ok(s, "state")
    ok(s, "play roll")
    ok(s, "sample")
    ok(s, "sample")
    assert ok(s, "undo") == "roll"          # the roll and its two dice
    assert ok(s, "state") == st_before
    assert ok(s, "to_move") == "0"
    assert ok(s, "undo") == "roll"
    assert json.loads(ok(s, "state"))["last"] == []
    assert ok(s, "history") == ""
    assert "nothing to undo" in refused(s, "undo")


def test_undo_never_rerolls():
    # undo restores; it never samples, so the generator does not move
    s = session("new bag seed=12", "play draw", "sample")
    rng = s.rng.getstate()
    assert ok(s, "undo") == "draw"
    assert s.rng.getstate() == rng
    assert json.loads(ok(s, "state"))["remaining"] == 21


def test_undo_of_a_pending_draw():
    s = session("new bag seed=12", "play draw", "sample", "play draw")
    assert ok(s, "undo") == "draw"
    assert ok(s, "to_move") == "0"
    assert len(json.loads(ok(s, "state"))["drawn"]) == 1


def test_history_lists_tokens_oldest_first():
    s = session("new dice die=pyramid seed=1", "play roll", "play SL", "play roll",
                "play ML")
    assert ok(s, "history") == "roll SL roll ML"
    refused(s, "history 2")


def test_quit_ends_the_session_politely():
    s = session("new dice seed=1")
    assert ok(s, "quit") == ""
    assert s.done


def test_too_long_a_line_is_refused():
    s = session("new dice seed=1")
    assert "too long" in refused(s, "play " + "x" * MAX_LINE)
    assert ok(s, "play roll") == "roll"


class _Finished(State):
    """A game that is already over, for the "over" answers."""
    GAME = "finished"

    def _init(self):
        pass

    def to_move(self):
        return OVER

    def legal_actions(self):
        return []

    def token(self, a):
        return "roll"

    def action(self, tok):
        return 0

    def num_players(self):
        return 2

    def scores(self):
        return [3, 1]

    def render(self):
        return "over"


def test_a_finished_game():
    s = Session(1)
    s.state = _Finished()
    assert ok(s, "to_move") == "over"
    assert ok(s, "legal") == ""
    assert ok(s, "score") == "3 1"
    assert json.loads(ok(s, "state"))["to_move"] == "over"
    assert "over" in refused(s, "play roll")
    assert "not a chance node" in refused(s, "sample")
    refused(s, "undo")


# ---- tools/ptp.py end to end --------------------------------------------------

def ptp(text, *args):
    p = subprocess.run([sys.executable, PTP] + list(args), input=text,
                       capture_output=True, text=True, timeout=60, cwd="/")
    return p.returncode, p.stdout, p.stderr


def answers(stdout):
    assert stdout.endswith("\n\n") or stdout == ""
    return stdout[:-2].split("\n\n") if stdout else []


def test_ptp_end_to_end():
    script = ("games\nnew dice die=pyramid seed=5\nplay roll\nlegal\nsample\n"
              "state\nbogus\nundo\nhistory\nquit\nplay roll\n")
    rc, out, err = ptp(script)
    assert rc == 0 and err == ""
    got = answers(out)
    assert len(got) == 10            # nothing after quit is answered
    assert got[0] == "= " + " ".join(registry.available())
    assert got[1] == "= dice seed=5"
    assert got[3] == "= S:1/6 M:1/6 L:1/6 SM:1/6 SL:1/6 ML:1/6"
    # the same seed in-process gives the same face
    face = ok(session("new dice die=pyramid seed=5", "play roll"), "sample")
    assert got[4] == "= " + face
    assert json.loads(got[5][2:])["last"] == [face]
    assert got[6].startswith("? ")
    assert got[7] == "= roll" and got[8] == "= " and got[9] == "= "


def test_ptp_seed_flag_and_windows_line_ends():
    script = "new dice\r\nplay roll\r\nsample\r\n"
    a = ptp(script, "--seed", "7")
    b = ptp(script, "--seed", "7")
    assert a[0] == 0 and a[1] == b[1]
    assert all(x.startswith("= ") for x in answers(a[1]))
    assert ptp(script, "--seed", "8")[1] != a[1]


def test_ptp_survives_bytes_that_are_not_utf8():
    script = b"new dice die=\xff seed=1\n\xfe\xff play\nnew dice seed=1\nplay roll\n"
    for env in ({"PYTHONIOENCODING": "utf-8"}, {"LC_ALL": "C"}):
        p = subprocess.run([sys.executable, PTP], input=script, capture_output=True,
                           timeout=60, cwd="/", env=dict(os.environ, **env))
        assert p.returncode == 0 and p.stderr == b"", p.stderr
        got = answers(p.stdout.decode("utf-8"))
        assert [a[:2] for a in got] == ["? ", "? ", "= ", "= "]


def test_ptp_ends_at_end_of_input_and_rejects_bad_flags():
    assert ptp("") == (0, "", "")
    rc, out, err = ptp("new dice\n", "--seed", "x")
    assert rc == 2 and "usage" in err and out == ""


# ---- fuzzing --------------------------------------------------------------

VALID = ["games", "new dice", "new dice die=pyramid count=3 seed=5",
         "new dice die=d6 seed=0", "new bag preset=ice_stalks",
         "new bag contents=r3*2,y1 seed=9", "new bag preset=bag_of_ice",
         "to_move", "legal", "play roll", "play draw", "play return", "play S",
         "play SM", "play r3", "play y1", "play r", "play 6", "sample", "state",
         "score", "show", "undo", "history", "help", "# comment", ""]

SETUPS = [(), ("new dice die=pyramid count=2 seed=3", "play roll"),
          ("new bag seed=4", "play draw", "sample"),
          ("new bag preset=ice_stalks seed=5", "play draw")]


def _every_game():
    """Every installed game gets a setup, and its opening tokens join VALID,
    so the fuzzing follows the registry without edits here."""
    for game in registry.available():
        s = Session(7)
        ok(s, "new %s seed=7" % game)
        SETUPS.append(("new %s seed=7" % game,))
        VALID.append("new %s" % game)
        for tok in ok(s, "legal").split()[:8]:
            VALID.append("play " + tok.split(":")[0])


_every_game()


def check_session_survives(setup, lines, tally):
    s = Session(11)
    for line in setup:
        ok(s, line)
    for line in lines:
        before = snapshot(s)
        good, body = answer(s, line)
        tally("accepted" if good else "refused")
        words = line.split()
        if not good:
            assert snapshot(s) == before, "refused %r changed the session" % line
            assert body
        elif words and words[0] == "state":
            assert set(json.loads(body)) >= {"game", "to_move", "scores"}
        if s.done:
            assert good and words[0] == "quit"
            s.done = False
    # a known sequence still works and gives the seeded result
    assert ok(s, "new dice die=d6 seed=31") == "dice seed=31"
    assert ok(s, "play roll") == "roll"
    assert ok(s, "sample") == FACE_31
    assert ok(s, "undo") == "roll"


FACE_31 = ok(session("new dice die=d6 seed=31", "play roll"), "sample")

ANY_CHAR = st.characters(blacklist_categories=("Cs",))
CONTROL = st.sampled_from([chr(i) for i in range(32)] + ["\x7f", "\x85", "\u2028",
                                                        "\ufeff", "\u200b"])


@st.composite
def mutated(draw):
    line = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 5))
        i = draw(st.integers(0, len(line)))
        if kind == 0:
            line = line[:i] + draw(st.one_of(ANY_CHAR, CONTROL)) + line[i:]
        elif kind == 1 and line:
            line = line[:i] + line[i + 1:]
        elif kind == 2:
            line = line[:i] + draw(st.sampled_from(VALID)) + line[i:]
        elif kind == 3:
            line = line.upper() if draw(st.booleans()) else line.swapcase()
        elif kind == 4:
            line = line + " " + draw(st.text(ANY_CHAR, max_size=12))
        else:
            line = line.replace(" ", draw(st.sampled_from(["", "  ", "\t", "=",
                                                           "\x00", "\u3000"])))
    return line


# The fuzzers run a few hundred examples in the everyday suite, and the
# sizes they were written with under ``make bench`` (the same checks).
RANDOM_TEXT = (st.sampled_from(SETUPS),
               st.lists(st.text(ANY_CHAR, max_size=40), min_size=1, max_size=6))
ASCII_AND_CONTROL = (st.sampled_from(SETUPS),
                     st.lists(st.text(CONTROL, max_size=10) |
                              st.text(st.characters(min_codepoint=0, max_codepoint=127),
                                      max_size=30),
                              min_size=1, max_size=6))
MUTATED = (st.sampled_from(SETUPS), st.lists(mutated(), min_size=1, max_size=8))


def fuzz(examples, setups, lines):
    """Random sessions of ``lines`` after one of ``setups``: each survives,
    and some lines were accepted and some refused."""
    tally = Tally()

    @settings(max_examples=examples)
    @given(setups, lines)
    def each(setup, lines):
        check_session_survives(setup, lines, tally)

    each()
    tally.require("accepted", "refused")


def test_fuzz_random_text():
    fuzz(150, *RANDOM_TEXT)


@pytest.mark.bench
def test_fuzz_random_text_at_length():
    fuzz(500, *RANDOM_TEXT)


def test_fuzz_ascii_and_control_characters():
    fuzz(120, *ASCII_AND_CONTROL)


@pytest.mark.bench
def test_fuzz_ascii_and_control_characters_at_length():
    fuzz(400, *ASCII_AND_CONTROL)


def test_fuzz_mutated_commands():
    fuzz(100, *MUTATED)


@pytest.mark.bench
def test_fuzz_mutated_commands_at_length():
    fuzz(1000, *MUTATED)


def test_fuzz_huge_lines():
    tally = Tally()

    @settings(max_examples=60)
    @given(st.sampled_from(SETUPS), st.sampled_from(VALID + ["x", "\u00e9", "\U0001F600"]),
           st.integers(MAX_LINE - 8, 3 * MAX_LINE), st.sampled_from(["", " ", "r3,"]))
    def each(setup, start, n, sep):
        line = (start + " " + ("a" + sep) * n)[:n]
        check_session_survives(setup, [line, "play " + "r3," * (n // 3)], tally)

    each()
    tally.require("refused")        # a line over MAX_LINE never gets in


# ---- docs/protocol.md -------------------------------------------------------

def doc_sessions():
    """The doc's examples as [(command, answer lines)], split into sessions:
    an example block that starts with `> new` starts a session, and the
    blocks after it continue that session until the next one."""
    path = os.path.join(ROOT, "docs", "protocol.md")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    sessions, current = [], None
    prev_blank = True
    for line in lines:
        if line.startswith("    > "):
            cmd = line[6:]
            if prev_blank and cmd.startswith("new "):
                current = []
                sessions.append(current)
            if current is not None:
                current.append((cmd, []))
        elif line.startswith("    ") and current and line[4:6] in ("= ", "? ") \
                or line.rstrip() == "    =":
            if current:
                current[-1][1].append(line[4:])
        prev_blank = not line.strip()
    return sessions


def test_doc_examples_are_real():
    sessions = doc_sessions()
    assert len(sessions) >= 4
    for steps in sessions:
        s = Session(0)
        for cmd, want in steps:
            if cmd == "games":      # depends on which games are installed
                continue
            got = s.handle(cmd)[:-2].split("\n")
            if cmd.startswith("new ") and "seed=" not in cmd:
                # an unseeded new picks its own seed: compare up to it
                got = [g.split(" seed=")[0] for g in got]
                want = [w.split(" seed=")[0] for w in want]
            assert [g.rstrip() for g in got] == [w.rstrip() for w in want], cmd


def test_to_json_fast_and_escaped_paths_agree_with_json():
    from engine.protocol import to_json
    cases = [[], [""], ["", ""], ["a", "b"], ['a"', "b"], ["a", "\\"],
             ["a\n"], ["a", 1], [1, "a"], ("t",), ['"', '","'],
             {"k": ['"', "'"], "": None, "q\"": [True, False, -3]},
             ["\u00e9", "\u00fc\x01"], [["a"], ["b", "c"]], [None, "a"]]
    # a long string is checked as bytes, a short one by its characters
    for tail in ("", "\x01", "\x1f", "\u00e9", '"', "\\", "\ud800"):
        cases += ["x" * 70 + tail, "x" * 63 + tail, {"g": "y" * 80 + tail}]
    for v in cases:
        assert json.loads(to_json(v)) == json.loads(json.dumps(v)), v


def test_hint_suggests_a_legal_move_or_says_there_is_none():
    s = Session(5)
    assert s.handle("new ice_solo seed=4").startswith("= ice_solo seed=4")
    legal = s.handle("legal")[2:].split()
    hint = s.handle("hint")
    assert hint.startswith("= ") and hint[2:].strip() in legal
    s.handle("play end")
    assert s.handle("hint") == "= none\n\n"       # the game is over
    assert s.handle("new dice") .startswith("= dice")
    assert s.handle("hint") == "? dice offers no hint\n\n"
    assert s.handle("hint now").startswith("? unexpected")


def test_legal_takes_a_games_own_text_when_it_writes_one(monkeypatch):
    """A game may answer ``legal`` in one piece (``legal_text``); None from
    it means the usual token list."""
    s = Session(1)
    s.handle("new ice_solo seed=1 variant=4")
    usual = s.handle("legal")
    game = type(s.state)
    monkeypatch.setattr(game, "legal_text", lambda self: None, raising=False)
    assert s.handle("legal") == usual
    monkeypatch.setattr(game, "legal_text", lambda self: "a1-b2 remix", raising=False)
    assert s.handle("legal") == "= a1-b2 remix\n\n"


@pytest.mark.parametrize("line,reason", [
    ("new dice count=+3", "count=+3: expected a whole number 1..6"),
    ("new bag_of_ice players=+4", "players=+4: expected a whole number 1..12"),
    ("new bag_of_ice target=+60", "target=+60: expected a whole number 1..999"),
    ("new dice count=\u00b3", "count=\u00b3: expected a whole number 1..6"),
    ("new dice count=\u0663", "count=\u0663: expected a whole number 1..6"),
    ("new dice count=1_0", "count=1_0: expected a whole number 1..6"),
    ("new dice seed=1_000", "seed=1_000: expected a whole number"),
    ("new dice seed=\u0663", "seed=\u0663: expected a whole number"),
    ("new dice seed=+5", "seed=+5: expected a whole number"),
    ("new dice seed=\u00b3", "seed=\u00b3: expected a whole number"),
    ("new dice seed=-1", "seed=-1: expected 0..4294967295"),
])
def test_options_take_plain_ascii_digits_only(line, reason):
    # int() also reads a sign, underscores and other scripts'
    # digits; the docs promise a whole number, so these are refused with
    # the project's own words, and the game in hand stays
    s = session("new dice seed=3")
    before = snapshot(s)
    assert refused(s, line) == reason
    assert snapshot(s) == before


@pytest.mark.parametrize("line,reason", [
    ("new dice count=\x1b[31m", "count=\\x1b[31m: expected a whole number 1..6"),
    ("new dice seed=\x07", "seed=\\x07: expected a whole number"),
    ("new dice die=\x1b", "die=\\x1b: choose one of pyramid|color|treehouse|d6"),
    ("new dice \x1b=1", "unknown option \\x1b for dice (options: die, count)"),
    ("new dice \x9b=1 \x9b=2", "option \\x9b given twice"),
    ("new bag preset=\x1b", "preset=\\x1b: choose one of bag_of_ice|ice_stalks"),
    ("new ice_solo variant=\x7f", "variant=\\x7f: choose one of 4|5"),
    ("new bag_of_ice bots=\x1b", "bots=\\x1b: expected seats 1..3, separated by "
                                 "commas, each once"),
])
def test_refusals_escape_control_characters(line, reason):
    # a refusal echoing ESC or BEL raw would reach a terminal as a command
    s = Session(1)
    assert refused(s, line) == reason
