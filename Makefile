# Two commands: `make run` serves the app, `make test` runs every test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: install run test test-fast bench soak clean

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

run: install
	$(BIN)/gunicorn -c deploy/gunicorn.conf.py wsgi:app

test: install
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider tests

test-fast: install
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider tests --ignore=tests/browser -m "not slow"

bench: install
	$(BIN)/python bench/fold.py
	$(BIN)/python bench/append.py
	$(BIN)/python bench/fsync.py
	$(BIN)/python bench/spectators.py

soak: install
	SOAK=1 $(BIN)/python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider tests -m slow

clean:
	rm -rf $(VENV) .pytest_cache
