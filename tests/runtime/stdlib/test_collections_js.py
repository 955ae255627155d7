"""Node-verified expression table: cases/collections.json (regenerate with gen_js_cases.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("collections"))
def test_collections(row):
    run_case(row)
