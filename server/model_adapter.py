"""The one place the server touches the Config model (`syncpatch.platformconfig`).

The server works on plain dicts; this module turns the model's API (pydantic objects,
`ConfigInvalid` with `FieldError`s) into dicts and Kubernetes-style causes, and bounds what
`spec.raw` may cost before the model parses it.
"""

from __future__ import annotations

import re
from typing import Any

import yaml  # type: ignore[import-untyped,unused-ignore]

from syncpatch import platformconfig as pc
from syncpatch.platformconfig.masking import is_secret_path, mask_credentials

from .yamlbounds import YamlTooBig, measure

MASK = pc.MASK
MAX_RAW_BYTES = 512 * 1024  # spec.raw text; the object limit leaves room for its echoes
MAX_RAW_NODES = 20_000
MAX_RAW_EXPANDED = 1024 * 1024  # bytes of spec.raw once YAML aliases are expanded
MAX_DIGITS = 1000  # longest number accepted in spec.raw (Python refuses past 4300)
_TOO_MANY_DIGITS = re.compile(f"[0-9]{{{MAX_DIGITS + 1}}}")


class RawInvalid(Exception):
    """`spec.raw` did not parse into an effective config; `causes` name each bad field."""

    def __init__(self, causes: list[dict[str, str]]) -> None:
        super().__init__("; ".join(c["message"] for c in causes))
        self.causes = causes


def _invalid(message: str) -> RawInvalid:
    return RawInvalid([{"reason": "FieldValueInvalid", "field": "spec.raw", "message": message}])


def _causes_from(exc: pc.ConfigInvalid, prefix: str) -> list[dict[str, str]]:
    """One cause per model error; a secret field's message never echoes the value."""
    out = []
    for err in exc.errors:
        where = f" (line {err.line}, column {err.column})" if err.line else ""
        message = mask_credentials(err.message)
        if is_secret_path(err.path) and err.path != "database.dataSource":
            message = "invalid value (not shown: the field holds a secret); expected a string"
        field = ".".join(p for p in (prefix, err.path) if p) or "<root>"
        out.append({"reason": "FieldValueInvalid", "field": field, "message": f"{message}{where}"})
    return out or [{"reason": "FieldValueInvalid", "field": prefix or "<root>",
                    "message": "invalid platform config"}]


def check_raw_bounds(raw: str) -> None:
    """Size, node count, alias expansion and number length, measured before parsing."""
    if len(raw) > MAX_RAW_BYTES:
        raise _invalid(f"Invalid value: longer than {MAX_RAW_BYTES} characters")
    if not raw.strip():
        return
    try:
        measure(raw, max_nodes=MAX_RAW_NODES, max_bytes=MAX_RAW_EXPANDED, allow_aliases=True)
    except YamlTooBig as exc:
        raise _invalid(f"Invalid value: {exc}") from None
    except yaml.YAMLError:
        return  # the model reports the YAML error with its position
    if _TOO_MANY_DIGITS.search(raw):
        raise _invalid(f"Invalid value: a number longer than {MAX_DIGITS} digits")


def _find_lone_surrogate(node: Any, path: str) -> str | None:
    """The path of the first string holding a lone surrogate (unencodable), if any."""
    if isinstance(node, str):
        try:
            node.encode("utf-8")
        except UnicodeEncodeError:
            return path
        return None
    if isinstance(node, dict):
        for key, value in node.items():
            child = f"{path}.{key}" if isinstance(key, str) and key.isidentifier() else path
            found = _find_lone_surrogate(key, child) or _find_lone_surrogate(value, child)
            if found:
                return found
    if isinstance(node, list):
        for item in node:
            found = _find_lone_surrogate(item, path)
            if found:
                return found
    return None


def effective_status(raw: str) -> dict[str, Any]:
    """Parse a raw platform config into the `status` dict (raises RawInvalid)."""
    return effective_status_with_warnings(raw)[0]


def effective_status_with_warnings(raw: str) -> tuple[dict[str, Any], list[str]]:
    """The status dict plus deprecation warnings (shown by kubectl as `Warning:` lines).

    A status that could not be encoded (a YAML escape producing a lone surrogate) is
    refused here, so that no stored object can break later reads."""
    check_raw_bounds(raw)
    try:
        status, warnings = pc.effective_config_with_warnings(raw, source="spec.raw")
        out = dict(pc.status_to_dict(status))
    except pc.ConfigInvalid as exc:
        raise RawInvalid(_causes_from(exc, "spec.raw")) from None
    except (ValueError, OverflowError, RecursionError):
        raise _invalid("Invalid value: a value in the platform config is out of range") from None
    bad = _find_lone_surrogate(out, "spec.raw")
    if bad is not None:
        raise RawInvalid([{"reason": "FieldValueInvalid", "field": bad, "message":
                           "Invalid value: contains an escape for a lone surrogate "
                           "(not a Unicode character)"}])
    return out, [f"spec.raw: {w}" for w in warnings]


def raw_text(raw: str) -> str:
    """`spec.raw` as text: a base64 `spec.raw` (the platform exports `[]byte`) is decoded."""
    return str(pc.decode_raw(raw)[0])


def mask_object(obj: dict[str, Any]) -> dict[str, Any]:
    """A copy of a Config object with every secret replaced by MASK."""
    return dict(pc.mask_secrets(obj))


def validate_object(obj: dict[str, Any]) -> list[str]:
    """Model-level checks of a whole object (metadata rules); returns warnings."""
    try:
        _config, warnings = pc.validate_config_object(obj)
    except pc.ConfigInvalid as exc:
        raise RawInvalid(_causes_from(exc, "")) from None
    return list(warnings)


def status_schema() -> dict[str, Any]:
    """JSON schema of `status` (the effective config)."""
    return dict(pc.config_json_schema())


def openapi_schemas(prefix: str) -> dict[str, Any]:
    """OpenAPI 3.0 component schemas for Config and nested models."""
    return dict(pc.config_openapi_schemas(prefix=prefix))

