"""Every precise expectation in the hostile tables (R and E rows) agrees with node.

The tables assert exact JS results and error names; this differential check keeps them
honest against V8 (the shared oracle evaluator). Rows where syncpatch deliberately differs
(refused constructs) carry ``node=False``; rows marked as bugs expect what node says, so they
are checked here too. One node process evaluates all rows. Skipped without node.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from .sec_harness import NODE, Case, _Error, _Result, canon, node_batch

pytestmark = [pytest.mark.node, pytest.mark.skipif(NODE is None, reason="node absent")]

HERE = Path(__file__).parent


def _all_cases() -> list[tuple[str, Case]]:
    out = []
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        module = importlib.import_module(f".{path.stem}", __package__)
        for case in getattr(module, "CASES", []):
            if case.node and isinstance(case.expect, (_Result, _Error)):
                out.append((path.stem, case))
    return out


def _encode(v: Any) -> Any:
    return canon(v)


def test_tables_agree_with_node() -> None:
    cases = _all_cases()
    assert len(cases) > 100
    requests = [{"id": i, "expr": c.src, "value": _encode(c.value), "context": _encode(c.context)}
                for i, (_, c) in enumerate(cases)]
    answers = {a["id"]: a for a in node_batch(requests)}
    wrong = []
    for i, (module, case) in enumerate(cases):
        answer = answers[i]
        if "expect" not in answer:
            wrong.append(f"{module}::{case.id}: node excluded it ({answer})")
            continue
        want = canon(case.expect.value) if isinstance(case.expect, _Result) else {"$error": case.expect.js_name}
        if json.dumps(want) != json.dumps(answer["expect"]):
            wrong.append(f"{module}::{case.id}: table says {want!r}, node says {answer['expect']!r}")
    assert not wrong, "\n".join(wrong)
