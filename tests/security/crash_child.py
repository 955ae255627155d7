"""Child process of ``test_crash_isolation``: runs deep-nesting and deep-recursion rows and
prints one JSON line per row. A crash (segfault, abort, OOM kill) kills only this process.

Usage: ``python crash_child.py ROW_ID[,ROW_ID...] [--thread]`` or ``python crash_child.py --all [--thread]``.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any, Callable

import syncpatch
from syncpatch import Budgets, CompileError, EvaluationError, LimitExceeded


def _deep_dict(n: int) -> Any:
    d: Any = None
    for _ in range(n):
        d = {"a": d}
    return d


def _deep_list(n: int) -> Any:
    d: Any = []
    for _ in range(n):
        d = [d]
    return d


N = 2500
HUGE = 100_000
#: row id -> (source, value factory, budgets)
ROWS: dict[str, tuple[str, Callable[[], Any], Any]] = {
    "src-nested-arrays": ("[" * N + "]" * N, lambda: None, None),
    "src-nested-parens": ("(" * N + "1" + ")" * N, lambda: None, None),
    "src-not-chain": ("!" * N + "1", lambda: None, None),
    "src-member-chain": ("value" + "?.a" * 2000, lambda: None, None),
    "src-arrow-chain": ("x => " * N + "1", lambda: None, None),
    "src-nested-blocks": ("{" * N + "}" * N, lambda: None, None),
    "src-nested-objects": ("({a:" * N + "1" + "})" * N, lambda: None, None),
    "src-nested-calls": ("String(" * N + "1" + ")" * N, lambda: None, None),
    "src-nested-templates": ("`${" * N + "1" + "}`" * N, lambda: None, None),
    "src-nested-ifs": ("if (1) " * N + "1", lambda: None, None),
    "src-nested-iife": ("(function () { return " * 1000 + "1" + "})()" * 1000, lambda: None, None),
    "src-long-sum": ("+".join(["1"] * 12000), lambda: None, None),
    "run-deep-result-object": ("let o = {}; for (let i = 0; i < 100000; i++) o = {a: o}; o", lambda: None, None),
    "run-deep-result-array": ("let o = []; for (let i = 0; i < 100000; i++) o = [o]; o", lambda: None, None),
    "run-json-parse-deep": ("JSON.parse('['.repeat(200000) + ']'.repeat(200000))", lambda: None, None),
    "run-json-stringify-deep": ("let o = {}; for (let i = 0; i < 100000; i++) o = {a: o}; JSON.stringify(o)",
                                lambda: None, None),
    "run-string-of-deep-array": ("let o = []; for (let i = 0; i < 100000; i++) o = [o]; String(o)", lambda: None,
                                 None),
    "run-flat-deep": ("let o = []; for (let i = 0; i < 100000; i++) o = [o]; o.flat(Infinity).length",
                      lambda: None, None),
    "run-recursion-default": ("function f(n) { return n ? f(n - 1) + 1 : 0 } f(100000)", lambda: None, None),
    "run-recursion-huge-budget": ("function f(n) { return n ? f(n - 1) + 1 : 0 } f(1000000)", lambda: None,
                                  Budgets(call_depth=10_000_000, steps=100_000_000)),
    "run-tostring-recursion-huge-budget": ("({toString() { return this + '' }}) + ''", lambda: None,
                                           Budgets(call_depth=10_000_000)),
    "input-deep-value-read": ("JSON.stringify(value).length", lambda: _deep_dict(HUGE), None),
    "input-deep-value-returned": ("value", lambda: _deep_dict(HUGE), None),
    "input-deep-value-mutated": ("value.x = 1; 1", lambda: _deep_dict(HUGE), None),
    "input-deep-list-mutated": ("value.push(1); value.length", lambda: _deep_list(HUGE), None),
}


#: rows run under a small address-space cap with roomy budgets: only MemoryError can stop them
_ROOMY = Budgets(steps=10**12, array_length=10**9, string_length=10**9, wall_time=120)
MEMORY_ROWS: dict[str, tuple[str, Callable[[], Any], Any]] = {
    "mem-many-strings": ("const a = []; for (let i = 0; i < 1e5; i++) a.push('x'.repeat(1e6) + i); a.length",
                         lambda: None, _ROOMY),
    "mem-huge-array": ("Array(3e8).fill(0).length", lambda: None, _ROOMY),
    "mem-string-doubling": ("let s = 'ab'; while (true) s += s", lambda: None, _ROOMY),
    "mem-usable-after": ("[1, 2].map(x => x + 1)", lambda: None, None),
}
ROWS_ALL = {**ROWS, **MEMORY_ROWS}


def run(row: str) -> dict[str, Any]:
    src, make_value, budgets = ROWS_ALL[row]
    try:
        fn = syncpatch.compile_expression(src, budgets=budgets)
    except CompileError:
        return {"id": row, "kind": "compile"}
    except BaseException as exc:  # noqa: BLE001
        return {"id": row, "kind": "escaped", "type": type(exc).__name__, "stage": "compile"}
    try:
        result = fn(make_value())
    except LimitExceeded as exc:
        return {"id": row, "kind": "limit", "budget": exc.budget, "js_name": exc.js_name}
    except EvaluationError as exc:
        return {"id": row, "kind": "error", "js_name": exc.js_name}
    except BaseException as exc:  # noqa: BLE001
        return {"id": row, "kind": "escaped", "type": type(exc).__name__, "stage": "run"}
    return {"id": row, "kind": "result", "type": type(result).__name__}


def main() -> None:
    args = sys.argv[1:]
    rows = list(ROWS) if args[0] == "--all" else args[0].split(",")
    in_thread = "--thread" in args
    for row in rows:
        box: list[dict[str, Any]] = []
        if in_thread:
            t = threading.Thread(target=lambda box=box, row=row: box.append(run(row)))
            t.start()
            t.join()
        else:
            box.append(run(row))
        print(json.dumps(box[0]), flush=True)


if __name__ == "__main__":
    main()
