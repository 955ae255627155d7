"""RegExp syntax, exec/test, lastIndex, constructor and literal validation, against
node-verified rows (cases/textlib_direct.json)."""

import pytest

from .textlib_direct import load, run_row


@pytest.mark.parametrize("row", load("regexp"))
def test_regexp(row):
    run_row(row)
