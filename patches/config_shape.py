"""Strict pydantic models of every section of a vCluster config, built from :data:`SPEC`.

One notation (:mod:`.vcluster_spec`) holds the ~200 structs of a vCluster 0.33 config, so the
models, the JSON Schema and the "did you mean" of a typo can never disagree about a key. The
models are as strict as vCluster's start-up: unknown keys are errors (vCluster decodes its
config strictly), and a quoted ``"true"`` where a boolean belongs or a number where a string
belongs is refused, as Go's JSON decoding refuses it. ``null`` is accepted everywhere, since
decoding a null leaves the Go field at its zero value.
"""

from __future__ import annotations

import keyword
from typing import Annotated, Any, Mapping, Optional, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, create_model

from .vcluster_spec import SPEC

__all__ = ["StrictModel", "parse_spec", "struct_keys", "shape_model", "known_keys_at", "python_name"]


class StrictModel(BaseModel):
    """Base of every config model: unknown keys are errors, fields are filled by their YAML key."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


Spec = dict[str, list[tuple[str, str]]]


def parse_spec(text: str) -> Spec:
    """``Name`` lines and indented ``key type`` lines into {struct: [(key, type)]}."""
    structs: Spec = {}
    current: list[tuple[str, str]] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if not line.startswith(" "):
            current = structs.setdefault(line.strip(), [])
            continue
        parts = line.split()
        if current is None or len(parts) != 2:
            raise ValueError(f"spec line {number} is not 'key type': {line!r}")
        current.append((parts[0], parts[1]))
    return structs


_STRUCTS = parse_spec(SPEC)
_BASIC: dict[str, Any] = {
    "str": StrictStr,
    "bool": StrictBool,
    "int": StrictInt,
    "any": Any,
    "strbool": Union[StrictBool, StrictStr],
}
_BUILT: dict[str, type[BaseModel]] = {}
_EXTERNAL: dict[str, type[BaseModel]] = {}


def struct_keys(name: str) -> list[tuple[str, str]]:
    """The (key, type) pairs of a struct, inlined structs expanded in place."""
    out: list[tuple[str, str]] = []
    for key, type_ in _STRUCTS[name]:
        if key == "..":
            out.extend(struct_keys(type_))
        else:
            out.append((key, type_))
    return out


def python_name(key: str) -> str:
    """A field name for a YAML key: the key itself unless Python or pydantic reserve it."""
    if key.isidentifier() and not keyword.iskeyword(key) and not hasattr(BaseModel, key) and not key.startswith("_"):
        return key
    return "".join(c if c.isalnum() else "_" for c in key).lstrip("_") + "_"


def _annotation(type_: str) -> Any:
    if type_.startswith("["):
        return list[Optional[_annotation(type_[1:-1])]]  # type: ignore[misc]
    if type_.startswith("{"):
        return dict[str, Optional[_annotation(type_[1:-1])]]  # type: ignore[misc]
    if type_ in _BASIC:
        return _BASIC[type_]
    return shape_model(type_)


def register_external(name: str, model: type[BaseModel]) -> None:
    """Use a hand-written model for struct ``name`` (the ``sync`` section's models)."""
    _EXTERNAL[name] = model
    _BUILT.pop(name, None)


def shape_model(name: str, *, base: type[BaseModel] = StrictModel, skip: frozenset[str] = frozenset()) -> type[BaseModel]:
    """The model of struct ``name`` (built once). ``base``/``skip`` let a caller build a root
    whose hand-written fields replace some keys (the root config, whose ``sync`` is ours)."""
    if name in _EXTERNAL:
        return _EXTERNAL[name]
    custom = base is not StrictModel or bool(skip)
    if not custom and name in _BUILT:
        return _BUILT[name]
    fields: dict[str, Any] = {}
    for key, type_ in struct_keys(name):
        if key in skip:
            continue
        annotation: Any = Optional[_annotation(type_)]
        fields[python_name(key)] = (Annotated[annotation, Field(alias=key)], None)
    model: type[BaseModel] = create_model(name, __base__=base, __module__=__name__, **fields)
    if not custom:
        _BUILT[name] = model
    return model


def _unwrap(annotation: Any) -> Any:
    """The model (or container) an annotation holds, through Optional/Annotated/Union."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin is Union:
            inner = [a for a in get_args(annotation) if a is not type(None)]
            models = [a for a in inner if isinstance(a, type) and issubclass(a, BaseModel)]
            annotation = models[0] if models else inner[0] if len(inner) == 1 else Any
        else:
            return annotation


def known_keys_at(model: type[BaseModel], loc: tuple[str | int, ...]) -> list[str]:
    """The keys valid in the mapping at ``loc`` (for "did you mean"); empty when free-form."""
    current: Any = model
    for part in loc:
        current = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = next((f for n, f in current.model_fields.items() if (f.alias or n) == part), None)
            if field is None:
                return []
            current = field.annotation
        elif get_origin(current) in (list, dict):
            current = get_args(current)[-1]
        else:
            return []
    current = _unwrap(current)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [f.alias or n for n, f in current.model_fields.items()]
    return []


def _check_spec(structs: Mapping[str, list[tuple[str, str]]]) -> None:
    """Every type named in the spec exists (a typo in the spec would otherwise surface late)."""
    for name, keys in structs.items():
        for key, type_ in keys:
            base = type_.strip("[]{}")
            if base not in _BASIC and base not in structs and base != "Sync":
                raise ValueError(f"spec: {name}.{key} names unknown type {type_}")


_check_spec(_STRUCTS)
