"""Operators on the value model, table-driven; expectations are node's answers."""

from __future__ import annotations

import math
from typing import Any

import pytest

from syncpatch.runtime import ops
from syncpatch.runtime.values import UNDEFINED

NAN = math.nan
INF = math.inf


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if a != a:
            return b != b
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize(
    ("fn", "a", "b", "expected"),
    [
        (ops.add, 1, 2, 3),
        (ops.add, 2**53, 2, 9007199254740994.0),
        (ops.add, 0.1, 0.2, 0.30000000000000004),
        (ops.add, 1.5, 1.5, 3),
        (ops.add, "a", 1, "a1"),
        (ops.add, 1, "a", "1a"),
        (ops.add, [1, 2], {}, "1,2[object Object]"),
        (ops.add, None, 1, 1),
        (ops.add, UNDEFINED, 1, NAN),
        (ops.add, True, True, 2),
        (ops.add, "\ud83d", "\ude00", "\U0001f600"),
        (ops.sub, "5", "2", 3),
        (ops.sub, 0, 0, 0),
        (ops.mul, -3, 0, -0.0),
        (ops.mul, 0.1, 3, 0.30000000000000004),
        (ops.mul, 2**40, 2**40, 1.2089258196146292e24),
        (ops.div, 1, 0, INF),
        (ops.div, -1, 0, -INF),
        (ops.div, 0, 0, NAN),
        (ops.div, 1, -0.0, -INF),
        (ops.div, 0, -5, -0.0),
        (ops.div, 6, 3, 2),
        (ops.div, 1, 3, 0.3333333333333333),
        (ops.mod, 5, -3, 2),
        (ops.mod, -5, 3, -2),
        (ops.mod, -6, 3, -0.0),
        (ops.mod, 5.5, 2, 1.5),
        (ops.mod, 5, 0, NAN),
        (ops.mod, INF, 2, NAN),
        (ops.mod, 5, INF, 5),
        (ops.power, 2, 10, 1024),
        (ops.power, 2, -1, 0.5),
        (ops.power, 1, INF, NAN),
        (ops.power, NAN, 0, 1),
        (ops.power, -8, 1 / 3, NAN),
        (ops.power, 0, -1, INF),
        (ops.power, -0.0, -1, -INF),
        (ops.power, 10, 400, INF),
        (ops.power, -10, 401, -INF),
        (ops.shl, 1, 31, -2147483648),
        (ops.shl, 1, 32, 1),
        (ops.sar, -16, 2, -4),
        (ops.shr, -1, 0, 4294967295),
        (ops.shr, -16, 28, 15),
        (ops.bit_or, 2147483648, 0, -2147483648),
        (ops.bit_or, 4294967296, 0, 0),
        (ops.bit_or, -3.7, 0, -3),
        (ops.bit_and, NAN, 1, 0),
        (ops.bit_xor, "12", 5, 9),
    ],
)
def test_binary_arithmetic(fn: Any, a: Any, b: Any, expected: Any) -> None:
    assert same(fn(a, b), expected)


@pytest.mark.parametrize(
    ("fn", "a", "b", "expected"),
    [
        (ops.lt, "a", "b", True),
        (ops.lt, "B", "a", True),
        (ops.lt, "10", "9", True),
        (ops.lt, "10", 9, False),
        (ops.lt, UNDEFINED, 1, False),
        (ops.lt, None, 1, True),
        (ops.ge, None, 0, True),
        (ops.ge, 1, NAN, False),
        (ops.le, NAN, NAN, False),
        (ops.gt, [2], 1, True),
        (ops.lt, "\uffff", "\U0001f600", False),
        (ops.lt, "\ud83d", "\U0001f600", True),
        (ops.loose_eq, 1, "1", True),
        (ops.loose_eq, 0, "", True),
        (ops.loose_eq, "0", False, True),
        (ops.loose_eq, None, False, False),
        (ops.loose_eq, None, UNDEFINED, True),
        (ops.loose_eq, [], False, True),
        (ops.loose_eq, [1], 1, True),
        (ops.loose_eq, NAN, NAN, False),
        (ops.strict_eq, 1, 1.0, True),
        (ops.strict_eq, -0.0, 0, True),
        (ops.strict_eq, True, 1, False),
        (ops.strict_eq, {}, {}, False),
        (ops.strict_ne, "a", "a", False),
    ],
)
def test_comparisons(fn: Any, a: Any, b: Any, expected: bool) -> None:
    assert fn(a, b) is expected


@pytest.mark.parametrize(
    ("fn", "a", "expected"),
    [
        (ops.neg, 0, -0.0),
        (ops.neg, "3", -3),
        (ops.neg, -0.0, 0),
        (ops.pos, "  12  ", 12),
        (ops.pos, "", 0),
        (ops.pos, "0x10", 16),
        (ops.pos, "1e3", 1000),
        (ops.pos, [5], 5),
        (ops.pos, {}, NAN),
        (ops.pos, True, 1),
        (ops.bit_not, 5, -6),
        (ops.bit_not, 3.7, -4),
        (ops.inc, 2**53, 9007199254740992.0),
        (ops.dec, "1", 0),
    ],
)
def test_unary(fn: Any, a: Any, expected: Any) -> None:
    assert same(fn(a), expected)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, "object"), (UNDEFINED, "undefined"), ([], "object"), ("", "string"), (1.5, "number"),
     (True, "boolean"), ({}, "object")],
)
def test_typeof(value: Any, expected: str) -> None:
    assert ops.typeof(value) == expected


def test_user_to_primitive_methods() -> None:
    from syncpatch import compile_expression

    assert compile_expression("({valueOf() { return 42 }}) + 1")() == 43
    assert compile_expression("`${{toString() { return 'x' }}}`")() == "x"
    assert compile_expression("[1, [2, 3]] + ''")() == "1,2,3"


def test_to_primitive_failure_is_a_type_error() -> None:
    from syncpatch import EvaluationError, compile_expression

    with pytest.raises(EvaluationError) as info:
        compile_expression("({valueOf: () => ({}), toString: () => ({})}) + 1")()
    assert info.value.js_name == "TypeError"


def test_instanceof_and_in() -> None:
    from syncpatch import EvaluationError, compile_expression

    assert compile_expression("[[] instanceof Array, new TypeError('x') instanceof Error, 1 instanceof Number]")() == [
        True, True, False]
    assert compile_expression("['a' in {a: 1}, 0 in [5], 'length' in []]")() == [True, True, True]
    with pytest.raises(EvaluationError, match="Cannot use 'in' operator"):
        compile_expression("'a' in 'abc'")()
    with pytest.raises(EvaluationError, match="Right-hand side of 'instanceof'"):
        compile_expression("1 instanceof 2")()


@pytest.mark.parametrize("source, expected", [
    ("'map' in []", True),  # Array.prototype's own method
    ("'hasOwnProperty' in []", True),  # Object.prototype, further up the chain
    ("'customer' in ['customer']", False),  # a membership test by mistake: no such key
    ("null in ['null']", False),
    ("undefined in []", False),
    ("'length' in []", True),
    ("'0' in ['a']", True),
    ("'1' in ['a']", False),
    ("Array.prototype.extra = 1; 'extra' in []", True),  # a patched realm takes the full lookup
    ("Object.prototype.extra = 1; 'extra' in []", True),
])
def test_in_on_an_array(source: str, expected: bool) -> None:
    from syncpatch import Budgets, compile_expression

    assert compile_expression(source, budgets=Budgets())() is expected
