"""Namespace sync as vCluster 0.33 does it: sync.toHost.namespaces.mappings.byName, exact names
and prefix-* patterns with ${name}; unmapped namespaces fall back to single-namespace names."""

from __future__ import annotations

import pytest

from syncpatch.patches import ConfigError, compile_config
from syncpatch.runtime.names import NameTranslator, mapped_host_namespace, single_namespace_short_name
from syncpatch.runtime.names import translator_from_context

MAPPINGS = (("default", "${name}-default"), ("team-*", "${name}-team-*"), ("team-a-*", "a-team-*"),
            ("shared", "shared-host"))


@pytest.mark.parametrize("tenant, host", [
    ("default", "vc-default"),
    ("shared", "shared-host"),
    ("team-web", "vc-team-web"),
    ("team-a-db", "a-team-db"),  # the longer prefix wins
    ("team-", "vc-team-"),
    ("other", None),
])
def test_exact_then_pattern(tenant: str, host: str | None) -> None:
    assert mapped_host_namespace(tenant, MAPPINGS, "vc") == host


def test_an_exact_entry_wins_over_a_pattern() -> None:
    assert mapped_host_namespace("team-x", (("team-*", "t-*"), ("team-x", "special")), "vc") == "special"


def test_mapped_namespaces_keep_names_unmapped_ones_are_rewritten() -> None:
    tr = NameTranslator("vc", "vcluster-vc", mode="multi-namespace", namespace_mappings=MAPPINGS)
    assert (tr.host_namespace_for("team-web"), tr.host_name("db", "team-web", "Secret")) == ("vc-team-web", "db")
    assert tr.host_namespace_for("other") == "vcluster-vc"
    assert tr.host_name("db", "other", "Secret") == single_namespace_short_name("db", "other", "vc")


def test_the_translator_reads_the_mappings_from_the_context() -> None:
    config = {"sync": {"toHost": {"namespaces": {"enabled": True, "mappings": {"byName": {"app": "${name}-app"}}}}}}
    tr = translator_from_context({"vcluster": {"name": "vc", "namespace": "vcluster-vc", "config": config}})
    assert tr.host_namespace_for("app") == "vc-app" and tr.host_name("s", "app") == "s"


def test_references_follow_the_mappings() -> None:
    config = {"sync": {"toHost": {
        "namespaces": {"enabled": True, "mappings": {"byName": {"app": "${name}-app"}}},
        "services": {"patches": [{"path": "spec.secretRef", "reference": {
            "apiVersion": "v1", "kind": "Secret", "namePath": "name", "namespacePath": "namespace"}}]}}}}
    compiled = compile_config(config)
    ctx = compiled.context("vc", "vcluster-vc")
    obj = {"metadata": {"name": "s", "namespace": "app"}, "spec": {"secretRef": {"name": "db", "namespace": "app"}}}
    out = compiled.plan("toHost", "services").to_host(obj, ctx)
    assert out["spec"]["secretRef"] == {"name": "db", "namespace": "vc-app"}
    obj["spec"]["secretRef"]["namespace"] = "elsewhere"
    out = compiled.plan("toHost", "services").to_host(obj, ctx)
    assert out["spec"]["secretRef"] == {"name": single_namespace_short_name("db", "elsewhere", "vc"),
                                        "namespace": "vcluster-vc"}


def test_multi_namespace_mode_is_an_error_naming_its_replacement() -> None:
    with pytest.raises(ConfigError) as info:
        compile_config({"experimental": {"multiNamespaceMode": {"enabled": True}}})
    (issue,) = info.value.issues
    assert "removed in vCluster 0.33" in issue.message and "sync.toHost.namespaces" in issue.message
