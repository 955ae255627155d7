"""Every validation rule of the platform config, with paths and YAML positions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from syncpatch.platformconfig import ConfigInvalid, FieldError, effective_config

Messages = Callable[[str], dict[str, str]]
Errors = Callable[[str], list[FieldError]]
GIT_B = "{clientId: a, clientSecret: b, redirectURI: c}"


def test_valid_config_raises_nothing() -> None:
    effective_config(f"auth: {{gitHostB: {GIT_B}}}\n")


@pytest.mark.parametrize(("shape", "fields"), [
    ("gitHostA", ["clientSecret", "redirectURI"]),
    ("gitHostB", ["clientId", "clientSecret", "redirectURI"]),
    ("idpA", ["clientId", "clientSecret", "redirectURI"]),
    ("idpB", ["clientId", "clientSecret", "redirectURI"]),
])
def test_required_connector_fields(messages_of: Messages, shape: str, fields: list[str]) -> None:
    found = messages_of(f"auth:\n  {shape}: {{}}\n")
    assert found == {f"auth.{shape}.{f}": "is required" for f in fields}
    found = messages_of(f"auth:\n  connectors:\n    - {{id: a, gitHostB: {GIT_B}}}\n"
                        f"    - {{id: b, saml: {{ca: x}}}}\n    - id: c\n      {shape}: {{}}\n")
    assert found == {f"auth.connectors[2].{shape}.{f}": "is required" for f in fields}


def test_empty_string_counts_as_missing(messages_of: Messages) -> None:
    found = messages_of("auth: {gitHostB: {clientId: a, clientSecret: '', redirectURI: c}}")
    assert found == {"auth.gitHostB.clientSecret": "is required"}


def test_issue_example_path_and_position(errors_of: Errors) -> None:
    raw = ("auth:\n  connectors:\n    - {id: a, oidc: {}}\n    - {id: b, oidc: {}}\n"
           "    - id: c\n      gitHostB:\n        clientId: x\n        clientSecret: y\n")
    [error] = errors_of(raw)
    assert error.path == "auth.connectors[2].gitHostB.redirectURI"
    assert (error.line, error.column) == (6, 7)  # the gitHostB key that lacks it
    assert str(error) == "auth.connectors[2].gitHostB.redirectURI: is required"
    assert error.located("t.yaml") == "t.yaml:6:7: auth.connectors[2].gitHostB.redirectURI: is required"


def test_admin_email_required_with_service_account(messages_of: Messages) -> None:
    raw = "auth: {idpA: {clientId: a, clientSecret: b, redirectURI: c, serviceAccountFilePath: /sa.json}}"
    assert messages_of(raw) == {"auth.idpA.adminEmail": "is required when serviceAccountFilePath is set"}
    effective_config(raw.replace("}}", ", adminEmail: a@example.com}}"))


def test_git_host_a_root_ca_needs_host_name(messages_of: Messages) -> None:
    raw = "auth: {gitHostA: {clientSecret: b, redirectURI: c, rootCA: /ca.pem}}"
    assert list(messages_of(raw)) == ["auth.gitHostA.hostName"]


@pytest.mark.parametrize("fix", ["caData: Zm9v", "ca: /ca.pem", "insecureSkipSignatureValidation: true"])
def test_saml_needs_one_of_ca_data_ca_or_insecure(messages_of: Messages, fix: str) -> None:
    found = messages_of("auth:\n  saml:\n    ssoURL: https://sso\n")
    assert found == {"auth.saml.caData": "one of caData, ca or insecureSkipSignatureValidation must be set"}
    assert "caData" in next(iter(messages_of("auth: {saml: {insecureSkipSignatureValidation: false}}")))
    effective_config(f"auth:\n  saml:\n    {fix}\n")


def test_connector_needs_id_and_exactly_one_shape(messages_of: Messages) -> None:
    found = messages_of(f"auth:\n  connectors:\n    - displayName: X\n    - id: b\n      gitHostB: {GIT_B}\n"
                        f"      idpB: {GIT_B}\n    - id: b\n      gitHostB: {GIT_B}\n")
    assert found["auth.connectors[0].id"] == "is required"
    assert found["auth.connectors[0]"].startswith("exactly one of oidc, gitHostA")
    assert found["auth.connectors[1]"].endswith("(found: gitHostB, idpB)")
    assert found["auth.connectors[2].id"] == "duplicate connector id 'b' (also connectors[1])"


def test_groups_filters_are_regular_expressions(messages_of: Messages) -> None:
    assert list(messages_of("auth: {groupsFilters: ['ok.*', '(broken']}")) == ["auth.groupsFilters[1]"]


def test_deprecated_oidc_clients_need_redirect_uris(messages_of: Messages) -> None:
    found = messages_of("oidc: {enabled: true, clients: [{name: a, redirectURIs: [x]}, {name: b}]}")
    assert found == {"oidc.clients[1].redirectURIs": "is required"}


def test_audit_path_required_when_enabled(messages_of: Messages) -> None:
    assert messages_of("audit: {enabled: true}") == {"audit.path": "is required when audit is enabled"}
    effective_config("audit: {enabled: false}")
    effective_config("audit: {enabled: true, path: /var/log/audit}")


def test_audit_level_and_policy_are_exclusive(messages_of: Messages) -> None:
    found = messages_of("audit: {level: 1, policy: {rules: [{level: Metadata}]}}")
    assert found == {"audit.level": "level and policy are mutually exclusive; set only one"}


def test_every_audit_rule_has_a_level(messages_of: Messages) -> None:
    found = messages_of("audit:\n  policy:\n    rules:\n      - level: Metadata\n      - verbs: [get]\n")
    assert found == {"audit.policy.rules[1].level": "is required"}


def test_resource_names_require_resources(messages_of: Messages) -> None:
    raw = "audit: {policy: {rules: [{level: Metadata, resources: [{group: '', resourceNames: [x]}]}]}}"
    assert messages_of(raw) == {"audit.policy.rules[0].resources[0].resourceNames": "requires resources to be set"}
    effective_config(raw.replace("group: ''", "resources: [secrets]"))


@pytest.mark.parametrize("url", ["*", "/healthz", "/healthz/*", "/api/v1/*", "/", "/healthz*", "/apis*"])
def test_non_resource_urls_accepted(url: str) -> None:
    effective_config(f"audit: {{policy: {{rules: [{{level: None, nonResourceURLs: ['{url}']}}]}}}}")


@pytest.mark.parametrize("url", ["/*/x", "/a*/b", "healthz", "/a/b*c", "/*/*", "/a**"])
def test_non_resource_url_wildcard_only_at_the_end(messages_of: Messages, url: str) -> None:
    found = messages_of(f"audit: {{policy: {{rules: [{{level: None, nonResourceURLs: ['/ok', '{url}']}}]}}}}")
    assert list(found) == ["audit.policy.rules[0].nonResourceURLs[1]"]


def test_rule_cannot_mix_resources_and_urls(messages_of: Messages) -> None:
    raw = "audit: {policy: {rules: [{level: None, nonResourceURLs: [/x], resources: [{resources: [pods]}]}]}}"
    assert list(messages_of(raw)) == ["audit.policy.rules[0].nonResourceURLs"]


def test_nav_bar_position_enum(messages_of: Messages) -> None:
    found = messages_of("uiSettings: {navBarButtons: [{position: Left}]}")
    message = found["uiSettings.navBarButtons[0].position"]
    assert "'TopStart', 'TopEnd', 'BottomStart' or 'BottomEnd'" in message and "'Left'" in message


@pytest.mark.parametrize(("window", "ok"), [
    ("02:00-04:00", True), ("23:59-00:00", True), ("24:00-01:00", False), ("2:00-4:00", False),
    ("02:00 - 04:00", False), ("02:60-03:00", False), ("0200-0400", False),
])
def test_maintenance_time_window(messages_of: Messages, window: str, ok: bool) -> None:
    raw = f"cloud: {{maintenanceWindow: {{timeWindow: '{window}'}}}}"
    if ok:
        effective_config(raw)
    else:
        assert list(messages_of(raw)) == ["cloud.maintenanceWindow.timeWindow"]


@pytest.mark.parametrize(("day", "ok"), [("Sunday", True), ("monday", True), ("Sun", False), ("Funday", False)])
def test_maintenance_day_of_week(messages_of: Messages, day: str, ok: bool) -> None:
    raw = f"cloud: {{maintenanceWindow: {{dayOfWeek: {day}}}}}"
    if ok:
        effective_config(raw)
    else:
        assert list(messages_of(raw)) == ["cloud.maintenanceWindow.dayOfWeek"]


@pytest.mark.parametrize(("value", "ok"), [("1m", True), ("1h30m", True), ("500ms", True), ("1.5h", True),
                                           ("1d", False), ("m", False), ("0", False), ("-1m", False), ("1 m", False)])
def test_sync_interval_parses(messages_of: Messages, value: str, ok: bool) -> None:
    raw = f"secretStore: {{syncInterval: '{value}'}}"
    if ok:
        effective_config(raw)
    else:
        assert list(messages_of(raw)) == ["secretStore.syncInterval"]


@pytest.mark.parametrize(("value", "ok"), [("1y", True), ("90d", True), ("1y2w", True), ("12h", True),
                                           ("0", True), ("1x", False), ("1d1y", False), ("", False), ("1.5d", False)])
def test_retention_parses(messages_of: Messages, value: str, ok: bool) -> None:
    raw = f"costControl: {{global: {{metrics: {{retention: '{value}'}}}}}}"
    if ok:
        effective_config(raw)
    else:
        assert list(messages_of(raw)) == ["costControl.global.metrics.retention"]


def test_requests_may_not_exceed_limits(messages_of: Messages) -> None:
    raw = "imageBuilder: {resources: {limits: {cpu: 500m, memory: 1Gi}, requests: {cpu: '1', memory: 1024Mi}}}"
    assert messages_of(raw) == {"imageBuilder.resources.requests.cpu": "request 1 exceeds the limit 500m"}
    effective_config("imageBuilder: {resources: {limits: {cpu: 2}, requests: {cpu: 2000m, memory: 1Gi}}}")


def test_quantities_must_parse(messages_of: Messages) -> None:
    found = messages_of("imageBuilder: {resources: {limits: {cpu: two}}}\ncostControl: "
                        "{global: {metrics: {storage: {size: 10GB}}}}\n")
    assert set(found) == {"imageBuilder.resources.limits.cpu", "costControl.global.metrics.storage.size"}


def test_claims_have_unique_names(messages_of: Messages) -> None:
    raw = "imageBuilder: {resources: {claims: [{name: a}, {request: x}, {name: a}]}}"
    assert messages_of(raw) == {"imageBuilder.resources.claims[1].name": "is required",
                                "imageBuilder.resources.claims[2].name": "duplicate claim name 'a'"}


@pytest.mark.parametrize(("value", "ok"), [("-", True), ("", True), ("fast-ssd", True), ("gp3.encrypted", True),
                                           ("Fast_SSD", False), ("-x", False)])
def test_storage_class_rules(messages_of: Messages, value: str, ok: bool) -> None:
    for raw, path in ((f"platformDB: {{storageClass: '{value}'}}", "platformDB.storageClass"),
                      (f"costControl: {{cluster: {{metrics: {{storage: {{storageClass: '{value}'}}}}}}}}",
                       "costControl.cluster.metrics.storage.storageClass")):
        if ok:
            effective_config(raw)
        else:
            assert list(messages_of(raw)) == [path]


def test_unset_storage_class_means_default_class() -> None:
    from syncpatch.platformconfig import status_to_dict

    assert status_to_dict(effective_config("platformDB: {}"))["platformDB"] == {}
    assert status_to_dict(effective_config("platformDB: {storageClass: null}"))["platformDB"] == {}


@pytest.mark.parametrize("source", [
    "postgres://platform:secret@db.example.com:5432/platform",
    "mysql://root:p@ss:word@10.0.0.1:3306/kine",
    "postgres://u:pw@[::1]:5432/db?sslmode=disable",
])
def test_data_source_accepted(source: str) -> None:
    effective_config(f"database: {{dataSource: '{source}'}}")


@pytest.mark.parametrize("source", [
    "postgres://db.example.com:5432/platform", "db:5432/platform", "postgres://u@db:5432/platform",
    "postgres://u:pw@db:99999/platform", "mysql://u:pw@tcp(db:0)/kine", "mysql://u:pw@tcp(db:3306)",
    "ftp://u:pw@db:21/x", "postgres://u:pw@db:port/platform",
])
def test_data_source_form(messages_of: Messages, source: str) -> None:
    found = messages_of(f"database: {{dataSource: '{source}'}}")
    assert list(found) == ["database.dataSource"] and "invalid data source" in found["database.dataSource"]


def test_data_source_password_optional_with_identity_provider() -> None:
    effective_config("database: {dataSource: 'postgres://iam_user@db:5432/platform', identityProvider: aws}")


def test_unknown_fields_are_errors_at_the_key(errors_of: Errors) -> None:
    [error] = errors_of("auth:\n  oidc:\n    clientID: x\n")
    assert (error.path, error.line, error.column) == ("auth.oidc.clientID", 3, 5)
    assert error.message == "unknown field 'clientID'; did you mean 'clientId'?"


def test_unknown_field_hints(messages_of: Messages) -> None:
    found = messages_of("platfromHost: x\nauth: {connectors: [{id: a, gitHostb: {}}]}\nwhatever: 1\n")
    assert found == {
        "platfromHost": "unknown field 'platfromHost'; did you mean 'platformHost'?",
        "auth.connectors[0].gitHostb": "unknown field 'gitHostb'; did you mean 'gitHostB'?",
        "whatever": "unknown field 'whatever'",
    }


def test_snake_case_names_are_not_wire_names(messages_of: Messages) -> None:
    assert messages_of("platform_host: x") == {
        "platform_host": "unknown field 'platform_host'; did you mean 'platformHost'?"}


def test_types_are_strict(messages_of: Messages) -> None:
    found = messages_of("disableConfigEndpoint: 'yes please'\nauth: {accessKeyMaxTTLSeconds: '10', "
                        "oidc: {clientId: 12}}\naudit: {maxSize: -1}\n")
    assert found == {
        "disableConfigEndpoint": "expected true or false, got string 'yes please'",
        "auth.accessKeyMaxTTLSeconds": "expected an integer, got string '10'",
        "auth.oidc.clientId": "expected a string, got number 12",
        "audit.maxSize": "input should be greater than or equal to 0",
    }


def test_platform_host_and_prefix(messages_of: Messages) -> None:
    found = messages_of("platformHost: https://platform.example.com\nprojectNamespacePrefix: P_\n")
    assert set(found) == {"platformHost", "projectNamespacePrefix"}


def test_every_error_is_reported_at_once(errors_of: Errors) -> None:
    raw = """\
auth:
  groupsFilters: [1]
  connectors:
    - id: a
      idpA:
        clientId: x
        client_secret: y
        serviceAccountFilePath: /sa.json
audit:
  enabled: true
  level: 1
  policy:
    rules: [{verbs: [get]}]
secretStore: {syncInterval: soon}
database: {dataSource: nope}
"""
    found = [(e.line, e.path) for e in errors_of(raw)]
    assert found == [
        (2, "auth.groupsFilters[0]"),
        (5, "auth.connectors[0].idpA.adminEmail"),
        (5, "auth.connectors[0].idpA.clientSecret"),
        (5, "auth.connectors[0].idpA.redirectURI"),
        (7, "auth.connectors[0].idpA.client_secret"),
        (9, "audit.path"),
        (11, "audit.level"),
        (13, "audit.policy.rules[0].level"),
        (14, "secretStore.syncInterval"),
        (15, "database.dataSource"),
    ]


def test_root_must_be_a_mapping(messages_of: Messages) -> None:
    assert messages_of("- a\n- b\n") == {"": "the platform config must be a mapping of settings, got a list"}


def test_bad_yaml_reports_position() -> None:
    with pytest.raises(ConfigInvalid) as info:
        effective_config("auth:\n  oidc: {clientId: [x}\n", source="f.yaml")
    [error] = info.value.errors
    assert error.line == 2 and error.message.startswith("invalid YAML:")
    assert "f.yaml:2:" in str(info.value)


def test_duplicate_keys_are_errors(errors_of: Errors) -> None:
    [error] = errors_of("platformHost: a\nplatformHost: b\n")
    assert (error.path, error.message, error.line) == ("platformHost", "duplicate key", 2)


def test_config_invalid_pickles() -> None:
    import pickle

    with pytest.raises(ConfigInvalid) as info:
        effective_config("audit: {enabled: true}")
    copy = pickle.loads(pickle.dumps(info.value))
    assert copy.errors == info.value.errors


def test_non_string_map_keys_are_located(errors_of: Errors) -> None:
    [error] = errors_of("auth:\n  customHttpHeaders:\n    X-Ok: fine\n    1: x\n")
    assert (error.line, error.column) == (4, 5)
    assert error.message == "key 1: expected a string, got number 1"
