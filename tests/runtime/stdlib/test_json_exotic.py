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


def test_integers_beyond_2_53_from_python_print_as_doubles():
    # node: JSON.stringify({a: 2**80, b: [2**80, 5]}) -> '{"a":1.2089258196146292e+24,"b":[1.2089258196146292e+24,5]}'
    expr = syncpatch.compile_expression("JSON.stringify(value)")
    assert expr({"a": 2**80, "b": [2**80, 5]}) == '{"a":1.2089258196146292e+24,"b":[1.2089258196146292e+24,5]}'
    assert expr(2**80) == "1.2089258196146292e+24"
