"""Node-verified expression table: cases/string.json (regenerate with gen_textlib_direct.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("string"))
def test_string_expressions(row):
    run_case(row)
