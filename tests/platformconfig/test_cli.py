"""`syncpatch config validate|show`: diagnostics, exit codes, output formats, masking."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from syncpatch.cli import cli
from syncpatch.platformconfig import MASK

# The platform's documented initial cost settings; the dashboard is on by default.
COST_DEFAULTS = {"enabled": True, "settings": {
    "averageCPUPricePerNode": {"price": 31, "timePeriod": "Monthly"},
    "averageRAMPricePerNode": {"price": 31, "timePeriod": "Monthly"},
    "controlPlanePricePerCluster": {"price": 900, "timePeriod": "Yearly"}}}


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["config", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, text: str, name: str = "platform.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("example", ["minimal", "maximal", "config-object"])
def test_examples_validate(examples: Path, example: str) -> None:
    code, out, _ = run("validate", str(examples / f"{example}.yaml"))
    assert code == 0 and "valid" in out


def test_errors_are_file_line_column_path_message(tmp_path: Path) -> None:
    path = write(tmp_path, "auth:\n  connectors:\n    - id: gh\n      gitHostB:\n        clientId: x\n"
                           "audit: {enabled: true}\n")
    code, out, err = run("validate", path)
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert f"{path}:4:7: auth.connectors[0].gitHostB.clientSecret: is required" in lines
    assert f"{path}:4:7: auth.connectors[0].gitHostB.redirectURI: is required" in lines
    assert f"{path}:6:1: audit.path: is required when audit is enabled" in lines
    assert lines[-1] == f"{path}: 3 errors"


def test_bad_yaml_is_reported_not_raised(tmp_path: Path) -> None:
    code, _, err = run("validate", write(tmp_path, "auth: [\n"))
    assert code == 1 and "invalid YAML" in err and "Traceback" not in err


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("platformHost: caf\xe9\n".encode("latin-1"))
    code, _, err = run("validate", str(path))
    assert code == 1 and "not UTF-8" in err


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("validate")[0] == 2
    assert run("validate", str(tmp_path / "missing.yaml"))[0] == 2
    assert run("show", write(tmp_path, ""), "-o", "xml")[0] == 2


def test_stdin() -> None:
    code, out, _ = run("validate", "-", stdin="platformHost: a.example.com\n")
    assert code == 0 and "<stdin>: valid platform config" in out


def test_config_object_metadata_and_raw_errors_point_into_the_file(tmp_path: Path) -> None:
    text = ("apiVersion: management.platform.sh/v1\nkind: Config\nmetadata:\n  name: Bad_Name\n"
            "  finalizers: [a/b/c]\nspec:\n  raw: |\n    platformHost: a.example.com\n"
            "    secretStore:\n      syncInterval: often\n")
    path = write(tmp_path, text)
    code, _, err = run("validate", path)
    assert code == 1
    assert any(line.startswith(f"{path}:4:9: metadata.name: invalid DNS subdomain") for line in err.splitlines())
    assert any(line.startswith(f"{path}:5:16: metadata.finalizers[0]:") for line in err.splitlines())
    assert any(line.startswith(f"{path}:10:21: spec.raw:secretStore.syncInterval: invalid duration")
               for line in err.splitlines())


def test_warnings_for_deprecated_fields(tmp_path: Path) -> None:
    code, _, err = run("validate", write(tmp_path, "workspaceSubDomain: '*.workspace.example.com'\n"))
    assert code == 0 and "warning: workspaceSubDomain: deprecated" in err


def test_show_yaml_is_masked_config_object(examples: Path) -> None:
    code, out, _ = run("show", str(examples / "maximal.yaml"))
    assert code == 0
    obj = yaml.safe_load(out)
    assert (obj["apiVersion"], obj["kind"], obj["metadata"]) == ("management.platform.sh/v1", "Config", {"name": "platform"})
    assert obj["status"]["auth"]["oidc"]["clientSecret"] == MASK
    assert "oidc-client-secret" not in out and "db-password" not in out
    assert yaml.safe_load(obj["spec"]["raw"])["auth"]["oidc"]["clientSecret"] == MASK
    assert "  raw: |\n" in out  # literal block, readable


def test_show_json_reveal(examples: Path) -> None:
    code, out, _ = run("show", str(examples / "maximal.yaml"), "-o", "json", "--reveal")
    assert code == 0
    obj = json.loads(out)
    assert obj["status"]["auth"]["oidc"]["clientSecret"] == "oidc-client-secret"
    assert obj["spec"]["raw"] == (examples / "maximal.yaml").read_text()


def test_show_fills_defaults_and_name(tmp_path: Path) -> None:
    code, out, _ = run("show", write(tmp_path, "auth: {}\n"), "--name", "main", "-o", "json")
    obj = json.loads(out)
    assert obj["metadata"] == {"name": "main"}
    assert obj["status"] == {"auth": {"loginAccessKeyTTLSeconds": 1728000}, "projectNamespacePrefix": "p-",
                             "costControl": COST_DEFAULTS}


def test_show_config_object_replaces_status(examples: Path) -> None:
    code, out, _ = run("show", str(examples / "config-object.yaml"), "-o", "json")
    obj = json.loads(out)
    assert code == 0 and obj["metadata"]["finalizers"] == ["management.platform.sh/cleanup"]
    assert obj["status"]["audit"]["maxSize"] == 100
    assert obj["status"]["auth"]["connectors"][0]["oidc"]["clientSecret"] == MASK


def test_show_invalid_exits_1(tmp_path: Path) -> None:
    code, out, err = run("show", write(tmp_path, "audit: {enabled: true}\n"))
    assert code == 1 and out == "" and "audit.path" in err


def test_multiple_documents(tmp_path: Path) -> None:
    path = write(tmp_path, "platformHost: a.example.com\n---\nplatformHost: b.example.com\n")
    code, out, _ = run("show", path)
    docs = list(yaml.safe_load_all(out))
    assert code == 0 and [d["status"]["platformHost"] for d in docs] == ["a.example.com", "b.example.com"]
    code, out, _ = run("show", path, "-o", "json")
    assert json.loads(out)["kind"] == "List"


@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"], ["show", "--help"]])
def test_help_has_examples(args: list[str]) -> None:
    code, out, _ = run(*args)
    assert code == 0 and "Examples:" in out and "syncpatch config" in out


def test_installed_entry_point(examples: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "syncpatch", "config", "validate", str(examples / "minimal.yaml")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("command", [["config", "validate", "-"],
                                     ["apply", "--config", "{config}", "--resource", "endpoints", "-"]])
def test_binary_standard_input_is_not_utf8_text(command: list[str], tmp_path: Path) -> None:
    """Read from a real process's standard input under the C locale, whose text layer passes
    undecodable bytes on as surrogates: before, `config validate -` reported "character
    U+DCFF is not allowed" and `apply -` an internal UnicodeEncodeError."""
    import os

    config = tmp_path / "vcluster.yaml"
    config.write_text("sync:\n  toHost:\n    endpoints:\n      patches:\n"
                      "        - path: metadata.labels.app\n          expression: value\n")
    args = [a.replace("{config}", str(config)) for a in command]
    result = subprocess.run([sys.executable, "-m", "syncpatch", *args], input=b"kind: \xff\xfe\n",
                            capture_output=True, env={**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0"})
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode in (1, 2) and "<stdin>" in err and "not UTF-8 text" in err, err
    assert "internal error" not in err and "Traceback" not in err
