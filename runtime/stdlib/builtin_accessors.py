"""Accessor properties of built-in prototypes (ECMA-262 22.2.6, 24.1.3.10, 24.2.3.9, 20.4.3.2):
``RegExp.prototype.global``, ``Map.prototype.size``, ``Symbol.prototype.description``...

Instances answer these names directly (fast), so the getters here are what a script reaches
through a descriptor (``Object.getOwnPropertyDescriptor(RegExp.prototype, "global").get``)
or on the prototype itself; each checks its receiver as the spec's getter does.
"""

from __future__ import annotations

from typing import Any, Callable

from ..properties import BUILTIN_ACCESSORS, Accessor
from ..values import MISSING, UNDEFINED, JSSymbol, type_error
from .array_support import describe
from .registry import native

__all__: list[str] = []


def _tag(this: Any) -> str | None:
    return getattr(type(this), "JS_CLASS", None)


def _is_proto(this: Any, tag: str) -> bool:
    return type(this).__name__ == "BuiltinProto" and getattr(this, "tag", None) == tag


def _register(tag: str, key: str, getter: Callable[[Any], Any]) -> None:
    BUILTIN_ACCESSORS[(tag, key)] = Accessor(native(lambda this, *_: getter(this), f"get {key}", 0), UNDEFINED)


def _regexp_getter(key: str) -> Callable[[Any], Any]:
    def get(this: Any) -> Any:
        if _tag(this) == "RegExp" and hasattr(this, "js_get_own"):
            return this.js_get_own(key)
        if _is_proto(this, "RegExp"):
            return "(?:)" if key == "source" else UNDEFINED  # 22.2.6.x step 3.a
        shown = repr(this) if type(this) is JSSymbol else describe(this)
        raise type_error(f"RegExp.prototype.{key} getter called on non-RegExp object {shown}"
                         if key != "source" else "RegExp.prototype.source getter called on non-RegExp object")
    return get


for _key in ("dotAll", "global", "hasIndices", "ignoreCase", "multiline", "source", "sticky", "unicode"):
    _register("RegExp", _key, _regexp_getter(_key))


def _flags(this: Any) -> str:
    """get RegExp.prototype.flags (22.2.6.4): generic over the flag getters."""
    from .array_support import members

    if type(this) in (str, int, float, bool) or this is None or this is UNDEFINED or type(this) is JSSymbol:
        raise type_error("RegExp.prototype.flags getter called on non-object " + describe(this))
    m = members()
    out = ""
    for ch, name in (("d", "hasIndices"), ("g", "global"), ("i", "ignoreCase"), ("m", "multiline"),
                     ("s", "dotAll"), ("u", "unicode"), ("y", "sticky")):
        if _truthy(m.get_member(this, name)):
            out += ch
    return out


def _truthy(v: Any) -> bool:
    from ..convert import to_boolean

    return to_boolean(v)


_register("RegExp", "flags", _flags)


def _size_getter(tag: str) -> Callable[[Any], Any]:
    def get(this: Any) -> Any:
        if _tag(this) == tag and hasattr(this, "store"):
            return len(this.store)
        raise type_error(f"Method get {tag}.prototype.size called on incompatible receiver {describe(this)}")
    return get


_register("Map", "size", _size_getter("Map"))
_register("Set", "size", _size_getter("Set"))


def _description(this: Any) -> Any:
    if type(this) is JSSymbol:
        return this.description
    inner = getattr(this, "value", MISSING) if _tag(this) == "Symbol" else MISSING
    if type(inner) is JSSymbol:
        return inner.description
    raise type_error("Symbol.prototype.description requires that 'this' be a Symbol")


_register("Symbol", "description", _description)
