"""The public expression API: ``compile_expression(source)(value, context)``.

An ``Expression`` is compiled once; each call runs in a fresh realm (budgets, overlay for
writes to built-ins), so no call can affect another. Inputs are deep-copied only when the
script could mutate them. Every failure reaches the caller as ``EvaluationError`` (a JS
exception, with ``js_name``), ``LimitExceeded`` (a budget), or ``CompileError``; internal
Python exceptions never leak their type names or paths.
"""

from __future__ import annotations

import ast
import re
import sys
from typing import Any, Callable

from syncpatch.compiler import bind_main, compile_program
from syncpatch.grammar.errors import CompileError
from syncpatch.runtime.convert import to_string
from syncpatch.runtime.interop import scalar_to_js, shallow_to_js, to_js, to_python
from syncpatch.runtime.realm import DEFAULT_BUDGETS, Budgets, Realm
from syncpatch.runtime.realm import _local as _LOCAL
from syncpatch.runtime.members import get_member
from syncpatch.runtime.values import UNDEFINED, JSErrorObject, JSFunction, JSThrow
from syncpatch.runtime.values import LimitExceeded as _RuntimeLimit

__all__ = ["compile_expression", "Expression", "EvaluationError", "LimitExceeded", "CompileError", "Budgets",
           "UNDEFINED"]

if sys.getrecursionlimit() < 8000:
    sys.setrecursionlimit(8000)


from syncpatch.runtime.errors import EvaluationError, LimitExceeded  # noqa: E402 - public, re-exported
from syncpatch.runtime.errors import translate_exception as _translate  # noqa: E402
from syncpatch.runtime.errors import _from_throw  # noqa: E402,F401 - used by the artifact conformance test


class Expression:
    """A compiled patch expression (see module docstring)."""

    __slots__ = ("source", "origin", "budgets", "free_globals", "_main", "_names", "_copy", "_steps", "_const")

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
        self._const = _constant_result(program.module)

    def __repr__(self) -> str:
        return f"Expression({self.source!r})"

    def __call__(self, value: Any = UNDEFINED, context: Any = None, *, value_exists: bool = True,
                 budgets: Budgets | None = None) -> Any:
        if self._copy:
            value, context = _copy_inputs(self._copy, value, context, self._names)
        else:
            t = type(value)
            if t is str:
                if not value.isascii():
                    value = scalar_to_js(value)
            elif t is float or t is tuple:
                value = scalar_to_js(value)
        if value_exists is not True:
            if value_exists is not False:
                value_exists = bool(value_exists)
        realm = _LOCAL.realm  # one thread-local read (each costs ~100 ns): the spare is current when idle
        if budgets is not None or realm is None or realm.busy or not realm.is_spare:
            return self._isolated_call(value, context, value_exists, budgets or self.budgets)
        # The thread's spare realm is current between evaluations: refresh what a call uses.
        realm.budgets = self.budgets
        realm.steps_left = self._steps
        realm.deadline = 0.0
        realm.allocated = 0
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
        return _convert_result(result, self._names)

    def _invoke(self, value: Any, context: Any, value_exists: bool) -> Any:
        """Internal fast entry for plan application: runs in the thread's current realm,
        which the caller made current and busy for the whole application (one realm per
        application instead of one per match). Per-call state (budgets, clock, context) is
        refreshed and built-in patches are dropped after each call, so matches stay apart;
        conversions and errors are those of ``__call__``."""
        if self._copy:
            value, context = _copy_inputs(self._copy, value, context, self._names)
        else:
            t = type(value)
            if t is str:
                if not value.isascii():
                    value = scalar_to_js(value)
            elif t is float or t is tuple:
                value = scalar_to_js(value)
        realm = _LOCAL.realm
        realm.budgets = self.budgets
        realm.steps_left = self._steps
        realm.deadline = 0.0
        realm.allocated = 0
        realm.context = context
        try:
            result = self._main(realm, value, context, value_exists)
        except BaseException as exc:  # noqa: BLE001 - everything becomes a public error
            realm.depth = 0
            if realm.extra or realm.overlay is not None:
                realm.unpatch()
                realm.extra = {}
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            raise _translate(exc, self._names) from None
        if realm.extra or realm.overlay is not None:
            realm.unpatch()
            realm.extra = {}
        t = type(result)
        if t is str or t is int or t is bool:
            return result
        return _convert_result(result, self._names)

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


_NOT_CONSTANT = object()


def _constant_result(module: ast.Module) -> Any:
    """The result of a script that is one primitive literal (``"fixed-value"``), else
    ``_NOT_CONSTANT``: such a script reads nothing, charges nothing and cannot throw."""
    main = module.body[0] if len(module.body) == 1 else None
    if isinstance(main, ast.FunctionDef) and len(main.body) == 1 and isinstance(main.body[0], ast.Return):
        value = main.body[0].value
        if isinstance(value, ast.Constant) and (value.value is None or type(value.value) in (str, int, bool)):
            return value.value
    return _NOT_CONSTANT


class _ConstantExpression(Expression):
    """An ``Expression`` whose script is one primitive literal: a call is just the value
    (no realm, no conversions; the result is the same as the general path's)."""

    __slots__ = ()

    def __call__(self, value: Any = UNDEFINED, context: Any = None, *, value_exists: bool = True,
                 budgets: Budgets | None = None) -> Any:
        return self._const

    def _invoke(self, value: Any, context: Any, value_exists: bool) -> Any:
        return self._const


def compile_expression(source: str, *, origin: str = "<expression>", budgets: Budgets | None = None) -> Expression:
    """Compile a patch expression (a JS script whose completion value is the result)."""
    expression = Expression(source, origin, budgets)
    if expression._const is not _NOT_CONSTANT:
        expression.__class__ = _ConstantExpression
    return expression


def _convert_result(result: Any, names: Any) -> Any:
    """JS result -> Python value; a result too deep to convert is a public LimitExceeded."""
    try:
        return to_python(result)
    except BaseException as exc:  # noqa: BLE001 - RecursionError, the depth limit
        if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
            raise
        raise _translate(exc, names) from None


def _copy_inputs(mask: int, value: Any, context: Any, names: Any) -> tuple[Any, Any]:
    """Deep-copy the inputs a script could mutate (bit 1 value, bit 2 context); inputs too
    deep to copy are a public LimitExceeded, never a raw RecursionError."""
    try:
        if mask & 4:
            value = shallow_to_js(value)
        elif mask & 1:
            value = to_js(value)
        if mask & 2:
            context = to_js(context)
    except BaseException as exc:  # noqa: BLE001 - RecursionError, the depth limit
        if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
            raise
        raise _translate(exc, names) from None
    return value, context
