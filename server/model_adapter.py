"""The one place the server touches the Config model (`syncpatch.platformconfig`).

The server works on plain dicts; this module turns the model's API (pydantic objects,
`ConfigInvalid` with `FieldError`s) into dicts and Kubernetes-style causes. While the model is
missing or incomplete, small fallbacks keep the server usable; they are marked as such.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any

import yaml  # type: ignore[import-untyped,unused-ignore]

_pc: Any
try:  # pragma: no cover - depends on the other stage having landed
    _pc = importlib.import_module("syncpatch.platformconfig")
    _HAVE_MODEL = all(
        hasattr(_pc, n)
        for n in ("effective_config", "status_to_dict", "mask_secrets", "ConfigInvalid")
    )
except ImportError:  # pragma: no cover
    _pc = None
    _HAVE_MODEL = False

MASK = getattr(_pc, "MASK", "********") if _pc is not None else "********"
_SECRET_KEYS = {"clientSecret", "password", "token", "caData"}


class RawInvalid(Exception):
    """`spec.raw` did not parse into an effective config; `causes` name each bad field."""

    def __init__(self, causes: list[dict[str, str]]) -> None:
        super().__init__("; ".join(c["message"] for c in causes))
        self.causes = causes


def _causes_from(exc: Any, prefix: str) -> list[dict[str, str]]:
    out = []
    for err in getattr(exc, "errors", []) or []:
        path = getattr(err, "path", "") or ""
        if isinstance(path, (list, tuple)):
            path = ".".join(str(p) for p in path)
        line, col = getattr(err, "line", None), getattr(err, "column", None)
        where = f" (line {line}, column {col})" if line else ""
        field = ".".join(p for p in (prefix, path) if p) or "<root>"
        out.append({"reason": "FieldValueInvalid", "field": field,
                    "message": f"{getattr(err, 'message', str(err))}{where}"})
    if not out:
        out.append({"reason": "FieldValueInvalid", "field": prefix, "message": str(exc)})
    return out


def effective_status(raw: str) -> dict[str, Any]:
    """Parse a raw platform config into the `status` dict (raises RawInvalid)."""
    return effective_status_with_warnings(raw)[0]


def effective_status_with_warnings(raw: str) -> tuple[dict[str, Any], list[str]]:
    """The status dict plus deprecation warnings (shown by kubectl as `Warning:` lines)."""
    if _HAVE_MODEL:
        parse = getattr(_pc, "effective_config_with_warnings", None)
        try:
            if parse is not None:
                status, warnings = parse(raw, source="spec.raw")
            else:
                status, warnings = _pc.effective_config(raw, source="spec.raw"), []
        except _pc.ConfigInvalid as exc:
            raise RawInvalid(_causes_from(exc, "spec.raw")) from None
        return dict(_pc.status_to_dict(status)), [f"spec.raw: {w}" for w in warnings]
    return _fallback_status(raw), []


def _fallback_status(raw: str) -> dict[str, Any]:
    """Fallback while the model is missing: YAML mapping, nothing more."""
    try:
        data = yaml.safe_load(raw) if raw.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise RawInvalid([{"reason": "FieldValueInvalid", "field": "spec.raw",
                           "message": f"invalid YAML{where}"}]) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RawInvalid([{"reason": "FieldValueInvalid", "field": "spec.raw",
                           "message": "must be a mapping"}])
    data.setdefault("projectNamespacePrefix", "p-")
    return data


def raw_text(raw: str) -> str:
    """`spec.raw` as text: a base64 `spec.raw` (the platform exports `[]byte`) is decoded."""
    if _HAVE_MODEL and hasattr(_pc, "decode_raw"):
        return str(_pc.decode_raw(raw)[0])
    return raw


def mask_object(obj: dict[str, Any]) -> dict[str, Any]:
    """A copy of a Config object with every secret replaced by MASK."""
    if _HAVE_MODEL:
        return dict(_pc.mask_secrets(copy.deepcopy(obj)))
    masked: dict[str, Any] = _fallback_mask(copy.deepcopy(obj))
    return masked


def _fallback_mask(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (MASK if k in _SECRET_KEYS and isinstance(v, str) and v else _fallback_mask(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_fallback_mask(v) for v in node]
    return node


def validate_object(obj: dict[str, Any]) -> list[str]:
    """Model-level checks of a whole object (metadata rules); returns warnings."""
    if _HAVE_MODEL and hasattr(_pc, "validate_config_object"):
        try:
            _config, warnings = _pc.validate_config_object(obj)
        except _pc.ConfigInvalid as exc:
            raise RawInvalid(_causes_from(exc, "")) from None
        return list(warnings)
    return []


def status_schema() -> dict[str, Any]:
    """JSON schema of `status` (the effective config); permissive fallback."""
    if _HAVE_MODEL and hasattr(_pc, "config_json_schema"):
        return dict(_pc.config_json_schema())
    return {"type": "object", "x-kubernetes-preserve-unknown-fields": True}


def model_available() -> bool:
    return _HAVE_MODEL


def openapi_schemas(prefix: str) -> dict[str, Any] | None:
    """OpenAPI 3.0 component schemas for Config and nested models, if the model has them."""
    if _HAVE_MODEL and hasattr(_pc, "config_openapi_schemas"):
        return dict(_pc.config_openapi_schemas(prefix=prefix))
    return None
