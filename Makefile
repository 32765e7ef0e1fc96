# make demo : create .venv, install lanchester, run the main job, write a report
# make test : create .venv if needed, run the test suite
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/lanchester demo --out out/demo

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) bench/odds.py

clean:
	rm -rf $(VENV) out .pytest_cache
