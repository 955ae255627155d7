"""The public oracle corpus (node-evaluated) through the public API, both exits.

Every case must agree with node. Each case runs through ``compile_expression`` (the
in-process closure) and through the artifact form (``compile_to_module_source``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import syncpatch
from syncpatch import CompileError, EvaluationError, compile_expression

from syncpatch.compiler import compile_to_module_source
from syncpatch.runtime.realm import Realm

from ..support.data import ORACLE_CORPUS, require_data
from ..support.oracle_canon import canon, decode_input  # the oracle's tagged forms, shared

CORPUS = require_data(ORACLE_CORPUS)


def same(a: Any, b: Any) -> bool:
    """Equal including key order and int-vs-float (2 vs 2.0)."""
    return json.dumps(a) == json.dumps(b)


def _cases() -> list[Any]:
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        out.append(pytest.param(case, id=case["id"]))
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


@pytest.mark.parametrize("case", _cases())
def test_closure_matches_node(case: dict[str, Any]) -> None:
    got = run_closure(case)
    assert same(got, case["expect"]), f"{case['expr']!r}: got {got!r}, node says {case['expect']!r}"


@pytest.mark.parametrize("case", _cases())
def test_artifact_matches_node(case: dict[str, Any]) -> None:
    got = run_module(case)
    assert same(got, case["expect"]), f"{case['expr']!r}: got {got!r}, node says {case['expect']!r}"
