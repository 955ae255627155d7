"""The API surface the server consumes: names, schema, wire form, warnings, construction."""

from __future__ import annotations

import json

import syncpatch.platformconfig as pc
from syncpatch.platformconfig import (Config, ConfigSpec, ConfigStatus, ObjectMeta, config_json_schema,
                                      config_openapi_schemas, deprecation_warnings, effective_config,
                                      effective_config_with_warnings, status_to_dict)

# The platform's documented initial cost settings; the dashboard is on by default.
COST_DEFAULTS = {"enabled": True, "settings": {
    "averageCPUPricePerNode": {"price": 31, "timePeriod": "Monthly"},
    "averageRAMPricePerNode": {"price": 31, "timePeriod": "Monthly"},
    "controlPlanePricePerCluster": {"price": 900, "timePeriod": "Yearly"}}}


def test_exported_names() -> None:
    for name in ("Config", "ObjectMeta", "ConfigSpec", "ConfigStatus", "effective_config", "ConfigInvalid",
                 "FieldError", "validate_config_object", "mask_secrets", "MASK", "status_to_dict",
                 "config_json_schema", "deprecation_warnings", "effective_config_with_warnings"):
        assert name in pc.__all__ and hasattr(pc, name)
    assert pc.MASK == "********"


def test_json_schema_uses_wire_names_and_forbids_extras() -> None:
    schema = config_json_schema()
    json.dumps(schema)
    assert set(schema["properties"]) == {"apiVersion", "kind", "metadata", "spec", "status"}
    gitb = schema["$defs"]["GitHostB"]
    assert "redirectURI" in gitb["properties"] and gitb["additionalProperties"] is False
    assert "costControl" in schema["$defs"]["ConfigStatus"]["properties"]


def test_openapi_schemas_are_openapi_30() -> None:
    schemas = config_openapi_schemas()
    text = json.dumps(schemas)
    assert '"type": "null"' not in text and "#/$defs/" not in text
    root = schemas["sh.platform.management.v1.Config"]
    assert root["x-kubernetes-group-version-kind"] == [{"group": "management.platform.sh", "version": "v1",
                                                        "kind": "Config"}]
    for ref in (part.split('"')[0] for part in text.split('"$ref": "')[1:]):
        assert ref.removeprefix("#/components/schemas/") in schemas
    assert schemas["sh.platform.management.v1.SAML"]["properties"]["caData"]["nullable"] is True


def test_models_construct_by_python_name_and_dump_camel_case() -> None:
    config = Config(metadata=ObjectMeta(name="platform", resource_version="7"), spec=ConfigSpec(raw="a: 1"))
    assert config.model_dump(by_alias=True, exclude_none=True) == {
        "apiVersion": "management.platform.sh/v1", "kind": "Config",
        "metadata": {"name": "platform", "resourceVersion": "7"}, "spec": {"raw": "a: 1"}}


def test_status_to_dict_omits_unset_but_keeps_explicit_values() -> None:
    status = effective_config("disableConfigEndpoint: false\nauth: {loginAccessKeyTTLSeconds: 0}\n")
    assert status_to_dict(status) == {"auth": {"loginAccessKeyTTLSeconds": 0}, "disableConfigEndpoint": False,
                                      "projectNamespacePrefix": "p-", "costControl": COST_DEFAULTS}


def test_warnings_api() -> None:
    raw = "oidc: {enabled: true}\nworkspaceSubDomain: '*.workspace.example.com'\n"
    status, warnings = effective_config_with_warnings(raw)
    assert [w.split(":")[0] for w in warnings] == ["oidc", "workspaceSubDomain"]
    assert deprecation_warnings(raw) == warnings == deprecation_warnings(status)
    assert effective_config_with_warnings("")[1] == []


def test_status_is_a_config_status() -> None:
    assert isinstance(effective_config(""), ConfigStatus)
