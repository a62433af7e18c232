# Ludex: `make run` serves the API on an embedded SQLite store; `make test` runs every check.
# Both create .venv and install what they need first.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bench-service simulate clean

$(STAMP): pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/ludex serve

lint: $(STAMP)
	$(VENV)/bin/ruff check dsl runtime api tests bench
	$(VENV)/bin/mypy dsl runtime api

test: $(STAMP) lint
	$(VENV)/bin/pytest -n 2 --dist loadfile

simulate: $(STAMP)
	$(VENV)/bin/ludex simulate balloon_cup --games 100 --seed 1

bench: $(STAMP)
	$(PY) bench/interpreter_bench.py
	$(PY) bench/battle_line_bench.py
	$(PY) bench/hanabi_bench.py

bench-service: $(STAMP)
	$(PY) -m bench.service.load
	$(PY) -m bench.service.load --db postgresql+psycopg://postgres@127.0.0.1:5432/test

clean:
	rm -rf $(VENV) build *.egg-info ludex.db
