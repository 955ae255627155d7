"""Regression tables from differential testing against node (no node needed to run them).

``cases/*.jsonl`` are in the oracle corpus format ({"id", "family", "expr", "value",
"context", "expect"}) with node's answers recorded by ``gen_cases.py``:

- ``regressions.jsonl``: minimised disagreements that were fixed, one case per bug;
- ``generated_*.jsonl``: a seeded sample of generated cases (random compositions, method
  probes with odd arguments, number formatting).

Results are canonicalised and compared as the oracle runner does: numbers
by value (int vs float does not matter), objects including key order, tagged forms for
undefined, NaN, +-Infinity, -0, thrown errors and compile errors.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from syncpatch import CompileError, EvaluationError, compile_expression

from ..support.oracle_canon import canon, decode_input  # the oracle's tagged forms, shared

CASES_DIR = Path(__file__).parent / "cases"
TAGS = ("$undefined", "$number", "$error", "$compile_error")


def same(exp: Any, got: Any) -> bool:
    """run_oracle.compare == "equal": numbers by value, key order significant, tags exact."""
    if isinstance(exp, bool) or isinstance(got, bool):
        return type(exp) is type(got) and exp == got
    if isinstance(exp, (int, float)) and not isinstance(exp, bool):
        return isinstance(got, (int, float)) and not isinstance(got, bool) and float(exp) == float(got)
    if isinstance(exp, list):
        return isinstance(got, list) and len(exp) == len(got) and all(same(a, b) for a, b in zip(exp, got))
    if isinstance(exp, dict):
        if not isinstance(got, dict):
            return False
        if (len(exp) == 1 and next(iter(exp)) in TAGS) or (len(got) == 1 and next(iter(got)).startswith("$")):
            return exp == got
        return list(exp) == list(got) and all(same(exp[k], got[k]) for k in exp)
    return type(exp) is type(got) and exp == got


def run_case(case: dict[str, Any]) -> Any:
    try:
        fn = compile_expression(case["expr"])
    except CompileError:
        return {"$compile_error": True}
    try:
        return canon(fn(decode_input(case["value"]), context=decode_input(case["context"])))
    except EvaluationError as exc:
        return {"$error": exc.js_name}


def load(name: str) -> list[dict[str, Any]]:
    path = CASES_DIR / name
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


REGRESSIONS = load("regressions.jsonl")
GENERATED = sorted(p.name for p in CASES_DIR.glob("generated_*.jsonl"))


@pytest.mark.parametrize("case", REGRESSIONS, ids=[c["expr"][:70] for c in REGRESSIONS])
def test_regression(case: dict[str, Any]) -> None:
    got = run_case(case)
    assert same(case["expect"], got), f"{case['expr']}\n  value:  {json.dumps(case['value'])[:200]}" \
                                      f"\n  expect: {json.dumps(case['expect'])}\n  got:    {json.dumps(got)}"


@pytest.mark.parametrize("name", GENERATED)
def test_generated_sample(name: str) -> None:
    failures = []
    for case in load(name):
        got = run_case(case)
        if not same(case["expect"], got):
            failures.append(f"{case['id']}: {case['expr']}\n    expect {json.dumps(case['expect'])[:150]}"
                            f"\n    got    {json.dumps(got)[:150]}")
    assert not failures, f"{len(failures)} disagreements with node:\n" + "\n".join(failures[:20])
