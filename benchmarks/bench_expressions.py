"""Section 1: per-expression call cost against hand-written Python and embedded engines."""

from __future__ import annotations

import json
from typing import Any

from .engines import available_engines, syncpatch_engine
from .expressions import CASES, ExpressionCase, input_pool
from .timing import geomean, interleaved_medians


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False)


def _check(case: ExpressionCase, name: str, call: Any, expected: Any) -> str | None:
    """A contender that gives a different answer is not timed: report why instead."""
    value, context = input_pool(case, 1)[0]
    try:
        got = call(value, context)
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return f"{name} failed: {type(exc).__name__}: {exc}"
    if not _same(got, expected):
        return f"{name} gave {got!r}, expected {expected!r}"
    return None


def run(*, repeats: int, target: float) -> dict[str, Any]:
    engines = available_engines()
    rows = []
    for case in CASES:
        value, context = input_pool(case, 1)[0]
        expected = case.handwritten(value, context)
        contenders = {"handwritten": case.handwritten, "syncpatch": syncpatch_engine(case.source)}
        for name, factory in engines.items():
            contenders[name] = factory(case.source)
        problems = [p for n, c in contenders.items() if (p := _check(case, n, c, expected))]
        usable = {n: c for n, c in contenders.items() if not any(p.startswith(n + " ") for p in problems)}
        times = interleaved_medians(usable, input_pool(case), repeats=repeats, target=target)
        base = times.get("handwritten", float("nan"))
        rows.append({
            "name": case.name,
            "source": case.source,
            "ns": {n: t * 1e9 for n, t in times.items()},
            "ratio_to_handwritten": {n: t / base for n, t in times.items()},
            "problems": problems,
        })
    return {"rows": rows, "engines": sorted(engines), "summary": _summary(rows, engines)}


def _summary(rows: list[dict[str, Any]], engines: dict[str, Any]) -> dict[str, Any]:
    ours = [r["ratio_to_handwritten"]["syncpatch"] for r in rows if "syncpatch" in r["ratio_to_handwritten"]]
    summary: dict[str, Any] = {"syncpatch_geomean_ratio": geomean(ours)}
    ours_sorted = sorted(ours)
    if ours_sorted:
        summary["syncpatch_median_ratio"] = ours_sorted[len(ours_sorted) // 2]
    for name in engines:
        speedups = [
            r["ns"][name] / r["ns"]["syncpatch"] for r in rows if name in r["ns"] and "syncpatch" in r["ns"]
        ]
        summary[f"speedup_vs_{name}_geomean"] = geomean(speedups)
    return summary
