"""Accessor properties of built-in prototypes (ECMA-262 22.2.6, 24.1.3.10, 24.2.3.9, 20.4.3.2):
``RegExp.prototype.global``, ``Map.prototype.size``, ``Symbol.prototype.description``...

Instances answer these names directly (fast), so the getters here are what a script reaches
through a descriptor (``Object.getOwnPropertyDescriptor(RegExp.prototype, "global").get``)
or on the prototype itself; each checks its receiver as the spec's getter does.
"""

from __future__ import annotations

from typing import Any, Callable

from ..properties import BUILTIN_ACCESSOR_KEYS, BUILTIN_ACCESSORS, Accessor
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
    BUILTIN_ACCESSOR_KEYS.add(key)


def _regexp_getter(key: str) -> Callable[[Any], Any]:
    def get(this: Any) -> Any:
        if _tag(this) == "RegExp" and hasattr(this, "accessor_value"):
            return this.accessor_value(key)
        if _is_proto(this, "RegExp"):
            return "(?:)" if key == "source" else UNDEFINED  # 22.2.6.x step 3.a
        shown = repr(this) if type(this) is JSSymbol else describe(this)
        raise type_error(f"RegExp.prototype.{key} getter called on non-RegExp object {shown}"
                         if key != "source" else "RegExp.prototype.source getter called on non-RegExp object")
    return get


for _key in ("dotAll", "global", "hasIndices", "ignoreCase", "multiline", "source", "sticky", "unicode", "unicodeSets"):
    _register("RegExp", _key, _regexp_getter(_key))


def _flags(this: Any) -> str:
    """get RegExp.prototype.flags (22.2.6.4): generic over the flag getters."""
    from .array_support import members

    if type(this) in (str, int, float, bool) or this is None or this is UNDEFINED or type(this) is JSSymbol:
        raise type_error("RegExp.prototype.flags getter called on non-object " + describe(this))
    m = members()
    out = ""
    for ch, name in (("d", "hasIndices"), ("g", "global"), ("i", "ignoreCase"), ("m", "multiline"),
                     ("s", "dotAll"), ("u", "unicode"), ("v", "unicodeSets"), ("y", "sticky")):
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


def _register_proto_accessor() -> None:
    """Object.prototype.__proto__ (B.2.2.1): reads and writes [[Prototype]] of ``this``."""
    from .array_support import members

    def get(this: Any, *_: Any) -> Any:
        if this is None or this is UNDEFINED:
            raise type_error("Object.prototype.__proto__ called on null or undefined")
        from .object_proto import prototype_of

        return prototype_of(this)

    def set(this: Any, proto: Any = UNDEFINED, *_: Any) -> Any:
        if this is None or this is UNDEFINED:
            raise type_error("Object.prototype.__proto__ called on null or undefined")
        m = members()
        if (proto is None or m._is_object(proto)) and m._is_object(this):
            m.set_prototype(this, proto)
        return UNDEFINED

    BUILTIN_ACCESSORS[("Object", "__proto__")] = Accessor(native(get, "get __proto__", 0),
                                                          native(set, "set __proto__", 1))
    BUILTIN_ACCESSOR_KEYS.add("__proto__")


_register_proto_accessor()


def _description(this: Any) -> Any:
    if type(this) is JSSymbol:
        return this.description
    inner = getattr(this, "value", MISSING) if _tag(this) == "Symbol" else MISSING
    if type(inner) is JSSymbol:
        return inner.description
    raise type_error("Symbol.prototype.description requires that 'this' be a Symbol")


_register("Symbol", "description", _description)


def _species(this: Any) -> Any:
    """get %Array%[@@species] and friends (23.1.2.5, 24.1.2.2, 24.2.2.2, 22.2.4.2): ``this``."""
    return this


def _register_species() -> None:
    from .symbol import WELL_KNOWN

    getter = native(lambda this, *_: _species(this), "get [Symbol.species]", 0)
    for ctor in ("Array", "Map", "Set", "RegExp"):
        BUILTIN_ACCESSORS[("constructor " + ctor, WELL_KNOWN["species"])] = Accessor(getter, UNDEFINED)
    BUILTIN_ACCESSOR_KEYS.add(WELL_KNOWN["species"])


_register_species()


def _register_string_tags() -> None:
    """@@toStringTag data properties (24.1.3.13, 24.2.3.12, 20.4.3.6, 21.3.1.9, 25.5.3, 28.1.14):
    non-writable, non-enumerable, configurable (``properties.default_flags``)."""
    from . import json, math, reflect  # noqa: F401 - their namespaces get a tag here
    from .collections import JSMap, JSSet
    from .registry import GLOBALS, SYMBOL_PROTO
    from .symbol import SYMBOL_TO_STRING_TAG

    tables: list[tuple[dict[Any, Any], str]] = [
        (JSMap.JS_PROTO, "Map"), (JSSet.JS_PROTO, "Set"), (SYMBOL_PROTO, "Symbol")]
    for name in ("Math", "JSON", "Reflect"):
        namespace = GLOBALS.get(name)
        if isinstance(namespace, dict):
            tables.append((namespace, name))
    for table, tag in tables:
        table[SYMBOL_TO_STRING_TAG] = tag


_register_string_tags()


def _register_unscopables() -> None:
    """Array.prototype[@@unscopables] (23.1.3.38): a null-prototype object of method names."""
    from ..values import JSObject
    from .registry import ARRAY_PROTO
    from .symbol import WELL_KNOWN

    names = ("at", "copyWithin", "entries", "fill", "find", "findIndex", "findLast", "findLastIndex",
             "flat", "flatMap", "includes", "keys", "toReversed", "toSorted", "toSpliced", "values")
    table: dict[Any, Any] = ARRAY_PROTO
    table[WELL_KNOWN["unscopables"]] = JSObject(None, {n: True for n in names})


_register_unscopables()
