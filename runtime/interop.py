"""The boundary between caller data and JS values.

Python -> JS: JSON-like data already is the JS representation (see ``values.py``), so a
script that provably cannot mutate its inputs gets them as they are; otherwise ``to_js``
makes one fast deep copy, so the caller's ``value`` and ``context`` are never changed.
JS -> Python: ``to_python`` gives plain dicts in JS key order, lists, ints for integral
safe numbers and floats otherwise; it rebuilds only the containers that need it.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable

from .convert import PLAIN_KEY_LENGTH, PLAIN_KEYS_LIMIT, PLAIN_KEYS_SEEN, has_index_keys, normalize_number, string_keys
from .strings import from_units
from .subclasses import LIST, STR, foreign, plain_container, plain_scalar
from .errors import LimitExceeded
from .values import UNDEFINED, JSErrorObject, JSObject

__all__ = ["to_js", "to_python", "scalar_to_js", "shallow_to_js"]

_MAX_DEPTH = 5000


def scalar_to_js(v: Any) -> Any:
    """Canonicalise a non-container input (floats that are integral become ints)."""
    t = type(v)
    if t is float:
        return normalize_number(v)
    if t is str:
        return v if v.isascii() else from_units(v)
    if t is tuple:
        return [to_js(x) for x in v]
    return v


def shallow_to_js(v: Any) -> Any:
    """A copy of the top-level container only (for scripts that write nothing but members of
    ``value`` itself); nested values are shared, as with scripts that mutate nothing."""
    t = type(v)
    if t is dict:
        for k in v:
            if type(k) is not str:
                return to_js(v)
        return dict(v)
    if t is list:
        return list(v)
    kind = foreign(t)
    if kind:  # caller data of a subclass: a copy of its plain value
        return shallow_to_js(plain_container(v, kind) if kind <= LIST else plain_scalar(v, kind))
    return scalar_to_js(v)


def to_js(v: Any, depth: int = 0) -> Any:
    """A deep copy of caller data in canonical JS form (dict/list rebuilt, scalars kept)."""
    t = type(v)
    if t is dict:
        if depth > _MAX_DEPTH:
            raise LimitExceeded("input nested too deeply", budget="depth", js_name="RangeError")
        out: dict[str, Any] = {}
        for k, x in v.items():
            if type(k) is not str:
                k = _key(k)
            tx = type(x)
            if (tx is str and x.isascii()) or tx is int or tx is bool or x is None:
                out[k] = x
            else:
                out[k] = to_js(x, depth + 1)
        return out
    if t is list or t is tuple:
        if depth > _MAX_DEPTH:
            raise LimitExceeded("input nested too deeply", budget="depth", js_name="RangeError")
        return [x if (type(x) is str and x.isascii()) or type(x) is int else to_js(x, depth + 1) for x in v]
    if t is str:
        return v if v.isascii() else from_units(v)
    if t is int or t is bool or v is None or v is UNDEFINED:
        return v
    if t is float:
        return normalize_number(v)
    kind = foreign(t)
    if kind:  # caller data of a subclass: a copy of its plain value (read from its storage)
        return to_js(plain_container(v, kind) if kind <= LIST else plain_scalar(v, kind), depth)
    if isinstance(v, dict):
        return to_js(dict(v), depth)
    return v


def _key(k: Any) -> str:
    kind = foreign(type(k))
    if kind >= STR:  # a str/int/float subclass key: by its plain value
        k = plain_scalar(k, kind)
        if type(k) is str:
            return k
    if type(k) is bool:
        return "true" if k else "false"
    if type(k) is int or type(k) is float:
        from .convert import number_to_string

        return number_to_string(normalize_number(k))
    return str(k) if k is not None else "null"


#: leaf types every JS value of which comes back to Python as it is
_PLAIN_LEAVES: frozenset[type] = frozenset([str, bool, type(None), type(UNDEFINED)])
_PLAIN_OR_INT = _PLAIN_LEAVES | {int}
_SAFE = 9007199254740992  # 2**53: larger ints are rounded to the double JS holds
_SAFE_INTS = range(-9007199254740992, 9007199254740993)
_IS_INT = int.__instancecheck__


def _leaves_plain(values: Callable[[], Iterable[Any]]) -> bool:
    """Are all these leaves returned as they are (plain leaves, safe integers)? Every step
    runs at C speed (map, set, filter, range membership), which matters: this check runs over
    every result, and a Python loop over the leaves costs more than building them did."""
    types = set(map(type, values()))
    if types <= _PLAIN_LEAVES:
        return True
    return types <= _PLAIN_OR_INT and all(map(_SAFE_INTS.__contains__, filter(_IS_INT, values())))


def to_python(v: Any, depth: int = 0) -> Any:
    """JS value -> caller value; containers are reused when already canonical."""
    t = type(v)
    if t is str or t is bool or v is None or v is UNDEFINED:
        return v
    if t is dict and depth <= _MAX_DEPTH:
        return _dict_to_python(v, depth)
    if t is int:  # an int beyond 2**53 (passed in from Python) is the double JS holds
        return v if -9007199254740992 <= v <= 9007199254740992 else float(v)
    if t is float:
        if v.is_integer() and abs(v) <= 2**53 and (v != 0 or math.copysign(1.0, v) > 0):
            return int(v)
        return v
    if depth > _MAX_DEPTH:
        raise LimitExceeded("result nested too deeply", budget="depth", js_name="RangeError")
    if t is list:
        # first a pass that only looks: a list of plain scalars and small plain objects (the
        # usual result) comes back as it is, with no call per element
        for x in v:
            tx = type(x)
            if tx is dict:
                if len(x) > 8 or not known_plain_keys(x):
                    break
                for y in x.values():
                    if type(y) not in _PLAIN_LEAVES and (type(y) is not int or not -_SAFE <= y <= _SAFE):
                        break
                else:
                    continue
                break
            if tx not in _PLAIN_LEAVES and (tx is not int or not -_SAFE <= x <= _SAFE):
                break
        else:
            return v
        out = None
        for i, x in enumerate(v):
            tx = type(x)
            if tx in _PLAIN_LEAVES or (tx is int and -9007199254740992 <= x <= 9007199254740992) or (
                    tx is dict and len(x) <= 8 and _small_plain(x)):
                if out is not None:
                    out.append(x)
                continue
            y = _dict_to_python(x, depth + 1) if tx is dict and depth < _MAX_DEPTH else to_python(x, depth + 1)
            if y is not x and out is None:
                out = v[:i]
            if out is not None:
                out.append(y)
        return v if out is None else out
    if t is dict or t is JSObject or t is JSErrorObject:
        return _dict_to_python(v, depth)
    return _special_to_python(v, depth)


def _special_to_python(v: Any, depth: int) -> Any:
    """Other JS objects (prototypes, Map, RegExp...) become a dict of their own enumerable
    properties; functions and symbols are returned as they are (opaque). Nothing the runtime
    shares between evaluations is handed out: a built-in namespace (``Math``, ``globalThis``)
    becomes a new dict like any object, a built-in function a copy of its record, so no
    caller's write to a result reaches another evaluation."""
    from .values import JSFunction, JSSymbol
    from .stdlib.registry import BuiltinNamespace
    from . import members

    kind = foreign(type(v))
    if kind:  # caller data of a subclass (returned or shared into the result): its plain value
        return to_python(plain_container(v, kind) if kind <= LIST else plain_scalar(v, kind), depth)
    if isinstance(v, list):  # array exotic objects with extra properties (match results)
        return [to_python(x, depth + 1) for x in v]
    if type(v) is JSFunction:
        return JSFunction(v.call, v.name, v.length, v.construct, v.kind, None, True, v.source) if v.builtin else v
    if type(v) is JSSymbol or (isinstance(v, dict) and not isinstance(v, BuiltinNamespace)):
        return v

    if type(v) is members.BuiltinProto and v.tag == "Array":
        return []
    try:
        keys = members.own_keys(v)
    except Exception:  # noqa: BLE001 - not an object we know how to enumerate
        return v
    return {k: to_python(members.get_member(v, k), depth + 1) for k in keys}


#: string keys met so far that start with no digit (so are no array index): for most objects
#: one C-level superset test then shows that JS enumerates their keys in insertion order
#: (the set lives in ``convert``, whose ``ordered_keys`` asks it first too)
_PLAIN_KEYS_SEEN: set[str] = PLAIN_KEYS_SEEN
_PLAIN_KEYS_LIMIT = PLAIN_KEYS_LIMIT
_PLAIN_KEY_LENGTH = PLAIN_KEY_LENGTH
known_plain_keys = _PLAIN_KEYS_SEEN.issuperset


def plain_keys(v: dict[Any, Any]) -> bool:
    """Whether every key of ``v`` is a string that starts with no digit (none can be an
    array index). The keys are remembered, up to a bound, for ``known_plain_keys``."""
    if known_plain_keys(v):
        return True
    for k in v:
        if type(k) is not str or (k and "0" <= k[0] <= "9"):
            return False
    if len(_PLAIN_KEYS_SEEN) < _PLAIN_KEYS_LIMIT:  # (short keys only: the memo holds at most ~1 MB)
        _PLAIN_KEYS_SEEN.update(k for k in v if len(k) <= _PLAIN_KEY_LENGTH)
    return True


def _no_index_keys(v: dict[str, Any]) -> bool:
    """``not has_index_keys(v)`` (keys that are not strings are not looked at), with a
    C-level answer in the common case."""
    return known_plain_keys(v) or plain_keys(v) or not has_index_keys(v)


def _small_plain(v: dict[str, Any], plain: frozenset[type] = _PLAIN_LEAVES) -> bool:
    """A small object that comes back as it is: plain leaves and plain keys. One loop over
    the values beats the C-level passes below on a handful of entries."""
    for x in v.values():
        if type(x) not in plain:
            if type(x) is not int or not -9007199254740992 <= x <= 9007199254740992:
                return False
    return known_plain_keys(v) or plain_keys(v)


def _dict_to_python(v: dict[str, Any], depth: int) -> dict[str, Any]:
    if type(v) is dict and len(v) <= 8 and _small_plain(v):
        return v
    if type(v) is dict and _no_index_keys(v):
        if _leaves_plain(v.values):
            return v  # nothing to convert (a C-speed test)
        out: dict[str, Any] | None = None
        for k, x in v.items():
            t = type(x)
            if t in _PLAIN_LEAVES or (t is int and -9007199254740992 <= x <= 9007199254740992):
                if out is not None:
                    out[k] = x
                continue
            y = to_python(x, depth + 1)
            if out is None and y is not x:
                out = {}
                for kk, xx in v.items():
                    if kk == k:
                        break
                    out[kk] = xx
            if out is not None:
                out[k] = y
        return v if out is None else out
    return {k: to_python(v[k], depth + 1) for k in string_keys(v)}
