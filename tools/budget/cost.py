#!/usr/bin/env python3
"""The device budget's time measure: Python bytecode instructions that the
board's own code executes, counted on desktop CPython, in reference-board
milliseconds. The same figure on every run and every machine with this
Python version: nothing in it reads a clock.

    python tools/budget/cost.py --game ice_towers --board pico_16x16
    python tools/budget/cost.py --game pointsettia --bots
    python tools/budget/cost.py --all              # every game, both boards

How (docs/budget.md, "Time"):

* The real app runs on Blinka as the simulator runs it (tools/simkit.py),
  through the budget's app scenario (tools/budget/driver.py's ``run_app``):
  boot, open the game from the menu, seeded presses with one escape and
  resume, protocol lines on the USB data port. The app's clock is a counter
  stepped 20 ms a pass.
* During each ``app.step()`` ``sys.settrace`` with ``f_trace_opcodes``
  counts the instructions of device frames only: code.py, engine/, lib/,
  boards/. Stand-ins, Blinka and tools are not counted; C work a device
  instruction starts (a slice copy, a bytearray compare) counts as that
  one instruction, as C does that work on the board too.
* Instructions become reference milliseconds through the same count of
  tools/budget/pystone.py (instructions per pystone; the reference board
  runs REF_PYSTONES a second), plus LED_US per LED on every NeoPixel
  transfer of the pass (a show() sends the whole strip).
* Each measure runs in a fresh interpreter with PYTHONHASHSEED=0 and the
  collector off (collected between passes, outside the count), so neither
  hash order, modules left loaded by an earlier run nor a collection can
  move a figure.

``measure_app`` and ``measure_bots`` are the interface tools/budget.py uses.
"""

import argparse
import gc
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

REF_PYSTONES = 700       # the reference board's pystones a second
PICO_PYSTONES = 890      # CircuitPython 10.3 on an emulated Pico (calibration)
LED_US = 30              # a WS2812 takes this long per LED of a transfer
PYSTONE_LOOPS = 200      # pystone is counted at this many loops and twice it
BOARDS = ("pico_8x8", "pico_16x16")
SEED = 7                 # the budget's app scenarios' seed
PRESSES = 120
BOT_SEED = 1
BOT_STEPS = 400
RUN_TIMEOUT = 900
GC_PASSES = 64           # the collector runs this often, between passes

# the driver's scenario (tools/budget/driver.py)
UP, DOWN, LEFT, RIGHT, A, B = 0, 1, 2, 3, 4, 5
PASS_MS = 20
HOLD_MS = 1300
WEIGHTS = (UP, DOWN, LEFT, RIGHT, A, A, A, A, RIGHT, DOWN, B)

# the Pico figures the conversion is checked against: worst drawn pass with
# its LED write, ms at PICO_PYSTONES (docs/budget.md)
PICO_WORST = (("ice_towers", "pico_16x16", 48.5), ("pointsettia", "pico_16x16", 34.8),
              ("ice_solo", "pico_8x8", 11.6))

DEVICE_DIRS = tuple(os.path.join(ROOT, d) + os.sep for d in ("engine", "lib", "boards"))
DEVICE_FILES = (os.path.join(ROOT, "code.py"),)


def is_device_file(path):
    """Whether ``path`` (a code object's file name) is code a board runs."""
    path = os.path.abspath(path)
    return path.startswith(DEVICE_DIRS) or path in DEVICE_FILES


def load_driver():
    """tools/budget/driver.py as a module: its button generator is the
    scenario's, so the count and the heap runs press the same buttons."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("budget_driver",
                                                  os.path.join(HERE, "driver.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


XorShift = load_driver().XorShift


# ---- counting ------------------------------------------------------------------
class Counter:
    """Counts the bytecode instructions executed in frames whose code
    ``wanted(code)`` accepts, per code object, while :meth:`run` runs."""

    def __init__(self, wanted=None):
        self.wanted = wanted or (lambda code: is_device_file(code.co_filename))
        self.tracers = {}       # code -> its local tracer, or None (not counted)
        self.cells = {}         # code -> [count since the last take()]
        self.touched = set()    # codes entered since the last take()

    def _tracer_for(self, code):
        if not self.wanted(code):
            self.tracers[code] = None
            return None
        cell = [0]
        self.cells[code] = cell

        def local(frame, event, arg):
            if event == "opcode":
                cell[0] += 1
            return local
        self.tracers[code] = local
        return local

    def _call(self, frame, event, arg):
        code = frame.f_code
        try:
            local = self.tracers[code]
        except KeyError:
            local = self._tracer_for(code)
        if local is None:
            return None
        frame.f_trace_lines = False
        frame.f_trace_opcodes = True
        self.touched.add(code)
        return local

    def run(self, fn, *args):
        """``fn(*args)`` with counting on; its result."""
        sys.settrace(self._call)
        try:
            return fn(*args)
        finally:
            sys.settrace(None)

    def take(self):
        """``{code: instructions}`` counted since the last take (and reset)."""
        out = {}
        cells = self.cells
        for code in self.touched:
            cell = cells[code]
            if cell[0]:
                out[code] = cell[0]
                cell[0] = 0
        self.touched = set()
        return out


def code_name(code):
    """``file:line qualname`` of a code object, the file relative to ROOT."""
    path = os.path.relpath(code.co_filename, ROOT)
    return "%s:%d %s" % (path, code.co_firstlineno, code.co_qualname)


def top_functions(counts, n):
    """The ``n`` code objects that cost the most, as ``[[name, count]]``
    (ties by name, so the list is the same every run)."""
    rows = sorted(((c, code_name(code)) for code, c in counts.items()),
                  key=lambda r: (-r[0], r[1]))
    return [[name, c] for c, name in rows[:n]]


def pystone_instructions(loops=PYSTONE_LOOPS):
    """Instructions per pystone: pystone counted at ``loops`` and twice it,
    so its set-up cancels out."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("cost_pystone",
                                                  os.path.join(HERE, "pystone.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    path = os.path.abspath(mod.__file__)
    counter = Counter(lambda code: os.path.abspath(code.co_filename) == path)
    counter.run(mod.run, loops)
    once = sum(counter.take().values())
    counter.run(mod.run, 2 * loops)
    twice = sum(counter.take().values())
    return (twice - once) / float(loops)


def to_ms(instructions, leds, per_pystone, pystones=REF_PYSTONES):
    """Milliseconds on a board of ``pystones`` a second: the instructions
    at ``per_pystone`` instructions a pystone, plus the LED transfer."""
    return instructions * 1000.0 / (per_pystone * pystones) + leds * LED_US / 1000.0


# ---- the app scenario (runs in a worker process) ---------------------------------
class SerialPort:
    """The USB data port: bytes the scenario pushes in, answers counted.
    On a board this is C (usb_cdc), so it is not counted here either."""

    def __init__(self):
        self.incoming = bytearray()
        self.written = 0
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
        self.written += len(data)
        return len(data)


def make_sim(board, seed):
    """The simulator's console for ``board``, composed as code.make_app does
    on the board: a piezo only where the board's profile names one, the
    protocol on a USB data port from the first pass."""
    from tools import simkit
    import boards
    sim = simkit.Sim(board=board, seed=seed, app=False)
    from lib.app import App
    from lib.link import Link
    sound = None
    if boards.load(board).PIEZO_PIN:
        from lib.sound import Sound
        sound = Sound(simkit.ToneRecorder())
    p = sim.parts
    app = App(p.display, p.buttons, p.store, clock=sim.clock, seed=seed, sound=sound)
    app.parts = p
    port = SerialPort()
    app.link = Link(app, port)
    sim.app = app
    return sim, port


def menu_position(gid):
    from engine import catalog
    for i, e in enumerate(catalog.GAMES):
        if e.gid == gid:
            return i
    raise ValueError("game %s is not in the catalog" % gid)


def app_passes(board, gid, seed, presses, top=12):
    """The app scenario in this process: one record per ``app.step()``."""
    sim, port = make_sim(board, seed)
    app = sim.app
    leds = sim.parts.pixels.n
    counter = Counter()
    records = []
    rng = XorShift(seed)

    def one_pass(key, pressed):
        sim.now = PASS_MS * len(records)
        if key >= 0:
            if pressed:
                sim.down(simkit_name(key))
            else:
                sim.up(simkit_name(key))
        before = set(sys.modules)
        writes = sim.writes
        counter.run(app.step)
        counts = counter.take()
        shown = sim.writes - writes
        n = sum(counts.values())
        records.append({
            "pass": len(records), "instructions": n, "leds": shown * leds,
            "key": key >= 0, "frame": shown > 0,
            "load": any(m not in before for m in sys.modules),
            "release": any(m not in sys.modules for m in before),
            "top": top_functions(counts, top)})
        if len(records) % GC_PASSES == 0:
            gc.collect()

    def idle(n):
        for _ in range(n):
            one_pass(-1, False)

    def press(key, hold_ms=60):
        one_pass(key, True)
        idle(hold_ms // PASS_MS)
        one_pass(key, False)
        idle(3)

    def open_game():
        for _ in range(menu_position(gid) + 20):
            if app.menu.current() == gid:
                break
            press(RIGHT)
        press(A)
        idle(10)

    idle(80)
    open_game()
    for i in range(presses):
        if i == presses // 4:
            port.incoming.extend(b"state\nlegal\nshow\nhint\n")
        if i == presses // 2:
            press(B, HOLD_MS)
            idle(10)
            press(A)
            idle(10)
            continue
        press(WEIGHTS[rng.below(len(WEIGHTS))])
        if rng.below(8) == 0:
            idle(60)
        if app.game is None and app.scr is app.menu:
            open_game()
    idle(150)
    return records


def simkit_name(key):
    from tools import simkit
    return simkit.BUTTONS[key]


# ---- the bots (runs in a worker process) -----------------------------------------
def bot_moves(gid, opts, seed, steps, top=8):
    """Seeded random protocol lines, as driver.py's engine run: at every
    turn of a game with a bot, the whole move (``hint()``) and each
    ``think()`` slice, counted. One record per turn."""
    from engine.protocol import Session
    session = Session(seed, auto=False)
    rng = XorShift(seed)
    answer = session.handle("new %s seed=%d %s" % (gid, seed, opts))
    if not answer.startswith("="):
        raise ValueError("new refused: " + answer)
    counter = Counter()
    out = []
    for _ in range(steps):
        state = session.state
        who = state.to_move()
        if who == -2:
            break
        if who == -1:
            line = "sample"
        else:
            bot = getattr(type(state), "bot_move", None)
            hint = getattr(type(state), "hint", None)
            if bot is not None and hint is not None:
                counter.run(state.hint)
                move = counter.take()
                slices = []
                worst = None
                if getattr(type(state), "think", None) is not None:
                    plan = state.think()
                    while True:
                        got = counter.run(next, plan)
                        counts = counter.take()
                        n = sum(counts.values())
                        if worst is None or n > worst[0]:
                            worst = (n, counts)
                        slices.append(n)
                        if got is not None:
                            break
                out.append({"turn": len(out), "seat": who,
                            "move": sum(move.values()), "slices": slices,
                            "top_move": top_functions(move, top),
                            "top_slice": top_functions(worst[1], top) if worst else []})
                gc.collect()
            moves = state.legal_actions()
            line = "play " + state.token(moves[rng.below(len(moves))])
        answer = session.handle(line)
        if not answer.startswith("="):
            raise ValueError("%s refused: %s" % (line, answer))
    return out


# ---- the interface -----------------------------------------------------------------
def _worker(args):
    """Run one measure in a fresh interpreter with a fixed hash seed; its
    JSON result."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, os.path.abspath(__file__), "--worker"] + [str(a) for a in args]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=RUN_TIMEOUT)
    for line in res.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    tail = (res.stdout + res.stderr).strip().splitlines()[-8:]
    raise RuntimeError("cost worker %s failed (exit %d): %s"
                       % (" ".join(cmd[2:]), res.returncode, "\n".join(tail)))


def with_ms(records, per_pystone, pystones=REF_PYSTONES):
    for r in records:
        r["ms"] = to_ms(r["instructions"], r["leds"], per_pystone, pystones)
    return records


def measure_app(board, gid, seed=SEED, presses=PRESSES):
    """The app scenario for ``gid`` on ``board``: a list of per-pass dicts
    with ``ms`` (reference-board ms, LED transfer included),
    ``instructions``, ``leds`` (LEDs transferred), ``key`` (a button edge
    came in), ``frame`` (the LEDs were written), ``load`` (a module was
    imported), ``release`` (a module was dropped: leaving a game) and
    ``top`` (the costliest functions, ``[[name, count]]``)."""
    r = _worker(["app", board, gid, seed, presses])
    return with_ms(r["passes"], r["per_pystone"])


def measure_bots(gid, opts="", seed=BOT_SEED, steps=BOT_STEPS):
    """A seeded protocol game of ``gid`` with options ``opts`` (e.g.
    ``"players=4 bots=2,3,4"``): a list of per-turn dicts with ``move``
    (reference ms of the whole move, ``hint()``), ``slices`` (reference ms
    of each ``think()`` slice; empty for a bot without ``think``),
    ``instructions`` of both, and the costliest functions of the move
    (``top_move``) and of its worst slice (``top_slice``). Empty for a game
    without a bot."""
    r = _worker(["bots", gid, seed, steps, opts])
    ipp = r["per_pystone"]
    out = []
    for t in r["turns"]:
        t["move_instructions"] = t["move"]
        t["slice_instructions"] = t["slices"]
        t["move"] = to_ms(t["move"], 0, ipp)
        t["slices"] = [to_ms(n, 0, ipp) for n in t["slices"]]
        out.append(t)
    return out


def per_pystone():
    """Instructions per pystone, counted in a worker like the measures."""
    return _worker(["pystone"])["per_pystone"]


def worker_main(args):
    if os.environ.get("PYTHONHASHSEED") != "0":
        raise SystemExit("cost: a worker needs PYTHONHASHSEED=0 (run through measure_*)")
    gc.disable()
    what = args[0]
    ipp = pystone_instructions()
    if what == "app":
        out = {"passes": app_passes(args[1], args[2], int(args[3]), int(args[4]))}
    elif what == "bots":
        out = {"turns": bot_moves(args[1], " ".join(args[4:]), int(args[2]), int(args[3]))}
    elif what == "pystone":
        out = {}
    else:
        raise SystemExit("cost: unknown worker run %r" % what)
    out["per_pystone"] = ipp
    sys.stdout.write("RESULT " + json.dumps(out) + "\n")
    sys.stdout.flush()
    # Blinka's keypad scanner thread never ends: leave without joining it
    os._exit(0)


# ---- the command line ----------------------------------------------------------------
def catalog():
    """``(built games, {game with a bot: option sets})`` from the catalog."""
    from engine import catalog as cat
    games = [e.gid for e in cat.GAMES if e.built]
    return games, dict((e.gid, list(e.budget or ("",))) for e in cat.GAMES)


def worst(records, n, pick=None):
    rows = [r for r in records if pick is None or pick(r)]
    return sorted(rows, key=lambda r: (-r["ms"], r["pass"]))[:n]


def in_game(records):
    """The steady passes from the game's first load on (the boot and the
    menu before it are the same for every game)."""
    for i, r in enumerate(records):
        if r["load"]:
            return [x for x in records[i:] if steady(x)]
    return []


def print_app(board, gid, records, n, funcs, pystones):
    print("%s on %s: %d passes" % (gid, board, len(records)))
    kinds = (("drawn", lambda r: r["frame"] and steady(r)),
             ("press", lambda r: r["key"] and steady(r)),
             ("steady", steady),
             ("load or release", lambda r: not steady(r)))
    for name, pick in kinds:
        w = worst(records, 1, pick)
        if w:
            print("  worst %-16s %7.2f ms (pass %d)" % (name + ":", w[0]["ms"], w[0]["pass"]))
    for r in worst(records, n, steady):
        flags = ",".join(f for f in ("key", "frame", "load", "release") if r[f]) or "idle"
        extra = ""
        if pystones != REF_PYSTONES:
            extra = " (%.2f ms at %d pystones/s)" % (r["ms_at"], pystones)
        print("\n  pass %d [%s]: %.2f ms, %d instructions, %d LEDs%s" % (
            r["pass"], flags, r["ms"], r["instructions"], r["leds"], extra))
        for name, c in r["top"][:funcs]:
            print("    %7d  %5.1f%%  %s" % (c, 100.0 * c / max(1, r["instructions"]), name))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="a game id (repeatable)")
    ap.add_argument("--board", action="append", choices=BOARDS, help="a board (repeatable)")
    ap.add_argument("--all", action="store_true", help="every built game on both boards")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--presses", type=int, default=PRESSES)
    ap.add_argument("--worst", type=int, default=5, help="how many worst passes to show")
    ap.add_argument("--functions", type=int, default=10, help="functions shown per pass")
    ap.add_argument("--pystones", type=int, default=REF_PYSTONES,
                    help="also show times on a board this fast (e.g. 890, the Pico)")
    ap.add_argument("--bots", action="store_true", help="measure the bots too")
    ap.add_argument("--calibrate", action="store_true",
                    help="the Pico calibration check (ratios to the measured passes)")
    ap.add_argument("--json", metavar="FILE", help="write every record as JSON")
    args = ap.parse_args(argv)
    t0 = time.time()
    games, bot_sets = catalog()
    if args.calibrate:
        return calibrate()
    if args.all:
        chosen = games
    elif args.game:
        unknown = [g for g in args.game if g not in games]
        if unknown:
            ap.error("unknown game %s (games: %s)" % (", ".join(unknown), " ".join(games)))
        chosen = args.game
    else:
        ap.error("name a game (--game ID) or --all")
    boards = args.board or list(BOARDS)
    dump = {"app": [], "bots": []}
    summary = []
    for g in chosen:
        for b in boards:
            recs = measure_app(b, g, args.seed, args.presses)
            for r in recs:
                # the same instructions on a board of another speed
                led = r["leds"] * LED_US / 1000.0
                r["ms_at"] = (r["ms"] - led) * REF_PYSTONES / args.pystones + led
            print_app(b, g, recs, args.worst, args.functions, args.pystones)
            print()
            dump["app"].append({"game": g, "board": b, "passes": recs})
            w = worst(recs, 1, steady)[0]
            wg = worst(in_game(recs), 1)
            summary.append((g, b, w, wg[0] if wg else None))
        if args.bots:
            for opts in bot_sets.get(g, [""]):
                turns = measure_bots(g, opts)
                dump["bots"].append({"game": g, "opts": opts, "turns": turns})
                if not turns:
                    continue
                wm = max(turns, key=lambda t: t["move"])
                sl = [s for t in turns for s in t["slices"]]
                print("%s %s: %d bot turns, worst move %.2f ms, worst slice %s" % (
                    g, opts or "(defaults)", len(turns), wm["move"],
                    "%.2f ms" % max(sl) if sl else "- (no think)"))
    print("worst steady pass (no module imported or released), reference ms:")
    print("  %-12s %-11s %18s  %18s" % ("game", "board", "whole run", "in the game"))
    for g, b, w, wg in summary:
        print("  %-12s %-11s %7.2f ms (%5d)  %7.2f ms (%5d)" % (
            g, b, w["ms"], w["pass"], wg["ms"] if wg else 0, wg["pass"] if wg else -1))
    print("measured in %.0f s" % (time.time() - t0))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dump, f)
    return 0


def at_pico(r):
    """A pass's reference ms as the emulated Pico would read it."""
    led = r["leds"] * LED_US / 1000.0
    return (r["ms"] - led) * REF_PYSTONES / PICO_PYSTONES + led


def steady(r):
    """A pass that neither imports nor releases a module (entering or
    leaving a game): what the pass gates judge."""
    return not r["load"] and not r["release"]


def calibrate():
    """Print the worst drawn passes, scaled to the emulated Pico, against
    the figures measured there: over all drawn passes and over drawn
    passes with a press."""
    for gid, board, pico_ms in PICO_WORST:
        recs = measure_app(board, gid)
        for what, pick in (("drawn", lambda r: r["frame"] and steady(r)),
                           ("drawn, press", lambda r: r["frame"] and r["key"] and steady(r))):
            w = worst(recs, 1, pick)[0]
            at = at_pico(w)
            print("%-12s %-11s worst %-13s pass %4d: %5.2f ms at %d pystones/s "
                  "(Pico %.1f ms): ratio %.2f" % (gid, board, what + ",", w["pass"], at,
                                                 PICO_PYSTONES, pico_ms, at / pico_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
