"""Runner of the direct-call tables in ``cases/numeric_direct.json`` (Number, Math, JSON,
Date, Boolean). Rows come from ``numeric_rows.py``; node's answers from
``gen_numeric_direct.py``. Built-ins are called straight from the registry, so these tests
need neither node nor the compiler. Results are compared exactly: numbers by value and type
class (NaN, +-Infinity and -0 tagged), object key order, error name *and* V8's message.
"""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any, Callable

import pytest

from syncpatch.runtime import members  # noqa: F401  (installs the core dispatch, loads the stdlib)
from syncpatch.runtime.convert import normalize_number, ordered_keys
from syncpatch.runtime.stdlib import registry
from syncpatch.runtime.stdlib.date import DATE_PROTO, JSDate
from syncpatch.runtime.values import UNDEFINED, JSErrorObject, JSFunction, JSThrow

CASES = pathlib.Path(__file__).parent / "cases" / "numeric_direct.json"
_ROWS: list[dict[str, Any]] = json.loads(CASES.read_text())

_TAGGED = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}


def _js(fn: Callable[..., Any], name: str = "") -> JSFunction:
    return JSFunction(fn, name, 2, kind="function")


def _is_num(v: Any) -> bool:
    return type(v) is int or type(v) is float


# Python twins of numeric_rows.FUNCTIONS (called as fn(this, key, value)).
FUNCTIONS: dict[str, JSFunction] = {
    "double_numbers": _js(lambda this, k, v, *_: v * 2 if _is_num(v) else v),
    "drop_a": _js(lambda this, k, v, *_: UNDEFINED if k == "a" else v),
    "key_echo": _js(lambda this, k, v, *_: v if k == "" else f"{k}:{_typeof(v)}"),
    "drop_numbers": _js(lambda this, k, v, *_: UNDEFINED if k != "" and _is_num(v) else v),
    "inc_numbers": _js(lambda this, k, v, *_: v + 1 if _is_num(v) else v),
    "to_undefined": _js(lambda this, *_: UNDEFINED, "to_undefined"),
}


def _typeof(v: Any) -> str:
    from syncpatch.runtime.convert import typeof

    return typeof(v)


def decode(v: Any) -> Any:
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict):
        if "$undefined" in v:
            return UNDEFINED
        if "$number" in v:
            return _TAGGED[v["$number"]]
        if "$date" in v:
            return JSDate(float(decode(v["$date"])))
        if "$fn" in v:
            return FUNCTIONS[v["$fn"]]
        return {k: decode(x) for k, x in v.items()}
    if type(v) is float:
        return normalize_number(v)
    return v


def canon(v: Any) -> Any:
    """The same canonical form gen_numeric_direct.py's node runner produces."""
    if v is UNDEFINED:
        return {"$undefined": True}
    t = type(v)
    if t is int or t is float:
        if v != v:
            return {"$number": "NaN"}
        if v in (math.inf, -math.inf):
            return {"$number": "Infinity" if v > 0 else "-Infinity"}
        if v == 0 and math.copysign(1.0, v) < 0:
            return {"$number": "-0"}
        if float(v).is_integer() and abs(v) > 2**53:
            return {"$number": "float", "value": float(v)}
        return v
    if v is None or t is str or t is bool:
        return v
    if t is JSFunction:
        return {"$function": v.name}
    if t is JSDate:
        return {"$date": canon(v.tv if v.tv != v.tv else int(v.tv))}
    if t is list:
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return {"$obj": [[k, canon(v[k])] for k in ordered_keys(v)]}
    return repr(v)


def expected(e: Any) -> Any:
    if isinstance(e, list):
        return [expected(x) for x in e]
    if isinstance(e, dict):
        if "$number" in e and e["$number"] not in _TAGGED:
            return {"$number": "float", "value": float(e["$number"])}
        if "$obj" in e:
            return {"$obj": [[k, expected(x)] for k, x in e["$obj"]]}
        if "$date" in e:
            return {"$date": expected(e["$date"])}
        return e
    return e


def target_fn(target: str) -> JSFunction:
    kind, path = target.split(":")
    owner, _, name = path.partition(".")
    if kind == "proto":
        table = DATE_PROTO if owner == "Date" else getattr(registry, f"{owner.upper()}_PROTO")
        return table[name]
    g = registry.GLOBALS[owner]
    if kind == "static":
        return g[name] if isinstance(g, dict) else g.props[name]
    return g


def run_row(row: dict[str, Any]) -> None:
    kind = row["target"].split(":")[0]
    fn = target_fn(row["target"])
    args = decode(row["args"])
    try:
        if kind == "new":
            assert fn.construct is not None
            got = canon(fn.construct(*args))
        else:
            got = canon(fn.call(decode(row["this"]) if kind == "proto" else UNDEFINED, *args))
    except JSThrow as exc:
        err = exc.value
        assert isinstance(err, JSErrorObject)
        got = {"$error": err.error_name, "message": err.message}
    want = expected(row["expect"])
    assert _same(got, want), f"{row['target']} this={row['this']!r} args={row['args']!r}: got {got!r}, node {want!r}"


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def rows(*groups: str) -> list[Any]:
    out = []
    for i, r in enumerate(_ROWS):
        if r["group"] in groups:
            label = f"{i}:{r['target'].split(':')[1]}({json.dumps(r['args'])[:40]})"
            out.append(pytest.param(r, id=label))
    return out
