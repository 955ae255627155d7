"""The platform's own `Config` resource (`management.platform.sh/v1`): model, validation,
effective config, masking.

API (stable; the API server builds on these names):

- `Config`, `ObjectMeta`, `ConfigSpec`, `ConfigStatus`: pydantic v2 models. Python names are
  snake_case, wire names camelCase exactly as the platform's API (aliases, `populate_by_name=True`,
  `extra="forbid"`, strict types). Dump with `by_alias=True, exclude_none=True`.
- `effective_config(raw, *, source="<raw>") -> ConfigStatus`: parse the raw YAML, validate
  it, fill the documented defaults. Raises `ConfigInvalid`.
- `effective_config_with_warnings(raw, *, source=...) -> (ConfigStatus, list[str])`: the same,
  plus deprecation warnings for the raw config (`oidc`, `workspaceSubDomain`).
- `deprecation_warnings(status_or_raw) -> list[str]`: the warnings alone.
- `validate_config_object(obj) -> (Config, list[str])`: a whole Config object dict; checks
  apiVersion/kind, structure, the metadata rules (names, labels, annotations, owner
  references, finalizers, timestamps) and any status. It does not parse `spec.raw`; run
  `effective_config(config.spec.raw)` next. Warnings cover `metadata.selfLink` (cleared in
  the returned model) and deprecated status fields (`status.oidc`, ...).
- `ConfigInvalid(Exception)`: `.errors: list[FieldError]`, every problem, sorted by position.
  `FieldError(path, message, line, column)`; `str()` is `path: message`,
  `.located(file)` is `file:line:column: path: message`.
- `mask_secrets(obj) -> dict`: a masked deep copy of a Config object dict (status and
  `spec.raw`); `mask_status(dict)`, `mask_raw(str)`; `MASK = "********"`.
- `decode_raw(raw) -> (text, was_base64)`: `spec.raw` as text; a base64 `spec.raw` (the
  platform's type is `[]byte`) is decoded. `ConfigSpec` applies it on input.
- `status_to_dict(status) -> dict`: wire form (camelCase, unset fields left out).
- `config_json_schema() -> dict`: JSON schema of `Config`; `config_openapi_schemas()` gives
  OpenAPI 3.0 component schemas for `/openapi/v3`.
"""

from __future__ import annotations

from .effective import (apply_defaults, deprecation_warnings, effective_config,
                        effective_config_with_warnings, status_to_dict)
from .errors import ConfigInvalid, FieldError
from .masking import MASK, mask_raw, mask_secrets, mask_status
from .metadata import ManagedFieldsEntry, ObjectMeta, OwnerReference
from .model import API_VERSION, KIND, Config, ConfigSpec, ConfigStatus, decode_raw
from .schema import config_json_schema, config_openapi_schemas
from .validate import validate_config_object

__all__ = [
    "API_VERSION",
    "KIND",
    "MASK",
    "Config",
    "ConfigInvalid",
    "ConfigSpec",
    "ConfigStatus",
    "FieldError",
    "ManagedFieldsEntry",
    "ObjectMeta",
    "OwnerReference",
    "apply_defaults",
    "config_json_schema",
    "config_openapi_schemas",
    "decode_raw",
    "deprecation_warnings",
    "effective_config",
    "effective_config_with_warnings",
    "mask_raw",
    "mask_secrets",
    "mask_status",
    "status_to_dict",
    "validate_config_object",
]
