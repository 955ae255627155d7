"""The public expression API: ``compile_expression(source)(value, context)``.

An ``Expression`` is compiled once; each call runs in a fresh realm (budgets, overlay for
writes to built-ins), so no call can affect another. Inputs are deep-copied only when the
script could mutate them. Every failure reaches the caller as ``EvaluationError`` (a JS
exception, with ``js_name``), ``LimitExceeded`` (a budget), or ``CompileError``; internal
Python exceptions never leak their type names or paths.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Callable

from syncpatch.compiler import bind_main, compile_program
from syncpatch.grammar.errors import CompileError
from syncpatch.runtime.convert import to_string
from syncpatch.runtime.interop import scalar_to_js, to_js, to_python
from syncpatch.runtime.realm import DEFAULT_BUDGETS, Budgets, Realm
from syncpatch.runtime.realm import _local as _LOCAL
from syncpatch.runtime.members import get_member
from syncpatch.runtime.values import UNDEFINED, JSErrorObject, JSFunction, JSThrow
from syncpatch.runtime.values import LimitExceeded as _RuntimeLimit

__all__ = ["compile_expression", "Expression", "EvaluationError", "LimitExceeded", "CompileError", "Budgets",
           "UNDEFINED"]

if sys.getrecursionlimit() < 8000:
    sys.setrecursionlimit(8000)


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


def _translate(exc: BaseException, names: dict[str, str]) -> EvaluationError:
    """Any exception escaping generated code -> the public error types."""
    if isinstance(exc, JSThrow):
        return _from_throw(exc.value)
    if isinstance(exc, _RuntimeLimit):
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


class Expression:
    """A compiled patch expression (see module docstring)."""

    __slots__ = ("source", "origin", "budgets", "free_globals", "_main", "_names", "_copy", "_steps")

    def __init__(self, source: str, origin: str, budgets: Budgets | None) -> None:
        program = compile_program(source, origin)
        self.source = source
        self.origin = origin
        self.budgets = budgets or DEFAULT_BUDGETS
        self.free_globals = tuple(program.free_globals)
        self._main: Callable[..., Any] = bind_main(program.code)
        self._names = program.names
        self._copy = program.copy_mask
        self._steps = self.budgets.steps

    def __repr__(self) -> str:
        return f"Expression({self.source!r})"

    def __call__(self, value: Any = UNDEFINED, context: Any = None, *, value_exists: bool = True,
                 budgets: Budgets | None = None) -> Any:
        if self._copy:
            if self._copy & 1:
                value = to_js(value)
            if self._copy & 2:
                context = to_js(context)
        else:
            t = type(value)
            if t is float or t is tuple or (t is str and not value.isascii()):
                value = scalar_to_js(value)
        if value_exists is not True and value_exists is not False:
            value_exists = bool(value_exists)
        local = _LOCAL
        realm = local.spare
        if budgets is not None or realm.busy or local.realm is not realm:
            return self._isolated_call(value, context, value_exists, budgets or self.budgets)
        # The thread's spare realm is current between evaluations: refresh what a call uses.
        realm.budgets = self.budgets
        realm.steps_left = self._steps
        realm.deadline = 0.0
        realm.context = context
        realm.busy = True
        try:
            result = self._main(realm, value, context, value_exists)
        except BaseException as exc:  # noqa: BLE001 - everything becomes a public error
            _end(realm)
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            raise _translate(exc, self._names) from None
        realm.busy = False
        if realm.extra or realm.overlay is not None:
            _end(realm)
        t = type(result)
        if t is str or t is int or t is bool:
            return result
        return to_python(result)

    def _isolated_call(self, value: Any, context: Any, value_exists: bool, budgets: Budgets) -> Any:
        """A call with its own realm: custom budgets, or nested inside another evaluation."""
        local = _LOCAL
        previous = local.realm
        realm = Realm(budgets)
        realm.busy = True
        realm.context = context
        local.realm = realm
        try:
            result = self._main(realm, value, context, value_exists)
            return to_python(result)
        except BaseException as exc:  # noqa: BLE001 - everything becomes a public error
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            raise _translate(exc, self._names) from None
        finally:
            _end(realm)
            local.realm = previous


def _end(realm: Realm) -> None:
    """An evaluation is over: drop its context and anything it wrote to shared built-ins."""
    realm.busy = False
    realm.context = None
    realm.depth = 0
    if realm.extra or realm.overlay is not None:
        realm.unpatch()
        realm.extra = {}


def compile_expression(source: str, *, origin: str = "<expression>", budgets: Budgets | None = None) -> Expression:
    """Compile a patch expression (a JS script whose completion value is the result)."""
    return Expression(source, origin, budgets)
