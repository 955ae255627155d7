"""Test data lives in the repository, and a missing file cannot pass unnoticed under CI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .support.data import NODE_EVAL, ORACLE_CORPUS, require_data


def test_the_oracle_corpus_and_evaluator_are_in_the_checkout() -> None:
    cases = [json.loads(line) for line in ORACLE_CORPUS.read_text(encoding="utf-8").splitlines()]
    assert len(cases) >= 400 and all({"expr", "value", "context", "expect"} <= set(c) for c in cases)
    assert "readline" in NODE_EVAL.read_text(encoding="utf-8")


def test_a_missing_file_fails_under_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="test data file missing"):
        require_data(tmp_path / "absent.jsonl")


def test_a_missing_file_skips_outside_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require_data(tmp_path / "absent.jsonl")
    present = tmp_path / "present.jsonl"
    present.write_text("{}\n")
    assert require_data(present) == present
