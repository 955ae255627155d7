"""The Reflect namespace (ECMA-262 28.1).

Each function is the plain object operation it names, with a TypeError for a non-object
target (``Reflect.ownKeys('a')``); where ``Object``'s statics throw on a refused change,
``defineProperty``/``set``/``setPrototypeOf`` answer false.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from ..convert import to_length, to_property_key
from ..values import UNDEFINED, JSFunction, type_error
from ..properties import is_extensible
from .array_support import members
from .object_proto import is_object, own_property_names, own_property_symbols, prototype_of
from .registry import GLOBALS, BuiltinNamespace, native

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["REFLECT"]

_FNS: dict[str, JSFunction] = {}


def _fn(name: str, length: int) -> Callable[[_F], _F]:
    """Register ``f(this, *args)`` as ``Reflect.<name>``."""

    def deco(f: _F) -> _F:
        _FNS[name] = native(f, name, length)
        return f

    return deco


def _target(o: Any, name: str) -> Any:
    if not is_object(o):
        raise type_error(f"Reflect.{name} called on non-object")
    return o


def _arg_list(a: Any) -> list[Any]:
    """CreateListFromArrayLike (7.3.18)."""
    if isinstance(a, list):
        return list(a)
    if not is_object(a):
        raise type_error("CreateListFromArrayLike called on non-object")
    m = members()
    n = to_length(m.get_member(a, "length"))
    return [m.get_member(a, str(i)) for i in range(n)]


@_fn("apply", 3)
def reflect_apply(this: Any, target: Any = UNDEFINED, this_arg: Any = UNDEFINED, args: Any = UNDEFINED,
                  *_: Any) -> Any:
    """Reflect.apply (28.1.1)."""
    if type(target) is not JSFunction:
        raise type_error("Function.prototype.apply was called on " + (
            "undefined" if target is UNDEFINED else "null" if target is None else "a non-function"))
    return members().call_function(target, this_arg, *_arg_list(args))


@_fn("deleteProperty", 2)
def reflect_delete_property(this: Any, target: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> bool:
    """Reflect.deleteProperty (28.1.4)."""
    return bool(members().delete_member(_target(target, "deleteProperty"), to_property_key(key), False))


@_fn("get", 2)
def reflect_get(this: Any, target: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> Any:
    """Reflect.get (28.1.5)."""
    return members().get_member(_target(target, "get"), to_property_key(key))


@_fn("getPrototypeOf", 1)
def reflect_get_prototype_of(this: Any, target: Any = UNDEFINED, *_: Any) -> Any:
    """Reflect.getPrototypeOf (28.1.7)."""
    return members().get_prototype(_target(target, "getPrototypeOf"))


@_fn("has", 2)
def reflect_has(this: Any, target: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> bool:
    """Reflect.has (28.1.8)."""
    return bool(members().has_property(_target(target, "has"), to_property_key(key)))


@_fn("isExtensible", 1)
def reflect_is_extensible(this: Any, target: Any = UNDEFINED, *_: Any) -> bool:
    """Reflect.isExtensible (28.1.9)."""
    return is_extensible(_target(target, "isExtensible"))


@_fn("ownKeys", 1)
def reflect_own_keys(this: Any, target: Any = UNDEFINED, *_: Any) -> list[Any]:
    """Reflect.ownKeys (28.1.10): string keys (non-enumerable too), then symbols."""
    o = _target(target, "ownKeys")
    keys: list[Any] = list(own_property_names(o))
    keys.extend(own_property_symbols(o))
    return keys


@_fn("set", 3)
def reflect_set(this: Any, target: Any = UNDEFINED, key: Any = UNDEFINED, value: Any = UNDEFINED,
                *rest: Any) -> bool:
    """Reflect.set (28.1.12): false when the target is frozen."""
    m = members()
    o = _target(target, "set")
    if rest and rest[0] is not o:
        return _set_with_receiver(o, to_property_key(key), value, rest[0])
    try:
        m.set_member(o, to_property_key(key), value, True)  # strict: a refused write throws...
    except m.JSThrow as exc:
        if getattr(exc.value, "error_name", "") == "TypeError" and "read only" in getattr(exc.value, "message", "") \
                or "not extensible" in getattr(exc.value, "message", ""):
            return False  # ...which Reflect.set reports as false
        raise
    return True


def _set_with_receiver(o: Any, key: Any, value: Any, receiver: Any) -> bool:
    """OrdinarySet with a distinct receiver (10.1.9.2 OrdinarySetWithOwnDescriptor): the
    property found on ``o``'s chain decides; a data write lands on ``receiver``."""
    from .descriptors import define_own_property, own_descriptor

    desc = own_descriptor(o, key)
    depth = 0
    while desc is None:
        o = prototype_of(o)
        depth += 1
        if o is None or depth > 10_000:
            desc = {"value": UNDEFINED, "writable": True, "enumerable": True, "configurable": True}
            break
        desc = own_descriptor(o, key)
    if "get" in desc:
        setter = desc["set"]
        if type(setter) is not JSFunction:
            return False
        setter.call(receiver, value)
        return True
    if not desc["writable"] or not is_object(receiver):
        return False
    existing = own_descriptor(receiver, key)
    if existing is not None:
        if "get" in existing or not existing["writable"]:
            return False
        return define_own_property(receiver, key, {"value": value})
    return define_own_property(receiver, key, {"value": value, "writable": True, "enumerable": True,
                                               "configurable": True})


@_fn("setPrototypeOf", 2)
def reflect_set_prototype_of(this: Any, target: Any = UNDEFINED, proto: Any = UNDEFINED, *_: Any) -> bool:
    """Reflect.setPrototypeOf (28.1.13)."""
    o = _target(target, "setPrototypeOf")
    if proto is not None and not is_object(proto):
        raise type_error("Object prototype may only be an Object or null: " + members().describe_key(proto)[1:-1])
    if not members().prototype_settable(o, proto):
        return False
    members().set_prototype(o, proto)
    return True


@_fn("construct", 2)
def reflect_construct(this: Any, target: Any = UNDEFINED, args: Any = UNDEFINED, new_target: Any = UNDEFINED,
                      *_: Any) -> Any:
    """Reflect.construct (28.1.2); a distinct ``newTarget`` lends its ``prototype``."""
    from .. import callops

    if not _is_constructor(target):
        raise type_error(f"{members()._callee_text(target)} is not a constructor")
    if new_target is not UNDEFINED and not _is_constructor(new_target):
        raise type_error(f"{members()._callee_text(new_target)} is not a constructor")
    if new_target is UNDEFINED or new_target is target:
        return callops.construct(target, "target", *_arg_list(args))
    from ..classes import construct_with

    return construct_with(target, new_target, tuple(_arg_list(args)))  # new.target is newTarget


def _is_constructor(f: Any) -> bool:
    return type(f) is JSFunction and (f.construct is not None or (not f.builtin and f.kind == "function"))


@_fn("defineProperty", 3)
def reflect_define_property(this: Any, target: Any = UNDEFINED, key: Any = UNDEFINED, attributes: Any = UNDEFINED,
                            *_: Any) -> bool:
    """Reflect.defineProperty (28.1.3): false where Object.defineProperty throws."""
    from .descriptors import define_own_property, to_property_descriptor

    o = _target(target, "defineProperty")
    k = to_property_key(key)
    return define_own_property(o, k, to_property_descriptor(attributes))


@_fn("getOwnPropertyDescriptor", 2)
def reflect_get_own_property_descriptor(this: Any, target: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> Any:
    """Reflect.getOwnPropertyDescriptor (28.1.6)."""
    from .descriptors import from_property_descriptor, own_descriptor

    o = _target(target, "getOwnPropertyDescriptor")
    return from_property_descriptor(own_descriptor(o, to_property_key(key)))


@_fn("preventExtensions", 1)
def reflect_prevent_extensions(this: Any, target: Any = UNDEFINED, *_: Any) -> bool:
    """Reflect.preventExtensions (28.1.11)."""
    members().prevent_extensions(_target(target, "preventExtensions"))
    return True


REFLECT = BuiltinNamespace("Reflect", dict(sorted(_FNS.items())))
GLOBALS["Reflect"] = REFLECT
