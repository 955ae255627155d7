"""Validation parity with vCluster 0.33: what vCluster refuses at start-up is refused here,
located, with the reason. One deliberate difference (the seed's expression-only plus
reverse-only pair on one path) is accepted and documented in docs/patches.md."""

from __future__ import annotations

from typing import Any

import pytest

from syncpatch.patches import ConfigError, compile_config
from syncpatch.patches.build import check_config_text
from syncpatch.patches.compile import format_loc


def ident(source: str) -> Any:
    def patch(value: Any, context: Any, *, value_exists: bool = True) -> Any:
        return value
    return patch


def refusal(config: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(ConfigError) as info:
        compile_config(config, compiler=ident)
    (issue,) = info.value.issues
    return format_loc(issue.loc), issue.message


def patches_of(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"sync": {"toHost": {"services": {"patches": list(entries)}}}}


@pytest.mark.parametrize("field", ["expression", "reverseExpression"])
def test_an_empty_expression_is_refused(field: str) -> None:
    where, message = refusal(patches_of({"path": "spec.x", field: ""}))
    assert where == f"sync.toHost.services.patches[0].{field}"
    assert f"{field} is empty" in message and "vCluster reads an empty expression as no expression" in message


@pytest.mark.parametrize("missing", ["apiVersion", "kind"])
def test_a_reference_without_api_version_or_kind_is_refused(missing: str) -> None:
    reference = {"apiVersion": "v1", "kind": "Secret"}
    del reference[missing]
    where, message = refusal(patches_of({"path": "spec.secretName", "reference": reference}))
    assert where == "sync.toHost.services.patches[0].reference"
    assert f"reference needs {missing}" in message and "requires apiVersion and kind" in message


def test_scope_cluster_on_a_to_host_custom_resource_is_refused() -> None:
    where, message = refusal({"sync": {"toHost": {"customResources": {"widgets.example.com": {"scope": "Cluster"}}}}})
    assert where == "sync.toHost.customResources.widgets.example.com.scope"
    assert "vCluster syncs only namespaced custom resources to the host" in message
    compile_config({"sync": {"toHost": {"customResources": {"widgets.example.com": {"scope": "Namespaced"}}}}})


@pytest.mark.parametrize("config, where, reason", [
    ({"sync": {"toHost": {"priorityClasses": {"enabled": True}}, "fromHost": {"priorityClasses": {"enabled": True}}}},
     "sync.fromHost.priorityClasses.enabled", "priorityClasses are synced both to and from the host"),
    ({"sync": {"toHost": {"storageClasses": {"enabled": True}}, "fromHost": {"storageClasses": {"enabled": True}}}},
     "sync.fromHost.storageClasses.enabled", "storageClasses are synced both to and from the host"),
    ({"sync": {"toHost": {"customResources": {"a.example.com": {}}},
               "fromHost": {"customResources": {"a.example.com": {"scope": "Cluster"}}}}},
     "sync.fromHost.customResources.a.example.com", "vCluster syncs a custom resource one way only"),
], ids=["priorityClasses", "storageClasses", "customResource"])
def test_a_resource_synced_both_ways_is_refused(config: dict[str, Any], where: str, reason: str) -> None:
    assert refusal(config)[0] == where
    assert reason in refusal(config)[1]


def test_from_host_storage_classes_on_auto_with_to_host_is_accepted() -> None:
    compile_config({"sync": {"toHost": {"storageClasses": {"enabled": True}}}})  # fromHost stays "auto"


def test_volume_snapshots_need_their_contents() -> None:
    where, message = refusal({"sync": {"toHost": {"volumeSnapshots": {"enabled": True}}}})
    assert where == "sync.toHost.volumeSnapshots.enabled" and "volumeSnapshotContents" in message


def test_namespace_sync_without_mappings_is_refused() -> None:
    where, message = refusal({"sync": {"toHost": {"namespaces": {"enabled": True}}}})
    assert where == "sync.toHost.namespaces.enabled"
    assert "mappings.byName is empty" in message


@pytest.mark.parametrize("by_name, reason", [
    ({"team-*": "host-team"}, "mixes a pattern and an exact name"),
    ({"a-*-b": "h-*-b"}, "exactly one '*', at its end"),
    ({"team-*": "*"}, "needs a prefix before '*'"),
    ({"a": "same", "b": "same"}, "is the target of 'a' too"),
    ({"a": "${namespace}-x"}, "only the ${name} placeholder"),
    ({"Upper": "x"}, "not a valid namespace name"),
])
def test_namespace_mappings_vcluster_refuses(by_name: dict[str, str], reason: str) -> None:
    where, message = refusal({"sync": {"toHost": {"namespaces": {"enabled": True, "mappings": {"byName": by_name}}}}})
    assert where.startswith("sync.toHost.namespaces.mappings.byName.") and reason in message


def test_namespace_mappings_vcluster_accepts() -> None:
    compile_config({"sync": {"toHost": {"namespaces": {"enabled": True, "mappings": {"byName": {
        "team-*": "${name}-team-*", "default": "${name}-default", "kube-public": "shared-public"}}}}}})


def test_from_host_config_maps_need_mappings() -> None:
    where, message = refusal({"sync": {"fromHost": {"configMaps": {"enabled": True}}}})
    assert where == "sync.fromHost.configMaps.enabled" and "mappings.byName is empty" in message


@pytest.mark.parametrize("text, line, column", [
    ('sync:\n  toHost:\n    ingresses:\n      enabled: "true"\n', 4, 16),
    ('policies:\n  networkPolicy:\n    enabled: "false"\n', 3, 14),
])
def test_a_string_where_a_boolean_belongs_is_refused_at_the_value(text: str, line: int, column: int) -> None:
    (diag,) = [d for d in check_config_text(text, "v.yaml").diagnostics if d.severity == "error"]
    assert (diag.line, diag.column, diag.code) == (line, column, "wrong-type")
    assert "expected a boolean (true or false), found the string" in diag.message
    assert "without quotes" in diag.message and "refuses this value at start-up" in diag.message


def test_refusals_in_a_file_are_located() -> None:
    text = "sync:\n  toHost:\n    customResources:\n      widgets.example.com:\n        scope: Cluster\n"
    (diag,) = check_config_text(text, "v.yaml").diagnostics
    assert (diag.line, diag.column, diag.code) == (5, 9, "custom-resource-scope")
    text = "sync:\n  toHost:\n    services:\n      patches:\n        - path: spec.x\n          expression: ''\n"
    (diag,) = check_config_text(text, "v.yaml").diagnostics
    assert (diag.line, diag.column, diag.code) == (6, 23, "empty-expression")


def test_the_seeds_expression_only_and_reverse_only_pair_stays_allowed() -> None:
    """vCluster refuses two entries with one path ("have the same path"); the seed allows one
    expression-only and one reverse-only entry there, and so do we (docs/patches.md)."""
    compiled = compile_config(patches_of({"path": "spec.x", "expression": "a"},
                                         {"path": "spec.x", "reverseExpression": "b"}), compiler=ident)
    assert len(compiled.plan("toHost", "services").entries) == 2
    where, message = refusal(patches_of({"path": "spec.x", "expression": "a"}, {"path": "spec.x", "expression": "b"}))
    assert "appears in patches 0, 1" in message
