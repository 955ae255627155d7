"""The NativeError constructors and Error.prototype (ECMA-262 20.5).

``Error(...)`` and ``new Error(...)`` both build a ``values.JSErrorObject``: ``message`` is
kept in its slot (own, non-enumerable in V8) and ``name`` comes from the prototype chain,
which the core derives from ``error_name``. ``cause`` (and AggregateError's ``errors``) are
stored as own dict entries, so unlike V8 they are enumerable (documented deviation: the
value model has no non-enumerable slot for them).
"""

from __future__ import annotations

from typing import Any

from ..convert import to_string
from ..realm import PATCHED_REALMS
from ..values import UNDEFINED, JSErrorObject, JSFunction, JSSymbol, type_error
from .array_support import members
from .registry import ERROR_PROTO, FUNCTION_PARENTS, GLOBALS, method, native

__all__ = ["ERROR_NAMES", "error_is_instance", "make_error_object"]

#: Every built-in error constructor; all but ``Error`` inherit from ``Error``.
ERROR_NAMES = (
    "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError",
    "EvalError", "URIError", "AggregateError",
)


def error_is_instance(err: Any, ctor_name: str) -> bool:
    """``err instanceof <ctor_name>`` for built-in errors: every error is an ``Error``."""
    if not isinstance(err, JSErrorObject):
        return False
    return ctor_name == "Error" or err.error_name == ctor_name


def _is_object(v: Any) -> bool:
    return not (v is None or v is UNDEFINED or type(v) in (str, int, float, bool, JSSymbol))


def make_error_object(name: str, message: Any, options: Any = UNDEFINED) -> JSErrorObject:
    """The body shared by the NativeError constructors (20.5.1.1 steps 2-5)."""
    err = JSErrorObject(name, "" if message is UNDEFINED else to_string(message))
    if _is_object(options) and members().has_property(options, "cause"):
        err["cause"] = members().get_member(options, "cause")
        from ..properties import C, W, ensure_meta

        ensure_meta(err).flags["cause"] = W | C  # InstallErrorCause: non-enumerable (20.5.8.1)
    return err


def _native_error(name: str) -> JSFunction:
    """A NativeError constructor (20.5.6.1); calling it without ``new`` is the same."""

    def construct(message: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> JSErrorObject:
        return make_error_object(name, message, options)

    def call(this: Any, *args: Any) -> JSErrorObject:
        return construct(*args)

    return native(call, name, 1, construct=construct)


def _aggregate_error() -> JSFunction:
    """AggregateError ( errors, message [, options] ) (20.5.7.1)."""

    def construct(errors: Any = UNDEFINED, message: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> JSErrorObject:
        err = make_error_object("AggregateError", message, options)
        if errors is None or errors is UNDEFINED:
            kind = "object null" if errors is None else "undefined"
            raise type_error(f"{kind} is not iterable (cannot read property Symbol(Symbol.iterator))")
        err["errors"] = list(members().js_iterate(errors))
        return err

    def call(this: Any, *args: Any) -> JSErrorObject:
        return construct(*args)

    return native(call, "AggregateError", 2, construct=construct)


for _name in ERROR_NAMES[:-1]:
    GLOBALS[_name] = _native_error(_name)
GLOBALS["AggregateError"] = _aggregate_error()
for _name in ERROR_NAMES[1:]:
    FUNCTION_PARENTS[id(GLOBALS[_name])] = GLOBALS["Error"]


@method(ERROR_PROTO, "toString", 0)
def error_to_string(this: Any, *_: Any) -> str:
    """Error.prototype.toString (20.5.3.4)."""
    if not _is_object(this):
        shown = repr(this) if type(this) is JSSymbol else to_string(this)
        raise type_error(f"Method Error.prototype.toString called on incompatible receiver {shown}")
    if isinstance(this, JSErrorObject) and "name" not in this and "message" not in this and not PATCHED_REALMS[0]:
        name, msg = this.error_name, this.message
    else:
        m = members()
        raw_name = m.get_member(this, "name")
        raw_msg = m.get_member(this, "message")
        name = "Error" if raw_name is UNDEFINED else to_string(raw_name)
        msg = "" if raw_msg is UNDEFINED else to_string(raw_msg)
    if not name:
        return msg
    if not msg:
        return name
    return f"{name}: {msg}"
