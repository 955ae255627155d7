"""Kubernetes object semantics for Configs: the rules every write goes through.

Pure functions over dicts plus the transactional create/update/delete steps. Each rule here
has an HTTP-level test in `tests/server/test_semantics.py`.
"""

from __future__ import annotations

import copy
import datetime as dt
import random
import re
from collections.abc import Callable
from typing import Any

from . import errors as E
from .fieldsets import leaf_paths, record
from .model_adapter import RawInvalid, effective_status_with_warnings, raw_text, validate_object
from .store import Tx

API_VERSION = "management.platform.sh/v1"
KIND = "Config"
GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
GENERATE_SUFFIX = 5
MAX_NAME = 253
MAX_PREFIX = 63 - GENERATE_SUFFIX  # 58, as the apiserver truncates generateName
GENERATE_ATTEMPTS = 8
SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
QUALIFIED = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
META_FIELDS = {
    "name", "generateName", "namespace", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels",
    "annotations", "ownerReferences", "finalizers", "managedFields", "selfLink",
}
OWNER_FIELDS = {"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"}


class Clock:
    """Time and randomness, injectable so tests can force generateName collisions."""

    def __init__(self, rng: random.Random | None = None,
                 now: Callable[[], dt.datetime] | None = None) -> None:
        self.rng = rng or random.SystemRandom()
        self._now = now or (lambda: dt.datetime.now(dt.timezone.utc))

    def now(self) -> dt.datetime:
        return self._now()

    def stamp(self, offset_seconds: int = 0) -> str:
        t = self.now() + dt.timedelta(seconds=offset_seconds)
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")


Unknown = tuple[str, dict[str, Any], str]


def unknown_fields(obj: dict[str, Any]) -> list[Unknown]:
    """(path, containing dict, key) of each field the Config schema does not declare."""
    out: list[Unknown] = [(k, obj, k) for k in obj
                          if k not in {"apiVersion", "kind", "metadata", "spec", "status"}]
    meta = obj.get("metadata")
    if isinstance(meta, dict):
        out += [(f"metadata.{k}", meta, k) for k in meta if k not in META_FIELDS]
        refs = meta.get("ownerReferences")
        for i, ref in enumerate(refs if isinstance(refs, list) else []):
            if isinstance(ref, dict):
                out += [(f"metadata.ownerReferences[{i}].{k}", ref, k)
                        for k in ref if k not in OWNER_FIELDS]
    spec = obj.get("spec")
    if isinstance(spec, dict):
        out += [(f"spec.{k}", spec, k) for k in spec if k != "raw"]
    return out


def drop_unknown(fields: list[Unknown]) -> None:
    """Remove unknown fields (fieldValidation Ignore/Warn)."""
    for _path, container, key in fields:
        container.pop(key, None)


def check_type(obj: Any) -> dict[str, Any]:
    """400 unless the body is a Config of our group/version."""
    if not isinstance(obj, dict):
        raise E.BadRequest("the request body must be a JSON or YAML object")
    api, kind = obj.get("apiVersion"), obj.get("kind")
    if api is not None and api != API_VERSION:
        raise E.BadRequest(
            f"the API version in the data ({api}) does not match the expected API version "
            f"({API_VERSION})")
    if kind is not None and kind != KIND:
        raise E.BadRequest(f"the kind in the data ({kind}) does not match the expected kind "
                           f"({KIND})")
    for key, typ in (("metadata", dict), ("spec", dict)):
        if key in obj and obj[key] is not None and not isinstance(obj[key], typ):
            raise E.BadRequest(f"{key} must be an object")
    obj["apiVersion"], obj["kind"] = API_VERSION, KIND
    obj.setdefault("metadata", {})
    if obj["metadata"] is None:
        obj["metadata"] = {}
    return obj


def name_causes(name: Any, field: str = "metadata.name") -> list[dict[str, str]]:
    if not isinstance(name, str) or not name:
        return [E.cause(field, "Required value: name or generateName is required",
                        "FieldValueRequired")]
    if len(name) > MAX_NAME or not SUBDOMAIN.match(name):
        return [E.cause(field, f'Invalid value: "{name}": a lowercase RFC 1123 subdomain must '
                        "consist of lower case alphanumeric characters, '-' or '.', and must "
                        "start and end with an alphanumeric character")]
    return []


def _qualified_ok(key: str) -> bool:
    prefix, _, local = key.rpartition("/")
    if prefix and (len(prefix) > MAX_NAME or not SUBDOMAIN.match(prefix)):
        return False
    return 0 < len(local) <= 63 and bool(QUALIFIED.match(local))


def _map_causes(meta: dict[str, Any], key: str) -> list[dict[str, str]]:
    value = meta.get(key)
    if value is None:
        return []
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        return [E.cause(f"metadata.{key}", "must be a map of string to string", "FieldValueTypeInvalid")]
    out = [E.cause(f"metadata.{key}", f'Invalid value: "{k}": must be a qualified name')
           for k in value if not _qualified_ok(k)]
    if key == "labels":
        out += [E.cause("metadata.labels", f'Invalid value: "{v}": must be a valid label value')
                for v in value.values() if len(v) > 63 or not LABEL_VALUE.match(v)]
    return out


def _owner_causes(refs: Any) -> list[dict[str, str]]:
    """Owner references need apiVersion, kind, name and uid; at most one controller."""
    if refs is None:
        return []
    if not isinstance(refs, list):
        return [E.cause("metadata.ownerReferences", "must be a list", "FieldValueTypeInvalid")]
    out: list[dict[str, str]] = []
    controllers = 0
    for i, ref in enumerate(refs):
        field = f"metadata.ownerReferences[{i}]"
        if not isinstance(ref, dict):
            out.append(E.cause(field, "must be an object", "FieldValueTypeInvalid"))
            continue
        for req in ("apiVersion", "kind", "name", "uid"):
            if not isinstance(ref.get(req), str) or not ref.get(req):
                out.append(E.cause(f"{field}.{req}", "Required value", "FieldValueRequired"))
        controllers += ref.get("controller") is True
    if controllers > 1:
        out.append(E.cause("metadata.ownerReferences",
                           "Invalid value: only one reference can have Controller set to true"))
    return out


def _finalizer_causes(fins: Any) -> list[dict[str, str]]:
    if fins is None:
        return []
    if not isinstance(fins, list) or not all(isinstance(f, str) for f in fins):
        return [E.cause("metadata.finalizers", "must be a list of strings", "FieldValueTypeInvalid")]
    return [E.cause("metadata.finalizers", f'Invalid value: "{f}": must be a qualified name')
            for f in fins if not _qualified_ok(f)]


def metadata_causes(meta: dict[str, Any]) -> list[dict[str, str]]:
    """Static metadata validation shared by create and update."""
    out = name_causes(meta.get("name"))
    ns = meta.get("namespace")
    if ns and (not isinstance(ns, str) or not DNS_LABEL.match(ns) or len(ns) > 63):
        out.append(E.cause("metadata.namespace", f'Invalid value: "{ns}": must be a DNS label'))
    out += _map_causes(meta, "labels") + _map_causes(meta, "annotations")
    out += _owner_causes(meta.get("ownerReferences")) + _finalizer_causes(meta.get("finalizers"))
    return out


def compute_status(obj: dict[str, Any]) -> list[str]:
    """Parse spec.raw with the effective-config function; the result becomes status.
    Returns deprecation warnings."""
    spec = obj.get("spec")
    if spec is None:
        spec = obj["spec"] = {"raw": ""}
    raw = spec.get("raw", "")
    if raw is None:
        raw = spec["raw"] = ""
    if not isinstance(raw, str):
        raise E.invalid(obj["metadata"].get("name"),
                        [E.cause("spec.raw", "must be a string", "FieldValueTypeInvalid")])
    raw = spec["raw"] = raw_text(raw)
    try:
        obj["status"], warnings = effective_status_with_warnings(raw)
        validate_object({k: v for k, v in obj.items() if k != "status"})
    except RawInvalid as exc:
        raise E.invalid(obj["metadata"].get("name"), exc.causes) from None
    return warnings


def block_owner_causes(new: dict[str, Any], old: dict[str, Any] | None,
                       can_delete: Callable[[dict[str, Any]], bool]) -> list[dict[str, str]]:
    """422 when blockOwnerDeletion is newly set on an owner the user may not delete."""
    before = {(r.get("uid"), True) for r in (old or {}).get("metadata", {}).get(
        "ownerReferences") or [] if isinstance(r, dict) and r.get("blockOwnerDeletion")}
    out = []
    for i, ref in enumerate(new["metadata"].get("ownerReferences") or []):
        if ref.get("blockOwnerDeletion") is True and (ref.get("uid"), True) not in before:
            if not can_delete(ref):
                out.append(E.cause(
                    f"metadata.ownerReferences[{i}].blockOwnerDeletion",
                    "Forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a "
                    "resource you can't delete", "FieldValueForbidden"))
    return out


def spec_differs(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Anything outside metadata (and the server-computed status) changed."""
    strip = ("metadata", "status", "apiVersion", "kind")
    return {k: v for k, v in a.items() if k not in strip} != {
        k: v for k, v in b.items() if k not in strip}


def generate_name(tx: Tx, prefix: str, clock: Clock) -> str:
    """Prefix (truncated to 58) + 5 random characters; 8 attempts, then 409."""
    prefix = prefix[:MAX_PREFIX]
    for _ in range(GENERATE_ATTEMPTS):
        name = prefix + "".join(clock.rng.choice(GENERATE_ALPHABET) for _ in range(GENERATE_SUFFIX))
        if not tx.exists(name):
            return name
    raise E.AlreadyExists(
        f'{E.RESOURCE}.{E.GROUP} "{prefix}" already exists: could not generate a unique name '
        f"after {GENERATE_ATTEMPTS} attempts; try again", name=prefix)


def touch_managed(obj: dict[str, Any], old: dict[str, Any] | None, manager: str,
                  operation: str, applied: dict[str, Any], clock: Clock, force: bool = False) -> None:
    """Record who owns which fields (managedFields); an apply may raise 409 Conflict."""
    entries = copy.deepcopy((old or {}).get("metadata", {}).get("managedFields") or [])
    paths = leaf_paths(applied) if operation == "Apply" else set()
    stamp = {"apiVersion": API_VERSION, "time": clock.stamp()}
    obj["metadata"]["managedFields"] = record(entries, old, obj, manager, operation, paths,
                                              force, stamp)


def same_object(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal apart from managedFields timestamps: such a write changes nothing."""
    def strip(o: dict[str, Any]) -> dict[str, Any]:
        meta = dict(o.get("metadata") or {})
        meta["managedFields"] = [{k: v for k, v in e.items() if k != "time"}
                                 for e in meta.get("managedFields") or [] if isinstance(e, dict)]
        return {**o, "metadata": meta}
    return strip(a) == strip(b)
