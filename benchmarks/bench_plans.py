"""Sections 2 and 3: plan application against hand-written Python, throughput, scaling."""

from __future__ import annotations

import copy
import time
from typing import Any, Callable

from . import workloads as w
from .timing import interleaved_medians

PlanCall = Callable[[Any, Any], Any]


def _compile(patches: list[dict[str, Any]]) -> Any:
    import syncpatch

    return syncpatch.compile_patches(patches)


def _pair(plan_call: PlanCall, by_hand: PlanCall, obj: Any, *, repeats: int, target: float) -> dict[str, Any]:
    """Time a plan direction against its hand-written twin, after checking they agree."""
    ours = plan_call(copy.deepcopy(obj), w.CONTEXT)
    theirs = by_hand(copy.deepcopy(obj), w.CONTEXT)
    if ours != theirs:
        return {"problem": "plan and hand-written results differ"}
    inputs = [(copy.deepcopy(obj), w.CONTEXT) for _ in range(4)]
    times = interleaved_medians({"handwritten": by_hand, "syncpatch": plan_call}, inputs, repeats=repeats, target=target)
    return {
        "handwritten_us": times["handwritten"] * 1e6,
        "syncpatch_us": times["syncpatch"] * 1e6,
        "ratio": times["syncpatch"] / times["handwritten"],
    }


def _workload(name: str, patches: Any, obj: Any, to_hand: PlanCall, from_hand: PlanCall, **kw: Any) -> dict[str, Any]:
    plan = _compile(patches)
    host = to_hand(copy.deepcopy(obj), w.CONTEXT)
    return {
        "name": name,
        "to_host": _pair(plan.to_host, to_hand, obj, **kw),
        "from_host": _pair(plan.from_host, from_hand, host, **kw),
    }


def run_application(*, repeats: int, target: float, endpoint_size: tuple[int, int, int]) -> dict[str, Any]:
    kw = {"repeats": repeats, "target": target}
    rows = [
        _workload("Endpoints %dx%dx%d" % endpoint_size, w.ENDPOINTS_PATCHES, w.endpoints(*endpoint_size),
                  w.endpoints_to_host_by_hand, w.endpoints_from_host_by_hand, **kw),
        _workload("Service (6 patches)", w.SERVICE_PATCHES, w.service(),
                  w.service_to_host_by_hand, w.service_from_host_by_hand, **kw),
        _workload("Pod (5 patches)", w.POD_PATCHES, w.pod(), w.pod_to_host_by_hand, w.pod_from_host_by_hand, **kw),
    ]
    return {"rows": rows}


def run_throughput(*, objects: int) -> dict[str, Any]:
    """Objects per second through one plan, and through the hand-written function."""
    plan = _compile(w.SERVICE_PATCHES)
    batch = [w.service() for _ in range(objects)]
    start = time.perf_counter()
    for obj in batch:
        plan.to_host(obj, w.CONTEXT)
    ours = time.perf_counter() - start
    start = time.perf_counter()
    for obj in batch:
        w.service_to_host_by_hand(obj, w.CONTEXT)
    theirs = time.perf_counter() - start
    return {"objects": objects, "syncpatch_per_s": objects / ours, "handwritten_per_s": objects / theirs}


def run_scaling(*, repeats: int, target: float, sizes: tuple[int, ...], patch_counts: tuple[int, ...]) -> dict[str, Any]:
    plan = _compile([{"path": "items[*].name", "expression": '"x-" + value'}])
    by_size = []
    for n in sizes:
        obj: dict[str, Any] = {"items": [{"name": f"item-{i}", "value": i} for i in range(n)]}
        t = interleaved_medians({"syncpatch": plan.to_host}, [(obj, w.CONTEXT)], repeats=repeats, target=target)
        by_size.append({"elements": n, "us": t["syncpatch"] * 1e6, "ns_per_element": t["syncpatch"] * 1e9 / n})
    by_patches = []
    fields = max(patch_counts)
    obj = {"spec": {f"f{i}": f"v{i}" for i in range(fields)}}
    for count in patch_counts:
        plan = _compile([{"path": f"spec.f{i}", "expression": '"x-" + value'} for i in range(count)])
        t = interleaved_medians({"syncpatch": plan.to_host}, [(obj, w.CONTEXT)], repeats=repeats, target=target)
        by_patches.append({"patches": count, "us": t["syncpatch"] * 1e6, "ns_per_patch": t["syncpatch"] * 1e9 / count})
    return {"by_size": by_size, "by_patch_count": by_patches}
