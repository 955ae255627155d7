"""Every field the seed lists is modelled in its place, and round-trips through the model.

The seed (copied next to this file) is parsed table by table; each table is mapped to the
model that holds its fields, and a table nobody mapped fails the test, so a field cannot be
forgotten. Fields the seed lists in prose (notes columns) are enumerated by hand below.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

from syncpatch.platformconfig import (Config, ConfigStatus, ManagedFieldsEntry, ObjectMeta,
                                      OwnerReference, effective_config, status_to_dict)
from syncpatch.platformconfig import auth, sections

SEED = Path(__file__).with_name("seed_config_resource.md")

TABLE_MODELS: dict[str, type[BaseModel] | None] = {
    "### Config": Config,
    "### metadata": ObjectMeta,
    "ownerReferences entry:": OwnerReference,
    "managedFields entry:": ManagedFieldsEntry,
    "Sections of `status`:": ConfigStatus,
    "### status.auth": auth.Auth,
    "#### OIDC provider shape": auth.OIDCProvider,
    "#### Git-forge shape A (gitHostA)": auth.GitHostA,
    "#### Git-forge shape B (gitHostB)": auth.GitHostB,
    "#### Public identity provider shape (idpA)": auth.IdpA,
    "#### Enterprise directory identity provider shape (idpB)": auth.IdpB,
    "#### SAML shape": auth.SAML,
    "### status.apps": sections.Apps,
    "### status.audit": sections.Audit,
    "Policy rule fields (all lists; an empty list means no restriction):": sections.AuditRule,
    "### status.uiSettings": sections.UISettings,
    "### status.secretStore": sections.SecretStore,
    "### status.cloud": sections.Cloud,
    "### status.costControl": sections.CostControl,
    "### status.imageBuilder": sections.ImageBuilder,
    "### status.database": sections.Database,
    # tables that list no fields
    "The resource `config.management.platform.sh` is retrieved by two read operations, "
    "performed with the orchestration command-line client using the get subcommand with "
    "YAML output:": None,
    "## Errors": None,
    "## Limits": None,
}

# Fields the seed describes in prose: (model, wire field names).
PROSE_FIELDS: list[tuple[type[BaseModel], tuple[str, ...]]] = [
    (sections.PlatformDB, ("storageClass",)),
    (auth.PasswordAuth, ("disabled",)),
    (auth.Connector, ("id", "displayName", "oidc", "gitHostA", "gitHostB", "idpA", "idpB", "saml")),
    (auth.OIDCServer, ("enabled", "wildcardRedirect", "clients")),
    (auth.OIDCClient, ("name", "clientId", "clientSecret", "redirectURIs")),
    (auth.GitHostOrg, ("name", "teams")),
    (sections.AppRepository, ("name", "url", "username", "password", "insecure")),
    (sections.PredefinedApp, ("chart", "initialVersion", "initialValues", "clusters", "title",
                              "iconUrl", "readmeUrl")),
    (sections.AuditPolicy, ("rules", "omitStages")),
    (sections.GroupResources, ("group", "resources", "resourceNames")),
    (sections.NavBarButton, ("position", "text", "link", "icon")),
    (sections.ExternalURLs, ("block", "allow")),
    (sections.SecretStoreAuth, ("token", "tokenSecretRef")),
    (sections.SecretRef, ("name", "key", "optional")),
    (sections.MaintenanceWindow, ("dayOfWeek", "timeWindow")),
    (sections.CostControlGlobal, ("metrics",)),
    (sections.CostControlCluster, ("metrics", "costExporter")),
    (sections.Metrics, ("replicas", "resources", "retention", "storage")),
    (sections.MetricsStorage, ("storageClass", "size")),
    (sections.CostExporter, ("replicas", "resources")),
    (sections.CostSettings, ("priceCurrency", "averageCPUPricePerNode", "averageRAMPricePerNode",
                             "controlPlanePricePerCluster", "gpuSettings")),
    (sections.Price, ("price", "timePeriod")),
    (sections.GPUSettings, ("enabled", "averageGPUPrice")),
    (sections.Resources, ("limits", "requests", "claims")),
    (sections.ResourceClaim, ("name", "request")),
]

# `global.metrics` etc. name nested fields; their leaves are covered by PROSE_FIELDS.
NESTED_ROWS = {"global.metrics": "global", "cluster.metrics": "cluster", "cluster.costExporter": "cluster"}


def seed_tables() -> list[tuple[str, list[str]]]:
    """(label, first-column cells) of every table in the seed; label = the line above it."""
    tables: list[tuple[str, list[str]]] = []
    label, rows, in_table = "", [], False
    for line in SEED.read_text().splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not in_table:
                in_table, rows = True, []
            elif not set(cells[0]) <= {"-", ":"}:
                rows.append(cells[0])
            continue
        if in_table:
            tables.append((label, rows))
            in_table = False
        if line.strip():
            label = line.strip()
    if in_table:
        tables.append((label, rows))
    return tables


def wire_names(model: type[BaseModel]) -> set[str]:
    return {info.alias or name for name, info in model.model_fields.items()}


def test_seed_has_the_expected_tables() -> None:
    labels = [label for label, _ in seed_tables()]
    assert sorted(labels) == sorted(TABLE_MODELS), "a seed table is not mapped to a model"


@pytest.mark.parametrize(("label", "rows"), [t for t in seed_tables() if TABLE_MODELS[t[0]]],
                         ids=lambda v: v if isinstance(v, str) else None)
def test_every_table_field_is_modelled(label: str, rows: list[str]) -> None:
    model = TABLE_MODELS[label]
    assert model is not None
    names = wire_names(model)
    for cell in rows:
        for field in (f.strip().strip("`") for f in cell.split(",")):
            field = NESTED_ROWS.get(field, field)
            assert field in names, f"{label}: seed field {field!r} missing from {model.__name__}"


@pytest.mark.parametrize(("model", "fields"), PROSE_FIELDS, ids=lambda v: getattr(v, "__name__", None))
def test_every_prose_field_is_modelled(model: type[BaseModel], fields: tuple[str, ...]) -> None:
    assert set(fields) <= wire_names(model)
    assert wire_names(model) <= set(fields) | {"claims"}  # nothing invented beyond the seed


def test_status_sections_are_direct_children_of_status() -> None:
    assert {"costControl", "platformDB", "imageBuilder", "database", "cloud"} <= wire_names(ConfigStatus)
    assert wire_names(sections.Cloud) == {"releaseChannel", "maintenanceWindow"}


def model_paths(model: type[BaseModel], prefix: str = "") -> set[str]:
    """Every wire path of a model; list items as `[*]`, free-form maps as leaves."""
    paths: set[str] = set()
    for name, info in model.model_fields.items():
        path = f"{prefix}{info.alias or name}"
        paths.add(path)
        for inner in _models_in(info.annotation):
            listy = "list[" in str(info.annotation)
            paths |= model_paths(inner, f"{path}{'[*]' if listy else ''}.")
    return paths


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    args = getattr(annotation, "__args__", ())
    found = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
    for arg in args:
        found += _models_in(arg)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        found.append(annotation)
    return found


def data_paths(data: Any, prefix: str = "") -> set[str]:
    paths: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            path = f"{prefix}{key}"
            paths.add(path)
            if isinstance(value, list) and value and isinstance(value[0], dict):
                for item in value:
                    paths |= data_paths(item, f"{path}[*].")
            elif isinstance(value, dict):
                paths |= data_paths(value, f"{path}.")
    return paths


FREE_FORM = ("customHttpHeaders.", "limits.", "requests.")


def test_maximal_example_sets_every_status_field(examples: Path) -> None:
    data = yaml.safe_load((examples / "maximal.yaml").read_text())
    found = {p for p in data_paths(data) if not any(f in p for f in FREE_FORM) and not _inside_connector_shape(p)}
    expected = {p for p in model_paths(ConfigStatus) if not _inside_connector_shape(p)}
    # audit level and policy are mutually exclusive; the example uses policy
    assert found == expected - {"audit.level"}


def test_audit_level_round_trips_without_policy() -> None:
    raw = "audit:\n  enabled: true\n  path: /var/log/audit\n  level: 2\n  maxSize: 100\n"
    assert status_to_dict(effective_config(raw))["audit"] == yaml.safe_load(raw)["audit"]


def _inside_connector_shape(path: str) -> bool:
    """Connector shapes are the same models as `auth.<shape>`, which the example fills."""
    return re.match(r"auth\.connectors\[\*\]\.\w+\.", path) is not None


def test_every_status_field_round_trips(examples: Path) -> None:
    data = yaml.safe_load((examples / "maximal.yaml").read_text())
    assert status_to_dict(effective_config((examples / "maximal.yaml").read_text())) == data
    assert status_to_dict(ConfigStatus.model_validate(data, by_alias=True, by_name=False)) == data


def full_object() -> dict[str, Any]:
    return {
        "apiVersion": "management.platform.sh/v1",
        "kind": "Config",
        "metadata": {
            "name": "platform", "generateName": "platform-", "namespace": "default",
            "selfLink": "/apis/x", "uid": "8d6c3f2e-1b1a-4a59-9d3c-2a5f4e9c1d00",
            "resourceVersion": "42", "generation": 3,
            "creationTimestamp": "2024-05-01T12:00:00Z", "deletionTimestamp": "2024-05-02T12:00:00Z",
            "deletionGracePeriodSeconds": 30, "labels": {"app": "platform"},
            "annotations": {"example.com/note": "x"},
            "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "owner",
                                 "uid": "u-1", "controller": True, "blockOwnerDeletion": False}],
            "finalizers": ["example.com/cleanup"],
            "managedFields": [{"manager": "kubectl", "operation": "Apply",
                               "apiVersion": "management.platform.sh/v1",
                               "time": "2024-05-01T12:00:00Z", "fieldsType": "FieldsV1",
                               "fieldsV1": {"f:spec": {"f:raw": {}}}, "subresource": ""}],
        },
        "spec": {"raw": "platformHost: platform.example.com\n"},
        "status": {"platformHost": "platform.example.com", "projectNamespacePrefix": "p-"},
    }


def test_object_and_metadata_round_trip() -> None:
    obj = full_object()
    config = Config.model_validate(obj, by_alias=True, by_name=False)
    assert config.model_dump(mode="json", by_alias=True, exclude_none=True) == obj
    metadata_paths = {p for p in data_paths(obj["metadata"]) if not p.startswith(
        ("labels.", "annotations.", "managedFields[*].fieldsV1."))}
    assert metadata_paths == model_paths(ObjectMeta)


def test_seed_field_names_use_exact_wire_spelling() -> None:
    """Irregular capitalisation in the seed is kept exactly (no generic camelCase)."""
    spellings = re.findall(r"\b(redirectURI|ssoURL|caData|nameIDPolicyFormat|skipTLSVerify|"
                           r"dataStoreTTL|accessKeyMaxTTLSeconds|averageCPUPricePerNode|"
                           r"averageGPUPrice|platformDB|logoURL|baseURL|rootCA|issuerUrl)\b",
                           SEED.read_text())
    every = model_paths(Config) | model_paths(ConfigStatus)
    leaves = {p.rsplit(".", 1)[-1].removesuffix("[*]") for p in every}
    assert set(spellings) <= leaves
