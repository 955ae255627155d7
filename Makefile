# Every target bootstraps $(VENV) from the pinned requirements.lock on first use. One venv per
# interpreter: `make test VENV=.venv313 PYTHON=python3.13` runs the suite on CPython 3.13.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# `mypy --strict` in `make test` covers every package. MYPY_PENDING lists the modules that are
# not strict-clean yet: mypy still analyses them (as imports) but does not report their own
# errors. Empty it (`MYPY_PENDING :=`) once `make typecheck` reports nothing; never add to it.
MYPY_PACKAGES := grammar compiler runtime yamlsource patches platformconfig server syncpatch benchmarks
MYPY_PENDING  :=
empty :=
space := $(empty) $(empty)
MYPY_EXCLUDE := $(if $(strip $(MYPY_PENDING)),--exclude '^($(subst $(space),|,$(strip $(MYPY_PENDING))))$$')

.PHONY: venv demo test test-fast bench lint typecheck typecheck-ci clean lock conformance

venv: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

demo: venv
	$(PY) -m syncpatch.demo

test: venv lint
	$(MAKE) --no-print-directory typecheck-ci
	$(PY) -m pytest

lint: venv
	$(VENV)/bin/ruff check .
	PYTHONPATH=. $(VENV)/bin/lint-imports --no-cache

test-fast: venv
	$(PY) -m pytest -x -q -p no:cacheprovider

bench: venv
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-bench.lock || echo "some optional engines did not install; they will be skipped"
	$(PY) -m benchmarks

# The whole test262 selection (../shared/test262 or TEST262_DIR) against the expected-failures
# list; opt-in (tens of minutes). `make test` runs a fixed sample of it.
conformance: venv
	$(PY) tests/conformance/test262_runner.py $(ARGS)

# Every error in every package, MYPY_PENDING included.
typecheck: venv
	$(PY) -m mypy $(MYPY_PACKAGES)

typecheck-ci: venv
	$(PY) -m mypy $(MYPY_PACKAGES) $(MYPY_EXCLUDE)

lock:
	$(PY) -m pip freeze --exclude-editable > requirements.lock

clean:
	rm -rf $(VENV) .venv311 .venv313 build *.egg-info
