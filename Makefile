# `make run` sets up and starts the app; `make test` sets up and runs every test; `make check` the fast ones.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup run web table static test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

run: setup
	$(BIN)/python main.py $(ARGS)

web: setup
	$(BIN)/python main.py --web $(ARGS)

table: setup
	$(BIN)/python main.py --table $(ARGS)

# The static web app (Python in the browser, works offline): builds dist/ from the installed wheels, no download.
# Serve it with `python -m http.server --directory dist 8000` (docs/STATIC.md).
static: setup
	$(BIN)/python -m scorekeeper.static_build --out dist

# pytest-xdist: the tests on WORKERS processes at once; `loadgroup` keeps the modules tests/conftest.py names on
# one worker (their module fixture is made once).
WORKERS ?= 2
PARALLEL := -n $(WORKERS) --dist loadgroup
.PHONY: check

test: setup
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PARALLEL)

# The change-test loop: the linter and the tests without a browser, without the slow ones (marked `slow`).
check: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest $(PARALLEL) -q -m "not browser and not slow"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python -m scorekeeper.bench all --json

clean:
	rm -rf $(VENV) build/*/ .pytest_cache dist
