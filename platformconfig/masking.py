"""Masking secret-bearing fields before a Config leaves the process.

Users expect secrets hidden when a Config is returned. Every client
secret, password, inline token and `caData`, and the password inside `database.dataSource`,
becomes `MASK`. A `tokenSecretRef` is only a reference and stays. Empty values stay empty, so
the mask never suggests a secret that is not there.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import yaml

from .errors import ConfigInvalid
from .formats import DATA_SOURCE
from .documents import load_document

MASK = "********"
_CONNECTORS = ("oidc", "gitHostA", "gitHostB", "idpA", "idpB")
SECRET_PATHS: tuple[tuple[str, ...], ...] = (
    *(("auth", shape, "clientSecret") for shape in _CONNECTORS),
    *(("auth", "connectors", "*", shape, "clientSecret") for shape in _CONNECTORS),
    ("auth", "saml", "caData"),
    ("auth", "connectors", "*", "saml", "caData"),
    ("oidc", "clients", "*", "clientSecret"),
    ("apps", "repositories", "*", "password"),
    ("secretStore", "auth", "token"),
)
DATA_SOURCE_PATH = ("database", "dataSource")
_USERINFO = re.compile(r"(?P<head>(?:[A-Za-z][A-Za-z0-9+.-]*://)?[^:@/]*:)(?P<password>.+)@", re.DOTALL)
# Credentials any string may carry: `scheme://user:password@host` (repository URLs, the
# secret store address, issuer URLs) and `password=...`-style DSN or query parameters.
_URL_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^/?#@:\s]*:)(?P<password>[^/?#@\s]+)@")
_SECRET_PARAM = re.compile(
    r"(?i)(?P<head>(?<![A-Za-z0-9_])(?:password|passwd|pwd|sslpassword|sslkey_?password|secret|"
    r"client_?secret|token|access_?token|refresh_?token|api_?key)=)(?P<password>[^&;\s#]+)")


def mask_secrets(obj: dict[str, Any]) -> dict[str, Any]:
    """A masked deep copy of a Config object dict: its `status` and its `spec.raw`."""
    out = copy.deepcopy(obj)
    status = out.get("status")
    if isinstance(status, dict):
        out["status"] = mask_status(status)
    spec = out.get("spec")
    if isinstance(spec, dict) and isinstance(spec.get("raw"), str):
        spec["raw"] = mask_raw(spec["raw"])
    return out


def mask_status(status: dict[str, Any]) -> dict[str, Any]:
    """A masked deep copy of a status (or parsed raw platform config) dict."""
    out = copy.deepcopy(status)
    for path in SECRET_PATHS:
        _mask_at(out, path, lambda value: MASK)
    _mask_at(out, DATA_SOURCE_PATH, mask_data_source)
    masked: dict[str, Any] = _mask_credentials(out)
    return masked


def mask_credentials(text: str) -> str:
    """`text` with URL userinfo passwords and `password=`-style parameters masked."""
    if "=" not in text and "@" not in text:
        return text
    text = _URL_USERINFO.sub(lambda m: m.group("head") + MASK + "@", text)
    return _SECRET_PARAM.sub(lambda m: m.group("head") + MASK, text)


def _mask_credentials(node: Any) -> Any:
    if isinstance(node, str):
        return mask_credentials(node)
    if isinstance(node, dict):
        return {key: _mask_credentials(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_mask_credentials(item) for item in node]
    return node


def is_secret_path(path: str) -> bool:
    """Whether an error path (`auth.connectors[0].oidc.clientSecret`) names a secret field,
    so that a message about it must not echo the value."""
    parts = tuple("*" if p.startswith("[") else p for p in re.findall(r"\[\d+\]|[^.\[\]]+", path))
    return parts == DATA_SOURCE_PATH or any(
        len(parts) == len(secret) and all(s in ("*", p) for s, p in zip(secret, parts))
        for secret in SECRET_PATHS)


def mask_raw(raw: str) -> str:
    """`raw` with its secrets masked, re-rendered in its key order.

    Text with nothing to mask and no comments comes back unchanged. Comments are free text
    that may hold a secret nobody can recognise, so text with a `#` is re-rendered without
    them. Text that does not parse (or exceeds the YAML size budget) cannot be masked field
    by field, so all of it is masked rather than risk a leak.
    """
    try:
        data: Any = load_document(raw).data
    except ConfigInvalid:
        return MASK
    if not isinstance(data, dict):
        return raw if "#" not in raw else MASK
    masked = mask_status(data)
    if masked == data and "#" not in raw:
        return raw
    text: str = yaml.safe_dump(masked, sort_keys=False, default_flow_style=False, allow_unicode=True)
    return text


def mask_data_source(value: str) -> str:
    """Only the password part of `<scheme>://<user>:<password>@<host>:<port>/<db>`."""
    match = DATA_SOURCE.match(value)
    if match is not None:
        if not match.group("password"):
            return value
        start, end = match.span("password")
        return value[:start] + MASK + value[end:]
    other = _USERINFO.match(value)  # other DSN forms, e.g. user:pass@tcp(host:3306)/db
    if other is not None:
        start, end = other.span("password")
        return value[:start] + MASK + value[end:]
    return value


def _mask_at(node: Any, path: tuple[str, ...], mask: Any) -> None:
    """Apply `mask` to each non-empty string at `path` (`*` walks list items) in place."""
    if not path:
        return
    head, rest = path[0], path[1:]
    children: list[tuple[Any, Any]]
    if head == "*":
        children = list(enumerate(node)) if isinstance(node, list) else []
    elif isinstance(node, dict) and head in node:
        children = [(head, node[head])]
    else:
        return
    for key, child in children:
        if rest:
            _mask_at(child, rest, mask)
        elif isinstance(child, str) and child:
            node[key] = mask(child)
