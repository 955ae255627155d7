"""FieldsV1 sets for `metadata.managedFields`.

A simplified form of the apiserver's structured-merge-diff field sets: maps become `f:`
keys, lists of strings `v:` keys, owner references `k:{"uid":...}` keys. Enough for kubectl
to show who wrote what; no field-ownership conflicts are computed from it.
"""

from __future__ import annotations

import json
from typing import Any

_SERVER_META = {"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields",
                "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink", "namespace",
                "generateName"}


def _leaves(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {".": {}}
        for k, v in value.items():
            out[f"f:{k}"] = _leaves(v) if isinstance(v, dict) else {}
        return out
    return {}


def fieldset(obj: dict[str, Any]) -> dict[str, Any]:
    """The FieldsV1 set of user-settable fields present in `obj`."""
    out: dict[str, Any] = {}
    meta = obj.get("metadata") or {}
    fmeta: dict[str, Any] = {}
    for key, value in meta.items():
        if key in _SERVER_META or key == "name":
            continue
        if key in ("labels", "annotations") and isinstance(value, dict):
            fmeta[f"f:{key}"] = {".": {}, **{f"f:{k}": {} for k in value}}
        elif key == "finalizers" and isinstance(value, list):
            fmeta["f:finalizers"] = {".": {}, **{f"v:{json.dumps(v)}": {} for v in value}}
        elif key == "ownerReferences" and isinstance(value, list):
            fmeta["f:ownerReferences"] = {".": {}, **{
                "k:" + json.dumps({"uid": r.get("uid")}, separators=(",", ":")): {}
                for r in value if isinstance(r, dict)}}
    if fmeta:
        out["f:metadata"] = fmeta
    spec = obj.get("spec")
    if isinstance(spec, dict) and spec:
        out["f:spec"] = _leaves(spec)
    return out


def merge_managed(entries: list[dict[str, Any]], manager: str, operation: str,
                  api_version: str, time: str, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """Replace or add the (manager, operation) entry; keep the others in order."""
    entry = {"manager": manager, "operation": operation, "apiVersion": api_version,
             "time": time, "fieldsType": "FieldsV1", "fieldsV1": fields}
    kept = [e for e in entries
            if isinstance(e, dict) and (e.get("manager"), e.get("operation")) != (manager, operation)]
    if operation == "Update" and any(
            e.get("manager") == manager and e.get("operation") == "Update" for e in entries):
        old = next(e for e in entries if e.get("manager") == manager and e.get("operation") == "Update")
        entry["fieldsV1"] = _union(old.get("fieldsV1") or {}, fields)
    return kept + [entry]


def _union(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        out[k] = _union(out[k], v) if isinstance(out.get(k), dict) and isinstance(v, dict) else v
    return out
