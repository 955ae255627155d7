"""Checking platform config files: raw platform configs or whole Config objects, per document.

This is what `syncpatch config validate|show` run, kept out of the CLI so it can be tested
and reused. A document with `apiVersion` or `kind` is a Config object: its metadata is
validated, then its `spec.raw`; errors inside a literal block (`raw: |`) point at their real
line in the file.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from syncpatch.yamlsource import block_offset

from .documents import Document, load_documents
from .effective import (apply_defaults, deprecation_warnings, effective_config_with_warnings,
                        status_to_dict)
from .errors import ConfigInvalid, FieldError
from .metadata import ObjectMeta
from .model import API_VERSION, KIND, Config, ConfigSpec, decode_raw
from .validate import validate_config_object, validate_status

DEFAULT_NAME = "platform"
RAW_PREFIX = "spec.raw:"


@attrs.frozen
class Checked:
    """The outcome for one YAML document: the Config with effective status, or errors."""

    kind: Literal["raw", "object"]
    config: Config | None
    errors: tuple[FieldError, ...] = ()
    warnings: tuple[str, ...] = ()


def check_text(text: str, source: str = "<raw>", *, name: str = DEFAULT_NAME) -> list[Checked]:
    """Check every document of `text`; unparseable YAML yields one result with its error."""
    try:
        docs = load_documents(text, source)
    except ConfigInvalid as exc:
        return [Checked("raw", None, tuple(exc.errors))]
    if not docs:
        docs = [Document(source, text, {}, None)]
    return [_check(doc, text, source, name, whole=len(docs) == 1) for doc in docs]


def _check(doc: Document, text: str, source: str, name: str, *, whole: bool) -> Checked:
    data = doc.data
    if isinstance(data, dict) and ("apiVersion" in data or "kind" in data):
        return _check_object(doc, text, source)
    try:
        status = validate_status(data, doc, source=source)
    except ConfigInvalid as exc:
        return Checked("raw", None, tuple(exc.errors))
    raw = text if whole else doc.source_text()
    config = Config(apiVersion=API_VERSION, kind=KIND, metadata=ObjectMeta(name=name),
                    spec=ConfigSpec(raw=raw), status=apply_defaults(status))
    return Checked("raw", config, (), tuple(deprecation_warnings(status)))


def _check_object(doc: Document, text: str, source: str) -> Checked:
    errors: list[FieldError] = []
    try:
        config, warnings = validate_config_object(doc.data, source=source, doc=doc)
    except ConfigInvalid as exc:
        errors.extend(exc.errors)
        config, warnings = None, []
    raw = doc.data.get("spec", {}).get("raw", "") if isinstance(doc.data.get("spec"), dict) else ""
    if not isinstance(raw, str):
        return Checked("object", None, tuple(errors))
    raw, encoded = decode_raw(raw)
    try:
        status, raw_warnings = effective_config_with_warnings(raw, source=source)
    except ConfigInvalid as exc:
        errors.extend(_shift_decoded(doc, exc.errors) if encoded else _shift(doc, text, exc.errors))
        return Checked("object", None, tuple(sorted_errors(errors)))
    if config is None:
        return Checked("object", None, tuple(errors))
    config.status = status
    notes = [*warnings, *(RAW_PREFIX + w for w in raw_warnings)]
    given = doc.data.get("status")
    if given is not None and given != status_to_dict(status):
        notes.append("status: the status in the file differs from the effective config of "
                     "spec.raw and is replaced by it (status is computed, never read)")
    return Checked("object", config, (), tuple(notes))


def _shift_decoded(doc: Document, errors: list[FieldError]) -> list[FieldError]:
    """Errors inside a base64 `spec.raw`: located at `spec.raw`, with the position in the
    decoded text in the message."""
    line, column = doc.locate(("spec", "raw")) or (None, None)
    return [FieldError(RAW_PREFIX + e.path, f"{e.message} (line {e.line}, column {e.column or 1} "
                       "of the base64-decoded text)" if e.line else e.message, line, column)
            for e in errors]


def _shift(doc: Document, text: str, errors: list[FieldError]) -> list[FieldError]:
    """Re-locate errors found inside `spec.raw` to positions in the enclosing file."""
    node, _, depth = doc.node_at(("spec", "raw"))
    offset = block_offset(node, text) if node is not None and depth == 2 else None
    fallback = doc.locate(("spec", "raw"))
    out = []
    for error in errors:
        line, column = fallback if fallback else (None, None)
        if offset is not None and error.line is not None:
            line, column = offset[0] + error.line, offset[1] + (error.column or 1)
        out.append(FieldError(RAW_PREFIX + error.path, error.message, line, column))
    return out


def sorted_errors(errors: list[FieldError]) -> list[FieldError]:
    """Errors in file order, the order `ConfigInvalid` uses."""
    return ConfigInvalid(errors).errors


def to_wire(config: Config) -> dict[str, Any]:
    """A Config as the API returns it: camelCase, unset fields left out, status last."""
    out: dict[str, Any] = config.model_dump(mode="json", by_alias=True, exclude_none=True, exclude={"status"})
    if config.status is not None:
        out["status"] = status_to_dict(config.status)
    return out
