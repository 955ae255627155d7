"""Shared machinery of the hostile-input tables (not a test module).

Every case is one row: a script, optional ``value``/``context``/``budgets``, and exactly one
expectation, built with :func:`R` (a precise JS result), :func:`E` (a JS error by
constructor name), :func:`L` (``LimitExceeded``, optionally of one budget) or :data:`C` (a
compile error). :func:`check` runs a row through the public API and also asserts that no
error text leaks Python internals. Rows with ``bug=...`` are known defects in code owned by
other engineers: they run as ``xfail(strict=True)`` so a fix shows up as XPASS.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any

import pytest

import syncpatch
from syncpatch import UNDEFINED, Budgets, CompileError, EvaluationError, LimitExceeded, compile_expression

from syncpatch.loader import EvaluationError as _ArtifactError  # noqa: E402
from syncpatch.loader import LimitExceeded as _ArtifactLimit  # noqa: E402

from ..support.data import NODE_EVAL as NODE_EVAL_JS
from ..support.data import require_data
from ..support.oracle_canon import canon  # one canonical form for every harness

NODE = shutil.which("node")
NODE_EVAL = require_data(NODE_EVAL_JS)

#: Small budgets for the limit rows: every row stops in milliseconds.
SMALL = Budgets(steps=50_000, call_depth=60, string_length=50_000, array_length=20_000, allocation=2_000_000,
                wall_time=2.0, regex_timeout=0.05)

#: Things that must never appear in an error message or a result: Python type and module
#: names, tracebacks, file paths, compiler-made identifiers.
LEAK = re.compile(
    r"Traceback|NoneType|\bdict\b|\btuple\b|\bbuiltins?\b|object at 0x|<class|<module|<function|"
    r"/work/|site-packages|\.py\b|syncpatch\.|\bJSFunction\b|\bJSObject\b|\bBuiltinProto\b|"
    r"\bBuiltinNamespace\b|\bJSThrow\b|\b_v\d+\b|\b_t\d+\b|AttributeError|KeyError|IndexError|"
    r"RecursionError|MemoryError|ZeroDivisionError|OverflowError|ValueError|UnicodeError|"
    r"UnicodeEncodeError|StopIteration|\bline \d+, in\b"
)


class _Expect:
    kind = ""


@dataclass(frozen=True)
class _Result(_Expect):
    value: Any
    kind: str = "result"


@dataclass(frozen=True)
class _Error(_Expect):
    js_name: str
    kind: str = "error"


@dataclass(frozen=True)
class _Limit(_Expect):
    budget: str | None = None
    js_name: str | None = None
    kind: str = "limit"


@dataclass(frozen=True)
class _Compile(_Expect):
    kind: str = "compile"


def R(value: Any) -> _Result:
    """The script returns exactly ``value`` (key order and int/float distinction included)."""
    return _Result(value)


def E(js_name: str) -> _Error:
    """The script throws a JS error whose constructor is ``js_name``."""
    return _Error(js_name)


def L(budget: str | None = None, js_name: str | None = None) -> _Limit:
    """The script runs out of a budget (``LimitExceeded``, not catchable by JS)."""
    return _Limit(budget, js_name)


C = _Compile()


@dataclass(frozen=True)
class Case:
    id: str
    src: str
    expect: _Expect
    value: Any = None
    context: Any = field(default_factory=dict)
    budgets: Budgets | None = None
    bug: str | None = None
    #: compare the expectation with node (R and E rows only); False where syncpatch
    #: deliberately differs from V8 (a refused construct), with the reason in ``note``
    node: bool = True
    note: str = ""


def same(a: Any, b: Any) -> bool:
    return json.dumps(canon(a)) == json.dumps(canon(b))


def assert_no_leak(text: str) -> None:
    found = LEAK.search(text)
    assert found is None, f"leaks {found.group(0)!r}: {text!r}"


def outcome(case: Case, compiler: Any = None) -> tuple[str, Any]:
    """Run a row through the public API: ('result', v) / ('error', name) / ('limit', budget) /
    ('compile', msg). Anything else escaping is returned as ('escaped', type name).
    ``compiler(src, budgets)`` replaces ``compile_expression`` (the artifact exit)."""
    try:
        fn = (compiler or (lambda src, budgets: compile_expression(src, budgets=budgets)))(case.src, case.budgets)
    except CompileError as exc:
        assert_no_leak(str(exc).splitlines()[0])
        return ("compile", str(exc))
    except BaseException as exc:  # noqa: BLE001 - that is the finding
        return ("escaped", type(exc).__name__)
    value, context = copy.deepcopy(case.value), copy.deepcopy(case.context)
    try:
        result = fn(value, context)
    except (LimitExceeded, _ArtifactLimit) as exc:
        assert_no_leak(str(exc))
        return ("limit", exc)
    except (EvaluationError, _ArtifactError) as exc:
        assert_no_leak(str(exc))
        return ("error", exc)
    except BaseException as exc:  # noqa: BLE001 - that is the finding
        return ("escaped", type(exc).__name__)
    finally:
        assert value == case.value and context == case.context, "the caller's inputs were mutated"
    return ("result", result)


def check(case: Case, compiler: Any = None) -> None:
    kind, got = outcome(case, compiler)
    exp = case.expect
    assert kind != "escaped", f"{got} escaped from {case.src!r}"
    if isinstance(exp, _Result):
        assert kind == "result", f"{case.src!r}: expected result {exp.value!r}, got {kind} {got}"
        assert same(got, exp.value), f"{case.src!r}: expected {canon(exp.value)!r}, got {canon(got)!r}"
        assert_no_leak(json.dumps(canon(got)))
    elif isinstance(exp, _Error):
        assert kind == "error", f"{case.src!r}: expected {exp.js_name}, got {kind} {got!r}"
        assert got.js_name == exp.js_name, f"{case.src!r}: expected {exp.js_name}, got {got.js_name}: {got}"
    elif isinstance(exp, _Limit):
        assert kind == "limit", f"{case.src!r}: expected LimitExceeded, got {kind} {got!r}"
        if exp.budget is not None:
            assert got.budget == exp.budget, f"{case.src!r}: expected budget {exp.budget}, got {got.budget}: {got}"
        if exp.js_name is not None:
            assert got.js_name == exp.js_name
    else:
        assert kind == "compile", f"{case.src!r}: expected a compile error, got {kind} {got!r}"


def params(cases: list[Case]) -> list[Any]:
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    out = []
    for c in cases:
        marks = [pytest.mark.xfail(strict=True, reason=f"bug: {c.bug}")] if c.bug else []
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


def node_batch(requests: list[dict[str, Any]], timeout: float = 120) -> list[dict[str, Any]]:
    """Evaluate many requests with one node process (the shared oracle evaluator)."""
    assert NODE is not None
    text = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([NODE, str(NODE_EVAL)], input=text, capture_output=True, text=True, timeout=timeout,
                          check=True)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


__all__ = ["C", "Case", "E", "L", "LEAK", "NODE", "R", "SMALL", "UNDEFINED", "assert_no_leak", "canon", "check",
           "node_batch", "outcome", "params", "same", "syncpatch"]
