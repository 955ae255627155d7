"""Node-verified expression table: cases/object.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("object"))
def test_object(row):
    run_case(row)
