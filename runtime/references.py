"""Reference and labels patches, import records and the object store that performs imports.

A *reference* patch treats the value at its path as a reference to another object (a name, or
an object holding name/namespace/kind/apiVersion at relative paths) and rewrites it with the
tenant↔host translation rules, recording the referenced object so the syncer can import it.
A *labels* patch treats the value as a label selector (or a plain label map) and translates
its keys as vCluster does; a plain map also gets vCluster's marker labels towards the host.

Both are pure: they never touch a cluster. :func:`perform_imports` applies the recorded imports
to an :class:`ObjectStore` afterwards, so the expensive and fallible part stays outside the
all-or-nothing patch application.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal, Mapping, Protocol, Sequence

import attrs

from .names import safe_concat_name
from .paths import Index, Key, Segment, Wildcard, parse_path
from .plan import ApplyEnv, Keyword, PatchFunction

__all__ = [
    "ReferenceSpec",
    "ReferencePatch",
    "LabelsPatch",
    "ImportRecord",
    "ImportOutcome",
    "ObjectStore",
    "InMemoryObjectStore",
    "perform_imports",
    "host_label",
    "virtual_label",
    "untranslated_label",
    "TRANSLATED_LABELS",
    "IMPORTED_ANNOTATION",
    "MARKER_LABEL",
    "NAMESPACE_LABEL",
    "CONTROLLER_LABEL",
]

IMPORTED_ANNOTATION = "vcluster.loft.sh/object-imported"
NAME_ANNOTATION = "vcluster.loft.sh/object-name"
NAMESPACE_ANNOTATION = "vcluster.loft.sh/object-namespace"
MARKER_LABEL = "vcluster.loft.sh/managed-by"
NAMESPACE_LABEL = "vcluster.loft.sh/namespace"
CONTROLLER_LABEL = "vcluster.loft.sh/controlled-by"
LABEL_PREFIX = "vcluster.loft.sh/label"
NAMESPACE_LABEL_PREFIX = "vcluster.loft.sh/ns-label"
RELEASE_LABEL = "release"
TRANSLATED_LABELS = (RELEASE_LABEL, NAMESPACE_LABEL, MARKER_LABEL, CONTROLLER_LABEL)
"""The label keys vCluster moves aside on the host (its ``LabelsToTranslate``)."""

Cluster = Literal["host", "virtual"]


class ReferenceTypeError(TypeError):
    """A reference value of the wrong shape; surfaces as a JS ``TypeError`` in ``PatchError``."""

    js_name = "TypeError"


def _rel(path: str | None) -> tuple[Segment, ...] | None:
    return None if path is None else parse_path(path)


@attrs.frozen
class ReferenceSpec:
    """The ``reference:`` block. ``*_path`` fields are paths relative to the value at ``path``."""

    kind: str = ""
    api_version: str = ""
    name_path: str | None = None
    namespace_path: str | None = None
    kind_path: str | None = None
    api_version_path: str | None = None


def _lookup(value: Any, segments: tuple[Segment, ...] | None) -> Any:
    """Follow plain key/index segments; ``None`` when anything is missing."""
    if segments is None:
        return None
    node = value
    for seg in segments:
        if isinstance(seg, Key) and isinstance(node, Mapping):
            node = node.get(seg.name)
        elif isinstance(seg, Index) and isinstance(node, list) and seg.index < len(node):
            node = node[seg.index]
        else:
            return None
    return node


def _set(value: dict[str, Any], segments: tuple[Segment, ...], new: Any) -> dict[str, Any]:
    """Copy-on-write set of a key path inside a (cloned) reference object."""
    if not segments:
        return value
    seg = segments[0]
    if not isinstance(seg, Key):
        return value
    out = dict(value)
    if len(segments) == 1:
        out[seg.name] = new
    elif isinstance(value.get(seg.name), dict):
        out[seg.name] = _set(value[seg.name], segments[1:], new)
    return out


def _object_namespace(obj: Any) -> str:
    meta = obj.get("metadata") if isinstance(obj, Mapping) else None
    ns = meta.get("namespace") if isinstance(meta, Mapping) else None
    return ns if isinstance(ns, str) else ""


@attrs.frozen
class ImportRecord:
    """A referenced object the syncer should make available on the other side.

    ``name``/``namespace`` are the tenant side, ``host_name``/``host_namespace`` the host side;
    ``direction`` is the sync direction of the patch that referenced it.
    """

    api_version: str
    kind: str
    namespace: str
    name: str
    host_namespace: str
    host_name: str
    direction: Literal["to_host", "from_host"]


@attrs.frozen
class _Resolved:
    name: str
    namespace: str
    namespace_given: bool
    kind: str
    api_version: str


@attrs.frozen
class ReferencePatch:
    """A ``reference`` entry: acts in both directions, whatever the direction keywords."""

    index: int
    path: str
    reference: ReferenceSpec
    segments: tuple[Segment, ...] = attrs.field(
        default=attrs.Factory(lambda self: parse_path(self.path), takes_self=True), eq=False
    )

    def function_for(self, keyword: Keyword, env: ApplyEnv) -> PatchFunction | None:
        def rewrite(value: Any, context: Any, *, value_exists: bool = True) -> Any:
            if value is None:
                return None
            if env.direction == "to_host":
                return self._to_host(value, env)
            return self._from_host(value, env, context)

        return rewrite

    def _resolve(self, value: Any, default_namespace: str) -> _Resolved:
        spec = self.reference
        raw: Any = value
        if isinstance(value, str) and spec.name_path is None:
            name: Any = value
        elif isinstance(value, Mapping) and spec.name_path is not None:
            name = _lookup(value, _rel(spec.name_path))
        else:
            want = "an object (namePath is set)" if spec.name_path else "a name string (set namePath for objects)"
            raise ReferenceTypeError(f"reference at {self.path!r} must be {want}, got {type(value).__name__}")
        if not isinstance(name, str):
            raise ReferenceTypeError(f"reference name at {spec.name_path!r} is missing or not a string")
        ns = _lookup(raw, _rel(spec.namespace_path))
        kind = _lookup(raw, _rel(spec.kind_path))
        api = _lookup(raw, _rel(spec.api_version_path))
        return _Resolved(
            name=name,
            namespace=ns if isinstance(ns, str) else default_namespace,
            namespace_given=isinstance(ns, str),
            kind=kind if isinstance(kind, str) else spec.kind,
            api_version=api if isinstance(api, str) else spec.api_version,
        )

    def _write(self, value: Any, ref: _Resolved, name: str, namespace: str) -> Any:
        if isinstance(value, str):
            return name
        spec = self.reference
        out = _set(value, parse_path(spec.name_path or ""), name)
        if ref.namespace_given and spec.namespace_path is not None:
            out = _set(out, parse_path(spec.namespace_path), namespace)
        return out

    def _to_host(self, value: Any, env: ApplyEnv) -> Any:
        ref = self._resolve(value, _object_namespace(env.root))
        tr = env.get_translator()
        host_name = tr.host_name(ref.name, ref.namespace, ref.kind)
        host_ns = tr.host_namespace_for(ref.namespace)
        env.imports.append(ImportRecord(ref.api_version, ref.kind, ref.namespace, ref.name,
                                        host_ns, host_name, "to_host"))
        return self._write(value, ref, host_name, host_ns)

    def _from_host(self, value: Any, env: ApplyEnv, context: Any) -> Any:
        """Host → tenant. The tenant value at the same path wins when it translates to the host
        value (the round trip); otherwise the host object is imported under its own name into
        the tenant object's namespace."""
        virtual_obj = context.get("virtualObject") if isinstance(context, Mapping) else None
        virtual_ns = _object_namespace(virtual_obj) or _annotation(env.root, NAMESPACE_ANNOTATION)
        ref = self._resolve(value, _object_namespace(env.root))
        tr = env.get_translator()
        previous = _lookup(virtual_obj, _matched(self.segments, context.get("path", ""))) if virtual_obj else None
        if previous is not None:
            try:
                old = self._resolve(previous, virtual_ns)
            except ReferenceTypeError:
                old = None
            if old is not None and tr.host_name(old.name, old.namespace, old.kind) == ref.name and (
                not ref.namespace_given or tr.host_namespace_for(old.namespace) == ref.namespace
            ):
                self._record_from_host(env, old, ref)
                return previous
        target_ns = virtual_ns
        tenant = _Resolved(ref.name, target_ns, ref.namespace_given, ref.kind, ref.api_version)
        self._record_from_host(env, tenant, ref)
        return self._write(value, ref, ref.name, target_ns)

    @staticmethod
    def _record_from_host(env: ApplyEnv, tenant: _Resolved, host: _Resolved) -> None:
        env.imports.append(ImportRecord(host.api_version, host.kind, tenant.namespace, tenant.name,
                                        host.namespace, host.name, "from_host"))


def _matched(segments: tuple[Segment, ...], path: Any) -> tuple[Segment, ...]:
    """The segments of the location a patch function was called for. ``context.path`` is
    what vCluster passes: the last key unquoted, and for ``["key"]`` the map's path."""
    if not any(isinstance(seg, Wildcard) for seg in segments):
        return segments
    text = str(path)
    last = segments[-1]
    if isinstance(last, Key):
        head = text if last.bracket else text[: len(text) - len(last.name)].rstrip(".")
        return parse_path(head) + (Key(last.name),)
    return parse_path(text)


def _annotation(obj: Any, key: str) -> str:
    meta = obj.get("metadata") if isinstance(obj, Mapping) else None
    annotations = meta.get("annotations") if isinstance(meta, Mapping) else None
    found = annotations.get(key) if isinstance(annotations, Mapping) else None
    return found if isinstance(found, str) else ""


def _translated_label_key(key: str, vcluster_name: str) -> str:
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]
    return safe_concat_name(LABEL_PREFIX, vcluster_name, "x", digest)


def host_label(key: str, vcluster_name: str) -> str:
    """vCluster's ``HostLabel``: the keys vCluster itself sets on host objects (``release``
    and its own managed-by, namespace and controlled-by labels) are moved aside to
    ``vcluster.loft.sh/label-<vcluster>-x-<hash>``, so a tenant cannot forge them."""
    return _translated_label_key(key, vcluster_name) if key in TRANSLATED_LABELS else key


def untranslated_label(key: str, vcluster_name: str) -> str | None:
    """The label a moved-aside key stands for (vCluster's ``IsTranslatedLabel``), or None."""
    if key.startswith(LABEL_PREFIX):
        for original in TRANSLATED_LABELS:
            if _translated_label_key(original, vcluster_name) == key:
                return original
    return None


def virtual_label(key: str, vcluster_name: str) -> str | None:
    """vCluster's ``VirtualLabel``: a moved-aside key back to its label; ``None`` for a key
    vCluster translates (it has no tenant form); any other key as it is."""
    if key in TRANSLATED_LABELS:
        return None
    return untranslated_label(key, vcluster_name) or key


def _is_syncer_label(key: str) -> bool:
    """Labels the syncer owns on the host, never copied back to the tenant."""
    return key in (MARKER_LABEL, NAMESPACE_LABEL, CONTROLLER_LABEL) or key.startswith(NAMESPACE_LABEL_PREFIX)


@attrs.frozen
class LabelsPatch:
    """A ``labels: {}`` entry: the value is a label selector (``matchLabels`` /
    ``matchExpressions``) or a plain label map, translated in both directions as vCluster's
    syncers translate them (``pkg/util/translate``): a selector's keys only; a map's keys,
    plus the marker labels towards the host."""

    index: int
    path: str
    segments: tuple[Segment, ...] = attrs.field(
        default=attrs.Factory(lambda self: parse_path(self.path), takes_self=True), eq=False
    )

    def function_for(self, keyword: Keyword, env: ApplyEnv) -> PatchFunction | None:
        def translate(value: Any, context: Any, *, value_exists: bool = True) -> Any:
            if value is None:
                return None
            if not isinstance(value, Mapping):
                raise ReferenceTypeError(f"labels at {self.path!r} must be a label selector or map")
            if "matchLabels" in value or "matchExpressions" in value:
                return _translate_selector(value, env)
            where = _matched(self.segments, context.get("path", "") if isinstance(context, Mapping) else "")
            other_key = "hostObject" if env.direction == "to_host" else "virtualObject"
            other = context.get(other_key) if isinstance(context, Mapping) else None
            other_labels = _lookup(other, where) if other is not None else None
            other_map = other_labels if isinstance(other_labels, Mapping) else None
            if env.direction == "to_host":
                is_metadata = tuple(where) == (Key("metadata"), Key("labels"))
                return _host_labels_map(value, other_map, env, is_metadata)
            return _virtual_labels_map(value, other_map, env.get_translator().vcluster_name)

        return translate


def _host_labels_map(labels: Mapping[str, Any], host: Mapping[str, Any] | None, env: ApplyEnv,
                     is_metadata: bool) -> dict[str, Any]:
    """vCluster's ``HostLabelsMap``: keys moved aside as :func:`host_label` does (a tenant's
    own moved-aside keys are dropped), then the marker labels: ``managed-by: <vcluster>`` and
    ``namespace: <tenant namespace>``, or for a cluster-scoped object ``managed-by:
    <host namespace>-x-<vcluster>``. The markers go on ``metadata.labels``, on a map whose
    host counterpart is absent, and on one whose host counterpart carries a marker; a host
    ``controlled-by`` label is kept."""
    tr = env.get_translator()
    vcluster = tr.vcluster_name
    out = {host_label(k, vcluster): v for k, v in labels.items() if untranslated_label(k, vcluster) is None}
    if is_metadata or host is None or host.get(MARKER_LABEL):
        namespace = _object_namespace(env.root)
        if namespace:
            out[MARKER_LABEL] = vcluster
            out[NAMESPACE_LABEL] = namespace
        else:
            out[MARKER_LABEL] = safe_concat_name(tr.host_namespace, "x", vcluster)
    if host is not None and host.get(CONTROLLER_LABEL):
        out[CONTROLLER_LABEL] = host[CONTROLLER_LABEL]
    return out


def _virtual_labels_map(labels: Mapping[str, Any], tenant: Mapping[str, Any] | None, vcluster: str) -> dict[str, Any]:
    """vCluster's ``VirtualLabelsMap``: the syncer's labels dropped (the tenant object's own
    values of those keys kept), moved-aside keys restored; a plain ``release`` label on the
    host has no tenant form and gives way to the tenant's own value, if any."""
    tenant = tenant or {}
    out: dict[str, Any] = {}
    for key, val in labels.items():
        if _is_syncer_label(key):
            continue
        original = untranslated_label(key, vcluster)
        if original is not None:
            out[original] = val
        elif key in TRANSLATED_LABELS:
            if key in tenant and key not in out:
                out[key] = tenant[key]
        else:
            out[key] = val
    for key, val in tenant.items():
        if _is_syncer_label(key):
            out[key] = val
    return out


def _translate_selector(value: Mapping[str, Any], env: ApplyEnv) -> dict[str, Any]:
    """vCluster's ``HostLabelSelector`` / ``VirtualLabelSelector``: keys only, no markers;
    back, a key vCluster translates stays as it is."""
    vcluster = env.get_translator().vcluster_name
    if env.direction == "to_host":
        def mapper(key: str) -> str:
            return host_label(key, vcluster)
    else:
        def mapper(key: str) -> str:
            return virtual_label(key, vcluster) or key
    out = dict(value)
    if isinstance(value.get("matchLabels"), Mapping):
        out["matchLabels"] = {mapper(k): v for k, v in value["matchLabels"].items()}
    if isinstance(value.get("matchExpressions"), list):
        out["matchExpressions"] = [
            {**item, "key": mapper(item["key"])} if isinstance(item, Mapping) and isinstance(item.get("key"), str) else item
            for item in value["matchExpressions"]
        ]
    return out


class ObjectStore(Protocol):
    """Where imports land: both clusters, addressed by apiVersion, kind, namespace and name."""

    def get(self, cluster: Cluster, api_version: str, kind: str, namespace: str, name: str) -> dict[str, Any] | None: ...

    def put(self, cluster: Cluster, obj: dict[str, Any]) -> None: ...


def _group(api_version: str) -> str:
    return api_version.rpartition("/")[0]


class InMemoryObjectStore:
    """A dict-backed :class:`ObjectStore` for tests, demos and dry runs. Objects are keyed by
    API group (not version), kind, namespace and name, as the API server identifies them."""

    def __init__(self) -> None:
        self.objects: dict[tuple[str, str, str, str, str], dict[str, Any]] = {}

    @staticmethod
    def _key(cluster: str, api_version: str, kind: str, namespace: str, name: str) -> tuple[str, str, str, str, str]:
        return (cluster, _group(api_version), kind, namespace, name)

    def get(self, cluster: Cluster, api_version: str, kind: str, namespace: str, name: str) -> dict[str, Any] | None:
        return self.objects.get(self._key(cluster, api_version, kind, namespace, name))

    def put(self, cluster: Cluster, obj: dict[str, Any]) -> None:
        meta = obj.get("metadata") or {}
        key = self._key(cluster, str(obj.get("apiVersion", "")), str(obj.get("kind", "")),
                        str(meta.get("namespace") or ""), str(meta.get("name", "")))
        self.objects[key] = obj


@attrs.frozen
class ImportOutcome:
    """What :func:`perform_imports` did for one record: ``imported-to-tenant``,
    ``imported-to-host``, ``present`` (already on both sides or nothing to do),
    ``sync-disabled`` or ``missing``."""

    record: ImportRecord
    action: str


_SERVER_FIELDS = ("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields",
                  "ownerReferences", "selfLink", "deletionTimestamp")


def _imported_copy(obj: Mapping[str, Any], name: str, namespace: str, extra: Mapping[str, str]) -> dict[str, Any]:
    meta = {k: v for k, v in dict(obj.get("metadata") or {}).items() if k not in _SERVER_FIELDS}
    meta["name"] = name
    if namespace:
        meta["namespace"] = namespace
    else:
        meta.pop("namespace", None)
    meta["annotations"] = {**dict(meta.get("annotations") or {}), IMPORTED_ANNOTATION: "true", **extra}
    return {**dict(obj), "metadata": meta}


def perform_imports(
    records: Sequence[ImportRecord],
    store: ObjectStore,
    *,
    sync_enabled: Any = lambda kind: False,
    vcluster_name: str = "",
) -> list[ImportOutcome]:
    """Make referenced objects available on both sides, following the seed's rule 7.

    An object found on the host is imported into the tenant; otherwise an object found in the
    tenant is imported into the host when ``sync_enabled(kind)`` is true. Every copy carries
    ``vcluster.loft.sh/object-imported: "true"``; host copies also name their tenant origin.
    """
    outcomes = []
    for rec in records:
        host = store.get("host", rec.api_version, rec.kind, rec.host_namespace, rec.host_name)
        tenant = store.get("virtual", rec.api_version, rec.kind, rec.namespace, rec.name)
        if host is not None and tenant is None:
            store.put("virtual", _imported_copy(host, rec.name, rec.namespace, {}))
            action = "imported-to-tenant"
        elif host is not None:
            action = "present"
        elif tenant is None:
            action = "missing"
        elif not sync_enabled(rec.kind):
            action = "sync-disabled"
        else:
            origin = {NAME_ANNOTATION: rec.name, **({NAMESPACE_ANNOTATION: rec.namespace} if rec.namespace else {})}
            copy = _imported_copy(tenant, rec.host_name, rec.host_namespace, origin)
            if vcluster_name:
                copy["metadata"]["labels"] = {**dict(copy["metadata"].get("labels") or {}), MARKER_LABEL: vcluster_name}
            store.put("host", copy)
            action = "imported-to-host"
        outcomes.append(ImportOutcome(rec, action))
    return outcomes

