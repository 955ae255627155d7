"""Node-verified expression table: cases/regexp.json (regenerate with gen_textlib_direct.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("regexp"))
def test_regexp_expressions(row):
    run_case(row)
