"""No crash on small thread stacks: recursion is bounded by the stack the thread really has.

Syncers often run patches on threads made with ``threading.stack_size(1 << 20)`` or less.
Python's recursion limit counts frames, not bytes, so recursion through C (sort comparators,
``replace`` callbacks, the C JSON scanner, ``str.join`` over nested arrays) overflowed such a
stack with default budgets: a segfault, not an error. ``stack_child.py`` runs every row on a
worker thread with a 1 MiB and a 256 KiB stack, with default and with raised budgets
(``call_depth`` 10 M), in a child process so a segfault fails the test instead of killing
pytest. Long operator chains are compiled on such threads too. On CPython 3.13, which frees
nested values by a fixed count of C levels rather than by the stack, evaluations on threads
under 1 MiB run on a big-stack worker (``runtime/bigstack.py``); the rows hold on 3.11 and 3.13. Every recursion row must end in ``LimitExceeded(budget="call_depth")`` (V8's RangeError); the
plain recursion the default budget allows (400 calls) must still fit on both stacks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from syncpatch.runtime.bigstack import COUNTED_DEALLOC

from . import stack_child
from .sec_harness import assert_no_leak

CHILD = Path(__file__).parent / "stack_child.py"
STACKS = {"1MiB": 1 << 20, "256KiB": 256 << 10}
STACK_PARAMS = ["1MiB", "256KiB"]


def _child(size: int, mode: str) -> tuple[int, str, list[dict[str, Any]]]:
    proc = subprocess.run([sys.executable, str(CHILD), str(size), mode], capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stderr[-2000:], [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.fixture(scope="module", params=STACK_PARAMS)
def stack_rows(request: Any) -> tuple[str, int, str, dict[str, dict[str, Any]]]:
    code, err, rows = _child(STACKS[request.param], "rows")
    return request.param, code, err, {row["id"]: row for row in rows}


def test_every_row_ends_in_a_call_depth_error(stack_rows: Any) -> None:
    stack, code, err, rows = stack_rows
    assert code == 0, f"the child died on a {stack} stack (exit {code}): {err}"
    expected = {f"{row}/{budgets}" for row in stack_child.ROWS for budgets in ("default", "raised")}
    assert set(rows) == expected, f"the child stopped after {len(rows)} of {len(expected)} rows"
    for row_id, got in rows.items():
        assert got["kind"] == "limit" and got["budget"] == "call_depth", f"{stack} {row_id}: {got}"
        assert got["js_name"] == "RangeError" or got["text"].startswith("RangeError"), got
        assert_no_leak(got["text"])


def test_the_default_depth_fits_and_deeper_is_bounded_by_the_stack() -> None:
    """Plain recursion reaches the default ``call_depth`` (400) on both stacks; with the
    budget raised, the depth reached grows with the stack (it is read, not a constant)."""
    reached = {}
    for name, size in STACKS.items():
        code, err, rows = _child(size, "reach")
        assert code == 0, f"the child died on a {name} stack (exit {code}): {err}"
        reached[name] = rows[0]
    assert min(r["plain"] for r in reached.values()) >= 400, reached
    if COUNTED_DEALLOC:  # CPython 3.13+: under 1 MiB, the evaluation runs on a big-stack worker
        assert reached["256KiB"]["sort-comparator"] > reached["1MiB"]["sort-comparator"] > 0, reached
    else:
        assert reached["1MiB"]["sort-comparator"] > 2 * reached["256KiB"]["sort-comparator"] > 0, reached


@pytest.mark.parametrize("stack", STACK_PARAMS)
def test_long_operator_chains_compile_on_a_small_stack(stack: str) -> None:
    """Compiling recurses as deep as the source's operator chains (Python's own ``compile``
    recurses in C): on a small stack the compile moves to a worker with a big one, so the
    source compiles, or is refused as too deep, and never crashes or leaks a RecursionError."""
    code, err, rows = _child(STACKS[stack], "compile")
    assert code == 0, f"the child died on a {stack} stack (exit {code}): {err}"
    assert [row["id"] for row in rows] == list(stack_child.COMPILE_ROWS)
    for got in rows:
        assert got["kind"] in ("result", "compile"), got
        if got["kind"] == "compile":
            assert "nested too deeply" in got["text"], got
