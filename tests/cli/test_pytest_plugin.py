"""The ``patch_snapshot`` fixture reports as syrupy does: "does not exist" on first use, a
diff on a mismatch, and a typo in the resource is a named failure, not a snapshot of the
unpatched object. Run as users run it: a separate pytest process with a user's test file."""

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

USER_TEST = '''\
def test_endpoints(patch_snapshot):
    patch_snapshot("vcluster.yaml", "{resource}", "ep.yaml")
'''


def run_pytest(tmp_path, *args):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=tmp_path, capture_output=True, text=True)


def setup(tmp_path, resource="endpoints"):
    (tmp_path / "vcluster.yaml").write_text((EXAMPLES / "endpoints-prefix.yaml").read_text())
    (tmp_path / "ep.yaml").write_text((EXAMPLES / "objects" / "endpoints.yaml").read_text())
    (tmp_path / "test_user.py").write_text(USER_TEST.format(resource=resource))


def test_first_use_says_the_snapshot_does_not_exist(tmp_path):
    setup(tmp_path)
    result = run_pytest(tmp_path)
    assert result.returncode == 1
    assert "does not exist" in result.stdout, result.stdout


def test_a_mismatch_shows_syrupys_diff(tmp_path):
    setup(tmp_path)
    assert run_pytest(tmp_path, "--snapshot-update").returncode == 0
    ep = tmp_path / "ep.yaml"
    ep.write_text(ep.read_text().replace("name: http", "name: web"))
    result = run_pytest(tmp_path)
    assert result.returncode == 1
    assert "[+ received] == [- snapshot]" in result.stdout, result.stdout
    assert "host-web" in result.stdout and "host-http" in result.stdout


def test_a_resource_typo_fails_naming_the_valid_ones(tmp_path):
    setup(tmp_path, resource="endpoint")
    result = run_pytest(tmp_path, "--snapshot-update")
    assert result.returncode == 1
    assert "unknown toHost resource 'endpoint'" in result.stdout and "did you mean 'endpoints'" in result.stdout
    assert not (tmp_path / "__snapshots__").exists() or "endpoint" not in "".join(
        p.read_text() for p in (tmp_path / "__snapshots__").iterdir())
