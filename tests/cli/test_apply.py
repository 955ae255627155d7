"""`syncpatch apply`: YAML/JSON output, --diff, context flags, errors and exit codes (compiler faked)."""

import json

import pytest
from click.testing import CliRunner

from syncpatch.cli import cli
from syncpatch.patches import build as build_mod

PY = {
    '"host-" + value': '"host-" + value',
    "value.slice(5)": "value[5:]",
    "context.vcluster.name": 'context["vcluster"]["name"] + "/" + context["vcluster"]["namespace"]',
    "value.boom()": "1/0",
}


def fake_compiler(source):
    code = compile(PY.get(source.strip(), "value"), "<fake>", "eval")
    return lambda value, context, *, value_exists=True: eval(code, {}, {"value": value, "context": context})


@pytest.fixture(autouse=True)
def fakes(monkeypatch, tmp_path):
    monkeypatch.setattr(build_mod, "_default_compiler", lambda: fake_compiler)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "vcluster.yaml").write_text(CONFIG)
    (tmp_path / "ep.yaml").write_text(OBJECT)


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
    services:
      patches:
        - path: spec.x
          expression: value.boom()
"""

OBJECT = """\
kind: Endpoints
metadata:
  name: web
  annotations: {}
subsets:
- ports:
  - name: http
"""


def invoke(*args, input=None):
    return CliRunner().invoke(cli, ["apply", *args], input=input, catch_exceptions=False)


def test_to_host_yaml(snapshot):
    result = invoke("--config", "vcluster.yaml", "--resource", "endpoints", "ep.yaml",
                    "--vcluster-name", "vc1", "--vcluster-namespace", "team-a")
    assert result.exit_code == 0, result.output
    assert "owner: vc1/team-a" in result.stdout
    assert result.stdout == snapshot


def test_from_host_json_from_stdin():
    host = OBJECT.replace("name: http", "name: host-http")
    result = invoke("--config", "vcluster.yaml", "--resource", "toHost.endpoints", "--direction", "from-host",
                    "-o", "json", "-", input=host)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["subsets"][0]["ports"][0]["name"] == "http"


def test_diff(snapshot):
    result = invoke("--config", "vcluster.yaml", "--resource", "endpoints", "--diff", "ep.yaml")
    assert result.exit_code == 0
    assert "-  - name: http\n+  - name: host-http" in result.stdout
    assert result.stdout == snapshot


def test_several_documents():
    result = invoke("--config", "vcluster.yaml", "--resource", "endpoints", "ep.yaml", "ep.yaml")
    assert result.exit_code == 0
    assert result.stdout.count("host-http") == 2 and "\n---\n" in result.stdout


def test_patch_error_exit_1_object_not_printed():
    (open("svc.yaml", "w")).write("spec: {x: 1}\n")
    result = invoke("--config", "vcluster.yaml", "--resource", "services", "svc.yaml")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "patch 0 on path 'spec.x'" in result.stderr
    assert "Traceback" not in result.output


def test_config_error_exit_1_with_location():
    open("bad.yaml", "w").write(CONFIG.replace("subsets[*]", "subsets['x']"))
    result = invoke("--config", "bad.yaml", "--resource", "endpoints", "ep.yaml")
    assert result.exit_code == 1
    assert "bad.yaml:5:25: error[path-single-quote]" in result.stderr


@pytest.mark.parametrize("args", [
    ["--resource", "endpoints", "ep.yaml"],  # neither --config nor --artifact
    ["--config", "vcluster.yaml", "ep.yaml"],  # no --resource
    ["--config", "vcluster.yaml", "--resource", "endpoints", "--direction", "sideways", "ep.yaml"],
    ["--config", "vcluster.yaml", "--resource", "endpoints", "missing.yaml"],
    ["--config", "vcluster.yaml", "--resource", "endpoints"],
])
def test_usage_errors_exit_2(args):
    assert invoke(*args).exit_code == 2


def test_not_yaml_is_a_usage_error_at_its_line_and_column():
    open("x.yaml", "w").write("kind: Endpoints\nmetadata:\n  name: [web\n")
    result = invoke("--config", "vcluster.yaml", "--resource", "endpoints", "x.yaml")
    assert result.exit_code == 2
    assert "x.yaml:3:9: invalid YAML: this '[' is never closed" in result.stderr, result.stderr
    assert "<unicode string>" not in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n---\n"])
def test_no_object_at_all_is_a_usage_error(text):
    """As ``kubectl apply``: input with no object is more likely the wrong file than nothing
    to do (before: exit 0 and no output)."""
    open("empty.yaml", "w").write(text)
    result = invoke("--config", "vcluster.yaml", "--resource", "endpoints", "empty.yaml")
    assert result.exit_code == 2 and "no object in empty.yaml" in result.stderr
    result = invoke("--config", "vcluster.yaml", "--resource", "endpoints", "empty.yaml", "ep.yaml")
    assert result.exit_code == 0 and "host-http" in result.stdout  # (one empty file among others is fine)


def test_help_has_examples():
    result = CliRunner().invoke(cli, ["apply", "--help"])
    assert result.exit_code == 0 and "syncpatch apply --config vcluster.yaml --resource endpoints" in result.output


def test_unquoted_timestamps_and_dates_stay_text():
    """A hand-written object may hold unquoted timestamps and dates (``kubectl`` quotes them,
    people do not): they are read as text, as configs are and as ``sigs.k8s.io/yaml`` keeps
    them, not as Python datetimes that no patch result can hold."""
    obj = OBJECT.replace("  annotations: {}", "  creationTimestamp: 2024-01-02T03:04:05Z\n  annotations: {deployed: 2024-01-01}")
    result = invoke("--config", "vcluster.yaml", "--resource", "endpoints", "-o", "json", "-", input=obj)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["metadata"]["creationTimestamp"] == "2024-01-02T03:04:05Z"
    assert out["metadata"]["annotations"]["deployed"] == "2024-01-01"
    assert out["subsets"][0]["ports"][0]["name"] == "host-http"
