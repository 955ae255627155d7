"""Kubernetes-style API errors, one class per `reason`, each rendering a `v1` `Status`.

kubectl prints `Error from server (<reason>): <message>` from these bodies, so every failure
the server can produce goes through here and no traceback ever reaches a client.
"""

from __future__ import annotations

from typing import Any

GROUP = "management.platform.sh"
RESOURCE = "configs"
KIND = "Config"


class ApiError(Exception):
    """Base class: an HTTP status, a Kubernetes reason and optional field causes."""

    code = 500
    reason = "InternalError"

    def __init__(
        self,
        message: str,
        *,
        name: str | None = None,
        causes: list[dict[str, str]] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.name = name
        self.causes = causes or []
        self.retry_after = retry_after

    def status(self) -> dict[str, Any]:
        """The `v1` `Status` body kubectl understands."""
        details: dict[str, Any] = {}
        if self.name is not None:
            details["name"] = self.name
        if self.name is not None or self.causes:
            details["group"] = GROUP
            details["kind"] = RESOURCE
        if self.causes:
            details["causes"] = self.causes
        if self.retry_after is not None:
            details["retryAfterSeconds"] = self.retry_after
        body: dict[str, Any] = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        }
        if details:
            body["details"] = details
        return body


class BadRequest(ApiError):
    code = 400
    reason = "BadRequest"


class Unauthorized(ApiError):
    code = 401
    reason = "Unauthorized"


class Forbidden(ApiError):
    code = 403
    reason = "Forbidden"


class NotFound(ApiError):
    code = 404
    reason = "NotFound"


class MethodNotAllowed(ApiError):
    code = 405
    reason = "MethodNotAllowed"


class NotAcceptable(ApiError):
    code = 406
    reason = "NotAcceptable"


class AlreadyExists(ApiError):
    code = 409
    reason = "AlreadyExists"


class Conflict(ApiError):
    code = 409
    reason = "Conflict"


class Gone(ApiError):
    code = 410
    reason = "Expired"


class RequestTimeout(ApiError):
    code = 408
    reason = "Timeout"


class RequestEntityTooLarge(ApiError):
    code = 413
    reason = "RequestEntityTooLarge"


class UnsupportedMediaType(ApiError):
    code = 415
    reason = "UnsupportedMediaType"


class Invalid(ApiError):
    code = 422
    reason = "Invalid"


class TooManyRequests(ApiError):
    code = 429
    reason = "TooManyRequests"


class InternalError(ApiError):
    code = 500
    reason = "InternalError"


class ServiceUnavailable(ApiError):
    code = 503
    reason = "ServiceUnavailable"


def not_found(name: str) -> NotFound:
    return NotFound(f'{RESOURCE}.{GROUP} "{name}" not found', name=name)


def already_exists(name: str) -> AlreadyExists:
    return AlreadyExists(f'{RESOURCE}.{GROUP} "{name}" already exists', name=name)


def conflict(name: str, why: str) -> Conflict:
    return Conflict(
        f'Operation cannot be fulfilled on {RESOURCE}.{GROUP} "{name}": {why}', name=name
    )


def invalid(name: str | None, causes: list[dict[str, str]]) -> Invalid:
    """422 Invalid with one cause per bad field, formatted the way the apiserver does."""
    parts = [f"{c['field']}: {c['message']}" for c in causes]
    summary = parts[0] if len(parts) == 1 else "[" + ", ".join(parts) + "]"
    shown = name or ""
    return Invalid(f'{KIND}.{GROUP} "{shown}" is invalid: {summary}', name=name, causes=causes)


def cause(field: str, message: str, reason: str = "FieldValueInvalid") -> dict[str, str]:
    return {"reason": reason, "message": message, "field": field}
