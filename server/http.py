"""HTTP plumbing shared by the endpoints: bodies, content types, query options, responses.

Kept apart from the routes so the limits (body size, nesting depth, YAML aliases) live in
one place and every failure becomes a `Status`.
"""

from __future__ import annotations

import json
import math
from typing import Any

import yaml  # type: ignore[import-untyped,unused-ignore]
from starlette.requests import Request
from starlette.responses import Response

from . import errors as E
from .patching import APPLY, JSON_PATCH, MERGE, STRATEGIC

MAX_BODY = 3 * 1024 * 1024  # as the Kubernetes apiserver's default request limit
MAX_DEPTH = 64
JSON_TYPES = {"application/json", "", "*/*", MERGE, JSON_PATCH, STRATEGIC}
YAML_TYPES = {"application/yaml", "application/x-yaml", "text/yaml", APPLY}


class _NoAliasLoader(yaml.SafeLoader):  # type: ignore[misc,unused-ignore]
    """YAML without anchors/aliases: no billion-laughs expansion through the server."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.events.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call,unused-ignore]
            raise yaml.composer.ComposerError(None, None, "YAML aliases are not accepted",
                                              event.start_mark)
        return super().compose_node(parent, index)


def json_response(body: Any, code: int = 200, headers: dict[str, str] | None = None,
                  media_type: str = "application/json") -> Response:
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    return Response(data, status_code=code, headers=headers, media_type=media_type)


def status_response(err: E.ApiError) -> Response:
    """A Status body; ASCII-escaped, so any echoed input (even broken Unicode) encodes."""
    headers = {"Retry-After": str(err.retry_after)} if err.retry_after else None
    data = json.dumps(err.status(), separators=(",", ":")).encode()
    return Response(data, status_code=err.code, headers=headers, media_type="application/json")


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request body, refusing anything larger than `limit` with 413."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise E.RequestEntityTooLarge(f"the request body is larger than {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise E.RequestEntityTooLarge(f"the request body is larger than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _depth(node: Any, level: int = 0) -> int:
    """Nesting depth (stopping early past the limit); non-finite numbers are refused."""
    if level > MAX_DEPTH:
        return level
    if isinstance(node, float) and not math.isfinite(node):
        raise E.BadRequest("the request body contains a non-finite number")
    if isinstance(node, str):
        _check_text(node)
        return level
    if isinstance(node, dict):
        for key in node:
            _check_text(key if isinstance(key, str) else str(key))
        return max([_depth(v, level + 1) for v in node.values()] or [level])
    if isinstance(node, list):
        return max([_depth(v, level + 1) for v in node] or [level])
    return level


def _check_text(text: str) -> None:
    """Lone surrogates (from YAML or JSON escapes) cannot be stored or sent back."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise E.BadRequest("the request body contains invalid Unicode (a lone surrogate)") from None


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


def decode(body: bytes, ctype: str) -> Any:
    """Parse a JSON or YAML body; malformed input is 400, unknown types 415."""
    if not body.strip():
        raise E.BadRequest("the request body is empty")
    try:
        if ctype in YAML_TYPES:
            data = yaml.load(body.decode("utf-8"), Loader=_NoAliasLoader)  # noqa: S506
        elif ctype in JSON_TYPES:
            data = json.loads(body, parse_constant=_reject_constant)
        else:
            raise E.UnsupportedMediaType(
                f"the body of the request was in an unknown format ({ctype}) - accepted media "
                "types include: application/json, application/yaml")
    except (ValueError, yaml.YAMLError, UnicodeDecodeError, RecursionError) as exc:
        raise E.BadRequest(f"the request body is not valid {_kind(ctype)}: "
                           f"{_short(exc)}") from None
    if _depth(data) > MAX_DEPTH:
        raise E.BadRequest(f"the request body is nested deeper than {MAX_DEPTH} levels")
    return data


def _kind(ctype: str) -> str:
    return "YAML" if ctype in YAML_TYPES else "JSON"


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()
    return " ".join(t.strip() for t in text[:3])[:300]


def query_options(request: Request) -> dict[str, Any]:
    """Validated write options: dryRun, fieldManager, fieldValidation."""
    q = request.query_params
    dry = q.getlist("dryRun")
    if any(d != "All" for d in dry):
        raise E.BadRequest(f'Invalid value for dryRun: {dry!r}: supported values: "All"')
    validation = q.get("fieldValidation") or "Warn"
    if validation not in ("Strict", "Warn", "Ignore"):
        raise E.BadRequest(f'Invalid value for fieldValidation: "{validation}": supported '
                           'values: "Ignore", "Warn", "Strict"')
    manager = q.get("fieldManager") or _manager_from_agent(request.headers.get("user-agent", ""))
    if len(manager) > 128:
        raise E.BadRequest("fieldManager must be at most 128 characters")
    return {"dry_run": bool(dry), "field_validation": validation, "manager": manager}


def _manager_from_agent(agent: str) -> str:
    """Kubernetes' default field manager: the User-Agent up to the first '/'."""
    return (agent.split("/", 1)[0] or "unknown")[:128]


def int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise E.BadRequest(f"{name} must be an integer, not {raw!r}") from None
    if value < 0:
        raise E.BadRequest(f"{name} must not be negative")
    return value


def bool_param(request: Request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in ("true", "1")
