"""YAML with positions: parse a document and remember where every field sits.

Diagnostics name `file:line:column`, so the parser keeps PyYAML's node marks for each field
path. The loader is the safe loader minus timestamp resolution: Kubernetes timestamps and
version strings must stay strings, as they do in `sigs.k8s.io/yaml`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs
import yaml

from .errors import ConfigInvalid, FieldError

Part = str | int
Path = tuple[Part, ...]
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


class Loader(yaml.SafeLoader):
    """Safe loader that leaves RFC 3339 timestamps as strings."""

    yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != _TIMESTAMP]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


@attrs.frozen
class Mark:
    """Where a field's key and value start (1-based); a list item has no key."""

    key: tuple[int, int] | None
    value: tuple[int, int]


@attrs.frozen
class Document:
    """One parsed YAML document: its data, field positions and structural problems."""

    data: Any
    marks: dict[Path, Mark]
    problems: tuple[FieldError, ...] = ()
    node: yaml.Node | None = None

    def locate(self, path: Sequence[Part], *, at_key: bool = False) -> tuple[int, int] | None:
        """Position of `path`, or of its nearest ancestor present in the source."""
        probe = tuple(path)
        while True:
            mark = self.marks.get(probe) or self.marks.get(tuple(map(str, probe)))
            if mark is not None:
                exact = probe == tuple(path)
                if mark.key is not None and (at_key or not exact):
                    return mark.key
                return mark.value
            if not probe:
                return None
            probe = probe[:-1]

    def error(self, path: Sequence[Part], message: str, *, at_key: bool = False) -> FieldError:
        """A `FieldError` for `path`, located from the source when possible."""
        where = self.locate(path, at_key=at_key)
        line, column = where if where is not None else (None, None)
        return FieldError(format_path(path), message, line, column)


def format_path(path: Sequence[Part]) -> str:
    """`("auth", "connectors", 2, "oidc")` -> `auth.connectors[2].oidc`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.match(part):
            out += f".{part}" if out else part
        else:
            out += f"[{_quote(part)}]"
    return out


def _quote(key: str) -> str:
    escaped = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def load_documents(text: str, source: str = "<raw>") -> list[Document]:
    """Parse every YAML document in `text`; bad YAML raises `ConfigInvalid` with its position."""
    loader: Loader | None = None
    docs: list[Document] = []
    try:
        loader = Loader(text)
        while loader.check_node():
            node = loader.get_node()
            assert node is not None  # check_node() said another document follows
            docs.append(_document(loader, node))
    except ConfigInvalid as exc:
        raise ConfigInvalid(exc.errors, source) from None
    except RecursionError:
        raise ConfigInvalid([FieldError("", "invalid YAML: nested too deeply")], source) from None
    except yaml.MarkedYAMLError as exc:
        raise ConfigInvalid([_yaml_error(exc)], source) from None
    except yaml.reader.ReaderError as exc:
        raise ConfigInvalid([_reader_error(exc, text)], source) from None
    except yaml.YAMLError as exc:
        raise ConfigInvalid([FieldError("", f"invalid YAML: {exc}")], source) from None
    finally:
        if loader is not None:
            loader.dispose()
    return docs


def _reader_error(exc: Any, text: str) -> FieldError:
    """A character YAML forbids (control characters): say which, and where."""
    before = text[: exc.position]
    line = before.count("\n") + 1
    column = exc.position - (before.rfind("\n") + 1) + 1
    return FieldError("", f"invalid YAML: character U+{exc.character:04X} is not allowed", line, column)


def load_document(text: str, source: str = "<raw>") -> Document:
    """Parse exactly one YAML document; an empty text is an empty mapping."""
    docs = load_documents(text, source)
    if not docs:
        return Document({}, {})
    if len(docs) > 1:
        raise ConfigInvalid([FieldError("", "expected one YAML document, found several")], source)
    return docs[0]


MAX_NODES = 100_000
MAX_DEPTH = 64


class _TooBig(Exception):
    """The document exceeds the size or depth budget, or an alias refers to itself."""


def _document(loader: Loader, node: yaml.Node) -> Document:
    marks: dict[Path, Mark] = {}
    problems: list[FieldError] = []
    try:
        _Walker(marks, problems).walk(node, (), None)
    except _TooBig as exc:
        line, column = _pos(node.start_mark)
        raise ConfigInvalid([FieldError("", str(exc), line, column)]) from None
    data = loader.construct_document(node)
    return Document(data, marks, tuple(problems), node)


def _pos(mark: yaml.Mark) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


@attrs.define
class _Walker:
    """Records the marks of every field, flags duplicate keys, and bounds the work.

    Aliases let a few bytes of YAML expand to billions of nodes ("billion laughs") or refer
    to themselves; the platform config comes from users over the API, so the expansion is
    counted and capped before anything else walks it.
    """

    marks: dict[Path, Mark]
    problems: list[FieldError]
    count: int = 0
    active: set[int] = attrs.field(factory=set)

    def walk(self, node: yaml.Node, path: Path, key: tuple[int, int] | None) -> None:
        self.count += 1
        if self.count > MAX_NODES:
            raise _TooBig(f"document too large: more than {MAX_NODES} values (after expanding aliases)")
        if len(path) > MAX_DEPTH:
            raise _TooBig(f"document nested too deeply: more than {MAX_DEPTH} levels")
        if id(node) in self.active:
            raise _TooBig("an alias refers to a node that contains it (recursive structure)")
        self.marks[path] = Mark(key, _pos(node.start_mark))
        self.active.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                self.walk(item, (*path, index), None)
        elif isinstance(node, yaml.MappingNode):
            self._mapping(node, path)
        self.active.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: Path) -> None:
        seen: set[str] = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                continue
            name = str(key_node.value)
            child = (*path, name)
            if name in seen:
                line, column = _pos(key_node.start_mark)
                self.problems.append(FieldError(format_path(child), "duplicate key", line, column))
            seen.add(name)
            self.walk(value_node, child, _pos(key_node.start_mark))


def _yaml_error(exc: yaml.MarkedYAMLError) -> FieldError:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or "malformed YAML"
    context = f" ({exc.context})" if exc.context else ""
    message = f"invalid YAML: {problem}{context}"
    if mark is None:
        return FieldError("", message)
    line, column = _pos(mark)
    return FieldError("", message, line, column)


def block_offset(node: yaml.Node, text: str) -> tuple[int, int] | None:
    """Line and column offsets of a literal block scalar's content within the file.

    `spec.raw: |` holds a YAML document inside a YAML document; errors inside it can then be
    reported at their real position. Only the literal style keeps lines one to one.
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
