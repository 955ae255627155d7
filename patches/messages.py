"""Plain-language messages for the model's validation errors, each with vCluster's reason.

pydantic says "Input should be a valid boolean"; a platform engineer needs to hear what was
found, what belongs there, and why vCluster cares (it decodes its config strictly, so the
same file would stop the tenant cluster at start-up).
"""

from __future__ import annotations

import difflib
import json
from typing import Any, Mapping, Sequence

__all__ = ["explain", "did_you_mean", "REMOVED_KEYS"]

REMOVED_KEYS: Mapping[tuple[str, ...], str] = {
    ("experimental", "multiNamespaceMode"): (
        "experimental.multiNamespaceMode was removed in vCluster 0.33; namespace sync replaced it: "
        "set sync.toHost.namespaces.enabled: true and map tenant namespaces to host namespaces in "
        "sync.toHost.namespaces.mappings.byName"
    ),
}
"""Keys earlier vCluster releases had, with what replaced them."""

_TYPE_WORDS = {
    "bool_type": "a boolean (true or false)",
    "string_type": "a string",
    "int_type": "an integer",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "list_type": "a list",
    "model_attributes_type": "a mapping",
}


def _found(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {json.dumps(value)}"
    if isinstance(value, str):
        return f"the string {json.dumps(value)}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"{type(value).__name__}"


def _quoted_fix(expected: str, value: Any) -> str:
    if expected.startswith("a boolean") and isinstance(value, str) and value.lower() in ("true", "false"):
        return f" (write {value.lower()} without quotes)"
    if expected == "a string" and isinstance(value, (int, float, bool)):
        return f' (quote it: "{json.dumps(value)}")'
    if expected == "an integer" and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return f" (write {value.strip()} without quotes)"
    return ""


def explain(error: Mapping[str, Any], loc: Sequence[str | int]) -> str | None:
    """Our message for one pydantic error, or None to keep the model's own."""
    kind = str(error.get("type", ""))
    value = error.get("input")
    if kind in _TYPE_WORDS or (kind.endswith("_type") and "union" not in kind):
        expected = _TYPE_WORDS.get(kind, kind.removesuffix("_type"))
        return (f"expected {expected}, found {_found(value)}{_quoted_fix(expected, value)}: vCluster decodes "
                "its config strictly and refuses this value at start-up")
    if kind == "extra_forbidden":
        keys = tuple(str(p) for p in loc if isinstance(p, str))
        for removed, message in REMOVED_KEYS.items():
            if keys[-len(removed):] == removed:
                return message
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc[:-1]).lstrip(".")
        return f"unknown field `{loc[-1]}`" + (f" in `{where}`" if where else "") + (
            ": vCluster refuses unknown keys at start-up")
    return None


def did_you_mean(name: str, known: Sequence[str]) -> str | None:
    """The known key closest to a misspelled one: same letters in another case first."""
    for key in known:
        if key.lower() == name.lower():
            return key
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return close[0] if close else None
