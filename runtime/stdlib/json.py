"""The JSON namespace (25.5): ``JSON.parse`` and ``JSON.stringify``, exact to V8.

``parse`` takes a fast path through Python's C JSON scanner with strict hooks (NaN and
Infinity rejected, ``-0`` kept, numbers as JS doubles, surrogate halves re-joined); any input
it refuses goes through ``json_errors.Diagnose``, a small exact JSON grammar that reports V8's
SyntaxError message and position (positions count UTF-16 code units, as V8's do).

``stringify`` follows SerializeJSONProperty (25.5.2.2): ``toJSON``, replacer function or
property list, gap, V8's well-formed string quoting (lone surrogates as ``\\udXXX``), and
V8's multi-line "Converting circular structure to JSON" TypeError.

Deviation: V8's nesting limit is its native stack; here ``stringify`` nests at most
5 x the realm's call-depth budget (2000 levels by default) and then throws V8's RangeError
("Maximum call stack size exceeded") as a ``LimitExceeded``.
"""

from __future__ import annotations

import json as _pyjson
import math
import re
from typing import Any

from ..convert import normalize_number, ordered_keys, string_keys, subclass_key, to_integer_or_infinity, to_number, to_string
from ..properties import meta_of
from ..members import BuiltinProto, call_function, delete_member, get_member, own_keys, set_member
from ..realm import current_realm
from ..subclasses import foreign, plain_value
from .. import stack
from .. import stack as _stack_room  # ``push`` has a local named stack
from ..strings import from_units, to_units
from ..errors import LimitExceeded
from ..values import (
    MISSING,
    UNDEFINED,
    JSErrorObject,
    JSFunction,
    JSObject,
    JSSymbol,
    type_error,
)
from .json_errors import Diagnose
from .number import number_to_string
from .registry import GLOBALS, BuiltinNamespace, native

_WRAPPER_PROTOS = {"String": '""', "Number": "0", "Boolean": "false", "Array": "[]"}

__all__ = ["JSON", "json_parse", "json_stringify", "quote"]

# --- quoting ----------------------------------------------------------------------------------

_encode_basestring: Any = _pyjson.encoder.encode_basestring
_SURROGATE = re.compile("[\ud800-\udfff]")
_NEEDS_ESCAPE = re.compile('[\x00-\x1f"\\\\\ud800-\udfff]')
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    return _SHORT.get(c) or f"\\u{ord(c):04x}"


def quote(s: str) -> str:
    """QuoteJSONString (25.5.2.3). Canonical strings hold only lone surrogates, which are
    escaped; joined astral characters are written as they are."""
    if s.isascii() or not _SURROGATE.search(s):
        return str(_encode_basestring(s))
    return '"' + _NEEDS_ESCAPE.sub(_escape, s) + '"'


# --- stringify --------------------------------------------------------------------------------

#: ints beyond 2**53 (from Python callers) print as the double JS would hold, not digit for digit
_SAFE = 2**53


def _is_object(v: Any) -> bool:
    t = type(v)
    return not (t is str or t is int or t is float or t is bool or v is None or v is UNDEFINED or t is JSSymbol)


def _constructor_name(obj: Any) -> str:
    t = type(obj)
    if isinstance(obj, list):
        return "Array"
    if t is JSErrorObject:
        return str(obj.error_name)
    if t is dict or t is JSObject or t is BuiltinNamespace:
        return "Object"
    return getattr(t, "JS_CLASS", "Object")


def _key_text(key: Any) -> str:
    if type(key) is int:
        return f"index {key}"
    return f"property '{key}'" if key else "<anonymous>"


class _Stringifier:
    """The state of one JSON.stringify call (25.5.2.1 JSON Serialization Record).

    ``plain`` is true when no script changed a prototype in this realm: then a dict or list
    can only have a ``toJSON`` of its own, which lets the common case skip member lookups."""

    __slots__ = ("replacer", "keys", "gap", "stack", "path", "realm", "limit", "plain", "fast")

    def __init__(self, replacer: Any, keys: list[str] | None, gap: str) -> None:
        self.replacer = replacer
        self.keys = keys
        self.gap = gap
        self.stack: list[int] = []
        self.path: list[tuple[Any, Any]] = []  # (key that led here, object)
        self.realm = current_realm()
        self.limit = max(self.realm.budgets.call_depth * 5, 100)  # nesting levels (V8: stack-bound)
        self.plain = self.realm.overlay is None and not self.realm.extra.get("protos") \
            and not self.realm.extra.get("props")  # no accessors, attributes or named array props
        self.fast = self.plain and replacer is None and keys is None and not gap

    def prop(self, value: Any, key: Any, holder: Any) -> str | None:
        """SerializeJSONProperty (25.5.2.2); ``key`` is an int for array elements."""
        t = type(value)
        if self.replacer is None:
            if t is str:
                return quote(value)
            if t is int:
                return str(value) if -_SAFE <= value <= _SAFE else number_to_string(value)
            if self.plain and (t is list or (t is dict and "toJSON" not in value)):
                return self.plain_data(value, key) if self.fast else self.container(value, key)
        if foreign(t):  # caller data of a subclass: serialised as its plain value
            return self.prop(plain_value(value), key, holder)
        if _is_object(value):
            to_json = get_member(value, "toJSON")
            if type(to_json) is JSFunction:
                value = to_json.call(value, str(key) if type(key) is int else key)
        if self.replacer is not None:
            value = call_function(self.replacer, holder, str(key) if type(key) is int else key, value)
        return self.primitive(value, key)

    def primitive(self, value: Any, key: Any) -> str | None:
        """The type dispatch of SerializeJSONProperty steps 4-12."""
        t = type(value)
        if t is str:
            return quote(value)
        if t is int:
            return str(value) if -_SAFE <= value <= _SAFE else number_to_string(value)
        if t is float:
            return number_to_string(value) if math.isfinite(value) else "null"
        if value is None:
            return "null"
        if t is bool:
            return "true" if value else "false"
        if value is UNDEFINED or t is JSFunction or t is JSSymbol:
            return None
        if getattr(t, "JS_CLASS", None) == "String" and hasattr(value, "value"):
            return quote(to_string(value))  # a String wrapper serialises as its string (step 4.c)
        if getattr(t, "JS_CLASS", None) in ("Number", "Boolean") and hasattr(value, "value"):
            inner = to_number(value) if t.JS_CLASS == "Number" else value.value  # step 4.a, 4.b
            return self.primitive(inner, key)
        if t is BuiltinProto and value.tag in _WRAPPER_PROTOS and not own_keys(value):
            # String.prototype is a String object for "", Number.prototype for 0, Boolean.prototype
            # for false (22.1.3, 21.1.3, 20.3.3); Array.prototype is an empty array (23.1.3)
            return _WRAPPER_PROTOS[value.tag]
        return self.container(value, key)

    def circular_message(self, start: int, last_key: Any) -> str:
        """V8's CircularStructureMessageBuilder: 2 lines after the start, '...', the last one."""
        lines = ["Converting circular structure to JSON",
                 f"    --> starting at object with constructor '{_constructor_name(self.path[start][1])}'"]
        size = len(self.path)
        index = start + 1
        prefix_end = min(size, index + 2)
        normal = "    |     {} -> object with constructor '{}'"
        for i in range(index, prefix_end):
            lines.append(normal.format(_key_text(self.path[i][0]), _constructor_name(self.path[i][1])))
        index = prefix_end
        if size > index + 1:
            lines.append("    |     ...")
        for i in range(max(index, size - 1), size):
            lines.append(normal.format(_key_text(self.path[i][0]), _constructor_name(self.path[i][1])))
        lines.append(f"    --- {_key_text(last_key)} closes the circle")
        return "\n".join(lines)

    def push(self, value: Any, key: Any) -> None:
        """Enter a container: cycles (V8's message) and deep nesting are errors here."""
        stack = self.stack
        ident = id(value)
        if ident in stack:
            raise type_error(self.circular_message(stack.index(ident), key))
        if len(stack) >= self.limit:
            raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth")
        if not len(stack) & 15:  # every 16 levels: nesting recurses in C too (small thread stacks)
            _stack_room.check()
        self.realm.charge(1)
        stack.append(ident)
        self.path.append((key, value))

    def container(self, value: Any, key: Any) -> str:
        """Serialize an object or array (``push`` detects cycles and deep nesting)."""
        stack = self.stack
        self.push(value, key)
        try:
            # isinstance: list subclasses (a regex match array) are arrays too
            return self.array(value) if isinstance(value, list) else self.object(value)
        finally:
            stack.pop()
            self.path.pop()

    def plain_data(self, value: Any, key: Any) -> str:
        """``container`` for the common call (no replacer, no gap, untouched prototypes) on a
        list or a dict without ``toJSON``: the same output, with scalars inlined."""
        stack = self.stack
        self.push(value, key)
        parts: list[str] = []
        if type(value) is list:
            for i, v in enumerate(value):
                t = type(v)
                if t is str:
                    parts.append(quote(v))
                elif t is int:
                    parts.append(str(v) if -_SAFE <= v <= _SAFE else number_to_string(v))
                elif t is list or (t is dict and "toJSON" not in v):
                    parts.append(self.plain_data(v, i))
                else:
                    s = self.prop(v, i, value)
                    parts.append("null" if s is None else s)
            text = self.wrap(parts, "[", "]")
        else:
            for k in ordered_keys(value):
                if type(k) is not str:
                    if not subclass_key(k):
                        continue  # symbol-keyed properties are never serialized
                    k = str.__str__(k)  # a caller's str-subclass key
                v = value[k]
                t = type(v)
                if t is str:
                    parts.append(quote(k) + ":" + quote(v))
                elif t is int:
                    parts.append(quote(k) + ":" + (str(v) if -_SAFE <= v <= _SAFE else number_to_string(v)))
                elif t is list or (t is dict and "toJSON" not in v):
                    parts.append(quote(k) + ":" + self.plain_data(v, k))
                else:
                    s = self.prop(v, k, value)
                    if s is not None:
                        parts.append(quote(k) + ":" + s)
            text = self.wrap(parts, "{", "}")
        stack.pop()
        self.path.pop()
        return text

    def object(self, value: Any) -> str:
        """SerializeJSONObject (25.5.2.5)."""
        plain = (type(value) is dict or type(value) is JSObject) and meta_of(value) is None
        if self.keys is not None:
            keys = self.keys
        elif plain:
            keys = string_keys(value)
        else:
            keys = own_keys(value)
        parts = []
        colon = ": " if self.gap else ":"
        fast = self.replacer is None
        for k in keys:
            v = value.get(k, MISSING) if plain else MISSING
            if v is MISSING:
                v = get_member(value, k)
            tv = type(v)
            if fast and tv is str:
                s: str | None = quote(v)
            elif fast and tv is int:
                s = str(v)
            else:
                s = self.prop(v, k, value)
            if s is not None:
                parts.append(quote(k) + colon + s)
        return self.wrap(parts, "{", "}")

    def array(self, value: list[Any]) -> str:
        """SerializeJSONArray (25.5.2.6)."""
        parts = []
        i = 0
        direct = self.plain or meta_of(value) is None  # else an element may be an accessor or a hole
        while i < len(value):
            s = self.prop(value[i] if direct else get_member(value, str(i)), i, value)
            parts.append("null" if s is None else s)
            i += 1
        return self.wrap(parts, "[", "]")

    def wrap(self, parts: list[str], open_: str, close: str) -> str:
        """Join the members of one object/array; the result is checked against the string
        budget before it is built (shared sub-objects can make the output exponential)."""
        if not parts:
            return open_ + close
        depth = len(self.stack)
        sep = len(self.gap) * depth + 2 if self.gap else 1
        self.realm.check_string(sum(map(len, parts)) + sep * len(parts) + 2)
        if not self.gap:
            return open_ + ",".join(parts) + close
        indent = "\n" + self.gap * depth
        stepback = "\n" + self.gap * (depth - 1)
        return open_ + indent + ("," + indent).join(parts) + stepback + close


def _property_list(replacer: list[Any]) -> list[str]:
    keys: list[str] = []
    seen: set[str] = set()
    for v in replacer:
        t = type(v)
        if t is str or t is int or t is float:
            item = v if t is str else to_string(v)
            if item not in seen:
                seen.add(item)
                keys.append(item)
    return keys


class _EmptyGap(str):
    """V8's gap for a space number strictly between 0 and 1: empty, yet it turns the
    pretty-printing on (newlines and ": "): JSON.stringify([1], null, 0.5) is '[\n1\n]'."""

    def __bool__(self) -> bool:
        return True


def _gap(space: Any) -> str:
    t = type(space)
    if t is int or t is float:
        n = min(10, to_integer_or_infinity(space))
        if n < 1 and 0 < space < 1:
            return _EmptyGap("")
        return " " * int(n) if n >= 1 else ""
    if t is str:
        if space.isascii():
            return str(space[:10])
        return from_units(to_units(space)[:10])
    return ""


def json_stringify(value: Any, replacer: Any = UNDEFINED, space: Any = UNDEFINED) -> Any:
    """JSON.stringify ( value [ , replacer [ , space ] ] ) (25.5.2)."""
    fn = replacer if type(replacer) is JSFunction else None
    keys = _property_list(replacer) if type(replacer) is list else None
    state = _Stringifier(fn, keys, _gap(space))
    wrapper = {"": value}
    result = state.prop(value, "", wrapper)
    if result is None:
        return UNDEFINED
    if result[:1] == '"' and len(result) > 4096:  # a string alone (containers check their text)
        state.realm.check_string(len(result))
    return result


# --- parse: fast path -------------------------------------------------------------------------

class _Refused(Exception):
    pass


def _parse_constant(name: str) -> Any:
    raise _Refused(name)


def _parse_int(s: str) -> int | float:
    if len(s) <= 15:
        return -0.0 if s == "-0" else int(s)
    return normalize_number(float(s))


def _parse_float(s: str) -> int | float:
    return normalize_number(float(s))


_DECODER = _pyjson.JSONDecoder(parse_float=_parse_float, parse_int=_parse_int, parse_constant=_parse_constant)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _canonical(v: Any) -> Any:
    """Re-join surrogate halves that an escape and a raw character formed."""
    t = type(v)
    if t is str:
        return from_units(v)
    if t is list:
        return [_canonical(x) for x in v]
    if t is dict:
        return {from_units(k): _canonical(x) for k, x in v.items()}
    return v


#: C stack one nesting level of Python's C JSON scanner takes (measured about 200 bytes)
_SCANNER_LEVEL_BYTES = 512
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _scanner_fits(text: str) -> bool:
    """Whether the C scanner's recursion over ``text`` fits the thread's C stack (a small
    thread stack overflows before Python's recursion limit stops it): the bracket count
    bounds the nesting; only when that bound does not fit is the real nesting measured."""
    bound = text.count("[") + text.count("{")
    if bound <= 64:
        return True
    left = stack.room() - stack.RESERVE
    if bound * _SCANNER_LEVEL_BYTES <= left:
        return True
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    current_realm().charge(len(brackets) + 1)
    depth = deepest = 0
    for step in map(_BRACKET_STEP.__getitem__, brackets):
        depth += step
        if depth > deepest:
            deepest = depth
    return deepest * _SCANNER_LEVEL_BYTES <= left


def _fast_parse(text: str) -> Any:
    if not _scanner_fits(text):
        raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth")
    try:
        result = _DECODER.decode(text)
    except (ValueError, _Refused, RecursionError):
        return MISSING
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        return _canonical(result)
    return result


def _diagnose(text: str) -> Any:
    """Raise the SyntaxError V8 gives for ``text`` (which the fast path refused)."""
    try:
        Diagnose(to_units(text)).document()
    except RecursionError:
        raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth") from None
    # valid JSON the fast path could not take (nesting deeper than Python's C scanner allows)
    raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth")


# --- parse: reviver ---------------------------------------------------------------------------

def _internalize(holder: Any, name: str, reviver: JSFunction, realm: Any) -> Any:
    """InternalizeJSONProperty (25.5.1.1)."""
    realm.charge(1)
    val = get_member(holder, name)
    if type(val) is list:
        length = len(val)
        for i in range(length):
            _revive_slot(val, str(i), reviver, realm)
    elif _is_object(val) and type(val) is not JSFunction:
        for key in own_keys(val):
            _revive_slot(val, key, reviver, realm)
    return reviver.call(holder, name, val)


def _revive_slot(val: Any, key: str, reviver: JSFunction, realm: Any) -> None:
    new = _internalize(val, key, reviver, realm)
    if new is UNDEFINED:
        delete_member(val, key)
    elif key == "__proto__" and type(val) is dict:
        val[key] = new  # CreateDataProperty: an own "__proto__", not the prototype setter
    else:
        set_member(val, key, new)


def json_parse(text: Any, reviver: Any = UNDEFINED) -> Any:
    """JSON.parse ( text [ , reviver ] ) (25.5.1)."""
    source = to_string(text)
    result = _fast_parse(source)
    if result is MISSING:
        _diagnose(source)
    if type(reviver) is JSFunction:
        root = {"": result}
        return _internalize(root, "", reviver, current_realm())
    return result


# --- the namespace ----------------------------------------------------------------------------

def _parse_fn(this: Any, text: Any = UNDEFINED, reviver: Any = UNDEFINED, *_: Any) -> Any:
    """JSON.parse ( text [ , reviver ] ) (25.5.1)."""
    return json_parse(text, reviver)


def _stringify_fn(this: Any, value: Any = UNDEFINED, replacer: Any = UNDEFINED, space: Any = UNDEFINED, *_: Any) -> Any:
    """JSON.stringify ( value [ , replacer [ , space ] ] ) (25.5.2)."""
    if replacer is UNDEFINED and space is UNDEFINED:  # a primitive has no toJSON to ask (25.5.2.2 step 2)
        t = type(value)
        if t is str:  # (containers check their text as they join it; a string alone here)
            text = quote(value)
            if len(text) > 4096:
                current_realm().check_string(len(text))
            return text
        if value is UNDEFINED:
            return UNDEFINED
        if value is None:
            return "null"
        if t is bool:
            return "true" if value else "false"
        if t is int and -_SAFE <= value <= _SAFE:
            return str(value)
    return json_stringify(value, replacer, space)


JSON = BuiltinNamespace("JSON", {
    "parse": native(_parse_fn, "parse", 2),
    "stringify": native(_stringify_fn, "stringify", 3),
})
GLOBALS["JSON"] = JSON
