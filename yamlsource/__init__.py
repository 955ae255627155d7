"""YAML with positions: parse documents and find where any field, or any character inside a
string scalar, sits in the file.

Both config readers report problems as ``file:line:column``: the patch compiler points *into*
a patch expression (a compile error at line 2, column 7 of a ``|`` block lands elsewhere in the
file), the platform Config points at a field's key or value. So a document keeps PyYAML's node
tree next to its data, and for a string scalar we rebuild its value from the raw text with a
map from each value character to the file offset it came from, check that the rebuilt value
equals PyYAML's, and otherwise align the value against the source greedily (in the worst case,
the scalar's start).

The loader is PyYAML's safe loader without timestamp resolution: Kubernetes timestamps and
version strings stay strings, as in ``sigs.k8s.io/yaml``. Configs may come from users over an
API, so the node tree is bounded (values after expanding aliases, nesting depth, aliases that
contain themselves) before anything constructs it.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

import attrs
import yaml

__all__ = ["Part", "YamlDocument", "YamlSyntaxError", "DuplicateKey", "MAX_NODES", "MAX_DEPTH",
           "load_yaml", "load_yaml_documents", "load_data", "load_data_all", "scalar_offsets", "block_offset"]

Part = str | int
MAX_NODES = 100_000
MAX_DEPTH = 64
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"

_SIMPLE_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
    "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


class _Loader(yaml.SafeLoader):
    """Safe loader without timestamp resolution: Kubernetes keeps timestamps as strings."""

    yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != _TIMESTAMP]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


class _DataLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """``_Loader``'s resolvers on PyYAML's C parser where it has one: plain data, fast."""

    yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers


def load_data(text: str, *, reword: bool = True) -> Any:
    """The one document of ``text`` as plain data, resolved as configs are (timestamps and
    dates stay text, as ``sigs.k8s.io/yaml`` keeps them), without positions or bounds: the
    Kubernetes objects a user hands the command line or a test case. Bad YAML raises
    :class:`YamlSyntaxError` (line and column, and what is wrong, as configs report it);
    ``reword=False`` (a server's request bodies) keeps the C parser's wording and never spends
    a second parse on bad input."""
    return _data(text, yaml.load, _REWORD_LIMIT if reword else -1)


def load_data_all(text: str) -> list[Any]:
    """Every document of ``text`` as ``load_data`` reads one (a ``kind: List`` of many objects
    is not bounded: it is the user's own input, not a request)."""
    documents: list[Any] = _data(text, lambda t, Loader: list(yaml.load_all(t, Loader=Loader)), _REWORD_LIMIT)
    return documents


#: the longest bad text read again by the Python parser for its wording (``_data``): it is
#: tens of times slower than the C one
_REWORD_LIMIT = 16 * 1024


def _data(text: str, load: Any, reword_limit: int) -> Any:
    """``load`` with the C parser; on bad YAML no longer than ``reword_limit``, again with the
    Python one, whose errors ``_marked_error`` words as configs' are (an unclosed bracket where
    it opened)."""
    try:
        return load(text, Loader=_DataLoader)
    except (yaml.YAMLError, RecursionError) as exc:
        if len(text) > reword_limit:
            raise _syntax_error(exc, text) from None
    try:
        return load(text, Loader=_Loader)
    except (yaml.YAMLError, RecursionError) as exc:
        raise _syntax_error(exc, text) from None


class YamlSyntaxError(Exception):
    """The text is not YAML we accept; ``line``/``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message, line, column)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


@attrs.frozen
class DuplicateKey:
    """A mapping key written twice (the data keeps the last value); 1-based position."""

    path: tuple[Part, ...]
    line: int
    column: int


@attrs.frozen
class YamlDocument:
    """One parsed YAML document: the data, the node tree and the text it came from."""

    filename: str
    text: str
    data: Any
    node: yaml.Node | None
    duplicates: tuple[DuplicateKey, ...] = ()
    _line_starts: tuple[int, ...] = attrs.field(default=(0,), eq=False, repr=False)

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset into the text."""
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def node_at(self, path: Sequence[Part]) -> tuple[yaml.Node | None, yaml.Node | None, int]:
        """(value node, key node, depth reached): the deepest node along ``path``."""
        node, key_node, depth = self.node, None, 0
        for part in path:
            child = _child(node, part)
            if child is None:
                break
            key_node, node = child
            depth += 1
        return node, key_node, depth

    def locate(self, path: Sequence[Part], *, at_key: bool = False) -> tuple[int, int] | None:
        """Where ``path`` sits: its value, or its key with ``at_key``; for an absent path, the
        key of its nearest present ancestor. ``None`` for an empty document."""
        node, key_node, depth = self.node_at(path)
        if node is None:
            return None
        exact = depth == len(path)
        mark = key_node.start_mark if key_node is not None and (at_key or not exact) else node.start_mark
        return mark.line + 1, mark.column + 1

    def position(self, path: Sequence[Part], *, at_key: bool = False) -> tuple[int, int]:
        """``locate``, with the start of the file for an empty document."""
        return self.locate(path, at_key=at_key) or (1, 1)

    def scalar_position(self, path: Sequence[Part], line: int, column: int) -> tuple[int, int]:
        """File position of ``line``:``column`` (1-based) inside the string scalar at ``path``."""
        node, _, depth = self.node_at(path)
        if node is None or depth != len(path) or not isinstance(node, yaml.ScalarNode):
            return self.position(path)
        offsets = scalar_offsets(node, self.text)
        index = _value_index(str(node.value), line, column)
        index = max(0, min(index, len(offsets) - 1))
        return self.line_col(offsets[index])

    def source_text(self) -> str:
        """The text of this document alone (comments before it are not included)."""
        if self.node is None:
            return self.text
        return str(self.text[self.node.start_mark.index:self.node.end_mark.index]).rstrip() + "\n"


def _child(node: yaml.Node | None, part: Part) -> tuple[yaml.Node | None, yaml.Node] | None:
    if isinstance(node, yaml.MappingNode):
        found = None
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != _MERGE and key_node.value == str(part):
                found = (key_node, value_node)  # the last duplicate wins, as in the data
        return found
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
        return None, node.value[part]
    return None


def _value_index(value: str, line: int, column: int) -> int:
    """Character index of a 1-based line/column within ``value`` (lines split on ``\\n``)."""
    index = 0
    for _ in range(max(line, 1) - 1):
        newline = value.find("\n", index)
        if newline < 0:
            return len(value)
        index = newline + 1
    return index + max(column, 1) - 1


def load_yaml(text: str, filename: str = "<string>") -> YamlDocument:
    """Parse exactly one YAML document (an empty text has data ``None``); bad YAML raises
    :class:`YamlSyntaxError`."""
    docs = load_yaml_documents(text, filename)
    if not docs:
        return YamlDocument(filename, text, None, None, (), _line_starts(text))
    if len(docs) > 1:
        second = docs[1].node
        line, column = (second.start_mark.line + 1, 1) if second is not None else (1, 1)
        raise YamlSyntaxError("invalid YAML: expected one document, found several", line, column)
    return docs[0]


def load_yaml_documents(text: str, filename: str = "<string>") -> list[YamlDocument]:
    """Parse every YAML document in ``text``; bad or oversized YAML raises :class:`YamlSyntaxError`."""
    try:
        loader = _Loader(text)  # the reader rejects control characters here, up front
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text) from None
    starts = _line_starts(text)
    docs: list[YamlDocument] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            assert node is not None  # check_node() said another document follows
            duplicates: list[DuplicateKey] = []
            _Walker(duplicates).walk(node, ())
            data = loader.construct_document(node)
            docs.append(YamlDocument(filename, text, data, node, tuple(duplicates), starts))
    except YamlSyntaxError:
        raise
    except (yaml.YAMLError, RecursionError) as exc:
        raise _syntax_error(exc, text) from None
    finally:
        loader.dispose()
    return docs


def _line_starts(text: str) -> tuple[int, ...]:
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return tuple(starts)


def _syntax_error(exc: BaseException, text: str) -> YamlSyntaxError:
    """A PyYAML error (or the recursion of a too deeply nested text) as every reader here
    reports it: what is wrong, at a 1-based line and column."""
    if isinstance(exc, RecursionError):
        return YamlSyntaxError("invalid YAML: nested too deeply", 1, 1)
    if isinstance(exc, yaml.MarkedYAMLError):
        return _marked_error(exc, text)
    if isinstance(exc, yaml.reader.ReaderError):
        return _reader_error(exc, text)
    return YamlSyntaxError(f"invalid YAML: {exc}", 1, 1)


def _reader_error(exc: Any, text: str) -> YamlSyntaxError:
    """A character YAML forbids (control characters): say which, and where."""
    before = text[: exc.position]
    line = before.count("\n") + 1
    column = exc.position - (before.rfind("\n") + 1) + 1
    return YamlSyntaxError(f"invalid YAML: character U+{exc.character:04X} is not allowed", line, column)


def _marked_error(exc: yaml.MarkedYAMLError, text: str) -> YamlSyntaxError:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "malformed YAML"
    context = f" ({exc.context})" if exc.context and exc.problem else ""
    ended = any(end in (exc.problem or "") for end in ("end of stream", "<stream end>"))
    opened = text[exc.context_mark.index:exc.context_mark.index + 1] if exc.context_mark else ""
    if exc.context_mark is not None and exc.context and ended and ("quoted scalar" in exc.context
                                                                   or opened in ("[", "{")):
        # an unclosed quote or bracket: point where it opened, not past the end of the file
        mark = exc.context_mark
        expected = (exc.problem or "").split(", but")[0]
        problem = ("unterminated quoted string: the quote opened here is never closed"
                   if "quoted scalar" in exc.context else
                   f"this {opened!r} is never closed ({expected} before the end of the file)")
        context = ""
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    lines = text.splitlines() or [""]
    if line > len(lines):  # the end of the file: show its last line
        line, column = len(lines), len(lines[-1]) + 1
    return YamlSyntaxError(f"invalid YAML: {problem}{context}", line, column)


def _pos(mark: yaml.Mark) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


@attrs.define
class _Walker:
    """Bounds the node tree and records duplicate keys, before anything constructs the data.

    Aliases let a few bytes of YAML expand to billions of nodes ("billion laughs") or refer
    to themselves, so the expansion is counted and capped first.
    """

    duplicates: list[DuplicateKey]
    count: int = 0
    active: set[int] = attrs.field(factory=set)

    def walk(self, node: yaml.Node, path: tuple[Part, ...]) -> None:
        self.count += 1
        if self.count > MAX_NODES:
            raise self._too_big(node, f"document too large: more than {MAX_NODES} values (after expanding aliases)")
        if len(path) > MAX_DEPTH:
            raise self._too_big(node, f"document nested too deeply: more than {MAX_DEPTH} levels")
        if id(node) in self.active:
            raise self._too_big(node, "an alias refers to a node that contains it (recursive structure)")
        self.active.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                self.walk(item, (*path, index))
        elif isinstance(node, yaml.MappingNode):
            self._mapping(node, path)
        self.active.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: tuple[Part, ...]) -> None:
        seen: set[str] = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE:
                continue
            name = str(key_node.value)
            if name in seen:
                self.duplicates.append(DuplicateKey((*path, name), *_pos(key_node.start_mark)))
            seen.add(name)
            self.walk(value_node, (*path, name))

    @staticmethod
    def _too_big(node: yaml.Node, message: str) -> YamlSyntaxError:
        return YamlSyntaxError(message, *_pos(node.start_mark))


def block_offset(node: yaml.Node, text: str) -> tuple[int, int] | None:
    """Line and column offsets of a literal block scalar's content within the file.

    A YAML document inside a ``|`` block (``spec.raw``) can then have its errors reported at
    their real position. Only the literal style keeps lines one to one.
    """
    if not isinstance(node, yaml.ScalarNode) or node.style != "|":
        return None
    lines = text.splitlines()
    first = node.start_mark.line + 1
    for number in range(first, min(len(lines), node.end_mark.line + 1)):
        content = lines[number]
        if content.strip():
            indent = len(content) - len(content.lstrip(" "))
            return (first, indent)
    return None


def scalar_offsets(node: yaml.ScalarNode, text: str) -> list[int]:
    """For each character of the scalar's value, its offset in ``text``; plus one end offset.

    The extra last entry is "just after the value", where an unexpected-end error points.
    """
    value = str(node.value)
    start, end = node.start_mark.index, node.end_mark.index
    for scanner in (_exact_offsets, _greedy_offsets):
        offsets = scanner(node, text, start, end)
        if offsets is not None and len(offsets) == len(value) + 1:
            return offsets
    return [start] * (len(value) + 1)


def _exact_offsets(node: yaml.ScalarNode, text: str, start: int, end: int) -> list[int] | None:
    style = node.style
    if style == "|":
        chars, offsets = _literal(text, start, end, str(node.value))
    elif style == ">":
        return None
    else:
        chars, offsets = _flow(text, start, end, style)
    if "".join(chars) != node.value:
        return None
    return offsets + [_after(offsets, start)]


def _after(offsets: list[int], start: int) -> int:
    return offsets[-1] + 1 if offsets else start


def _literal(text: str, start: int, end: int, value: str) -> tuple[list[str], list[int]]:
    """A ``|`` block keeps lines one to one: each value line is a suffix of its source line."""
    first = text.find("\n", start) + 1
    chars: list[str] = []
    offsets: list[int] = []
    line_start = first
    for piece in value.split("\n")[: value.count("\n") + 1]:
        line_end = text.find("\n", line_start)
        line_end = len(text) if line_end < 0 else line_end
        if line_end > line_start and text[line_end - 1] == "\r":
            line_end -= 1  # CRLF files: the content ends before the carriage return
        column = line_end - len(piece) if text[line_start:line_end].endswith(piece) else line_start
        chars.extend(piece)
        offsets.extend(range(column, column + len(piece)))
        chars.append("\n")
        offsets.append(line_end)
        line_start = text.find("\n", line_end) + 1 or len(text)
    return chars[: len(value)], offsets[: len(value)]


def _flow(text: str, start: int, end: int, style: str | None) -> tuple[list[str], list[int]]:
    """Plain, single- and double-quoted scalars: line folding plus the quoted styles' escapes."""
    quoted = style in ("'", '"')
    i, stop = (start + 1, end - 1) if quoted else (start, end)
    chars: list[str] = []
    offsets: list[int] = []
    while i < stop:
        char = text[i]
        if char in " \t":
            j = i
            while j < stop and text[j] in " \t":
                j += 1
            if j < stop and text[j] in "\r\n":
                i = j  # trailing white space before a line break is dropped
                continue
            chars.extend(text[i:j])
            offsets.extend(range(i, j))
            i = j
        elif char in "\r\n":
            i = _fold(text, i, stop, chars, offsets)
        elif style == '"' and char == "\\":
            i = _escape(text, i, stop, chars, offsets)
        elif style == "'" and char == "'" and i + 1 < stop and text[i + 1] == "'":
            chars.append("'")
            offsets.append(i)
            i += 2
        else:
            chars.append(char)
            offsets.append(i)
            i += 1
    return chars, offsets


def _skip_break(text: str, i: int) -> int:
    return i + 2 if text.startswith("\r\n", i) else i + 1


def _fold(text: str, i: int, stop: int, chars: list[str], offsets: list[int]) -> int:
    """A line break folds to a space; each following empty line to one ``\\n``."""
    at = i
    i = _skip_break(text, i)
    empty = 0
    while True:
        j = i
        while j < stop and text[j] in " \t":
            j += 1
        if j < stop and text[j] in "\r\n":
            empty += 1
            i = _skip_break(text, j)
            continue
        i = j
        break
    chars.extend("\n" * empty if empty else " ")
    offsets.extend([at] * (empty or 1))
    return i


def _escape(text: str, i: int, stop: int, chars: list[str], offsets: list[int]) -> int:
    """One double-quoted escape; the value character maps to its backslash."""
    code = text[i + 1] if i + 1 < stop else ""
    if code in "\r\n" and code:
        j = _skip_break(text, i + 1)
        while j < stop and text[j] in " \t":
            j += 1
        return j
    if code in _SIMPLE_ESCAPES:
        chars.append(_SIMPLE_ESCAPES[code])
        offsets.append(i)
        return i + 2
    width = _HEX_ESCAPES.get(code, 0)
    try:
        chars.append(chr(int(text[i + 2 : i + 2 + width], 16)))
    except ValueError:
        chars.append(text[i])
        offsets.append(i)
        return i + 1
    offsets.append(i)
    return i + 2 + width


def _greedy_offsets(node: yaml.ScalarNode, text: str, start: int, end: int) -> list[int] | None:
    """Align each value character with the next source character that could have produced it.

    Exact for every non-blank character of folded blocks; white space may drift by a column,
    which no diagnostic points at.
    """
    offsets: list[int] = []
    j = start
    for char in str(node.value):
        while j < end and not (text[j] == char or (text[j] == "\n" and char in " \n")):
            j += 1
        if j >= end:
            return None
        offsets.append(j)
        j += 1
    return offsets + [_after(offsets, start)]
