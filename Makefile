# Everything the project needs is installed by these targets; nothing by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CKSUM := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# What is installed, stamped with pyproject.toml's checksum: everything (.[test], for make test)
# or the web app alone (.[web], enough for make run). Everything includes the web app.
STAMP := $(VENV)/.installed-$(CKSUM)
WEB_STAMP := $(VENV)/.installed-web-$(CKSUM)
# The search core (a Rust extension built by maturin): the package is reinstalled, and so the
# extension rebuilt, whenever one of its sources changes.
CORE_SOURCES := core/Cargo.toml core/Cargo.lock $(wildcard core/src/*.rs)

.PHONY: run test rust-check lint typecheck bench clean chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml $(CORE_SOURCES)
	@command -v cargo >/dev/null || { echo "patience needs a Rust toolchain (cargo): see README.md"; exit 1; }
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP) $(WEB_STAMP)

$(WEB_STAMP): $(BIN)/python pyproject.toml $(CORE_SOURCES)
	@command -v cargo >/dev/null || { echo "patience needs a Rust toolchain (cargo): see README.md"; exit 1; }
	$(BIN)/python -m pip install --quiet -e '.[web]'
	rm -f $(VENV)/.installed-web-*
	touch $(WEB_STAMP)

## make run: set up the web app (.[web]) and start it on http://127.0.0.1:8000
run: $(WEB_STAMP)
	$(BIN)/patience serve --host 127.0.0.1 --port 8000

## make test: set everything up and run lint, format check, type check and the test suite (in
## as many processes as the machine has cores, pytest-xdist)
test: $(STAMP) chromium rust-check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest -n auto

## make rust-check: format check, clippy, unit tests and the doc links of the search core
rust-check:
	cd core && cargo fmt --check
	cd core && cargo clippy --all-targets --features python -- -D warnings
	cd core && cargo test --quiet
	cd core && RUSTDOCFLAGS='-D warnings' cargo doc --no-deps --features python --quiet

# The browser tests drive Debian's chromium (Playwright never downloads a browser): install it
# when missing, as root. Without root and without chromium make test stops here, unless
# PATIENCE_SKIP_BROWSER=1 says to skip the browser tests (pytest then skips them, saying why).
chromium:
	@test -x /usr/bin/chromium || [ "$$PATIENCE_SKIP_BROWSER" = 1 ] || { \
	  if [ "$$(id -u)" -eq 0 ]; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	  else \
	    echo "chromium is missing and only root installs it: install chromium" \
	      "(apt-get install chromium, as root) or set PATIENCE_SKIP_BROWSER=1 to skip the" \
	      "browser tests"; \
	    exit 1; \
	  fi; }

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis core/target src/patience/_core*.so
