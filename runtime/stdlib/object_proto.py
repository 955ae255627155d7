"""Object.prototype methods and the own-property helpers the Object statics share
(ECMA-262 20.1.3).

Own-property questions go through the core's member dispatch (``members._get_own`` and
``own_keys``); which own properties are non-enumerable (array/string ``length``, an error's
``message`` and ``stack``, a function's ``name``/``length``) is decided here.
"""

from __future__ import annotations

from typing import Any

from ..convert import ordered_keys, to_property_key, to_string
from ..properties import BUILTIN_ACCESSORS, E, flags_of, meta_of
from ..realm import current_realm
from ..subclasses import STR as FOREIGN_STR, foreign, plain_value
from ..values import MISSING, UNDEFINED, JSErrorObject, JSFunction, JSIterator, JSObject, JSSymbol, type_error
from .array_support import members
from .registry import OBJECT_PROTO, BuiltinNamespace, method, native

__all__ = [
    "is_object",
    "to_object",
    "get_own",
    "has_own",
    "hidden_keys",
    "own_property_names",
    "own_property_symbols",
    "prototype_of",
    "object_to_string",
]


def is_object(v: Any) -> bool:
    """Type(v) is Object (functions included)."""
    t = type(v)
    return not (t is str or t is int or t is float or t is bool or t is JSSymbol or v is None or v is UNDEFINED
                or (t is not dict and t is not list and foreign(t) >= FOREIGN_STR))  # (a caller's str subclass...)


def to_object(v: Any) -> Any:
    """ToObject (7.1.18): primitives stand for their wrappers; null/undefined throw."""
    if v is None or v is UNDEFINED:
        raise type_error("Cannot convert undefined or null to object")
    return plain_value(v)  # (caller data of a subclass: its plain value)


def get_own(o: Any, key: Any) -> Any:
    """The value of own property ``key`` of ``o``, or MISSING."""
    if type(o) is dict and not members().PATCHED_REALMS[0]:
        return o.get(key, MISSING)
    return members()._get_own(o, key)


def has_own(o: Any, key: Any) -> bool:
    """HasOwnProperty (7.3.12)."""
    if type(o) is JSErrorObject and key == "message":
        return "message" in o or o.message != ""
    return get_own(o, key) is not MISSING


def hidden_keys(o: Any) -> list[str]:
    """Own non-enumerable string keys V8 shows in getOwnPropertyNames, in its order."""
    t = type(o)
    if t is list or t is str:
        return ["length"]
    if t is JSErrorObject:
        return ["stack", "message"] if o.message else ["stack"]
    if t is JSFunction:
        return _function_keys(o)
    if t is BuiltinNamespace:
        return [k for k in o if type(k) is str]
    if t.__name__ == "BuiltinProto":
        return ["constructor"] + [k for k in o.table if type(k) is str] + \
            [k for (tag, k) in BUILTIN_ACCESSORS if tag == o.tag and type(k) is str]
    if getattr(t, "JS_CLASS", None) == "RegExp":
        return ["lastIndex"]  # a RegExp instance's one own (non-enumerable) property (22.2.3.1)
    if getattr(t, "JS_CLASS", None) == "Arguments":
        shown = o.js_own_keys()  # an arguments object: length, callee and what a script hid
        return [k for k in o.js_all_keys() if type(k) is str and k not in shown]
    if getattr(t, "JS_CLASS", None) == "Array" and isinstance(o, list):
        return ["length"]  # regex match arrays, template strings arrays, arguments objects
    return []


def _function_keys(fn: JSFunction) -> list[str]:
    names = [k for k in ("length", "name") if members()._plain_own(fn, k) is not MISSING]
    if fn.kind == "function":
        names += ["arguments", "caller", "prototype"]
    elif fn.builtin:
        if members().get_member(fn, "prototype") is not UNDEFINED:
            names.append("prototype")
        names += [k for k in (fn.props or {}) if type(k) is str and k not in names]
    return names


def own_property_symbols(o: Any) -> list[JSSymbol]:
    """[[OwnPropertyKeys]] symbol keys (20.1.2.11), in creation order, for every value kind."""
    m = members()
    t = type(o)
    if t is BuiltinNamespace or t.__name__ == "BuiltinProto" or (t is JSFunction and o.builtin):
        # a shared built-in: its table (or a function's props), its accessors, this realm's writes
        keys: list[Any] = list(o.table if t.__name__ == "BuiltinProto" else o if t is BuiltinNamespace else ())
        tag = "constructor " + o.name if t is JSFunction else getattr(o, "tag", None)
        keys += [k for (owner, k) in BUILTIN_ACCESSORS if owner == tag]
        overlay = current_realm().overlay if m.PATCHED_REALMS[0] else None
        if overlay:
            keys += [k for (owner, k) in overlay if owner == id(o)]
        keys = [k for k in dict.fromkeys(k for k in keys if type(k) is JSSymbol) if m._get_own(o, k) is not MISSING]
        return keys
    if not is_object(o):
        return []
    return [k for k in m.all_own_keys(o) if type(k) is JSSymbol]


def own_property_names(o: Any) -> list[str]:
    """[[OwnPropertyKeys]] string keys (20.1.2.10): indices, then the rest, hidden included."""
    m = members()
    if m.PATCHED_REALMS[0] and meta_of(o) is not None:
        every = [k for k in m.all_own_keys(o) if type(k) is str]
        if type(o) is dict or type(o) is JSObject or type(o) is JSFunction:  # a class's static `1() {}`
            return ordered_keys(dict.fromkeys(every))
        base = _plain_names(o)
        if type(o) is list:
            base = m.list_index_keys(o) + base[len(o):]  # holes are not own keys
        return base + [k for k in every if k not in base]
    return _plain_names(o)


def _plain_names(o: Any) -> list[str]:
    every = getattr(type(o), "js_all_keys", None)
    if every is not None:  # an arguments object
        return [k for k in every(o) if type(k) is str]
    keys: list[str] = members()._plain_keys(o)
    hidden = hidden_keys(o)
    if type(o) is list or type(o) is str:
        return keys + hidden
    if isinstance(o, list):  # a match array: indexes, length, then index/input/groups
        n = len(o)
        return keys[:n] + hidden + keys[n:]
    return hidden + [k for k in keys if k not in hidden]


def prototype_of(o: Any) -> Any:
    """[[GetPrototypeOf]] honouring prototypes set on plain dicts."""
    m = members()
    if type(o) is dict:
        return m._dict_proto(o)
    return m.get_prototype(o)


#: Built-in prototypes that are themselves exotic or carry @@toStringTag.
_TAGGED_PROTOTYPES = frozenset(("Array", "String", "Number", "Boolean", "Function", "Symbol", "Map", "Set"))


#: Namespace objects carrying @@toStringTag (the global object does not).
_TAGGED_NAMESPACES = frozenset(("Math", "JSON", "Reflect", "Atomics", "Intl"))


def _class_tag(o: Any) -> str:
    """builtinTag / @@toStringTag of Object.prototype.toString (20.1.3.6)."""
    t = type(o)
    if isinstance(o, list):
        return getattr(t, "JS_CLASS", "Array")  # "Arguments" for an arguments object
    if t is JSFunction:
        return "Function"
    if isinstance(o, JSErrorObject):
        return "Error"
    if t is JSIterator:
        return str(o.tag)
    if t is str:
        return "String"
    if t is int or t is float:
        return "Number"
    if t is bool:
        return "Boolean"
    if t is JSSymbol:
        return "Symbol"
    if t is dict or t is JSObject:
        return "Object"
    if t is BuiltinNamespace:
        return str(o.tag) if o.tag in _TAGGED_NAMESPACES else "Object"
    if t.__name__ == "BuiltinProto":
        return o.tag if o.tag in _TAGGED_PROTOTYPES else "Object"
    cls = getattr(t, "JS_CLASS", None)
    return cls if type(cls) is str else "Object"


def object_to_string(this: Any, *_: Any) -> str:
    """Object.prototype.toString (20.1.3.6): ``[object Tag]``."""
    if this is UNDEFINED:
        return "[object Undefined]"
    if this is None:
        return "[object Null]"
    builtin = _class_tag(this)
    if is_object(this) and type(this) is not str:
        from .symbol import SYMBOL_TO_STRING_TAG

        tag = members().get_member(this, SYMBOL_TO_STRING_TAG)  # 20.1.3.6 step 15
        if type(tag) is str:
            return f"[object {tag}]"
    return f"[object {builtin}]"


OBJECT_PROTO["toString"] = native(object_to_string, "toString", 0)


@method(OBJECT_PROTO, "toLocaleString", 0)
def object_to_locale_string(this: Any, *_: Any) -> Any:
    """Object.prototype.toLocaleString (20.1.3.5): Invoke(this, "toString")."""
    to_object(this)
    return members().call_method(this, "toString")


@method(OBJECT_PROTO, "valueOf", 0)
def object_value_of(this: Any, *_: Any) -> Any:
    """Object.prototype.valueOf (20.1.3.7): ToObject(this)."""
    return to_object(this)


@method(OBJECT_PROTO, "hasOwnProperty", 1)
def object_has_own_property(this: Any, key: Any = UNDEFINED, *_: Any) -> bool:
    """Object.prototype.hasOwnProperty (20.1.3.2): key first, then ToObject(this)."""
    k = to_property_key(key)
    return has_own(to_object(this), k)


@method(OBJECT_PROTO, "isPrototypeOf", 1)
def object_is_prototype_of(this: Any, v: Any = UNDEFINED, *_: Any) -> bool:
    """Object.prototype.isPrototypeOf (20.1.3.3)."""
    if not is_object(v):
        return False
    o = to_object(this)
    p = prototype_of(v)
    for _step in range(10_000):
        if p is None:
            return False
        if p is o:
            return True
        p = p.parent if type(p).__name__ == "BuiltinProto" else prototype_of(p)
    return False


@method(OBJECT_PROTO, "propertyIsEnumerable", 1)
def object_property_is_enumerable(this: Any, key: Any = UNDEFINED, *_: Any) -> bool:
    """Object.prototype.propertyIsEnumerable (20.1.3.4)."""
    k = to_property_key(key)
    o = to_object(this)
    if type(o) is dict and not members().PATCHED_REALMS[0]:
        return k in o
    if type(k) is not str:
        return isinstance(o, dict) and k in o and bool(flags_of(o, k) & E)
    return has_own(o, k) and k not in hidden_keys(o) and bool(flags_of(o, k) & E)


def _describe_for_message(v: Any) -> str:
    """V8's rendering of a value in 'Object prototype may only be...' messages."""
    if type(v) is str:
        return v
    if type(v) is JSSymbol:
        return repr(v)
    return to_string(v)
