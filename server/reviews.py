"""`kubectl auth can-i` and `kubectl auth whoami`: SelfSubjectAccessReview and
SelfSubjectReview answered from the same rules the API enforces."""

from __future__ import annotations

from typing import Any

from . import errors as E
from .auth import Principal

GROUP = "management.platform.sh"
READ_VERBS = {"get", "list", "watch"}
WRITE_VERBS = {"create", "update", "patch", "delete"}
STRING_ATTRIBUTES = ("namespace", "verb", "group", "version", "resource", "subresource", "name", "path")


def _strings(attrs: dict[str, Any], where: str) -> None:
    """Every attribute of a review is a string (or absent), as in the Kubernetes types."""
    for key in STRING_ATTRIBUTES:
        value = attrs.get(key)
        if value is not None and not isinstance(value, str):
            raise E.BadRequest(f"{where}.{key} must be a string")


def decide(principal: Principal, attrs: dict[str, Any], writes_disabled: bool) -> tuple[bool, str]:
    """Whether the caller may do `verb` on `resource` in `group`, and why."""
    _strings(attrs, "spec.resourceAttributes")
    verb, group = attrs.get("verb") or "", attrs.get("group") or ""
    resource = attrs.get("resource") or ""
    if group not in (GROUP, "*") or resource not in ("configs", "*"):
        return False, "this server only serves configs.management.platform.sh"
    if attrs.get("subresource"):
        return False, "Configs have no subresources"
    if verb in READ_VERBS:
        return True, f"{principal.role}s may {verb} Configs"
    if verb not in WRITE_VERBS and verb != "*":
        return False, f"unknown verb {verb!r}"
    if not principal.is_admin:
        return False, "viewers may only get, list and watch Configs"
    if writes_disabled:
        return False, "disableConfigEndpoint is true in the server's effective config"
    return True, "admins may do everything with Configs"


def access_review(principal: Principal, body: Any, writes_disabled: bool) -> dict[str, Any]:
    if not isinstance(body, dict) or not isinstance(body.get("spec"), dict):
        raise E.BadRequest("a SelfSubjectAccessReview needs a spec")
    spec = body["spec"]
    attrs = spec.get("resourceAttributes")
    if isinstance(attrs, dict):
        allowed, reason = decide(principal, attrs, writes_disabled)
    elif isinstance(spec.get("nonResourceAttributes"), dict):
        _strings(spec["nonResourceAttributes"], "spec.nonResourceAttributes")
        verb = spec["nonResourceAttributes"].get("verb")
        allowed, reason = verb == "get", "discovery and version documents are readable"
    else:
        raise E.invalid(None, [E.cause("spec", "resourceAttributes or nonResourceAttributes is required",
                                       "FieldValueRequired")])
    status: dict[str, Any] = {"allowed": allowed, "reason": reason}
    if not allowed:
        status["denied"] = False
    return {"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
            "metadata": {"creationTimestamp": None}, "spec": spec, "status": status}


def subject_review(principal: Principal) -> dict[str, Any]:
    return {"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
            "metadata": {"creationTimestamp": None},
            "status": {"userInfo": {"username": principal.user,
                                    "groups": [f"syncpatch:{principal.role}s", "system:authenticated"]}}}


PROTOBUF = "application/vnd.kubernetes.protobuf"
_MAGIC = b"k8s\x00"
_RESOURCE_FIELDS = {1: "namespace", 2: "verb", 3: "group", 4: "version", 5: "resource",
                    6: "subresource", 7: "name"}


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise E.BadRequest("malformed protobuf body")
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if not byte & 0x80:
            return value, pos


def _fields(data: bytes) -> dict[int, bytes]:
    """Length-delimited fields of one protobuf message (others skipped); last wins."""
    out: dict[int, bytes] = {}
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, pos = _varint(data, pos)
        elif wire == 2:
            size, pos = _varint(data, pos)
            if pos + size > len(data):
                raise E.BadRequest("malformed protobuf body")
            out[number], pos = data[pos:pos + size], pos + size
        else:
            raise E.BadRequest("unsupported protobuf wire type")
    return out


def decode_protobuf_review(body: bytes) -> dict[str, Any]:
    """The spec of a protobuf SelfSubjectAccessReview, which kubectl's typed client sends:
    the `k8s\\0` envelope (runtime.Unknown, raw = field 2) around the review message."""
    if not body.startswith(_MAGIC):
        raise E.BadRequest("protobuf body without the Kubernetes envelope")
    review = _fields(_fields(body[len(_MAGIC):]).get(2, b""))
    spec = _fields(review.get(2, b""))
    if 1 in spec:
        attrs = _fields(spec[1])
        return {"resourceAttributes": {name: attrs[n].decode("utf-8", "replace")
                                       for n, name in _RESOURCE_FIELDS.items() if n in attrs}}
    if 2 in spec:
        attrs = _fields(spec[2])
        return {"nonResourceAttributes": {"path": attrs.get(1, b"").decode("utf-8", "replace"),
                                          "verb": attrs.get(2, b"").decode("utf-8", "replace")}}
    return {}
