"""Object environment records: name resolution inside a sloppy-mode ``with`` body (14.11).

The compiler gives the dynamic lookup only to identifiers written lexically inside a
``with`` body, so nothing here runs for scripts without one. Such an identifier first asks
``with_base`` which ``with`` object (innermost first) binds it, once per reference
(ResolveBinding, 9.4.2); reads, writes, ``typeof``, ``delete`` and calls then act on that
object, or on the binding the name has outside every ``with`` when none does.
"""

from __future__ import annotations

from typing import Any

from . import callops, convert, members
from .dynamic_code import direct_eval, is_eval_vars
from .functions import EVAL
from .values import MISSING, UNDEFINED, reference_error, type_error
from .well_known import WELL_KNOWN

__all__ = ["with_object", "with_base", "with_get", "with_set", "with_delete", "with_this", "with_eval"]

_UNSCOPABLES = WELL_KNOWN["unscopables"]


def with_object(value: Any) -> Any:
    """ToObject of the ``with`` expression (14.11.2 step 3): a TypeError for null/undefined,
    a wrapper object for a primitive."""
    if value is None or value is UNDEFINED:
        raise type_error("Cannot convert undefined or null to object")
    if members._is_object(value):
        return value
    from .stdlib.wrappers import wrap_primitive

    return wrap_primitive(value)


def _binds(obj: Any, name: str) -> bool:
    """HasBinding of an object environment record (9.1.1.2.1): the property exists (own or
    inherited) and ``obj[Symbol.unscopables]`` does not block it."""
    if not members.has_property(obj, name):
        return False
    unscopables = members.get_member(obj, _UNSCOPABLES)
    if members._is_object(unscopables):
        return not convert.to_boolean(members.get_member(unscopables, name))
    return True


def with_base(name: str, *objects: Any) -> Any:
    """The innermost ``with`` object that binds ``name``, or ``MISSING`` (the name then
    resolves as it would outside the ``with`` statements)."""
    for obj in objects:
        if _binds(obj, name):
            return obj
    return MISSING


def with_get(obj: Any, name: str, strict: bool) -> Any:
    """GetBindingValue (9.1.1.2.6): the property, re-checked because a getter or an
    ``unscopables`` lookup may have deleted it since the name was resolved."""
    if not members.has_property(obj, name):
        if strict:
            raise reference_error(f"{name} is not defined")
        return UNDEFINED
    return members.get_member(obj, name)


def with_set(obj: Any, name: str, value: Any, strict: bool) -> Any:
    """SetMutableBinding (9.1.1.2.5); returns ``value`` (an assignment's value)."""
    if strict and not members.has_property(obj, name):
        raise reference_error(f"{name} is not defined")
    members.set_member(obj, name, value, strict)
    return value


def with_delete(obj: Any, name: str) -> bool:
    """DeleteBinding (9.1.1.2.7): ``delete name`` removes the property (sloppy code only)."""
    return members.delete_member(obj, name)


def with_this(base: Any) -> Any:
    """The ``this`` of a call through a name (13.3.6.1 step 4.b): the ``with`` object that
    bound it (WithBaseObject), else undefined."""
    return UNDEFINED if base is MISSING or is_eval_vars(base) else base  # eval's vars: a declarative scope


def with_eval(fn: Any, this: Any, strict: bool, env: Any, *args: Any) -> Any:
    """``eval(...)`` written inside a ``with`` body, its callee already resolved: a direct
    eval when it is the built-in (19.2.1.1), else a call with the ``with`` object as ``this``."""
    if fn is EVAL:
        return direct_eval(fn, strict, env, *args)
    return callops.call_this(fn, this, "eval", *args)
