"""Values the platform's own Config types document must be accepted, and values those Go
types cannot hold must be refused (issue 20): each case is an example from the types'
documentation or from what their Go types (`[]byte`, `*int32`, `json:"chart"`) imply."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from syncpatch.cli import cli
from syncpatch.platformconfig import (ConfigSpec, decode_raw, effective_config, status_to_dict,
                                      validate_config_object)
from syncpatch.platformconfig.files import check_text

Messages = Callable[[str], dict[str, str]]


def eff(raw: str) -> dict[str, Any]:
    return status_to_dict(effective_config(raw))


# ---- audit: "/healthz*" - Log all health checks ----------------------------------------
@pytest.mark.parametrize("url", ["/metrics", "/healthz*", "/healthz", "/apis*", "/readyz/*"])
def test_documented_non_resource_urls(url: str) -> None:
    out = eff(f"audit: {{policy: {{rules: [{{level: Metadata, nonResourceURLs: ['{url}']}}]}}}}")
    assert out["audit"]["policy"]["rules"][0]["nonResourceURLs"] == [url]


def test_a_star_inside_a_url_is_still_refused(messages_of: Messages) -> None:
    found = messages_of("audit: {policy: {rules: [{level: Metadata, nonResourceURLs: ['/he*lthz']}]}}")
    assert "only at the end" in found["audit.policy.rules[0].nonResourceURLs[0]"]


# ---- database.dataSource: what kine accepts --------------------------------------------
@pytest.mark.parametrize("source", [
    "mysql://user:pass@tcp(host:3306)/db",
    "mysql://username:password@tcp(10.0.0.7:3306)/kine?tls=true",
    "sqlite:///var/lib/kine/state.db?_journal=WAL&cache=shared",
    "sqlite://",
    "postgres://user:pass@host/db",
    "postgres://user:pass@host",
    "postgresql://db.example.com:5432/platform?user=kine&password=s3cret&sslmode=require",
    "postgres://db.example.com/platform?user=kine&password=s3cret",
    "postgres://u:p@ss@[::1]/kine",
])
def test_kine_data_sources_accepted(source: str) -> None:
    assert eff(f"database: {{enabled: true, dataSource: '{source}'}}")["database"]["dataSource"] == source


def test_query_user_without_password_needs_an_identity_provider(messages_of: Messages) -> None:
    raw = "database: {dataSource: 'postgres://db/platform?user=kine'}"
    assert "password is missing" in messages_of(raw)["database.dataSource"]
    effective_config(raw.replace("}", ", identityProvider: aws}"))


def test_unknown_data_source_scheme_names_the_accepted_ones(messages_of: Messages) -> None:
    message = messages_of("database: {dataSource: 'oracle://u:p@db:1521/x'}")["database.dataSource"]
    assert "'oracle'" in message and "postgres" in message and "sqlite" in message


# ---- projectNamespacePrefix: "" is a value (*string), not "unset" ----------------------
def test_empty_project_namespace_prefix_is_kept() -> None:
    assert eff('projectNamespacePrefix: ""')["projectNamespacePrefix"] == ""
    assert eff("projectNamespacePrefix: null")["projectNamespacePrefix"] == "p-"
    assert eff("platformHost: a.example.com")["projectNamespacePrefix"] == "p-"


# ---- saml.caData is []byte: base64 on the wire ----------------------------------------
def test_saml_ca_data_must_be_base64(messages_of: Messages) -> None:
    pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
    good = base64.b64encode(pem.encode()).decode()
    effective_config(f"auth: {{saml: {{caData: '{good}'}}}}")
    wrapped = "\n".join(good[i:i + 20] for i in range(0, len(good), 20))
    effective_config("auth:\n  saml:\n    caData: |\n" + "".join(f"      {line}\n" for line in wrapped.split("\n")))
    found = messages_of("auth: {saml: {caData: 'not base64!'}}")
    assert "invalid base64" in found["auth.saml.caData"]
    found = messages_of("auth: {connectors: [{id: corp, saml: {caData: 'Zm9v='}}]}")
    assert "invalid base64" in found["auth.connectors[0].saml.caData"]


# ---- *int32 replicas ---------------------------------------------------------------
@pytest.mark.parametrize("where", ["costControl.global.metrics", "costControl.cluster.metrics",
                                   "costControl.cluster.costExporter", "imageBuilder"])
def test_replicas_fit_in_int32(messages_of: Messages, where: str) -> None:
    def raw(value: int) -> str:
        text = f"replicas: {value}"
        for part in reversed(where.split(".")):
            text = f"{part}: {{{text}}}"
        return text
    assert eff(raw(2**31 - 1)) is not None
    found = messages_of(raw(2**31))
    assert list(found) == [f"{where}.replicas"] and "2147483647" in found[f"{where}.replicas"]


# ---- apps.predefinedApps[].chart has no omitempty: required --------------------------
def test_predefined_app_needs_a_chart(messages_of: Messages) -> None:
    eff("apps: {predefinedApps: [{chart: loft-sh/vcluster, title: vCluster}]}")
    found = messages_of("apps: {predefinedApps: [{chart: a/b}, {title: No chart}]}")
    assert found == {"apps.predefinedApps[1].chart": "is required"}


# ---- costControl: on by default, with the initial prices -----------------------------
def test_cost_control_defaults_are_in_status() -> None:
    cost = eff("")["costControl"]
    assert cost["enabled"] is True
    settings = cost["settings"]  # the documented "Default Cost Settings"
    assert settings["averageCPUPricePerNode"] == {"price": 31, "timePeriod": "Monthly"}
    assert settings["averageRAMPricePerNode"] == {"price": 31, "timePeriod": "Monthly"}
    assert settings["controlPlanePricePerCluster"] == {"price": 900, "timePeriod": "Yearly"}
    assert "priceCurrency" not in settings  # none is documented


def test_cost_control_values_written_win_over_defaults() -> None:
    cost = eff("costControl: {enabled: false, settings: {priceCurrency: EUR, "
               "averageCPUPricePerNode: {price: 20, timePeriod: Hourly}}}")["costControl"]
    assert cost["enabled"] is False
    assert cost["settings"]["priceCurrency"] == "EUR"
    assert cost["settings"]["averageCPUPricePerNode"] == {"price": 20, "timePeriod": "Hourly"}
    assert cost["settings"]["averageRAMPricePerNode"] == {"price": 31, "timePeriod": "Monthly"}


# ---- spec.raw is []byte: base64 accepted on input ------------------------------------
RAW = "platformHost: platform.example.com\nauth:\n  password:\n    disabled: true\n"


def test_base64_raw_is_decoded() -> None:
    encoded = base64.b64encode(RAW.encode()).decode()
    assert decode_raw(encoded) == (RAW, True)
    assert decode_raw(RAW) == (RAW, False)
    assert decode_raw("") == ("", False)
    assert decode_raw("abcd") == ("abcd", False)  # not UTF-8 once decoded: kept as text
    assert ConfigSpec.model_validate({"raw": encoded}).raw == RAW


def test_exported_config_object_with_base64_raw() -> None:
    encoded = base64.b64encode(RAW.encode()).decode()
    obj = {"apiVersion": "management.platform.sh/v1", "kind": "Config",
           "metadata": {"name": "platform"}, "spec": {"raw": encoded}}
    config, _ = validate_config_object(obj)
    assert config.spec.raw == RAW
    [checked] = check_text(json.dumps(obj), "exported.json")
    assert checked.errors == () and checked.config is not None
    assert checked.config.spec.raw == RAW
    assert checked.config.status is not None and checked.config.status.platform_host == "platform.example.com"


def test_base64_raw_errors_name_the_decoded_position() -> None:
    encoded = base64.b64encode(b"platformHost: ok.example.com\nauth: {password: {disabled: maybe}}\n").decode()
    text = ("apiVersion: management.platform.sh/v1\nkind: Config\nmetadata: {name: p}\n"
            f"spec:\n  raw: {encoded}\n")
    [checked] = check_text(text, "c.yaml")
    [error] = checked.errors
    assert error.path == "spec.raw:auth.password.disabled"
    assert (error.line, error.column) == (5, 8)
    assert "line 2, column" in error.message and "base64-decoded" in error.message


# ---- config show on an object with a status -----------------------------------------
def test_show_says_when_it_replaces_a_status(tmp_path: Path) -> None:
    path = tmp_path / "obj.yaml"
    path.write_text("apiVersion: management.platform.sh/v1\nkind: Config\nmetadata: {name: p}\n"
                    "spec: {raw: 'platformHost: new.example.com'}\n"
                    "status: {platformHost: old.example.com}\n")
    result = CliRunner().invoke(cli, ["config", "show", str(path), "-o", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["status"]["platformHost"] == "new.example.com"
    assert "status in the file differs" in result.stderr and "replaced" in result.stderr


def test_show_is_quiet_when_the_status_already_matches(tmp_path: Path) -> None:
    obj = {"apiVersion": "management.platform.sh/v1", "kind": "Config", "metadata": {"name": "p"},
           "spec": {"raw": "platformHost: a.example.com"}, "status": eff("platformHost: a.example.com")}
    path = tmp_path / "obj.json"
    path.write_text(json.dumps(obj))
    result = CliRunner().invoke(cli, ["config", "show", str(path)])
    assert result.exit_code == 0 and "differs" not in result.stderr
