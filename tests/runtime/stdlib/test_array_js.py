"""Node-verified expression table: cases/array.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("array"))
def test_array(row):
    run_case(row)
