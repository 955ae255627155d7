"""Errors of the platform Config stage.

A config can be wrong in many places at once, and users fix them in one go only if they see
all of them, so validation never stops at the first problem: it collects `FieldError`s and
raises one `ConfigInvalid` carrying the whole list.
"""

from __future__ import annotations

import attrs

from syncpatch.runtime.errors import SyncpatchError


@attrs.frozen
class FieldError:
    """One problem at one field.

    `path` uses the wire (camelCase) names, dots for keys and `[i]` for list items, relative
    to the document that was validated (`auth.connectors[2].gitHostB.redirectURI`).
    `line` and `column` are 1-based positions in the YAML source when known.
    """

    path: str
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        return f"{self.path or '<root>'}: {self.message}"

    def located(self, source: str) -> str:
        """`file:line:column: path: message`, the form compilers and editors understand."""
        if self.line is None:
            return f"{source}: {self}"
        return f"{source}:{self.line}:{self.column or 1}: {self}"


class ConfigInvalid(SyncpatchError):
    """A platform config or Config object failed validation; `.errors` lists every problem."""

    def __init__(self, errors: list[FieldError], source: str = "<raw>") -> None:
        self.errors: list[FieldError] = sorted(errors, key=_order)
        self.source = source
        super().__init__(self._summary())

    def _summary(self) -> str:
        count = len(self.errors)
        head = f"{count} error{'s' if count != 1 else ''} in platform config"
        return "\n".join([head, *(f"  {e.located(self.source)}" for e in self.errors)])

    def __reduce__(self) -> tuple[type[ConfigInvalid], tuple[list[FieldError], str]]:
        return (ConfigInvalid, (self.errors, self.source))


def _order(error: FieldError) -> tuple[int, int, str, str]:
    """Errors read top to bottom as in the file; unlocated ones last, then by path."""
    line = error.line if error.line is not None else 1 << 30
    return (line, error.column or 0, error.path, error.message)
