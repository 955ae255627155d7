"""Node-verified expression table: cases/object.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("object"))
def test_object(row):
    run_case(row)


@pytest.mark.parametrize("row", [p for p in load("object") if "String(" in p.values[0]["expr"] or "Object." in p.values[0]["expr"]])
def test_object_on_the_general_tier(row):
    """The same rows with the general tier forced (the native tier answers many of them)."""
    from syncpatch import Budgets

    run_case(row, Budgets())
