"""What a newcomer hits first (issue "Tried as a new user would"): no silent no-op, no traceback,
every mistake named with the valid choices, every diagnostic located.

Each test reproduces one finding with the real compiler and the bundled examples.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import syncpatch
from syncpatch.cli import cli, compile_patches_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ENDPOINTS_CONFIG = str(EXAMPLES / "endpoints-prefix.yaml")
ENDPOINTS = str(EXAMPLES / "objects" / "endpoints.yaml")
NODES_CONFIG = str(EXAMPLES / "nodes-from-host.yaml")
NODE = str(EXAMPLES / "objects" / "node.yaml")


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def no_traceback(result) -> None:
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output


# --- unknown names are errors naming the valid choices -------------------------------------------

@pytest.mark.parametrize("resource", ["service", "nonsense", "toHost.nodes", "sideways.endpoints"])
def test_apply_unknown_resource_is_a_usage_error_naming_the_valid_ones(resource):
    result = run("apply", "--config", ENDPOINTS_CONFIG, "--resource", resource, ENDPOINTS)
    assert result.exit_code == 2, result.output
    assert "services" in result.stderr and "endpoints" in result.stderr
    assert result.stdout == ""


def test_apply_typo_suggests_the_close_name():
    result = run("apply", "--config", ENDPOINTS_CONFIG, "--resource", "service", ENDPOINTS)
    assert "did you mean 'services'" in result.stderr


@pytest.mark.parametrize(("typed", "meant"), [("evl", "eval"), ("compile-patch", "compile-patches"), ("aply", "apply")])
def test_a_misspelt_command_is_told_the_close_name(typed, meant):
    result = run(typed, "x")
    assert result.exit_code == 2, result.output
    assert f"No such command '{typed}'. Did you mean '{meant}'?" in result.stderr


def test_an_unknown_command_is_told_so_and_an_option_still_reaches_the_group():
    assert "No such command 'frobnicate'." in run("frobnicate").stderr
    assert run("--version").exit_code == 0


def test_python_api_unknown_resource_and_side_raise():
    compiled = syncpatch.compile_config(yaml.safe_load(Path(ENDPOINTS_CONFIG).read_text()))
    with pytest.raises(syncpatch.UnknownResourceError, match="services"):
        compiled.plan("toHost", "service")
    with pytest.raises(syncpatch.UnknownResourceError, match="toHost, fromHost"):
        compiled.plan("sideways", "x")
    assert compiled.plan("toHost", "services").entries == ()  # known, no patches: still empty
    from syncpatch.runtime.errors import SyncpatchError

    assert issubclass(syncpatch.UnknownResourceError, SyncpatchError)  # one family of public errors


def test_loaded_plans_unknown_resource_raises(tmp_path):
    out = tmp_path / "plans.py"
    assert run("compile-patches", ENDPOINTS_CONFIG, "-o", str(out)).exit_code == 0
    plans = syncpatch.load_plans(out)
    with pytest.raises(syncpatch.UnknownResourceError, match="did you mean 'endpoints'"):
        plans.plan("toHost", "endpoint")
    with pytest.raises(LookupError):
        plans.plan("sideways", "endpoints")


def test_test_command_case_with_unknown_resource_errs(tmp_path):
    shutil.copy(ENDPOINTS_CONFIG, tmp_path / "vcluster.yaml")
    (tmp_path / "case.yaml").write_text(
        "config: vcluster.yaml\nresource: endpoint\ninput: {}\nexpected: {}\n")
    result = run("test", str(tmp_path / "case.yaml"))
    assert result.exit_code == 1
    assert "unknown toHost resource 'endpoint'" in result.stdout and "0 passed" in result.stdout


# --- apply: no silent no-op -----------------------------------------------------------------------

def test_apply_from_host_resource_defaults_to_from_host_direction():
    result = run("apply", "--config", NODES_CONFIG, "--resource", "fromHost.nodes", "--diff", NODE)
    assert result.exit_code == 0, result.output
    assert "+  providerID: tenant://" in result.stdout


def test_apply_direction_without_patches_says_so():
    result = run("apply", "--config", NODES_CONFIG, "--resource", "fromHost.nodes", "--direction", "to-host",
                 "--diff", NODE)
    assert result.exit_code == 0
    assert "no patch of fromHost.nodes acts in direction to-host" in result.stderr
    assert "no changes" in result.stderr


def test_apply_patches_each_item_of_a_kind_list():
    item = yaml.safe_load(Path(ENDPOINTS).read_text())
    listing = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [item, item]})
    result = run("apply", "--config", ENDPOINTS_CONFIG, "--resource", "endpoints", "-", input=listing)
    assert result.exit_code == 0, result.output
    out = yaml.safe_load(result.stdout)
    assert out["kind"] == "List" and len(out["items"]) == 2
    for patched in out["items"]:
        assert patched != item
        assert patched["subsets"][0]["ports"][0]["name"].startswith("host-")


# --- compile-patches: files that are not tenant configs -------------------------------------------

def test_misspelt_sync_key_is_an_error(tmp_path):
    config = tmp_path / "vcluster.yaml"
    config.write_text(Path(ENDPOINTS_CONFIG).read_text().replace("\nsync:", "\nsynk:"))
    result = run("compile-patches", str(config))
    assert result.exit_code == 1
    assert "no problems" not in result.stderr
    assert "did you mean 'sync'" in result.stderr and ":3:1:" in result.stderr or "synk" in result.stderr


def test_platform_config_is_not_a_tenant_config():
    result = run("compile-patches", str(EXAMPLES / "platform" / "minimal.yaml"))
    assert result.exit_code == 1
    assert "no problems" not in result.stderr and "platform config" in result.stderr


def test_tests_path_must_exist():
    result = run("compile-patches", ENDPOINTS_CONFIG, "--tests", "/nonexistent")
    assert result.exit_code == 2 and "/nonexistent" in result.stderr


# --- artifacts ------------------------------------------------------------------------------------

@pytest.fixture
def multi_artifact(tmp_path):
    out = tmp_path / "plans.py"
    result = run("compile-patches", ENDPOINTS_CONFIG, NODES_CONFIG, "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_apply_picks_a_config_of_a_multi_config_artifact(multi_artifact):
    result = run("apply", "--artifact", str(multi_artifact), "--config", ENDPOINTS_CONFIG,
                 "--resource", "endpoints", ENDPOINTS)
    assert result.exit_code == 0, result.output
    assert "host-" in result.stdout
    no_traceback(result)


def test_apply_multi_config_artifact_without_config_lists_the_names(multi_artifact):
    result = run("apply", "--artifact", str(multi_artifact), "--resource", "endpoints", ENDPOINTS)
    assert result.exit_code == 2
    assert ENDPOINTS_CONFIG in result.stderr and NODES_CONFIG in result.stderr
    no_traceback(result)
    wrong = run("apply", "--artifact", str(multi_artifact), "--config", "nope.yaml", "--resource", "endpoints",
                ENDPOINTS)
    assert wrong.exit_code == 2 and "nope.yaml" in wrong.stderr and ENDPOINTS_CONFIG in wrong.stderr


def test_load_plans_names_the_configs(multi_artifact):
    with pytest.raises(Exception) as info:
        syncpatch.load_plans(multi_artifact)
    assert ENDPOINTS_CONFIG in str(info.value) and NODES_CONFIG in str(info.value)


def test_apply_refuses_a_python_file_that_is_not_an_artifact_without_running_it(tmp_path):
    marker = tmp_path / "ran"
    script = tmp_path / "plans.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('x')\nCONFIGS = {{}}\nARTIFACT_FORMAT = 1\n")
    result = run("apply", "--artifact", str(script), "--resource", "endpoints", ENDPOINTS)
    assert result.exit_code == 2
    assert "not a syncpatch artifact" in result.stderr
    assert not marker.exists()


def test_output_into_a_missing_folder_is_an_error(tmp_path):
    out = tmp_path / "nonexistent" / "dir" / "plans.py"
    result = run("compile-patches", ENDPOINTS_CONFIG, "-o", str(out))
    assert result.exit_code == 2 and "does not exist" in result.stderr
    assert not out.parent.exists()


# --- results the CLI cannot print -----------------------------------------------------------------

@pytest.mark.parametrize("expression, what", [
    ('Symbol("x")', "a symbol"), ("(x)=>x", "a function"), ("NaN", "NaN"),
    ("[1, {a: -Infinity}]", "-Infinity at [1].a"),
])
def test_eval_result_without_json_form_is_a_clear_error(expression, what):
    result = run("eval", expression)
    assert result.exit_code == 1
    assert what in result.stderr and "cannot represent" in result.stderr
    assert result.stdout == ""
    no_traceback(result)


@pytest.mark.parametrize("expression, fmt", [("(x) => x", "yaml"), ("0/0", "json"), ('Symbol("s")', "json")])
def test_apply_result_without_json_form_is_a_clear_error(tmp_path, expression, fmt):
    config = tmp_path / "vcluster.yaml"
    config.write_text("sync:\n  toHost:\n    endpoints:\n      patches:\n"
                      f"        - path: subsets[*].ports[*].name\n          expression: {json.dumps(expression)}\n")
    result = run("apply", "--config", str(config), "--resource", "endpoints", "-o", fmt, ENDPOINTS)
    assert result.exit_code == 1
    # the plan refuses it, as vCluster's JSON export does: a PatchError naming patch and path
    assert "patch 0 on path 'subsets[*].ports[*].name' at 'subsets.0.ports.0.name'" in result.stderr
    assert "JSON cannot represent" in result.stderr
    assert "NaN" not in result.stdout
    no_traceback(result)


# --- diagnostics keep their place ----------------------------------------------------------------

UNTERMINATED = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: a
          expression: x
        - path: "b
          expression: y
"""


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_unterminated_quote_is_reported_where_it_opens(tmp_path, fmt):
    config = tmp_path / "vcluster.yaml"
    config.write_text(UNTERMINATED)
    result = run("compile-patches", str(config), "--format", fmt)
    assert result.exit_code == 1
    if fmt == "json":
        diag = json.loads(result.stdout)["diagnostics"][0]
        assert (diag["line"], diag["column"]) == (7, 17)
        assert diag["excerpt"] == '        - path: "b'
    else:
        assert f"{config}:7:17:" in result.stderr and 'path: "b' in result.stderr


def test_binary_file_is_called_binary(tmp_path):
    config = tmp_path / "vcluster.yaml"
    config.write_bytes(b"sync:\n\x00\x01\x02")
    result = run("compile-patches", str(config))
    assert result.exit_code == 1
    assert "binary file" in result.stderr and ":2:1:" in result.stderr
    config.write_bytes("sync: {}\n# caf\u00e9\n".encode("latin-1"))
    result = run("compile-patches", str(config))
    assert "not UTF-8 text (byte 0xe9)" in result.stderr and ":2:6:" in result.stderr and "codec" not in result.stderr


def test_empty_file_is_called_empty(tmp_path):
    config = tmp_path / "vcluster.yaml"
    config.write_text("")
    result = run("compile-patches", str(config))
    assert result.exit_code == 1 and "the file is empty" in result.stderr


def test_missing_file_in_json_format_prints_json_and_the_others_are_checked(tmp_path):
    config = tmp_path / "vcluster.yaml"
    config.write_text(UNTERMINATED)
    result = run("compile-patches", str(tmp_path / "missing.yaml"), str(config), "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    files = {d["file"] for d in document["diagnostics"]}
    assert files == {str(tmp_path / "missing.yaml"), str(config)}


def test_config_validate_warnings_have_a_line(tmp_path):
    platform = tmp_path / "platform.yaml"
    platform.write_text("platformHost: a.example.com\n# legacy\nworkspaceSubDomain: ws\n")
    result = run("config", "validate", str(platform))
    assert result.exit_code == 0
    assert f"{platform}:3:1: warning: workspaceSubDomain" in result.stderr
    assert "    3 | workspaceSubDomain: ws" in result.stderr


def test_every_kind_of_error_in_one_list_is_reported(tmp_path):
    config = tmp_path / "vcluster.yaml"
    config.write_text("""\
sync:
  toHost:
    endpoints:
      patches:
        - path: a
          expresion: '"x"'
        - path: b
          expression: '"y"'
        - path: b
          expression: '"z"'
        - path: c
          expression: 'value +'
""")
    result = run("compile-patches", str(config), "--format", "json")
    codes = {d["code"] for d in json.loads(result.stdout)["diagnostics"]}
    assert codes == {"unknown-field", "duplicate-path", "expression-syntax"}


CASES = """\
config: vcluster.yaml
resource: endpoints
cases:
  - name: good
    input: {subsets: [{ports: [{name: http}]}]}
    expected: {subsets: [{ports: [{name: host-http}]}]}
  - name: typo
    input: {}
    expectd: {}
  - name: wants an error
    input: {subsets: [{ports: [{name: http}]}]}
    expectedError: TypeError
"""


def test_test_command_unknown_key_is_located_and_the_other_cases_run(tmp_path):
    shutil.copy(ENDPOINTS_CONFIG, tmp_path / "vcluster.yaml")
    (tmp_path / "cases.yaml").write_text(CASES)
    result = run("test", str(tmp_path / "cases.yaml"))
    assert result.exit_code == 1
    assert f"{tmp_path / 'cases.yaml'}:9:5:" in result.stdout
    assert "'expectd' (did you mean 'expected'?)" in result.stdout
    assert "    9 |     expectd: {}" in result.stdout
    assert "1 passed" in result.stdout
    document = json.loads(run("test", str(tmp_path / "cases.yaml"), "--format", "json").stdout)
    assert [(e["line"], e["column"], e["excerpt"]) for e in document["invalid"]] == [(9, 5, "    expectd: {}")]


def test_test_command_failed_expected_error_shows_what_happened(tmp_path):
    shutil.copy(ENDPOINTS_CONFIG, tmp_path / "vcluster.yaml")
    (tmp_path / "cases.yaml").write_text(CASES)
    result = run("test", str(tmp_path / "cases.yaml"), "--format", "json")
    case = next(c for c in json.loads(result.stdout)["cases"] if c["name"] == "wants an error")
    assert case["status"] == "fail"
    assert "the patch succeeded" in case["message"] and "host-http" in case["message"]


def test_test_table_does_not_cut_long_file_names(tmp_path):
    folder = tmp_path / ("a-rather-long-folder-name-for-patch-test-cases-" * 2)
    folder.mkdir()
    shutil.copy(ENDPOINTS_CONFIG, folder / "vcluster.yaml")
    (folder / "endpoints-port-names-get-the-host-prefix.yaml").write_text(CASES.split("  - name: typo")[0])
    result = run("test", str(folder))
    assert result.exit_code == 0, result.output
    assert str(folder / "endpoints-port-names-get-the-host-prefix.yaml") in result.stdout


# --- the commands themselves ------------------------------------------------------------------------

def test_syncpatch_alone_prints_help_and_succeeds():
    result = run()
    assert result.exit_code == 0
    assert "Commands:" in result.stdout and "compile-patches" in result.stdout


def test_versions():
    assert run("--version").stdout.strip().endswith(syncpatch.__version__)
    with pytest.raises(SystemExit) as info:
        compile_patches_main(["--version"])
    assert info.value.code == 0


@pytest.mark.parametrize("command", [["compile-patches"], ["apply"], ["test"], ["schema"], ["eval"],
                                     ["config"], ["config", "validate"], ["config", "show"], ["serve"]])
def test_every_command_has_help_with_examples(command):
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout
    assert run(*command, "-h").exit_code == 0


def test_dir_shows_the_api():
    names = dir(syncpatch)
    for name in ("compile_expression", "compile_patches", "compile_config", "load_plans", "UNDEFINED",
                 "UnknownResourceError", "__version__"):
        assert name in names


def test_gitignore_covers_what_the_readme_creates():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    for entry in ("/plans.py", "/platform-data/", "/vcluster-sync.schema.json", "/first-patch/"):
        assert entry in ignored


def test_docs_call_undeclared_globals_errors_as_the_build_does(tmp_path):
    config = tmp_path / "vcluster.yaml"
    config.write_text("sync:\n  toHost:\n    configMaps:\n      patches:\n"
                      "        - path: metadata.name\n          expression: patched-config\n")
    document = json.loads(run("compile-patches", str(config), "--format", "json").stdout)
    assert {d["severity"] for d in document["diagnostics"] if d["code"] == "undeclared-global"} == {"error"}
    patches_doc = (ROOT / "docs" / "patches.md").read_text()
    assert "`compile-patches` warns about it" not in patches_doc
    assert "DECISIONS.md" not in patches_doc


@pytest.mark.parametrize("text, what", [
    ("hello\n", "<stdin> is a string"), ("[a, b]\n", "<stdin> is a list"),
    ("kind: List\nitems: [1]\n", "items[0] is a number"), ("a: 1\n---\n7\n", "document 2 of <stdin> is a number"),
])
def test_apply_input_that_is_no_object_is_a_usage_error(text, what):
    result = run("apply", "--config", ENDPOINTS_CONFIG, "--resource", "endpoints", "-", input=text)
    assert result.exit_code == 2
    assert what in result.stderr and "a mapping, or a kind: List" in result.stderr
    assert result.stdout == ""


def test_load_plans_refuses_a_python_file_that_is_not_an_artifact_without_running_it(tmp_path):
    marker = tmp_path / "ran"
    script = tmp_path / "plans.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('x')\nCONFIGS = {{}}\nARTIFACT_FORMAT = 1\n")
    with pytest.raises(ImportError, match="not a syncpatch artifact"):
        syncpatch.load_plans(script)
    assert not marker.exists()


def test_the_loader_and_the_writer_agree_on_the_header():
    from syncpatch.cli.apply_cmd import ARTIFACT_MARKER
    from syncpatch.loader import ARTIFACT_HEADER

    assert ARTIFACT_MARKER == ARTIFACT_HEADER
    assert ARTIFACT_HEADER in (ROOT / "patches" / "artifact.py").read_text()
