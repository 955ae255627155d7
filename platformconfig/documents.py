"""The platform config's YAML documents: ``syncpatch.yamlsource`` (YAML with positions), with
its problems turned into located `FieldError`s and field paths written in the wire form
(`auth.connectors[2].oidc`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from syncpatch.yamlsource import Part, YamlDocument, YamlSyntaxError, load_yaml_documents

from .errors import ConfigInvalid, FieldError

__all__ = ["Document", "Part", "format_path", "load_documents", "load_document", "structural_errors",
           "located_error"]

Document = YamlDocument
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


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
    try:
        return load_yaml_documents(text, source)
    except YamlSyntaxError as exc:
        raise ConfigInvalid([FieldError("", exc.message, exc.line, exc.column)], source) from None


def load_document(text: str, source: str = "<raw>") -> Document:
    """Parse exactly one YAML document; an empty text is an empty mapping."""
    docs = load_documents(text, source)
    if not docs:
        return Document(source, text, {}, None)
    if len(docs) > 1:
        raise ConfigInvalid([FieldError("", "expected one YAML document, found several")], source)
    return docs[0]


def structural_errors(doc: Document) -> list[FieldError]:
    """What the YAML itself gets wrong beyond syntax: keys written twice."""
    return [FieldError(format_path(d.path), "duplicate key", d.line, d.column) for d in doc.duplicates]


def located_error(doc: Document | None, path: Sequence[Part], message: str, *, at_key: bool = False) -> FieldError:
    """A `FieldError` for `path`, located from the source when there is one."""
    where = doc.locate(path, at_key=at_key) if doc is not None else None
    line, column = where if where is not None else (None, None)
    return FieldError(format_path(path), message, line, column)
