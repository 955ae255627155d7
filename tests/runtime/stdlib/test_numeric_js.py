"""Node-verified expression table: cases/numeric_js.json (Number, Math, JSON, Date, Boolean
through the compiler; regenerate with ``gen_js_cases.py numeric_js``)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("numeric_js"))
def test_numeric_js(row):
    run_case(row)
