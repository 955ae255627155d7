"""Boolean and Boolean.prototype against node's answers."""

import pytest

from syncpatch.runtime.stdlib.registry import GLOBALS

from .numeric_direct import rows, run_row


@pytest.mark.parametrize("row", rows("boolean"))
def test_boolean(row):
    run_row(row)


def test_new_boolean_returns_the_primitive():
    assert GLOBALS["Boolean"].construct(0) is False
    assert GLOBALS["Boolean"].construct("x") is True
