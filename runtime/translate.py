"""The one translation of whatever escapes generated code into the public error types."""

from __future__ import annotations

import re
from typing import Any, Mapping

from .convert import to_string
from .errors import EvaluationError, LimitExceeded
from .members import get_member
from .values import JSErrorObject, JSFunction, JSThrow

__all__ = ["translate_exception", "from_throw"]


def from_throw(value: Any) -> EvaluationError:
    """A thrown JS value -> EvaluationError; ``js_name`` is the error's constructor name, as
    the oracle reports it (``Object`` for ``throw {a: 1}``, ``Error`` for primitives)."""
    if isinstance(value, JSErrorObject):
        return EvaluationError(value.error_name or "Error", str(value.message), value)
    name = "Error"
    try:
        if isinstance(value, (dict, list)) or not (value is None or isinstance(value, (str, int, float))):
            ctor = get_member(value, "constructor")
            name = getattr(ctor, "name", "") or "Error" if isinstance(ctor, JSFunction) else "Error"
        text = to_string(value) if not isinstance(value, (dict, list)) else "an object"
    except Exception:  # noqa: BLE001 - a value whose ToString throws
        text = "a value"
    return EvaluationError(name, f"Uncaught {text}", value)


def translate_exception(exc: BaseException, names: Mapping[str, str]) -> EvaluationError:
    """Any exception escaping generated code -> the public error types. ``names`` maps
    compiler-made identifiers back to JS names for messages. Internal Python exceptions
    become an ``InternalError`` without Python type names or paths."""
    if isinstance(exc, JSThrow):
        return from_throw(exc.value)
    if isinstance(exc, LimitExceeded):  # the watchdog's interrupt is a subclass: the plain type
        return exc if type(exc) is LimitExceeded else LimitExceeded(exc.message, budget=exc.budget,
                                                                    js_name=exc.js_name)
    if isinstance(exc, RecursionError):
        return LimitExceeded("Maximum call stack size exceeded", budget="call_depth")
    if isinstance(exc, MemoryError):
        return LimitExceeded("out of memory", budget="allocation")
    if isinstance(exc, NameError):
        found = re.search(r"'(_v\d+)'", str(exc))
        js = names.get(getattr(exc, "name", None) or (found.group(1) if found else ""), None)
        if js is not None:
            return EvaluationError("ReferenceError", f"Cannot access '{js}' before initialization")
    return EvaluationError("InternalError", "internal error while evaluating the expression")
