"""Masking covers every secret-bearing field, in status and in spec.raw, and nothing else."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from syncpatch.platformconfig import MASK, effective_config, mask_raw, mask_secrets, mask_status, status_to_dict

SHAPES = ["oidc", "gitHostA", "gitHostB", "idpA", "idpB"]


def get(data: Any, path: str) -> Any:
    for part in path.replace("[", ".").replace("]", "").split("."):
        data = data[int(part)] if part.isdigit() else data[part]
    return data


def secret_paths() -> list[str]:
    paths = [f"auth.{s}.clientSecret" for s in SHAPES]
    paths += ["auth.saml.caData", "oidc.clients[0].clientSecret", "apps.repositories[0].password",
              "secretStore.auth.token"]
    # connectors in maximal.yaml: 0 oidc, 1 gitHostB, 2 gitHostA, 3 idpA, 4 idpB, 5 saml
    for index, shape in enumerate(["oidc", "gitHostB", "gitHostA", "idpA", "idpB"]):
        paths.append(f"auth.connectors[{index}].{shape}.clientSecret")
    paths.append("auth.connectors[5].saml.caData")
    return paths


@pytest.fixture
def maximal(examples: Path) -> dict[str, Any]:
    raw = (examples / "maximal.yaml").read_text()
    return {"apiVersion": "management.platform.sh/v1", "kind": "Config", "metadata": {"name": "platform"},
            "spec": {"raw": raw}, "status": status_to_dict(effective_config(raw))}


@pytest.mark.parametrize("path", secret_paths())
def test_each_secret_is_masked_in_status_and_raw(maximal: dict[str, Any], path: str) -> None:
    masked = mask_secrets(maximal)
    assert get(maximal["status"], path) not in ("", MASK)
    assert get(masked["status"], path) == MASK
    raw = yaml.safe_load(masked["spec"]["raw"])
    assert get(raw, path) == MASK
    assert str(get(maximal["status"], path)) not in masked["spec"]["raw"]


def test_data_source_password_only(maximal: dict[str, Any]) -> None:
    masked = mask_secrets(maximal)
    expected = f"postgres://platform:{MASK}@db.example.com:5432/platform?sslmode=require"
    assert masked["status"]["database"]["dataSource"] == expected
    assert yaml.safe_load(masked["spec"]["raw"])["database"]["dataSource"] == expected
    assert "db-password" not in str(masked)


def test_nothing_else_changes(maximal: dict[str, Any]) -> None:
    masked = mask_secrets(maximal)
    status = copy.deepcopy(maximal["status"])
    for path in [*secret_paths(), "database.dataSource"]:
        parent, _, leaf = path.rpartition(".")
        get(status, parent)[leaf] = get(masked["status"], path)
    assert masked["status"] == status
    assert masked["metadata"] == maximal["metadata"]
    assert get(masked["status"], "secretStore.auth.tokenSecretRef") == {"name": "vault-token", "key": "token",
                                                                        "optional": True}
    assert masked["status"]["auth"]["password"] == {"disabled": True}  # not a secret despite its name


def test_mask_is_a_deep_copy(maximal: dict[str, Any]) -> None:
    before = copy.deepcopy(maximal)
    mask_secrets(maximal)
    assert maximal == before


def test_raw_keeps_key_order(examples: Path) -> None:
    raw = (examples / "maximal.yaml").read_text()
    original, masked = yaml.safe_load(raw), yaml.safe_load(mask_raw(raw))

    def keys(node: Any) -> list[Any]:
        if isinstance(node, dict):
            return [(k, keys(v)) for k, v in node.items()]
        if isinstance(node, list):
            return [keys(v) for v in node]
        return []

    assert keys(masked) == keys(original)


def test_raw_without_secrets_or_comments_is_returned_verbatim() -> None:
    raw = "platformHost: a.example.com\nprojectNamespacePrefix:   p-\n"
    assert mask_raw(raw) == raw


def test_comments_are_dropped_because_they_may_hold_secrets() -> None:
    raw = "# admin password is hunter2\nplatformHost: a.example.com  # token abc123\n"
    masked = mask_raw(raw)
    assert "hunter2" not in masked and "abc123" not in masked
    assert "platformHost: a.example.com" in masked


def test_credentials_in_urls_and_dsn_parameters_are_masked() -> None:
    raw = ("database:\n  enabled: true\n  dataSource: postgres://u@db:5432/x?sslmode=require&password=pw1\n"
           "apps:\n  repositories:\n  - url: https://bob:tok2@git.example.com/r.git\n"
           "secretStore:\n  address: https://ops:tok3@vault.example.com\n")
    masked = mask_raw(raw)
    for secret in ("pw1", "tok2", "tok3"):
        assert secret not in masked
    assert "password=********" in masked and "bob:********@git.example.com" in masked
    assert mask_status({"x": "host=db password=pw4 user=u"}) == {"x": "host=db password=******** user=u"}


def test_empty_secrets_stay_empty() -> None:
    assert mask_status({"auth": {"oidc": {"clientSecret": ""}}}) == {"auth": {"oidc": {"clientSecret": ""}}}


def test_unparseable_raw_is_masked_entirely() -> None:
    assert mask_raw("auth: {oidc: {clientSecret: leaked") == MASK


@pytest.mark.parametrize(("source", "expected"), [
    ("mysql://root:p@ss@db:3306/kine", f"mysql://root:{MASK}@db:3306/kine"),
    ("postgres://user@db:5432/x", "postgres://user@db:5432/x"),
    ("root:pw@tcp(db:3306)/kine", f"root:{MASK}@tcp(db:3306)/kine"),
])
def test_data_source_forms(source: str, expected: str) -> None:
    assert mask_status({"database": {"dataSource": source}})["database"]["dataSource"] == expected


def test_objects_without_status_or_raw() -> None:
    assert mask_secrets({"metadata": {"name": "x"}}) == {"metadata": {"name": "x"}}
