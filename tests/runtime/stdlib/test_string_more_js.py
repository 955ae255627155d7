"""Node-verified expression table of patch idioms over strings, regexes, URIs and base64:
cases/textlib_more.json (regenerate with gen_textlib_direct.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("textlib_more"))
def test_string_idioms(row):
    run_case(row)
