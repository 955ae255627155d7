"""Load a ``compile-patches`` artifact: ready patch plans with no compiler in the process.

This module imports only the standard library and ``syncpatch.runtime`` (through the
artifact), so a syncer that ships an artifact needs neither lark, nor pydantic, nor YAML.
A :class:`PlanSet` answers the same questions as ``compile_config``'s ``CompiledConfig``
(``plan(side, resource)``, ``plans``, ``enabled``, ``context(...)``), so code written against
one works with the other.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

# One set of public error classes for in-process expressions and artifacts alike.
from syncpatch.runtime.errors import EvaluationError, LimitExceeded, SyncpatchError
from syncpatch.runtime.plan import PatchPlan


__all__ = [
    "ArtifactError",
    "PlanSet",
    "load_plans",
    "load_artifact",
    "EvaluationError",
    "LimitExceeded",
    "SUPPORTED_FORMAT",
]

SUPPORTED_FORMAT = 1


class ArtifactError(SyncpatchError, ImportError):
    """The file is not a loadable artifact, or was built for another syncpatch."""


class PlanSet:
    """The plans of one config file inside an artifact."""

    def __init__(self, name: str, data: Mapping[str, Any]) -> None:
        self.name = name
        self.plans: Mapping[tuple[str, str], Any] = data["plans"]
        self.enabled: Mapping[tuple[str, str], Any] = data["enabled"]
        self.warnings: tuple[str, ...] = tuple(data.get("warnings", ()))
        self._vcluster_config: Mapping[str, Any] = data["vcluster_config"]

    def __repr__(self) -> str:
        return f"PlanSet({self.name!r}, {len(self.plans)} plans)"

    def plan(self, side: str, resource: str) -> Any:
        """The plan of one resource; an empty plan when it has no patches. An unknown side or
        resource raises :class:`~syncpatch.resources.UnknownResourceError` naming the valid ones."""
        from syncpatch.resources import check_plan_key

        check_plan_key(side, resource, self.enabled)
        found = self.plans.get((side, resource))
        if found is None:
            return PatchPlan()
        return found

    def vcluster_config(self) -> dict[str, Any]:
        """``context.vcluster.config``: the config file merged with defaults (a fresh copy)."""
        copied: dict[str, Any] = _copy(self._vcluster_config)
        return copied

    def context(self, name: str, namespace: str, *, host_object: Any = None,
                virtual_object: Any = None) -> dict[str, Any]:
        """A ready ``context`` for expressions, as ``CompiledConfig.context`` builds it."""
        return {
            "vcluster": {"name": name, "namespace": namespace, "config": self.vcluster_config()},
            "hostObject": host_object,
            "virtualObject": virtual_object,
        }


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _import_file(path: Path) -> ModuleType:
    """Import a file under a name derived from its resolved path (stable, collision-free)."""
    resolved = path.resolve()
    if not resolved.is_file():
        raise ArtifactError(f"{path}: no such artifact file")
    name = "syncpatch_artifact_" + hashlib.sha256(str(resolved).encode()).hexdigest()[:16]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise ArtifactError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ArtifactError:
        raise
    except ImportError as exc:
        raise ArtifactError(f"{path}: {exc}") from exc
    except SyntaxError as exc:
        raise ArtifactError(f"{path}: not a syncpatch artifact ({exc.msg})") from exc
    sys.modules.setdefault(name, module)
    return module


def _module(source: str | Path | ModuleType) -> ModuleType:
    if isinstance(source, ModuleType):
        return source
    text = str(source)
    if isinstance(source, Path) or text.endswith(".py") or "/" in text or "\\" in text:
        return _import_file(Path(text))
    try:
        return importlib.import_module(text)
    except ImportError as exc:
        raise ArtifactError(f"cannot import artifact module {text!r}: {exc}") from exc


def load_artifact(source: str | Path | ModuleType) -> dict[str, PlanSet]:
    """Every config of an artifact (a ``.py`` path, a module name or a module), by name."""
    module = _module(source)
    fmt = getattr(module, "ARTIFACT_FORMAT", None)
    configs = getattr(module, "CONFIGS", None)
    if fmt is None or not isinstance(configs, dict):
        raise ArtifactError(f"{getattr(module, '__file__', module.__name__)}: not a syncpatch artifact")
    if fmt != SUPPORTED_FORMAT:
        built = getattr(module, "SYNCPATCH_VERSION", "?")
        raise ArtifactError(
            f"artifact format {fmt} (built by syncpatch {built}) is not supported by this syncpatch "
            f"(format {SUPPORTED_FORMAT}); rebuild it with compile-patches"
        )
    return {name: PlanSet(name, data) for name, data in configs.items()}


def load_plans(source: str | Path | ModuleType, config: str | None = None) -> PlanSet:
    """The plans of a ``compile-patches`` artifact.

    ``config`` picks one config by name (its file name as given to ``compile-patches``) when
    the artifact was built from several; with one config it may be omitted.
    """
    sets = load_artifact(source)
    if config is not None:
        if config not in sets:
            raise KeyError(f"artifact has no config {config!r}; it has: {', '.join(sets)}")
        return sets[config]
    if len(sets) != 1:
        raise ValueError(f"artifact holds {len(sets)} configs; pass config= one of: {', '.join(sets)}")
    return next(iter(sets.values()))
