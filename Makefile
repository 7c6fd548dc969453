# The two commands in the README: `make play` and `make test`.
# Both set up a private virtualenv (.venv) from requirements.txt on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum requirements.txt | cut -d' ' -f1)

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $@

.PHONY: play test setup
setup: $(STAMP)

play: $(STAMP)
	$(BIN)/python tools/sim.py $(ARGS)

# one test process per core (pytest-xdist): the suite is many small tests;
# then the browser tests on their own, with the machine to themselves (once,
# beside a busy worker, Chromium failed to compile the interpreter's
# WebAssembly; alone they have always passed)
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadgroup --ignore=tests/test_web.py
	$(BIN)/python -m pytest -q tests/test_web.py

# Long statistical and exhaustive runs (bot strength, fairness, the
# reliability campaign, every power cut, the long oracle sweeps; see
# tests/README.md), one process per core; -rP prints each one's figures
# at the end. CI runs this after the tests.
.PHONY: bench
bench: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadgroup -rP -m bench -p no:cacheprovider

# Device budget: the app with each game in a fixed heap on MicroPython's
# WebAssembly build (npm, installed into web/ on first use), mapped to a
# Pico, and its passes and bots on a deterministic cost; see docs/budget.md.
.PHONY: budget
budget: $(STAMP)
	$(BIN)/python tools/budget.py --check $(ARGS)

# The console in a web page: the device code on MicroPython (WebAssembly),
# built into dist/web/ and served on localhost (see docs/web.md). The first
# build installs the interpreter with npm; ARGS="--port 8080" picks a port.
.PHONY: web
web: $(STAMP)
	$(BIN)/python tools/web.py build
	$(BIN)/python tools/web.py serve $(ARGS)
