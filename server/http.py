"""HTTP plumbing shared by the endpoints: bodies, content types, query options, responses.

Kept apart from the routes so the limits (body size, nesting depth, YAML aliases) live in
one place and every failure becomes a `Status`.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import yaml  # type: ignore[import-untyped,unused-ignore]
from starlette.requests import Request
from starlette.responses import Response

from syncpatch.yamlsource import YamlSyntaxError, load_data

from . import errors as E
from .patching import APPLY, JSON_PATCH, MERGE, STRATEGIC
from .yamlbounds import YamlTooBig, measure

MAX_BODY = 3 * 1024 * 1024  # as the Kubernetes apiserver's default request limit
MAX_DEPTH = 64
BODY_TIMEOUT = 60.0  # seconds for a whole request body (a slow sender holds a connection)
MAX_YAML_NODES = 20_000  # a Config is a few dozen nodes; its raw config is one string
MAX_INT64 = 2 ** 63 - 1  # resourceVersions, limits and durations live in 64-bit integers
JSON_TYPES = {"application/json", "", "*/*", MERGE, JSON_PATCH, STRATEGIC}
YAML_TYPES = {"application/yaml", "application/x-yaml", "text/yaml", APPLY}


def json_response(body: Any, code: int = 200, headers: dict[str, str] | None = None,
                  media_type: str = "application/json") -> Response:
    """JSON, ASCII-escaped: any string (even one holding a lone surrogate) encodes."""
    data = json.dumps(body, separators=(",", ":")).encode()
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
    deadline = asyncio.get_running_loop().time() + BODY_TIMEOUT
    parts = request.stream().__aiter__()
    while True:
        left = deadline - asyncio.get_running_loop().time()
        try:
            chunk = await asyncio.wait_for(parts.__anext__(), max(left, 0.001))
        except StopAsyncIteration:
            break
        except asyncio.TimeoutError:
            raise E.RequestTimeout(f"the request body did not arrive within {BODY_TIMEOUT:.0f} "
                                   "seconds") from None
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


def decode(body: bytes, ctype: str, *, json_only: bool = False) -> Any:
    """Parse a JSON or YAML body; malformed input is 400, unknown types 415.

    YAML is measured first (node count, no aliases) so that no object is built for a
    body past the bounds; endpoints kubectl only ever sends JSON to take `json_only`."""
    if not body.strip():
        raise E.BadRequest("the request body is empty")
    if json_only and ctype not in JSON_TYPES:
        raise E.UnsupportedMediaType(f"this endpoint accepts only application/json, not {ctype!r}")
    try:
        if ctype in YAML_TYPES:
            text = body.decode("utf-8")
            measure(text, max_nodes=MAX_YAML_NODES, max_bytes=2 * MAX_BODY, allow_aliases=False)
            data = load_data(text, reword=False)  # (timestamps and dates stay text, as the apiserver's YAML keeps them)
        elif ctype in JSON_TYPES:
            data = json.loads(body, parse_constant=_reject_constant)
        else:
            raise E.UnsupportedMediaType(
                f"the body of the request was in an unknown format ({ctype}) - accepted media "
                "types include: application/json, application/yaml")
    except YamlTooBig as exc:
        raise E.BadRequest(f"the request body is not accepted: {exc}") from None
    except (ValueError, yaml.YAMLError, YamlSyntaxError, UnicodeDecodeError, RecursionError) as exc:
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


def ascii_int(text: str, name: str, maximum: int = MAX_INT64) -> int:
    """A non-negative decimal of ASCII digits only, at most `maximum` (400 otherwise).

    `str.isdigit` and `int()` also accept digits such as '²' or '١', and a long digit
    string would overflow the store's 64-bit columns, so both are refused here."""
    if not text or len(text) > 19 or not all("0" <= ch <= "9" for ch in text):
        raise E.BadRequest(f"{name} must be a non-negative integer of at most "
                           f"{maximum} (got {_shown(text)})")
    value = int(text)
    if value > maximum:
        raise E.BadRequest(f"{name} must be at most {maximum} (got {_shown(text)})")
    return value


def _shown(text: str) -> str:
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def int_param(request: Request, name: str, maximum: int = MAX_INT64) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    return ascii_int(raw, name, maximum)


def resource_version_param(request: Request) -> str | None:
    """`resourceVersion` of a watch: empty, or a decimal that fits the store's counter."""
    raw = request.query_params.get("resourceVersion")
    if raw in (None, ""):
        return raw
    return str(ascii_int(raw, "resourceVersion"))


def bool_param(request: Request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in ("true", "1")
