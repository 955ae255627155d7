"""Direct-call tables for String, RegExp, URI, base64 and localeCompare (no compiler needed).

A row names a built-in call; ``gen_textlib_direct.py`` turns it into a JS expression, asks
node (the oracle evaluator) for the result and stores it in ``cases/textlib_direct.json``.
The tests replay each row by calling the Python implementation directly and compare the
canonical results. Row fields:

- ``op``: ``proto`` (String.prototype[m].call(this, ...args)), ``static`` (String[m]),
  ``global`` (globalThis[m]), ``exec``/``test`` (new RegExp(...re)[op](this) with
  ``lastIndex`` = ``li``; the result is ``[result, lastIndex]``), ``ctor`` (the accessors
  of new RegExp(...args)), ``literal`` (is ``/m/`` a valid literal? node: compile only);
- ``msg``: when true, the row's result is ``[error name, message]`` (V8's text) or null;
- ``args`` items may be ``{"$re": [source, flags]}`` (a RegExp) or ``{"$fn": name}`` (one
  of the replacer functions in ``FUNCTIONS``).

A match array is compared as ``{"arr": [...], "index": i, "groups": {...} | null}`` and an
iterator as the list of its values.
"""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any

from syncpatch.runtime import members  # noqa: F401  (installs the core dispatch and stdlib)
from syncpatch.runtime.realm import Realm, activate
from syncpatch.runtime.stdlib.registry import GLOBALS, STRING_PROTO
from syncpatch.runtime.stdlib.regexp import JSRegExp, MatchArray, regexp_create, regexp_exec
from syncpatch.runtime.values import UNDEFINED, JSFunction, JSIterator, JSObject, JSThrow

CASES = pathlib.Path(__file__).parent / "cases" / "textlib_direct.json"



def _json_arg(v: Any) -> Any:
    if v is UNDEFINED:
        return None
    if isinstance(v, JSObject):
        return {k: _json_arg(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_json_arg(x) for x in v]
    return v


#: the replacer functions of gen_textlib_direct.FUNCTIONS_JS, in Python
FUNCTIONS_PY = {
    "upper": lambda this, m, *a: m.upper(),
    "args": lambda this, *a: json.dumps([_json_arg(x) for x in a], separators=(",", ":"), ensure_ascii=False),
    "count": lambda this, *a: len(a),
    "dollar": lambda this, *a: "$&$1$$",
    "undef": lambda this, *a: UNDEFINED,
}


def to_js_arg(v: Any) -> Any:
    if isinstance(v, dict):
        if v == {"$undefined": True}:
            return UNDEFINED
        if list(v) == ["$number"]:
            return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}[v["$number"]]
        if "$re" in v:
            return regexp_create(*v["$re"])
        if "$fn" in v:
            return JSFunction(FUNCTIONS_PY[v["$fn"]], v["$fn"], 0, kind="arrow")
        return {k: to_js_arg(x) for k, x in v.items()}
    if isinstance(v, list):
        return [to_js_arg(x) for x in v]
    return v


def normal(v: Any) -> Any:
    """Match arrays and iterators in the comparable shape the JS side also builds."""
    if isinstance(v, MatchArray):
        groups = None if v.groups is UNDEFINED else dict(v.groups)
        return {"arr": [normal(x) for x in v], "index": v.match_index, "groups": groups}
    if isinstance(v, JSIterator):
        return [normal(x) for x in v.it]
    if isinstance(v, list):
        return [normal(x) for x in v]
    return v


def canon(v: Any) -> Any:
    if v is UNDEFINED:
        return {"$undefined": True}
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        if v != v:
            return {"$number": "NaN"}
        if v in (math.inf, -math.inf):
            return {"$number": "Infinity" if v > 0 else "-Infinity"}
        if v == 0 and math.copysign(1.0, v) < 0:
            return {"$number": "-0"}
        return v
    if isinstance(v, list):
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return [[k, canon(x)] for k, x in v.items()]
    return repr(v)


def expected(e: Any) -> Any:
    if isinstance(e, dict) and len(e) == 1 and next(iter(e)) in ("$undefined", "$number", "$error", "$compile_error"):
        return e
    if isinstance(e, list):
        return [expected(x) for x in e]
    if isinstance(e, dict):
        return [[k, expected(x)] for k, x in e.items()]
    return e


def _ctor_props(rx: JSRegExp) -> list[Any]:
    names = ("source", "flags", "global", "ignoreCase", "multiline", "dotAll", "unicode", "sticky", "hasIndices", "lastIndex")
    from syncpatch.runtime.members import get_member  # source, flags... are prototype getters

    return [get_member(rx, n) for n in names] + [JSRegExp.JS_PROTO["toString"].call(rx)]


def evaluate(row: dict[str, Any]) -> Any:
    """Run a row against the Python implementation."""
    from syncpatch.runtime.stdlib.regexp import validate_pattern

    op = row["op"]
    args = [to_js_arg(a) for a in row.get("args", [])]
    this = to_js_arg(row.get("this"))
    if op == "proto":
        return STRING_PROTO[row["m"]].call(this, *args)
    if op == "static":
        return GLOBALS["String"].props[row["m"]].call(UNDEFINED, *args)
    if op == "global":
        return GLOBALS[row["m"]].call(UNDEFINED, *args)
    if op in ("exec", "test"):
        rx = regexp_create(*row["re"])
        rx.last_index = row.get("li", 0)
        res = regexp_exec(rx, this) if op == "exec" else JSRegExp.JS_PROTO["test"].call(rx, this)
        return [res, rx.last_index]
    if op == "ctor":
        return _ctor_props(GLOBALS["RegExp"].construct(*args))
    if op == "literal":
        body, _, flags = row["m"][1:].rpartition("/")
        return validate_pattern(body, flags) is None
    raise ValueError(op)


def run_row(row: dict[str, Any]) -> None:
    try:
        with activate(Realm()):  # a fresh realm per row, as each evaluation gets
            got = canon(normal(evaluate(row)))
        if row.get("msg"):
            got = None
    except JSThrow as exc:
        err = exc.value
        got = [err.error_name, err.message] if row.get("msg") else {"$error": err.error_name}
    want = expected(row["expect"])
    if row["op"] == "literal":
        want = want != {"$compile_error": True}
    assert got == want, f"{row}: got {got!r}, node gives {want!r}"


def load(family: str) -> list[Any]:
    import pytest

    rows = [r for r in json.loads(CASES.read_text()) if r["fam"] == family]
    return [pytest.param(r, id=f"{i}:{r.get('m', r['op'])}:{json.dumps(r.get('args', r.get('re')), ensure_ascii=True)[:50]}") for i, r in enumerate(rows)]
