"""`compile-patches` and `syncpatch test` over examples/ with the real compiler (what `make demo`
runs). Skipped until the compiler stage has landed."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from syncpatch.cli import cli
from syncpatch.patches.build import example_configs

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"



def test_examples_compile_without_errors():
    configs = [str(p) for p in example_configs(EXAMPLES)]
    result = CliRunner().invoke(cli, ["compile-patches", *configs, "--tests", str(EXAMPLES / "tests"),
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    assert '"errors": 0' in result.stdout


def test_examples_artifact_written(tmp_path):
    configs = [str(p) for p in example_configs(EXAMPLES)]
    out = tmp_path / "plans.py"
    result = CliRunner().invoke(cli, ["compile-patches", *configs, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists()


def test_bare_word_is_an_error_with_the_string_hint(tmp_path):
    config = tmp_path / "vcluster.yaml"
    config.write_text(
        "sync:\n  toHost:\n    configMaps:\n      patches:\n"
        "        - path: metadata.labels[\"tier\"]\n          expression: vcp-eks\n")
    result = CliRunner().invoke(cli, ["compile-patches", str(config)])
    assert result.exit_code == 1
    assert f"{config}:6:23: error[undeclared-global]" in result.stderr
    assert 'did you mean the string "vcp-eks"?' in result.stderr


def test_syntax_error_inside_block_scalar(tmp_path):
    config = tmp_path / "vcluster.yaml"
    config.write_text(
        "sync:\n  toHost:\n    endpoints:\n      patches:\n        - path: a\n          expression: |\n"
        "            const x = value;\n            x +* 2\n")
    result = CliRunner().invoke(cli, ["compile-patches", str(config), "--format", "json"])
    assert result.exit_code == 1
    import json

    (diag,) = json.loads(result.stdout)["diagnostics"]
    assert (diag["line"], diag["column"], diag["code"]) == (8, 16, "expression-syntax")


def test_examples_tests_pass():
    result = CliRunner().invoke(cli, ["test", str(EXAMPLES / "tests")])
    assert result.exit_code == 0, result.output
    assert " 0 failed" in result.output


def test_apply_with_artifact_equals_apply_with_config(tmp_path):
    config = EXAMPLES / "endpoints-prefix.yaml"
    out = tmp_path / "plans.py"
    assert CliRunner().invoke(cli, ["compile-patches", str(config), "-o", str(out)]).exit_code == 0
    obj = str(EXAMPLES / "objects" / "endpoints.yaml")
    common = ["--resource", "endpoints", "--vcluster-name", "vc", "-o", "json", obj]
    via_config = CliRunner().invoke(cli, ["apply", "--config", str(config), *common])
    via_artifact = CliRunner().invoke(cli, ["apply", "--artifact", str(out), *common])
    assert via_config.exit_code == via_artifact.exit_code == 0, via_artifact.output
    assert via_artifact.stdout == via_config.stdout
    assert '"host-http"' in via_artifact.stdout


def test_demo_entry_point(capsys):
    from syncpatch.patches.build import demo_main

    assert demo_main() == 0
    out = capsys.readouterr()
    assert "$ compile-patches " in out.out and "endpoints-prefix.yaml" in out.out
    assert "$ syncpatch test " in out.out
    assert "0 failed" in out.out
    assert "wrote " in out.err
