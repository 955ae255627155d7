"""The public oracle corpus (node-evaluated) through the public API, both exits.

Every case must agree with node. Each case runs through ``compile_expression`` (the
in-process closure) and through a ``compile-patches`` artifact: one config holding every
expression, checked and rendered by the build step, written to a file and loaded with
``load_plans``, as a syncer loads it.
"""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from syncpatch import CompileError, EvaluationError, compile_expression

from syncpatch.loader import load_plans
from syncpatch.patches.build import check_config_text, render

from ..support.data import ORACLE_CORPUS, require_data
from ..support.oracle_canon import canon, decode_input  # the oracle's tagged forms, shared

CORPUS = require_data(ORACLE_CORPUS)


def same(a: Any, b: Any) -> bool:
    """Equal including key order and int-vs-float (2 vs 2.0)."""
    return json.dumps(a) == json.dumps(b)


def _cases() -> list[Any]:
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        out.append(pytest.param(case, id=case["id"]))
    return out


def run_closure(case: dict[str, Any]) -> Any:
    try:
        fn = compile_expression(case["expr"])
    except CompileError:
        return {"$compile_error": True}
    try:
        return canon(fn(decode_input(case["value"]), decode_input(case["context"])))
    except EvaluationError as exc:
        return {"$error": exc.js_name}


@functools.lru_cache(maxsize=1)
def _artifact_functions() -> dict[str, Any]:
    """Every compiling case's expression, by case id, from one loaded artifact."""
    ids, patches = [], []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if run_closure(case) != {"$compile_error": True}:
            ids.append(case["id"])
            patches.append({"path": f"case{len(patches)}", "expression": case["expr"]})
    config = {"sync": {"toHost": {"configMaps": {"enabled": True, "patches": patches}}}}
    report = check_config_text(json.dumps(config, ensure_ascii=False), "oracle.json")
    assert report.compiled is not None, report.diagnostics
    folder = Path(tempfile.mkdtemp(prefix="syncpatch-oracle-"))
    (folder / "oracle_artifact.py").write_text(render([report]), encoding="utf-8")
    entries = load_plans(folder / "oracle_artifact.py").plan("toHost", "configMaps").entries
    return {case_id: entry.expression for case_id, entry in zip(ids, entries)}


def run_module(case: dict[str, Any]) -> Any:
    """The artifact exit: the expression as a loaded ``compile-patches`` artifact holds it."""
    fn = _artifact_functions().get(case["id"])
    if fn is None:
        return {"$compile_error": True}
    try:
        return canon(fn(decode_input(case["value"]), decode_input(case["context"])))
    except EvaluationError as exc:
        return {"$error": exc.js_name}


@pytest.mark.parametrize("case", _cases())
def test_closure_matches_node(case: dict[str, Any]) -> None:
    got = run_closure(case)
    assert same(got, case["expect"]), f"{case['expr']!r}: got {got!r}, node says {case['expect']!r}"


@pytest.mark.parametrize("case", _cases())
def test_artifact_matches_node(case: dict[str, Any]) -> None:
    got = run_module(case)
    assert same(got, case["expect"]), f"{case['expr']!r}: got {got!r}, node says {case['expect']!r}"
