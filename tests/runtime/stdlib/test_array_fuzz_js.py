"""Node-verified expression table: cases/array_fuzz.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("array_fuzz"))
def test_array_fuzz(row):
    run_case(row)
