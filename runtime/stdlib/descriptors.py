"""Property descriptors: ToPropertyDescriptor, FromPropertyDescriptor and
ValidateAndApplyPropertyDescriptor (ECMA-262 6.2.6, 10.1.6.3), over every value kind.

Attributes and accessors that differ from a kind's defaults live in the evaluation's side
table (``runtime/properties.py``); data values stay where the fast paths read them (the dict,
the list, a function's props, the realm overlay of a shared built-in).
"""

from __future__ import annotations

from typing import Any

from ..convert import is_array_index, same_value, to_boolean
from ..properties import (
    ALL, C, E, W, Accessor, default_flags, ensure_meta, flags_of, is_extensible, mark_holes, meta_of, note_accessor,
)
from ..realm import current_realm
from ..values import MISSING, UNDEFINED, JSErrorObject, JSFunction, JSObject, JSSymbol, type_error
from .array_support import describe, members
from .object_proto import has_own, is_object

__all__ = ["to_property_descriptor", "from_property_descriptor", "own_descriptor", "define_own_property",
           "define_or_throw"]

_FIELDS = ("enumerable", "configurable", "value", "writable", "get", "set")


def _shown(v: Any) -> str:
    return repr(v) if type(v) is JSSymbol else describe(v)


def to_property_descriptor(obj: Any) -> dict[str, Any]:
    """ToPropertyDescriptor (6.2.6.5): the fields present, read in the spec's order."""
    if not is_object(obj):
        raise type_error(f"Property description must be an object: {_shown(obj)}")
    m = members()
    d: dict[str, Any] = {}
    for field in _FIELDS:
        if m.has_property(obj, field):
            v = m.get_member(obj, field)
            if field in ("get", "set"):
                if v is not UNDEFINED and type(v) is not JSFunction:
                    raise type_error(f"{'Getter' if field == 'get' else 'Setter'} must be a function: {_shown(v)}")
            elif field != "value":
                v = to_boolean(v)
            d[field] = v
    if ("get" in d or "set" in d) and ("value" in d or "writable" in d):
        raise type_error("Invalid property descriptor. Cannot both specify accessors and a value or writable attribute")
    return d


def from_property_descriptor(d: dict[str, Any] | None) -> Any:
    """FromPropertyDescriptor (6.2.6.4): a plain object, or undefined."""
    if d is None:
        return UNDEFINED
    order = ("get", "set") if "get" in d else ("value", "writable")
    return {k: d[k] for k in order + ("enumerable", "configurable")}


def own_descriptor(o: Any, key: Any) -> dict[str, Any] | None:
    """[[GetOwnProperty]] (10.1.5) as a complete descriptor, or None."""
    if not has_own(o, key):
        return None
    v = members()._get_own(o, key)
    f = flags_of(o, key)
    if isinstance(o, list) and type(o) is not list and key == "length" and not hasattr(type(o), "js_defined"):
        m = meta_of(o)  # a match array's length: writable unless frozen (a template strings array)
        f = m.flags.get("length", W) if m is not None else W
    if type(v) is Accessor:
        return {"get": v.get, "set": v.set, "enumerable": bool(f & E), "configurable": bool(f & C)}
    if v is MISSING:  # answered by has_own from a slot (an error's message...)
        v = members().get_member(o, key)
    return {"value": v, "writable": bool(f & W), "enumerable": bool(f & E), "configurable": bool(f & C)}


def _is_accessor(d: dict[str, Any]) -> bool:
    return "get" in d or "set" in d


def _is_data(d: dict[str, Any]) -> bool:
    return "value" in d or "writable" in d


def define_own_property(o: Any, key: Any, desc: dict[str, Any]) -> bool:
    """[[DefineOwnProperty]]: ValidateAndApplyPropertyDescriptor (10.1.6.3) for an
    extensible-or-not ``o``, then an arguments object's own step (10.4.4.2)."""
    done = _validate_and_apply(o, key, desc)
    if done:
        after = getattr(type(o), "js_defined", None)
        if after is not None:
            after(o, key, desc)
    return done


def _validate_and_apply(o: Any, key: Any, desc: dict[str, Any]) -> bool:
    if type(o) is list and key == "length" and "value" in desc \
            and not (type(desc["value"]) is int and 0 <= desc["value"] <= 4294967295):
        desc = {**desc, "value": _coerce_length(desc["value"])}  # before the checks (10.4.2.4 steps 3-5)
    current = own_descriptor(o, key)
    if current is None:
        if not is_extensible(o) or (type(o) is list and type(key) is str and is_array_index(key)
                                      and not _length_writable(o, key)):
            return False
        f = (E if desc.get("enumerable") else 0) | (C if desc.get("configurable") else 0)
        if _is_accessor(desc):
            _store_accessor(o, key, desc.get("get", UNDEFINED), desc.get("set", UNDEFINED))
        else:
            f |= W if desc.get("writable") else 0
            _store_value(o, key, desc.get("value", UNDEFINED))
        _store_flags(o, key, f)
        return True
    if not current["configurable"]:
        if desc.get("configurable"):
            return False
        if "enumerable" in desc and desc["enumerable"] != current["enumerable"]:
            return False
        if (_is_accessor(desc) or _is_data(desc)) and _is_accessor(desc) != _is_accessor(current):
            return False
        if _is_accessor(current):
            if "get" in desc and desc["get"] is not current["get"]:
                return False
            if "set" in desc and desc["set"] is not current["set"]:
                return False
        elif not current["writable"]:
            if desc.get("writable"):
                return False
            if "value" in desc and not same_value(desc["value"], current["value"]):
                return False
            return True
    f = (E if desc.get("enumerable", current["enumerable"]) else 0) | \
        (C if desc.get("configurable", current["configurable"]) else 0)
    if _is_accessor(desc) or (not _is_data(desc) and _is_accessor(current)):
        if _is_accessor(current):
            getter = desc.get("get", current["get"])
            setter = desc.get("set", current["set"])
        else:
            getter, setter = desc.get("get", UNDEFINED), desc.get("set", UNDEFINED)
        _store_accessor(o, key, getter, setter)
    else:
        writable = desc.get("writable", current.get("writable", False))
        f |= W if writable else 0
        if type(o) is list and key == "length":
            if "value" in desc:
                if not _set_array_length(o, desc["value"]):
                    _store_flags(o, key, f)
                    return False
        elif _is_accessor(current) or "value" in desc:
            _store_value(o, key, desc.get("value", current.get("value", UNDEFINED)))
    _store_flags(o, key, f)
    return True


def define_or_throw(o: Any, key: Any, desc: dict[str, Any]) -> None:
    """DefinePropertyOrThrow (7.3.8): V8's message on refusal."""
    if not define_own_property(o, key, desc):
        if not has_own(o, key):
            raise type_error(f"Cannot define property {_key_text(key)}, object is not extensible")
        raise type_error(f"Cannot redefine property: {_key_text(key)}")


def _key_text(key: Any) -> str:
    return repr(key) if type(key) is JSSymbol else str(key)


def _length_writable(o: list[Any], key: str) -> bool:
    return int(key) < len(o) or bool(flags_of(o, "length") & W)


def _coerce_length(value: Any) -> int:
    """ArraySetLength steps 3-5: ToUint32, then ToNumber (each may run the value's valueOf),
    a RangeError unless they agree."""
    from ..convert import to_number, to_uint32

    n = to_uint32(value)
    if n != to_number(value):
        raise members().JSThrow(members().make_error("RangeError", "Invalid array length"))
    return n


def _set_array_length(o: list[Any], value: Any) -> bool:
    """ArraySetLength (10.4.2.4): False when a non-configurable element stopped the shrink."""
    from ..convert import to_number, to_uint32

    n = to_uint32(value)
    if n != to_number(value):
        raise members().JSThrow(members().make_error("RangeError", "Invalid array length"))
    if n != len(o) and not flags_of(o, "length") & W:
        return False
    members()._set_length(o, n)
    return len(o) == n


def _store_value(o: Any, key: Any, value: Any) -> None:
    """Write a data value where the object keeps it, bypassing [[Set]] (no setters, no checks)."""
    m = meta_of(o)
    if m is not None and m.accessors.pop(key, None) is not None:
        pass
    t = type(o)
    if t is dict or t is JSObject:
        dict.__setitem__(o, key, value)
        return
    if t is list:
        if type(key) is str and is_array_index(key):
            i = int(key)
            if i < len(o):
                o[i] = value
                if m is not None and m.holes:
                    m.holes.discard(i)
            else:
                current_realm().check_array(i + 1)
                start = len(o)
                o.extend([UNDEFINED] * (i - len(o)))
                o.append(value)
                mark_holes(o, start, i)
            return
        meta = ensure_meta(o)
        if meta.named is None:
            meta.named = {}
        meta.named[key] = value
        return
    if t is JSErrorObject:
        if key == "message":
            o.message = value
        dict.__setitem__(o, key, value)
        return
    if t is JSFunction and not o.builtin:
        if o.props is None:
            o.props = {}
        o.props[key] = value
        return
    mm = members()
    if t is JSFunction or t is mm.BuiltinNamespace or t is mm.BuiltinProto:
        mm._overlay()[(id(o), key)] = value
        return
    set_own = getattr(t, "js_define_own", None) or getattr(t, "js_set_own", None)
    if set_own is not None:
        set_own(o, key, value)


def _store_accessor(o: Any, key: Any, getter: Any, setter: Any) -> None:
    meta = ensure_meta(o)
    t = type(o)
    if t is list and type(key) is str and is_array_index(key) and int(key) >= len(o):
        # an accessor element past the end still grows the array (10.4.2.1 step 3.k); the slot
        # and the indexes before it read as holes, the accessor (which wins) is the element
        i = int(key)
        current_realm().check_array(i + 1)
        start = len(o)
        o.extend([UNDEFINED] * (i + 1 - len(o)))
        mark_holes(o, start)
    note_accessor(meta, o if isinstance(o, dict) else (meta.named or {}), key)
    if t is dict or t is JSObject or t is JSErrorObject:
        o.pop(key, None)
    elif meta.named is not None:
        meta.named.pop(key, None)
    if t is JSFunction and o.props and not o.builtin:
        o.props.pop(key, None)
    meta.accessors[key] = Accessor(getter, setter)


def _store_flags(o: Any, key: Any, f: int) -> None:
    m = meta_of(o)
    if f == default_flags(o, key) and (m is None or key not in m.accessors or f == ALL):
        if m is not None:
            m.flags.pop(key, None)
        return
    ensure_meta(o).flags[key] = f
