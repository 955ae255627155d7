"""The artifact with the real compiler: determinism, equivalence with in-process plans over
every example, loading with lark/pydantic/yaml blocked, and the ABI refusal.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from syncpatch.patches.build import build, example_configs

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

CONFIGS = list(example_configs(EXAMPLES))


@pytest.fixture(scope="module")
def artifact(tmp_path_factory):
    result = build(CONFIGS, displays=[p.name for p in CONFIGS], tests=[EXAMPLES / "tests"])
    assert result.artifact is not None, result.diagnostics
    path = tmp_path_factory.mktemp("artifact") / "plans.py"
    path.write_text(result.artifact)
    return path, result


def test_same_input_same_bytes(artifact):
    path, _ = artifact
    again = build(CONFIGS, displays=[p.name for p in CONFIGS], tests=[EXAMPLES / "tests"])
    assert again.artifact == path.read_text()


def _objects():
    """Every example object (samples.yaml and the declarative cases) with its config and resource."""
    from syncpatch.patches.testcases import discover, load_case_file

    samples = yaml.safe_load((EXAMPLES / "samples.yaml").read_text())
    for s in samples["samples"]:
        obj = yaml.safe_load((EXAMPLES / s["object"]).read_text())
        yield s["config"], s["side"], s["resource"], obj
    for file in discover(EXAMPLES / "tests"):
        for case in load_case_file(file):
            yield case.config.name, case.side, case.resource, case.input


OBJECTS = list(_objects())


@pytest.mark.parametrize("config, side, resource, obj", OBJECTS,
                         ids=[f"{c}-{r}-{i}" for i, (c, s, r, o) in enumerate(OBJECTS)])
@pytest.mark.parametrize("direction", ["to_host", "from_host"])
def test_loaded_plans_equal_in_process_plans(artifact, config, side, resource, obj, direction):
    import syncpatch

    path, result = artifact
    loaded = syncpatch.load_plans(path, config=config)
    compiled = syncpatch.compile_config(yaml.safe_load((EXAMPLES / config).read_text()))
    context = compiled.context("my-vcluster", "vcluster-my-vcluster")
    assert loaded.context("my-vcluster", "vcluster-my-vcluster") == context
    want = _outcome(compiled.plan(side, resource), direction, obj, context)
    got = _outcome(loaded.plan(side, resource), direction, obj, context)
    assert got == want


def _outcome(plan, direction, obj, context):
    try:
        return ("ok", plan.apply(direction, obj, dict(context)))
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc))


BLOCKER = textwrap.dedent("""\
    import sys
    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {"lark", "pydantic", "pydantic_core", "yaml"}:
                raise ImportError(f"blocked: {name}")
            return None
    sys.meta_path.insert(0, Blocker())
    import syncpatch
    plans = syncpatch.load_plans(sys.argv[1], config="endpoints-prefix.yaml")
    ep = {"kind": "Endpoints", "metadata": {"name": "w", "namespace": "default", "annotations": {}},
          "subsets": [{"ports": [{"name": "http"}]}]}
    out = plans.plan("toHost", "endpoints").to_host(ep, {"vcluster": plans.context("vc", "ns")["vcluster"]})
    assert out["subsets"][0]["ports"][0]["name"] == "host-http", out
    assert not {"lark", "pydantic", "yaml"} & set(m.split(".")[0] for m in sys.modules), sorted(sys.modules)
    print("ok")
""")


def test_artifact_loads_with_lark_pydantic_and_yaml_blocked(artifact):
    path, _ = artifact
    env = {**os.environ, "PYTHONPATH": ""}
    out = subprocess.run([sys.executable, "-c", BLOCKER, str(path)], capture_output=True, text=True,
                         cwd="/", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_incompatible_abi_is_refused(artifact, tmp_path):
    from syncpatch.loader import ArtifactError, load_plans

    path, _ = artifact
    text = path.read_text()
    import re

    stale = re.sub(r"^ABI_VERSION = .*$", "ABI_VERSION = 'stale-0'", text, count=1, flags=re.M)
    assert stale != text
    old = tmp_path / "old_plans.py"
    old.write_text(stale)
    with pytest.raises(ArtifactError, match="built for runtime ABI 'stale-0'.*rebuild it with `compile-patches`"):
        load_plans(old, config="endpoints-prefix.yaml")


def test_artifact_imports_only_the_runtime_and_its_loader(artifact):
    import ast

    path, _ = artifact
    tree = ast.parse(path.read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import)]
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    # the artifact imports the runtime alone
    assert all(m.startswith("syncpatch.runtime.") for m in modules), modules
    assert "syncpatch.runtime.abi" in modules


def test_generated_code_runs_without_python_builtins(artifact):
    """Parity with the in-process exit's ``{"__builtins__": {}}`` sandbox."""
    from syncpatch.loader import _module

    path, _ = artifact
    module = _module(path)
    generated = [getattr(module, n) for n in dir(module) if n.startswith("_x") and n.endswith("_main")]
    assert generated
    assert all(fn.__builtins__ == {} for fn in generated)


#: a tenant config with one services patch list; the lists below follow it
SERVICES_HEADER = """\
sync:
  toHost:
    services:
      enabled: true
      patches:
"""

NATIVE_CONFIG = SERVICES_HEADER + """\
        - path: metadata.labels[*]
          expression: '"v-" + value'
          reverseExpression: 'value.startsWith("v-") ? value.slice(2) : value'
        - path: spec.type
          expression: 'value.replace(/^Node/, "Cluster").toUpperCase()'
        - path: spec.ports
          expression: 'value.map(p => ({...p, port: p.port + 1000}))'
        - path: metadata.annotations["x"]
          expression: 'String(value).padStart(3, "0-")'
"""


def test_artifact_functions_carry_the_native_tier(tmp_path):
    """An artifact runs what compile_expression runs: the same native tier (where the script
    has one) over the same general tier, with the same results, fallbacks included."""
    import syncpatch

    plan = _services_plan(tmp_path, NATIVE_CONFIG)
    functions = [f for e in plan.entries for f in (e.expression, e.reverse_expression) if f is not None]
    assert [f.native is not None for f in functions] == [True, True, True, True, False]
    inputs = ["web", "v-web", "NodePort", "", "é", "\ud83d\ude00", 7, None, [{"port": 1}], [{"port": 2**53}],
              [{"name": "x"}], {"a": 1}]
    for f in functions:
        twin = syncpatch.compile_expression(f.source)
        for value in inputs:
            assert _native_outcome(f, value) == _native_outcome(twin, value) == _native_outcome(twin.general, value), (f.source, value)


def _services_plan(tmp_path, config_text):
    """The toHost services plan of an artifact built from ``config_text`` and loaded back."""
    import syncpatch

    config = tmp_path / "config.yaml"
    config.write_text(config_text)
    result = build([config], displays=["config.yaml"])
    assert result.artifact is not None, result.diagnostics
    path = tmp_path / "plans.py"
    path.write_text(result.artifact)
    return syncpatch.load_plans(path).plan("toHost", "services")


def _native_outcome(fn, value):
    import copy

    try:
        return ("ok", repr(fn(copy.deepcopy(value), None)))
    except Exception as exc:  # noqa: BLE001 - the error class is the outcome
        return ("error", type(exc).__name__, getattr(exc, "js_name", None))


INLINE_CONFIG = SERVICES_HEADER + """\
        - path: metadata.labels[*]
          expression: '"v-" + value'
        - path: spec.type
          expression: 'value.replace(/^No+de[A-Z]?/, "Cluster").toUpperCase()'
        - path: spec.ports[*].port
          expression: 'value + 1000'
"""


def test_artifact_plans_write_native_bodies_in_place(tmp_path):
    """A loaded artifact's plan writes the native bodies into its generated function, as an
    in-process plan does (regexes included: the artifact renames them, the text keeps its
    names), and gives the same results, fallbacks included."""
    import syncpatch

    loaded = _services_plan(tmp_path, INLINE_CONFIG)
    in_process = syncpatch.compile_patches(yaml.safe_load(INLINE_CONFIG)["sync"]["toHost"]["services"]["patches"])
    objects = [
        {"metadata": {"labels": {"a": "x"}}, "spec": {"type": "NodePort", "ports": [{"port": 80}]}},
        {"metadata": {"labels": {"a": "é"}}, "spec": {"type": "Nooode", "ports": [{"port": 2**53}]}},
        {"metadata": {"labels": ["x", 1]}, "spec": {"type": 7, "ports": [{"port": "80"}]}},
    ]
    for obj in objects:
        assert _native_outcome(loaded.to_host, obj) == _native_outcome(in_process.to_host, obj), obj
    program = loaded._program("to_host")
    assert program.inlined is not None
    assert {"upper", "REGEX_SUB"} <= set(program.inlined.__code__.co_names)  # bodies, not calls
