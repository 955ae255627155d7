"""Turning pydantic's findings into `FieldError`s, and validating whole `Config` objects.

Input always comes from the wire, so it is validated by alias only (`by_name=False`):
`redirectURI` is a field, `redirect_uri` in a YAML file is an unknown key.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from .base import COLLECT, Violations, collect_violations
from .deprecations import status_deprecations
from .errors import ConfigInvalid, FieldError
from .model import Config, ConfigStatus
from .documents import Document, Part, located_error, structural_errors

M = TypeVar("M", bound=BaseModel)


def validate_model(
    model: type[M], data: Any, doc: Document | None = None, *, source: str = "<raw>",
    prefix: Sequence[Part] = (),
) -> M:
    """Validate wire data into `model`, raising `ConfigInvalid` with every problem located.

    pydantic reports all structural problems (types, unknown keys, formats) at once. To also
    report the cross-field rules of models it could not build, the offending values are
    pruned from a copy and validation runs again; rule violations found then are added unless
    they sit on or above a path that already has an error (they would only echo it).
    """
    errors = structural_errors(doc) if doc is not None else []
    work = copy.deepcopy(data)
    for _ in range(8):
        try:
            result = model.model_validate(work, by_alias=True, by_name=False, context=COLLECT)
        except ValidationError as exc:
            errors = _merge(errors, field_errors(exc, doc, prefix, model))
            if not _prune(work, exc):
                raise ConfigInvalid(errors, source) from None
            continue
        found = [_located(doc, (*prefix, *path), msg, False) for path, msg in collect_violations(result)]
        errors = _add_violations(errors, found)
        if errors:
            raise ConfigInvalid(errors, source)
        return result
    raise ConfigInvalid(errors, source)


def _prune(data: Any, exc: ValidationError) -> bool:
    """Delete, in place, the deepest mapping key holding each error; False if none could go.

    Only mapping keys are deleted, never list items, so list indices in later paths stay true.
    """
    changed = False
    for detail in exc.errors():
        loc = detail["loc"]
        for depth in range(len(loc) - 1, -1, -1):
            parent = _at(data, loc[:depth])
            if isinstance(parent, dict) and isinstance(loc[depth], str) and loc[depth] in parent:
                del parent[loc[depth]]
                changed = True
                break
    return changed


def _at(data: Any, loc: Sequence[Any]) -> Any:
    for part in loc:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def field_errors(
    exc: ValidationError, doc: Document | None, prefix: Sequence[Part] = (),
    model: type[BaseModel] | None = None,
) -> list[FieldError]:
    """One `FieldError` per problem, expanding cross-field `Violations` to their own paths.

    With the validated `model`, unknown fields get a did-you-mean hint from its field names.
    """
    out: list[FieldError] = []
    for detail in exc.errors():
        loc = (*prefix, *detail["loc"])
        violations = detail.get("ctx", {}).get("error")
        if isinstance(violations, Violations):
            for sub, message in violations.found:
                out.append(_located(doc, (*loc, *sub), message, False))
        else:
            message, at_key = _message(detail)
            if detail["type"] == "extra_forbidden" and model is not None:
                message += _suggestion(model, detail["loc"])
            if loc and loc[-1] == "[key]":  # pydantic's marker for a bad mapping key
                loc, message, at_key = loc[:-1], f"key {loc[-2]!r}: {message}", True
            out.append(_located(doc, loc, message, at_key))
    return out


def _suggestion(model: type[BaseModel], loc: Sequence[Any]) -> str:
    """`; did you mean 'clientId'?` for a misspelt key, from the fields of its model."""
    current: type[BaseModel] | None = model
    for part in loc[:-1]:
        if current is None:
            return ""
        if isinstance(part, str):
            fields = {info.alias or name: info.annotation for name, info in current.model_fields.items()}
            current = _model_in(fields.get(part))
    if current is None:
        return ""
    names = [info.alias or name for name, info in current.model_fields.items()]
    lowered = {n.lower(): n for n in names}
    key = str(loc[-1])
    match = lowered.get(key.lower()) or next(iter(difflib.get_close_matches(key, names, n=1, cutoff=0.75)), None)
    return f"; did you mean {match!r}?" if match else ""


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model class inside an annotation such as `list[Connector] | None`."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _located(doc: Document | None, path: Sequence[Part], message: str, at_key: bool) -> FieldError:
    return located_error(doc, path, message, at_key=at_key)


def _message(detail: ErrorDetails) -> tuple[str, bool]:
    """A user-facing message, and whether it concerns the key rather than the value."""
    kind = detail["type"]
    if kind == "extra_forbidden":
        return (f"unknown field {str(detail['loc'][-1])!r}", True)
    if kind == "missing":
        return ("is required", True)
    if kind == "syncpatch":
        return (str(detail.get("ctx", {}).get("reason", detail["msg"])), False)
    message = _EXPECTED.get(kind) or detail["msg"][:1].lower() + detail["msg"][1:]
    if kind.endswith("_type") or kind in ("literal_error", "int_from_float"):
        message += f", got {_describe(detail['input'])}"
    return (message, False)


_EXPECTED = {
    "model_type": "expected a mapping",
    "model_attributes_type": "expected a mapping",
    "dict_type": "expected a mapping",
    "list_type": "expected a list",
    "string_type": "expected a string",
    "bool_type": "expected true or false",
    "int_type": "expected an integer",
    "int_from_float": "expected an integer",
    "float_type": "expected a number",
}


def _describe(value: Any) -> str:
    """How a YAML value reads to the user: `int 10`, `string "10"`, `a mapping`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"string {shown!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def validate_config_object(
    obj: dict[str, Any], *, source: str = "<object>", doc: Document | None = None
) -> tuple[Config, list[str]]:
    """Validate a whole Config object (apiVersion, kind, metadata, spec, optional status).

    Checks structure and the Kubernetes metadata rules; it does not parse `spec.raw` (use
    `effective_config` for that, which the server runs next). Returns the model, with the
    never-populated `selfLink` cleared, and deprecation warnings for metadata and status.
    """
    if not isinstance(obj, dict):
        got = _describe(obj)
        raise ConfigInvalid([_located(doc, (), f"a Config object must be a mapping, got {got}", False)], source)
    errors: list[FieldError] = []
    for key in ("apiVersion", "kind", "metadata"):
        if key not in obj:
            errors.append(_located(doc, (key,), "is required", True))
    try:
        config = validate_model(Config, obj, doc, source=source)
    except ConfigInvalid as exc:
        raise ConfigInvalid(_merge(errors, exc.errors), source) from None
    if errors:
        raise ConfigInvalid(errors, source)
    return config, _object_warnings(config)


def _merge(first: list[FieldError], second: list[FieldError]) -> list[FieldError]:
    """`first` plus the errors of `second` it does not already hold."""
    seen = {(e.path, e.message) for e in first}
    return first + [e for e in second if (e.path, e.message) not in seen]


def _add_violations(errors: list[FieldError], found: list[FieldError]) -> list[FieldError]:
    """Rule violations, except those on or above a path that already has an error."""
    return errors + [v for v in found if not any(_covers(v.path, e.path) for e in errors)]


def _covers(path: str, deeper: str) -> bool:
    """Whether `path` equals `deeper` or is one of its ancestors."""
    if path == deeper or not path:
        return True
    return deeper.startswith(path) and deeper[len(path)] in ".["


def _object_warnings(config: Config) -> list[str]:
    warnings: list[str] = []
    if config.metadata.self_link is not None:
        warnings.append("metadata.selfLink: deprecated and never populated; the value is ignored")
        config.metadata.self_link = None
    if config.status is not None:
        warnings.extend(f"status.{w}" for w in status_deprecations(config.status))
    return warnings


def validate_status(data: Any, doc: Document | None = None, *, source: str = "<raw>") -> ConfigStatus:
    """Validate a parsed raw platform config (the future `status`), without defaults."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        message = f"the platform config must be a mapping of settings, got {_describe(data)}"
        raise ConfigInvalid([_located(doc, (), message, False)], source)
    return validate_model(ConfigStatus, data, doc, source=source)
