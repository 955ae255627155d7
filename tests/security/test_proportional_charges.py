"""Built-ins charge the step budget in proportion to the work they do.

A script that calls a built-in once on a big value does no loop iteration the step budget
would count, yet the built-in copies, sorts or collates every element or character. Each
such built-in charges ``Realm.bulk`` (one step per 16 units of work) *before* it works, so a
small step budget stops a single call on a big input. The inputs come from the caller (whose
conversion is not charged), so only the built-in's own charge can trip the budget; the same
calls on a small input stay well inside it. Every row runs through both exits.
"""

from __future__ import annotations

from typing import Any

import pytest

from syncpatch import Budgets

from .sec_harness import Case, L, R, check, params

BIG = 200_000  # 12 500 steps at one step per 16 units: over the 5 000 below
STEPS = Budgets(steps=5_000, wall_time=30.0)
ARRAY = list(range(BIG))
TEXT = "ab" * (BIG // 2)
ACCENTED = "é" * BIG

CALLS = {
    "spread": ("[...value].length", ARRAY),
    "spread-call": ("Math.max(...value)", ARRAY),
    "apply-arguments": ("Math.max.apply(null, value)", ARRAY),
    "array-from": ("Array.from(value).length", ARRAY),
    "slice": ("value.slice().length", ARRAY),
    "concat": ("value.concat(value).length", ARRAY),
    "sort": ("value.sort().length", ARRAY),
    "locale-compare": ("value.localeCompare(value + 'c')", TEXT),
    "normalize": ("value.normalize('NFD').length", ACCENTED),
    "split": ("value.split('').length", TEXT),
}

CASES = [Case(f"{name}-big", src, L("steps"), value=value, budgets=STEPS) for name, (src, value) in CALLS.items()]
SMALL_RESULTS = {"spread": 100, "spread-call": 99, "apply-arguments": 99, "array-from": 100, "slice": 100,
                 "concat": 200, "sort": 100, "locale-compare": -1, "normalize": 200, "split": 100}
CASES += [Case(f"{name}-small", src, R(SMALL_RESULTS[name]), value=value[:100], budgets=STEPS,
               node=False, note="a budget row: the small input only shows the call itself fits")
          for name, (src, value) in CALLS.items()]


@pytest.mark.parametrize("case", params(CASES))
def test_built_in_work_is_charged_in_proportion(case: Case, through: Any) -> None:
    check(case, through)
