"""The sandbox holds in the artifact exit too: every hostile row, through the generated source.

``compile-patches`` artifacts run the module the compiler emits (``compiler/emit.py``),
printed as text and run at import, where ``syncpatch.Expression`` runs it in process. Each
table row (results, JS errors, limits, compile errors, leak
filter, input deep-compare) runs here through that exit, with the row's budgets per call.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path
from typing import Any

import pytest

from .sec_harness import Case, check

HERE = Path(__file__).parent
TABLES = ["test_python_attributes", "test_code_from_strings_and_globals", "test_prototype_pollution",
          "test_getters_and_define_property", "test_resource_bombs", "test_input_mutation", "test_leaks"]


def artifact_compiler(src: str, budgets: Any) -> Any:
    from syncpatch.patches import build

    emitted = build._module_source(src)  # the artifact's per-expression exit (CompileError as the closure)
    namespace: dict[str, Any] = {}
    text = ast.unparse(ast.fix_missing_locations(emitted.module))
    exec(compile(text, "<artifact>", "exec"), namespace)  # noqa: S102 - generated code, as an artifact runs it
    fn = namespace[emitted.entry]
    return lambda value, context: fn(value, context, budgets=budgets)


def _cases() -> list[Any]:
    out = []
    for stem in TABLES:
        module = importlib.import_module(f".{stem}", __package__)
        for case in module.CASES:
            marks = [pytest.mark.xfail(strict=True, reason=f"bug: {case.bug}")] if case.bug else []
            out.append(pytest.param(case, id=f"{stem[5:]}::{case.id}", marks=marks))
    return out


@pytest.mark.parametrize("case", _cases())
def test_row_through_artifact_exit(case: Case) -> None:
    check(case, artifact_compiler)
