"""Shared test setup: the repo root on sys.path and one Hypothesis profile.

Keep this small; fixtures used by one file belong in that file.
"""
import gc
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    # `import engine` works however pytest is started (not only from ROOT)
    sys.path.insert(0, ROOT)

from hypothesis import HealthCheck, settings  # noqa: E402

# CI must be reproducible and bounded: the same examples on every run, no
# example database carried between runs, and no wall-clock deadline (a slow
# CI machine must not turn into a failure). Tests choose max_examples.
settings.register_profile(
    "pocket", derandomize=True, database=None, deadline=None,
    print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pocket")


def pytest_terminal_summary(terminalreporter):
    """Say once, at the end, when the browser tests could not run here
    (tests/test_web.py sets NOT_RUN when Chromium is missing outside CI)."""
    web = sys.modules.get("test_web")
    why = getattr(web, "NOT_RUN", "") if web is not None else ""
    if why:
        terminalreporter.write_sep("-", "browser tests not run")
        terminalreporter.write_line(why)


def pytest_collection_finish(session):
    """The app calls gc.collect() at each boot and screen change, as a board
    must; in a test process that walks every object pytest, Hypothesis and
    the collected modules hold (a tenth of a second a call). Frozen, they
    are left out of every collection: only the tests' own objects are
    walked."""
    gc.collect()
    gc.freeze()
