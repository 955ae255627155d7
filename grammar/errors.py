"""Errors with positions in a script, the one place where parser failures become messages.

A :class:`Located` error renders as ``origin:line:col: message`` followed by the offending
source line and a caret; it pickles (``__reduce__``) so it crosses process boundaries. The
grammar stage raises :class:`GrammarError`; it imports nothing of the other stages, so the
compiler, where it calls the parser, raises it again as ``CompileError``, which is a
``SyncpatchError`` with the same fields and text (``compiler/errors.py``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["Located", "GrammarError", "Span", "describe_terminal", "MISTAKES", "hint_for"]


class Span:
    """A source range: 1-based line/column of the start, and the end (exclusive)."""

    __slots__ = ("line", "column", "end_line", "end_column")

    def __init__(self, line: int, column: int, end_line: int | None = None, end_column: int | None = None) -> None:
        self.line = line
        self.column = column
        self.end_line = line if end_line is None else end_line
        self.end_column = column + 1 if end_column is None else end_column

    def __repr__(self) -> str:
        return f"{self.line}:{self.column}-{self.end_line}:{self.end_column}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Span) and (self.line, self.column, self.end_line, self.end_column) == (
            other.line, other.column, other.end_line, other.end_column)

    def __hash__(self) -> int:
        return hash((self.line, self.column, self.end_line, self.end_column))


class Located(Exception):
    """A message about a place in a script (see the module docstring).

    ``refused`` is true for valid JavaScript that syncpatch declines (``class``, ``eval``, ...),
    so a caller such as the conformance runner can tell it from a syntax error."""

    def __init__(
        self,
        message: str,
        span: Span | None = None,
        source: str = "",
        origin: str = "<expression>",
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        refused: bool = False,
    ) -> None:
        if span is None:
            span = Span(line or 1, column or 1)
        super().__init__(message)
        self.message = message
        self.span = span
        self.source = source
        self.origin = origin
        self.hint = hint
        self.refused = refused

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.message, self.span.line, self.span.column, self.span.end_line,
                           self.span.end_column, self.source, self.origin, self.hint, self.refused))

    def __str__(self) -> str:
        head = f"{self.origin}:{self.line}:{self.column}: {self.message}"
        lines = self.source.splitlines()
        if 1 <= self.line <= len(lines):
            text = lines[self.line - 1]
            width = 1
            if self.span.end_line == self.line and self.span.end_column > self.column:
                width = self.span.end_column - self.column
            head += f"\n    {text}\n    {' ' * (self.column - 1)}{'^' * max(1, min(width, 80))}"
        if self.hint:
            head += f"\n  hint: {self.hint}"
        return head


def _rebuild(cls: type[Located], message: str, line: int, column: int, end_line: int, end_column: int,
             source: str, origin: str, hint: str | None, refused: bool) -> Located:
    return cls(message, Span(line, column, end_line, end_column), source, origin, hint=hint, refused=refused)


class GrammarError(Located):
    """A script the grammar stage rejects: a syntax error, an early error the parser sees, or
    a construct the lexer refuses."""


_WORDS = {
    "IDENT": "an identifier", "NUMBER": "a number", "STRING": "a string", "REGEX": "a regular expression",
    "TEMPLATE_FULL": "a template literal", "TEMPLATE_HEAD": "a template literal",
    "TEMPLATE_MIDDLE": "'}' of a template substitution", "TEMPLATE_TAIL": "'}' of a template substitution",
    "BLOCK_LBRACE": "'{'", "FUNCTION_DECL": "'function'", "$END": "the end of the script",
    "VAR_KIND": "'var', 'let' or 'const'", "ASSIGN_OP": "an assignment operator", "EQ_OP": "'=='",
    "REL_OP": "'<'", "SHIFT_OP": "'<<'", "ADD_OP": "'+' or '-'", "MUL_OP": "'*'", "UNARY_OP": "'typeof'",
    "INCDEC": "'++'", "QDOT": "'?.'", "OF": "'of'",
}


def describe_terminal(name: str, pattern: str | None = None) -> str:
    """A terminal name in words, for "expected ..." messages."""
    if name in _WORDS:
        return _WORDS[name]
    if pattern is not None:
        return f"'{pattern}'"
    return name.lower()


#: common mistakes in patch expressions: (predicate on the source, hint)
MISTAKES: list[tuple[str, str]] = [
    ("unquoted-dash", "a bare word with '-' is subtraction; did you mean a string such as \"vcp-eks\"?"),
    ("single-quoted-path", "a path key in single quotes inside a string needs escaping or double quotes"),
    ("object-at-start", "a '{' at the start of a script is a block; wrap an object literal in parentheses"),
    ("arrow-object", "an arrow body starting with '{' is a block; wrap an object literal in parentheses"),
]


def hint_for(source: str, offset: int, found: str) -> str | None:
    """A hint for a recognisable mistake near ``offset`` (``found`` is the rejected token)."""
    before = source[:offset].rstrip()
    if found == ":" and before.endswith("=> {" + source[before.rfind("{") + 1:offset].strip()) and "=>" in before:
        return MISTAKES[3][1]
    if found == ":" and source.lstrip().startswith("{") and "=>" not in before:
        return MISTAKES[2][1]
    if found == "STRING" and before.endswith("'") or source.count("'") % 2 == 1 and "'" in source[offset:]:
        return MISTAKES[1][1]
    word = source[offset:].split(None, 1)[0] if source[offset:].strip() else ""
    if "-" in before[-20:] and word.replace("-", "").isalnum():
        return MISTAKES[0][1]
    return None
