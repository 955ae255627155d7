"""Math against node's answers: edge cases (-0, NaN, coercion order) and, bit for bit,
V8's fdlibm-derived transcendental functions on random doubles."""

import math

import pytest

from syncpatch.runtime.stdlib.math import MATH, js_pow
from syncpatch.runtime.values import UNDEFINED

from .numeric_direct import rows, run_row


@pytest.mark.parametrize("row", rows("math"))
def test_math_edge_cases(row):
    run_row(row)


@pytest.mark.parametrize("row", rows("math_random"))
def test_math_random_inputs(row):
    run_row(row)


def test_random_is_in_unit_interval():
    for _ in range(100):
        r = MATH["random"].call(UNDEFINED)
        assert type(r) is float and 0 <= r < 1


def test_all_arguments_are_coerced_before_nan_wins():
    seen = []

    class Spy:
        pass

    from syncpatch.runtime import convert

    def hook(obj, hint):
        seen.append(hint)
        return 1

    old = convert._to_primitive_hook
    convert.set_to_primitive_hook(hook)
    try:
        assert math.isnan(MATH["max"].call(UNDEFINED, math.nan, Spy(), Spy()))
    finally:
        convert.set_to_primitive_hook(old)
    assert seen == ["number", "number"]


def test_constants():
    assert MATH["PI"] == math.pi and MATH["E"] == math.e
    assert MATH["LN10"] == 2.302585092994046 and MATH["SQRT1_2"] == 0.7071067811865476


def test_js_pow_is_shared_with_the_operator():
    assert math.isnan(js_pow(1, math.inf))
    assert js_pow(10, -5) == 9.999999999999999e-06


def test_exponent_operator_matches_v8():
    from syncpatch import compile_expression

    assert compile_expression("10 ** -5")(None, context={}) == 9.999999999999999e-06
    assert compile_expression("1.1 ** 100")(None, context={}) == 13780.612339822383
