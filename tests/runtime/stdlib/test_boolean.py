"""Boolean and Boolean.prototype against node's answers."""

import pytest

from syncpatch.runtime.stdlib.registry import GLOBALS
from syncpatch.runtime.stdlib.wrappers import BooleanObject

from .numeric_direct import rows, run_row


@pytest.mark.parametrize("row", rows("boolean"))
def test_boolean(row):
    run_row(row)


def test_new_boolean_returns_a_wrapper_object():
    made = GLOBALS["Boolean"].construct(0)
    assert type(made) is BooleanObject and made.value is False
    assert GLOBALS["Boolean"].construct("x").value is True
