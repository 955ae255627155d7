"""Standard Kubernetes object metadata, validated as the API server validates `ObjectMeta`.

Values the server owns (uid, resourceVersion, timestamps) are modelled so that objects read
back from the server round-trip, but nothing here sets them.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from .base import Model, Rule, field, required
from .formats import (check_dns_label, check_dns_subdomain, check_label_value,
                      check_qualified_name)

TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024
_RFC3339 = re.compile(
    r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)"
    r"(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)\Z"
)


def check_rfc3339(value: str) -> str | None:
    """RFC 3339 date-time, the wire form of Kubernetes `metav1.Time`."""
    if _RFC3339.match(value):
        return None
    return f"invalid timestamp {value!r}: expected RFC 3339, such as 2024-05-01T12:00:00Z"




class OwnerReference(Model):
    """An owner; the object is garbage collected when all its owners are gone."""

    api_version: str | None = field("apiVersion", "API version of the owner (required).")
    kind: str | None = field(None, "Kind of the owner (required).")
    name: str | None = field(None, "Name of the owner (required).")
    uid: str | None = field(None, "UID of the owner (required).")
    controller: bool | None = field(None, "This owner is the managing controller.")
    block_owner_deletion: bool | None = field(
        "blockOwnerDeletion", "Owner cannot be deleted before this object; default false.")

    def violations(self) -> list[Rule]:
        return required(self, "api_version", "kind", "name", "uid")


class ManagedFieldsEntry(Model):
    """Which workflow manages which fields."""

    manager: str | None = field(None, "Identifier of the managing workflow.")
    operation: Literal["Apply", "Update"] | None = field(None, "Apply or Update.")
    api_version: str | None = field("apiVersion", "group/version the field set applies to.")
    time: str | None = field(None, "When the entry was last changed (RFC 3339).")
    fields_type: Literal["FieldsV1"] | None = field("fieldsType", "Only FieldsV1.")
    fields_v1: dict[str, Any] | None = field("fieldsV1", "Field set in the FieldsV1 format.")
    subresource: str | None = field(None, "Subresource of the update; empty for the main resource.")

    def violations(self) -> list[Rule]:
        if self.time and (problem := check_rfc3339(self.time)):
            return [(("time",), problem)]
        return []


class ObjectMeta(Model):
    """Object metadata; `selfLink` is accepted for compatibility but deprecated and never set."""

    name: str | None = field(None, "Unique name; required unless generateName is used.")
    generate_name: str | None = field("generateName", "Prefix of a server-generated name.")
    namespace: str | None = field(None, "A DNS label; empty is the default namespace.")
    self_link: str | None = field("selfLink", "Deprecated; never populated.")
    uid: str | None = field(None, "Set by the server on creation. Read-only.")
    resource_version: str | None = field("resourceVersion", "Opaque change marker. Read-only.")
    generation: int | None = field(None, "Desired-state generation. Read-only.")
    creation_timestamp: str | None = field("creationTimestamp", "Creation time, RFC 3339. Read-only.")
    deletion_timestamp: str | None = field("deletionTimestamp", "Removal time once finalizers are empty.")
    deletion_grace_period_seconds: int | None = field(
        "deletionGracePeriodSeconds", "Only with deletionTimestamp; may only shrink.", ge=0)
    labels: dict[str, str] | None = None
    annotations: dict[str, str] | None = None
    owner_references: list[OwnerReference] | None = field("ownerReferences")
    finalizers: list[str] | None = None
    managed_fields: list[ManagedFieldsEntry] | None = field("managedFields")

    def violations(self) -> list[Rule]:
        return [*self._names(), *self._maps(), *self._owners(), *self._lifecycle()]

    def _names(self) -> list[Rule]:
        found: list[Rule] = []
        if self.name:
            _add(found, ("name",), check_dns_subdomain(self.name))
        elif self.generate_name:
            prefix = self.generate_name[:-1] if self.generate_name.endswith("-") else self.generate_name
            _add(found, ("generateName",), check_dns_subdomain(prefix or self.generate_name))
        else:
            found.append((("name",), "name or generateName is required"))
        if self.namespace:
            _add(found, ("namespace",), check_dns_label(self.namespace))
        return found

    def _maps(self) -> list[Rule]:
        found: list[Rule] = []
        for key, value in (self.labels or {}).items():
            _add(found, ("labels", key), check_qualified_name(key), "label key: ")
            _add(found, ("labels", key), check_label_value(value))
        size = 0
        for key, value in (self.annotations or {}).items():
            _add(found, ("annotations", key), check_qualified_name(key.lower()), "annotation key: ")
            size += len(key.encode()) + len(value.encode())
        if size > TOTAL_ANNOTATION_SIZE_LIMIT:
            found.append((("annotations",), f"total size {size} bytes exceeds the limit of "
                                            f"{TOTAL_ANNOTATION_SIZE_LIMIT} bytes"))
        return found

    def _owners(self) -> list[Rule]:
        refs = self.owner_references or []
        controllers = [i for i, ref in enumerate(refs) if ref.controller]
        found: list[Rule] = [
            (("ownerReferences", i, "controller"),
             f"only one reference can have controller set to true (also ownerReferences[{controllers[0]}])")
            for i in controllers[1:]
        ]
        seen: set[str] = set()
        for index, finalizer in enumerate(self.finalizers or []):
            _add(found, ("finalizers", index), check_qualified_name(finalizer), "finalizer name: ")
            if finalizer in seen:
                found.append((("finalizers", index), f"duplicate finalizer {finalizer!r}"))
            seen.add(finalizer)
        return found

    def _lifecycle(self) -> list[Rule]:
        found: list[Rule] = []
        for name in ("creation_timestamp", "deletion_timestamp"):
            value = getattr(self, name)
            if value:
                _add(found, (ObjectMeta.model_fields[name].alias or name,), check_rfc3339(value))
        if self.deletion_grace_period_seconds is not None and not self.deletion_timestamp:
            found.append((("deletionGracePeriodSeconds",), "may only be set together with deletionTimestamp"))
        return found


def _add(found: list[Rule], path: tuple[str | int, ...], problem: str | None, prefix: str = "") -> None:
    if problem:
        found.append((path, prefix + problem))
