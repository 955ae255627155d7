"""Shared runner of the node-verified expression tables in ``cases/*.json``.

Each row holds a JS expression, its ``value`` input and node's canonical result (see
``gen_js_cases.py``). Results are compared the way the oracle runner does: numbers by value
(with NaN/±Infinity/-0 tagged), objects including key order, errors by constructor name.
"""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any

import pytest

CASES = pathlib.Path(__file__).parent / "cases"


#: Cases that fail for a reason outside the stdlib module under test (expr -> reason).
KNOWN: dict[str, str] = {}


def load(name: str) -> list[Any]:
    rows = json.loads((CASES / f"{name}.json").read_text())
    return [
        pytest.param(
            r,
            id=f"{i}:{r['expr'][:60]}",
            marks=[pytest.mark.xfail(reason=KNOWN[r["expr"]], strict=True)] if r["expr"] in KNOWN else [],
        )
        for i, r in enumerate(rows)
    ]


def _decode(v: Any, undefined: Any) -> Any:
    if isinstance(v, list):
        return [_decode(x, undefined) for x in v]
    if isinstance(v, dict):
        if v == {"$undefined": True}:
            return undefined
        if list(v) == ["$number"]:
            return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}[v["$number"]]
        return {k: _decode(x, undefined) for k, x in v.items()}
    return v


def canon(v: Any, undefined: Any) -> Any:
    if v is undefined:
        return {"$undefined": True}
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        if v != v:
            return {"$number": "NaN"}
        if v in (math.inf, -math.inf):
            return {"$number": "Infinity" if v > 0 else "-Infinity"}
        if v == 0 and math.copysign(1.0, v) < 0:
            return {"$number": "-0"}
        return v
    if isinstance(v, list):
        return [canon(x, undefined) for x in v]
    if isinstance(v, dict):
        return [[k, canon(x, undefined)] for k, x in v.items()]  # order-sensitive
    return repr(v)


def expected(e: Any) -> Any:
    if isinstance(e, dict) and len(e) == 1 and next(iter(e)) in ("$undefined", "$number", "$error", "$compile_error"):
        return e
    if isinstance(e, list):
        return [expected(x) for x in e]
    if isinstance(e, dict):
        return [[k, expected(x)] for k, x in e.items()]
    return e


def run_case(row: dict[str, Any], budgets: Any = None) -> None:
    """Evaluate ``row`` as users do (native tier first); with ``budgets``, on the general tier
    (custom budgets always take it)."""
    import functools

    import syncpatch

    compile_expression = syncpatch.compile_expression
    if budgets is not None:
        compile_expression = functools.partial(compile_expression, budgets=budgets)
    undefined = syncpatch.UNDEFINED
    value = _decode(row["value"], undefined)
    try:
        got = canon(compile_expression(row["expr"])(value, context={}), undefined)
    except syncpatch.EvaluationError as exc:
        got = {"$error": exc.js_name}
    want = expected(row["expect"])
    assert got == want, f"{row['expr']}: got {got!r}, node gives {want!r}"
