"""The compiler's side of code from strings: the hook ``eval`` and ``Function`` compile with.

The runtime must not import the compiler, so this module installs ``compile_dynamic`` into
``runtime.dynamic_code`` when the compiler is imported. The text goes through the same
front end, checks and code generator as a script (``codegen.generate`` with
``dynamic=True``), and runs as the general tier in the caller's realm, under its budgets.
"""

from __future__ import annotations

from functools import lru_cache
from types import CodeType
from typing import Any, Callable

from syncpatch.runtime.compiled import namespace
from syncpatch.runtime.dynamic_code import install_compiler
from syncpatch.runtime.values import JSThrow, make_error

from syncpatch.grammar.errors import Span

from .codegen import generate
from .emit import _compile, front
from .errors import CompileError

__all__ = ["compile_dynamic"]

#: the origin named in errors of code from strings
ORIGIN = "eval"


@lru_cache(maxsize=256)
def _code(source: str, strict: bool) -> CodeType | CompileError:
    text = '"use strict";' + source if strict else source
    try:
        program = front(text, ORIGIN)
        return _compile(generate(program, text, ORIGIN, dynamic=True).module.body, text, ORIGIN)
    except CompileError as exc:
        return exc
    except RecursionError:
        return CompileError("the code is nested too deeply to compile", Span(1, 1), text, ORIGIN, refused=True)


def compile_dynamic(source: str, strict: bool) -> Callable[[dict[str, Any]], Callable[..., Any]]:
    """Source text -> a loader of its ``_main`` (see ``runtime.dynamic_code.CompileHook``); a
    SyntaxError (thrown to the script) when it does not compile, an EvalError when it uses a
    construct syncpatch refuses."""
    code = _code(source, strict)
    if isinstance(code, CompileError):
        kind = "EvalError" if code.refused else "SyntaxError"
        raise JSThrow(make_error(kind, code.message))
    compiled = code

    def load(overrides: dict[str, Any]) -> Callable[..., Any]:
        ns = namespace()
        ns.update(overrides)
        exec(compiled, ns)  # noqa: S102 - compiler-made code, no Python builtins
        main: Callable[..., Any] = ns["_main"]
        return main

    return load


install_compiler(compile_dynamic)
