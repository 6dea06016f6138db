# Everything the project needs is installed by these targets; nothing by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test lint typecheck bench clean chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

## make run: set everything up and start the web app on http://127.0.0.1:8000
run: $(STAMP)
	$(BIN)/patience serve --host 127.0.0.1 --port 8000

## make test: set everything up and run lint, format check, type check and the test suite
test: $(STAMP) chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest

# The browser tests drive Debian's chromium (Playwright never downloads a browser): install it
# when missing, as root; without root the browser tests skip and say why.
chromium:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" -eq 0 ]; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	  else \
	    echo "chromium is missing and only root installs it: the browser tests will skip"; \
	  fi; }

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
