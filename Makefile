# Every target bootstraps .venv from the pinned requirements.lock on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# What `mypy --strict` gates in `make test`: the packages that are strict-clean. Add a
# package here once `make typecheck` reports nothing for it.
MYPY_CLEAN := patches platformconfig benchmarks \
	syncpatch/__init__.py syncpatch/__main__.py syncpatch/cli syncpatch/loader.py \
	syncpatch/pytest_plugin.py syncpatch/demo.py syncpatch/resources.py \
	runtime/stdlib runtime/plan.py runtime/plan_walkers.py runtime/plan_codegen.py runtime/plan_groups.py \
	runtime/native.py runtime/plan_inline.py runtime/paths.py runtime/names.py \
	compiler/native.py compiler/native_calls.py compiler/native_regex.py compiler/native_templates.py compiler/pyast.py \
	runtime/references.py runtime/errors.py

.PHONY: venv demo test test-fast bench lint typecheck typecheck-ci clean lock

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
	$(MAKE) --no-print-directory typecheck-ci
	$(PY) -m pytest

test-fast: venv
	$(PY) -m pytest -x -q -p no:cacheprovider

bench: venv
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-bench.lock || echo "some optional engines did not install; they will be skipped"
	$(PY) -m benchmarks

# Everything, for humans (not yet clean: see MYPY_CLEAN for what is gated).
typecheck: venv
	$(PY) -m mypy grammar compiler runtime syncpatch patches platformconfig server benchmarks

typecheck-ci: venv
	$(PY) -m mypy $(MYPY_CLEAN)

lock:
	$(PY) -m pip freeze --exclude-editable > requirements.lock

clean:
	rm -rf $(VENV) build *.egg-info
