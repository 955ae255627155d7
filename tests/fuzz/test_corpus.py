"""Replays every crasher kept in ``corpus/*.json`` as a regression test.

Each file names its ``kind`` (script / path / config) and the ``property`` it broke; rows
with ``bug`` are open defects of other stages and run as ``xfail(strict=True)``, so the fix
shows up as XPASS (then rename ``bug`` to ``fixed``: the entry stays as a regression test). ``pending-*.json`` files are fresh
failures written by the fuzzers and not yet triaged; they are not replayed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .fuzz_support import CORPUS, RECORD, artifact_outcome, canon, closure_outcome
from .test_fuzz_paths_and_config import check_config_data, check_config_yaml, check_path


def _entries() -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.json")):
        if path.name.startswith("pending-"):
            continue
        entry = json.loads(path.read_text(encoding="utf-8"))
        marks = [pytest.mark.xfail(strict=True, reason=f"bug: {entry['bug']}")] if entry.get("bug") else []
        out.append(pytest.param(entry, id=path.stem, marks=marks))
    return out


def replay(entry: dict[str, Any]) -> None:
    kind, prop = entry["kind"], entry["property"]
    if kind == "script":
        ours = closure_outcome(entry["src"], entry.get("value"))  # raises on any non-public error
        if prop == "backends-agree":
            assert json.dumps(ours) == json.dumps(artifact_outcome(entry["src"], entry.get("value")))
        if prop == "matches-node":
            assert json.dumps(ours) == json.dumps(canon(entry["node"])), f"ours {ours!r}, node {entry['node']!r}"
    elif kind == "path":
        check_path(entry["input"])
    elif kind == "config" and prop == "config-errors":
        check_config_data(entry["input"])
    elif kind == "config":
        check_config_yaml(entry["input"])
    else:  # pragma: no cover - a corpus file of an unknown kind
        pytest.fail(f"unknown corpus kind {kind!r}")


@pytest.mark.parametrize("entry", _entries())
def test_corpus_entry(entry: dict[str, Any]) -> None:
    RECORD["on"] = False
    try:
        replay(entry)
    finally:
        RECORD["on"] = True


def test_corpus_is_not_empty() -> None:
    assert _entries(), "the corpus keeps every crasher found"
