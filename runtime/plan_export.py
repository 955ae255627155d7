"""Patch results as vCluster stores them: goja's ``Export`` followed by Go's ``encoding/json``.

vCluster runs a patch expression in goja, exports the result to a Go value and marshals it
into the object. Whatever survives that trip is JSON data; whatever does not fails the patch.
A plan applies the same rule to every result it stores, so no value without a JSON form
reaches a patched object (or anything printed from one):

* strings, booleans, finite numbers and ``null`` stay as they are; ``undefined`` drops an
  object member and is ``null`` in an array (the result itself deletes the field);
* a Date becomes its RFC 3339 text as Go marshals a ``time.Time`` (UTC, the fraction
  without trailing zeros, ``1970-01-01T00:00:00Z``); an invalid Date is ``null``; a year
  outside 0..9999 fails, as Go's marshaller does;
* a Map becomes its ``[key, value]`` pairs and a Set its values, in insertion order;
* a ``new String``/``Number``/``Boolean`` wrapper becomes its primitive;
* any other object becomes its own enumerable string-keyed properties, read with [[Get]]
  (a getter's value, as goja's export reads them);
* NaN, ±Infinity, a function, a symbol and a cycle fail with a ``TypeError`` naming where
  the value sits in the result.
"""

from __future__ import annotations

import math
from typing import Any

from .convert import string_keys
from .interop import known_plain_keys, plain_keys
from .properties import meta_of
from .realm import PATCHED_REALMS
from .subclasses import foreign, plain_value
from .values import UNDEFINED, JSErrorObject, JSFunction, JSObject, JSSymbol, JSThrow

__all__ = ["export_result", "go_time_text", "ExportFailure"]

_MAX_DEPTH = 1000
_PLAIN_DEPTH = 64  # deeper trees (or cycles) take the full walk, which tells them apart
_SAFE = 2**53


def export_result(value: Any) -> Any:
    """``value`` as JSON data by vCluster's export rule (see the module docstring); a JS
    ``TypeError`` (raised as ``JSThrow``) for a value Go's JSON encoding refuses. A tree
    that already is JSON data in canonical form (the usual result) comes back as it is."""
    t = type(value)
    if t is str or t is bool or t is int or value is None or value is UNDEFINED:
        return value
    if (t is dict or t is list) and not PATCHED_REALMS[0] and _canonical(value, 0):
        return value
    if t is float and math.isfinite(value) and not value.is_integer():
        return value
    return _export(value, "", [], 0)


def _canonical(value: Any, depth: int) -> bool:
    """Whether ``value`` is JSON data exactly as the export would write it: plain containers,
    keys in JS order (none an array index), no ``undefined``, safe ints, finite non-integral
    floats (only read while no property side table exists, so no getter hides in it)."""
    if depth > _PLAIN_DEPTH:
        return False
    if type(value) is dict:
        if not (known_plain_keys(value) or plain_keys(value)):
            return False
        items: Any = value.values()
    else:
        items = value
    for x in items:
        t = type(x)
        if t is str or t is bool or x is None:
            continue
        if t is int:
            if -_SAFE <= x <= _SAFE:
                continue
            return False
        if t is float:
            if math.isfinite(x) and not x.is_integer():
                continue
            return False
        if (t is dict or t is list) and _canonical(x, depth + 1):
            continue
        return False
    return True


class ExportFailure(JSErrorObject):
    """The ``TypeError`` thrown for a result without a JSON form (so a caller that prints
    results can tell it from an error the script threw)."""

    __slots__ = ()


def _fail(what: str, where: str) -> Exception:
    at = f"the result holds {what} at {where}" if where else f"the result is {what}"
    return JSThrow(ExportFailure("TypeError", f"{at}, which JSON cannot represent (vCluster stores results as JSON)"))


def _child(where: str, key: str | int) -> str:
    if type(key) is int:
        return f"{where}[{key}]"
    text = str(key)
    plain = text.replace("_", "a").replace("$", "a").isalnum() and not text[:1].isdigit()
    return (f"{where}.{text}" if where else text) if plain else f'{where}["{text}"]'


def _export(value: Any, where: str, stack: list[int], depth: int) -> Any:
    t = type(value)
    if t is str or t is bool or value is None:
        return value
    if t is int:
        return value if -_SAFE <= value <= _SAFE else float(value)
    if t is float:
        if not math.isfinite(value):
            raise _fail("NaN" if value != value else ("Infinity" if value > 0 else "-Infinity"), where)
        return int(value) if value.is_integer() and abs(value) <= _SAFE and (value or math.copysign(1.0, value) > 0) else value
    if value is UNDEFINED:
        return None
    if foreign(t):  # caller data of a subclass: exported as its plain value
        return _export(plain_value(value), where, stack, depth)
    if t is JSFunction:
        raise _fail(f"a function ({value.name or 'anonymous'})", where)
    if t is JSSymbol:
        raise _fail(f"a symbol ({value!r})", where)
    if depth > _MAX_DEPTH:
        raise _fail("values nested too deeply", where)
    if id(value) in stack:
        raise _fail("a cycle (an object that contains itself)", where)
    kind = getattr(t, "JS_CLASS", None)
    if kind == "Date":
        return _date(value.tv, where)
    if kind in ("Number", "Boolean", "String") and hasattr(value, "value"):
        return _export(value.value, where, stack, depth)
    if kind == "Symbol":
        raise _fail("a symbol wrapper object", where)
    stack.append(id(value))
    try:
        if kind == "Map":
            return [[_export(k, _child(where, i), stack, depth + 1), _export(v, _child(where, i), stack, depth + 1)]
                    for i, (k, v) in enumerate(value.js_iterator())]
        if kind == "Set":
            return [_export(v, _child(where, i), stack, depth + 1) for i, v in enumerate(value.js_iterator())]
        if t is list or isinstance(value, list):
            return _array(value, where, stack, depth)
        return _object(value, where, stack, depth)
    finally:
        stack.pop()


def _array(value: list[Any], where: str, stack: list[int], depth: int) -> list[Any]:
    m = meta_of(value)
    if m is not None and m.accessors:
        from .members import get_member

        items = [get_member(value, i) for i in range(len(value))]
    else:
        items = value
    return [_export(item, _child(where, i), stack, depth + 1) for i, item in enumerate(items)]


def _object(value: Any, where: str, stack: list[int], depth: int) -> dict[str, Any]:
    """Own enumerable string keys, in JS order, each read with [[Get]] (getters run)."""
    out: dict[str, Any] = {}
    if (type(value) is dict or type(value) is JSObject) and meta_of(value) is None:
        pairs: Any = ((k, value[k]) for k in string_keys(value))
    else:
        from .members import get_member, own_keys

        pairs = ((k, get_member(value, k)) for k in own_keys(value))
    for key, item in pairs:
        if item is UNDEFINED:
            continue  # goja exports nil; vCluster's merge patch leaves no key behind
        out[key] = _export(item, _child(where, key), stack, depth + 1)
    return out


def go_time_text(tv: float) -> str:
    """A valid JS time value as Go's ``time.Time`` marshals it in UTC (RFC 3339 with the
    fraction's trailing zeros dropped)."""
    from .stdlib.date import civil

    y, mo, d, h, mi, s, ms, _ = civil(tv)
    fraction = f".{ms:03d}".rstrip("0").rstrip(".")
    return f"{y:04d}-{mo + 1:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}{fraction}Z"


def _date(tv: float, where: str) -> Any:
    if tv != tv:
        return None  # goja exports an invalid Date as nil
    from .stdlib.date import civil

    year = civil(tv)[0]
    if not 0 <= year <= 9999:
        raise _fail(f"a Date in year {year} (Go's JSON writes years 0 to 9999 only)", where)
    return go_time_text(tv)
