"""The public expression API: ``compile_expression(source)(value, context)``.

An ``Expression`` is compiled once; each call runs in a fresh realm (budgets, overlay for
writes to built-ins), so no call can affect another. Inputs are deep-copied only when the
script could mutate them. Every failure reaches the caller as ``EvaluationError`` (a JS
exception, with ``js_name``), ``LimitExceeded`` (a budget), or ``CompileError``; internal
Python exceptions never leak their type names or paths.

The per-call wrapper itself is the runtime's ``CompiledFunction`` (``runtime/entry.py``), which
the functions of a ``compile-patches`` artifact use too: both exits behave identically.
"""

from __future__ import annotations

import ast
import sys
from typing import Any

from syncpatch.compiler import bind_main, compile_program
from syncpatch.grammar.errors import CompileError
from syncpatch.runtime.entry import CompiledFunction
from syncpatch.runtime.errors import EvaluationError, LimitExceeded
from syncpatch.runtime.errors import _from_throw  # noqa: F401 - used by the artifact conformance test
from syncpatch.runtime.realm import Budgets
from syncpatch.runtime.values import UNDEFINED

__all__ = ["compile_expression", "Expression", "EvaluationError", "LimitExceeded", "CompileError", "Budgets",
           "UNDEFINED"]

if sys.getrecursionlimit() < 8000:
    sys.setrecursionlimit(8000)  # deep JS recursion needs room before the depth budget


class Expression(CompiledFunction):
    """A compiled patch expression: its source, origin and free globals, called through the
    runtime's per-call wrapper (see module docstring)."""

    __slots__ = ("origin", "free_globals", "_const")

    def __init__(self, source: str, origin: str, budgets: Budgets | None) -> None:
        program = compile_program(source, origin)
        super().__init__(bind_main(program.code), program.names, program.copy_mask, source, budgets)
        self.origin = origin
        self.free_globals = tuple(program.free_globals)
        self._const = _constant_result(program.module)

    def __repr__(self) -> str:
        return f"Expression({self.source!r})"


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
