"""uri built-ins called directly, against node-verified rows (cases/textlib_direct.json)."""

import pytest

from .textlib_direct import load, run_row


@pytest.mark.parametrize("row", load("uri"))
def test_uri(row):
    run_row(row)
