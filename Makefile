# The README's two commands: `make play` and `make test`. Each sets up .venv on its own:
# `make play` installs only what playing needs; `make test` adds the test tools, the research
# libraries (with Stable-Baselines3 on torch's CPU build), the balance lab's (pyarrow, matplotlib,
# Ray) and the system packages the browser and storage tests drive (Debian's Chromium and
# PostgreSQL server, installed with apt-get when missing and we are root).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PLAY_STAMP := $(VENV)/.installed-play
TEST_STAMP := $(VENV)/.installed-test
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest workers: both cores by default (`make test JOBS=1` for one); an idle worker takes queued
# tests from the busy one (worksteal), so the slow browser games do not leave a core idle at the end
JOBS ?= 2

# Python keeps its bytecode caches (in .venv and beside the sources) even where the machine sets
# PYTHONDONTWRITEBYTECODE: without them every test worker and every `spacetable` a test starts parses
# torch, scipy, statsmodels and the rules from source again (3x the import time of the lab's libraries)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: play play-terminal compiled test suite lint system-packages screenshots bench fuzz soak rl-check lab-docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# tools/install.py installs with uv (a quarter of pip's time), pip's settings passed on, pip if uv fails.
INSTALL := $(BIN)/python tools/install.py $(BIN)/python

$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	$(INSTALL) -e '.[fast]'
	touch $(PLAY_STAMP)

# torch's CPU build, pinned with the rest (for the train extra's Stable-Baselines3): the plain
# torch wheel brings 3 GB of NVIDIA libraries.
$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(INSTALL) 'torch==2.13.0+cpu' -e '.[test,rl,lab,train,fast]'
	touch $(PLAY_STAMP) $(TEST_STAMP)

# The hot rule modules compiled with mypyc beside their sources (spacetable/compiled.py; one to two
# minutes, again only once they change); without a C compiler it says so, and pure Python runs.
compiled: $(PLAY_STAMP)
	@$(BIN)/python tools/compile.py

play: $(PLAY_STAMP) compiled
	$(BIN)/spacetable serve --host $(HOST) --port $(PORT) --open

play-terminal: $(PLAY_STAMP) compiled
	$(BIN)/spacetable play falling-skies

# Chromium for the browser tests, PostgreSQL's server for the storage tests (Debian packages).
system-packages:
	@if ! command -v chromium >/dev/null || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium postgresql >/dev/null; \
	  else \
	    echo "note: chromium or postgresql is missing and we are not root: their tests will say they were skipped"; \
	  fi; \
	fi

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy src/spacetable
	$(BIN)/lint-imports --no-cache

# The lint runs beside the suite (and beside the compiled build the suite waits for): mypy alone
# keeps one core busy for about 40 s of a fresh clone's run, which would otherwise hold up the rest.
test: $(TEST_STAMP) system-packages
	$(MAKE) --no-print-directory -j2 lint suite

suite: $(TEST_STAMP) system-packages compiled
	$(BIN)/pytest -n $(JOBS) --dist worksteal --durations=15 -m "not soak"

# The research examples, a few minutes of training each, with the figures docs/INTEROP.md reports
# (about 25 minutes on two cores; not in CI's time: `make test` and `make soak` run short versions):
# MaskablePPO on falling-skies and on Mothership's factored actions, self-play on showdown and
# spacerace, behaviour cloning from a trajectory file, NFSP on a two-captain showdown.
RL_MINUTES ?= 2
rl-check: $(TEST_STAMP)
	$(BIN)/python examples/train_falling_skies.py --minutes $(RL_MINUTES)
	$(BIN)/python examples/train_mothership.py --minutes $(RL_MINUTES)
	$(BIN)/python examples/selfplay.py --minutes $(RL_MINUTES) --games 100
	$(BIN)/python examples/behaviour_cloning.py --minutes $(RL_MINUTES) --games 300 --episodes 100
	$(BIN)/python examples/nfsp_showdown.py --minutes $(RL_MINUTES) --games 100

# the pictures in docs/screenshots/, taken by the browser tests as they play
screenshots: $(TEST_STAMP) system-packages
	SPACETABLE_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist -q tests/test_web_browser.py tests/test_web_boards.py tests/test_mothership_table.py tests/test_web_lobby.py \
		tests/test_web_guided.py tests/test_tui_snapshots.py

# docs/LAB.md's studies played in full and written into the page with their plots (tools/lab_docs.py;
# about four minutes on two idle cores), so its figures are what its commands give
lab-docs: $(TEST_STAMP) compiled
	$(BIN)/python tools/lab_docs.py --jobs $(JOBS)

bench: $(PLAY_STAMP) compiled
	$(BIN)/spacetable bench

# The decoders' fuzz targets and the per-game state machines of tests/test_fuzz.py with a long
# budget (the test suite runs them with 8 examples each; FUZZ_EXAMPLES=N to change it), then the
# long run of benchmarks/fuzz_soak.py (FUZZ_SECONDS per game variant) that prints the trust table.
FUZZ_EXAMPLES ?= 2000
FUZZ_SECONDS ?= 120
fuzz: $(TEST_STAMP) compiled
	SPACETABLE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest -n $(JOBS) -q -x tests/test_fuzz.py tests/test_trust_edges.py
	$(BIN)/python benchmarks/fuzz_soak.py --seconds $(FUZZ_SECONDS)

# The long runs, which `make test` leaves out for its ten minutes and CI runs after it (.ci/run),
# in one run that shares both cores: the conformance checks, the research adapters' random
# games and the fuzz targets (decoders, state machines, the server's frames and bodies) with the
# larger budgets of tests/budget.py (marked `soak_check` by tests/conftest.py:
# more playouts, longer games), and the tests marked `soak` (whole games played on the boards by
# clicking, the kill -9 crash test, the lab's Ray run, every game's first lesson in Chromium, the
# watched showdown, the tables' explanations). About 14 minutes here.
soak: $(TEST_STAMP) system-packages compiled
	SPACETABLE_SOAK=1 $(BIN)/pytest -n $(JOBS) --dist worksteal --durations=15 -m "soak or soak_check"

clean:
	$(PYTHON) tools/compile.py --clean
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
