"""Differential tests against node (the oracle's evaluator), skipped when node is absent.

``differential_cases.jsonl`` holds language-semantics probes (operators, coercions, ASI,
scoping, labels, destructuring, errors). node evaluates them with the oracle's
``node_eval.js``; syncpatch must agree on every case node does not exclude.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from syncpatch import UNDEFINED, CompileError, EvaluationError, compile_expression

from ..support.data import NODE_EVAL as NODE_EVAL_JS
from ..support.data import require_data

HERE = Path(__file__).parent
NODE_EVAL = require_data(NODE_EVAL_JS)
VALUE = {"a": 1, "s": "abc", "list": [1, 2, 3], "o": {"x": 1}}
CONTEXT = {"vcluster": {"name": "vc", "namespace": "ns"}}
CASES = [json.loads(line)["expr"] for line in (HERE / "differential_cases.jsonl").read_text("utf-8").splitlines()]
pytestmark = [pytest.mark.node, pytest.mark.skipif(shutil.which("node") is None, reason="node not available")]


def _canon(v: Any) -> Any:
    if v is UNDEFINED:
        return {"$undefined": True}
    if isinstance(v, float):
        if v != v:
            return {"$number": "NaN"}
        if v in (math.inf, -math.inf):
            return {"$number": "Infinity" if v > 0 else "-Infinity"}
        if v == 0 and math.copysign(1.0, v) < 0:
            return {"$number": "-0"}
    if isinstance(v, list):
        return [_canon(x) for x in v]
    if isinstance(v, dict):
        return {k: _canon(x) for k, x in v.items()}
    return v


@pytest.fixture(scope="module")
def node_results() -> list[dict[str, Any]]:
    lines = "".join(json.dumps({"id": i, "expr": e, "value": VALUE, "context": CONTEXT}) + "\n"
                    for i, e in enumerate(CASES))
    proc = subprocess.run(["node", str(NODE_EVAL)], input=lines, capture_output=True, text=True, timeout=120)
    return [json.loads(x) for x in proc.stdout.split("\n") if x.strip()]


def ours(expr: str) -> Any:
    try:
        fn = compile_expression(expr)
    except CompileError:
        return {"$compile_error": True}
    try:
        return _canon(fn(json.loads(json.dumps(VALUE)), CONTEXT))
    except EvaluationError as exc:
        return {"$error": exc.js_name}


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[:60] for c in CASES])
def test_matches_node(index: int, node_results: list[dict[str, Any]]) -> None:
    reference = node_results[index]
    if "expect" not in reference:
        pytest.skip(f"node excludes this case: {reference}")
    got = ours(CASES[index])
    assert json.dumps(got) == json.dumps(reference["expect"]), CASES[index]
