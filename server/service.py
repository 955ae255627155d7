"""The Config verbs over the store: create, replace, patch, apply, delete, list, get.

Each write runs inside one serialised store transaction, so optimistic-concurrency checks,
resourceVersion assignment and the watch event are atomic; dry runs roll the transaction
back after doing every check.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import errors as E
from . import objects as O
from .model_adapter import MASK
from .patching import APPLY, JSON_PATCH, MERGE, apply_patch, json_patch, merge_patch
from .fieldsets import apply_removals, leaf_paths
from .store import Store, Tx


@dataclass
class WriteCtx:
    """Who writes, as which field manager, and how strictly."""

    manager: str
    is_admin: bool = True
    dry_run: bool = False
    field_validation: str = "Warn"
    force: bool = False
    warnings: list[str] = field(default_factory=list)

    def can_delete(self, ref: dict[str, Any]) -> bool:
        """Delete permission on an owner: admins on Configs; nobody on kinds we don't serve."""
        return self.is_admin and ref.get("apiVersion") == O.API_VERSION and ref.get("kind") == O.KIND


def _is_config_ref(ref: dict[str, Any]) -> bool:
    return ref.get("apiVersion") == O.API_VERSION and ref.get("kind") == O.KIND


def _contains_mask(node: Any) -> bool:
    if isinstance(node, dict):
        return any(_contains_mask(v) for v in node.values())
    if isinstance(node, list):
        return any(_contains_mask(v) for v in node)
    return isinstance(node, str) and MASK in node


MAX_GRACE_SECONDS = 100 * 365 * 86400  # past this a deletion timestamp leaves the calendar


class ConfigService:
    def __init__(self, store: Store, clock: O.Clock) -> None:
        self.store = store
        self.clock = clock

    # ---- input shaping -------------------------------------------------------------
    def incoming(self, body: Any, ctx: WriteCtx) -> dict[str, Any]:
        """Type check, then unknown fields per fieldValidation (Strict 400, Warn, Ignore)."""
        obj = O.check_type(copy.deepcopy(body))
        unknown = O.unknown_fields(obj)
        paths = [u[0] for u in unknown]
        if unknown and ctx.field_validation == "Strict":
            raise E.BadRequest("strict decoding error: " + ", ".join(
                f'unknown field "{u}"' for u in paths))
        if unknown and ctx.field_validation != "Ignore":
            ctx.warnings += [f'unknown field "{u}"' for u in paths]
        O.drop_unknown(unknown)
        obj.pop("status", None)
        meta = obj["metadata"]
        for key in ("labels", "annotations", "finalizers", "ownerReferences"):
            if meta.get(key) in ({}, []):
                del meta[key]  # empty maps and lists are omitted, as Go's omitempty does
        return obj

    def _status(self, obj: dict[str, Any], ctx: WriteCtx) -> None:
        ctx.warnings += O.compute_status(obj)
        if _contains_mask(obj["status"]):
            raise E.invalid(obj["metadata"].get("name"), [E.cause(
                "spec.raw", f'Invalid value: contains the mask placeholder "{MASK}"; read the '
                "object with ?reveal=true (admins) and write the real secret values")])

    # ---- create ---------------------------------------------------------------------
    def create(self, body: Any, ctx: WriteCtx) -> dict[str, Any]:
        obj = self.incoming(body, ctx)
        out = self.store.write(lambda tx: self._create(tx, obj, ctx, "Update", obj),
                               dry_run=ctx.dry_run)
        return out

    def _create(self, tx: Tx, obj: dict[str, Any], ctx: WriteCtx, op: str,
                applied: dict[str, Any]) -> dict[str, Any]:
        """Validate, compute status, pick the name, stamp server fields, store."""
        meta = obj["metadata"]
        causes = self._create_meta_causes(meta)
        causes = causes or O.block_owner_causes(obj, None, ctx.can_delete)
        if causes:
            raise E.invalid(meta.get("name") or meta.get("generateName"), causes)
        self._status(obj, ctx)
        if not meta.get("name"):
            meta["name"] = O.generate_name(tx, meta["generateName"], self.clock)
        elif tx.exists(meta["name"]):
            raise E.already_exists(meta["name"])
        meta.update(uid=str(uuid.uuid4()), creationTimestamp=self.clock.stamp(), generation=1)
        O.touch_managed(obj, None, ctx.manager, op, applied, self.clock)
        meta["resourceVersion"] = str(tx.next_rv())
        tx.put(obj, "ADDED")
        return obj

    def _create_meta_causes(self, meta: dict[str, Any]) -> list[dict[str, str]]:
        """Creation-only rules; server-owned fields a client sent are dropped, as the
        apiserver does, except deletion fields, which are refused."""
        out: list[dict[str, str]] = []
        if meta.get("resourceVersion"):
            out.append(E.cause("metadata.resourceVersion",
                               "Invalid value: must be empty when creating an object"))
        for key in ("deletionTimestamp", "deletionGracePeriodSeconds"):
            if meta.get(key) is not None:
                out.append(E.cause(f"metadata.{key}", "Forbidden: set by the server on deletion "
                                   "and may not be set by clients", "FieldValueForbidden"))
        for key in ("uid", "creationTimestamp", "generation", "managedFields", "selfLink",
                    "namespace", "resourceVersion"):
            meta.pop(key, None)
        probe = dict(meta)
        if not probe.get("name") and isinstance(probe.get("generateName"), str) and probe["generateName"]:
            probe["name"] = probe["generateName"][: O.MAX_PREFIX] + "x" * O.GENERATE_SUFFIX
        return out + O.metadata_causes(probe)

    # ---- update / patch -------------------------------------------------------------
    def replace(self, name: str, body: Any, ctx: WriteCtx) -> dict[str, Any]:
        """PUT: the whole object, with a resourceVersion (optimistic concurrency)."""
        new = self.incoming(body, ctx)
        if new["metadata"].get("name") not in (None, name):
            raise E.BadRequest(f"the name of the object ({new['metadata']['name']}) does not "
                               f"match the name on the URL ({name})")
        new["metadata"]["name"] = name

        def fn(tx: Tx) -> dict[str, Any]:
            old = tx.get(name)
            if old is None:
                raise E.not_found(name)
            if not new["metadata"].get("resourceVersion"):
                raise E.invalid(name, [E.cause("metadata.resourceVersion",
                                               "Invalid value: 0x0: must be specified for an update")])
            return self._update(tx, old, new, ctx, "Update", new)
        return self.store.write(fn, dry_run=ctx.dry_run)

    def patch(self, name: str, ptype: str, doc: Any, ctx: WriteCtx) -> dict[str, Any]:
        """Merge, JSON or apply patch; apply creates a missing object. The patched result
        goes through the same rules as a PUT (without requiring a resourceVersion)."""
        if ptype == APPLY and not ctx.manager:
            raise E.BadRequest("fieldManager is required for apply patches")

        def fn(tx: Tx) -> dict[str, Any]:
            old = tx.get(name)
            if ptype == APPLY and old is None:
                obj = self.incoming(doc, ctx)
                obj["metadata"]["name"] = obj["metadata"].get("name") or name
                if obj["metadata"]["name"] != name:
                    raise E.BadRequest("the name in the applied object does not match the URL")
                return self._create(tx, obj, ctx, "Apply", obj)
            if old is None:
                raise E.not_found(name)
            new = self._patched(old, ptype, doc)
            if ptype == APPLY:
                apply_removals(new, old["metadata"].get("managedFields") or [], ctx.manager,
                               leaf_paths(doc))
            new = self.incoming(new, ctx)
            if new["metadata"].get("name") != name:
                raise E.invalid(name, [E.cause("metadata.name", "Invalid value: field is immutable")])
            op = "Apply" if ptype == APPLY else "Update"
            applied = doc if ptype in (APPLY, MERGE) and isinstance(doc, dict) else new
            return self._update(tx, old, new, ctx, op, applied)
        return self.store.write(fn, dry_run=ctx.dry_run)

    def _patched(self, old: dict[str, Any], ptype: str, doc: Any) -> Any:
        base = {k: v for k, v in old.items() if k != "status"}
        if ptype == MERGE:
            if not isinstance(doc, dict):
                raise E.BadRequest("a merge patch must be a JSON object")
            return merge_patch(base, doc)
        if ptype == JSON_PATCH:
            return json_patch(base, doc)
        if ptype == APPLY:
            return apply_patch(base, doc)
        raise E.UnsupportedMediaType(f"the patch type {ptype!r} is not supported for Configs")

    def _update(self, tx: Tx, old: dict[str, Any], new: dict[str, Any], ctx: WriteCtx,
                op: str, applied: dict[str, Any]) -> dict[str, Any]:
        """The update rules shared by PUT and PATCH; removes the object when the last
        finalizer goes while deletion is pending."""
        meta, ometa = new["metadata"], old["metadata"]
        name = ometa["name"]
        rv = meta.get("resourceVersion")
        if rv and str(rv) != ometa["resourceVersion"]:
            raise E.conflict(name, "the object has been modified; please apply your changes to "
                             "the latest version and try again")
        causes = self._immutable_causes(meta, ometa) + O.metadata_causes(meta)
        causes = causes or self._deletion_causes(meta, ometa)  # needs well-typed metadata
        causes = causes or O.block_owner_causes(new, old, ctx.can_delete)
        if causes:
            raise E.invalid(name, causes)
        self._status(new, ctx)
        meta["generation"] = int(ometa.get("generation", 1)) + (1 if O.spec_differs(new, old) else 0)
        for key in ("namespace", "selfLink"):
            meta.pop(key, None)
        meta["resourceVersion"] = ometa["resourceVersion"]
        O.touch_managed(new, old, ctx.manager, op, applied, self.clock, ctx.force)
        if O.same_object(new, old):
            return old  # no-op writes do not bump resourceVersion, as in Kubernetes
        meta["resourceVersion"] = str(tx.next_rv())
        if meta.get("deletionTimestamp") and not meta.get("finalizers"):
            tx.delete(new)
            self._collect(tx, {meta["uid"]})
        else:
            tx.put(new, "MODIFIED")
        if ctx.dry_run:  # nothing is persisted, so the version does not move
            meta["resourceVersion"] = ometa["resourceVersion"]
        return new

    def _immutable_causes(self, meta: dict[str, Any], ometa: dict[str, Any]) -> list[dict[str, str]]:
        out = []
        for key in ("uid", "creationTimestamp"):
            if meta.get(key) not in (None, "", ometa.get(key)):
                out.append(E.cause(f"metadata.{key}", "Invalid value: field is immutable"))
            meta[key] = ometa[key]
        if ometa.get("generateName") is not None:
            meta.setdefault("generateName", ometa["generateName"])
        return out

    def _deletion_causes(self, meta: dict[str, Any], ometa: dict[str, Any]) -> list[dict[str, str]]:
        """deletionTimestamp is server-owned; the grace period may only shrink."""
        out = []
        odts, ograce = ometa.get("deletionTimestamp"), ometa.get("deletionGracePeriodSeconds")
        dts, grace = meta.get("deletionTimestamp"), meta.get("deletionGracePeriodSeconds")
        if dts is not None and dts != odts:
            out.append(E.cause("metadata.deletionTimestamp", "Forbidden: deletionTimestamp is set "
                               "by the server and cannot be set, moved or unset by clients",
                               "FieldValueForbidden"))
        self._set_opt(meta, "deletionTimestamp", odts)
        if grace is not None and grace != ograce:
            if ograce is None or not isinstance(grace, int) or grace < 0 or grace > ograce:
                out.append(E.cause("metadata.deletionGracePeriodSeconds",
                                   "Forbidden: may only be shortened, and only while deleting",
                                   "FieldValueForbidden"))
            else:
                meta["deletionTimestamp"] = min(str(odts), self.clock.stamp(grace))
                ograce = grace
        self._set_opt(meta, "deletionGracePeriodSeconds", ograce)
        if odts:
            added = set(meta.get("finalizers") or []) - set(ometa.get("finalizers") or [])
            if added:
                out.append(E.cause("metadata.finalizers", "Forbidden: no new finalizers can be "
                                   "added if the object is being deleted", "FieldValueForbidden"))
        return out

    @staticmethod
    def _set_opt(meta: dict[str, Any], key: str, value: Any) -> None:
        if value is None:
            meta.pop(key, None)
        else:
            meta[key] = value

    # ---- delete ---------------------------------------------------------------------
    def delete(self, name: str, opts: dict[str, Any], ctx: WriteCtx) -> dict[str, Any]:
        """Immediate without finalizers (dependents are collected), graceful with them."""
        grace = opts.get("gracePeriodSeconds")
        if grace is not None and (not isinstance(grace, int) or isinstance(grace, bool) or grace < 0
                                  or grace > MAX_GRACE_SECONDS):
            raise E.BadRequest(f"gracePeriodSeconds must be an integer from 0 to {MAX_GRACE_SECONDS}")
        pre = opts.get("preconditions") or {}
        if not isinstance(pre, dict):
            raise E.BadRequest("preconditions must be an object")
        if opts.get("propagationPolicy") not in (None, "Orphan", "Background", "Foreground"):
            raise E.BadRequest(f"unsupported propagationPolicy: {opts['propagationPolicy']!r}")
        orphan = opts.get("propagationPolicy") == "Orphan" or opts.get("orphanDependents") is True

        def fn(tx: Tx) -> dict[str, Any]:
            old = tx.get(name)
            if old is None:
                raise E.not_found(name)
            self._check_preconditions(old, pre)
            if old["metadata"].get("finalizers"):
                return self._mark_deleting(tx, old, grace)
            obj = copy.deepcopy(old)
            obj["metadata"]["resourceVersion"] = str(tx.next_rv())
            tx.delete(obj)
            if not orphan:
                self._collect(tx, {obj["metadata"]["uid"]})
            return obj
        return self.store.write(fn, dry_run=ctx.dry_run)

    @staticmethod
    def _check_preconditions(old: dict[str, Any], pre: dict[str, Any]) -> None:
        meta = old["metadata"]
        for key, label in (("uid", "UID"), ("resourceVersion", "ResourceVersion")):
            want = pre.get(key)
            if want is not None and str(want) != meta[key]:
                raise E.conflict(meta["name"], f"Precondition failed: {label} in precondition: "
                                 f"{want}, {label} in object meta: {meta[key]}")

    def _mark_deleting(self, tx: Tx, old: dict[str, Any], grace: int | None) -> dict[str, Any]:
        """Graceful deletion: set deletionTimestamp once; later deletes may only shorten."""
        obj = copy.deepcopy(old)
        meta = obj["metadata"]
        if not meta.get("deletionTimestamp"):
            meta["deletionTimestamp"] = self.clock.stamp(grace or 0)
            meta["deletionGracePeriodSeconds"] = grace or 0
        elif grace is not None and grace < int(meta.get("deletionGracePeriodSeconds") or 0):
            meta["deletionTimestamp"] = min(meta["deletionTimestamp"], self.clock.stamp(grace))
            meta["deletionGracePeriodSeconds"] = grace
        else:
            return old
        meta["resourceVersion"] = str(tx.next_rv())
        tx.put(obj, "MODIFIED")
        return obj

    def _collect(self, tx: Tx, dead: set[str]) -> None:
        """Garbage-collect Configs whose owners (all Configs) are all gone."""
        while dead:
            objs = tx.all()
            live = {o["metadata"]["uid"] for o in objs}
            next_dead: set[str] = set()
            for obj in objs:
                refs = obj["metadata"].get("ownerReferences") or []
                if not any(r.get("uid") in dead for r in refs):
                    continue
                if any(r.get("uid") in live or not _is_config_ref(r) for r in refs):
                    continue
                if obj["metadata"].get("finalizers"):
                    if not obj["metadata"].get("deletionTimestamp"):
                        self._mark_deleting(tx, obj, 0)
                    continue
                obj["metadata"]["resourceVersion"] = str(tx.next_rv())
                tx.delete(obj)
                next_dead.add(obj["metadata"]["uid"])
            dead = next_dead

    # ---- reads ----------------------------------------------------------------------
    def get(self, name: str) -> dict[str, Any]:
        obj = self.store.get(name)
        if obj is None:
            raise E.not_found(name)
        return obj

    def list(self, match: Callable[[dict[str, Any]], bool], limit: int | None,
             token: str | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A page of matching objects in name order, with ListMeta (continue token)."""
        after, list_rv = _decode_continue(token) if token else (None, None)
        rv, items = self.store.list_page(after, None)
        matched = [o for o in items if match(o)]
        meta: dict[str, Any] = {"resourceVersion": str(list_rv or rv)}
        if limit and len(matched) > limit:
            page = matched[:limit]
            meta["continue"] = _encode_continue(page[-1]["metadata"]["name"], list_rv or rv)
            meta["remainingItemCount"] = len(matched) - limit
            return meta, page
        return meta, matched


def _encode_continue(name: str, rv: int) -> str:
    raw = json.dumps({"v": "sp/v1", "rv": rv, "start": name}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_continue(token: str) -> tuple[str, int]:
    """The (last name, list resourceVersion) of a token this server made; anything else,
    forged or damaged (huge numbers, NUL, non-names), is 400 before it reaches the store."""
    bad = E.BadRequest("continue key is not valid")
    if len(token) > 2048:
        raise bad
    try:
        pad = "=" * (-len(token) % 4)
        data = json.loads(base64.urlsafe_b64decode(token + pad))
    except (ValueError, binascii.Error, RecursionError):
        raise bad from None
    if not isinstance(data, dict):
        raise bad
    start, rv = data.get("start"), data.get("rv")
    if not isinstance(start, str) or O.name_causes(start):
        raise bad
    if not isinstance(rv, int) or isinstance(rv, bool) or not 0 <= rv <= 2 ** 63 - 1:
        raise bad
    return start, rv
