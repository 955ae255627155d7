"""Node-verified expression table: cases/errors.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("errors"))
def test_errors(row):
    run_case(row)
