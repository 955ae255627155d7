"""Section: the realistic corpus (Kubernetes idioms and real vCluster patches) against the
Python a competent developer would write for each, with the tier each case ran on.

The cases live in ``benchmarks/data/realistic-public.json`` (``js``, the hand-written
``python`` lambda as text, ``value``, ``context``, node's ``expected``). Each case is timed
three ways: hand-written, syncpatch as users call it, and syncpatch with the general tier
forced (``compile_expression(js, budgets=Budgets())``: custom budgets always take the general
tier). The tier a case runs on is observed on a fresh expression after one call: ``native``
(it has a native tier and the general tier was never needed), ``fallback`` (it has one, but
its guard failed on this input) or ``general`` (no native tier).

Each run also measures the floor of a call on each tier (``call_floors``: what a call costs
beyond a hand-written one doing the same small work) and the geomean ratios those floors
alone make of the corpus (``floor_geomeans``): where no per-operation speed-up can take a
tier while every call pays its entry.
"""

from __future__ import annotations

import base64
import copy
import json
import math
import re
from pathlib import Path
from typing import Any, Callable

from .native_refusals import refusal
from .timing import geomean, interleaved_medians

DATA = Path(__file__).parent / "data" / "realistic-public.json"
TIERS = ("native", "fallback", "general")


def load_cases(path: Path = DATA) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["cases"])


def handwritten(case: dict[str, Any]) -> Callable[[Any, Any], Any]:
    """The case's hand-written lambda (trusted text shipped with the benchmark)."""
    return eval(case["python"], {"re": re, "json": json, "base64": base64, "math": math})  # type: ignore[no-any-return]  # noqa: S307


def js_input(tagged: Any) -> Any:
    """The corpus's tagged form -> what syncpatch takes (``{"$undefined": true}`` -> UNDEFINED)."""
    from syncpatch import UNDEFINED

    if isinstance(tagged, dict):
        if list(tagged) == ["$undefined"]:
            return UNDEFINED
        return {k: js_input(v) for k, v in tagged.items()}
    if isinstance(tagged, list):
        return [js_input(v) for v in tagged]
    return tagged


def py_input(tagged: Any) -> Any:
    """The tagged form -> what the hand-written Python takes (undefined reads as None)."""
    if isinstance(tagged, dict):
        if list(tagged) == ["$undefined"]:
            return None
        return {k: py_input(v) for k, v in tagged.items()}
    if isinstance(tagged, list):
        return [py_input(v) for v in tagged]
    return tagged


def canonical(value: Any) -> Any:
    """A result in the corpus's tagged form, numbers compared by value (4040 == 4040.0)."""
    from syncpatch import UNDEFINED

    if value is UNDEFINED:
        return {"$undefined": True}
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    return value


def observed_tier(source: str, value: Any, context: Any) -> str:
    """The tier one call of a fresh expression ran on (see the module docstring)."""
    import syncpatch

    expression = syncpatch.compile_expression(source)
    if not expression.native:
        return "general"
    try:
        expression(copy.deepcopy(value), copy.deepcopy(context))
    except syncpatch.EvaluationError:
        pass
    return "fallback" if expression.general.loaded else "native"  # a native-first tier loads its general tier on first need


def call_floors(*, repeats: int, target: float) -> dict[str, float]:
    """Nanoseconds a call of each tier costs beyond a hand-written call doing the same work,
    on a script that reads its input once: ``value === "web"`` (the native tier: its entry,
    one type test, the comparison; the general tier: its realm set up and checked around
    the same), against ``lambda value, context: value == "web"``, in one interleaved run."""
    import syncpatch

    source = 'value === "web"'
    contenders: dict[str, Callable[[Any, Any], Any]] = {
        "handwritten": lambda value, context: value == "web",
        "native": syncpatch.compile_expression(source),
        "general": syncpatch.compile_expression(source, budgets=syncpatch.Budgets()),
    }
    times = interleaved_medians(contenders, [("web", None)] * 16, repeats=repeats, target=target)
    return {tier: max((times[tier] - times["handwritten"]) * 1e9, 0.0) for tier in ("native", "general")}


def floor_geomeans(rows: list[dict[str, Any]], floors: dict[str, float]) -> dict[str, float]:
    """What the per-call floors alone make of the corpus's geomean ratio to hand-written:
    ``native`` and ``general`` if each case cost its hand-written time plus the tier's floor
    (every operation as fast as hand-written Python), and ``general_at_native_speed`` if the
    general tier's operations cost what the native tier's do (each case's native time with the
    general floor in place of the native one). A tier whose floor geomean is above a target
    cannot meet it by making operations faster, only by making its entry cheaper."""
    timed = [r["ns"] for r in rows if "syncpatch" in r["ns"]]
    return {
        "native": geomean([(ns["handwritten"] + floors["native"]) / ns["handwritten"] for ns in timed]),
        "general": geomean([(ns["handwritten"] + floors["general"]) / ns["handwritten"] for ns in timed]),
        "general_at_native_speed": geomean([
            max(ns["syncpatch"] - floors["native"] + floors["general"], ns["handwritten"]) / ns["handwritten"]
            for ns in timed]),
    }


def run(*, repeats: int, target: float, limit: int | None = None) -> dict[str, Any]:
    import syncpatch

    rows = []
    for case in load_cases()[:limit]:
        js_value, js_context = js_input(case["value"]), js_input(case["context"])
        py_value, py_context = py_input(case["value"]), py_input(case["context"])
        hand = handwritten(case)
        ours = syncpatch.compile_expression(case["js"])
        general = syncpatch.compile_expression(case["js"], budgets=syncpatch.Budgets())
        problems = []
        for name, call, args in (("syncpatch", ours, (js_value, js_context)),
                                 ("general", general, (js_value, js_context))):
            try:
                got = canonical(call(*copy.deepcopy(args)))
            except Exception as exc:  # noqa: BLE001 - reported, not raised
                problems.append(f"{name} failed: {type(exc).__name__}: {exc}")
                continue
            if json.dumps(got) != json.dumps(canonical(case["expected"])):
                problems.append(f"{name} gave {json.dumps(got)[:80]}, node says {json.dumps(case['expected'])[:80]}")
        contenders: dict[str, Callable[[Any, Any], Any]] = {"handwritten": hand}
        if not any(p.startswith("syncpatch ") for p in problems):
            contenders["syncpatch"] = ours
        if not any(p.startswith("general ") for p in problems):
            contenders["general"] = general
        js_pool = [(copy.deepcopy(js_value), copy.deepcopy(js_context)) for _ in range(16)]
        pools = {name: js_pool for name in contenders}
        pools["handwritten"] = [(copy.deepcopy(py_value), copy.deepcopy(py_context)) for _ in range(16)]
        times = interleaved_medians(contenders, pools, repeats=repeats, target=target)
        base = times["handwritten"]
        tier = observed_tier(case["js"], js_value, js_context)
        rows.append({
            "id": case["id"],
            "source": case["js"],
            "tier": tier,
            "refusal": refusal(case["js"]) if tier == "general" else None,  # why no native tier
            "ns": {n: t * 1e9 for n, t in times.items()},
            "ratio_to_handwritten": {n: t / base for n, t in times.items() if n != "handwritten"},
            "problems": problems,
        })
    floors = call_floors(repeats=repeats, target=target)
    summary = summarise(rows)
    summary["call_floor_ns"] = floors
    summary["floor_geomean"] = floor_geomeans(rows, floors)
    return {"rows": rows, "summary": summary}


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Geomeans overall, per tier and for the general tier forced; the worst case."""
    ours = [r["ratio_to_handwritten"]["syncpatch"] for r in rows if "syncpatch" in r["ratio_to_handwritten"]]
    forced = [r["ratio_to_handwritten"]["general"] for r in rows if "general" in r["ratio_to_handwritten"]]
    summary: dict[str, Any] = {
        "cases": len(rows),
        "syncpatch_geomean_ratio": geomean(ours),
        "syncpatch_median_ratio": sorted(ours)[len(ours) // 2] if ours else math.nan,
        "general_forced_geomean_ratio": geomean(forced),
        "cases_above_4x": sum(r > 4 for r in ours),
        "worst": max(((r["ratio_to_handwritten"].get("syncpatch", 0.0), r["id"]) for r in rows), default=None),
        "with_problems": sum(bool(r["problems"]) for r in rows),
    }
    for tier in TIERS:
        in_tier = [r["ratio_to_handwritten"]["syncpatch"] for r in rows
                   if r["tier"] == tier and "syncpatch" in r["ratio_to_handwritten"]]
        summary[f"{tier}_cases"] = sum(r["tier"] == tier for r in rows)
        summary[f"{tier}_geomean_ratio"] = geomean(in_tier)
    summary["native_share"] = summary["native_cases"] / len(rows) if rows else math.nan
    return summary
