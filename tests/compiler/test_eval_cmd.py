"""`syncpatch eval`: the command-line face of compile_expression."""

from __future__ import annotations

import json

from click.testing import CliRunner

from syncpatch.cli.eval_cmd import eval_


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(eval_, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_prints_json() -> None:
    code, out, _ = run('"p-" + value', "--value", '"web"')
    assert code == 0 and json.loads(out) == "p-web"


def test_context_and_objects() -> None:
    code, out, _ = run("({name: context.vcluster.name, n: value.length})", "--value", "[1,2]",
                       "--context", '{"vcluster": {"name": "vc"}}')
    assert code == 0 and json.loads(out) == {"name": "vc", "n": 2}


def test_undefined() -> None:
    code, out, _ = run("value.nope", "--value", "{}")
    assert code == 0 and out.strip() == "undefined"


def test_evaluation_error_exits_1() -> None:
    code, _, err = run("value.a.b", "--value", "{}")
    assert code == 1 and "TypeError: Cannot read properties of undefined (reading 'b')" in err


def test_compile_error_exits_1_with_caret() -> None:
    code, _, err = run("value +")
    assert code == 1 and "<eval>:1:8: Unexpected end of input" in err and "^" in err


def test_bad_json_is_a_usage_error() -> None:
    code, _, _ = run("value", "--value", "{nope")
    assert code == 2
