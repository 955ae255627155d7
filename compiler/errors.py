"""The compiler's public error: a script that cannot be compiled.

``CompileError`` is a ``SyncpatchError`` (the root lives in the runtime, which the compiler
imports) with the text and fields of the grammar stage's ``Located`` errors. The grammar
stage imports nothing of ours, so its ``GrammarError`` is raised again as a ``CompileError``
where the compiler calls the parser (``emit.front``): callers only ever see this class.
"""

from __future__ import annotations

from syncpatch.grammar.errors import GrammarError, Located
from syncpatch.runtime.errors import SyncpatchError

__all__ = ["CompileError"]


class CompileError(Located, SyncpatchError):
    """A script that cannot be compiled: a syntax error, an early error or a refused construct."""

    @classmethod
    def from_grammar(cls, error: GrammarError) -> "CompileError":
        return cls(error.message, error.span, error.source, error.origin, hint=error.hint, refused=error.refused)
