"""The model base: strict, closed, camelCase on the wire, with path-aware cross-field rules.

pydantic reports type errors at their exact path on its own. Rules that relate several fields
(one of caData/ca, level xor policy) run in an after-validator; they return violations
relative to the model, and `Violations` carries them out through pydantic so every one keeps
its exact path instead of collapsing into one message at the model.
"""

from __future__ import annotations

from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationInfo, model_validator

Part = str | int
Rule = tuple[tuple[Part, ...], str]
COLLECT = {"collect_violations": True}


class Violations(ValueError):
    """Cross-field rule failures of one model, each with a path relative to that model."""

    def __init__(self, found: list[Rule]) -> None:
        self.found = found
        super().__init__("; ".join(f"{'.'.join(map(str, p))}: {m}" for p, m in found))


class Model(BaseModel):
    """Strict (no `"10"` -> 10 coercion) and closed (`extra="forbid"`), like Kubernetes'
    strict field validation, so a typo'd key is an error rather than silently ignored."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", strict=True)
    _violations: list[Rule] = PrivateAttr(default_factory=list)

    def violations(self) -> list[Rule]:
        """Cross-field rules; subclasses return (path, message) pairs for each violation."""
        return []

    @model_validator(mode="after")
    def _apply_rules(self, info: ValidationInfo) -> Self:
        """Raise the violations, or under the `COLLECT` context keep them on the instance.

        Collecting lets a parent's rules run even when a child breaks one of its own, so
        validation can report every violation in the tree (see `collect_violations`).
        """
        found = self.violations()
        if found and isinstance(info.context, dict) and info.context.get("collect_violations"):
            self._violations = found
        elif found:
            raise Violations(found)
        return self


def collect_violations(model: BaseModel, path: tuple[Part, ...] = ()) -> list[Rule]:
    """Every violation kept on `model` and its descendants, with paths from `model`."""
    found: list[Rule] = []
    if isinstance(model, Model):
        found.extend(((*path, *sub), message) for sub, message in model._violations)
    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        child = (*path, info.alias or name)
        if isinstance(value, BaseModel):
            found.extend(collect_violations(value, child))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    found.extend(collect_violations(item, (*child, index)))
    return found


def field(alias: str | None = None, description: str | None = None, **extra: Any) -> Any:
    """An optional field (default None, left out of the wire form) with its wire name."""
    return Field(None, alias=alias, description=description, **extra)


def required(model: BaseModel, *names: str) -> list[Rule]:
    """Violations for each required field (by Python name) that is unset or empty."""
    found: list[Rule] = []
    for name in names:
        value = getattr(model, name)
        if value is None or value == "" or value == []:
            wire = type(model).model_fields[name].alias or name
            found.append(((wire,), "is required"))
    return found


def wire(model: type[BaseModel], name: str) -> str:
    """The wire (alias) name of a Python field name, for messages and paths."""
    return model.model_fields[name].alias or name
