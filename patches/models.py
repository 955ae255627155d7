"""pydantic v2 models of a vCluster config: the ``sync`` section by hand, the rest generated.

Field names are camelCase in YAML (aliases, spelled as vCluster spells them) and snake_case in
Python; unknown keys are errors (``extra="forbid"``) so a typo such as ``reverseExpresion`` is
reported instead of silently disabling a patch. Scalars are strict, as vCluster's decoding is:
``enabled: "true"`` is refused. Defaults follow vCluster 0.33's chart: towards the host,
endpoints, endpointSlices, services, secrets, configMaps, pods and persistentVolumeClaims are
enabled; from the host, events are, and the CSI/storage-class syncers are ``"auto"``.

Validation here is structural (shapes, modes, duplicate paths, path syntax). Expressions are
compiled by :mod:`syncpatch.patches.compile`, which reports compile errors with the same
field locations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, field_validator, model_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from syncpatch.runtime.paths import Index, Key, PathError, parse_path

from .config_shape import register_external, shape_model

__all__ = [
    "PatchModel",
    "ReferenceModel",
    "LabelsModel",
    "SyncResource",
    "ToHostSync",
    "FromHostSync",
    "SyncConfig",
    "TenantConfig",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


def _check_path(value: str, field: str) -> str:
    try:
        parse_path(value)
    except PathError as exc:
        raise PydanticCustomError(
            "invalid_path",
            "{field} '{path}' does not parse: {message} (column {column})",
            {"field": field, "path": value, "message": exc.message, "column": exc.column},
        ) from None
    return value


class ReferenceModel(_Strict):
    """``reference:``: the value at ``path`` names another object."""

    api_version: StrictStr = ""
    api_version_path: StrictStr | None = None
    kind: StrictStr = ""
    kind_path: StrictStr | None = None
    name_path: StrictStr | None = None
    namespace_path: StrictStr | None = None

    @field_validator("api_version_path", "kind_path", "name_path", "namespace_path")
    @classmethod
    def _paths_parse(cls, value: str | None, info: Any) -> str | None:
        return None if value is None else _check_path(value, to_camel(info.field_name))

    @model_validator(mode="after")
    def _kind_and_api_version_required(self) -> "ReferenceModel":
        missing = [name for name, value in (("apiVersion", self.api_version), ("kind", self.kind)) if not value]
        if missing:
            raise PydanticCustomError(
                "reference_target",
                "reference needs {missing}: vCluster's config requires apiVersion and kind on every "
                "reference (they name the referenced objects' type; apiVersionPath and kindPath only "
                "override them per object)",
                {"missing": " and ".join(missing)},
            )
        return self

    @model_validator(mode="after")
    def _name_path_required(self) -> "ReferenceModel":
        others = {
            "namespacePath": self.namespace_path,
            "kindPath": self.kind_path,
            "apiVersionPath": self.api_version_path,
        }
        given = [name for name, value in others.items() if value is not None]
        if given and self.name_path is None:
            raise PydanticCustomError(
                "name_path_required",
                "namePath is required when {given} is set: the relative paths describe an object "
                "reference, and the name must be located in it too",
                {"given": " and ".join(given)},
            )
        return self


class LabelsModel(_Strict):
    """``labels: {}``: the value at ``path`` is a label selector. It takes no options."""


_TARGET_FORBIDDEN = {("metadata", "name"), ("metadata", "namespace")}


class PatchModel(_Strict):
    """One entry of a ``patches`` list."""

    path: StrictStr
    expression: StrictStr | None = None
    reverse_expression: StrictStr | None = None
    reference: ReferenceModel | None = None
    labels: LabelsModel | None = None

    @field_validator("path")
    @classmethod
    def _path_parses(cls, value: str) -> str:
        _check_path(value, "path")
        segments = parse_path(value)
        names = tuple(seg.name for seg in segments if isinstance(seg, Key))
        if len(names) == len(segments) and names in _TARGET_FORBIDDEN:
            raise PydanticCustomError(
                "forbidden_target",
                "path '{path}' cannot be patched: vCluster owns the object's name and namespace "
                "(use a reference patch on the fields that point at other objects instead)",
                {"path": value},
            )
        return value

    @field_validator("expression", "reverse_expression")
    @classmethod
    def _not_empty(cls, value: str | None, info: Any) -> str | None:
        if value is not None and not value.strip():
            raise PydanticCustomError(
                "empty_expression",
                "{field} is empty: vCluster reads an empty expression as no expression at all, so "
                "this entry would patch nothing (remove the key or write the expression)",
                {"field": to_camel(info.field_name)},
            )
        return value

    @model_validator(mode="after")
    def _one_mode(self) -> "PatchModel":
        modes = [
            name
            for name, on in (
                ("expression/reverseExpression", self.expression is not None or self.reverse_expression is not None),
                ("reference", self.reference is not None),
                ("labels", self.labels is not None),
            )
            if on
        ]
        if len(modes) != 1:
            found = " and ".join(modes) if modes else "none"
            raise PydanticCustomError(
                "patch_mode",
                "patch '{path}' needs exactly one of expression/reverseExpression, reference or "
                "labels; found {found}",
                {"path": self.path, "found": found},
            )
        return self

    @property
    def mode(self) -> Literal["expression", "reference", "labels"]:
        if self.reference is not None:
            return "reference"
        if self.labels is not None:
            return "labels"
        return "expression"

    @property
    def expression_only(self) -> bool:
        return self.mode == "expression" and self.reverse_expression is None

    @property
    def reverse_only(self) -> bool:
        return self.mode == "expression" and self.expression is None


def _target(path: str) -> tuple[Any, ...]:
    """What a path addresses, ignoring spelling: ``.a.b``, ``a."b"`` and ``a["b"]`` are one."""
    return tuple(
        ("key", seg.name) if isinstance(seg, Key) else ("index", seg.index) if isinstance(seg, Index) else ("*",)
        for seg in parse_path(path)
    )


def check_duplicate_paths(patches: list[PatchModel]) -> list[PatchModel]:
    """Two entries may share a path only as one expression-only plus one reverse-only entry
    (each direction then has one patch for the path); every other duplicate would make the
    result depend on list order."""
    seen: dict[tuple[Any, ...], list[int]] = {}
    for index, patch in enumerate(patches):
        seen.setdefault(_target(patch.path), []).append(index)
    for indexes in seen.values():
        if len(indexes) == 1:
            continue
        path = patches[indexes[-1]].path
        pair = [patches[i] for i in indexes]
        if len(pair) == 2 and {p.expression_only for p in pair} == {True, False} and (
            pair[0].reverse_only or pair[1].reverse_only
        ):
            continue
        raise PydanticCustomError(
            "duplicate_path",
            "path '{path}' appears in patches {indexes}; a path may repeat only as one entry with "
            "just expression and one with just reverseExpression",
            {"path": path, "indexes": ", ".join(str(i) for i in indexes), "index": indexes[-1]},
        )
    return patches


class SyncResource(_Strict):
    """``enabled`` plus ``patches``: what every synced resource has."""

    enabled: StrictBool = False
    patches: list[PatchModel] = Field(default_factory=list)

    @field_validator("patches")
    @classmethod
    def _no_duplicates(cls, value: list[PatchModel]) -> list[PatchModel]:
        return check_duplicate_paths(value)


class EnabledResource(SyncResource):
    enabled: StrictBool = True


class AutoResource(SyncResource):
    """Syncers vCluster turns on automatically when the host has the API (``"auto"``).

    vCluster reads ``enabled`` as a string or a boolean here (``true``, ``false``, ``"auto"``)."""

    # Widens the base field's bool on purpose ("auto" is valid only here); pydantic allows it.
    enabled: Union[StrictBool, StrictStr] = "auto"  # type: ignore[assignment]


def _selector() -> Any:
    return Field(default=None)


class SelectorResource(SyncResource):
    """fromHost class syncers (ingress, runtime, priority and device classes): ``selector``
    limits which host objects are synced (a Kubernetes label selector)."""

    selector: Optional[shape_model("K8sLabelSelector")] = _selector()  # type: ignore[valid-type]


class AutoSelectorResource(AutoResource):
    """fromHost storageClasses: ``"auto"`` plus a label selector."""

    selector: Optional[shape_model("K8sLabelSelector")] = _selector()  # type: ignore[valid-type]


class RewriteHostsInitContainer(_Strict):
    image: Optional[shape_model("Image")] = None  # type: ignore[valid-type]
    resources: Optional[shape_model("Resources")] = None  # type: ignore[valid-type]


class RewriteHosts(_Strict):
    enabled: StrictBool = True
    init_container: Optional[RewriteHostsInitContainer] = None


class HybridScheduling(_Strict):
    enabled: StrictBool = False
    host_schedulers: list[StrictStr] = Field(default_factory=list)


class ToHostPods(EnabledResource):
    translate_image: dict[str, StrictStr] = Field(default_factory=dict)
    enforce_tolerations: list[StrictStr] = Field(default_factory=list)
    # vCluster spells it with "SA" in capitals; an alias generator would guess "Sa".
    use_secrets_for_sa_tokens: StrictBool = Field(default=False, alias="useSecretsForSATokens")
    runtime_class_name: StrictStr = ""
    priority_class_name: StrictStr = ""
    rewrite_hosts: RewriteHosts = Field(default_factory=RewriteHosts)
    hybrid_scheduling: HybridScheduling = Field(default_factory=HybridScheduling)


class ToHostAllResource(EnabledResource):
    """configMaps / secrets: ``all`` syncs every object, not only those pods use."""

    all: StrictBool = False


class Mappings(_Strict):
    """``mappings.byName``: exact names or ``prefix-*`` patterns, key → value."""

    by_name: dict[str, StrictStr] = Field(default_factory=dict)


class ToHostNamespaces(SyncResource):
    mappings: Mappings = Field(default_factory=Mappings)
    mappings_only: StrictBool = False
    extra_labels: dict[str, StrictStr] = Field(default_factory=dict)


class ToHostCustomResource(SyncResource):
    """``sync.toHost.customResources.<plural>.<group>``: vCluster syncs only namespaced ones."""

    enabled: StrictBool = True
    scope: StrictStr = ""


class FromHostCustomResource(SyncResource):
    """``sync.fromHost.customResources.<plural>.<group>``: cluster-scoped or namespaced (then
    with ``mappings``)."""

    enabled: StrictBool = True
    scope: StrictStr = ""
    mappings: Mappings = Field(default_factory=Mappings)


class NodeSelector(_Strict):
    all: StrictBool = False
    labels: dict[str, StrictStr] = Field(default_factory=dict)


class FromHostNodes(SyncResource):
    sync_back_changes: StrictBool = False
    clear_image_status: StrictBool = False
    selector: NodeSelector = Field(default_factory=NodeSelector)


class FromHostMapped(SyncResource):
    """fromHost configMaps / secrets: host objects mapped into the tenant."""

    mappings: Mappings = Field(default_factory=Mappings)


class ToHostSync(_Strict):
    """``sync.toHost``: tenant → host syncers (vCluster 0.33's list, its defaults)."""

    pods: ToHostPods = Field(default_factory=ToHostPods)
    secrets: ToHostAllResource = Field(default_factory=ToHostAllResource)
    config_maps: ToHostAllResource = Field(default_factory=ToHostAllResource)
    endpoints: EnabledResource = Field(default_factory=EnabledResource)
    endpoint_slices: EnabledResource = Field(default_factory=EnabledResource)
    services: EnabledResource = Field(default_factory=EnabledResource)
    persistent_volume_claims: EnabledResource = Field(default_factory=EnabledResource)
    ingresses: SyncResource = Field(default_factory=SyncResource)
    service_accounts: SyncResource = Field(default_factory=SyncResource)
    network_policies: SyncResource = Field(default_factory=SyncResource)
    persistent_volumes: SyncResource = Field(default_factory=SyncResource)
    storage_classes: SyncResource = Field(default_factory=SyncResource)
    volume_snapshots: SyncResource = Field(default_factory=SyncResource)
    volume_snapshot_contents: SyncResource = Field(default_factory=SyncResource)
    pod_disruption_budgets: SyncResource = Field(default_factory=SyncResource)
    priority_classes: SyncResource = Field(default_factory=SyncResource)
    resource_claims: SyncResource = Field(default_factory=SyncResource)
    resource_claim_templates: SyncResource = Field(default_factory=SyncResource)
    namespaces: ToHostNamespaces = Field(default_factory=ToHostNamespaces)
    custom_resources: dict[str, ToHostCustomResource] = Field(default_factory=dict)


class FromHostSync(_Strict):
    """``sync.fromHost``: host → tenant syncers (vCluster 0.33's list, its defaults)."""

    events: EnabledResource = Field(default_factory=EnabledResource)
    nodes: FromHostNodes = Field(default_factory=FromHostNodes)
    csi_drivers: AutoResource = Field(default_factory=AutoResource)
    csi_nodes: AutoResource = Field(default_factory=AutoResource)
    csi_storage_capacities: AutoResource = Field(default_factory=AutoResource)
    storage_classes: AutoSelectorResource = Field(default_factory=AutoSelectorResource)
    ingress_classes: SelectorResource = Field(default_factory=SelectorResource)
    runtime_classes: SelectorResource = Field(default_factory=SelectorResource)
    priority_classes: SelectorResource = Field(default_factory=SelectorResource)
    device_classes: SelectorResource = Field(default_factory=SelectorResource)
    volume_snapshot_classes: SyncResource = Field(default_factory=SyncResource)
    config_maps: FromHostMapped = Field(default_factory=FromHostMapped)
    secrets: FromHostMapped = Field(default_factory=FromHostMapped)
    custom_resources: dict[str, FromHostCustomResource] = Field(default_factory=dict)


class SyncConfig(_Strict):
    """The ``sync`` section."""

    to_host: ToHostSync = Field(default_factory=ToHostSync)
    from_host: FromHostSync = Field(default_factory=FromHostSync)


CustomResourceSync = ToHostCustomResource  # the name earlier releases exported

register_external("Sync", SyncConfig)

if TYPE_CHECKING:
    _Sections = BaseModel
else:
    _Sections = shape_model("Config", base=_Strict, skip=frozenset({"sync"}))


class TenantConfig(_Sections):
    """A whole vCluster config file: every section of vCluster 0.33, unknown keys refused.

    ``sync`` is modelled by hand (it carries the patches); every other section comes from the
    shape in :mod:`.vcluster_spec`, as strict as vCluster's own start-up decoding."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    sync: SyncConfig = Field(default_factory=SyncConfig)
