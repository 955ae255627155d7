"""Evaluations on many threads see nothing of each other, and no runtime cache grows unbounded.

Syncers evaluate the same compiled expressions and plans from many threads on shared inputs.
Each row below runs sequentially first, then from 8 threads at once (the same compiled
objects, the same input objects); every concurrent result must equal the sequential one.
Scripts that write to built-ins (``Math.x``, ``Array.prototype``) must never see another
evaluation's writes, results must never be the runtime's shared objects, and the runtime's
module-level caches must stay within their bounds under many distinct inputs.
"""

from __future__ import annotations

import copy
import random
import sys
import threading
from typing import Any, Callable

import syncpatch
from syncpatch import Budgets, EvaluationError

THREADS = 8
ROUNDS = 10

VALUE = {"arr": [[1, 2], [3, [4, "x"]]], "name": "web", "labels": {"b": "2", "a": "1"}, "n": 7,
         "big": [[i, [i, [i]]] for i in range(300)]}
CONTEXT = {"vcluster": {"name": "vc"}}

SCRIPTS = [
    "Math.x = (Math.x || 0) + 1; Array.prototype.evil = (Array.prototype.evil || 0) + 1; [Math.x, [].evil]",
    "[typeof Math.x, typeof [].evil, typeof ({}).polluted]",
    "Object.prototype.polluted = value.n; ({}).polluted",
    "String(value.arr) + '|' + value.arr.join(';')",
    "String(value.big).length + value.big.join(';').length",
    "const a = [1, 2]; a.push(a); String(a) + value.arr.toString()",
    "Object.keys(value.labels).sort().map(k => k + '=' + value.labels[k]).join(',')",
    "JSON.stringify(value) + JSON.stringify(JSON.parse(JSON.stringify(value.arr)))",
    "value.name.replace(/e(b)/g, (m, b) => b.toUpperCase()) + /w(e)b/.exec(value.name)[1]",
    "Symbol.for('k' + value.n) === Symbol.for('k7')",
    "let s = 0; for (let i = 0; i < 200; i++) s += [i, i + 1].sort((x, y) => y - x)[0]; s",
    "Math.max = () => -1; Math.max(1, 2)",
    "Math.max(1, 2)",
    "value.arr.flat(Infinity).length + [...'héllo'].length",
    "(() => { const c = {n: 0}; const inc = () => ++c.n; inc(); inc(); return c.n + context.vcluster.name })()",
    "delete Math.abs; typeof Math.abs",
    "typeof Math.abs",
]


def _outcome(fn: Callable[..., Any], value: Any, context: Any) -> Any:
    try:
        return ("result", fn(value, context))
    except EvaluationError as exc:
        return ("error", exc.js_name, str(exc))


def _hammer(jobs: list[Callable[[], Any]], expected: list[Any]) -> list[str]:
    """Run every job from THREADS threads, ROUNDS times each in a shuffled order; collect
    every result that differs from the sequential one."""
    wrong: list[str] = []
    start = threading.Barrier(THREADS)

    def worker(seed: int) -> None:
        order = list(range(len(jobs))) * ROUNDS
        random.Random(seed).shuffle(order)
        start.wait()
        for i in order:
            got = jobs[i]()
            if got != expected[i]:
                wrong.append(f"job {i}: {got!r} != {expected[i]!r}")

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return wrong


def test_concurrent_evaluations_agree_with_sequential_ones() -> None:
    value, context = copy.deepcopy(VALUE), copy.deepcopy(CONTEXT)
    fns = [syncpatch.compile_expression(src) for src in SCRIPTS]
    fns += [syncpatch.compile_expression(src, budgets=Budgets()) for src in SCRIPTS]  # the general tier
    jobs = [lambda fn=fn: _outcome(fn, value, context) for fn in fns]
    expected = [job() for job in jobs]
    assert expected[0] == ("result", [1, 1]) and expected[1] == ("result", ["undefined", "undefined", "undefined"])
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often: races show up
    try:
        wrong = _hammer(jobs, expected)
    finally:
        sys.setswitchinterval(previous)
    assert not wrong, "\n".join(wrong[:10])
    assert value == VALUE and context == CONTEXT


def test_concurrent_plan_applications_agree_with_sequential_ones() -> None:
    plan = syncpatch.compile_patches([
        {"path": "spec.ports[*].name", "expression": "Math.tag = (Math.tag || '') + 'x'; 'h-' + value + Math.tag",
         "reverseExpression": "value.slice(2, -1)"},
        {"path": "metadata.labels.list", "expression": "String(value) + typeof Math.tag"},
    ])
    obj = {"metadata": {"labels": {"list": [[1, 2], [3]]}}, "spec": {"ports": [{"name": "a"}, {"name": "b"}]}}
    before = copy.deepcopy(obj)
    ctx = {"vcluster": {"name": "vc", "namespace": "ns"}}
    jobs = [lambda: plan.to_host(obj, ctx), lambda: plan.from_host(plan.to_host(obj, ctx), ctx)]
    expected = [job() for job in jobs]
    assert expected[0]["metadata"]["labels"]["list"] == "1,2,3undefined"
    wrong = _hammer(jobs, expected)
    assert not wrong, "\n".join(wrong[:10])
    assert obj == before


def test_results_never_alias_runtime_objects() -> None:
    """A caller writing into what a script returned (``Math``, ``globalThis``, a built-in
    function) changes nothing that a later evaluation sees."""
    for src in ("Math", "globalThis", "JSON", "[Math, Object.prototype]", "({m: Math})"):
        result = syncpatch.compile_expression(src)(None)
        containers = [result] + (list(result.values()) if isinstance(result, dict) else list(result)
                                 if isinstance(result, list) else [])
        for c in containers:
            if isinstance(c, dict):
                c["abs"] = "clobbered"
                c["max"] = None
    fn = syncpatch.compile_expression("Math.abs")(None)
    fn.call = lambda *a: "clobbered"
    assert syncpatch.compile_expression("[Math.abs(-2), Math.max(1, 3), typeof JSON.abs]")(None) == [2, 3, "undefined"]


def _module_containers() -> dict[str, tuple[int, int | None]]:
    """Every module-level container and lru cache of the runtime: (size, bound or None)."""
    out: dict[str, tuple[int, int | None]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("syncpatch.runtime"):
            continue
        for attr, v in list(vars(module).items()):
            if isinstance(v, (dict, set, list)) and not attr.startswith("__"):
                out[f"{name}.{attr}"] = (len(v), None)
            elif callable(getattr(v, "cache_info", None)):
                info = v.cache_info()
                out[f"{name}.{attr}"] = (info.currsize, info.maxsize)
    return out


#: module-level memos that grow with inputs, and the bound each keeps to
BOUNDED = {
    "syncpatch.runtime.interop._PLAIN_KEYS_SEEN": 4096 + 300,  # checked before an update of one object's keys
    "syncpatch.runtime.stdlib.regexp._cache": 512,
    "syncpatch.runtime.stdlib.regexp._created": 512,
}


def _distinct_inputs(start: int, stop: int) -> None:
    for i in range(start, stop):
        for src in (f"/a{i}b/.test('xa{i}b')", f"new RegExp('x{i}', 'g').source", f"value.k{i} + ({i}).toString(7)",
                    f"'a{i}'.localeCompare('b{i}') + Symbol.for('s{i}').toString()",
                    f"JSON.parse('{{\"j{i}\": {i}}}').j{i}"):
            syncpatch.compile_expression(src)({f"k{i}": i})


def test_module_level_caches_stay_bounded() -> None:
    """Every runtime container that grows under distinct inputs is a known memo within its
    bound (lru caches: their ``maxsize``), so no script data accumulates in the process."""
    _distinct_inputs(0, 100)
    before = _module_containers()
    _distinct_inputs(100, 600)
    after = _module_containers()
    for name, (size, bound) in after.items():
        grew = name in before and size > before[name][0]
        if not grew:
            continue
        limit = bound if bound is not None else BOUNDED.get(name)
        assert limit is not None, f"{name} grew from {before[name][0]} to {size} with no bound"
        assert size <= limit, f"{name} holds {size} entries (bound {limit})"
