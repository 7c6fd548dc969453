"""tools/budget.py's own logic, without running CircuitPython (`make
budget` does that): scaling to the reference board, keeping the fastest of
repeated runs, and that every gate can fail."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import budget  # noqa: E402

PRESS, LOAD = 1, 2


def test_board_time_scales_by_pystones():
    # a host doing 70,000 pystones/s is 100 times the 700 of the reference
    assert budget.board_ms(500, 70000) == pytest.approx(50.0)
    assert budget.board_ms(1000, 7000) == pytest.approx(10.0)


def test_merge_keeps_the_fastest_run_of_each_pass():
    a = {"times": [[10, 0], [900, PRESS], [50, LOAD]]}
    b = {"times": [[12, 0], [300, PRESS], [80, LOAD]]}
    assert budget.merge_fastest([a, b]) == [[10, 0], [300, PRESS], [50, LOAD]]


def test_merge_refuses_runs_of_another_shape():
    a = {"times": [[10, 0], [900, PRESS]]}
    assert budget.merge_fastest([a, {"times": [[10, 0]]}]) is None
    assert budget.merge_fastest([a, {"times": [[10, 0], [900, 0]]}]) is None


def test_loading_passes_are_reported_apart():
    times = [[100, 0], [400, PRESS], [9000, PRESS | LOAD], [700, 0]]
    assert budget.pass_figures(times) == (400, 700, 9000)


def test_app_gates_fail_on_memory_slow_passes_and_crashes():
    fast = {"times": [[100, PRESS], [100, 0]], "live_end": 1}
    assert budget.judge_app(fast, 120, 70000) == []
    slow_press = {"times": [[600, PRESS], [100, 0]]}
    assert "press" in budget.judge_app(slow_press, 120, 70000)[0]
    slow_idle = {"times": [[100, PRESS], [600, 0]]}
    assert budget.judge_app(slow_idle, 120, 70000) == ["a pass took 60 ms"]
    # a slow loading pass (a game's modules imported) is not gated
    assert budget.judge_app({"times": [[90000, PRESS | LOAD]]}, 120, 70000) == []
    assert budget.judge_app({"memory_error": "x"}, 120, 70000) == [
        "MemoryError in a 120 KB heap"]
    assert budget.judge_app({"error": "boom"}, 120, 70000) == ["crashed: boom"]


def test_bot_gates_fail_on_a_long_move_or_a_long_slice():
    ok = {"hint_us": 9000, "slice_us": 400, "line_us": 1}
    assert budget.judge_engine(ok, 70000) == []
    long_move = dict(ok, hint_us=11000)
    assert budget.judge_engine(long_move, 70000) == ["a bot move took 1100 ms"]
    long_slice = dict(ok, slice_us=600)
    assert budget.judge_engine(long_slice, 70000) == [
        "a bot's thinking slice took 60 ms"]


def test_smallest_heap_halves_to_the_least_that_goes_the_same_way(monkeypatch):
    tried = []

    def fake(interp, folder, heap_kb, args):
        tried.append(heap_kb)
        if heap_kb >= 101:
            return {"checksum": 5, "passes": 900}
        if heap_kb >= 60:
            # short of heap, the app refuses the game and goes on: the run
            # finishes, but not the same way
            return {"checksum": 7, "passes": 300}
        return {"memory_error": "full"}
    monkeypatch.setattr(budget, "run_driver", fake)
    assert 101 <= budget.smallest_heap("i", "f", ["app"], 120) <= 102
    assert len(tried) < 12
    # nothing below 100 KB goes as the roomy run does
    assert budget.smallest_heap("i", "f", ["app"], 100) is None


def test_every_built_game_has_an_app_scenario():
    from engine import catalog
    app, engine_sets = budget.catalog_games()
    built = [e.gid for e in catalog.GAMES if e.built]
    assert app == built and "dice" in app
    for gid in built:
        assert engine_sets[gid], gid


def test_the_doc_is_rewritten_and_its_hand_written_part_kept(tmp_path, monkeypatch):
    doc = tmp_path / "budget.md"
    doc.write_text("# old\nstale figures\n\n## Per game, in detail\n\nkept by hand\n")
    monkeypatch.setattr(budget, "DOC", str(doc))
    report = {"pystones": 70000, "presses": 10, "interp": "CircuitPython 10.3",
              "rev": "abc", "when": "today", "wall": 1.0,
              "app": [{"game": "dice", "board": "pico_8x8", "mode": "mpy", "heap_kb": 120,
                       "smallest_kb": 100, "fails": [],
                       "result": {"times": [[100, 1]], "live_end": 2048}}],
              "engine": []}
    budget.write_doc(report)
    text = doc.read_text()
    assert "stale figures" not in text and "| dice | pico_8x8 | mpy | 120 KB | 100 KB" in text
    assert text.rstrip().endswith("kept by hand")


def test_check_fails_on_heap_and_bots_and_shows_pass_times():
    assert budget.blocking(["MemoryError in a 152 KB heap"]) == ["MemoryError in a 152 KB heap"]
    assert budget.blocking(["a bot move took 1100 ms"]) == ["a bot move took 1100 ms"]
    over = ["a pass with a press took 84 ms", "a pass took 106 ms"]
    assert budget.blocking(over) == ([] if not budget.PASS_TIMES_FAIL_CHECK else over)
