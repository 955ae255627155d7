"""The patch path language, parsed once into a tuple of typed segments.

Grammar (vCluster's patch paths, with two deliberate improvements noted below)::

    path     := segment? ( "." segment? | "[" bracket "]" )*
    segment  := plain | quoted
    plain    := one or more characters other than . [ ] " '
    quoted   := '"' ( any character but '"' or '\\' | '\\' any character )* '"'
    bracket  := quoted | one or more characters other than [ ] " '

* ``a.b.c`` walks map keys (a plain segment of digits also indexes a list, so that a
  ``context.path`` such as ``spec.ports.0.name`` is itself a valid path);
* ``list[*]`` / ``map[*]`` (and ``.*``, ``["*"]``) is a wildcard over every element or key;
* ``list[3]`` indexes a list; ``map["key"]`` and ``map[key]`` (vCluster reads them alike)
  name a map key and, as the *last* segment, run the patch even when the key is missing (so
  it can create it);
* ``a."dotted.key".b`` is a plain key that may contain dots or brackets;
* the path is trimmed, and leading and doubled dots are ignored, as vCluster's splitter does.

Improvements over vCluster: a single-quoted key (``map['key']``) is an error suggesting double
quotes rather than a path that silently never matches, a negative index is an error rather
than a run-time failure, and every error names its column.

Parsing is cached: plans parse their paths at compile time, and the cache makes repeated
compilation of the same config cheap.
"""

from __future__ import annotations

import functools
from typing import Union

import attrs

from .errors import SyncpatchError

__all__ = [
    "Key",
    "Index",
    "Wildcard",
    "WILDCARD",
    "Segment",
    "PathError",
    "parse_path",
    "format_concrete_path",
    "format_segments",
    "has_wildcard",
]


@attrs.frozen
class Key:
    """A map key. ``bracket`` is true for the ``["key"]`` form, which may create the key when it
    is the last segment; ``quoted`` records the ``."key"`` form for faithful re-printing, and
    is no part of a key's identity (``."a"`` and ``.a`` name the same key)."""

    name: str
    bracket: bool = False
    quoted: bool = attrs.field(default=False, eq=False)


@attrs.frozen
class Index:
    """A list index (``[3]``); out-of-range indexes match nothing."""

    index: int


@attrs.frozen
class Wildcard:
    """``[*]``: every element of a list or every key of a map, each patched separately."""


WILDCARD = Wildcard()

Segment = Union[Key, Index, Wildcard]

_SPECIAL = frozenset('.[]"\'')


class PathError(SyncpatchError, ValueError):
    """A path that does not parse. ``column`` is 1-based within ``path``."""

    def __init__(self, message: str, path: str, column: int) -> None:
        super().__init__(message, path, column)
        self.message = message
        self.path = path
        self.column = column

    def __str__(self) -> str:
        caret = " " * (self.column - 1) + "^"
        return f"invalid path at column {self.column}: {self.message}\n  {self.path}\n  {caret}"

    def __reduce__(self) -> tuple[type, tuple[str, str, int]]:
        return (type(self), (self.message, self.path, self.column))


#: what Go's ``strings.TrimSpace`` removes (``unicode.IsSpace``), which vCluster applies to
#: every path first; Python's ``str.strip`` would also remove U+001C..U+001F
_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


@functools.lru_cache(maxsize=4096)
def parse_path(path: str) -> tuple[Segment, ...]:
    """Parse ``path`` into segments; ``""`` (the whole object) parses to ``()``. Surrounding
    white space is ignored, as vCluster trims paths; error columns still count from the
    start of ``path``."""
    trimmed = path.strip(_GO_SPACE)
    if trimmed is path or trimmed == path:
        return _Parser(path).parse()
    lead = len(path) - len(path.lstrip(_GO_SPACE))
    try:
        return _Parser(trimmed).parse()
    except PathError as exc:
        raise PathError(exc.message, path, exc.column + lead) from None


class _Parser:
    """A hand-written scanner: the language is tiny and errors need exact columns."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.segments: list[Segment] = []

    def error(self, message: str, pos: int | None = None) -> PathError:
        at = self.pos if pos is None else pos
        return PathError(message, self.text, at + 1)

    def parse(self) -> tuple[Segment, ...]:
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch == ".":
                self.pos += 1
            elif ch == "[":
                self.parse_bracket()
                self.expect_separator()
            elif ch == '"':
                key = self.parse_quoted()
                self.segments.append(WILDCARD if key == "*" else Key(key, quoted=True))
                self.expect_separator()
            elif ch == "'":
                raise self.error(
                    "single-quoted keys are not supported; use double quotes, "
                    f'e.g. ."{self.single_quoted_body()}"'
                )
            elif ch == "]":
                raise self.error("unexpected ']' without a matching '['")
            else:
                self.parse_plain()
        return tuple(self.segments)

    def single_quoted_body(self) -> str:
        end = self.text.find("'", self.pos + 1)
        return self.text[self.pos + 1 : end] if end > 0 else "key"

    def expect_separator(self) -> None:
        if self.pos < len(self.text) and self.text[self.pos] not in ".[":
            raise self.error(
                f"expected '.' or '[' after a bracket or quoted key, found {self.text[self.pos]!r}"
            )

    def parse_plain(self) -> None:
        start = self.pos
        text = self.text
        while self.pos < len(text) and text[self.pos] not in _SPECIAL:
            self.pos += 1
        name = text[start : self.pos]
        if self.pos < len(text) and text[self.pos] in "\"'":
            raise self.error(
                "a quote may only start a segment; quote the whole key, e.g. "
                f'a."{name}..." or a["{name}..."]'
            )
        self.segments.append(WILDCARD if name == "*" else Key(name))

    def parse_quoted(self) -> str:
        """Scan a double-quoted key starting at ``self.pos``; ``\\`` escapes the next char."""
        start = self.pos
        self.pos += 1
        out: list[str] = []
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch == "\\" and self.pos + 1 < len(text):
                out.append(text[self.pos + 1])
                self.pos += 2
            elif ch == '"':
                self.pos += 1
                return "".join(out)
            else:
                out.append(ch)
                self.pos += 1
        raise self.error("unterminated double-quoted key", start)

    def parse_bracket(self) -> None:
        open_pos = self.pos
        self.pos += 1
        text = self.text
        if self.pos >= len(text):
            raise self.error("unterminated '[': expected *, an index or a double-quoted key")
        ch = text[self.pos]
        if ch == '"':
            key = self.parse_quoted()
            # vCluster drops the quotes before it looks at the segment: ["*"] is [*]
            self.segments.append(WILDCARD if key == "*" else Key(key, bracket=True))
        elif ch == "'":
            raise self.error(
                "single-quoted keys are not supported; use double quotes, "
                f'e.g. ["{self.single_quoted_body()}"]'
            )
        else:
            self.segments.append(self.parse_bare_bracket())
        if self.pos >= len(text) or text[self.pos] != "]":
            raise self.error(f"missing ']' to close the '[' at column {open_pos + 1}")
        self.pos += 1


    def parse_bare_bracket(self) -> Segment:
        """Unquoted text inside [ ]: ``*`` is the wildcard, digits an index, anything else a
        key, exactly as ``["key"]`` (vCluster reads ``[key]`` and ``["key"]`` alike)."""
        start = self.pos
        text = self.text
        while self.pos < len(text) and text[self.pos] not in '[]"\'':
            self.pos += 1
        body = text[start : self.pos]
        if self.pos < len(text) and text[self.pos] != "]":
            raise self.error(f"unexpected {text[self.pos]!r} inside [ ]: write the key whole, e.g. [\"{body}...\"]")
        if not body:
            raise self.error('empty [ ]: expected *, an index or a key, e.g. [0] or ["key"]')
        if body == "*":
            return WILDCARD
        if body[0] == "-" and body[1:].isdigit():
            raise self.error("expected a non-negative index (vCluster fails on a negative one)", start)
        if body.isdigit() and body.isascii():
            return Index(int(body))
        return Key(body, bracket=True)


def _quote(key: str) -> str:
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _needs_quotes(key: str) -> bool:
    return "." in key or "[" in key or "]" in key


def _reprint_needs_quotes(key: str) -> bool:
    """A plain key that would not read back as itself: besides the separators, white space at
    its edges (trimmed from a whole path, so ``"0 ."`` has the key ``"0 "``) and a leading quote."""
    return _needs_quotes(key) or not key or key.strip(_GO_SPACE) != key or key[0] in "\"'"


def format_concrete_path(parts: tuple[str | int, ...] | list[str | int]) -> str:
    """Render a concrete matched path as ``context.path`` shows it.

    Parts are joined with dots, list indexes appear as numbers, and keys containing ``.``,
    ``[`` or ``]`` are wrapped in double quotes: ``spec.ports.0.name``,
    ``metadata.annotations."example.com/key"``.
    """
    out = []
    for part in parts:
        if type(part) is int:
            out.append(str(part))
        else:
            key = str(part)
            out.append(_quote(key) if _needs_quotes(key) else key)
    return ".".join(out)


def format_segments(segments: tuple[Segment, ...]) -> str:
    """Print segments back as a canonical path string (used in messages and artifacts)."""
    out: list[str] = []
    for seg in segments:
        if isinstance(seg, Wildcard):
            out.append("[*]")
        elif isinstance(seg, Index):
            out.append(f"[{seg.index}]")
        elif seg.bracket:
            out.append(f"[{_quote(seg.name)}]")
        else:
            text = _quote(seg.name) if (seg.quoted or _reprint_needs_quotes(seg.name)) else seg.name
            out.append(("." if out else "") + text)
    return "".join(out)


def has_wildcard(segments: tuple[Segment, ...]) -> bool:
    """True when a path can match more than one location."""
    return any(isinstance(seg, Wildcard) for seg in segments)
