"""One behaviour for both exits: ``compile-patches`` loads what it wrote before it says so.

The hostile tables run through both exits by the ``through`` fixture (``conftest.py``). This
file holds what only the artifact can get wrong: a config that compiles in process but gives
an artifact that does not import (CPython's tokenizer refuses source nested past 200
brackets; the in-process exit compiles the AST and has no such limit) is refused by both
exits alike, and a build whose artifact does not load says why, names the config and writes
nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

import syncpatch
from syncpatch import CompileError
from syncpatch.patches import build as build_mod
from syncpatch.patches.artifact import EmittedFunction
from syncpatch.patches.build import build

from .exits import ArtifactExit

#: chains and nests around CPython's 200-bracket limit on source text, within the source-length
#: and bracket-nesting limits of the JS source
CHAINS = {
    "optional-chain-60": "value" + "?.a" * 60,
    "optional-chain-190": "value" + "?.a" * 190,
    "member-chain-300": "value" + ".a" * 300,
    "and-chain-300": "value" + " && value" * 300,
    "plus-chain-170": "value" + " + 1" * 170,
    "plus-chain-600": "value" + " + 1" * 600,
    "brackets-199": "[" * 199 + "]" * 199,
    "conditional-300": "value ? 1 : " * 300 + "2",
    "calls-150": "String(" * 150 + "value" + ")" * 150,
}


def _config(folder: Path, sources: list[str]) -> Path:
    patches = [{"path": f"spec.s{i}", "expression": src} for i, src in enumerate(sources)]
    path = folder / "tenant.yaml"
    path.write_text(yaml.safe_dump({"sync": {"toHost": {"pods": {"enabled": True, "patches": patches}}}}),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_long_chains_are_refused_or_loaded_alike(name: str, tmp_path: Path) -> None:
    src = CHAINS[name]
    try:
        fn = syncpatch.compile_expression(src)
    except CompileError as exc:
        assert "nested too deeply" in str(exc)
        result = build([_config(tmp_path, [src])], displays=["tenant.yaml"])
        assert result.artifact is None
        assert any(d.code == "expression-syntax" and "nested too deeply" in d.message for d in result.diagnostics)
        return
    loaded = ArtifactExit(tmp_path)(src, None)
    assert loaded({"a": None}, {}) == fn({"a": None}, {})


_REAL_EMITTER = build_mod._module_source


def _unloadable_emitter(source: str) -> EmittedFunction:
    """The real module plus an import the runtime does not have: it compiles, it cannot load."""
    emitted = _REAL_EMITTER(source)
    broken = ast.parse("from syncpatch.runtime.abi import NO_SUCH_NAME").body
    return EmittedFunction(ast.Module(body=[*broken, *emitted.module.body], type_ignores=[]), emitted.entry)


def test_an_artifact_that_does_not_load_is_an_error_naming_the_config(tmp_path: Path) -> None:
    result = build([_config(tmp_path, ["value + 1"])], displays=["tenant.yaml"], emitter=_unloadable_emitter)
    assert result.artifact is None
    (diag,) = [d for d in result.diagnostics if d.severity == "error"]
    assert (diag.file, diag.code) == ("tenant.yaml", "artifact-load")
    assert "does not load" in diag.message and "NO_SUCH_NAME" in diag.message
    assert str(tmp_path) not in diag.message and "Traceback" not in diag.message and ".py" not in diag.message


def test_only_the_config_whose_plans_do_not_load_is_named(tmp_path: Path) -> None:
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.mkdir(), bad.mkdir()

    def emitter(source: str) -> EmittedFunction:
        return _unloadable_emitter(source) if "broken" in source else _REAL_EMITTER(source)

    paths = [_config(good, ["value + 1"]), _config(bad, ["'broken' + value"])]
    result = build(paths, displays=["good.yaml", "bad.yaml"], emitter=emitter)
    assert result.artifact is None
    assert [d.file for d in result.diagnostics if d.code == "artifact-load"] == ["bad.yaml"]


def test_compile_patches_writes_nothing_when_its_artifact_does_not_load(tmp_path: Path,
                                                                       monkeypatch: Any) -> None:
    from syncpatch.cli import cli

    config = _config(tmp_path, ["value + 1"])
    output = tmp_path / "plans.py"
    output.write_text("# an older artifact, kept\n", encoding="utf-8")
    monkeypatch.setattr(build_mod, "_module_source", _unloadable_emitter)
    result = CliRunner().invoke(cli, ["compile-patches", str(config), "-o", str(output)])
    assert result.exit_code == 1, result.output
    assert "no problems" not in result.output and "does not load" in result.output
    assert output.read_text(encoding="utf-8") == "# an older artifact, kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plans.py", "tenant.yaml"]  # no partial file left


def test_compile_patches_says_no_problems_only_for_a_loaded_artifact(tmp_path: Path) -> None:
    from syncpatch.cli import cli

    config = _config(tmp_path, ["value?.a?.b ?? 'x'", "[value].concat([2])"])
    output = tmp_path / "plans.py"
    result = CliRunner().invoke(cli, ["compile-patches", str(config), "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output
    plan = syncpatch.load_plans(output).plan("toHost", "pods")
    assert plan.to_host({"spec": {"s0": {"a": None}, "s1": 1}}, {}) == {"spec": {"s0": "x", "s1": [1, 2]}}
