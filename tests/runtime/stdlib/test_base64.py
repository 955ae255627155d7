"""base64 built-ins called directly, against node-verified rows (cases/textlib_direct.json)."""

import pytest

from .textlib_direct import load, run_row


@pytest.mark.parametrize("row", load("base64"))
def test_base64(row):
    run_row(row)
