"""Field ownership for `metadata.managedFields` and server-side apply.

A simplified form of the apiserver's structured-merge-diff: field sets in FieldsV1 form
(`f:` map keys, `v:` set members for finalizers, `k:{"uid":...}` owner references), handled
as sets of leaf paths. Updates take ownership of the fields they change (and take them away
from other managers); an apply owns exactly the fields of its configuration, conflicts with
other managers that own a field it changes (unless forced), and removes fields it applied
before and no longer applies, when no other manager owns them.
"""

from __future__ import annotations

import json
from typing import Any

from . import errors as E

Path = tuple[str, ...]
_MISSING = object()
_SERVER_META = {"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields",
                "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink", "namespace",
                "generateName", "name"}


def leaf_paths(obj: dict[str, Any]) -> set[Path]:
    """The user-settable fields present in an object (or an applied configuration)."""
    out: set[Path] = set()
    meta = obj.get("metadata")
    for key, value in (meta.items() if isinstance(meta, dict) else []):
        if key in _SERVER_META:
            continue
        base = ("f:metadata", f"f:{key}")
        if key in ("labels", "annotations") and isinstance(value, dict):
            out |= {base + (f"f:{k}",) for k in value}
        elif key == "finalizers" and isinstance(value, list):
            out |= {base + (f"v:{json.dumps(v)}",) for v in value}
        elif key == "ownerReferences" and isinstance(value, list):
            out |= {base + ("k:" + json.dumps({"uid": r.get("uid")}, separators=(",", ":")),)
                    for r in value if isinstance(r, dict)}
    spec = obj.get("spec")
    if isinstance(spec, dict):
        out |= {("f:spec", f"f:{k}") for k in spec}
    return out


def to_fields(paths: set[Path]) -> dict[str, Any]:
    """Leaf paths as a FieldsV1 tree."""
    root: dict[str, Any] = {}
    for path in sorted(paths):
        node = root
        for part in path:
            node = node.setdefault(part, {})
    return root


def from_fields(fields: Any, prefix: Path = ()) -> set[Path]:
    """A FieldsV1 tree back to leaf paths (`.` markers are ignored)."""
    out: set[Path] = set()
    for key, sub in (fields.items() if isinstance(fields, dict) else []):
        if key == ".":
            continue
        children = {k for k in sub if k != "."} if isinstance(sub, dict) else set()
        out |= from_fields(sub, prefix + (key,)) if children else {prefix + (key,)}
    return out


def value_at(obj: Any, path: Path) -> Any:
    """The value at a leaf path, or _MISSING."""
    node = obj
    for part in path:
        kind, key = part[:2], part[2:]
        if kind == "f:" and isinstance(node, dict) and key in node:
            node = node[key]
        elif kind == "v:" and isinstance(node, list) and json.loads(key) in node:
            return json.loads(key)
        elif kind == "k:" and isinstance(node, list):
            want = json.loads(key)
            found = [r for r in node if isinstance(r, dict) and r.get("uid") == want.get("uid")]
            if not found:
                return _MISSING
            node = found[0]
        else:
            return _MISSING
    return node


def remove_at(obj: dict[str, Any], path: Path) -> None:
    """Delete the field at a leaf path, if present."""
    parent = value_at(obj, path[:-1])
    kind, key = path[-1][:2], path[-1][2:]
    if kind == "f:" and isinstance(parent, dict):
        parent.pop(key, None)
    elif kind == "v:" and isinstance(parent, list) and json.loads(key) in parent:
        parent.remove(json.loads(key))
    elif kind == "k:" and isinstance(parent, list):
        uid = json.loads(key).get("uid")
        parent[:] = [r for r in parent if not (isinstance(r, dict) and r.get("uid") == uid)]


def display(path: Path) -> str:
    return "".join(f"[{p[2:]}]" if p[:2] in ("v:", "k:") else f".{p[2:]}" for p in path)


def _owned(entries: list[dict[str, Any]]) -> list[tuple[dict[str, Any], set[Path]]]:
    return [(e, from_fields(e.get("fieldsV1"))) for e in entries if isinstance(e, dict)]


def apply_removals(merged: dict[str, Any], entries: list[dict[str, Any]], manager: str,
                   applied: set[Path]) -> None:
    """Drop fields this manager applied before but no longer applies, unless another
    manager also owns them."""
    owned = _owned(entries)
    before = set().union(*[s for e, s in owned
                           if e.get("manager") == manager and e.get("operation") == "Apply"])
    others = set().union(*[s for e, s in owned
                           if not (e.get("manager") == manager and e.get("operation") == "Apply")])
    for path in sorted(before - applied - others, reverse=True):
        remove_at(merged, path)


def record(entries: list[dict[str, Any]], old: dict[str, Any] | None, new: dict[str, Any],
           manager: str, operation: str, applied: set[Path], force: bool,
           stamp: dict[str, str]) -> list[dict[str, Any]]:
    """The managedFields after a write: ownership moves, apply conflicts raise 409."""
    paths_new = leaf_paths(new)
    changed = {p for p in paths_new | (leaf_paths(old) if old else set())
               if old is None or value_at(old, p) != value_at(new, p)}
    owned = _owned(entries)
    if operation == "Apply":
        taken = _apply_conflicts(owned, manager, applied & changed, new, force)
        mine = applied & paths_new
    else:
        taken = changed
        same = [s for e, s in owned if e.get("manager") == manager and e.get("operation") == "Update"]
        mine = (set().union(*same) | changed) & paths_new
    out = []
    for entry, paths in owned:
        if (entry.get("manager"), entry.get("operation")) == (manager, operation):
            continue
        kept = (paths - taken) & paths_new
        if kept:
            out.append({**entry, "fieldsV1": to_fields(kept)})
    if mine:
        out.append({"manager": manager, "operation": operation, **stamp,
                    "fieldsType": "FieldsV1", "fieldsV1": to_fields(mine)})
    return out


def _apply_conflicts(owned: list[tuple[dict[str, Any], set[Path]]], manager: str,
                     changing: set[Path], new: dict[str, Any], force: bool) -> set[Path]:
    """Fields an apply changes that other managers own: 409 unless forced."""
    conflicts = [(str(e.get("manager")), p) for e, s in owned
                 if e.get("manager") != manager for p in sorted(changing & s)]
    if conflicts and not force:
        causes = [E.cause(display(p), f'conflict with "{m}" using {E.GROUP}/v1', "FieldManagerConflict")
                  for m, p in conflicts]
        lines = "\n".join(f"- {c['message']}: {c['field']}" for c in causes)
        name = (new.get("metadata") or {}).get("name")
        err = E.Conflict(f"Apply failed with {len(causes)} conflict{'s' if len(causes) > 1 else ''}:"
                         f"\n{lines}", name=name, causes=causes)
        raise err
    return changing
