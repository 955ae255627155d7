"""Whole Config objects: apiVersion/kind, Kubernetes metadata rules, deprecation warnings."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from syncpatch.platformconfig import Config, ConfigInvalid, validate_config_object


def obj(**metadata: Any) -> dict[str, Any]:
    meta = {"name": "platform", **metadata}
    return {"apiVersion": "management.platform.sh/v1", "kind": "Config", "metadata": meta,
            "spec": {"raw": "platformHost: a.example.com\n"}}


def errors(data: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ConfigInvalid) as info:
        validate_config_object(data)
    return {e.path: e.message for e in info.value.errors}


def test_valid_object() -> None:
    config, warnings = validate_config_object(obj(labels={"app.kubernetes.io/name": "platform"}))
    assert isinstance(config, Config) and warnings == []
    assert config.metadata.labels == {"app.kubernetes.io/name": "platform"}
    assert config.spec.raw == "platformHost: a.example.com\n"


def test_api_version_and_kind() -> None:
    data = obj()
    data["apiVersion"], data["kind"] = "management.platform.sh/v2", "Settings"
    found = errors(data)
    assert set(found) == {"apiVersion", "kind"}
    assert "expected management.platform.sh/v1" in found["apiVersion"]
    assert set(errors({"spec": {}})) == {"apiVersion", "kind", "metadata"}


def test_object_must_be_a_mapping() -> None:
    assert errors([1]) == {"": "a Config object must be a mapping, got a list"}  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["platform", "platform.example.com", "a", "a-b-1", "x" * 253])
def test_names_that_are_dns_subdomains(name: str) -> None:
    validate_config_object(obj(name=name))


@pytest.mark.parametrize("name", ["Platform", "-a", "a-", "a_b", "a..b", "x" * 254, "a b"])
def test_names_that_are_not(name: str) -> None:
    assert list(errors(obj(name=name))) == ["metadata.name"]


def test_name_or_generate_name_required() -> None:
    data = obj()
    del data["metadata"]["name"]
    assert errors(data) == {"metadata.name": "name or generateName is required"}
    data["metadata"]["generateName"] = "platform-"
    validate_config_object(data)
    data["metadata"]["generateName"] = "Platform-"
    assert list(errors(data)) == ["metadata.generateName"]


@pytest.mark.parametrize(("namespace", "ok"), [("default", True), ("team-a", True), ("a.b", False),
                                               ("Team", False), ("x" * 64, False)])
def test_namespace_is_a_dns_label(namespace: str, ok: bool) -> None:
    if ok:
        validate_config_object(obj(namespace=namespace))
    else:
        assert list(errors(obj(namespace=namespace))) == ["metadata.namespace"]


def test_labels() -> None:
    validate_config_object(obj(labels={"a": "", "example.com/b": "x.y_z-1", "c": "v" * 63}))
    found = errors(obj(labels={"bad key": "v", "example.com/": "v", "ok": "bad value",
                               "long": "v" * 64, "UPPER.example.com/x": "v"}))
    assert set(found) == {'metadata.labels["bad key"]', 'metadata.labels["example.com/"]',
                          "metadata.labels.ok", "metadata.labels.long",
                          'metadata.labels["UPPER.example.com/x"]'}
    assert found["metadata.labels.ok"].startswith("invalid label value 'bad value'")


def test_label_values_must_be_strings() -> None:
    assert errors(obj(labels={"a": 1})) == {"metadata.labels.a": "expected a string, got number 1"}


def test_annotations() -> None:
    validate_config_object(obj(annotations={"Example.com/Any": "free text: anything { }"}))
    assert list(errors(obj(annotations={"no spaces": "x"}))) == ['metadata.annotations["no spaces"]']
    found = errors(obj(annotations={"big": "x" * (256 * 1024)}))
    assert "exceeds the limit of 262144 bytes" in found["metadata.annotations"]


def test_owner_references_need_identity_fields() -> None:
    found = errors(obj(ownerReferences=[{"kind": "ConfigMap"}]))
    assert found == {f"metadata.ownerReferences[0].{f}": "is required" for f in ("apiVersion", "name", "uid")}


def test_at_most_one_controller() -> None:
    ref = {"apiVersion": "v1", "kind": "ConfigMap", "name": "a", "uid": "1"}
    validate_config_object(obj(ownerReferences=[{**ref, "controller": True}, {**ref, "uid": "2", "controller": False}]))
    found = errors(obj(ownerReferences=[{**ref, "controller": True}, ref, {**ref, "uid": "3", "controller": True}]))
    assert list(found) == ["metadata.ownerReferences[2].controller"]
    assert "only one reference can have controller set to true" in found["metadata.ownerReferences[2].controller"]


def test_block_owner_deletion_is_modelled() -> None:
    ref = {"apiVersion": "v1", "kind": "ConfigMap", "name": "a", "uid": "1", "blockOwnerDeletion": True}
    config, _ = validate_config_object(obj(ownerReferences=[ref]))
    assert config.metadata.owner_references and config.metadata.owner_references[0].block_owner_deletion is True


def test_finalizers_are_qualified_names() -> None:
    validate_config_object(obj(finalizers=["kubernetes", "example.com/cleanup", "platform.sh/x_y"]))
    found = errors(obj(finalizers=["ok", "example.com/bad name", "a/b/c", "/x", "ok"]))
    assert set(found) == {"metadata.finalizers[1]", "metadata.finalizers[2]", "metadata.finalizers[3]",
                          "metadata.finalizers[4]"}
    assert found["metadata.finalizers[4]"] == "duplicate finalizer 'ok'"


def test_timestamps_and_grace_period() -> None:
    validate_config_object(obj(creationTimestamp="2024-05-01T12:00:00Z", deletionTimestamp="2024-05-01T12:00:00.5+02:00",
                               deletionGracePeriodSeconds=30))
    found = errors(obj(creationTimestamp="yesterday", deletionGracePeriodSeconds=30))
    assert set(found) == {"metadata.creationTimestamp", "metadata.deletionGracePeriodSeconds"}


def test_managed_fields_operation_and_type() -> None:
    entry = {"manager": "kubectl", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}
    validate_config_object(obj(managedFields=[entry]))
    found = errors(obj(managedFields=[{**entry, "operation": "Create", "fieldsType": "FieldsV2"}]))
    assert set(found) == {"metadata.managedFields[0].operation", "metadata.managedFields[0].fieldsType"}


def test_self_link_is_accepted_with_a_warning_and_never_populated() -> None:
    config, warnings = validate_config_object(obj(selfLink="/apis/management.platform.sh/v1/configs/platform"))
    assert config.metadata.self_link is None
    assert warnings == ["metadata.selfLink: deprecated and never populated; the value is ignored"]


def test_status_is_validated_and_deprecations_warned() -> None:
    data = obj()
    data["status"] = {"oidc": {"enabled": True}, "workspaceSubDomain": "*.workspace.example.com"}
    _, warnings = validate_config_object(data)
    assert [w.split(":")[0] for w in warnings] == ["status.oidc", "status.workspaceSubDomain"]
    data["status"] = {"audit": {"enabled": True}}
    assert errors(data) == {"status.audit.path": "is required when audit is enabled"}


def test_spec_raw_must_be_a_string_but_is_not_parsed_here() -> None:
    data = obj()
    data["spec"]["raw"] = {"platformHost": "x"}
    assert list(errors(data)) == ["spec.raw"]
    data["spec"]["raw"] = "audit: {enabled: true}"  # invalid, but that is effective_config's job
    validate_config_object(data)


def test_input_is_not_mutated() -> None:
    data = obj(selfLink="/x", labels={"bad key": "v"})
    before = copy.deepcopy(data)
    with pytest.raises(ConfigInvalid):
        validate_config_object(data)
    assert data == before


def test_errors_carry_positions_when_given_a_document() -> None:
    from syncpatch.platformconfig.documents import load_document

    text = "apiVersion: management.platform.sh/v1\nkind: Config\nmetadata:\n  name: Bad_Name\n"
    doc = load_document(text)
    with pytest.raises(ConfigInvalid) as info:
        validate_config_object(doc.data, doc=doc, source="c.yaml")
    [error] = info.value.errors
    assert (error.path, error.line, error.column) == ("metadata.name", 4, 9)
