"""The boundary: inputs never mutated, numbers canonical, key order as JS, UNDEFINED kept."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from syncpatch import UNDEFINED, compile_expression
from syncpatch.runtime.interop import to_js, to_python


@pytest.mark.parametrize(
    "source",
    [
        "value.a.push(4); value",
        "value.a.sort((x, y) => y - x); value.b.c = 9; delete value.d; value",
        "Object.assign(value, {z: 1}); value.a.reverse(); value",
        "context.vcluster.name = 'x'; context.vcluster",
        "const v = value; v.a.length = 0; v",
        "[value.a].flat().fill(0); value",
        "const f = o => { o.b.c = 1 }; f(value); value",
    ],
)
def test_inputs_are_never_mutated(source: str) -> None:
    value = {"a": [3, 1, 2], "b": {"c": 1}, "d": True}
    context = {"vcluster": {"name": "vc", "namespace": "ns"}}
    before = copy.deepcopy((value, context))
    compile_expression(source)(value, context)
    assert (value, context) == before


def test_numbers_come_back_canonical() -> None:
    assert compile_expression("[1.0 * 2, 0.5, 2**53, 2**53 + 2, -0, 1/0, 0/0]")() == [
        2, 0.5, 9007199254740992, 9007199254740994.0, -0.0, math.inf, pytest.approx(math.nan, nan_ok=True)]
    result = compile_expression("[6 / 2, 7 / 2]")()
    assert type(result[0]) is int and type(result[1]) is float
    assert type(compile_expression("value")(3.0)) is int


def test_key_order_is_js_order() -> None:
    assert list(compile_expression("({b: 1, 2: 'x', a: 1, 1: 'y'})")()) == ["1", "2", "b", "a"]
    assert list(to_python({"b": 1, "1": 2})) == ["1", "b"]


def test_undefined_in_and_out() -> None:
    assert compile_expression("value")(UNDEFINED) is UNDEFINED
    assert compile_expression("typeof value")(UNDEFINED) == "undefined"
    assert compile_expression("({a: undefined})")() == {"a": UNDEFINED}
    assert compile_expression("value === undefined")() is True


def test_surrogates_are_joined() -> None:
    assert compile_expression("'\\uD83D' + '\\uDE00'")() == "\U0001f600"
    assert compile_expression("value.length")("\ud83d\ude00") == 2
    assert to_js(["\ud83d\ude00"]) == ["\U0001f600"]


def test_unchanged_results_are_not_rebuilt() -> None:
    value: dict[str, Any] = {"a": [1, 2], "b": {"c": "d"}}
    assert to_python(value) is value


def test_tuples_and_non_string_keys_are_converted_when_copying() -> None:
    assert compile_expression("value.length")((1, 2)) == 2
    assert to_js({2: "a", False: "b"}) == {"2": "a", "false": "b"}
    assert to_js({"x": (1, 2.0)}) == {"x": [1, 2]}


def test_the_plain_key_memo_is_bounded_and_exact():
    """Keys seen to start with no digit are remembered (so later objects need one C-level
    test), but only short ones and only so many; the answer is the same either way."""
    from syncpatch.runtime import interop

    long_key = "k" * 10_000
    assert interop.plain_keys({long_key: 1, "short": 2})
    assert long_key not in interop._PLAIN_KEYS_SEEN and "short" in interop._PLAIN_KEYS_SEEN
    assert interop.plain_keys({long_key: 1})  # still answered, by the loop
    assert not interop.plain_keys({"1": 1, "short": 2}) and not interop.plain_keys({1: "a"})
    assert len(interop._PLAIN_KEYS_SEEN) <= interop._PLAIN_KEYS_LIMIT
    assert interop.to_python({"b": 1, "10": 2, "2": 3}) == {"2": 3, "10": 2, "b": 1}
    assert list(interop.to_python({"b": 1, "10": 2, "2": 3})) == ["2", "10", "b"]
