"""The compiler's entry points: source -> checked AST -> a compiled expression.

``compile_expression`` is the in-process exit (the emitted module run in process, see
``emit.py``); ``compile-patches`` prints the same module into its artifact.
``generate_module`` gives the general tier's code alone, for tools that read it (the
build step's undeclared-global check, the code generator's tests).
"""

from __future__ import annotations

from syncpatch.runtime.compiled import CompiledExpression
from syncpatch.runtime.realm import Budgets

from .codegen import GeneratedCode, generate
from .emit import emit_expression, front, load_expression, too_deep
from .stackroom import on_big_stack

__all__ = ["compile_expression", "generate_module"]


def compile_expression(source: str, origin: str = "<expression>", budgets: Budgets | None = None) -> CompiledExpression:
    """Source text -> its record (raises ``CompileError``). Without custom ``budgets`` the
    native tier runs first and the general tier is generated on first need; with them every
    call takes the general tier, which applies them."""
    native = budgets is None
    return load_expression(emit_expression(source, origin, native=native, defer_general=native), budgets)


def generate_module(source: str, origin: str = "<expression>") -> GeneratedCode:
    """Parse, check and generate the general tier (no Python compile)."""
    def work() -> GeneratedCode:
        program = front(source, origin)
        try:
            return generate(program, source, origin)
        except RecursionError:
            raise too_deep(source, origin) from None

    return on_big_stack(work)
