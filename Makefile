# `make run` sets up and starts the app; `make test` sets up and runs every test; `make check` the fast ones.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup run web table static test lint bench messages clean

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
	$(BIN)/python -m scorekeeper.static.build --out dist

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

# Translations (scorekeeper/ui/locales/README.md): extract every marked message of the code into the template
# (babel.cfg; a template that differs only by its date is not replaced, so the files change only with the
# messages), update the de/nl/fr catalogs from it (new messages come in empty, messages no code uses go), then
# the French typography pass, which must run after the update (and after a translator typed new entries).
LOCALES := scorekeeper/ui/locales
messages: setup
	$(BIN)/pybabel -q extract -F babel.cfg --no-default-keywords -k N_ --add-location=file --no-wrap \
		--project=scorekeeper --copyright-holder="the scorekeeper authors" -o $(LOCALES)/messages.pot.new scorekeeper
	@if diff -q -I '^"POT-Creation-Date:' $(LOCALES)/messages.pot $(LOCALES)/messages.pot.new >/dev/null 2>&1; \
		then rm $(LOCALES)/messages.pot.new; else mv $(LOCALES)/messages.pot.new $(LOCALES)/messages.pot; fi
	$(BIN)/pybabel -q update -i $(LOCALES)/messages.pot -d $(LOCALES) --no-wrap --ignore-obsolete
	$(BIN)/python -m scorekeeper.ui.french_typography
	@$(BIN)/python -m scorekeeper.ui.i18n_extract  # lists the entries still to translate

bench: setup
	$(BIN)/python -m scorekeeper.bench all --json

clean:
	rm -rf $(VENV) build/*/ .pytest_cache dist
