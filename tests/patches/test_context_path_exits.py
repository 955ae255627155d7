"""``context.path`` reaches an expression through both exits, whatever its tier.

A plan builds ``context.path`` only for the expressions that can read it. That must hold on
every supported CPython, whose bytecode differs between versions (3.13 fuses consecutive local
loads into one instruction), so each script below reads ``context.path`` in another shape, and
both the in-process plan and the ``compile-patches`` artifact must hand each element its path.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

import syncpatch
from syncpatch.patches.build import build

SCRIPTS = {
    "native": 'value + "@" + context.path',
    "adjacentLoads": '[value, context.path].join("@")',
    "generalTier": 'try { value + "@" + context.path } catch (e) { "caught" }',
    "viaBindings": 'let p = context.path; let v = value; v + "@" + p',
    "inAClosure": '[1].map(function (x) { return value + "@" + context.path })[0]',
}
CONFIG = {"sync": {"toHost": {"pods": {"enabled": True, "patches": [
    {"path": f"spec.{name}[*]", "expression": script} for name, script in SCRIPTS.items()]}}}}
OBJECT = {"spec": {name: ["x", "y"] for name in SCRIPTS}}
EXPECTED = {"spec": {name: [f"x@spec.{name}.0", f"y@spec.{name}.1"] for name in SCRIPTS}}


@pytest.fixture(scope="module")
def artifact_plan(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("context-path")
    config = folder / "tenant.yaml"
    config.write_text(yaml.safe_dump(CONFIG), encoding="utf-8")
    result = build([config], displays=["tenant.yaml"])
    assert result.artifact is not None
    artifact = folder / "plans.py"
    artifact.write_text(result.artifact, encoding="utf-8")
    return syncpatch.load_plans(artifact, config="tenant.yaml")


def test_in_process_plan_sees_the_path() -> None:
    compiled = syncpatch.compile_config(CONFIG)
    result = compiled.plan("toHost", "pods").apply("to_host", OBJECT, compiled.context("vc", "vcluster-vc"))
    assert result.object == EXPECTED


def test_artifact_plan_sees_the_path(artifact_plan: Any) -> None:
    result = artifact_plan.plan("toHost", "pods").apply("to_host", OBJECT, artifact_plan.context("vc", "vcluster-vc"))
    assert result.object == EXPECTED


def test_the_scripts_cover_both_tiers() -> None:
    tiers = {name: syncpatch.compile_expression(script).native for name, script in SCRIPTS.items()}
    assert tiers["native"] and not tiers["generalTier"]
