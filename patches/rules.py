"""The rules vCluster 0.33 enforces at start-up across fields, each with its reason.

A field-by-field model cannot see that one resource is synced both ways, or that namespace
sync is on with nothing to map. vCluster stops at start-up on these; the build step reports
them before a tenant cluster ever starts, every one at once and each at the field to change.
"""

from __future__ import annotations

import re
from typing import Iterator

from .models import SyncConfig, TenantConfig

__all__ = ["rule_violations", "namespace_mapping_problems", "NAME_PLACEHOLDER"]

Loc = tuple[str | int, ...]
NAME_PLACEHOLDER = "${name}"
_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_PREFIX = re.compile(r"^[a-z0-9]([-a-z0-9]*)?$")


def rule_violations(config: TenantConfig) -> list[tuple[Loc, str]]:
    """Every cross-field rule the config breaks, as (field location, message)."""
    sync = config.sync
    return [*_both_ways(sync), *_custom_resources(sync), *_snapshots(sync), *_namespaces(sync),
            *_from_host_mappings(sync)]


def _both_ways(sync: SyncConfig) -> Iterator[tuple[Loc, str]]:
    if sync.to_host.priority_classes.enabled and sync.from_host.priority_classes.enabled:
        yield (("sync", "fromHost", "priorityClasses", "enabled"),
               "priorityClasses are synced both to and from the host: vCluster syncs a resource one way "
               "only and refuses this at start-up (disable sync.toHost.priorityClasses or "
               "sync.fromHost.priorityClasses)")
    from_sc = sync.from_host.storage_classes.enabled
    if sync.to_host.storage_classes.enabled and (from_sc is True or from_sc == "true"):
        yield (("sync", "fromHost", "storageClasses", "enabled"),
               "storageClasses are synced both to and from the host: vCluster refuses enabling "
               "sync.fromHost.storageClasses and sync.toHost.storageClasses together (leave fromHost at "
               "\"auto\", which then stays off)")
    for name in sync.to_host.custom_resources.keys() & sync.from_host.custom_resources.keys():
        yield (("sync", "fromHost", "customResources", name),
               f"custom resource {name} is in both sync.toHost.customResources and "
               "sync.fromHost.customResources: vCluster syncs a custom resource one way only")


def _custom_resources(sync: SyncConfig) -> Iterator[tuple[Loc, str]]:
    for name, to_host in sync.to_host.custom_resources.items():
        if to_host.scope not in ("", "Namespaced"):
            yield (("sync", "toHost", "customResources", name, "scope"),
                   f"scope {to_host.scope!r} is not supported towards the host: vCluster syncs only "
                   "namespaced custom resources to the host (cluster-scoped ones come from the host: "
                   "sync.fromHost.customResources with scope: Cluster)")
    for name, from_host in sync.from_host.custom_resources.items():
        loc: Loc = ("sync", "fromHost", "customResources", name)
        if from_host.scope not in ("", "Namespaced", "Cluster"):
            yield (*loc, "scope"), f"scope {from_host.scope!r} is not supported: only Cluster and Namespaced are"
        elif from_host.scope == "Namespaced" and not from_host.mappings.by_name:
            yield ((*loc, "scope"),
                   "a namespaced custom resource from the host needs mappings.byName: vCluster must know "
                   "which host namespaces map to which tenant namespaces")
        elif from_host.mappings.by_name and from_host.scope != "Namespaced":
            yield ((*loc, "mappings"),
                   "mappings apply only to namespaced custom resources (scope: Namespaced); vCluster "
                   "refuses them on cluster-scoped ones")


def _snapshots(sync: SyncConfig) -> Iterator[tuple[Loc, str]]:
    to_host = sync.to_host
    if to_host.volume_snapshot_contents.enabled and not to_host.volume_snapshots.enabled:
        yield (("sync", "toHost", "volumeSnapshotContents", "enabled"),
               "volumeSnapshotContents sync needs sync.toHost.volumeSnapshots.enabled too: vCluster syncs "
               "the two together")
    if to_host.volume_snapshots.enabled and not to_host.volume_snapshot_contents.enabled:
        yield (("sync", "toHost", "volumeSnapshots", "enabled"),
               "volumeSnapshots sync needs sync.toHost.volumeSnapshotContents.enabled too: vCluster syncs "
               "the two together")


def _namespaces(sync: SyncConfig) -> Iterator[tuple[Loc, str]]:
    namespaces = sync.to_host.namespaces
    if not namespaces.enabled:
        return
    loc: Loc = ("sync", "toHost", "namespaces", "mappings", "byName")
    if not namespaces.mappings.by_name:
        yield (("sync", "toHost", "namespaces", "enabled"),
               "namespace sync is enabled but sync.toHost.namespaces.mappings.byName is empty: vCluster "
               "needs at least one tenant namespace → host namespace mapping (exact names or prefix-* "
               "patterns, ${name} for the vCluster's name)")
        return
    for key, message in namespace_mapping_problems(namespaces.mappings.by_name):
        yield (*loc, key), message


def namespace_mapping_problems(by_name: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(tenant key, message) for each mapping vCluster refuses; the rules that need the
    vCluster's name and namespace (prefix length, control-plane namespace) run at sync time."""
    seen_host: dict[str, str] = {}
    for tenant, host in by_name.items():
        if host in seen_host:
            yield tenant, f"host namespace {host!r} is the target of {seen_host[host]!r} too: each host namespace takes one mapping"
            continue
        seen_host[host] = tenant
        if ("*" in tenant) != ("*" in host):
            yield tenant, (f"{tenant!r}: {host!r} mixes a pattern and an exact name: a pattern (prefix-*) "
                           "must map to a pattern, an exact name to an exact name")
            continue
        if "*" in host and host == "*":
            yield tenant, "the host side of a pattern needs a prefix before '*': '*' alone would claim every host namespace"
            continue
        for side, text in (("tenant", tenant), ("host", host)):
            problem = _mapping_part_problem(text)
            if problem:
                yield tenant, f"{side} namespace {text!r}: {problem}"
                break


def _mapping_part_problem(text: str) -> str | None:
    if text.count(NAME_PLACEHOLDER) > 1:
        return f"{NAME_PLACEHOLDER} may appear once"
    if "${" in text.replace(NAME_PLACEHOLDER, ""):
        return f"only the {NAME_PLACEHOLDER} placeholder is supported"
    literal = text.replace(NAME_PLACEHOLDER, "a")
    if "*" in text:
        if text.count("*") != 1 or not text.endswith("*"):
            return "a pattern has exactly one '*', at its end (prefix-*)"
        prefix = literal[:-1]
        if prefix and (not _PREFIX.match(prefix) or (NAME_PLACEHOLDER not in text and len(prefix) > 32)):
            return "a pattern's prefix is lower-case letters, digits and '-' (at most 32 characters)"
        return None
    if not text:
        return "a namespace name cannot be empty"
    if not _LABEL.match(literal) or (NAME_PLACEHOLDER not in text and len(literal) > 63):
        return "not a valid namespace name (lower-case letters, digits and '-', at most 63 characters)"
    return None


def _from_host_mappings(sync: SyncConfig) -> Iterator[tuple[Loc, str]]:
    for key, resource in (("configMaps", sync.from_host.config_maps), ("secrets", sync.from_host.secrets)):
        if not resource.enabled:
            continue
        loc: Loc = ("sync", "fromHost", key)
        if not resource.mappings.by_name:
            yield ((*loc, "enabled"),
                   f"sync.fromHost.{key} is enabled but mappings.byName is empty: vCluster needs to know which "
                   "host objects to sync (\"namespace/name\", \"namespace/*\" or \"/name\" → tenant target)")
            continue
        for host, tenant in resource.mappings.by_name.items():
            if "/" not in host and host != "":
                yield ((*loc, "mappings", "byName", host),
                       f"key {host!r} is not NAMESPACE/NAME, NAMESPACE/*, /NAME or \"\"")
            elif "/" not in tenant and host != "":
                yield ((*loc, "mappings", "byName", host),
                       f"value {tenant!r} is not NAMESPACE/NAME or NAMESPACE/*")
            elif host.endswith("/*") and not tenant.endswith("/*"):
                yield ((*loc, "mappings", "byName", host),
                       f"key {host!r} maps every object of a namespace, so its value must be NAMESPACE/* too")
