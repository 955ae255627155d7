"""Fuzzing the path parser and the tenant config loader.

* ``parse_path`` on arbitrary text returns segments or raises ``PathError`` (a ``ValueError``
  naming a column) — nothing else; a parsed path re-prints (``format_segments``) to text that
  parses to the same segments.
* The config loader, from arbitrary YAML text (``check_config_text``: never raises, problems
  become located diagnostics) and from arbitrary JSON-like data shaped more or less like a
  tenant config (``compile_config``: raises only ``ConfigError``, each issue with a location).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syncpatch.patches import ConfigError, compile_config
from syncpatch.patches.build import check_config_text
from syncpatch.runtime.paths import PathError, format_segments, parse_path

from .fuzz_grammar import json_values
from .fuzz_support import save_crasher

QUICK = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
CONFIG_QUICK = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
LONG = settings(max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck), database=None)

PATH_ALPHABET = st.sampled_from(list("ab.[]*\"'\\0123 -_/") + ["é", "😀", "\x00", "\n"])
path_texts = st.one_of(
    st.text(PATH_ALPHABET, max_size=20),
    st.text(max_size=12),
    st.lists(st.sampled_from(["spec", ".", "[", "]", "*", "0", "12", '"k.e[y]"', '"', "\\", "'q'", "ports", "..",
                              "[*]", "[3]", '["a"]', "[-1]", "[01]", "[ 1 ]"]), max_size=8).map("".join),
)


def check_path(text: str) -> None:
    try:
        segments = parse_path(text)
    except PathError as exc:
        assert isinstance(exc, ValueError)
        assert str(exc), "a PathError says what is wrong"
        return
    except BaseException as exc:  # noqa: BLE001
        save_crasher("path", {"property": "path-errors", "input": text, "got": f"{type(exc).__name__}: {exc}"})
        raise AssertionError(f"parse_path({text!r}) raised {type(exc).__name__}: {exc}") from None
    assert isinstance(segments, tuple)
    printed = format_segments(segments)
    try:
        again = parse_path(printed)
    except BaseException as exc:  # noqa: BLE001
        save_crasher("path", {"property": "path-reprint", "input": text, "printed": printed,
                              "got": f"{type(exc).__name__}: {exc}"})
        raise AssertionError(f"{text!r} re-printed as {printed!r}, which does not parse: {exc}") from None
    if again != segments:
        save_crasher("path", {"property": "path-reprint", "input": text, "printed": printed})
    assert again == segments, f"{text!r} -> {printed!r} -> {again!r} != {segments!r}"


@QUICK
@given(text=path_texts)
def test_parse_path_fails_only_with_path_error(text: str) -> None:
    check_path(text)


# -- config ------------------------------------------------------------------------------------

RESOURCES_TO_HOST = ["pods", "secrets", "configMaps", "endpoints", "services", "ingresses", "serviceAccounts",
                     "persistentVolumeClaims", "customResources", "bogusKind"]
RESOURCES_FROM_HOST = ["nodes", "events", "storageClasses", "ingressClasses", "csiDrivers", "bogusKind"]
EXPRESSIONS = ['"host-" + value', "value.slice(1)", "value ? value.toUpperCase() : value", "((", "null",
               "context.vcluster.name", "value.__class__", "eval('1')", "while (true) {}", "`${value}`", 123, None,
               ["x"], {"a": 1}, "", "'single'"]
PATHS = ["metadata.labels", "spec.ports[*].name", 'metadata.annotations["a.b/c"]', "metadata.name",
         "a[", "['x']", "", ".", "spec.containers[0].image", 5, None, ["p"]]


@st.composite
def patch_entries(draw: Any) -> Any:
    entry: dict[str, Any] = {}
    for key, values in (("path", PATHS), ("expression", EXPRESSIONS), ("reverseExpression", EXPRESSIONS)):
        if draw(st.integers(0, 3)):
            entry[key] = draw(st.sampled_from(values))
    if not draw(st.integers(0, 5)):
        entry["reference"] = draw(st.one_of(st.just({"kind": "Secret", "apiVersion": "v1"}),
                                            st.dictionaries(st.text(max_size=8), json_values, max_size=2)))
    if not draw(st.integers(0, 6)):
        entry["labels"] = draw(st.sampled_from([{}, {"x": 1}, None, []]))
    if not draw(st.integers(0, 8)):
        entry[draw(st.text(max_size=6))] = draw(json_values)
    return entry if draw(st.integers(0, 10)) else draw(json_values)


@st.composite
def tenant_configs(draw: Any) -> Any:
    def side(names: list[str]) -> Any:
        out = {}
        for name in draw(st.lists(st.sampled_from(names), max_size=3, unique=True)):
            res: dict[str, Any] = {}
            if draw(st.booleans()):
                res["enabled"] = draw(st.sampled_from([True, False, "auto", "yes", None, 1]))
            if draw(st.integers(0, 3)):
                res["patches"] = draw(st.one_of(st.lists(patch_entries(), max_size=3), json_values))
            out[name] = res if draw(st.integers(0, 8)) else draw(json_values)
        return out

    sync: dict[str, Any] = {}
    if draw(st.integers(0, 4)):
        sync["toHost"] = side(RESOURCES_TO_HOST)
    if draw(st.booleans()):
        sync["fromHost"] = side(RESOURCES_FROM_HOST)
    if not draw(st.integers(0, 6)):
        sync[draw(st.text(max_size=6))] = draw(json_values)
    config: dict[str, Any] = {"sync": sync if draw(st.integers(0, 8)) else draw(json_values)}
    if not draw(st.integers(0, 4)):
        config["controlPlane"] = draw(json_values)
    return config if draw(st.integers(0, 12)) else draw(json_values)


def check_config_data(data: Any) -> None:
    try:
        compile_config(data)
    except ConfigError as exc:
        assert exc.issues, "a ConfigError carries its issues"
        for issue in exc.issues:
            assert str(issue)
        return
    except BaseException as exc:  # noqa: BLE001
        save_crasher("config", {"property": "config-errors", "input": data, "got": f"{type(exc).__name__}: {exc}"})
        raise AssertionError(f"compile_config raised {type(exc).__name__}: {exc}") from None


def check_config_yaml(text: str) -> None:
    try:
        report = check_config_text(text, "fuzz.yaml")
    except BaseException as exc:  # noqa: BLE001
        save_crasher("config", {"property": "yaml-diagnostics", "input": text,
                                "got": f"{type(exc).__name__}: {exc}"})
        raise AssertionError(f"check_config_text raised {type(exc).__name__}: {exc}") from None
    for diag in report.diagnostics:
        assert diag.line >= 1 and diag.column >= 1, diag


@CONFIG_QUICK
@given(data=tenant_configs())
def test_compile_config_fails_only_with_config_error(data: Any) -> None:
    check_config_data(data)


@CONFIG_QUICK
@given(data=tenant_configs(), style=st.sampled_from(["block", "flow", "json"]))
def test_config_yaml_text_gives_diagnostics_never_exceptions(data: Any, style: str) -> None:
    if style == "json":
        text = json.dumps(data)
    else:
        text = yaml.safe_dump(data, default_flow_style=(style == "flow"), allow_unicode=True)
    check_config_yaml(text)


YAML_JUNK = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(["sync:", "\n", "  ", "toHost:", "- ", "path: ", "expression: ", "'", '"', "{", "}",
                              "[", "]", ":", "&a", "*a", "!!python/object:os.system", "<<: *a", "---", "...",
                              "#", "\t", "|", ">", "? ", "%YAML 1.2", "!!binary", "\x00", "\ufeff", "patches:",
                              "enabled: true", "value", "endpoints:"]), max_size=25).map("".join),
)


@CONFIG_QUICK
@given(text=YAML_JUNK)
def test_arbitrary_yaml_text_gives_diagnostics_never_exceptions(text: str) -> None:
    check_config_yaml(text)


def test_yaml_bombs_are_refused_or_bounded() -> None:
    """Alias expansion ("billion laughs") and python tags never run or explode."""
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(8))
    check_config_yaml("sync:\n  toHost:\n" + "".join("    " + line + "\n" for line in laughs.splitlines()))
    check_config_yaml("sync: !!python/object/apply:os.system ['echo pwned']\n")
    check_config_yaml("sync:\n  toHost:\n    endpoints:\n      patches:\n        - path: a\n"
                      "          expression: !!python/name:os.system\n")


@pytest.mark.fuzz_long
@pytest.mark.timeout(3600)
@LONG
@given(text=path_texts)
def test_long_parse_path(text: str) -> None:
    check_path(text)


@pytest.mark.fuzz_long
@pytest.mark.timeout(3600)
@LONG
@given(data=tenant_configs())
def test_long_compile_config(data: Any) -> None:
    check_config_data(data)


@pytest.mark.fuzz_long
@pytest.mark.timeout(3600)
@LONG
@given(text=YAML_JUNK)
def test_long_yaml_text(text: str) -> None:
    check_config_yaml(text)
