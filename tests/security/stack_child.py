"""Child process of ``test_small_stacks``: runs recursion rows on a worker thread with a small
stack and prints one JSON line per row. A C stack overflow is a segfault, which kills only
this process.

Usage: ``python stack_child.py STACK_BYTES rows`` (every row, with default and raised
budgets), ``python stack_child.py STACK_BYTES reach`` (the deepest plain and sort-comparator
recursion that completes, with the call-depth budget out of the way) or
``python stack_child.py STACK_BYTES compile`` (long operator chains, compiled on that thread).
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any, Callable

import syncpatch
from syncpatch import Budgets, CompileError, EvaluationError, LimitExceeded

RAISED = Budgets(call_depth=10_000_000, steps=10**9, wall_time=60.0)
DEEP = 100_000


def _deep_value() -> Any:
    value: Any = None
    for _ in range(DEEP):
        value = {"a": value}
    return value


#: row id -> (source, value factory)
ROWS: dict[str, tuple[str, Callable[[], Any]]] = {
    "plain": ("function f(n) { return n ? f(n - 1) + 1 : 0 } f(1e6)", lambda: None),
    "method": ("const o = {f(n) { return n ? this.f(n - 1) + 1 : 0 }}; o.f(1e6)", lambda: None),
    "sort-comparator": ("function f(n) { return n ? [2, 1].sort((a, b) => f(n - 1) + a - b)[0] : 0 } f(1e6)",
                        lambda: None),
    "replace-callback": ("function f(n) { return n ? 'a'.replace(/a/g, () => f(n - 1)) : '' } f(1e6)", lambda: None),
    "map-callback": ("function f(n) { return n ? [n].map(x => f(x - 1))[0] : 0 } f(1e6)", lambda: None),
    "call-apply": ("function f(n) { return n ? f.apply(null, [n - 1]) + f.call(null, 0) : 0 } f(1e6)",
                   lambda: None),
    "reviver": ("function f(n) { return n ? JSON.parse('1', () => f(n - 1)) : 0 } f(1e6)", lambda: None),
    "tojson": ("function f(n) { return n ? JSON.stringify({toJSON() { return f(n - 1) }}) : 0 } f(1e6)",
               lambda: None),
    "tostring-hook": ("({toString() { return this + '' }}) + ''", lambda: None),
    "getter": ("function f(n) { return n ? ({get x() { return f(n - 1) }}).x : 0 } f(1e6)", lambda: None),
    "json-parse-deep": ("JSON.parse('['.repeat(200000) + ']'.repeat(200000))", lambda: None),
    "json-stringify-deep": ("let o = {}; for (let i = 0; i < 100000; i++) o = {a: o}; JSON.stringify(o)",
                            lambda: None),
    "string-of-deep-array": ("let o = []; for (let i = 0; i < 100000; i++) o = [o]; String(o)", lambda: None),
    "tolocalestring-deep": ("let o = []; for (let i = 0; i < 100000; i++) o = [o]; o.toLocaleString()",
                            lambda: None),
    "sort-deep-arrays": ("let o = []; for (let i = 0; i < 100000; i++) o = [o]; [o, o].sort().length", lambda: None),
    "deep-result": ("let o = {}; for (let i = 0; i < 100000; i++) o = {a: o}; o", lambda: None),
    "flat-deep": ("let o = []; for (let i = 0; i < 100000; i++) o = [o]; o.flat(Infinity).length", lambda: None),
    "deep-input-read": ("JSON.stringify(value).length", _deep_value),
    "deep-input-returned": ("value", _deep_value),
}


#: sources whose compilation recurses deeply (Python's own compiler recurses in C)
COMPILE_ROWS: dict[str, str] = {
    "long-sum": "+".join(["1"] * 3000),
    "long-ternary": "value ? 1 : " * 1000 + "1",
    "long-optional-chain": "value" + "?.a" * 2000,
}


def outcome(src: str, value: Any, budgets: Any) -> dict[str, Any]:
    try:
        fn = syncpatch.compile_expression(src, budgets=budgets)
        fn(value)
    except LimitExceeded as exc:
        return {"kind": "limit", "budget": exc.budget, "js_name": exc.js_name, "text": str(exc)}
    except EvaluationError as exc:
        return {"kind": "error", "js_name": exc.js_name, "text": str(exc)}
    except CompileError as exc:
        return {"kind": "compile", "text": str(exc)}
    except BaseException as exc:  # noqa: BLE001 - that is the finding
        return {"kind": "escaped", "type": type(exc).__name__}
    return {"kind": "result"}


#: the caller's deep inputs, built and kept alive on the main thread: on CPython 3.13 merely
#: freeing a 100 000-deep dict needs ~700 KiB of C stack (plain Python, whoever built it),
#: so a caller that drops one on a 256 KiB thread crashes in its own code, not in syncpatch
_INPUTS: dict[str, Any] = {}


def rows() -> None:
    for row, (src, _) in ROWS.items():
        for budget_name, budgets in (("default", None), ("raised", RAISED)):
            got = outcome(src, _INPUTS[row], budgets)
            print(json.dumps({"id": f"{row}/{budget_name}", **got}), flush=True)


def compile_rows() -> None:
    for row, src in COMPILE_ROWS.items():
        print(json.dumps({"id": row, **outcome(src, None, None)}), flush=True)


def _completes(src: str) -> bool:
    return outcome(src, None, RAISED)["kind"] == "result"


def deepest(template: str) -> int:
    """The largest n (to 1 %) for which ``template % n`` completes."""
    low, high = 0, 1
    while _completes(template % high) and high < 1 << 22:
        low, high = high, high * 2
    while high - low > max(1, low // 100):
        mid = (low + high) // 2
        low, high = (mid, high) if _completes(template % mid) else (low, mid)
    return low


def reach() -> None:
    print(json.dumps({
        "plain": deepest("function f(n) { return n ? f(n - 1) + 1 : 0 } f(%d)"),
        "sort-comparator": deepest("function f(n) { return n ? [2, 1].sort((a, b) => f(n - 1) + a - b)[0] : 0 } f(%d)"),
    }), flush=True)


def main() -> None:
    size, mode = int(sys.argv[1]), sys.argv[2]
    _INPUTS.update({row: make_value() for row, (_, make_value) in ROWS.items()})
    threading.stack_size(size)
    worker = threading.Thread(target={"rows": rows, "reach": reach, "compile": compile_rows}[mode])
    worker.start()
    worker.join()


if __name__ == "__main__":
    main()
