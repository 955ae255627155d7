"""Number, Number.prototype and parseInt/parseFloat/isNaN/isFinite against node's answers."""

import math

import pytest

from syncpatch.runtime.stdlib.wrappers import NumberObject
from syncpatch.runtime.stdlib import number as N
from syncpatch.runtime.stdlib.registry import GLOBALS

from .numeric_direct import rows, run_row


@pytest.mark.parametrize("row", rows("number"))
def test_number_format(row):
    run_row(row)


@pytest.mark.parametrize("row", rows("number_random"))
def test_number_format_random_doubles(row):
    run_row(row)


@pytest.mark.parametrize("row", rows("number_parse"))
def test_number_parse(row):
    run_row(row)


def test_statics_are_the_global_functions():
    number = GLOBALS["Number"]
    assert number.props["parseInt"] is GLOBALS["parseInt"]
    assert number.props["parseFloat"] is GLOBALS["parseFloat"]
    assert number.props["MAX_SAFE_INTEGER"] == 2**53 - 1
    assert number.props["EPSILON"] == 2.0**-52
    assert number.props["MIN_VALUE"] == 5e-324
    assert math.isnan(number.props["NaN"])


def test_new_number_returns_a_wrapper_object():
    assert type(GLOBALS["Number"].construct("12")) is NumberObject
    assert GLOBALS["Number"].construct("12").value == 12
    assert GLOBALS["Number"].construct().value == 0


@pytest.mark.parametrize(
    "x, digits, text",
    [(0.5, 0, "1"), (1.5, 0, "2"), (2.5, 0, "3"), (-2.5, 0, "-3"), (1.005, 2, "1.00"), (8.345, 2, "8.35")],
)
def test_to_fixed_ties_use_the_exact_binary_value(x, digits, text):
    assert N.to_fixed(x, digits) == text


def test_string_to_number_is_ascii_only():
    # convert.string_to_number's regex uses Unicode \d; Number() goes through the fixed one
    assert math.isnan(N.to_number("\u0661"))
    assert N.to_number(" 0x10 ") == 16


def test_core_to_string_of_large_integral_doubles():
    from syncpatch.runtime.convert import to_string

    assert to_string(2.0**63) == "9223372036854776000"
    assert to_string(2.0**60) == "1152921504606847000"


def test_core_string_to_number_is_ascii_only():
    from syncpatch.runtime.convert import to_number

    assert math.isnan(to_number("\u0661"))
