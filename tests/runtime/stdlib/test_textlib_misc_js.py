"""Node-verified expression table for URI functions, base64 and localeCompare:
cases/textlib_misc.json (regenerate with gen_textlib_direct.py)."""

import pytest

from .js_cases import load, run_case


@pytest.mark.parametrize("row", load("textlib_misc"))
def test_uri_base64_collation_expressions(row):
    run_case(row)
