"""Shared test setup: the repo root on sys.path, one Hypothesis profile,
the collected objects frozen out of gc, and game modules kept across tests.

Keep this small; fixtures used by one file belong in that file, helpers
shared by tests in tests/harness.py.
"""
import gc
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    # `import engine` works however pytest is started (not only from ROOT)
    sys.path.insert(0, ROOT)

import pytest  # noqa: E402
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


@pytest.fixture(autouse=True)
def _modules_kept():
    """The app drops a game's modules when it leaves the game, as a board
    must to free its heap, and the next game imports them afresh. Put back
    the ones the process had, so that the classes a test module imported
    stay the ones the app uses, whatever test ran before."""
    saved = {k: v for k, v in sys.modules.items() if k.startswith(("engine.", "lib."))}
    yield
    # a module first imported during the test may hold the test's fresh
    # copies of the others (a screen subclassing a re-imported base): drop it
    for name in [n for n in sys.modules if n.startswith(("engine.", "lib."))
                 and n not in saved]:
        del sys.modules[name]
        package, _, attr = name.rpartition(".")
        if package in sys.modules and getattr(sys.modules[package], attr, None) is not None:
            delattr(sys.modules[package], attr)
    for name, mod in saved.items():
        if sys.modules.get(name) is not mod:
            sys.modules[name] = mod
            package, _, attr = name.rpartition(".")
            if package in sys.modules:
                setattr(sys.modules[package], attr, mod)
