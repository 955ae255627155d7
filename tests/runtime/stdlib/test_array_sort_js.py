"""Node-verified expression table: cases/array_sort.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("array_sort"))
def test_array_sort(row):
    run_case(row)
