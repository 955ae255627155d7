"""Test data kept in the repository (tests/data/), found relative to the checkout.

A missing data file means a broken checkout, not an optional extra: under ``CI=true`` it fails
the run, so a suite cannot turn green by silently skipping its data-driven tests. Outside CI
it skips with the path, for partial checkouts.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
#: the public JS-semantics corpus: expression, value, context and node's result per case
ORACLE_CORPUS = DATA / "oracle" / "public.jsonl"
#: node's reference evaluator for that corpus (reads JSON lines on stdin)
NODE_EVAL = DATA / "oracle" / "node_eval.js"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require_data(path: Path) -> Path:
    """``path`` if it exists; else fail under CI, skip elsewhere (usable at module level)."""
    if path.exists():
        return path
    message = f"test data file missing: {path}"
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=True)
