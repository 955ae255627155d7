"""The pytest plugin, run the way users run it: a separate pytest process that finds the plugin
through its ``pytest11`` entry point, with a user's test file, config and sample object.

The user's test fakes the compiler stage itself, so this checks the plugin's contract (one-line
snapshot, round-trip assertion, located config errors) independently of the JS engine.
"""

import subprocess
import sys

CONFIG = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: subsets[*].ports[*].name
          expression: '"host-" + value'
          reverseExpression: value.slice(5)
"""

OBJECT = """\
kind: Endpoints
subsets:
- ports: [{name: http}, {name: grpc}]
"""

USER_TEST = '''\
import pytest
from syncpatch.patches import build

PY = {'"host-" + value': '"host-" + value', "value.slice(5)": "value[5:]", "value.slice(4)": "value[4:]"}


@pytest.fixture(autouse=True)
def fake_compiler(monkeypatch):
    def compiler(source):
        code = compile(PY.get(source.strip(), "value"), "<fake>", "eval")
        return lambda value, context, *, value_exists=True: eval(code, {}, {"value": value})
    monkeypatch.setattr(build, "_default_compiler", lambda: compiler)


def test_endpoints(patch_snapshot):
    record = patch_snapshot("vcluster.yaml", "endpoints", "ep.yaml", round_trip=True)
    assert record["output"]["subsets"][0]["ports"][1]["name"] == "host-grpc"
'''


def run_pytest(tmp_path, *args):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=tmp_path, capture_output=True, text=True)


def setup(tmp_path, config=CONFIG):
    (tmp_path / "vcluster.yaml").write_text(config)
    (tmp_path / "ep.yaml").write_text(OBJECT)
    (tmp_path / "test_user.py").write_text(USER_TEST)


def test_plugin_snapshots_in_one_line(tmp_path):
    setup(tmp_path)
    first = run_pytest(tmp_path, "--snapshot-update")
    assert first.returncode == 0, first.stdout + first.stderr
    snap = (tmp_path / "__snapshots__" / "test_user.ambr").read_text()
    assert "'name': 'host-http'" in snap and "'back'" in snap
    again = run_pytest(tmp_path)
    assert again.returncode == 0, again.stdout
    (tmp_path / "vcluster.yaml").write_text(CONFIG.replace("'\"host-\" + value'", "value"))
    changed = run_pytest(tmp_path)
    assert changed.returncode == 1
    assert "snapshot" in changed.stdout.lower()


def test_plugin_asserts_the_round_trip(tmp_path):
    setup(tmp_path, CONFIG.replace("slice(5)", "slice(4)"))
    result = run_pytest(tmp_path, "--snapshot-update")
    assert result.returncode == 1
    assert "syncing the result back did not restore the input" in result.stdout


def test_plugin_reports_config_errors_with_locations(tmp_path):
    setup(tmp_path, CONFIG.replace("subsets[*]", "subsets['x']"))
    result = run_pytest(tmp_path, "--snapshot-update")
    assert result.returncode == 1
    assert "vcluster.yaml:5:25: error[path-single-quote]" in result.stdout
