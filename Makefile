# The README's two commands: `make play` and `make test`. Each sets up .venv on its own.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/spacetable play falling-skies

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy src/spacetable

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/spacetable bench

# The decoders' fuzz targets and the per-game state machines of tests/test_fuzz.py with a long
# budget (the test suite runs them with 8 examples each); FUZZ_EXAMPLES=N to change it.
FUZZ_EXAMPLES ?= 2000
.PHONY: fuzz
fuzz: $(STAMP)
	SPACETABLE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest -q -x tests/test_fuzz.py tests/test_trust_edges.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
