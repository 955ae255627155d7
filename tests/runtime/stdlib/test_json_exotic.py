"""JSON.stringify of array subclasses and String wrappers (expectations from node)."""

import pytest

import syncpatch

CASES = [
    ('JSON.stringify("a-b".match(/(a)-(b)/))', '["a-b","a","b"]'),
    ('JSON.stringify(new String("ab"))', '"ab"'),
    ('JSON.stringify({s: new String("ab"), m: "x".match(/x/)})', '{"s":"ab","m":["x"]}'),
    ('JSON.stringify([..."ab".matchAll(/./g)])', '[["a"],["b"]]'),
]


@pytest.mark.parametrize("source, expected", CASES)
def test_stringify_exotic_objects(source, expected):
    assert syncpatch.compile_expression(source)(None) == expected
