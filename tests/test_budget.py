"""tools/budget.py's own logic, without running MicroPython (make budget
does that): the CPython mirror of the runner's chooser, transcript
canonicalisation, and that over-budget figures are flagged."""

import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import budget  # noqa: E402


def test_chooser_mirror_matches_the_node_runner():
    # the CPython replay is only a check if both sides draw the same moves
    node = shutil.which("node")
    assert node, "node is needed by tools/budget (make budget)"
    for seed in (0, 1, 7, 0xFFFFFFFF):
        out = subprocess.run([node, os.path.join(ROOT, "tools", "budget", "run.mjs"),
                              "--xorshift", str(seed), "50"],
                             stdout=subprocess.PIPE, check=True, timeout=60).stdout
        r = budget.XorShift(seed)
        assert json.loads(out) == [r.next() for _ in range(50)]


def test_canonical_sorts_json_keys_only():
    a = '= {"b":1,"a":{"d":[1,2],"c":"x"},"10":0,"9":1}\n\n'
    b = '= {"9":1,"a":{"c":"x","d":[1,2]},"10":0,"b":1}\n\n'
    assert budget.canonical(a) == budget.canonical(b)
    assert budget.canonical(a) == '= {"10":0,"9":1,"a":{"c":"x","d":[1,2]},"b":1}\n\n'
    assert budget.canonical("= r3 y2\n\n") == "= r3 y2\n\n"
    assert budget.canonical(a) != budget.canonical(a.replace('"c":"x"', '"c":"y"'))


def test_cpython_playthrough_is_seeded():
    h1, over1, n1 = budget.cpython_playthrough("dice", "count=2", 3, 80)
    h2, over2, n2 = budget.cpython_playthrough("dice", "count=2", 3, 80)
    h3 = budget.cpython_playthrough("dice", "count=2", 4, 80)[0]
    assert (h1, n1) == (h2, n2)
    assert h1 != h3
    assert n1 >= 80 and not over1     # dice never ends: the step cap stops it


def _engine_result(step_ms, peak, heap, total=48000):
    steps = [{"line": "to_move", "ms": 0.05, "peak": 3000, "heap": total, "live": 2900},
             {"line": "state", "ms": step_ms, "peak": peak, "heap": heap, "live": 3000}]
    return {"game": "dice", "opts": "", "mode": "mpy", "base_alloc": 1000,
            "total": total, "worst_heap": max(total, heap),
            "imports": [{"name": "engine.dice", "ms": 0.5, "peak": 2500, "heap": total,
                         "live": 2400}],
            "playthroughs": [{"seed": 1, "over": False, "steps": steps,
                              "transcript_hash": "x"}]}


def test_engine_summary_scales_time_and_flags_growth():
    s = budget.summarise_engine(_engine_result(0.41, 20000, 48000), 0.01, 75.0)
    assert s["peak"] == 19000 and s["peak_where"] == "state"
    assert s["worst_ms"] == pytest.approx(0.40 * 75.0)
    assert s["worst_line"] == "state"
    assert not s["grew"]
    assert s["load_ms"] == pytest.approx(0.49 * 75.0)
    grown = budget.summarise_engine(_engine_result(0.1, 60000, 96000), 0.01, 75.0)
    assert grown["grew"] and grown["worst_heap"] == 96000


def test_app_summary_gates_play_not_loading():
    steps = [
        {"what": "tick", "t": 20, "ms": 2.0, "peak": 5000, "heap": 96000, "live": 4000,
         "game": "-", "phase": "boot"},
        {"what": "press a", "t": 40, "ms": 3.0, "peak": 9000, "heap": 96000, "live": 8000,
         "game": "dice", "phase": "enter"},
        {"what": "press up", "t": 60, "ms": 0.3, "peak": 8500, "heap": 96000,
         "live": 8000, "game": "dice", "phase": "play"},
    ]
    r = {"mode": "app-mpy", "base_alloc": 1000, "total": 96000, "worst_heap": 96000,
         "imports": [], "make": {"ms": 1.0, "peak": 4000, "heap": 96000, "live": 3500},
         "steps": steps, "live_in_game": 8000, "live_after_exit": 4000,
         "left_to": "- 1 2 Menu", "transcript_hash": "h", "gc_ms": 0.05,
         "frame_ms": 0.2, "offboard": 100, "nominal": 96000}
    s = budget.summarise_app(r, 0.0, 100.0)
    assert s["worst_ms"] == pytest.approx(30.0)      # the play pass, not the load
    assert s["worst_what"] == "press up at 60 ms"
    assert s["load_ms"] == pytest.approx(300.0)
    assert s["phases"]["boot"][0] == pytest.approx(200.0)
    assert s["peak"] == 8000 and s["live_in_game"] == 7000
    assert not s["grew"]


def _rep(*overs, ran=()):
    rep = {"failures": [], "over": [], "ran": set(ran)}
    for key, value in overs:
        budget.over(rep, key, value, "%s is %s" % (key, value))
    return rep


def test_known_exceedance_is_held_not_failed():
    rep = _rep(("g: step mpy", 40.0), ran=["g: step mpy"])
    budget.judge(rep, {"g: step mpy": {"value": 38.0, "why": "a reason"}})
    assert rep["failures"] == []
    assert [(o["key"], o["recorded"], o["why"]) for o in rep["known"]] == [
        ("g: step mpy", 38.0, "a reason")]


def test_known_exceedance_that_got_worse_fails():
    rep = _rep(("g: step mpy", 38.0 * budget.KNOWN_SLACK_MS + 0.1))
    budget.judge(rep, {"g: step mpy": {"value": 38.0}})
    assert len(rep["failures"]) == 1 and "worse than the recorded 38.0" in rep["failures"][0]
    assert rep["known"] == []


def test_new_exceedance_fails_and_met_entries_are_reported():
    rep = _rep(("h: peak mpy", 30000), ran=["g: step mpy", "h: peak mpy"])
    budget.judge(rep, {"g: step mpy": {"value": 38.0}, "gone: cap py": {"value": 1}})
    assert rep["failures"] == ["h: peak mpy is 30000"]
    # g ran and stayed in budget: its entry can go; "gone" did not run this time
    assert rep["now_met"] == ["g: step mpy"]


def test_heap_figures_get_less_slack_than_step_times():
    rep = _rep(("g: peak mpy", 1000 * budget.KNOWN_SLACK + 1), ("g: step py", 38.0 * 1.3))
    budget.judge(rep, {"g: peak mpy": {"value": 1000}, "g: step py": {"value": 38.0}})
    assert len(rep["failures"]) == 1 and rep["failures"][0].startswith("g: peak mpy")
    assert [o["key"] for o in rep["known"]] == ["g: step py"]


def _pystone(pystones):
    return {"name": "pystone", "kind": "pystone", "ok": True,
            "runs": [{"pystones": pystones}]}


def test_second_run_counts_per_step_at_the_first_runs_scale():
    first = dict(_engine_result(0.5, 9000, 48000), name="dice  mpy", kind="engine",
                 ok=True, overhead_ms=0.01)
    again = dict(_engine_result(0.3, 9000, 48000), name="dice  mpy", kind="engine",
                 ok=True, overhead_ms=0.02)
    again["playthroughs"][0]["steps"][0]["ms"] = 0.9    # slower this time: kept
    res = {"dice  mpy": first}
    # the second run's machine was half as fast at pystone: 0.3 ms there is
    # 0.15 ms of the first run's time
    budget.merge_fastest(res, 100.0 / budget.REF_PYSTONES,
                         {"results": [_pystone(50.0), again]})
    steps = first["playthroughs"][0]["steps"]
    assert steps[1]["ms"] == pytest.approx(0.01 + (0.3 - 0.02) * 0.5)
    assert steps[0]["ms"] == pytest.approx(0.05)


def test_second_run_of_other_games_is_ignored():
    first = dict(_engine_result(0.5, 9000, 48000), name="dice  mpy", kind="engine", ok=True)
    again = dict(_engine_result(0.1, 9000, 48000), name="dice  mpy", kind="engine", ok=True)
    again["playthroughs"][0]["steps"][1]["line"] = "legal"
    budget.merge_fastest({"dice  mpy": first}, 1.0,
                         {"results": [_pystone(budget.REF_PYSTONES), again]})
    assert first["playthroughs"][0]["steps"][1]["ms"] == 0.5


def test_only_step_times_that_would_fail_are_measured_again():
    rep = {"failures": [], "over": [], "ran": set()}
    budget.over(rep, "g: step mpy", 40.0, "slow", "g  mpy")
    budget.over(rep, "h: step py", 40.0, "slow but known", "h  py")
    budget.over(rep, "g: peak mpy", 30000, "heap is exact")
    assert budget.slow_scenarios(rep, {"h: step py": {"value": 35.0}}) == {"g  mpy"}


def test_top_imports_are_the_ones_run_at_import(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(
        "import os\n"
        "from engine.state import State\n"
        "from . import sibling\n"
        "try:\n    import engine.rng\nexcept ImportError:\n    import engine.pieces\n"
        "if True:\n    from engine import protocol\n"
        "def later():\n    import engine.seldom\n"
        "class C:\n    import engine.messages\n")
    # in the file's order; a class body runs at import, a function's not;
    # a relative import is not one of the engine's by name
    assert budget.top_imports(str(f)) == ["engine.state", "engine.rng", "engine.pieces",
                                          "engine", "engine.messages"]


def test_a_module_belongs_to_the_longest_game_id_it_starts_with():
    games = ["ice_solo", "bag_of_ice", "bag", "dice"]
    assert budget.module_owner("bag", games) == "bag"
    assert budget.module_owner("bag_of_ice_odds", games) == "bag_of_ice"
    assert budget.module_owner("ice_solo_hint", games) == "ice_solo"
    assert budget.module_owner("baggage", games) is None
    assert budget.module_owner("protocol", games) is None


def test_module_plan_loads_what_a_module_imports_first():
    plan = budget.module_plan(["ice_solo"], ["ice_solo", "bag_of_ice", "bag", "dice"])
    names = [p["name"] for p in plan]
    # the shared engine first (its resident modules are the baseline), then
    # only the chosen game's modules
    assert names.index("engine.seldom") < names.index("engine.ice_solo")
    assert not any(n.startswith("engine.bag") or n == "engine.dice" for n in names)
    assert not set(budget.ENGINE_IMPORTS) & set(names)
    pre = {p["name"]: p["pre"] for p in plan}
    assert pre["engine.ice_solo_tower"] == ["engine.ice_solo"]
    assert pre["engine.ice_solo"] == []


def test_module_table_names_the_module_that_loaded_another():
    rep = {"flash": {"engine/state.mpy": 2000, "engine/g.mpy": 900},
           "modules": {
               "mpy": [{"name": "engine.state", "held": 3000, "peak": 4000},
                       {"name": "engine.g", "held": 5000, "peak": 6000, "also": [],
                        "names": 1200},
                       {"name": "engine.g_x", "held": 700, "peak": 800, "also": []}],
               "py": [{"name": "engine.state", "held": 3100, "peak": 5000},
                      {"name": "engine.g", "held": 9000, "peak": 12000, "room": 30000,
                       "also": ["engine.g_x"]},
                      {"name": "engine.g_x", "held": 0, "peak": 48, "already": True,
                       "also": []},
                      {"name": "engine.g_y", "held": 400, "peak": 500, "room": 0,
                       "also": []}]}}
    text = "\n".join(budget.module_table(rep))
    # the shared rows: no room searched (n/a); a module whose compile needs
    # no more than those before it: "-"
    assert "| engine.state | 2000 B | 3000 B | 4000 B | 3100 B | 5000 B | n/a | - |" in text
    assert ("| engine.g | 900 B | 5000 B (1200) | 6000 B | 9000 B | 12000 B | 30000 B | "
            "engine.g_x (py) |") in text
    assert ("| engine.g_x | n/a | 700 B | 800 B | in engine.g's | in engine.g's | "
            "in engine.g's | - |") in text
    assert "| engine.g_y | n/a | n/a | n/a | 400 B | 500 B | - | - |" in text
    assert "3000 B from .mpy together (" in text
    rep["module_names"] = {"mpy": 800}
    assert "3000 B from .mpy together, 800 B of it interned names (" in "\n".join(
        budget.module_table(rep))


def test_check_fails_on_known_exceedances_unless_they_are_held():
    clean = {"checks": 10, "failures": [], "known": []}
    known = {"checks": 10, "failures": [], "known": [{"key": "g: peak mpy"}]}
    worse = {"checks": 10, "failures": ["g: peak got worse"], "known": []}
    assert budget.exit_code(clean, True, False) == 0
    assert budget.exit_code(known, True, False) == 1     # --check alone
    assert budget.exit_code(known, True, True) == 0      # CI: held
    assert budget.exit_code(worse, True, True) == 1
    assert budget.exit_code(worse, False, False) == 0    # no --check: report only
    assert budget.closing_line(known, False) == "budget: 9 passed, 1 failed"
    assert budget.closing_line(known, True) == (
        "budget: 9 passed, 0 failed, 1 known over budget (held)")
