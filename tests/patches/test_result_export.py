"""Patch results are stored as vCluster stores them: goja's Export, then Go's encoding/json.

Each row runs on three path shapes (a plain key, a list wildcard, a terminal ``["key"]``
that creates its key), so the closure walkers, the generated plan code and the create path
all apply the rule; a second patch in the same plan keeps the plan on its fused code.
"""

from __future__ import annotations

from typing import Any

import pytest

import syncpatch
from syncpatch.runtime.plan import PatchError
from syncpatch.runtime.plan_export import export_result, go_time_text
from syncpatch.runtime.values import UNDEFINED

OBJECT = {"x": "q", "l": ["q", "r"], "m": {}, "n": "keep"}
PATHS = {"x": ("x",), "l[*]": ("l", 0), 'm["k"]': ("m", "k")}

EXPORTED = [
    ("new Date(0)", "1970-01-01T00:00:00Z"),
    ("new Date(1500)", "1970-01-01T00:00:01.5Z"),
    ("new Date(Date.UTC(2024, 1, 29, 23, 59, 58, 120))", "2024-02-29T23:59:58.12Z"),
    ('({at: new Date(86400000)})', {"at": "1970-01-02T00:00:00Z"}),
    ('new Map([["a", 1], [2, "b"]])', [["a", 1], [2, "b"]]),
    ("new Set([1, 2, 1])", [1, 2]),
    ("({get a() { return 1 }, b: 2})", {"a": 1, "b": 2}),
    ('Object.defineProperty({b: 2}, "hidden", {value: 1})', {"b": 2}),
    ('new String("s")', "s"),
    ("new Number(3)", 3),
    ("new Boolean(false)", False),
    ("({a: undefined, b: 1})", {"b": 1}),
    ("[undefined, , 1]", [None, None, 1]),
    ("Object.create({inherited: 1})", {}),
    ("({2: 'b', a: 'x', 1: 'a'})", {"1": "a", "2": "b", "a": "x"}),
    ("1.5", 1.5),
]


def run(path: str, script: str) -> Any:
    plan = syncpatch.compile_patches([
        {"path": path, "expression": script},
        {"path": "n", "expression": "value + '!'"},
    ])
    return plan.to_host(OBJECT, {})


def at(obj: Any, where: tuple[Any, ...]) -> Any:
    for step in where:
        obj = obj[step]
    return obj


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("script", "expected"), EXPORTED)
def test_results_are_exported_as_vcluster_stores_them(path: str, script: str, expected: Any) -> None:
    result = run(path, script)
    assert at(result, PATHS[path]) == expected
    assert result["n"] == "keep!"


FAILING = [
    ("NaN", "the result is NaN"),
    ("-1/0", "the result is -Infinity"),
    ("[1, 1/0]", "the result holds Infinity at [1]"),
    ("(() => 1)", "the result is a function"),
    ('Symbol("s")', "the result is a symbol"),
    ("({a: [1, {b: () => 1}]})", "the result holds a function (b) at a[1].b"),
    ("({toJSON() { return 5 }})", "the result holds a function (toJSON) at toJSON"),
    ("let o = {}; o.self = o; o", "a cycle"),
    ("new Date(-1e14)", "a Date in year -1199"),
    ('({"a.b": NaN})', 'the result holds NaN at ["a.b"]'),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("script", "message"), FAILING)
def test_a_result_json_cannot_hold_fails_the_patch_naming_patch_and_path(path: str, script: str, message: str) -> None:
    with pytest.raises(PatchError) as info:
        run(path, script)
    err = info.value
    assert (err.patch_index, err.path, err.js_name) == (0, path, "TypeError")
    assert message in err.message
    assert err.concrete_path == {"x": "x", "l[*]": "l.0", 'm["k"]': "m"}[path]


def test_an_invalid_date_deletes_the_field_as_a_null_result_does() -> None:
    assert "x" not in run("x", "new Date(NaN)")


def test_a_failed_export_leaves_the_input_untouched() -> None:
    before = {"x": "q", "l": ["q"], "m": {}, "n": "keep"}
    with pytest.raises(PatchError):
        syncpatch.compile_patches([{"path": "n", "expression": "value + '!'"},
                                   {"path": "x", "expression": "NaN"}]).to_host(before, {})
    assert before == {"x": "q", "l": ["q"], "m": {}, "n": "keep"}


def test_the_whole_object_result_is_exported_too() -> None:
    plan = syncpatch.compile_patches([{"path": "", "expression": "({when: new Date(0), v: value.x})"}])
    assert plan.to_host({"x": 1}, {}) == {"when": "1970-01-01T00:00:00Z", "v": 1}
    with pytest.raises(PatchError, match="NaN"):
        syncpatch.compile_patches([{"path": "", "expression": "({v: NaN})"}]).to_host({"x": 1}, {})


def test_a_native_tier_result_is_checked_as_well() -> None:
    expression = syncpatch.compile_expression("value * 2")
    assert expression.native  # the plan inlines or calls the native tier, never the general one
    plan = syncpatch.compile_patches([{"path": "a", "expression": "value * 2"}])
    assert plan.to_host({"a": 2}, {}) == {"a": 4}
    with pytest.raises(PatchError, match="the result is NaN"):
        plan.to_host({"a": "x"}, {})


def test_compile_expression_keeps_js_values_as_they_are() -> None:
    assert syncpatch.compile_expression("NaN")() != syncpatch.compile_expression("NaN")()  # a float NaN
    assert syncpatch.compile_expression("undefined")() is UNDEFINED


def test_go_time_text_trims_the_fraction_like_rfc3339nano() -> None:
    assert go_time_text(0.0) == "1970-01-01T00:00:00Z"
    assert go_time_text(10.0) == "1970-01-01T00:00:00.01Z"
    assert go_time_text(-1.0) == "1969-12-31T23:59:59.999Z"
    assert go_time_text(253402300799999.0) == "9999-12-31T23:59:59.999Z"


def test_plain_data_passes_unchanged() -> None:
    data = {"a": [1, "x", True, None, {"b": -0.5}]}
    assert export_result(data) == data
    assert export_result(2.0) == 2 and type(export_result(2.0)) is int


@pytest.mark.parametrize(("script", "printed"), [
    ("new Date(1500)", "1970-01-01T00:00:01.5Z"),
    ('new Map([["a", 1]])', [["a", 1]]),
    ("({get a() { return value }})", {"a": 2}),
    ("new Number(value)", 2),
])
def test_syncpatch_eval_prints_what_a_patch_would_store(script: str, printed: Any) -> None:
    import json

    from click.testing import CliRunner

    from syncpatch.cli import cli

    result = CliRunner().invoke(cli, ["eval", script, "--value", "2"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == printed


def test_syncpatch_eval_tells_an_export_failure_from_a_thrown_error() -> None:
    from click.testing import CliRunner

    from syncpatch.cli import cli

    failed = CliRunner().invoke(cli, ["eval", "[NaN]"], catch_exceptions=False)
    assert failed.exit_code == 1 and failed.stderr.startswith("error: the result holds NaN at [0]")
    thrown = CliRunner().invoke(cli, ["eval", 'throw new TypeError("x")'], catch_exceptions=False)
    assert thrown.exit_code == 1 and thrown.stderr.startswith("Uncaught TypeError: x")
