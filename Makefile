# Two commands: `make run` serves the app, `make test` runs every test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: install run test test-fast lint format bench bench-peer bench-bots soak clean axe

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@# PyICU (names compared by their Unicode skeleton) builds against ICU's headers
	@pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null || { \
	  if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libicu-dev pkg-config g++ >/dev/null; \
	  else echo "PyICU builds against ICU: install its headers first (Debian: sudo apt-get install libicu-dev pkg-config g++)"; exit 1; fi; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

run: install
	$(BIN)/gunicorn -c deploy/gunicorn.conf.py wsgi:app

# axe-core for the accessibility tests, from npm (pinned in tests/browser/axe/package.json)
AXE := tests/browser/axe/node_modules/axe-core/axe.min.js
axe: $(AXE)
$(AXE): tests/browser/axe/package.json
	npm install --prefix tests/browser/axe --no-audit --no-fund --no-package-lock --silent
	touch $@

test: install axe
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider tests

# ruff (lint + format check) and mypy (strict on events/, projections/ and service/; pyproject.toml)
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test-fast: install
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider tests --ignore=tests/browser -m "not slow"

bench: install
	$(BIN)/python bench/fold.py
	$(BIN)/python bench/append.py
	$(BIN)/python bench/wsgi_cost.py
	$(BIN)/python bench/redis_client.py
	$(BIN)/python bench/undo.py
	$(BIN)/python bench/fsync.py
	$(BIN)/python bench/spectators.py
	$(BIN)/python bench/broadcast.py

# boardgame.io 0.50.2 side by side (npm, into bench/peer/node_modules, not committed)
bench-peer: install
	cd bench/peer && npm ci --no-audit --no-fund --loglevel=error
	$(BIN)/python bench/peer.py

bench-bots: install
	nice -n 10 $(BIN)/python bench/bots.py --jobs 2 --markdown /tmp/bench-bots.md

soak: install
	SOAK=1 $(BIN)/python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider tests -m slow

clean:
	rm -rf $(VENV) .pytest_cache

# Translations: collect the messages of the templates and the API (pybabel), merge them
# into the zh-Hant catalogue, compile it. The modules' texts live in static/i18n/*.json.
.PHONY: translations
translations: install
	$(BIN)/pybabel -q extract -F babel.cfg -k _l -k N_ --no-location -o service/translations/messages.pot .
	$(BIN)/pybabel -q update -N -i service/translations/messages.pot -d service/translations
	$(BIN)/pybabel -q compile -d service/translations
