"""Diagnostics of the ``compile-patches`` build step: one shape for text, rich and JSON output.

A diagnostic is located in the user's YAML file, never in our data structures: editors and CI
annotation formats (GitHub's ``::error file=,line=,col=::``) want ``file:line:column``. The
renderer shows the offending source line with a caret under the span, then the hint, the way
compilers users already know (rustc, clang) do.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Literal, Mapping, Sequence

import attrs
from rich.text import Text

__all__ = [
    "Diagnostic",
    "Severity",
    "render_text",
    "render_plain",
    "render_json",
    "summary_line",
    "has_failures",
    "sort_key",
]

Severity = Literal["error", "warning"]

_STYLES = {"error": "bold red", "warning": "bold yellow"}


@attrs.frozen
class Diagnostic:
    """One problem at a 1-based ``line``/``column`` of ``file``.

    ``length`` is how many characters the caret underlines (at least one); ``code`` is a
    stable, kebab-case identifier that tests and CI filters can match on.
    """

    file: str
    line: int
    column: int
    severity: Severity
    code: str
    message: str
    hint: str | None = None
    length: int = 1

    def to_json(self) -> dict[str, Any]:
        """The machine-readable form: exactly the fields the ``--format json`` contract names."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def sort_key(diag: Diagnostic) -> tuple[str, int, int, str, str]:
    """File order, then position: output is stable whatever order the checks ran in."""
    return (diag.file, diag.line, diag.column, diag.code, diag.message)


def has_failures(diagnostics: Iterable[Diagnostic], *, strict: bool = False) -> bool:
    """Errors always fail the build; warnings only under ``--strict``."""
    return any(d.severity == "error" or strict for d in diagnostics)


def _excerpt(diag: Diagnostic, source: str | None) -> list[Text]:
    if source is None:
        return []
    lines = source.splitlines()
    if not 1 <= diag.line <= len(lines):
        return []
    line_text = lines[diag.line - 1].expandtabs(1)
    gutter = str(diag.line).rjust(5)
    blank = " " * len(gutter)
    caret_col = max(diag.column, 1) - 1
    width = max(1, min(diag.length, max(1, len(line_text) - caret_col)))
    first = Text(f"{gutter} | ", style="blue")
    first.append(line_text)
    second = Text(f"{blank} | ", style="blue")
    second.append(" " * caret_col)
    second.append("^" * width, style=_STYLES[diag.severity])
    return [first, second]


def render_one(diag: Diagnostic, source: str | None) -> Text:
    """``file:line:col: severity[code]: message``, the caret excerpt and the hint."""
    out = Text()
    out.append(f"{diag.location}: ", style="bold")
    out.append(diag.severity, style=_STYLES[diag.severity])
    out.append(f"[{diag.code}]", style=_STYLES[diag.severity])
    out.append(f": {diag.message}", style="bold")
    for line in _excerpt(diag, source):
        out.append("\n")
        out.append_text(line)
    if diag.hint:
        out.append("\n")
        out.append("  hint: ", style="bold cyan")
        out.append(diag.hint)
    return out


def summary_line(diagnostics: Sequence[Diagnostic]) -> str:
    """``2 errors, 1 warning`` (or ``no problems``)."""
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    if not diagnostics:
        return "no problems"
    parts = []
    if errors:
        parts.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return ", ".join(parts)


def render_text(diagnostics: Sequence[Diagnostic], sources: Mapping[str, str]) -> Text:
    """All diagnostics, sorted, separated by blank lines, for a rich console."""
    out = Text()
    for number, diag in enumerate(sorted(diagnostics, key=sort_key)):
        if number:
            out.append("\n\n")
        out.append_text(render_one(diag, sources.get(diag.file)))
    return out


def render_plain(diagnostics: Sequence[Diagnostic], sources: Mapping[str, str]) -> str:
    """The text rendering without styles (what a pipe or a snapshot sees)."""
    return render_text(diagnostics, sources).plain


def excerpt_line(diag: Diagnostic, source: str | None) -> str | None:
    """The source line a diagnostic points at (None when the file has no such line)."""
    lines = (source or "").splitlines()
    return lines[diag.line - 1] if 1 <= diag.line <= len(lines) else None


def render_json(diagnostics: Sequence[Diagnostic], sources: Mapping[str, str] | None = None,
                **extra: Any) -> str:
    """``{"diagnostics": [...], "summary": {...}}``, sorted, one stable document. With
    ``sources``, each diagnostic also carries ``excerpt``: the line it points at."""
    items = [d.to_json() for d in sorted(diagnostics, key=sort_key)]
    if sources is not None:
        for item, diag in zip(items, sorted(diagnostics, key=sort_key)):
            item["excerpt"] = excerpt_line(diag, sources.get(diag.file))
    errors = sum(d.severity == "error" for d in diagnostics)
    document = {
        "diagnostics": items,
        "summary": {"errors": errors, "warnings": len(diagnostics) - errors},
        **extra,
    }
    return json.dumps(document, indent=2, sort_keys=False)
