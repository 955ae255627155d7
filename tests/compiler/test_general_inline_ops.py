"""The general tier's inline ``+``, ``-``, comparisons and ``=== n`` (``ExprGen.plus_fast``,
``int_fast``) answer exactly as the runtime functions they skip (``ops.add``, ``ops.sub``, ...)
for every type: ints past the inline range and past 2**53, floats, -0, non-ASCII and
surrogate halves that join, long strings that need the string budget, mixed types.

The oracle is the runtime function itself, called directly on the same operands; the
expressions are compiled with ``budgets=Budgets()``, which forces the general tier."""

from __future__ import annotations

import ast
import math
from typing import Any

import pytest

from syncpatch import Budgets, LimitExceeded, compile_expression
from syncpatch.compiler import generate_module
from syncpatch.runtime import ops
from syncpatch.runtime.interop import to_python
from syncpatch.runtime.values import UNDEFINED

GENERAL = Budgets()

OPERATORS = {"+": ops.add, "-": ops.sub, "*": ops.mul, "/": ops.div, "<": ops.lt, ">": ops.gt, "<=": ops.le, ">=": ops.ge,
             "===": ops.strict_eq, "!==": ops.strict_ne}

LIMIT = (1 << 30) - 1
OPERANDS: list[Any] = [
    0, 1, -1, 7, LIMIT, LIMIT + 1, -LIMIT, -LIMIT - 1, 2**52, 2**53 - 1, 2**53, -(2**53), 2**60,
    -0.0, 0.5, 1e308, math.inf, math.nan,
    "", "a", "10", "9", "é", "ü", "\ud83d", "\ude00", "😀", "x" * 4000, "y" * 200,
    True, False, None, UNDEFINED, [1], {"k": 1},
]


def same(a: Any, b: Any) -> bool:
    """Equal as JS values are told apart: type, -0 and NaN included."""
    if type(a) is float and type(b) is float:
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return type(a) is type(b) and a == b


def general(source: str) -> Any:
    return compile_expression(source, budgets=GENERAL)


def generated(source: str) -> str:
    return ast.unparse(generate_module(source).module)


@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_two_operands_agree_with_the_runtime_function(op: str) -> None:
    fn = general(f"value.a {op} value.b")
    for a in OPERANDS:
        for b in OPERANDS:
            expected = to_python(OPERATORS[op](a, b))  # (as results come out of a call)
            got = fn({"a": a, "b": b})
            assert same(got, expected), (op, a, b, got, expected)


@pytest.mark.parametrize("op", sorted(OPERATORS))
@pytest.mark.parametrize("k", [0, 1, 2, 3, -2, 1 << 22, (1 << 22) + 1, LIMIT])
def test_an_int_constant_on_either_side_agrees_with_the_runtime_function(op: str, k: int) -> None:
    right, left = general(f"value {op} {k}"), general(f"({k}) {op} value")
    for v in OPERANDS:
        expected = to_python(OPERATORS[op](v, k))
        assert same(right(v), expected), (op, v, k, right(v), expected)
        expected = to_python(OPERATORS[op](k, v))
        assert same(left(v), expected), (op, k, v, left(v), expected)


def test_sums_past_two_to_the_53_become_the_double_js_holds() -> None:
    assert general("value + 1")(2**53) == 2**53 and type(general("value + 1")(2**53)) is int
    assert general("value.a + value.b")({"a": 2**53, "b": 2}) == 2**53 + 2  # (exact as a double)
    assert general("value.a + value.b")({"a": 2**53, "b": 1}) == 2**53  # (the nearest double)
    assert general("value - 1")(-(2**53)) == -(2**53)
    assert general("value.a - value.b")({"a": 2**60, "b": 1}) == float(2**60)


def test_surrogate_halves_join_and_non_ascii_concatenates() -> None:
    join = general("value.a + value.b")
    assert join({"a": "\ud83d", "b": "\ude00"}) == "😀"
    assert general("(value.a + value.b).length")({"a": "\ud83d", "b": "\ude00"}) == 2
    assert join({"a": "é", "b": "ü"}) == "éü"
    assert join({"a": "x😀", "b": "\ude00"}) == "x😀\ude00"


def test_negative_zero_is_kept() -> None:
    assert math.copysign(1, general("value.a + value.b")({"a": -0.0, "b": -0.0})) == -1
    assert general("value === 0")(-0.0) is True and general("value !== 0")(-0.0) is False
    assert general("value - 0")(0) == 0
    assert math.copysign(1, general("value * 2")(-0.0)) == -1 and math.copysign(1, general("value / 2")(-0.0)) == -1
    assert general("value * 2")(0) == 0 and math.copysign(1, general("value / 2")(0)) == 1
    assert math.copysign(1, general("value * -2")(0)) == -1 and math.copysign(1, general("value / -2")(0)) == -1


def test_a_doubling_string_still_meets_the_string_budget() -> None:
    double = compile_expression("let s = value; for (;;) s = s + s", budgets=Budgets(string_length=100_000))
    with pytest.raises(LimitExceeded) as info:
        double("ab")
    assert info.value.budget == "string_length"


def test_the_operators_are_inline() -> None:
    text = generated("[value + 1, value - 1, value < 2, value === 3, value.a + value.b, value.a < value.b, value * 2, value / 2]")
    assert "add(" in text and " + 1 if TYPE(" in text and " - 1 if TYPE(" in text and " * 2 if TYPE(" in text
    assert " // 2 if " in text
    assert " < 2 if TYPE(" in text and " == 3 if TYPE(" in text and "isascii()" in text


def test_long_chains_keep_the_calls() -> None:
    """Each inline link prints two brackets; a long chain stays within the printed-nesting
    bound with calls (and still compiles)."""
    chain = " + ".join(["value"] * 40)
    assert general(chain)(1) == 40
    assert generated(chain).count("add(") > 30


@pytest.mark.parametrize(("result", "truth"), [
    (True, 1), (False, 2), (0, 2), (-0.0, 2), (math.nan, 2), (1, 1), ("", 2), ("x", 1), (None, 2), (UNDEFINED, 2),
    ({}, 1), ([], 1),
])
def test_a_call_used_as_a_condition_is_tested_as_js_does(result: Any, truth: int) -> None:
    """A call's result as a condition: a bool is its own truth, the rest takes ``truthy``."""
    fn = general("(() => value.r)() ? 1 : 2")
    assert fn({"r": result}) == truth
    assert general("let n; if ((() => value.r)()) n = 1; else n = 2; n")({"r": result}) == truth
    assert "is True or" in generated("value.startsWith('www.') ? 1 : 2")


def test_a_chain_that_fits_only_as_calls_compiles_with_the_calls():
    """Inline forms print deeper than calls: a chain within the printed-nesting bound as
    calls but past it with the inline forms is generated with the calls, not refused."""
    from syncpatch.compiler.emit import MAX_PRINTED_NESTING

    terms = MAX_PRINTED_NESTING - 20
    f = compile_expression("+".join(["value"] * terms), budgets=Budgets())
    assert f(1) == terms
    assert f("ab") == "ab" * terms
