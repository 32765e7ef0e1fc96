# make demo : create .venv, install lanchester, run the main job, write a report
# make test : create .venv if needed, lint (ruff: pyproject.toml [tool.ruff]), type-check (make typecheck), run the test suite
# make typecheck : mypy on the Python layers (pyproject.toml [tool.mypy] lists them)
# make check : the golden games with numba's bounds checks on, from an empty compile cache (docs/compiler.md)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test typecheck check bench clean chromium

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/lanchester demo --out out/demo

# tests/reports renders report pages in headless Chromium (Debian packages chromium and
# chromium-driver): installed here when missing and apt-get can (root); the test fails without it.
CHROMIUM_PKGS := chromium chromium-driver

test: $(STAMP) chromium typecheck
	$(PY) -m ruff check .
	$(PY) -m pytest

# mypy comes with the test extra: $(STAMP) reinstalls '.[test]' whenever pyproject.toml changes
typecheck: $(STAMP)
	$(PY) -m mypy

# make check: the golden games of both games played with numba's bounds checks on, compiled
# from an empty cache (an out-of-bounds read raises IndexError instead of reading another
# array; about 10 minutes on 2 cores). docs/compiler.md says why it exists.
check: $(STAMP)
	@cache=$$(mktemp -d) && trap 'rm -rf "$$cache"' EXIT && \
	  NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR="$$cache" $(PY) -m pytest -p no:cacheprovider \
	    tests/games/assault/golden tests/games/toi/golden tests/engine/core/test_numba_inlining.py

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing $(CHROMIUM_PKGS) for the report tests"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(CHROMIUM_PKGS); } \
	      || echo "could not install $(CHROMIUM_PKGS): the HTML report tests will fail" >&2; \
	  else \
	    echo "chromium is missing and cannot be installed here (needs root and apt-get): the HTML report tests will fail" >&2; \
	  fi; }

bench: $(STAMP)
	$(PY) bench/odds.py
	$(PY) bench/exact.py
	$(PY) bench/scaling.py

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache
