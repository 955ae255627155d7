"""Node-verified expression table: cases/object_fuzz.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("object_fuzz"))
def test_object_fuzz(row):
    run_case(row)
