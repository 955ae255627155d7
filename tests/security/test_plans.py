"""Hostile expressions inside patch plans (``compile_patches`` -> ``to_host``/``from_host``).

A plan applies copy-on-write: the caller's object and context are never mutated, a failing
patch surfaces as ``PatchError`` naming the JS error (no Python internals in its text), a
budget stops a runaway patch, and pollution by one patch is invisible to the next one and to
the next application.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from .sec_harness import assert_no_leak

import syncpatch  # noqa: E402

OBJ = {"metadata": {"name": "web", "labels": {"app": "x"}, "annotations": {"a": "1"}},
       "spec": {"ports": [{"name": "http", "port": 80}, {"name": "dns", "port": 53}]}}
CTX = {"vcluster": {"name": "vc", "namespace": "ns", "config": {}}, "hostObject": None,
       "virtualObject": {"metadata": {"labels": {"k": "v"}}}}

FAILING = [
    ("null.y", "TypeError"),
    ("value.__class__.__mro__", "TypeError"),
    ("({}).constructor.constructor('return process')()", "ReferenceError"),
    ("require('fs')", "ReferenceError"),
    ("throw new RangeError('boom')", "RangeError"),
]


@pytest.mark.parametrize(("expression", "js_name"), FAILING)
def test_failing_patch_is_a_clean_patch_error(expression: str, js_name: str) -> None:
    plan = syncpatch.compile_patches([{"path": "spec.ports[*].name", "expression": expression}])
    obj, ctx = copy.deepcopy(OBJ), copy.deepcopy(CTX)
    with pytest.raises(syncpatch.PatchError) as info:
        plan.to_host(obj, ctx)
    assert info.value.js_name == js_name
    assert_no_leak(str(info.value))
    assert obj == OBJ and ctx == CTX


@pytest.mark.parametrize("expression", [
    "value.toUpperCase()",
    "context.virtualObject.metadata.labels.k = 'evil'; value",
    "Object.prototype.evil = 1; Array.prototype.push = null; value + ({}).evil",
    "Object.freeze(Object.prototype); value",
])
def test_plan_never_mutates_inputs_and_pollution_stays_inside(expression: str) -> None:
    plan = syncpatch.compile_patches([
        {"path": "spec.ports[*].name", "expression": expression},
        {"path": 'metadata.annotations["probe"]', "expression": "String([({}).evil, typeof [].push, "
                                                               "Object.isFrozen(Object.prototype)])"},
    ])
    obj, ctx = copy.deepcopy(OBJ), copy.deepcopy(CTX)
    out: Any = plan.to_host(obj, ctx)
    assert obj == OBJ and ctx == CTX
    assert out["metadata"]["annotations"]["probe"] == ",function,false"
    again: Any = plan.to_host(copy.deepcopy(OBJ), copy.deepcopy(CTX))
    assert again == out


def test_runaway_patch_is_stopped_by_a_budget() -> None:
    plan = syncpatch.compile_patches([{"path": "metadata.labels.app", "expression": "while (true) {} value"}])
    obj = copy.deepcopy(OBJ)
    with pytest.raises(syncpatch.PatchError) as info:
        plan.to_host(obj, copy.deepcopy(CTX))
    assert info.value.js_name in ("LimitExceeded", "RangeError")
    assert obj == OBJ
    assert_no_leak(str(info.value))


def test_per_plan_budgets() -> None:
    """A plan's budgets come from its compiler: a tight step budget stops a loop at once."""
    tight = syncpatch.Budgets(steps=1_000)
    plan = syncpatch.compile_patches(
        [{"path": "metadata.labels.app", "expression": "while (true) {} value"}],
        compiler=lambda src: syncpatch.compile_expression(src, budgets=tight))
    with pytest.raises(syncpatch.PatchError) as info:
        plan.to_host(copy.deepcopy(OBJ), copy.deepcopy(CTX))
    assert info.value.js_name == "LimitExceeded"
    assert "step budget" in str(info.value)
