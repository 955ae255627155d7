"""The Object constructor and its statics (ECMA-262 20.1.1, 20.1.2).

Deviations forced by the value model (documented in the README): primitives are not boxed
(``Object("a")`` is ``"a"``); ``defineProperty`` supports data descriptors, but every property
stays enumerable and writable unless the whole object is frozen, and accessor descriptors are
a TypeError; ``seal`` and ``preventExtensions`` are recorded (``isSealed``/``isExtensible``
answer) but do not block writes.
"""

from __future__ import annotations

from typing import Any

from ..convert import same_value, string_keys, to_property_key
from ..realm import PATCHED_REALMS
from ..well_known import SYMBOL_ITERATOR
from ..values import UNDEFINED, JSFunction, JSObject, JSSymbol, type_error
from ..properties import is_extensible, meta_of
from .array_support import describe, members, require_callable
from .descriptors import define_or_throw, from_property_descriptor, own_descriptor, to_property_descriptor
from .object_proto import (
    has_own,
    is_object,
    own_property_names,
    own_property_symbols,
    prototype_of,
    to_object,
)
from .registry import GLOBALS, method, native
from .wrappers import wrap_primitive

__all__ = ["object_keys", "object_values", "object_entries", "object_assign", "object_from_entries"]

_STATICS: dict[str, JSFunction] = {}


def object_ctor(this: Any, value: Any = UNDEFINED, *_: Any) -> Any:
    """Object ( [ value ] ) (20.1.1.1): a new object for null/undefined, else ToObject."""
    if value is None or value is UNDEFINED:
        return {}
    return wrap_primitive(value)


# --- keys / values / entries ------------------------------------------------------------------

def _own_values(o: Any, keys: list[str]) -> list[Any]:
    if type(o) is dict and meta_of(o) is None:
        return [o[k] for k in keys]
    if isinstance(o, list):
        return list(o)
    get = members().get_member
    return [get(o, k) for k in keys]


@method(_STATICS, "keys", 1)
def object_keys(this: Any, o: Any = UNDEFINED, *_: Any) -> list[str]:
    """Object.keys (20.1.2.18)."""
    if type(o) is dict and not PATCHED_REALMS[0]:  # a plain object: only its own keys (no side table)
        return string_keys(o)
    return members().own_keys(to_object(o))  # type: ignore[no-any-return]


@method(_STATICS, "values", 1)
def object_values(this: Any, o: Any = UNDEFINED, *_: Any) -> list[Any]:
    """Object.values (20.1.2.23)."""
    if type(o) is dict and not PATCHED_REALMS[0]:  # a plain object: its own keys, data properties only
        return [o[k] for k in string_keys(o)]
    o = to_object(o)
    return _own_values(o, members().own_keys(o))


@method(_STATICS, "entries", 1)
def object_entries(this: Any, o: Any = UNDEFINED, *_: Any) -> list[list[Any]]:
    """Object.entries (20.1.2.5)."""
    if type(o) is dict and not PATCHED_REALMS[0]:
        return [[k, o[k]] for k in string_keys(o)]
    o = to_object(o)
    keys = members().own_keys(o)
    return [[k, v] for k, v in zip(keys, _own_values(o, keys))]


@method(_STATICS, "assign", 2)
def object_assign(this: Any, target: Any = UNDEFINED, *sources: Any) -> Any:
    """Object.assign (20.1.2.1): enumerable own props of each source, strict [[Set]]."""
    primitive = to_object(target)
    to = wrap_primitive(primitive)
    m = members()
    for src in sources:
        if src is None or src is UNDEFINED:
            continue
        for k in m.own_keys(src):
            v = m.get_member(src, k)
            if type(primitive) is str and (k == "length" or (k.isdigit() and int(k) < len(primitive))):
                # a String object's indexes and length are read-only (10.4.3): Object.assign('ab', 'x')
                raise type_error(f"Cannot assign to read only property '{k}' of object '[object String]'")
            m.set_member(to, k, v, True)
    return to


def _entry_pair(entry: Any) -> tuple[Any, Any]:
    """Key and value of one fromEntries/Map entry (AddEntriesFromIterable 24.1.1.2)."""
    if type(entry) is list and not members().PATCHED_REALMS[0]:  # no accessor or hole can be there
        return (entry[0] if entry else UNDEFINED), (entry[1] if len(entry) > 1 else UNDEFINED)
    if not is_object(entry):
        shown = repr(entry) if type(entry) is JSSymbol else describe(entry)
        raise type_error(f"Iterator value {shown} is not an entry object")
    get = members().get_member
    return get(entry, "0"), get(entry, "1")


@method(_STATICS, "fromEntries", 1)
def object_from_entries(this: Any, iterable: Any = UNDEFINED, *_: Any) -> dict[str, Any]:
    """Object.fromEntries (20.1.2.7)."""
    if type(iterable) is list and not PATCHED_REALMS[0]:
        # unpatched, an array's iterator is the built-in one and nothing runs while its pairs
        # of a str key and a value are read: the loop stops at the first other entry and the
        # general path below starts again (it has seen nothing yet that could run a script)
        fast: dict[str, Any] = {}
        for entry in iterable:
            if type(entry) is not list or len(entry) < 2 or type(k := entry[0]) is not str:
                break
            fast[k] = entry[1]
        else:
            return fast
    if iterable is None or iterable is UNDEFINED:
        raise type_error("undefined is not iterable")
    m = members()
    if type(iterable) in (int, float, bool) or (
            isinstance(iterable, dict) and m.get_member(iterable, SYMBOL_ITERATOR) in (UNDEFINED, None)):
        kind = "object" if isinstance(iterable, dict) else f"{type_name(iterable)} {describe(iterable)}"
        raise type_error(f"{kind} is not iterable (cannot read property Symbol(Symbol.iterator))")
    out: dict[str, Any] = {}
    source = m.js_iterate(iterable)
    try:
        for entry in source:
            if type(entry) is list and len(entry) >= 2 and not PATCHED_REALMS[0]:
                k, v = entry[0], entry[1]  # (no accessor or hole can be there: see _entry_pair)
            else:
                k, v = _entry_pair(entry)
            out[k if type(k) is str else to_property_key(k)] = v
    except m.JSThrow:
        m.iter_close(source)  # IfAbruptCloseIterator (7.4.13): return() runs, the error stays
        raise
    return out


def type_name(v: Any) -> str:
    """``typeof`` of a primitive, as V8 prefixes it in iteration messages."""
    from ..convert import typeof

    return typeof(v)


# --- integrity levels -------------------------------------------------------------------------

@method(_STATICS, "freeze", 1)
def object_freeze(this: Any, o: Any = UNDEFINED, *_: Any) -> Any:
    """Object.freeze (20.1.2.6)."""
    return members().set_integrity(o, frozen=True)


@method(_STATICS, "isFrozen", 1)
def object_is_frozen(this: Any, o: Any = UNDEFINED, *_: Any) -> bool:
    """Object.isFrozen (20.1.2.15)."""
    return bool(members().test_integrity(o, frozen=True))


@method(_STATICS, "seal", 1)
def object_seal(this: Any, o: Any = UNDEFINED, *_: Any) -> Any:
    """Object.seal (20.1.2.22)."""
    return members().set_integrity(o, frozen=False)


@method(_STATICS, "isSealed", 1)
def object_is_sealed(this: Any, o: Any = UNDEFINED, *_: Any) -> bool:
    """Object.isSealed (20.1.2.16)."""
    return bool(members().test_integrity(o, frozen=False))


@method(_STATICS, "preventExtensions", 1)
def object_prevent_extensions(this: Any, o: Any = UNDEFINED, *_: Any) -> Any:
    """Object.preventExtensions (20.1.2.20)."""
    members().prevent_extensions(o)
    return o


@method(_STATICS, "isExtensible", 1)
def object_is_extensible(this: Any, o: Any = UNDEFINED, *_: Any) -> bool:
    """Object.isExtensible (20.1.2.14)."""
    return is_object(o) and is_extensible(o)


# --- own properties ---------------------------------------------------------------------------

@method(_STATICS, "hasOwn", 2)
def object_has_own(this: Any, o: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> bool:
    """Object.hasOwn (20.1.2.13)."""
    o = to_object(o)
    return has_own(o, to_property_key(key))


@method(_STATICS, "getOwnPropertyNames", 1)
def object_get_own_property_names(this: Any, o: Any = UNDEFINED, *_: Any) -> list[str]:
    """Object.getOwnPropertyNames (20.1.2.10)."""
    return own_property_names(to_object(o))


@method(_STATICS, "getOwnPropertySymbols", 1)
def object_get_own_property_symbols(this: Any, o: Any = UNDEFINED, *_: Any) -> list[Any]:
    """Object.getOwnPropertySymbols (20.1.2.11)."""
    o = to_object(o)
    return own_property_symbols(o)


@method(_STATICS, "getOwnPropertyDescriptor", 2)
def object_get_own_property_descriptor(this: Any, o: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> Any:
    """Object.getOwnPropertyDescriptor (20.1.2.8)."""
    o = to_object(o)
    return from_property_descriptor(own_descriptor(o, to_property_key(key)))


@method(_STATICS, "getOwnPropertyDescriptors", 1)
def object_get_own_property_descriptors(this: Any, o: Any = UNDEFINED, *_: Any) -> dict[str, Any]:
    """Object.getOwnPropertyDescriptors (20.1.2.9)."""
    o = to_object(o)
    keys: list[Any] = own_property_names(o)
    keys += own_property_symbols(o)
    return {k: from_property_descriptor(own_descriptor(o, k)) for k in keys}


@method(_STATICS, "defineProperty", 3)
def object_define_property(this: Any, o: Any = UNDEFINED, key: Any = UNDEFINED, desc: Any = UNDEFINED, *_: Any) -> Any:
    """Object.defineProperty (20.1.2.4)."""
    if not is_object(o):
        raise type_error("Object.defineProperty called on non-object")
    k = to_property_key(key)
    define_or_throw(o, k, to_property_descriptor(desc))
    return o


@method(_STATICS, "defineProperties", 2)
def object_define_properties(this: Any, o: Any = UNDEFINED, props: Any = UNDEFINED, *_: Any) -> Any:
    """Object.defineProperties (20.1.2.3): every descriptor is read before any is applied."""
    if not is_object(o):
        raise type_error("Object.defineProperties called on non-object")
    props = to_object(props)
    m = members()
    pending = [(k, to_property_descriptor(m.get_member(props, k))) for k in m.own_keys(props)]
    for k, d in pending:
        define_or_throw(o, k, d)
    return o


# --- prototypes -------------------------------------------------------------------------------

def _check_proto(proto: Any) -> None:
    if proto is not None and not is_object(proto):
        shown = repr(proto) if type(proto) is JSSymbol else describe(proto)
        raise type_error(f"Object prototype may only be an Object or null: {shown}")


@method(_STATICS, "create", 2)
def object_create(this: Any, proto: Any = UNDEFINED, props: Any = UNDEFINED, *_: Any) -> Any:
    """Object.create (20.1.2.2): a JSObject, or a plain dict for Object.prototype."""
    _check_proto(proto)
    m = members()
    obj: Any = {} if proto is m.PROTOTYPES.get("Object") else JSObject(proto)
    if props is not UNDEFINED:
        object_define_properties(UNDEFINED, obj, props)
    return obj


@method(_STATICS, "getPrototypeOf", 1)
def object_get_prototype_of(this: Any, o: Any = UNDEFINED, *_: Any) -> Any:
    """Object.getPrototypeOf (20.1.2.12)."""
    return prototype_of(to_object(o))


@method(_STATICS, "setPrototypeOf", 2)
def object_set_prototype_of(this: Any, o: Any = UNDEFINED, proto: Any = UNDEFINED, *_: Any) -> Any:
    """Object.setPrototypeOf (20.1.2.21)."""
    if o is None or o is UNDEFINED:
        raise type_error("Object.setPrototypeOf called on null or undefined")
    _check_proto(proto)
    if is_object(o):
        members().set_prototype(o, proto)
    return o


@method(_STATICS, "is", 2)
def object_is(this: Any, a: Any = UNDEFINED, b: Any = UNDEFINED, *_: Any) -> bool:
    """Object.is (20.1.2.17): SameValue."""
    return same_value(a, b)


def object_group_by(this: Any, items: Any = UNDEFINED, fn: Any = UNDEFINED, *_: Any) -> JSObject:
    """Object.groupBy (20.1.2.12 in ES2024): a null-prototype object of arrays."""
    if items is None or items is UNDEFINED:
        raise type_error("Cannot convert undefined or null to object")
    require_callable(fn)
    out = JSObject(None)
    for k, v in enumerate(members().js_iterate(items)):
        key = to_property_key(fn.call(UNDEFINED, v, k))
        out.setdefault(key, []).append(v)
    return out


#: ES2024 statics absent from node 20, the oracle: registered only when enabled.
ES2024_STATICS = {"groupBy": native(object_group_by, "groupBy", 2)}

GLOBALS["Object"] = native(
    object_ctor,
    "Object",
    1,
    construct=lambda *args: object_ctor(UNDEFINED, *args),
    props=_STATICS,
)
