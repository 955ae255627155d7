"""Property access: the only door from a script to any value (ECMA-262 10.1, 13.3.2).

Every read, write, delete, ``in`` test and method call a script makes comes here. Dispatch
is by JS type (``type(obj)``) and JS property name, through the registry tables: no Python
attribute of a user value is ever reached by name, so ``value.__class__`` is just a missing
property. Built-in prototypes are shared between evaluations; writes to them go to the
realm's overlay (``realm.overlay``), which dies with the evaluation.
"""

from __future__ import annotations

import sys
from typing import Any, Iterator, cast

from . import convert
from .convert import is_array_index, ordered_keys, to_property_key
from .describe import describe
from .realm import PATCHED_REALMS, current_realm
from .stdlib import registry as reg
from .strings import js_len, to_units, from_units
from .well_known import SYMBOL_ITERATOR
from .values import (
    MISSING,
    UNDEFINED,
    JSErrorObject,
    JSFunction,
    JSIterator,
    JSObject,
    JSSymbol,
    JSThrow,
    make_error,
    type_error,
)
from .stdlib.registry import BuiltinNamespace
from .subclasses import STR as FOREIGN_STR, foreign, plain_value
from .properties import (
    BUILTIN_ACCESSOR_KEYS, BUILTIN_ACCESSORS, C, E, W, Accessor, Holes, ensure_meta, flags_of, is_hole, mark_holes,
    meta_of, ordered_own,
)

__all__ = [
    "BuiltinProto",
    "PROTOTYPES",
    "get_member",
    "set_member",
    "delete_member",
    "has_property",
    "call_method",
    "own_keys",
    "js_iterate",
    "freeze",
    "is_frozen",
    "get_prototype",
    "set_prototype",
    "call_function",
    "describe_key",
]


class BuiltinProto:
    """A shared built-in prototype object (``Array.prototype``...) seen from JS.

    Its properties are the registry table's methods plus ``constructor``; its own parent
    is ``parent`` (``Object.prototype`` for all but itself). Writes go to the realm overlay.
    """

    JS_CLASS = "Object"
    JS_PROTO: dict[str, JSFunction] = {}

    __slots__ = ("tag", "table", "parent")

    def __init__(self, tag: str, table: dict[str, JSFunction], parent: "BuiltinProto | None") -> None:
        self.tag = tag
        # keyed by name, and by the well-known symbols the stdlib adds (Array's Symbol.iterator)
        self.table: dict[Any, JSFunction] = table
        self.parent = parent

    def __repr__(self) -> str:
        return f"{self.tag}.prototype"

    def lookup(self, key: Any) -> Any:
        """[[Get]] on this prototype alone (overlay first, then the table, then constructor)."""
        overlay = current_realm().overlay if PATCHED_REALMS[0] else None
        if overlay is not None:
            v = overlay.get((id(self), key), MISSING)
            if v is not MISSING:
                return MISSING if v is _DELETED else v
        v = self.table.get(key, MISSING) if type(key) is str or type(key) is JSSymbol else MISSING
        if v is MISSING and key == "constructor":
            return reg.GLOBALS.get(self.tag, MISSING)
        if v is MISSING and key == "length" and (self.tag == "Array" or self.tag == "String"):
            return 0  # Array.prototype is an array, String.prototype a String of ""
        if v is MISSING and BUILTIN_ACCESSORS:  # RegExp.prototype.global, Map.prototype.size...
            return BUILTIN_ACCESSORS.get((self.tag, key), MISSING)
        return v

    def js_get_own(self, key: Any) -> Any:
        return self.lookup(key)

    def js_set_own(self, key: Any, value: Any) -> bool:
        if key == "__proto__":
            if self.tag == "Object" and value is not None:  # an immutable prototype exotic object (10.4.7)
                raise type_error("Immutable prototype object 'Object.prototype' cannot have their prototype set")
            return True
        _overlay()[(id(self), key)] = value
        return True

    def js_own_keys(self) -> list[str]:
        """The enumerable own keys: only properties a script added (built-ins are not)."""
        overlay = current_realm().overlay or {}
        return [k[1] for k, v in overlay.items() if k[0] == id(self) and type(k[1]) is str and v is not _DELETED]


#: the primitive a wrapper prototype stands for (String.prototype is a String object for "",
#: 22.1.3; Number.prototype for 0, 21.1.3; Boolean.prototype for false, 20.3.3)
WRAPPER_VALUES: dict[str, Any] = {"String": "", "Number": 0, "Boolean": False, "Array": None}
#: Function.prototype is itself a function that accepts anything and returns undefined (20.2.3)
FUNCTION_PROTOTYPE_VALUE = reg.native(lambda this, *_: UNDEFINED, "", 0)

OBJECT_PROTOTYPE = BuiltinProto("Object", reg.OBJECT_PROTO, None)
_OBJECT_TABLE: dict[Any, JSFunction] = OBJECT_PROTOTYPE.table
PROTOTYPES: dict[str, BuiltinProto] = {"Object": OBJECT_PROTOTYPE}
for _tag, _table in (
    ("Array", reg.ARRAY_PROTO), ("String", reg.STRING_PROTO), ("Number", reg.NUMBER_PROTO),
    ("Boolean", reg.BOOLEAN_PROTO), ("Symbol", reg.SYMBOL_PROTO), ("Function", reg.FUNCTION_PROTO),
    ("Error", reg.ERROR_PROTO), ("Iterator", reg.ITERATOR_PROTO),
):
    PROTOTYPES[_tag] = BuiltinProto(_tag, _table, OBJECT_PROTOTYPE)

_ERROR_NAMES = ("EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError", "AggregateError")
# Error.prototype and each NativeError prototype own a `name` and an empty `message` (20.5.3.2-3,
# 20.5.6.3.2-3), so a script that renames Error.prototype.name still sees "TypeError" on a TypeError
cast(dict[str, Any], reg.ERROR_PROTO).update(name="Error", message="")
for _tag in _ERROR_NAMES:
    PROTOTYPES[_tag] = BuiltinProto(_tag, cast(dict[str, JSFunction], {"name": _tag, "message": ""}), PROTOTYPES["Error"])


def _overlay() -> dict[Any, Any]:
    realm = current_realm()
    if realm.overlay is None:
        realm.overlay = {}
        realm.patched()
    return realm.overlay


def describe_key(key: Any) -> str:
    """How V8 names a key in messages: ``'x'`` for strings, ``Symbol(x)`` for symbols."""
    if type(key) is JSSymbol:
        return repr(key)
    return f"'{convert.to_string(key)}'" if type(key) is str else f"'{convert.to_string(key)}'"


# --- [[GetPrototypeOf]] -----------------------------------------------------------------------

def _special_proto(obj: Any) -> Any:
    table = getattr(type(obj), "JS_PROTO", None)  # class attribute of our own classes only
    return table


def get_prototype(obj: Any) -> Any:
    """Object.getPrototypeOf (20.1.2.12) for every value kind; ``None`` is null."""
    t = type(obj)
    if t is dict or t is BuiltinNamespace:
        return OBJECT_PROTOTYPE
    if t is JSObject:
        return obj.proto
    if t is list:
        return _realm_proto(obj, PROTOTYPES["Array"]) if PATCHED_REALMS[0] else PROTOTYPES["Array"]
    if t is str:
        return PROTOTYPES["String"]
    if t is int or t is float:
        return PROTOTYPES["Number"]
    if t is bool:
        return PROTOTYPES["Boolean"]
    if t is JSFunction:
        parent = reg.FUNCTION_PARENTS.get(id(obj), PROTOTYPES["Function"]) if obj.builtin else PROTOTYPES["Function"]
        return _realm_proto(obj, parent) if PATCHED_REALMS[0] else parent
    if t is JSSymbol:
        return PROTOTYPES["Symbol"]
    if t is JSErrorObject:
        if obj.proto is not None:
            return obj.proto
        return PROTOTYPES.get(obj.error_name, PROTOTYPES["Error"])
    if t is BuiltinProto:
        return obj.parent
    if obj is None or obj is UNDEFINED:
        raise type_error("Cannot convert undefined or null to object")
    if t is JSIterator:
        return PROTOTYPES["Iterator"]
    if foreign(t):  # caller data of a subclass: its base type's prototype
        return get_prototype(plain_value(obj))
    default = OBJECT_PROTOTYPE if getattr(t, "JS_CLASS", None) == "Arguments" else _class_proto(obj)
    return _realm_proto(obj, default) if PATCHED_REALMS[0] else default


_CLASS_PROTOS: dict[type, BuiltinProto] = {}


def _class_proto(obj: Any) -> BuiltinProto:
    """A BuiltinProto for a stdlib special class (Map, Set, RegExp, Date...)."""
    cls = type(obj)
    proto = _CLASS_PROTOS.get(cls)
    if proto is None:
        table = getattr(cls, "JS_PROTO", None) or {}
        tag = getattr(cls, "JS_CLASS", "Object")
        proto = PROTOTYPES.get(tag)
        if proto is None or proto.table is not table:
            proto = BuiltinProto(tag, table, OBJECT_PROTOTYPE)
            PROTOTYPES.setdefault(tag, proto)
        _CLASS_PROTOS[cls] = proto
    return proto


def set_prototype(obj: Any, proto: Any) -> None:
    """Object.setPrototypeOf / ``__proto__`` writes (20.1.2.21).

    A plain dict cannot carry a prototype without changing identity, so its new prototype
    lives in the realm (keyed by identity); JSObject keeps it in ``.proto``. A cycle, or a new
    prototype for a non-extensible object, is a TypeError (10.1.2.1 OrdinarySetPrototypeOf).
    """
    if not prototype_settable(obj, proto):
        if PATCHED_REALMS[0] and not _extensible(obj):
            raise type_error(f"{_callee_text(obj) if type(obj) is not dict else '#<Object>'} is not extensible")
        raise type_error("Cyclic __proto__ value")
    if type(obj) is JSObject or type(obj) is JSErrorObject:
        obj.proto = proto
        return
    t = type(obj)
    if t is BuiltinProto:
        if obj.tag == "Object" and proto is not None:
            raise type_error("Immutable prototype object 'Object.prototype' cannot have their prototype set")
        return
    if t is dict or t is list or t is JSFunction or (_is_object(obj) and t is not BuiltinNamespace):
        # kept in the realm by identity: a class's constructor (its parent class), an instance
        # of a class extending Array or Map, a plain object given a new prototype
        realm = current_realm()
        realm.patched()
        realm.extra.setdefault("protos", {})[id(obj)] = (obj, proto)
    # other kinds: silently ignored (primitives and built-in namespaces keep theirs)


def _extensible(obj: Any) -> bool:
    m = meta_of(obj)
    return m is None or m.extensible


def prototype_settable(obj: Any, proto: Any) -> bool:
    """OrdinarySetPrototypeOf's checks (10.1.2.1 steps 4-8): same prototype, extensible, no cycle."""
    current = _dict_proto(obj) if type(obj) is dict else get_prototype(obj)
    if current is proto:
        return True
    if PATCHED_REALMS[0] and not _extensible(obj):
        return False
    p = proto
    depth = 0
    while p is not None and depth < 10_000:
        if p is obj:
            return False
        depth += 1
        p = _next_proto(p)
    return True


def _dict_proto(obj: dict[str, Any]) -> Any:
    if not PATCHED_REALMS[0]:
        return OBJECT_PROTOTYPE
    return _realm_proto(obj, OBJECT_PROTOTYPE)


def _realm_proto(obj: Any, default: Any) -> Any:
    """A prototype this evaluation gave ``obj`` (``set_prototype``), else ``default``."""
    protos = current_realm().extra.get("protos")
    if protos:
        entry = protos.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1]
    return default


# --- [[Get]] ----------------------------------------------------------------------------------

def _from_proto(proto: Any, key: Any, receiver: Any) -> Any:
    """Walk a prototype chain for ``key`` (10.1.8.1 OrdinaryGet)."""
    depth = 0
    while proto is not None and depth < 10_000:
        depth += 1
        if type(proto) is BuiltinProto:
            v = proto.lookup(key) if not PATCHED_REALMS[0] else _get_own(proto, key)
            if v is not MISSING:
                return v if type(v) is not Accessor else _call_getter(v, receiver)
            proto = proto.parent
            continue
        v = _get_own(proto, key)
        if v is not MISSING:
            return v if type(v) is not Accessor else _call_getter(v, receiver)
        proto = _dict_proto(proto) if type(proto) is dict else get_prototype(proto)
    return UNDEFINED


def _call_getter(acc: Accessor, receiver: Any) -> Any:
    """[[Get]] of an accessor property (10.1.8.1 step 5): the getter, or undefined."""
    if type(acc.get) is JSFunction:
        return acc.get.call(receiver)
    return UNDEFINED


def _meta_own(obj: Any, key: Any) -> Any:
    """An accessor or an array's named property from the side table, or MISSING."""
    m = meta_of(obj)
    if m is None:
        return MISSING
    if type(key) is int:
        key = str(key)
    if m.accessors:
        a = m.accessors.get(key)
        if a is not None:
            return a
    if m.named is not None:
        return m.named.get(key, MISSING)
    return MISSING


def _get_own(obj: Any, key: Any) -> Any:
    """An own property of ``obj`` or MISSING (no prototype walk); an ``Accessor`` for an
    accessor property."""
    if PATCHED_REALMS[0]:
        v = _meta_own(obj, key)
        if v is not MISSING:
            return v
        if type(obj) is list and (type(key) is int or (type(key) is str and key[:1].isdigit())):
            m = meta_of(obj)
            index = key if type(key) is int else (int(key) if is_array_index(str(key)) else -1)
            if m is not None and m.holes and is_hole(m, obj, index):
                return MISSING
    return _plain_own(obj, key)


def _plain_own(obj: Any, key: Any) -> Any:
    """An own data property stored in the object itself (not in the side table)."""
    t = type(obj)
    if t is dict or t is JSObject or t is BuiltinNamespace:
        if t is BuiltinNamespace and PATCHED_REALMS[0]:
            overlay = current_realm().overlay
            if overlay is not None:
                v = overlay.get((id(obj), key), MISSING)
                if v is not MISSING:
                    return MISSING if v is _DELETED else v
        return obj.get(key, MISSING)
    if t is list:
        return _list_own(obj, key)
    if t is str:
        return _str_own(obj, key)
    if t is JSFunction:
        return _function_own(obj, key)
    if t is JSErrorObject:
        return _error_own(obj, key)
    if t is BuiltinProto:
        return obj.lookup(key)
    if t is int or t is float or t is bool or t is JSSymbol:
        return MISSING  # a symbol's description is an accessor of Symbol.prototype (20.4.3.2)
    get_own = getattr(t, "js_get_own", None)
    if get_own is not None:
        return get_own(obj, key)
    return MISSING


def _list_own(obj: list[Any], key: Any) -> Any:
    if type(key) is int:
        return obj[key] if 0 <= key < len(obj) else MISSING
    if key == "length":
        return len(obj)
    if type(key) is str and key[:1].isdigit() and is_array_index(key):
        i = int(key)
        return obj[i] if i < len(obj) else MISSING
    return MISSING


def _str_own(obj: str, key: Any) -> Any:
    if type(key) is int:
        if obj.isascii():
            return obj[key] if 0 <= key < len(obj) else MISSING
        units = to_units(obj)
        return units[key] if 0 <= key < len(units) else MISSING
    if key == "length":
        return len(obj) if obj.isascii() else js_len(obj)
    if type(key) is str and key[:1].isdigit() and is_array_index(key):
        return _str_own(obj, int(key))
    return MISSING


def _function_own(fn: JSFunction, key: Any) -> Any:
    if fn.builtin and PATCHED_REALMS[0]:
        overlay = current_realm().overlay
        if overlay is not None:
            v = overlay.get((id(fn), key), MISSING)
            if v is not MISSING:
                return MISSING if v is _DELETED else v
    if fn.props is not None:
        v = fn.props.get(key, MISSING)
        if v is not MISSING:
            return v if v is not _DELETED_FN else MISSING
    if key == "name":
        return fn.name
    if key == "length":
        return fn.length
    if fn.builtin and type(key) is JSSymbol and BUILTIN_ACCESSORS:
        return BUILTIN_ACCESSORS.get(("constructor " + fn.name, key), MISSING)
    if key == "prototype":
        if fn.builtin:
            return PROTOTYPES.get(fn.name, MISSING)
        if fn.kind == "function":
            proto = JSObject(OBJECT_PROTOTYPE)
            dict.__setitem__(proto, "constructor", fn)
            fn.props = fn.props or {}
            fn.props["prototype"] = proto
            return proto
    return MISSING


def _error_own(err: JSErrorObject, key: Any) -> Any:
    v = err.get(key, MISSING)
    if v is not MISSING:
        return v
    if key == "message":
        return err.message
    if key == "stack":
        return f"{err.error_name}: {err.message}" if err.message else err.error_name
    return MISSING


_DELETED: Any = object()


def _error_proto_get(err: JSErrorObject, key: Any) -> Any:
    if key == "name":
        if PATCHED_REALMS[0]:  # a prototype's name may have been changed by this script
            return _from_proto(get_prototype(err), key, err)
        return err.error_name
    if key == "message":
        return ""
    return _from_proto(get_prototype(err), key, err)


def get_member(obj: Any, key: Any) -> Any:
    """``obj[key]`` (13.3.2.1): TypeError on null/undefined, V8's message."""
    t = type(obj)
    kt = type(key)
    if kt is not str and kt is not int and kt is not JSSymbol:
        if obj is not None and obj is not UNDEFINED:
            key = to_property_key(key)  # -0 -> "0", 1.5 -> "1.5", ['a'] -> "a", true -> "true"
            kt = type(key)
    if t is dict:
        v = obj.get(key, MISSING)
        if v is not MISSING:
            return v
        if kt is str and not PATCHED_REALMS[0] and key != "constructor" and key != "__proto__":
            # an absent key of a plain object (optional fields): Object.prototype's method or
            # undefined, straight from its table (what OBJECT_PROTOTYPE.lookup answers for it)
            v = _OBJECT_TABLE.get(key, MISSING)
            if v is not MISSING:
                return v
            if ("Object", key) not in BUILTIN_ACCESSORS:
                return UNDEFINED
        if kt is int:
            v = obj.get(str(key), MISSING)
            if v is not MISSING:
                return v
            key = str(key)
        if PATCHED_REALMS[0]:
            v = _meta_own(obj, key)
            if v is not MISSING:
                return v if type(v) is not Accessor else _call_getter(v, obj)
        if key == "__proto__":
            return _dict_proto(obj)
        return _from_proto(_dict_proto(obj), key, obj)
    if t is list:
        if kt is int and not PATCHED_REALMS[0]:
            # unpatched, no array has holes or accessors and no prototype an index key (built-in
            # tables hold names only): past the end, and at a negative int, the answer is undefined
            return obj[key] if 0 <= key < len(obj) else UNDEFINED
        if PATCHED_REALMS[0]:  # the side table may hold an accessor or a hole at this index
            v = _get_own(obj, key)
            if v is not MISSING:
                return v if type(v) is not Accessor else _call_getter(v, obj)
        else:
            v = _list_own(obj, key)
            if v is not MISSING:
                return v
        if PATCHED_REALMS[0]:
            v = _meta_own(obj, key)
            if v is not MISSING:
                return v if type(v) is not Accessor else _call_getter(v, obj)
        proto = _realm_proto(obj, PROTOTYPES["Array"]) if PATCHED_REALMS[0] else PROTOTYPES["Array"]
        if key == "__proto__":
            return proto
        return _from_proto(proto, _norm_key(key), obj)
    if t is str:
        v = _str_own(obj, key)
        if v is not MISSING:
            return v
        if key == "__proto__":
            return PROTOTYPES["String"]
        return _from_proto(PROTOTYPES["String"], _norm_key(key), obj)
    if foreign(t):  # caller data of a dict/list/str/int/float subclass: read as its plain value
        return get_member(plain_value(obj), key)
    if obj is UNDEFINED or obj is None:
        raise type_error(f"Cannot read properties of {'undefined' if obj is UNDEFINED else 'null'} "
                         f"(reading {describe_key(key)})")
    key = _norm_key(key)
    if key == "__proto__":
        return get_prototype(obj)
    if t is JSErrorObject:
        v = _error_own(obj, key) if not PATCHED_REALMS[0] else _get_own(obj, key)
        if type(v) is Accessor:
            return _call_getter(v, obj)
        return v if v is not MISSING else _error_proto_get(obj, key)
    v = _get_own(obj, key)
    if v is not MISSING:
        return v if type(v) is not Accessor else _call_getter(v, obj)
    return _from_proto(get_prototype(obj), key, obj)


def _norm_key(key: Any) -> Any:
    t = type(key)
    if t is str or t is JSSymbol:
        return key
    return to_property_key(key)


# --- [[Set]] / [[Delete]] ---------------------------------------------------------------------

def _refuse_write(obj: Any, key: Any, strict: bool) -> None:
    """A failed [[Set]]: silent in sloppy code, a TypeError in strict code (10.1.9, 6.2.5.6)."""
    if strict:
        shown = describe(obj) if type(obj) is not list else "[object Array]"
        raise type_error(f"Cannot assign to read only property {describe_key(key)} of object '{shown}'")


def _is_own(obj: Any, key: Any) -> bool:
    if type(obj) is dict or type(obj) is JSObject:
        return key in obj
    if type(obj) is list:
        return _get_own(obj, key) is not MISSING and type(_get_own(obj, key)) is not Accessor
    return _plain_own(obj, key) is not MISSING


def _next_proto(obj: Any) -> Any:
    if type(obj) is dict:
        return _dict_proto(obj)
    if type(obj) is BuiltinProto:
        return obj.parent
    return get_prototype(obj)


def _accessor_set(a: Accessor, obj: Any, key: Any, value: Any, strict: bool) -> bool:
    """A write that meets an accessor: its setter runs on ``obj``; without one, the write
    is refused (a TypeError in strict code)."""
    if type(a.set) is JSFunction:
        a.set.call(obj, value)
    else:
        _refuse_write(obj, key, strict)
    return True


def _set_patched(obj: Any, key: Any, value: Any, strict: bool) -> bool:
    """OrdinarySet (10.1.9) where the side table may matter: accessors (own or inherited),
    non-writable properties, non-extensible objects. True when it dealt with the write."""
    m = meta_of(obj)
    skey = str(key) if type(key) is int else key
    if m is not None:
        a = m.accessors.get(skey) if m.accessors else None
        if a is not None:
            return _accessor_set(a, obj, key, value, strict)
        if m.named is not None and skey in m.named:
            if m.flags.get(skey, W) & W:
                m.named[skey] = value
            else:
                _refuse_write(obj, key, strict)
            return True
        if _is_own(obj, key):
            if not flags_of(obj, skey) & W:
                _refuse_write(obj, key, strict)
                return True
            return False
    elif _is_own(obj, key):
        return False
    proto = _next_proto(obj)
    depth = 0
    while proto is not None and depth < 10_000:
        depth += 1
        pm = meta_of(proto)
        if pm is not None:
            a = pm.accessors.get(skey) if pm.accessors else None
            if a is not None:
                return _accessor_set(a, obj, key, value, strict)
            f = pm.flags.get(skey)
            if f is not None and not f & W and _is_own(proto, key):
                _refuse_write(obj, key, strict)
                return True
        if _is_own(proto, key):
            own = _plain_own(proto, key) if type(proto) is BuiltinProto or type(proto) is JSFunction else MISSING
            if type(own) is Accessor:  # an inherited built-in accessor (RegExp.prototype.global)
                return _accessor_set(own, obj, key, value, strict)
            break
        proto = _next_proto(proto)
    if m is not None and not m.extensible:
        if strict:
            raise type_error(f"Cannot add property {_key_text(key)}, object is not extensible")
        return True
    return False


def set_member(obj: Any, key: Any, value: Any, strict: bool = False) -> None:
    """``obj[key] = value`` (13.15.2 / 10.1.9 OrdinarySet); ``strict`` code throws where
    sloppy code drops the write."""
    t = type(obj)
    if t is dict or t is JSObject:
        if type(key) is not str:
            key = _norm_key(key)
        if key == "__proto__":
            if value is None or _is_object(value):
                set_prototype(obj, value)
            return
        if PATCHED_REALMS[0]:
            if _set_patched(obj, key, value, strict):
                return
        elif t is JSObject and key in BUILTIN_ACCESSOR_KEYS and _set_inherited_builtin(obj, key, value, strict):
            return
        obj[key] = value
        return
    if t is list:
        _set_list(obj, key, value, strict)
        return
    if obj is UNDEFINED or obj is None:
        raise type_error(f"Cannot set properties of {'undefined' if obj is UNDEFINED else 'null'} "
                         f"(setting {describe_key(key)})")
    key = _norm_key(key)
    if t is str or t is int or t is float or t is bool or t is JSSymbol:
        if strict:
            raise type_error(f"Cannot create property {describe_key(key)} on {typeof_name(obj)} "
                             f"'{convert.to_string(obj) if t is not JSSymbol else repr(obj)}'")
        return  # sloppy mode: writes to primitives are dropped
    if PATCHED_REALMS[0] and _set_patched(obj, key, value, strict):
        return
    if t is JSFunction or t is BuiltinNamespace or t is BuiltinProto:
        own = _plain_own(obj, key)
        if type(own) is Accessor:  # a built-in accessor (Map[Symbol.species]): no setter
            _accessor_set(own, obj, key, value, strict)
            return
        if own is not MISSING and not flags_of(obj, key) & W:
            _refuse_write(obj, key, strict)  # name, length, built-in prototype, Math.PI...
            return
    if t is JSFunction:
        if (key == "caller" or key == "arguments") and _plain_own(obj, key) is MISSING:
            _accessor_set(BUILTIN_ACCESSORS[("Function", key)], obj, key, value, strict)  # %ThrowTypeError%
            return
        if obj.builtin:
            _overlay()[(id(obj), key)] = value
        else:
            if obj.props is None:
                obj.props = {}
            obj.props[key] = value
        return
    if t is BuiltinNamespace:
        _overlay()[(id(obj), key)] = value
        return
    if t is JSErrorObject:
        if key == "message":
            obj.message = convert.to_string(value) if type(value) is str else value
        obj[key] = value
        return
    if not PATCHED_REALMS[0] and key in BUILTIN_ACCESSOR_KEYS and _set_inherited_builtin(obj, key, value, strict):
        return
    set_own = getattr(t, "js_set_own", None)
    if set_own is not None and set_own(obj, key, value) is False:
        _refuse_write(obj, key, strict)  # a String wrapper's length and indexes


def _set_inherited_builtin(obj: Any, key: Any, value: Any, strict: bool) -> bool:
    """A write meeting an inherited accessor of a built-in prototype (``Map.prototype.size``)
    in an unpatched realm, whose prototype chains hold no script accessors: True when dealt with."""
    if _plain_own(obj, key) is not MISSING:
        return False
    proto = get_prototype(obj)
    depth = 0
    while proto is not None and depth < 10_000:
        depth += 1
        own = _plain_own(proto, key)
        if own is not MISSING:
            return type(own) is Accessor and _accessor_set(own, obj, key, value, strict)
        proto = _next_proto(proto)
    return False


def typeof_name(v: Any) -> str:
    return convert.typeof(v) if hasattr(convert, "typeof") else "object"


def _set_list(obj: list[Any], key: Any, value: Any, strict: bool = False) -> None:
    if type(key) is not int:
        key = _norm_key(key)
        if key == "length":
            if (PATCHED_REALMS[0] and not flags_of(obj, "length") & W) or not _set_length(obj, value):
                _refuse_write(obj, key, strict)  # even with the same value (10.1.9.2 step 2.a)
            return
        if not (type(key) is str and is_array_index(key)):
            if PATCHED_REALMS[0] and _set_patched(obj, key, value, strict):
                return
            m = ensure_meta(obj)  # an array with named properties: kept in the side table
            if m.named is None:
                m.named = {}
            m.named[key] = value
            return
        key = int(key)
    if PATCHED_REALMS[0]:
        if _set_patched(obj, key, value, strict):
            return
        hm = meta_of(obj)
        if hm is not None and hm.holes:
            hm.holes.discard(key)
    n = len(obj)
    if 0 <= key < n:
        obj[key] = value
    elif key >= n:
        if key >= 4294967295:  # not an array index (6.1.7): a named property, length unchanged
            _set_list(obj, str(key), value, strict)
            return
        if PATCHED_REALMS[0] and not flags_of(obj, "length") & W:
            _refuse_write(obj, key, strict)
            return
        current_realm().check_array(key + 1)
        if key > n:
            obj.extend([UNDEFINED] * (key - n))
            obj.append(value)
            mark_holes(obj, n, key)  # the indexes skipped over are holes
        else:
            obj.append(value)


def _set_length(obj: list[Any], value: Any) -> bool:
    """ArraySetLength (10.4.2.4) for a write: False when the length turned out read-only (a
    conversion of ``value`` may have frozen it: ToUint32 and ToNumber each convert it)."""
    if type(value) is int:
        n = value
    else:
        n = convert.to_uint32(value)
        if convert.to_number(value) != n:
            n = -1
        elif PATCHED_REALMS[0] and not flags_of(obj, "length") & W:
            return False
    if type(n) is not int or n < 0 or n > 4294967295:
        raise JSThrow(make_error("RangeError", "Invalid array length"))
    if n < len(obj):
        m = meta_of(obj) if PATCHED_REALMS[0] else None
        if m is not None and m.flags:
            for i in range(len(obj) - 1, n - 1, -1):  # stop at a non-configurable element (10.4.2.4)
                if not m.flags.get(str(i), C) & C:
                    del obj[i + 1:]
                    return False
        del obj[n:]
    elif n > len(obj):
        current_realm().check_array(n)
        start = len(obj)
        obj.extend([UNDEFINED] * (n - start))
        mark_holes(obj, start)  # a longer length adds no elements (10.4.2.4)
    return True


def _refuse_delete(key: Any, obj: Any, strict: bool) -> bool:
    if strict:
        shown = "[object Array]" if isinstance(obj, list) else _callee_text(obj)  # V8's words
        raise type_error(f"Cannot delete property {describe_key(key)} of {shown}")
    return False


def delete_member(obj: Any, key: Any, strict: bool = False) -> bool:
    """The ``delete`` operator (13.5.1.2); sloppy mode: false instead of TypeError."""
    t = type(obj)
    if obj is UNDEFINED or obj is None:
        raise type_error("Cannot convert undefined or null to object")
    key = _norm_key(key)
    m = meta_of(obj) if PATCHED_REALMS[0] else None
    if m is not None:
        skey = key
        if skey in m.accessors or (m.named is not None and skey in m.named) or _is_own(obj, key):
            if not flags_of(obj, skey) & C:
                return _refuse_delete(key, obj, strict)
            m.flags.pop(skey, None)
            if m.order is not None and skey in m.order:
                m.order.remove(skey)
            if m.accessors.pop(skey, None) is not None:
                if t is list and type(skey) is str and is_array_index(skey) and int(skey) < len(obj):
                    i = int(skey)
                    obj[i] = UNDEFINED  # the element was the accessor: its slot is a hole now
                    if m.holes is None:
                        m.holes = Holes()
                    m.holes.add(i)
                return True
            if m.named is not None and m.named.pop(skey, MISSING) is not MISSING:
                return True
    if t is dict or t is JSObject or t is JSErrorObject:
        obj.pop(key, None)
        if t is JSErrorObject and key == "message":
            obj.message = ""  # the own message slot is gone (has_own reads it)
        return True
    if t is list:
        if key == "length":
            return _refuse_delete(key, obj, strict)
        if type(key) is str and is_array_index(key) and int(key) < len(obj):
            i = int(key)
            obj[i] = UNDEFINED  # a hole: the slot reads as undefined, the side table says absent
            hm = m if m is not None else ensure_meta(obj)
            if hm.holes is None:
                hm.holes = Holes()
            hm.holes.add(i)
        return True
    if t is str:
        return _str_own(obj, key) is MISSING or _refuse_delete(key, obj, strict)
    js_delete = getattr(t, "js_delete", None)
    if js_delete is not None:  # an arguments object (10.4.4.5)
        if _plain_own(obj, key) is not MISSING:
            if not flags_of(obj, key) & C:
                return _refuse_delete(key, obj, strict)
            js_delete(obj, key)
        return True
    if (t is JSFunction or t is BuiltinNamespace or t is BuiltinProto) and _plain_own(obj, key) is not MISSING \
            and not flags_of(obj, key) & C:
        return _refuse_delete(key, obj, strict)
    if t is BuiltinNamespace or t is BuiltinProto or (t is JSFunction and obj.builtin):
        _overlay()[(id(obj), key)] = _DELETED
        return True
    if t is JSFunction:
        if obj.props:
            obj.props.pop(key, None)
        if key in ("name", "length"):
            obj.props = obj.props or {}
            obj.props[key] = _DELETED_FN
    return True


_DELETED_FN: Any = object()


# --- in / keys / iteration --------------------------------------------------------------------

def _is_object(v: Any) -> bool:
    t = type(v)
    if t is dict or t is list:
        return True
    return not (t is str or t is int or t is float or t is bool or v is None or v is UNDEFINED or t is JSSymbol
                or foreign(t) >= FOREIGN_STR)  # (a caller's str/int/float subclass is a primitive)


def has_property(obj: Any, key: Any) -> bool:
    """``key in obj`` (13.10.1): TypeError on primitives, V8's message."""
    if type(obj) is not dict and type(obj) is not list and foreign(type(obj)):
        obj = plain_value(obj)
    if not _is_object(obj):
        shown = convert.to_string(obj) if type(obj) is not str else obj
        raise type_error(f"Cannot use 'in' operator to search for '{_key_text(key)}' in {shown}")
    key = _norm_key(key)
    if type(obj) is list and key == "length":
        return True
    if type(obj) is list and not PATCHED_REALMS[0]:  # an own index, else Array.prototype's chain
        if _list_own(obj, key) is not MISSING:
            return True
        return _builtin_chain_has(PROTOTYPES["Array"], key)
    if _get_own(obj, key) is not MISSING:
        return True
    if type(obj) is JSErrorObject and key in ("name", "message", "stack"):
        return True
    proto = get_prototype(obj) if type(obj) is not dict else _dict_proto(obj)
    depth = 0
    while proto is not None and depth < 10_000:
        depth += 1
        if _get_own(proto, key) is not MISSING:
            return True
        proto = proto.parent if type(proto) is BuiltinProto else get_prototype(proto)
    return False


def _builtin_chain_has(proto: Any, key: Any) -> bool:
    """HasProperty along an unpatched built-in prototype chain (Array.prototype, then
    Object.prototype)."""
    while proto is not None:
        if _plain_own(proto, key) is not MISSING:
            return True
        proto = proto.parent if type(proto) is BuiltinProto else get_prototype(proto)
    return False


def _key_text(key: Any) -> str:
    return repr(key) if type(key) is JSSymbol else convert.to_string(key)


def own_keys(obj: Any) -> list[str]:
    """EnumerableOwnProperties keys (7.3.23) in JS order, for every value kind."""
    if PATCHED_REALMS[0]:
        m = meta_of(obj)
        if m is not None:
            t = type(obj)
            if m.accessors and (t is dict or t is JSObject or t is JSErrorObject):
                keys = ordered_keys(dict.fromkeys(k for k in ordered_own(m, obj) if type(k) is str))
            else:
                keys = _plain_keys(obj)
                if t is list and m.holes:
                    keys = [k for i, k in enumerate(keys) if not is_hole(m, obj, i)]
                if m.named or m.accessors:
                    keys = keys + [k for k in ordered_own(m, m.named or {}) if type(k) is str and k not in keys]
            if m.flags:
                keys = [k for k in keys if m.flags.get(k, E) & E]
            return keys
    return _plain_keys(obj)


def _plain_keys(obj: Any) -> list[str]:
    """The enumerable own string keys stored in the object itself."""
    t = type(obj)
    if t is dict or t is JSObject or t is JSErrorObject:
        return convert.string_keys(obj)
    if t is list:
        return [str(i) for i in range(len(obj))]
    if t is str:
        return [str(i) for i in range(js_len(obj))]
    if t is BuiltinNamespace:
        return []
    if t is JSFunction:
        return [k for k, v in (obj.props or {}).items() if v is not _DELETED_FN] if not obj.builtin else []
    if obj is None or obj is UNDEFINED:
        raise type_error("Cannot convert undefined or null to object")
    if foreign(t):  # caller data of a subclass: the keys of its plain value
        return _plain_keys(plain_value(obj))
    keys = getattr(t, "js_own_keys", None)
    return list(keys(obj)) if keys is not None else []


def js_iterate(value: Any) -> Iterator[Any]:
    """GetIterator + IteratorStep (7.4): what spread and for-of walk."""
    t = type(value)
    if t is list:
        if PATCHED_REALMS[0] and _iterator_patched(value):
            return _protocol_iterate(value)
        return iter(value)
    if t is dict or t is JSObject:
        return _protocol_iterate(value)
    if t is str:
        return iter(value) if value.isascii() else iter(from_units(value))
    if t is JSIterator:
        inner: Iterator[Any] = value.it
        return inner
    if foreign(t):  # caller data of a subclass: its plain value's iterator
        return js_iterate(plain_value(value))
    it = getattr(t, "js_iterator", None) if _is_object(value) and t is not dict and t is not JSObject else None
    if it is not None:
        return it(value)  # type: ignore[no-any-return]
    if t is BuiltinProto and value.tag in ("String", "Array"):
        return iter(())  # String.prototype is a String object for "", Array.prototype an empty array
    raise type_error(f"{_iter_name(value)} is not iterable")


def _iterator_patched(value: Any) -> bool:
    """An array whose @@iterator or %ArrayIteratorPrototype%.next a script replaced."""
    method = get_member(value, SYMBOL_ITERATOR)
    return type(method) is not JSFunction or not method.builtin or method.name != "values"


def _protocol_iterate(value: Any) -> Iterator[Any]:
    """GetIterator(value, sync) (7.4.3) through a script's own ``[Symbol.iterator]``."""
    method = get_member(value, SYMBOL_ITERATOR)
    if method is UNDEFINED or method is None:
        raise type_error(f"{_iter_name(value)} is not iterable")
    if type(method) is not JSFunction:
        raise type_error(f"{_iter_name(value)} is not iterable")
    it = method.call(value)
    if type(it) is JSIterator:
        return it.it
    if not _is_object(it):
        raise type_error("Result of the Symbol.iterator method is not an object")
    next_fn = get_member(it, "next")
    return _IteratorRecord(it, next_fn)


class _IteratorRecord:
    """A JS iterator seen as a Python iterator (7.4.1): ``next()`` is IteratorStep plus
    IteratorValue; ``close()`` is IteratorClose (7.4.8), called when a consumer stops early."""

    __slots__ = ("iterator", "next_fn", "done")

    def __init__(self, iterator: Any, next_fn: Any) -> None:
        self.iterator = iterator
        self.next_fn = next_fn
        self.done = False

    def __iter__(self) -> "_IteratorRecord":
        return self

    def __next__(self) -> Any:
        if self.done:
            raise StopIteration
        self.done = True  # an abrupt step leaves the iterator closed (not to be closed again)
        result = call_function(self.next_fn, self.iterator)
        if not _is_object(result):
            raise type_error(f"Iterator result {_key_text(result) if not _is_object(result) else 'object'} "
                             "is not an object")
        if convert.to_boolean(get_member(result, "done")):
            raise StopIteration
        value = get_member(result, "value")
        self.done = False
        return value

    def close(self) -> None:
        """IteratorClose (7.4.8): call ``return`` when the consumer did not exhaust it."""
        if self.done:
            return
        self.done = True
        ret = get_member(self.iterator, "return")
        if ret is UNDEFINED or ret is None:
            return
        result = call_function(ret, self.iterator)
        if not _is_object(result):
            raise type_error("iterator.return() did not return an object")


def iter_close(it: Any) -> None:
    """Close a script iterator a for-of or an array pattern stopped using (7.4.8); while an
    exception is already on its way, an error from ``return`` does not replace it."""
    if type(it) is _IteratorRecord and not it.done:
        if sys.exc_info()[1] is not None:
            try:
                it.close()
            except JSThrow:
                pass
        else:
            it.close()


def _iter_name(value: Any) -> str:
    if _is_object(value):
        return "object"
    return convert.to_string(value) if type(value) is not JSSymbol else repr(value)


def list_index_keys(obj: list[Any]) -> list[str]:
    """An array's own index keys, holes left out."""
    m = meta_of(obj) if PATCHED_REALMS[0] else None
    if m is not None and m.holes:
        return [str(i) for i in range(len(obj)) if not is_hole(m, obj, i)]
    return [str(i) for i in range(len(obj))]


def all_own_keys(obj: Any) -> list[Any]:
    """Every own key, enumerable or not, string or symbol (what integrity levels visit)."""
    t = type(obj)
    keys: list[Any]
    if t is dict or t is JSObject or t is JSErrorObject:
        keys = list(obj)
        if t is JSErrorObject:
            keys += [k for k in ("message", "stack") if _plain_own(obj, k) is not MISSING]
    elif t is list:
        keys = list_index_keys(obj) + ["length"]
    elif t is JSFunction:
        keys = [k for k in ("length", "name", "prototype") if _plain_own(obj, k) is not MISSING]
        keys += [k for k, v in (obj.props or {}).items() if k not in keys and v is not _DELETED_FN]
    else:
        every = getattr(t, "js_all_keys", None)
        keys = every(obj) if every is not None else list(_plain_keys(obj))
    m = meta_of(obj) if PATCHED_REALMS[0] else None
    if m is not None:
        if t is dict or t is JSObject:
            return ordered_own(m, obj)
        keys += [k for k in ordered_own(m, m.named or {}) if k not in keys]
    return keys


def prevent_extensions(obj: Any) -> None:
    """[[PreventExtensions]] (10.1.4): no new own properties from now on."""
    if _is_object(obj):
        ensure_meta(obj).extensible = False


def freeze(obj: Any) -> Any:
    """Object.freeze (20.1.2.6) via SetIntegrityLevel (7.3.15): recorded in this evaluation's
    side table, so inputs are never marked."""
    return set_integrity(obj, frozen=True)


def set_integrity(obj: Any, frozen: bool) -> Any:
    """SetIntegrityLevel (7.3.15): sealed, or frozen when ``frozen``."""
    if not _is_object(obj):
        return obj
    m = ensure_meta(obj)
    m.extensible = False
    for k in all_own_keys(obj):
        f = flags_of(obj, k) & ~C
        if frozen and k not in m.accessors:
            f &= ~W
        m.flags[k] = f
    return obj


def test_integrity(obj: Any, frozen: bool) -> bool:
    """TestIntegrityLevel (7.3.16): Object.isSealed / Object.isFrozen."""
    if not _is_object(obj):
        return True
    m = meta_of(obj)
    if m is None or m.extensible:
        return False
    for k in all_own_keys(obj):
        f = flags_of(obj, k)
        if f & C or (frozen and f & W and k not in m.accessors):
            return False
    return True


def is_frozen(obj: Any) -> bool:
    """Object.isFrozen (20.1.2.15)."""
    return test_integrity(obj, frozen=True)


# --- calls ------------------------------------------------------------------------------------

def call_function(fn: Any, this: Any, *args: Any) -> Any:
    """Call(F, V, args) (7.3.14): TypeError when ``fn`` is not callable."""
    if type(fn) is JSFunction:
        return fn.call(this, *args)
    raise type_error(f"{_callee_text(fn)} is not a function")


def _callee_text(fn: Any) -> str:
    if type(fn) is str:
        return f'"{fn}"'
    if _is_object(fn):
        return "object"
    return convert.to_string(fn) if type(fn) is not JSSymbol else repr(fn)


def builtin_this(obj: Any, fn: JSFunction) -> Any:
    """``this`` for a built-in method called on a wrapper prototype: its primitive value."""
    if type(obj) is BuiltinProto and fn.builtin and obj.table.get(fn.name) is fn:
        v = WRAPPER_VALUES.get(obj.tag)
        if v is not None:
            return v
        if obj.tag == "Function":
            return FUNCTION_PROTOTYPE_VALUE
    return obj


def call_method(obj: Any, key: Any, *args: Any) -> Any:
    """``obj[key](...args)`` with ``this`` = obj."""
    if foreign(type(obj)):
        obj = plain_value(obj)
    fn = get_member(obj, key)
    if type(fn) is JSFunction:
        if type(obj) is BuiltinProto:
            obj = builtin_this(obj, fn)
        return fn.call(obj, *args)
    raise type_error(f"{_callee_text(obj)}.{convert.to_string(key)} is not a function")
