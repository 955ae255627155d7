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

import sys
from typing import Any, Protocol, runtime_checkable

from syncpatch.compiler import bind_entry, bind_main, compile_program
from syncpatch.compiler.pipeline import CompiledProgram, NativeFirstProgram, _without_native, compile_native_first
from syncpatch.grammar.errors import CompileError
from syncpatch.runtime.entry import CompiledFunction
from syncpatch.runtime.native import native_function
from syncpatch.runtime.errors import EvaluationError, LimitExceeded
from syncpatch.runtime.errors import _from_throw  # noqa: F401 - used by the artifact conformance test
from syncpatch.runtime.realm import Budgets
from syncpatch.runtime.values import UNDEFINED

__all__ = ["compile_expression", "Expression", "EvaluationError", "LimitExceeded", "CompileError", "Budgets",
           "UNDEFINED"]

if sys.getrecursionlimit() < 8000:
    sys.setrecursionlimit(8000)  # deep JS recursion needs room before the depth budget


@runtime_checkable
class Expression(Protocol):
    """A compiled patch expression: a plain Python function, so a call costs what a call of
    hand-written Python costs, with these attributes.

    ``expression(value, context=None, value_exists=True, budgets=None)`` runs the native
    tier when the script has one and no ``budgets`` are given, else (and whenever a native
    guard fails) the general tier, ``general`` (see ``runtime/entry.py``)."""

    source: str
    origin: str
    free_globals: tuple[str, ...]
    budgets: Budgets
    native: bool
    general: CompiledFunction

    def __call__(self, value: Any = UNDEFINED, context: Any = None, value_exists: bool = True,
                 budgets: Budgets | None = None) -> Any: ...


def compile_expression(source: str, *, origin: str = "<expression>", budgets: Budgets | None = None) -> Expression:
    """Compile a patch expression (a JS script whose completion value is the result)."""
    program: CompiledProgram | NativeFirstProgram
    if budgets is not None:  # custom limits: every call takes the general tier, which applies them
        program = _without_native(compile_program(source, origin))
    else:
        program = compile_native_first(source, origin)
    if isinstance(program, NativeFirstProgram):
        general = _deferred_general(program)
    else:
        general = CompiledFunction(bind_main(program.code), program.names, program.copy_mask, source, budgets)
    entry, invoke = bind_entry(program, general)
    native_source = getattr(program, "native_body", None)
    native_function(entry, invoke, general, source, native_source, getattr(program, "native_result", "any"),
                    {name: entry.__globals__[name] for name in program.native_constants})
    entry.__doc__ = source
    entry.origin = origin  # type: ignore[attr-defined]
    entry.free_globals = tuple(program.free_globals)  # type: ignore[attr-defined]
    entry.native = program.has_native  # type: ignore[attr-defined]
    if isinstance(program, NativeFirstProgram):
        entry.reads_context = program.reads_context  # type: ignore[attr-defined]
    return entry  # type: ignore[return-value]


def _deferred_general(program: NativeFirstProgram) -> CompiledFunction:
    """The general tier of a native-first script, generated on its first call."""
    general = CompiledFunction(_unset, {}, program.copy_mask, program.source)

    def first_call(*args: Any, **kwargs: Any) -> Any:
        main, names = program.general()
        general._main, general._names = main, names  # later calls go straight to the real one
        return main(*args, **kwargs)

    first_call.generates_general = True  # type: ignore[attr-defined]  # see general_tier_ran
    general._main = first_call
    return general


def general_tier_ran(expression: Expression) -> bool:
    """Has ``expression`` needed its general tier yet? A script with a native tier generates
    its general tier on the first call that needs it (a failed guard or ``budgets``), so on a
    fresh expression this tells a call that stayed native from one that fell back. (Always
    true for a script without a native tier.) The benchmarks report tiers with it."""
    return not getattr(expression.general._main, "generates_general", False)


def _unset(*_: Any) -> Any:  # pragma: no cover - replaced before any call
    raise AssertionError("the general tier was called before it was set")
