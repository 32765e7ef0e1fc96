# make demo : create .venv, install lanchester, run the main job, write a report
# make test : create .venv if needed, lint (ruff: pyproject.toml [tool.ruff]), type-check (make typecheck), run the test suite
# make typecheck : mypy on the Python layers (pyproject.toml [tool.mypy] lists them)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test typecheck bench clean chromium

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
