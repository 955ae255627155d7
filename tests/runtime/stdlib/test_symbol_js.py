"""Node-verified expression table: cases/symbol.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("symbol"))
def test_symbol(row):
    run_case(row)
