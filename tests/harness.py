"""What the tests share: the simulator's helpers, the text protocol's
driver for the oracles, and a tally for property tests.

The oracles share only the driver here (sending lines, reading ``= ...``
and ``? ...`` answers); each keeps its own model of the rules.
"""
import json
import os
from collections import Counter
from fractions import Fraction
from math import gcd

from engine.protocol import Session
from tools.simkit import ROOT, Sim

BOARDS = ("pico_8x8", "pico_16x16")
BOOT_MS = 1500          # past the boot screen, into the menu
STEP_MS = 20            # one loop pass or so


# ---- the simulator -----------------------------------------------------------
def boot(board="pico_8x8", nvm=None, seed=1):
    """str, bytearray|None, int -> Sim: the app booted past its boot screen."""
    sim = Sim(board=board, seed=seed, nvm=nvm)
    sim.advance(BOOT_MS)
    return sim


def wait_for(sim, cond, ms=8000, then=None):
    """Sim, () -> bool, int, (Sim) -> None: advance until ``cond()`` holds,
    then run ``then(sim)`` (a file's way to finish its frame); fails after
    ``ms`` of simulated time."""
    end = sim.now + ms
    while sim.now < end:
        if cond():
            if then is not None:
                then(sim)
            return
        sim.advance(STEP_MS)
    raise AssertionError("timed out")


def settle(sim):
    """Sim -> None: let a frame finish going up (on 16x16 a frame that
    changes many rows is written over a few passes)."""
    for _ in range(5):
        if not sim.display.owed:
            return
        sim.advance(STEP_MS)


# ---- the text protocol -------------------------------------------------------
class Refused(Exception):
    """The session answered ``? reason``; the reason is the message."""


def answer(session, line):
    """Session, str -> (bool, str): whether ``line`` was accepted, and the
    answer's body. The framing is checked: ``= `` or ``? ``, one blank line
    at the end and none before it, no internal error, and a refusal's
    reason with its control characters escaped."""
    a = session.handle(line)
    assert isinstance(a, str) and a[:2] in ("= ", "? "), (line, a)
    assert a.endswith("\n\n") and "\n\n" not in a[:-2], (line, a)
    assert "internal error" not in a, (line, a)
    if a[0] == "?":
        assert all(ch == "\n" or ord(ch) >= 32 for ch in a[:-2]), (line, a)
    return a[0] == "=", a[2:-2]


def ask(session, line):
    """Session, str -> str: the body of an accepted answer; raises Refused."""
    ok, body = answer(session, line)
    if not ok:
        raise Refused("%r: %s" % (line, body))
    return body


# what a refusal must leave as it was, as the protocol shows it
WATCHED = ("state", "legal", "history", "to_move", "score")


def observe(session):
    """Session -> tuple: the answers to the WATCHED commands."""
    return tuple(answer(session, c) for c in WATCHED)


def snapshot(session):
    """Session -> tuple: the game's saved bytes and the session's generator.
    It reads the engine, so it is for the engine's tests, not the oracles'."""
    st = session.state
    return (None if st is None else (st.GAME, st.serialize()), session.rng.getstate())


def refused(session, line, look=observe):
    """Session, str, (Session) -> object -> str: ``line`` is refused with a
    reason, the session goes on, and what ``look`` sees is unchanged
    (``look=None``: the caller checks); returns the reason."""
    before = look(session) if look else None
    ok, body = answer(session, line)
    assert not ok, "%r was accepted: %s" % (line, body)
    assert body.strip(), "a refusal of %r without a reason" % line
    assert not session.done, "a refusal ended the session"
    if look:
        assert look(session) == before, "refused %r changed the session" % line
    return body


def parse_odds(words):
    """[str] -> [(str, Fraction)]: ``token:n/d`` words, each in lowest terms,
    the whole adding up to 1."""
    out = []
    for w in words:
        tok, fr = w.split(":")
        n, d = (int(x) for x in fr.split("/"))
        assert n > 0 and d > 0 and gcd(n, d) == 1, w
        out.append((tok, Fraction(n, d)))
    assert sum(f for _, f in out) == 1, words
    return out


def state_diff(got, want):
    """dict, dict -> str: one line per field where the two differ."""
    return "\n".join("%s: engine %r, oracle %r" % (k, got.get(k), want.get(k))
                     for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k))


def session(*lines, seed=1):
    """str..., int -> Session: a session that has accepted ``lines``."""
    s = Session(seed)
    for line in lines:
        ask(s, line)
    return s


class OracleSession:
    """One engine Session, driven through its text lines beside an oracle's
    model. A game's harness subclasses it: it sets ``self.o`` (its model)
    and defines ``_apply(token)`` (check a token against the model and
    apply it there) and ``follow(tokens)`` (the moves the session made by
    itself). ``log`` is the history the engine should show."""

    def __init__(self, seed, auto=False, stats=None):
        self.stats = Counter() if stats is None else stats
        self.s = Session(seed, auto=auto)
        self.log = []
        self.stack = []          # the model's positions before each move

    def start(self, game, options, seed):
        """str, str, int -> [str]: ``new`` a game; the tokens after its
        name and seed (a deal or the bots' moves made at once)."""
        line = " ".join(w for w in ("new", game, options, "seed=%d" % seed) if w)
        words = self.ask(line).split()
        assert words[:2] == [game, "seed=%d" % seed], words
        return words[2:]

    def ask(self, line):
        return ask(self.s, line)

    def refused(self, line):
        reason = refused(self.s, line)
        self.stats["refusals"] += 1
        return reason

    def check_state(self, want):
        """dict -> dict: the engine's ``state`` is the model's ``want``."""
        got = json.loads(self.ask("state"))
        assert got == want, state_diff(got, want)
        return got

    def play(self, tok):
        words = self.ask("play " + tok).split()
        assert words[0] == tok, (tok, words)
        self._apply(tok)
        self.follow(words[1:])

    def sample(self):
        words = self.ask("sample").split()
        self._apply(words[0])
        self.follow(words[1:])
        self.stats["samples"] += 1
        return words[0]


# ---- property tests ----------------------------------------------------------
class Tally:
    """Counts a property test's generated inputs by outcome, so that the
    test can show both outcomes came up (a check that refuses everything,
    or accepts everything, proves little)."""

    def __init__(self):
        self.counts = Counter()

    def __call__(self, outcome):
        self.counts[outcome] += 1

    def require(self, *outcomes):
        for o in outcomes:
            assert self.counts[o] > 0, "no generated input was %s: %s" % (o, dict(self.counts))


def game_part(payload):
    """bytes -> bytes: the game's bytes of a save record's payload (the
    screen's view, saved first, left out)."""
    from lib import save
    return save.split_game(bytes(payload))[1]


def budget_driver():
    """tools/budget/driver.py as a module (tools/budget.py's name is taken by
    the command, so the folder cannot be imported as a package)."""
    import importlib.util
    path = os.path.join(ROOT, "tools", "budget", "driver.py")
    spec = importlib.util.spec_from_file_location("budget_driver", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class MemoryPort:
    """usb_cdc.Serial's members that the link uses, over two byte buffers."""

    def __init__(self):
        self.incoming = bytearray()
        self.outgoing = bytearray()
        self.timeout = 1

    @property
    def in_waiting(self):
        return len(self.incoming)

    def readinto(self, buf):
        n = min(len(buf), len(self.incoming))
        buf[:n] = self.incoming[:n]
        del self.incoming[:n]
        return n

    def write(self, data):
        self.outgoing += data
        return len(data)


def ask_over_port(sim, port, line, passes=200):
    """Sim, MemoryPort, bytes -> str: send one line and let the app run until its answer is complete."""
    port.outgoing.clear()
    port.incoming += line
    for _ in range(passes):
        sim.advance(sim.frame_ms)
        if port.outgoing.endswith(b"\n\n") and not port.incoming:
            break
    return port.outgoing.decode()
