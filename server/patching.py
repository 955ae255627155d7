"""Patch documents: JSON merge patch (RFC 7386), JSON patch (RFC 6902), and apply.

Bad patch documents raise BadRequest (400) or Invalid (422), never anything else, so a
broken client gets a Status it can print.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from . import errors as E

MERGE = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"
STRATEGIC = "application/strategic-merge-patch+json"
APPLY = "application/apply-patch+yaml"
MAX_OPS = 10000
MAX_COPIED_BYTES = 3 * 1024 * 1024  # accumulated size of `copy` values, as the apiserver bounds it


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge recursively, null deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def _pointer(path: Any) -> list[str]:
    if not isinstance(path, str) or (path and not path.startswith("/")):
        raise E.BadRequest(f"invalid JSON pointer: {path!r}")
    if path == "":
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _parent(doc: Any, parts: list[str]) -> tuple[Any, str]:
    node = doc
    for part in parts[:-1]:
        node = _child(node, part)
    return node, parts[-1]


def _child(node: Any, part: str) -> Any:
    if isinstance(node, dict):
        if part not in node:
            raise E.Invalid(f"JSON patch path does not exist: missing key {part!r}")
        return node[part]
    if isinstance(node, list):
        return node[_index(node, part, allow_end=False)]
    raise E.Invalid(f"JSON patch path goes through a scalar at {part!r}")


def _index(node: list[Any], part: str, *, allow_end: bool) -> int:
    if part == "-" and allow_end:
        return len(node)
    ascii_digits = part != "" and all("0" <= ch <= "9" for ch in part)
    if not ascii_digits or (len(part) > 1 and part.startswith("0")) or len(part) > 18:
        raise E.Invalid(f"JSON patch: invalid array index {part[:40]!r}")
    idx = int(part)
    if idx > len(node) or (idx == len(node) and not allow_end):
        raise E.Invalid(f"JSON patch: array index {idx} out of range")
    return idx


def _add(doc: Any, parts: list[str], value: Any) -> Any:
    if not parts:
        return copy.deepcopy(value)
    parent, last = _parent(doc, parts)
    if isinstance(parent, dict):
        parent[last] = copy.deepcopy(value)
    elif isinstance(parent, list):
        parent.insert(_index(parent, last, allow_end=True), copy.deepcopy(value))
    else:
        raise E.Invalid("JSON patch: cannot add to a scalar")
    return doc


def _remove(doc: Any, parts: list[str]) -> tuple[Any, Any]:
    if not parts:
        raise E.Invalid("JSON patch: cannot remove the whole document")
    parent, last = _parent(doc, parts)
    if isinstance(parent, dict):
        if last not in parent:
            raise E.Invalid(f"JSON patch: cannot remove missing key {last!r}")
        return doc, parent.pop(last)
    if isinstance(parent, list):
        return doc, parent.pop(_index(parent, last, allow_end=False))
    raise E.Invalid("JSON patch: cannot remove from a scalar")


class _CopyBudget:
    """Bytes that `copy` operations may still add: a short patch of copies doubling a
    value would otherwise grow the document exponentially."""

    def __init__(self) -> None:
        self.left = MAX_COPIED_BYTES

    def charge(self, value: Any) -> None:
        self.left -= len(json.dumps(value, separators=(",", ":")))
        if self.left < 0:
            raise E.RequestEntityTooLarge(
                f"JSON patch copies more than {MAX_COPIED_BYTES} bytes in total")


def _apply_op(doc: Any, op: dict[str, Any], budget: _CopyBudget) -> Any:
    """One RFC 6902 operation; `replace` is remove-then-add, `move` refuses moving a value
    into its own child (RFC 6902 section 4.4)."""
    kind = op.get("op")
    parts = _pointer(op.get("path"))
    if kind in ("add", "replace", "test") and "value" not in op:
        raise E.BadRequest(f"JSON patch operation {kind!r} needs a value")
    if kind == "add":
        return _add(doc, parts, op["value"])
    if kind == "remove":
        return _remove(doc, parts)[0]
    if kind == "replace":
        doc, _ = _remove(doc, parts) if parts else (doc, None)
        return _add(doc, parts, op["value"])
    if kind in ("move", "copy"):
        source = _pointer(op.get("from"))
        value = _get(doc, source)
        if kind == "copy":
            budget.charge(value)
        if kind == "move":
            if parts[: len(source)] == source and parts != source:
                raise E.Invalid("JSON patch: cannot move a value into its own child")
            doc, _ = _remove(doc, source)
        return _add(doc, parts, value)
    if kind == "test":
        if _get(doc, parts) != op["value"]:
            raise E.Invalid(f"JSON patch test failed at {op.get('path')}")
        return doc
    raise E.BadRequest(f"unknown JSON patch operation {kind!r}")


def _get(doc: Any, parts: list[str]) -> Any:
    node = doc
    for part in parts:
        node = _child(node, part)
    return copy.deepcopy(node)


def json_patch(target: dict[str, Any], ops: Any) -> Any:
    """RFC 6902, atomically: any failing operation leaves nothing applied."""
    if not isinstance(ops, list) or not all(isinstance(o, dict) for o in ops):
        raise E.BadRequest("a JSON patch must be a list of operation objects")
    if len(ops) > MAX_OPS:
        raise E.RequestEntityTooLarge(f"JSON patch has more than {MAX_OPS} operations")
    doc: Any = copy.deepcopy(target)
    budget = _CopyBudget()
    for op in ops:
        doc = _apply_op(doc, op, budget)
    return doc


def apply_patch(target: dict[str, Any] | None, applied: dict[str, Any]) -> dict[str, Any]:
    """Server-side apply, simplified: the applied configuration is merged over the live
    object (maps merge, lists and scalars replace). Field ownership conflicts are not
    computed; managedFields records the Apply manager."""
    if not isinstance(applied, dict):
        raise E.BadRequest("an apply patch must be an object")
    out: dict[str, Any] = merge_patch(target or {}, applied)
    return out
