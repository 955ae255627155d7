"""/openapi/v3 documents generated from the Config model, so `kubectl explain`, `create`
and `apply` (which look up the schema and the `fieldValidation` parameter) work."""

from __future__ import annotations

import copy
import hashlib
import json
from functools import lru_cache
from typing import Any

from .discovery import GROUP, GROUP_VERSION, VERSION
from .model_adapter import openapi_schemas, status_schema

PREFIX = "sh.platform.management.v1"
META = "io.k8s.apimachinery.pkg.apis.meta.v1"
GVK = [{"group": GROUP, "version": VERSION, "kind": "Config"}]
GVK_LIST = [{"group": GROUP, "version": VERSION, "kind": "ConfigList"}]


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _s(desc: str, typ: str = "string", **extra: Any) -> dict[str, Any]:
    return {"type": typ, "description": desc, **extra}


_STR_MAP = {"type": "object", "additionalProperties": {"type": "string", "default": ""}}


def _owner_schema() -> dict[str, Any]:
    return {"type": "object", "required": ["apiVersion", "kind", "name", "uid"],
            "description": "An owner of this object; it is garbage collected when all owners are deleted.",
            "properties": {
                "apiVersion": _s("API version of the referent."), "kind": _s("Kind of the referent."),
                "name": _s("Name of the referent."), "uid": _s("UID of the referent."),
                "controller": _s("If true, this reference points to the managing controller; at most one.", "boolean"),
                "blockOwnerDeletion": _s("If true, the owner cannot be deleted before this object; "
                                         "needs delete permission on the owner.", "boolean")}}


def _managed_schema() -> dict[str, Any]:
    return {"type": "object", "description": "Which manager wrote which fields.",
            "properties": {
                "manager": _s("Identifier of the managing workflow."), "operation": _s("Apply or Update."),
                "apiVersion": _s("group/version of the field set."), "time": _ref(f"{META}.Time"),
                "fieldsType": _s("Always FieldsV1."),
                "fieldsV1": {"type": "object", "description": "Field set in FieldsV1 format."},
                "subresource": _s("Subresource of the write, empty for the main resource.")}}


def _object_meta_properties() -> dict[str, Any]:
    return {
        "name": _s("Unique name; required on create unless generateName is used. Immutable."),
        "generateName": _s("Prefix for a server-generated name (truncated to 58 characters)."),
        "namespace": _s("Unused: Configs are cluster-scoped."),
        "uid": _s("Server-set unique id. Read-only."),
        "resourceVersion": _s("Opaque version for change detection and optimistic concurrency."),
        "generation": _s("Desired-state generation; grows when the spec changes.", "integer", format="int64"),
        "creationTimestamp": _ref(f"{META}.Time"), "deletionTimestamp": _ref(f"{META}.Time"),
        "deletionGracePeriodSeconds": _s("Seconds allowed before removal; may only be shortened.",
                                         "integer", format="int64"),
        "labels": {**_STR_MAP, "description": "Labels for selection."},
        "annotations": {**_STR_MAP, "description": "Unstructured metadata."},
        "ownerReferences": {"type": "array", "items": _ref(f"{META}.OwnerReference"),
                            "description": "Owners of this object; at most one controller.",
                            "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["uid"]},
        "finalizers": {"type": "array", "items": {"type": "string", "default": ""},
                       "description": "Must be empty before the object is removed.",
                       "x-kubernetes-list-type": "set"},
        "managedFields": {"type": "array", "items": _ref(f"{META}.ManagedFieldsEntry"),
                          "description": "Which workflow manages which fields."},
        "selfLink": _s("Deprecated; not populated."),
    }


def _meta_schemas() -> dict[str, dict[str, Any]]:
    """Kubernetes meta/v1 schemas, used when the model does not bring its own."""
    return {
        f"{META}.Time": {"type": "string", "format": "date-time", "description": "RFC 3339 time, UTC."},
        f"{META}.OwnerReference": _owner_schema(),
        f"{META}.ManagedFieldsEntry": _managed_schema(),
        f"{META}.ObjectMeta": {"type": "object", "description": "Standard object metadata.",
                               "properties": _object_meta_properties()},
        f"{META}.Status": _status_schema(),
        f"{META}.ListMeta": {"type": "object", "description": "List metadata.",
                             "properties": {"resourceVersion": _s("Store version of the list."),
                                            "continue": _s("Token for the next page."),
                                            "remainingItemCount": _s("Items after this page.", "integer")}},
    }


def _rehome_defs(schema: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Move pydantic `$defs` into components/schemas and rewrite their `$ref`s."""
    schema = copy.deepcopy(schema)
    defs = schema.pop("$defs", {}) or schema.pop("definitions", {})
    text = json.dumps(schema)
    defs_text = json.dumps(defs)
    for marker in ("#/$defs/", "#/definitions/"):
        text = text.replace(f'"{marker}', f'"#/components/schemas/{PREFIX}.')
        defs_text = defs_text.replace(f'"{marker}', f'"#/components/schemas/{PREFIX}.')
    moved = {f"{PREFIX}.{k}": v for k, v in json.loads(defs_text).items()}
    return json.loads(text), moved


def _config_schemas() -> dict[str, dict[str, Any]]:
    """Config schemas from the pydantic model (its OpenAPI form when it has one)."""
    from_model = openapi_schemas(PREFIX + ".")
    if from_model and f"{PREFIX}.Config" in from_model:
        from_model[f"{PREFIX}.Config"]["x-kubernetes-group-version-kind"] = GVK
        from_model[f"{PREFIX}.ConfigList"] = _list_schema()
        return from_model
    status, extra = _rehome_defs(status_schema())
    status.setdefault("description", "The effective configuration parsed from spec.raw.")
    schemas = dict(extra)
    schemas[f"{PREFIX}.ConfigStatus"] = status
    schemas[f"{PREFIX}.ConfigSpec"] = {
        "type": "object", "description": "Desired state: the raw platform configuration.",
        "properties": {"raw": _s("The raw platform configuration (YAML).")}}
    schemas[f"{PREFIX}.Config"] = {
        "type": "object", "x-kubernetes-group-version-kind": GVK,
        "description": "The platform's own configuration (management.platform.sh/v1).",
        "properties": {"apiVersion": _s("Versioned schema of the object."),
                       "kind": _s("Kind of the resource: Config."),
                       "metadata": {"allOf": [_ref(f"{META}.ObjectMeta")], "default": {}},
                       "spec": {"allOf": [_ref(f"{PREFIX}.ConfigSpec")], "default": {}},
                       "status": {"allOf": [_ref(f"{PREFIX}.ConfigStatus")], "default": {},
                                  "description": "Effective configuration; computed by the server."}}}
    schemas[f"{PREFIX}.ConfigList"] = _list_schema()
    return schemas


def _list_schema() -> dict[str, Any]:
    return {
        "type": "object", "x-kubernetes-group-version-kind": GVK_LIST, "required": ["items"],
        "properties": {"apiVersion": _s("Versioned schema."), "kind": _s("ConfigList."),
                       "metadata": {"allOf": [_ref(f"{META}.ListMeta")], "default": {}},
                       "items": {"type": "array", "items": _ref(f"{PREFIX}.Config")}}}


def _param(name: str, desc: str, typ: str = "string") -> dict[str, Any]:
    return {"name": name, "in": "query", "description": desc, "schema": {"type": typ, "uniqueItems": True}}


_WRITE_PARAMS = [
    _param("dryRun", "When present (All), the write is validated but not persisted."),
    _param("fieldManager", "Name of the actor making the change."),
    _param("fieldValidation", "Ignore, Warn (default) or Strict handling of unknown fields."),
]


_FAILURES = {  # every failure is a meta/v1 Status with the Kubernetes reason
    "400": "BadRequest: malformed body, query parameter or continue token.",
    "401": "Unauthorized: missing, unknown, revoked or expired access key.",
    "403": "Forbidden: the caller's role does not allow the verb, or writes are disabled.",
    "404": "NotFound: no Config of that name.",
    "405": "MethodNotAllowed.",
    "408": "Timeout: the request body did not arrive in time.",
    "409": "Conflict or AlreadyExists: stale resourceVersion, failed precondition, "
           "apply conflict, or the name is taken.",
    "413": "RequestEntityTooLarge: body, object or JSON-patch copies over their bounds.",
    "415": "UnsupportedMediaType: content type not accepted (strategic merge patch included).",
    "422": "Invalid: field causes name each bad field (spec.raw with line and column).",
    "429": "TooManyRequests: too many open watches; see Retry-After.",
    "503": "ServiceUnavailable: the store is unavailable; see Retry-After.",
}


def _failures(codes: list[str]) -> dict[str, Any]:
    status = {"application/json": {"schema": _ref(f"{META}.Status")}}
    return {code: {"description": _FAILURES[code], "content": status} for code in codes}


_READ_FAILURES = ["400", "401", "403", "404", "429", "503"]
_WRITE_FAILURES = sorted(set(_FAILURES) - {"429"})


def _status_schema() -> dict[str, Any]:
    return {"type": "object", "description": "The outcome of a failed request.",
            "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Status"}],
            "properties": {
                "apiVersion": _s("v1."), "kind": _s("Status."), "metadata": {"type": "object"},
                "status": _s("Failure."), "message": _s("What went wrong, for humans."),
                "reason": _s("Machine-readable reason, e.g. Invalid or NotFound."),
                "code": _s("The HTTP status code.", "integer", format="int32"),
                "details": {"type": "object", "properties": {
                    "name": _s("Name of the object concerned."), "group": _s("Its API group."),
                    "kind": _s("Its resource."),
                    "retryAfterSeconds": _s("When to retry.", "integer", format="int32"),
                    "causes": {"type": "array", "items": {"type": "object", "properties": {
                        "reason": _s("FieldValueInvalid, FieldValueRequired, ..."),
                        "message": _s("Why the field is wrong."),
                        "field": _s("Path of the field, e.g. spec.raw.auth.oidc.issuer.")}}}}}}}


def _op(action: str, desc: str, body: bool, content: list[str] | None = None,
        extra: list[dict[str, Any]] | None = None, list_kind: bool = False) -> dict[str, Any]:
    target = _ref(f"{PREFIX}.ConfigList" if list_kind else f"{PREFIX}.Config")
    found = {"application/json": {"schema": target}}
    responses: dict[str, Any] = {"200": {"description": "OK", "content": found}}
    if action in ("post", "patch"):
        responses["201"] = {"description": "Created", "content": found}
    responses.update(_failures(_WRITE_FAILURES if body or action == "delete" else _READ_FAILURES))
    op: dict[str, Any] = {
        "description": desc, "operationId": f"{action}ManagementPlatformShV1Config",
        "responses": responses,
        "x-kubernetes-action": action,
        "x-kubernetes-group-version-kind": GVK[0],
        "parameters": list(extra or []),
    }
    if body:
        op["requestBody"] = {"content": {c: {"schema": _ref(f"{PREFIX}.Config")}
                                         for c in (content or ["*/*"])}}
    return op


def _paths() -> dict[str, Any]:
    """Operations with the GVK extension and the write parameters (fieldValidation
    especially, which kubectl looks for on PATCH before it sends `fieldValidation=Strict`)."""
    base = f"/apis/{GROUP_VERSION}/configs"
    list_params = [_param("labelSelector", "Label selector."), _param("fieldSelector", "Only metadata.name."),
                   _param("limit", "Page size.", "integer"), _param("continue", "Continue token."),
                   _param("watch", "Stream changes.", "boolean"), _param("resourceVersion", "Start point.")]
    patch_types = ["application/json-patch+json", "application/merge-patch+json",
                   "application/apply-patch+yaml"]
    return {
        base: {"get": _op("list", "List or watch Configs.", False, extra=list_params, list_kind=True),
               "post": _op("post", "Create a Config.", True, extra=_WRITE_PARAMS)},
        base + "/{name}": {
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
            "get": _op("get", "Read a Config.", False),
            "put": _op("put", "Replace a Config.", True, extra=_WRITE_PARAMS),
            "patch": _op("patch", "Patch a Config.", True, patch_types,
                         _WRITE_PARAMS + [_param("force", "Force apply.", "boolean")]),
            "delete": _op("delete", "Delete a Config.", False, extra=[_param("dryRun", "Dry run.")]),
        },
    }


@lru_cache(maxsize=1)
def group_document() -> bytes:
    doc = {"openapi": "3.0.0", "info": {"title": "syncpatch", "version": "v1.32.0"},
           "paths": _paths(), "components": {"schemas": {**_meta_schemas(), **_config_schemas()}}}
    return json.dumps(doc, separators=(",", ":")).encode()


def document_hash() -> str:
    return hashlib.sha256(group_document()).hexdigest()[:32].upper()


def index() -> dict[str, Any]:
    url = f"/openapi/v3/apis/{GROUP_VERSION}?hash={document_hash()}"
    return {"paths": {f"apis/{GROUP_VERSION}": {"serverRelativeURL": url}}}
