"""Compile patch lists and whole tenant configs into runtime :class:`PatchPlan` objects.

Everything is compiled ahead of time, so a config error (bad path, two modes in one entry, an
expression that does not parse) surfaces here, with its field location, and never during sync.
All errors of a config are collected and raised together as one :class:`ConfigError`.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Literal, Mapping, Sequence

import attrs
from pydantic import ValidationError
from pydantic_core import PydanticCustomError

from syncpatch.runtime.errors import SyncpatchError
from syncpatch.runtime.plan import ExpressionPatch, PatchFunction, PatchPlan, PlanEntry
from syncpatch.runtime.references import LabelsPatch, ReferencePatch, ReferenceSpec

from .chart_defaults import chart_defaults, merge_values
from .messages import explain
from .rules import rule_violations
from .models import (FromHostSync, PatchModel, SyncConfig, SyncResource, TenantConfig, ToHostSync,
                     check_duplicate_paths)

__all__ = [
    "ConfigIssue",
    "ConfigError",
    "ConfigWarning",
    "CompiledConfig",
    "compile_patches",
    "compile_config",
    "SWAPPED_FROM_HOST",
]

Loc = tuple[str | int, ...]
Side = Literal["toHost", "fromHost"]

SWAPPED_FROM_HOST = frozenset(
    {
        "nodes",
        "events",
        "csiDrivers",
        "csiNodes",
        "csiStorageCapacities",
        "storageClasses",
        "ingressClasses",
        "runtimeClasses",
        "priorityClasses",
        "volumeSnapshotClasses",
    }
)
"""``fromHost`` resources whose ``expression`` acts host → tenant (vCluster's keyword rule).
For fromHost configMaps, secrets and customResources ``reverseExpression`` acts host → tenant."""


@attrs.frozen
class ConfigIssue:
    """One config error. ``loc`` is the field path (``("sync", "toHost", "endpoints", "patches",
    0, "expression")``); ``line``/``column`` are 1-based inside the expression (or the path
    string) when the error has a position there; ``patch_path`` is the configured path."""

    loc: Loc
    message: str
    patch_path: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = format_loc(self.loc) or "<config>"
        pos = f" (line {self.line}, column {self.column})" if self.line is not None else ""
        return f"{where}{pos}: {self.message}"


@attrs.frozen
class ConfigWarning:
    """Something legal but probably unintended."""

    loc: Loc
    message: str

    def __str__(self) -> str:
        return f"{format_loc(self.loc)}: warning: {self.message}"


class ConfigError(SyncpatchError, ValueError):
    """Every error found in a patch list or config; ``issues`` keeps them structured."""

    def __init__(self, issues: Sequence[ConfigIssue]) -> None:
        super().__init__(tuple(issues))
        self.issues = tuple(issues)

    def __str__(self) -> str:
        head = f"{len(self.issues)} config error{'s' if len(self.issues) != 1 else ''}"
        return head + ":\n" + "\n".join(f"  {issue}" for issue in self.issues)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.issues,))


def format_loc(loc: Loc) -> str:
    """``("sync", "toHost", "endpoints", "patches", 0, "path")`` → ``sync.toHost.endpoints.patches[0].path``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


def _patch_path_at(raw: Any, loc: Loc) -> str | None:
    """The configured ``path`` of the patch entry that ``loc`` points into, if any."""
    node = raw
    for i, part in enumerate(loc):
        if isinstance(node, Mapping):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return None
        if i > 0 and loc[i - 1] == "patches" and isinstance(node, Mapping):
            found = node.get("path")
            return found if isinstance(found, str) else None
    return None


_UNION_TAGS = frozenset({"bool", "str", "int", "float"})


def _data_loc(loc: tuple[Any, ...], raw: Any) -> Loc:
    """The error's location in the data: pydantic's union-member tags (``bool``, ``str``) dropped
    where the data has no such key."""
    out: list[str | int] = []
    node = raw
    for part in loc:
        present = isinstance(node, Mapping) and part in node or isinstance(node, list) and isinstance(part, int)
        if not present and part in _UNION_TAGS:
            continue
        out.append(part)
        if isinstance(node, Mapping):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
    return tuple(out)


def _issues_from_validation(exc: ValidationError, prefix: Loc, raw: Any = None,
                            default_path: str | None = None) -> list[ConfigIssue]:
    issues = []
    seen: set[Loc] = set()
    for err in exc.errors(include_url=False):
        ctx = err.get("ctx") or {}
        loc: Loc = prefix + _data_loc(tuple(err["loc"]), raw)
        if loc in seen:  # the members of one union fail at one place: one issue
            continue
        seen.add(loc)
        explained = explain(err, loc)
        if explained is not None:
            err = {**err, "msg": explained}
        if "index" in ctx and loc and loc[-1] == "patches":
            loc = loc + (int(ctx["index"]),)
        patch_path = ctx.get("path")
        if patch_path is None and raw is not None:
            patch_path = _patch_path_at(raw, tuple(err["loc"]))
        patch_path = patch_path if patch_path is not None else default_path
        column = ctx.get("column")
        issues.append(
            ConfigIssue(
                loc=loc,
                message=_clean(err["msg"]),
                patch_path=patch_path if isinstance(patch_path, str) else None,
                line=1 if column is not None else None,
                column=int(column) if column is not None else None,
            )
        )
    return issues


def _clean(message: str) -> str:
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message


def _default_compiler() -> Callable[[str], PatchFunction]:
    """The compiler's in-process exit: each expression becomes its ``CompiledExpression``
    record, whose facts plans use (imported on first use: validating needs no compiler)."""
    from syncpatch.compiler import compile_expression

    return compile_expression


def _compile_one(source: str, compiler: Callable[[str], PatchFunction], loc: Loc,
                 patch_path: str, issues: list[ConfigIssue]) -> PatchFunction | None:
    try:
        return compiler(source)
    except Exception as exc:
        line, column = getattr(exc, "line", None), getattr(exc, "column", None)
        if line is None and not _is_compile_error(exc):
            raise
        message = getattr(exc, "message", None) or str(exc).splitlines()[0]
        issues.append(ConfigIssue(loc, f"expression does not compile: {message}", patch_path, line, column))
        return None


def _is_compile_error(exc: Exception) -> bool:
    return any(cls.__name__ == "CompileError" for cls in type(exc).__mro__)


def _build_entry(index: int, patch: PatchModel, compiler: Callable[[str], PatchFunction],
                 loc: Loc, issues: list[ConfigIssue]) -> PlanEntry | None:
    if patch.reference is not None:
        ref = patch.reference
        spec = ReferenceSpec(ref.kind, ref.api_version, ref.name_path, ref.namespace_path,
                             ref.kind_path, ref.api_version_path)
        return ReferencePatch(index=index, path=patch.path, reference=spec)
    if patch.labels is not None:
        return LabelsPatch(index=index, path=patch.path)
    fns: list[PatchFunction | None] = []
    for field, source in (("expression", patch.expression), ("reverseExpression", patch.reverse_expression)):
        fns.append(None if source is None else _compile_one(source, compiler, loc + (field,), patch.path, issues))
    return ExpressionPatch(index=index, path=patch.path, expression=fns[0], reverse_expression=fns[1])


def _validate_list(patches: Iterable[Any], loc: Loc) -> tuple[list[PatchModel], list[ConfigIssue]]:
    models: list[PatchModel] = []
    issues: list[ConfigIssue] = []
    for index, raw in enumerate(patches):
        try:
            models.append(raw if isinstance(raw, PatchModel) else PatchModel.model_validate(raw))
        except ValidationError as exc:
            path = raw.get("path") if isinstance(raw, Mapping) else None
            issues.extend(_issues_from_validation(
                exc, loc + (index,), default_path=path if isinstance(path, str) else None))
    if not issues:
        try:
            check_duplicate_paths(models)
        except PydanticCustomError as exc:
            ctx = exc.context or {}
            issues.append(ConfigIssue(loc + (int(ctx.get("index", 0)),), exc.message(), ctx.get("path")))
    return models, issues


def _plan_from_models(models: Sequence[PatchModel], compiler: Callable[[str], PatchFunction], loc: Loc,
                      issues: list[ConfigIssue], swapped: bool, concat_kinds: frozenset[str]) -> PatchPlan:
    entries = []
    for index, model in enumerate(models):
        entry = _build_entry(index, model, compiler, loc + (index,), issues)
        if entry is not None:
            entries.append(entry)
    plan = PatchPlan(entries=tuple(entries), concat_kinds=concat_kinds)
    return plan.swapped() if swapped else plan


def compile_patches(
    patches: Iterable[Mapping[str, Any] | PatchModel],
    *,
    swap_keywords: bool = False,
    concat_kinds: Iterable[str] = (),
    compiler: Callable[[str], PatchFunction] | None = None,
    loc: Loc = ("patches",),
) -> PatchPlan:
    """Compile one patch list into a direction-neutral :class:`PatchPlan`.

    ``plan.to_host`` runs ``expression`` and ``plan.from_host`` runs ``reverseExpression``
    (exchanged with ``swap_keywords=True``). ``compiler`` defaults to the JS compiler
    (``syncpatch.compiler.compile_expression``); any callable returning a patch function will do.
    Raises :class:`ConfigError` listing every problem.
    """
    models, issues = _validate_list(patches, loc)
    if issues:
        raise ConfigError(issues)
    plan = _plan_from_models(models, compiler or _default_compiler(), loc, issues,
                             swap_keywords, frozenset(concat_kinds))
    if issues:
        raise ConfigError(issues)
    return plan


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _resources(sync: SyncConfig) -> Iterator[tuple[Side, str, SyncResource]]:
    """Every configured resource as (side, resource key, model); custom resources are keyed
    ``customResources/<name>``."""
    sections: tuple[tuple[Side, ToHostSync | FromHostSync], ...] = (
        ("toHost", sync.to_host), ("fromHost", sync.from_host))
    for side, section in sections:
        for field in type(section).model_fields:
            value = getattr(section, field)
            if isinstance(value, SyncResource):
                yield side, _camel(field), value
        for name, custom in section.custom_resources.items():
            yield side, f"customResources/{name}", custom


def _resource_loc(side: Side, resource: str) -> Loc:
    if resource.startswith("customResources/"):
        return ("sync", side, "customResources", resource.split("/", 1)[1])
    return ("sync", side, resource)


def is_swapped(side: Side, resource: str) -> bool:
    """vCluster's keyword rule: ``expression`` acts host → tenant for fromHost nodes, events
    and the cluster-scoped resources synced from the host."""
    return side == "fromHost" and resource in SWAPPED_FROM_HOST


_KIND_RESOURCES = {
    "Pod": "pods", "Secret": "secrets", "ConfigMap": "configMaps", "Endpoints": "endpoints",
    "Service": "services", "PersistentVolumeClaim": "persistentVolumeClaims",
    "Ingress": "ingresses", "ServiceAccount": "serviceAccounts",
    "NetworkPolicy": "networkPolicies", "PersistentVolume": "persistentVolumes",
    "StorageClass": "storageClasses", "VolumeSnapshot": "volumeSnapshots",
    "VolumeSnapshotContent": "volumeSnapshotContents",
    "PodDisruptionBudget": "podDisruptionBudgets", "PriorityClass": "priorityClasses",
}


@attrs.frozen
class CompiledConfig:
    """The plans of a tenant config, per (side, resource), plus its warnings.

    Each plan applies both ways; ``plan.keywords`` states which configured keyword acts in
    which direction, so a ``fromHost`` nodes ``expression`` is visibly the host → tenant one.
    """

    config: TenantConfig
    raw: Mapping[str, Any]
    plans: Mapping[tuple[Side, str], PatchPlan]
    enabled: Mapping[tuple[Side, str], bool | str]
    warnings: tuple[ConfigWarning, ...] = ()

    def plan(self, side: Side, resource: str) -> PatchPlan:
        """The plan of one resource; an empty plan when it has no patches. An unknown side or
        resource raises :class:`~syncpatch.resources.UnknownResourceError` naming the valid ones."""
        from syncpatch.resources import check_plan_key

        check_plan_key(side, resource, self.enabled)
        return self.plans.get((side, resource), PatchPlan())

    def kind_synced_to_host(self, kind: str) -> bool:
        """Whether tenant objects of ``kind`` sync to the host: the ``sync_enabled`` rule of
        :func:`~syncpatch.runtime.references.perform_imports`. Custom resources are named by
        their config key (``certificates.cert-manager.io``), since a kind alone is ambiguous."""
        resource = _KIND_RESOURCES.get(kind, f"customResources/{kind}")
        return self.enabled.get(("toHost", resource)) is True

    def vcluster_config(self) -> dict[str, Any]:
        """``context.vcluster.config``: the config file merged over vCluster's chart defaults,
        as Helm merges values (what vCluster itself reads inside the tenant cluster)."""
        return merge_values(chart_defaults(), self.raw)

    def context(self, name: str, namespace: str, *, host_object: Any = None,
                virtual_object: Any = None) -> dict[str, Any]:
        """A ready ``context`` for expressions of this tenant cluster."""
        return {
            "vcluster": {"name": name, "namespace": namespace, "config": self.vcluster_config()},
            "hostObject": host_object,
            "virtualObject": virtual_object,
        }


def _warnings(sync: SyncConfig) -> list[ConfigWarning]:
    warnings = []
    if not sync.to_host.endpoints.enabled and sync.to_host.services.enabled:
        warnings.append(ConfigWarning(
            ("sync", "toHost", "endpoints", "enabled"),
            "endpoints sync is disabled while services sync is enabled: Services without a "
            "selector will have no backends on the host",
        ))
    return warnings


def compile_config(
    config: Mapping[str, Any] | TenantConfig,
    *,
    concat_kinds: Iterable[str] = (),
    compiler: Callable[[str], PatchFunction] | None = None,
) -> CompiledConfig:
    """Validate a tenant config and compile the patches of every resource.

    Raises :class:`ConfigError` with every structural and compile error, each located by
    field path (``sync.toHost.endpoints.patches[0].expression``).
    """
    raw: Mapping[str, Any] = config.model_dump(by_alias=True) if isinstance(config, TenantConfig) else config
    try:
        model = config if isinstance(config, TenantConfig) else TenantConfig.model_validate(config)
    except ValidationError as exc:
        raise ConfigError(_issues_from_validation(exc, (), config)) from None
    issues: list[ConfigIssue] = []
    plans: dict[tuple[Side, str], PatchPlan] = {}
    enabled: dict[tuple[Side, str], bool | str] = {}
    kinds = frozenset(concat_kinds)
    compile_fn = compiler
    issues.extend(ConfigIssue(loc, message) for loc, message in rule_violations(model))
    for side, resource, res in _resources(model.sync):
        enabled[(side, resource)] = res.enabled
        if not res.patches:
            continue
        compile_fn = compile_fn or _default_compiler()
        loc = _resource_loc(side, resource) + ("patches",)
        plans[(side, resource)] = _plan_from_models(
            res.patches, compile_fn, loc, issues, is_swapped(side, resource), kinds
        )
    if issues:
        raise ConfigError(issues)
    return CompiledConfig(model, raw, plans, enabled, tuple(_warnings(model.sync)))
