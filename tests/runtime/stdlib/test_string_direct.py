"""String built-ins called directly, against node-verified rows (cases/textlib_direct.json)."""

import pytest

from .textlib_direct import load, run_row


@pytest.mark.parametrize("row", load("string"))
def test_string(row):
    run_row(row)


@pytest.mark.parametrize("row", load("string_regex"))
def test_string_regex_methods(row):
    run_row(row)
