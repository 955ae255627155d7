"""Every documented default of the effective config, and that explicit values win."""

from __future__ import annotations

from typing import Any

import pytest

from syncpatch.platformconfig import effective_config, status_to_dict

# The platform's documented initial cost settings; the dashboard is on by default.
COST_DEFAULTS = {"enabled": True, "settings": {
    "averageCPUPricePerNode": {"price": 31, "timePeriod": "Monthly"},
    "averageRAMPricePerNode": {"price": 31, "timePeriod": "Monthly"},
    "controlPlanePricePerCluster": {"price": 900, "timePeriod": "Yearly"}}}


def eff(raw: str) -> dict[str, Any]:
    return status_to_dict(effective_config(raw))


def test_empty_config_shows_the_always_on_defaults() -> None:
    assert eff("") == {"auth": {"loginAccessKeyTTLSeconds": 1728000}, "projectNamespacePrefix": "p-",
                       "costControl": COST_DEFAULTS}
    assert eff("# only a comment\n") == eff("")
    assert eff("null") == eff("")


def test_project_namespace_prefix() -> None:
    assert eff("platformHost: a.example.com")["projectNamespacePrefix"] == "p-"
    assert eff("projectNamespacePrefix: team-")["projectNamespacePrefix"] == "team-"


def test_login_access_key_ttl_defaults_to_20_days_and_keeps_zero() -> None:
    assert eff("auth: {}")["auth"]["loginAccessKeyTTLSeconds"] == 20 * 24 * 3600
    assert eff("auth: {loginAccessKeyTTLSeconds: 0}")["auth"]["loginAccessKeyTTLSeconds"] == 0
    assert eff("auth: {loginAccessKeyTTLSeconds: 60}")["auth"]["loginAccessKeyTTLSeconds"] == 60


def test_audit_max_size() -> None:
    assert eff("audit: {enabled: false}")["audit"] == {"enabled": False, "maxSize": 100}
    assert eff("audit: {maxSize: 5}")["audit"]["maxSize"] == 5
    assert "audit" not in eff("")


def test_secret_store_sync_interval() -> None:
    assert eff("secretStore: {enabled: true}")["secretStore"]["syncInterval"] == "1m"
    assert eff("secretStore: {syncInterval: 30s}")["secretStore"]["syncInterval"] == "30s"


@pytest.mark.parametrize("where", ["global", "cluster"])
def test_metrics_retention(where: str) -> None:
    out = eff(f"costControl: {{{where}: {{metrics: {{replicas: 1}}}}}}")
    assert out["costControl"][where]["metrics"]["retention"] == "1y"
    out = eff(f"costControl: {{{where}: {{metrics: {{retention: 90d}}}}}}")
    assert out["costControl"][where]["metrics"]["retention"] == "90d"


@pytest.mark.parametrize("shape", ["oidc", "idpA"])
def test_scopes_default_for_oidc_and_idp_a(shape: str) -> None:
    body = "{clientId: a, clientSecret: b, redirectURI: c}"
    assert eff(f"auth: {{{shape}: {body}}}")["auth"][shape]["scopes"] == ["email", "profile"]
    connector = eff(f"auth: {{connectors: [{{id: x, {shape}: {body}}}]}}")["auth"]["connectors"][0]
    assert connector[shape]["scopes"] == ["email", "profile"]
    explicit = eff(f"auth: {{{shape}: {{clientId: a, clientSecret: b, redirectURI: c, scopes: [openid]}}}}")
    assert explicit["auth"][shape]["scopes"] == ["openid"]
    empty = eff(f"auth: {{{shape}: {{clientId: a, clientSecret: b, redirectURI: c, scopes: []}}}}")
    assert empty["auth"][shape]["scopes"] == ["email", "profile"]  # empty means the default


def test_scopes_not_added_to_other_shapes() -> None:
    out = eff("auth: {gitHostB: {clientId: a, clientSecret: b, redirectURI: c}}")
    assert "scopes" not in out["auth"]["gitHostB"]


def test_nav_bar_button_position() -> None:
    out = eff("uiSettings: {navBarButtons: [{text: Docs}, {text: Help, position: TopStart}]}")
    assert [b["position"] for b in out["uiSettings"]["navBarButtons"]] == ["BottomEnd", "TopStart"]


def test_idp_b_tenant() -> None:
    body = "clientId: a, clientSecret: b, redirectURI: c"
    assert eff(f"auth: {{idpB: {{{body}}}}}")["auth"]["idpB"]["tenant"] == "common"
    assert eff(f"auth: {{idpB: {{{body}, tenant: consumers}}}}")["auth"]["idpB"]["tenant"] == "consumers"
    connector = eff(f"auth: {{connectors: [{{id: x, idpB: {{{body}}}}}]}}")["auth"]["connectors"][0]
    assert connector["idpB"]["tenant"] == "common"


def test_explicit_false_and_empty_storage_class_are_kept() -> None:
    out = eff("disableConfigEndpoint: false\nplatformDB: {storageClass: ''}\n")
    assert out["disableConfigEndpoint"] is False
    assert out["platformDB"] == {"storageClass": ""}  # empty disables provisioning: not unset


def test_defaults_do_not_mutate_the_validated_input() -> None:
    from syncpatch.platformconfig import ConfigStatus, apply_defaults

    status = ConfigStatus.model_validate({"audit": {"enabled": False}}, by_alias=True)
    apply_defaults(status)
    assert status.audit is not None and status.audit.max_size is None
