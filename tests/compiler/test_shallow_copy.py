"""Scripts that write only members of ``value`` itself get a shallow copy of ``value``
(copy mask 5); everything else that mutates keeps the deep copy. Inputs never change."""

from __future__ import annotations

import copy

import pytest

import syncpatch


def _mask(source: str) -> int:
    return syncpatch.compile_expression(source).compiled.facts.copy_mask


@pytest.mark.parametrize(
    ("source", "mask"),
    [
        ('value["k"]="v";value', 5),
        ("value.k = 1; value.k++; delete value.j; value", 5),
        ("value.k = context.x; value", 5),
        ('value["__proto__"] = {z: 1}; value.z', 5),
        ("value.a.b = 1; value", 1),
        ("let o = value; o.k = 1; o", 1),
        ("value.push(1); value", 1),
        ("value.x = [1]; value.x.push(2); value", 1),
        ("value = {}; value.k = 1; value", 1),
        ("(() => { value.k = 1 })(); value", 1),
        ("[value.a] = [1]; value", 1),
        ("for (value.k in {a: 1}) {} value", 1),
        ("value.k = 1; context.n = 2; value", 3),
        ('"k" in value', 0),
    ],
)
def test_copy_mask(source: str, mask: int) -> None:
    assert _mask(source) == mask


@pytest.mark.parametrize(
    ("source", "data"),
    [
        ('value["k"] = "v"; value', {"a": {"n": 1}, "b": [1, 2]}),
        ("value.a = 1; value.k = value; value.k.a", {"a": {"n": 1}}),
        ("value.n++; delete value.b; value", {"b": [1], "n": 1}),
        ("value.length = 0; value", [1, {"x": 2}]),
        ("value[0] = 5; value", [1, {"x": 2}]),
    ],
)
def test_shallow_copy_leaves_the_input_alone(source: str, data: object) -> None:
    before = copy.deepcopy(data)
    assert _mask(source) == 5
    syncpatch.compile_expression(source)(data)
    assert data == before


def test_shallow_copy_result_shares_untouched_members() -> None:
    data = {"a": {"n": 1}}
    out = syncpatch.compile_expression('value["k"] = "v"; value')(data)
    assert out == {"a": {"n": 1}, "k": "v"}
    assert data == {"a": {"n": 1}}
