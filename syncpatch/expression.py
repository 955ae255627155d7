"""The public expression API: ``compile_expression(source)(value, context)``.

An ``Expression`` is compiled once; each call runs in a fresh realm (budgets, overlay for
writes to built-ins), so no call can affect another. Inputs are deep-copied only when the
script could mutate them. Every failure reaches the caller as ``EvaluationError`` (a JS
exception, with ``js_name``), ``LimitExceeded`` (a budget), or ``CompileError``; internal
Python exceptions never leak their type names or paths.

The expression is the public function of the compiler's one record,
:class:`~syncpatch.runtime.compiled.CompiledExpression` (``expression.compiled``), which a
``compile-patches`` artifact builds from the very same emitted module (``compiler/emit.py``).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from syncpatch.compiler import compile_expression as compile_record
from syncpatch.compiler.errors import CompileError
from syncpatch.runtime.compiled import CompiledExpression, ensure_stack_room
from syncpatch.runtime.entry import CompiledFunction
from syncpatch.runtime.errors import EvaluationError, LimitExceeded
from syncpatch.runtime.realm import Budgets
from syncpatch.runtime.values import UNDEFINED

__all__ = ["compile_expression", "Expression", "EvaluationError", "LimitExceeded", "CompileError", "Budgets",
           "UNDEFINED"]

ensure_stack_room()  # deep scripts need room while they compile, too


@runtime_checkable
class Expression(Protocol):
    """A compiled patch expression: a plain Python function, so a call costs what a call of
    hand-written Python costs, with these attributes.

    ``expression(value, context=None, value_exists=True, budgets=None)`` runs the native
    tier when the script has one and no ``budgets`` are given, else (and whenever a native
    guard fails) the general tier, ``general`` (see ``runtime/entry.py``). ``compiled`` is
    the record plans and artifacts work from."""

    source: str
    origin: str
    free_globals: tuple[str, ...]
    budgets: Budgets
    native: bool
    general: CompiledFunction
    compiled: CompiledExpression

    def __call__(self, value: Any = UNDEFINED, context: Any = None, value_exists: bool = True,
                 budgets: Budgets | None = None) -> Any: ...


def compile_expression(source: str, *, origin: str = "<expression>", budgets: Budgets | None = None) -> Expression:
    """Compile a patch expression (a JS script whose completion value is the result)."""
    entry: Expression = compile_record(source, origin, budgets).entry  # type: ignore[assignment]
    return entry
