"""Every row of the vCluster parity table in ``docs/patches.md`` names tests that exist.

A row's last cell names tests as ``file.py::test_name`` (a bare file name is under
``tests/patches``) or ``::test_name`` for another test of the file named last.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "patches.md"
HEADING = "## vCluster 0.33 parity"


def table_rows() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(HEADING):]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return rows[1:]  # the header row (its separator starts with "|-")


def named_tests(cell: str, current: Path | None) -> tuple[list[tuple[Path, str]], Path | None]:
    found = []
    for file, name in re.findall(r"`([\w/]*\.py)?::(\w+)`", cell):
        if file:
            current = ROOT / file if "/" in file else ROOT / "tests" / "patches" / file
        assert current is not None, f"{cell!r} names a test before any file"
        found.append((current, name))
    return found, current


def test_every_row_of_the_parity_table_names_existing_tests() -> None:
    rows = table_rows()
    assert len(rows) >= 30
    current: Path | None = None
    for row in rows:
        cell = row.rstrip(" |").rsplit("|", 1)[-1]
        tests, current = named_tests(cell, current)
        assert tests, f"row without a test: {row[:80]}"
        for file, name in tests:
            source = file.read_text(encoding="utf-8")
            assert re.search(rf"^def {name}\(", source, re.M), f"{file.name} has no {name} ({row[:60]})"
