"""Label and field selectors, as `kubectl get -l` / `--field-selector` send them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from . import errors as E

Matcher = Callable[[dict[str, Any]], bool]
_SET = re.compile(r"^\s*(!?)\s*([A-Za-z0-9_./-]+)\s*(?:(notin|in)\s*\(([^)]*)\))?\s*$")
_EQ = re.compile(r"^\s*([A-Za-z0-9_./-]+)\s*(==|=|!=)\s*([A-Za-z0-9_.-]*)\s*$")


def _split(selector: str) -> list[str]:
    """Split on commas outside parentheses."""
    parts, depth, cur = [], 0, ""
    for ch in selector:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p for p in parts if p.strip()]


def _requirement(text: str) -> Callable[[dict[str, str]], bool]:
    """One requirement of a label selector, as a predicate over a label map."""
    m = _EQ.match(text)
    if m:
        key, op, value = m.groups()
        if op == "!=":
            return lambda labels: labels.get(key) != value
        return lambda labels: labels.get(key) == value
    m = _SET.match(text)
    if m:
        neg, key, op, values = m.groups()
        if op is None:
            return (lambda labels: key not in labels) if neg else (lambda labels: key in labels)
        if neg:
            raise E.BadRequest(f"unable to parse requirement: {text.strip()!r}")
        vals = {v.strip() for v in values.split(",") if v.strip()}
        if op == "in":
            return lambda labels: labels.get(key) in vals
        return lambda labels: labels.get(key) not in vals
    raise E.BadRequest(f"unable to parse requirement: {text.strip()!r}")


def label_matcher(selector: str | None) -> Matcher:
    """Compile a label selector (=, ==, !=, in, notin, exists, !exists)."""
    if not selector:
        return lambda obj: True
    reqs = [_requirement(p) for p in _split(selector)]

    def match(obj: dict[str, Any]) -> bool:
        labels = obj.get("metadata", {}).get("labels") or {}
        return all(r(labels) for r in reqs)

    return match


def field_matcher(selector: str | None) -> Matcher:
    """Compile a field selector; only metadata.name is supported, as for CRDs."""
    if not selector:
        return lambda obj: True
    checks: list[tuple[bool, str]] = []
    for part in _split(selector):
        m = re.match(r"^\s*([A-Za-z.]+)\s*(==|=|!=)\s*(.*?)\s*$", part)
        if not m:
            raise E.BadRequest(f"invalid field selector: {part.strip()!r}")
        field, op, value = m.groups()
        if field != "metadata.name":
            raise E.BadRequest(f'field label not supported: {field}')
        checks.append((op != "!=", value))

    def match(obj: dict[str, Any]) -> bool:
        name = obj.get("metadata", {}).get("name")
        return all((name == v) == eq for eq, v in checks)

    return match
