# Atlas Workbench. `make run` and `make test` are all a fresh machine needs (Python 3.11 + make).
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt | cksum | cut -d' ' -f1)
SCALE ?= demo
PORT ?= 8501
HOST ?= 127.0.0.1
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
export LITELLM_LOCAL_MODEL_COST_MAP := True
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run check-bind test venv system-deps services seed seed-if-missing stop stop-test lint format typecheck \
        pytest eval bench clean wipe-data

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 not found"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	@rm -f $(VENV)/.installed-*
	@touch $@

# Chromium for the browser tests and a CJK font (without it Korean renders as empty boxes).
system-deps:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then \
		echo "installing chromium and fonts-noto-cjk (apt)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

services: venv
	$(BIN)/python -m data_access.bootstrap

seed-if-missing: services
	$(BIN)/python -m data_access.seed --scale demo --if-missing

seed: services
	$(BIN)/python -m data_access.seed --scale $(SCALE)

# Loopback by default; HOST=0.0.0.0 (or any non-loopback address) needs sign-in ([auth] in
# .streamlit/secrets.toml) and stops here with what to configure when it is missing.
run: check-bind seed-if-missing
	@echo "Atlas Workbench: http://$(HOST):$(PORT)"
	$(BIN)/python app.py --server.address $(HOST) --server.port $(PORT) --server.headless true

check-bind: venv
	@$(BIN)/python -m data_access.access check-bind --address $(HOST)

# HTTP API and MCP server (api/, README "HTTP API and MCP"): loopback by default; any other
# API_HOST needs API_TOKEN. `make mcp` serves streamable HTTP at :$(MCP_PORT)/mcp; an MCP client
# that starts the server itself runs `.venv/bin/python -m api.mcp` (stdio) instead.
API_HOST ?= 127.0.0.1
API_PORT ?= 8600
MCP_PORT ?= 8601

.PHONY: api mcp

api: seed-if-missing
	$(BIN)/python -m api --host $(API_HOST) --port $(API_PORT)

mcp: seed-if-missing
	$(BIN)/python -m api.mcp --transport http --host $(API_HOST) --port $(MCP_PORT)

stop:
	@test -x $(BIN)/python && $(BIN)/python -m data_access.services stop || true

stop-test:
	@test -x $(BIN)/python && WORKBENCH_HOME=$(CURDIR)/.workbench/test $(BIN)/python -m data_access.services stop || true

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: venv
	$(BIN)/mypy data_access agents

pytest: venv system-deps
	$(BIN)/python -m pytest -q --durations=30

test: venv system-deps lint typecheck pytest

# The golden sets through the screens' service functions, offline unless a model is configured
# (agents/eval; reports under WORKBENCH_HOME/eval/). SUITES="macro etf" narrows it.
eval: seed-if-missing
	$(BIN)/python -m agents.eval run $(foreach s,$(SUITES),--suite $(s))

bench: services
	$(BIN)/python bench/seed.py
	$(BIN)/python bench/lookups.py

# Build products only (the venv and tool caches). Never the data in $(WORKBENCH_HOME): wiping it is
# `make wipe-data`, which says what it deletes, writes a backup first and needs CONFIRM=yes (or a
# typed 'yes' at its prompt).
clean: stop
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
	find . -path ./.workbench -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

wipe-data: venv
	$(BIN)/python -m data_access.backup wipe $(if $(filter yes,$(CONFIRM)),--yes)

# Screenshot QA (tests/qa/screenshots.py). `make screenshots` captures every screen at 1440×900
# and 420×900 into SCREENSHOT_DIR plus a11y.json/a11y.md (fails on an accessibility failure);
# `make screenshots-compare BASELINE=DIR` diffs SCREENSHOT_DIR against DIR into SCREENSHOT_DIR-diff.
WORKBENCH_HOME ?= .workbench
SCREENSHOT_DIR ?= $(WORKBENCH_HOME)/screenshots/current
SCREENSHOT_THRESHOLD ?= 0.001

.PHONY: screenshots screenshots-compare

screenshots: venv system-deps services
	$(BIN)/python -m tests.qa.screenshots capture --out $(SCREENSHOT_DIR)

screenshots-compare: venv
	@test -n "$(BASELINE)" || { echo "usage: make screenshots-compare BASELINE=DIR"; exit 2; }
	$(BIN)/python -m tests.qa.screenshots compare --baseline $(BASELINE) \
		--current $(SCREENSHOT_DIR) --out $(SCREENSHOT_DIR)-diff --threshold $(SCREENSHOT_THRESHOLD)
