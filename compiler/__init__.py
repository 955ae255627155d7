"""Checks and code generation: typed AST -> Python code (closures or module text)."""

from .pipeline import (
    CompiledProgram,
    bind_entry as bind_entry,
    bind_main,
    compile_program,
    compile_to_module_source,
    generate_module,
    module_header,
    source_hash,
)

__all__ = ["CompiledProgram", "bind_main", "compile_program", "compile_to_module_source", "generate_module",
           "module_header", "source_hash"]
