"""The compile-patches artifact with the compiler stage faked: determinism, equivalence with the
in-process plans, the ABI check, what it imports, and that config text cannot inject code.

``test_artifact_compiler.py`` repeats the important properties with the real compiler.
"""

import ast
import sys
import textwrap
import types

import pytest

from syncpatch.loader import ArtifactError, PlanSet, load_artifact, load_plans
from syncpatch.patches.artifact import ArtifactBuildError, EmittedFunction
from syncpatch.patches.build import build

PY = {
    '"host-" + value': '"host-" + value',
    'value.slice(5)': "value[5:]",
    '"h-" + value': '"h-" + value',
    'value.slice(2)': "value[2:]",
    "context.vcluster.name": 'context["vcluster"]["name"]',
    "null": "None",
}


def fake_compiler(source):
    code = compile(PY[source.strip()], "<fake>", "eval")
    return lambda value, context, *, value_exists=True: eval(code, {}, {"value": value, "context": context})


def fake_emitter(source):
    text = textwrap.dedent(f"""\
        from syncpatch.runtime.values import UNDEFINED
        _K = UNDEFINED
        def _fn(value, context, *, value_exists=True):
            return {PY[source.strip()]}
        """)
    return EmittedFunction(ast.parse(text), "_fn")


@pytest.fixture(autouse=True)
def fake_abi(monkeypatch):
    module = types.ModuleType("syncpatch.runtime.abi")
    module.ABI_VERSION = 7
    monkeypatch.setitem(sys.modules, "syncpatch.runtime.abi", module)
    return module


CONFIG = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: subsets[*].ports[*].name
          expression: '"host-" + value'
          reverseExpression: value.slice(5)
        - path: metadata.annotations["owner"]
          expression: context.vcluster.name
          reverseExpression: "null"
    customResources:
      certificates.cert-manager.io:
        patches:
          - path: spec.secretName
            reference: {apiVersion: v1, kind: Secret}
  fromHost:
    nodes:
      patches:
        - path: spec.providerID
          expression: '"host-" + value'
"""

ENDPOINTS = {
    "kind": "Endpoints",
    "metadata": {"name": "web", "namespace": "default"},
    "subsets": [{"ports": [{"name": "http"}, {"name": "grpc"}]}, {"ports": [{"name": "m"}]}],
}


def make(tmp_path, text=CONFIG, name="vcluster.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def artifact_of(paths, **kwargs):
    result = build(paths, displays=[p.name for p in paths], compiler=fake_compiler, emitter=fake_emitter,
                   **kwargs)
    assert result.artifact is not None, result.diagnostics
    return result


def test_same_input_same_bytes(tmp_path):
    path = make(tmp_path)
    first = artifact_of([path]).artifact
    second = artifact_of([path]).artifact
    assert first == second
    assert "SOURCE_SHA256" in first


def test_loaded_plans_match_in_process_plans(tmp_path):
    path = make(tmp_path)
    result = artifact_of([path])
    out = tmp_path / "plans.py"
    out.write_text(result.artifact)
    loaded = load_plans(out)
    compiled = result.reports[0].compiled
    assert set(loaded.plans) == set(compiled.plans)
    assert loaded.enabled == dict(compiled.enabled)
    ctx = compiled.context("vc", "team-a")
    assert loaded.context("vc", "team-a") == ctx
    for direction in ("to_host", "from_host"):
        got = loaded.plan("toHost", "endpoints").apply(direction, ENDPOINTS, ctx)
        want = compiled.plan("toHost", "endpoints").apply(direction, ENDPOINTS, ctx)
        assert got == want
    assert loaded.plan("toHost", "endpoints").to_host(ENDPOINTS, ctx)["subsets"][1]["ports"][0]["name"] == "host-m"
    assert loaded.plan("fromHost", "nodes").keywords == compiled.plan("fromHost", "nodes").keywords
    cert = {"kind": "Certificate", "metadata": {"namespace": "default"}, "spec": {"secretName": "tls"}}
    assert (loaded.plan("toHost", "customResources/certificates.cert-manager.io").apply("to_host", cert, ctx)
            == compiled.plan("toHost", "customResources/certificates.cert-manager.io").apply("to_host", cert, ctx))


def test_artifact_imports_only_the_runtime(tmp_path):
    tree = ast.parse(artifact_of([make(tmp_path)]).artifact)
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import)]
    assert imported and all(m.startswith("syncpatch.runtime.") for m in imported), imported


def test_incompatible_abi_is_refused_with_a_clear_message(tmp_path, fake_abi):
    out = tmp_path / "plans.py"
    out.write_text(artifact_of([make(tmp_path)]).artifact)
    fake_abi.ABI_VERSION = 8
    with pytest.raises(ArtifactError) as info:
        load_plans(out)
    message = str(info.value)
    assert "built for runtime ABI 7" in message and "speaks ABI 8" in message
    assert "rebuild it with `compile-patches`" in message


def test_several_configs_in_one_artifact(tmp_path):
    a = make(tmp_path, name="a.yaml")
    b = make(tmp_path, CONFIG.replace("host-", "h-").replace("slice(5)", "slice(2)"), name="b.yaml")
    out = tmp_path / "plans.py"
    out.write_text(artifact_of([a, b]).artifact)
    sets = load_artifact(out)
    assert list(sets) == ["a.yaml", "b.yaml"]
    with pytest.raises(ValueError, match="pass config="):
        load_plans(out)
    assert isinstance(load_plans(out, config="b.yaml"), PlanSet)


def test_config_text_cannot_inject_code(tmp_path):
    evil = 'x"); import os; os.system("echo pwned"); ("'
    text = CONFIG.replace("kind: Secret", f"kind: '{evil}'") + f"global: '{evil}'\n"
    result = artifact_of([make(tmp_path, text)])
    tree = ast.parse(result.artifact)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import)]
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "os" not in names
    constants = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    assert constants.count(evil) == 3  # reference kind, context.vcluster.config (sync + extra): data only


def test_not_an_artifact(tmp_path):
    other = tmp_path / "other.py"
    other.write_text("X = 1\n")
    with pytest.raises(ArtifactError, match="not a syncpatch artifact"):
        load_plans(other)
    with pytest.raises(ArtifactError, match="no such artifact"):
        load_plans(tmp_path / "missing.py")


def test_generated_code_may_not_import_outside_the_runtime(tmp_path):
    def bad_emitter(source):
        return EmittedFunction(ast.parse("from os import system\ndef f(value, context, *, value_exists=True):\n    return value\n"), "f")

    with pytest.raises(ArtifactBuildError, match="only syncpatch.runtime"):
        build([make(tmp_path)], compiler=fake_compiler, emitter=bad_emitter)
