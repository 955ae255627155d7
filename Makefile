# Every target bootstraps .venv from the pinned requirements.lock on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv demo test test-fast bench lint typecheck clean lock

venv: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

demo: venv
	$(PY) -m syncpatch.demo

test: venv
	PYTHONPATH=. $(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest

test-fast: venv
	$(PY) -m pytest -x -q -p no:cacheprovider

bench: venv
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-bench.lock || echo "some optional engines did not install; they will be skipped"
	$(PY) -m benchmarks

typecheck: venv
	$(PY) -m mypy grammar compiler runtime syncpatch

lock:
	$(PY) -m pip freeze --exclude-editable > requirements.lock

clean:
	rm -rf $(VENV) build *.egg-info
