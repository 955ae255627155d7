"""The public run-time error types, and the one translation into them.

They live in the runtime (not beside the compiler) so that a compiled artifact, which loads
with the runtime alone, raises the very same classes as an in-process ``Expression``:
``except syncpatch.EvaluationError`` catches both. ``syncpatch`` re-exports them.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from .convert import to_string
from .members import get_member
from .values import JSErrorObject, JSFunction, JSThrow
from .values import LimitExceeded as _BudgetExhausted

__all__ = ["EvaluationError", "LimitExceeded", "translate_exception"]


class EvaluationError(Exception):
    """A JS exception thrown at run time: ``js_name`` (TypeError, ...) and the JS message."""

    def __init__(self, js_name: str, message: str, js_value: Any = None) -> None:
        super().__init__(f"{js_name}: {message}" if message else js_name)
        self.js_name = js_name
        self.message = message
        self.js_value = js_value

    def __reduce__(self) -> Any:
        return (type(self), (self.js_name, self.message))


class LimitExceeded(EvaluationError):
    """A budget ran out (steps, call depth, string/array size, allocation, wall time)."""

    def __init__(self, js_name: str, message: str, budget: str = "") -> None:
        super().__init__(js_name, message)
        self.budget = budget

    def __reduce__(self) -> Any:
        return (type(self), (self.js_name, self.message, self.budget))


def _from_throw(value: Any) -> EvaluationError:
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
        return _from_throw(exc.value)
    if isinstance(exc, _BudgetExhausted):
        return LimitExceeded(exc.js_name, exc.message, exc.budget)
    if isinstance(exc, RecursionError):
        return LimitExceeded("RangeError", "Maximum call stack size exceeded", "call_depth")
    if isinstance(exc, MemoryError):
        return LimitExceeded("RangeError", "out of memory", "allocation")
    if isinstance(exc, NameError):
        found = re.search(r"'(_v\d+)'", str(exc))
        js = names.get(getattr(exc, "name", None) or (found.group(1) if found else ""), None)
        if js is not None:
            return EvaluationError("ReferenceError", f"Cannot access '{js}' before initialization")
    return EvaluationError("InternalError", "internal error while evaluating the expression")
