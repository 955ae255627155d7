"""`syncpatch test DIR`: pass/fail table, diff on failure, exit codes (compiler faked).

test_test_cmd_examples.py runs examples/tests with the real compiler.
"""

import json

import pytest
from click.testing import CliRunner

from syncpatch.cli import cli
from syncpatch.patches import build as build_mod

PY = {'"host-" + value': '"host-" + value', "value.slice(5)": "value[5:]", "value.boom()": "1/0"}


def fake_compiler(source):
    code = compile(PY.get(source.strip(), "value"), "<fake>", "eval")
    return lambda value, context, *, value_exists=True: eval(code, {}, {"value": value})


@pytest.fixture(autouse=True)
def fakes(monkeypatch):
    monkeypatch.setattr(build_mod, "_default_compiler", lambda: fake_compiler)


CONFIG = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: subsets[*].ports[*].name
          expression: '"host-" + value'
          reverseExpression: value.slice(5)
    services:
      patches:
        - path: spec.x
          expression: value.boom()
"""

CASES = """\
config: ../vcluster.yaml
resource: endpoints
cases:
  - name: prefix added
    input: {subsets: [{ports: [{name: http}]}]}
    expected: {subsets: [{ports: [{name: host-http}]}]}
  - name: prefix removed
    direction: from-host
    input: {subsets: [{ports: [{name: host-http}]}]}
    expected: {subsets: [{ports: [{name: http}]}]}
"""

FAILING = """\
config: ../vcluster.yaml
resource: toHost.endpoints
direction: to-host
input: {subsets: [{ports: [{name: http}, {name: grpc}]}]}
expected: {subsets: [{ports: [{name: host-http}, {name: grpc}]}]}
"""

ERRORING = """\
config: ../vcluster.yaml
cases:
  - name: patch throws
    resource: services
    input: {spec: {x: 1}}
    expected: {spec: {x: 1}}
  - name: expected error
    resource: services
    input: {spec: {x: 1}}
    expectedError: InternalError
"""


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # case files display relative to the working directory


def write(tmp_path, **files):
    (tmp_path / "vcluster.yaml").write_text(CONFIG)
    cases = tmp_path / "cases"
    cases.mkdir()
    for name, text in files.items():
        (cases / f"{name}.yaml").write_text(text)
    return "cases"


def invoke(*args):
    return CliRunner().invoke(cli, ["test", *map(str, args)], catch_exceptions=False)


def test_passing_cases_exit_0(tmp_path, snapshot):
    result = invoke(write(tmp_path, ok=CASES))
    assert result.exit_code == 0, result.output
    assert result.output == snapshot


def test_failing_case_shows_a_diff_and_exits_1(tmp_path, snapshot):
    result = invoke(write(tmp_path, ok=CASES, bad=FAILING))
    assert result.exit_code == 1
    assert "-  - name: grpc\n+  - name: host-grpc" in result.output
    assert result.output == snapshot


def test_patch_errors_are_failures_unless_expected(tmp_path):
    result = invoke(write(tmp_path, err=ERRORING), "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.output)
    assert [(c["name"], c["status"]) for c in document["cases"]] == [
        ("patch throws", "error"), ("expected error", "pass")]
    assert "patch 0 on path 'spec.x'" in document["cases"][0]["message"]


def test_invalid_case_file_exits_1(tmp_path):
    result = invoke(write(tmp_path, broken="config: ../vcluster.yaml\ninput: {}\nexpected: {}\n"))
    assert result.exit_code == 1
    assert "missing 'resource'" in result.output


def test_no_cases_found_exits_1(tmp_path):
    result = invoke(write(tmp_path))
    assert result.exit_code == 1
    assert "no test cases found" in result.output


def test_config_with_errors_fails_its_cases(tmp_path):
    cases = write(tmp_path, ok=CASES)
    (tmp_path / "vcluster.yaml").write_text(CONFIG.replace("subsets[*]", "subsets['x']"))
    result = invoke(cases, "--format", "json")
    assert result.exit_code == 1
    statuses = [c["status"] for c in json.loads(result.output)["cases"]]
    assert statuses == ["error", "error"]
    assert "vcluster.yaml:5:25: error[path-single-quote]" in json.loads(result.output)["cases"][0]["message"]


def test_missing_dir_is_a_usage_error(tmp_path):
    assert invoke("nope").exit_code == 2


def test_help_has_examples():
    result = CliRunner().invoke(cli, ["test", "--help"])
    assert result.exit_code == 0 and "syncpatch test examples/tests" in result.output



def test_object_files_keep_unquoted_dates_as_text(tmp_path):
    """inputFile is read as the case file is: an unquoted date stays text, so it equals the
    same date written in the case's inline ``expected`` (before, the file gave a date object
    and the case failed on a diff of ``'2024-01-01'`` against ``2024-01-01``); a single case
    that names an ``expectedFile`` is found when a folder is scanned."""
    obj = "subsets: [{ports: [{name: http}]}]\nmetadata: {annotations: {deployed: 2024-01-01}}\n"
    (tmp_path / "in.yaml").write_text(obj)
    (tmp_path / "out.yaml").write_text(obj.replace("name: http", "name: host-http"))
    (tmp_path / "vcluster.yaml").write_text(CONFIG)
    cases = tmp_path / "tests"
    cases.mkdir()
    (cases / "inline.yaml").write_text(
        "config: ../vcluster.yaml\nresource: endpoints\ninputFile: ../in.yaml\n"
        "expected: {subsets: [{ports: [{name: host-http}]}], metadata: {annotations: {deployed: 2024-01-01}}}\n")
    (cases / "files.yaml").write_text("config: ../vcluster.yaml\nresource: endpoints\n"
                                      "inputFile: ../in.yaml\nexpectedFile: ../out.yaml\n")
    result = invoke(cases, "--format", "json")
    assert result.exit_code == 0, result.output
    assert [c["status"] for c in json.loads(result.stdout)["cases"]] == ["pass", "pass"]


def test_an_object_file_that_is_not_yaml_is_named_with_its_line_and_column(tmp_path):
    (tmp_path / "in.yaml").write_text("subsets: [{ports: [{name: http}]}\n")
    (tmp_path / "vcluster.yaml").write_text(CONFIG)
    cases = tmp_path / "tests"
    cases.mkdir()
    (cases / "broken.yaml").write_text("config: ../vcluster.yaml\nresource: endpoints\ninputFile: ../in.yaml\n"
                                       "expected: {}\n")
    result = invoke(cases)
    assert result.exit_code == 1
    assert "in.yaml: cannot read: 1:10: invalid YAML: this '[' is never closed" in result.output, result.output
    assert "Traceback" not in result.output
