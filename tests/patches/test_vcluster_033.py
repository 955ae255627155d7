"""Real vCluster 0.33 inputs: the chart's values, vCluster's test values and the docs examples.

The data under tests/patches/data/vcluster-0.33.4/ are vCluster's own files (see the header of
each for where it comes from). Everything vCluster 0.33.4 accepts must validate with no error,
through the build step and through the Python API alike; a typo anywhere is an error at the
key's file:line:column with a "did you mean".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from syncpatch.patches import ConfigError, TenantConfig, compile_config
from syncpatch.patches.build import check_config_text

DATA = Path(__file__).parent / "data" / "vcluster-0.33.4"
CHART_VALUES = DATA / "chart-values.yaml"
COMMON_VALUES = DATA / "commonValues.yaml"
DOCS = yaml.safe_load((DATA / "docs-examples.yaml").read_text())


def errors(text: str, name: str = "vcluster.yaml") -> list[Any]:
    return [d for d in check_config_text(text, name).diagnostics if d.severity == "error"]


@pytest.mark.parametrize("path", [CHART_VALUES, COMMON_VALUES], ids=lambda p: p.name)
def test_vcluster_files_validate_with_no_error(path: Path) -> None:
    text = path.read_text()
    assert check_config_text(text, path.name).diagnostics == ()
    compiled = compile_config(yaml.safe_load(text))
    assert compiled.warnings == ()


def test_chart_values_fill_every_section_of_the_model() -> None:
    model = TenantConfig.model_validate(yaml.safe_load(CHART_VALUES.read_text()))
    dumped = model.model_dump(by_alias=True, exclude_none=True)
    for section in ("controlPlane", "privateNodes", "deploy", "integrations", "rbac", "networking",
                    "policies", "exportKubeConfig", "experimental", "telemetry", "logging"):
        assert dumped[section], section
    assert dumped["controlPlane"]["statefulSet"]["highAvailability"]["replicas"] == 1


def test_common_values_keep_vclusters_spelling() -> None:
    model = TenantConfig.model_validate(yaml.safe_load(COMMON_VALUES.read_text()))
    assert model.sync.to_host.pods.use_secrets_for_sa_tokens is True
    assert model.sync.from_host.nodes.selector.labels == {"kubernetes.io/hostname": "kind-control-plane"}


ACCEPTED = [d for d in DOCS if "refused" not in d]
REFUSED = [d for d in DOCS if "refused" in d]


def _id(doc: dict[str, Any]) -> str:
    return f"{doc['source']}:{doc['line']}"


def test_docs_examples_are_mostly_valid() -> None:
    assert len(DOCS) == 296 and len(ACCEPTED) == 271


@pytest.mark.parametrize("doc", ACCEPTED, ids=_id)
def test_docs_example_validates(doc: dict[str, Any]) -> None:
    assert errors(doc["vcluster"], _id(doc)) == []
    compile_config(yaml.safe_load(doc["vcluster"]))


@pytest.mark.parametrize("doc", REFUSED, ids=_id)
def test_docs_example_that_vcluster_033_refuses_is_refused_with_its_reason(doc: dict[str, Any]) -> None:
    found = sorted({d.code + ": " + d.message.split(":")[0] for d in errors(doc["vcluster"], _id(doc))})
    assert found == doc["refused"]
    with pytest.raises(ConfigError):
        compile_config(yaml.safe_load(doc["vcluster"]))


def _first_key_paths(data: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """One nested key path (deepest mapping key) per top-level section of the chart values."""
    out = []
    for key, value in data.items():
        path = prefix + (key,)
        while isinstance(value, dict) and value:
            inner = next(iter(value))
            path, value = path + (inner,), value[inner]
        out.append(path)
    return out


def _line_of(text: str, path: tuple[str, ...]) -> tuple[int, int]:
    """Line and column of the key at ``path`` in block-style YAML (a simple indentation walk)."""
    lines = text.splitlines()
    start, indent = 0, -1
    for key in path:
        for number in range(start, len(lines)):
            stripped = lines[number].lstrip(" ")
            here = len(lines[number]) - len(stripped)
            if (here == 0 if indent < 0 else here > indent) and stripped.startswith(key + ":"):
                start, indent = number + 1, here
                break
        else:
            raise AssertionError(path)
    return start, indent + 1


def _swap(word: str) -> str:
    return word[0] + word[2] + word[1] + word[3:] if len(word) > 3 else word + "x"


@pytest.mark.parametrize("path", _first_key_paths(yaml.safe_load(CHART_VALUES.read_text())), ids=".".join)
def test_a_typo_anywhere_is_located_with_did_you_mean(path: tuple[str, ...]) -> None:
    text = CHART_VALUES.read_text()
    line, column = _line_of(text, path)
    lines = text.splitlines()
    target = path[-1]
    lines[line - 1] = lines[line - 1].replace(target + ":", _swap(target) + ":", 1)
    (diag,) = errors("\n".join(lines) + "\n", "values.yaml")
    assert (diag.file, diag.line, diag.column, diag.code) == ("values.yaml", line, column, "unknown-field")
    assert f"unknown field `{_swap(target)}`" in diag.message
    assert diag.hint == f"did you mean `{target}`?"


NEW_IN_033 = """\
sync:
  toHost:
    endpointSlices:
      enabled: true
      patches:
        - path: metadata.annotations["team"]
          expression: '"platform"'
    resourceClaims:
      enabled: true
    resourceClaimTemplates:
      enabled: true
    pods:
      useSecretsForSATokens: true
  fromHost:
    deviceClasses:
      enabled: true
      selector:
        matchLabels:
          gpu: "true"
    ingressClasses:
      enabled: true
      selector:
        matchExpressions:
          - key: team
            operator: In
            values: [a, b]
    runtimeClasses:
      enabled: true
      selector: {matchLabels: {a: b}}
    priorityClasses:
      enabled: true
      selector: {matchLabels: {a: b}}
    storageClasses:
      enabled: auto
      selector: {matchLabels: {a: b}}
"""


def test_the_sync_resources_of_033_exist() -> None:
    assert errors(NEW_IN_033) == []
    compiled = compile_config(yaml.safe_load(NEW_IN_033))
    assert compiled.enabled[("toHost", "resourceClaims")] is True
    assert compiled.enabled[("fromHost", "deviceClasses")] is True
    obj = {"metadata": {"name": "s", "annotations": {}}}
    assert compiled.plan("toHost", "endpointSlices").to_host(obj, {})["metadata"]["annotations"] == {"team": "platform"}


def test_an_alias_generators_guess_is_not_vclusters_key() -> None:
    (diag,) = errors("sync:\n  toHost:\n    pods:\n      useSecretsForSaTokens: true\n")
    assert (diag.line, diag.column, diag.code) == (4, 7, "unknown-field")
    assert diag.hint == "did you mean `useSecretsForSATokens`?"


def test_a_misplaced_selector_key_says_where_it_belongs() -> None:
    (diag,) = errors("sync:\n  fromHost:\n    deviceClasses:\n      selectr: {}\n")
    assert "in `sync.fromHost.deviceClasses`" in diag.message and diag.hint == "did you mean `selector`?"


def test_context_config_is_the_file_merged_over_the_chart_defaults() -> None:
    compiled = compile_config({"controlPlane": {"statefulSet": {"highAvailability": {"replicas": 3}}},
                               "sync": {"toHost": {"ingresses": {"enabled": True}}}})
    config = compiled.context("vc", "vcluster-vc")["vcluster"]["config"]
    chart = yaml.safe_load(CHART_VALUES.read_text())
    assert config["controlPlane"]["statefulSet"]["highAvailability"]["replicas"] == 3
    assert config["controlPlane"]["distro"] == chart["controlPlane"]["distro"]  # untouched defaults kept
    assert config["sync"]["toHost"]["ingresses"]["enabled"] is True
    assert config["sync"]["toHost"]["pods"] == chart["sync"]["toHost"]["pods"]
    from syncpatch.patches.chart_defaults import merge_values
    assert merge_values({"a": {"b": 1, "c": 2}, "l": [1]}, {"a": {"b": None}, "l": [2]}) == {"a": {"c": 2}, "l": [2]}
    assert config["telemetry"] == chart["telemetry"]
