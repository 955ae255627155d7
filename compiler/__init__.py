"""Checks and code generation: typed AST -> one emitted module per expression (``emit.py``),
run in process or printed into a ``compile-patches`` artifact."""

from . import dynamic as _dynamic  # noqa: F401 - installs the eval/Function compile hook
from .codegen import GeneratedCode
from .emit import EmittedExpression, emit_expression, load_expression
from .pipeline import compile_expression, generate_module

__all__ = ["EmittedExpression", "GeneratedCode", "compile_expression", "emit_expression", "generate_module",
           "load_expression"]
