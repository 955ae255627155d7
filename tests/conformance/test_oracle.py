"""The public oracle corpus (node-evaluated) through the public API, both exits.

Families owned by the language core must pass; built-in library families are marked
xfail(strict=False) until they pass. Each case runs through ``compile_expression`` (the
in-process closure) and through the artifact form (``compile_to_module_source``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import syncpatch
from syncpatch import CompileError, EvaluationError, compile_expression

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from oracle_canon import canon, decode_input  # noqa: E402 - the oracle's tagged forms, shared
from syncpatch.compiler import compile_to_module_source
from syncpatch.runtime.realm import Realm

CORPUS = Path("/work/shared/oracle/public.jsonl")
LANGUAGE_FAMILIES = {
    "equality", "arithmetic", "relational", "truthiness_typeof", "nullish_logical", "optional_chaining",
    "object_literals", "destructuring_arrows", "template_literals", "in_operator", "function_bodies",
    "compile_errors", "runtime_errors", "number_format",
}


#: built-in library families that pass completely: they are must-pass too (no regressions)
LIBRARY_FAMILIES_PASSING = {
    "array_methods", "array_sort", "base64", "json_parse", "json_stringify", "k8s_idioms", "math",
    "number_parse", "object_static", "regex_match", "regex_replace", "regex_test_exec", "string_replace",
    "string_search", "string_slice", "string_split_join", "string_transform", "unicode", "uri_functions",
}


def same(a: Any, b: Any) -> bool:
    """Equal including key order and int-vs-float (2 vs 2.0)."""
    return json.dumps(a) == json.dumps(b)


def _cases() -> list[Any]:
    if not CORPUS.exists():
        return []
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        marks = [] if case["family"] in LANGUAGE_FAMILIES or case["family"] in LIBRARY_FAMILIES_PASSING \
            or case["family"].startswith("random_") else [pytest.mark.xfail(strict=False, reason="library family")]
        out.append(pytest.param(case, id=case["id"], marks=marks))
    return out


def run_closure(case: dict[str, Any]) -> Any:
    try:
        fn = compile_expression(case["expr"])
    except CompileError:
        return {"$compile_error": True}
    try:
        return canon(fn(decode_input(case["value"]), decode_input(case["context"])))
    except EvaluationError as exc:
        return {"$error": exc.js_name}


def run_module(case: dict[str, Any]) -> Any:
    """The artifact exit: module text, imported with the normal import system."""
    try:
        text = compile_to_module_source(case["expr"])
    except CompileError:
        return {"$compile_error": True}
    namespace: dict[str, Any] = {}
    exec(compile(text, "<artifact>", "exec"), namespace)  # noqa: S102
    from syncpatch.runtime import realm as realm_mod
    from syncpatch.runtime.interop import to_js, to_python
    from syncpatch.runtime.values import JSThrow

    realm = Realm()
    previous = getattr(realm_mod._local, "realm", None)
    realm_mod._local.realm = realm
    try:
        result = namespace["_main"](realm, to_js(decode_input(case["value"])), to_js(decode_input(case["context"])), True)
        return canon(to_python(result))
    except JSThrow as exc:
        return {"$error": syncpatch.expression._from_throw(exc.value).js_name}
    except Exception as exc:  # noqa: BLE001
        return {"$error": syncpatch.expression._translate(exc, {}).js_name}
    finally:
        realm_mod._local.realm = previous


@pytest.mark.skipif(not CORPUS.exists(), reason="oracle corpus not present")
@pytest.mark.parametrize("case", _cases())
def test_closure_matches_node(case: dict[str, Any]) -> None:
    got = run_closure(case)
    assert same(got, case["expect"]), f"{case['expr']!r}: got {got!r}, node says {case['expect']!r}"


@pytest.mark.skipif(not CORPUS.exists(), reason="oracle corpus not present")
@pytest.mark.parametrize("case", _cases())
def test_artifact_matches_node(case: dict[str, Any]) -> None:
    got = run_module(case)
    assert same(got, case["expect"]), f"{case['expr']!r}: got {got!r}, node says {case['expect']!r}"
