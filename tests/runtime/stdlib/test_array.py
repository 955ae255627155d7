"""Array built-ins called directly (node-verified expectations; see test_array_js for more)."""

import pytest

from syncpatch.runtime.stdlib.registry import GLOBALS
from syncpatch.runtime.realm import Budgets, Realm, activate
from syncpatch.runtime.errors import LimitExceeded

from .direct import fresh_realm, NAN, U, fn, proto, same, static, throws  # noqa: F401 (fixture)

CASES = [
    ("at", [1, 2, 3], (-1,), 3),
    ("at", [1, 2, 3], (5,), U),
    ("includes", [NAN], (NAN,), True),
    ("includes", [-0.0], (0,), True),
    ("indexOf", [NAN], (NAN,), -1),
    ("indexOf", [1, 2, 3], (3, 100), -1),
    ("indexOf", [1, "1"], ("1",), 1),
    ("lastIndexOf", [1, 2, 1], (1, -2), 0),
    ("concat", [1], (2, [3, [4]], "ab"), [1, 2, 3, [4], "ab"]),
    ("join", [None, U, 1], (), ",,1"),
    ("join", [1, 2], (None,), "1null2"),
    ("join", [1.5, -0.0, NAN], ("|",), "1.5|0|NaN"),
    ("slice", [1, 2, 3, 4, 5], (1, -1), [2, 3, 4]),
    ("slice", [1, 2, 3], (2, 1), []),
    ("toSpliced", [1, 2, 3], (1, 1, "x", "y"), [1, "x", "y", 3]),
    ("toSpliced", [1, 2], (), [1, 2]),
    ("with", [1, 2, 3], (-1, "z"), [1, 2, "z"]),
    ("toReversed", [1, 2, 3], (), [3, 2, 1]),
    ("fill", [1, 2, 3, 4, 5], (0, 1, 3), [1, 0, 0, 4, 5]),
    ("copyWithin", [1, 2, 3, 4, 5], (-2, 0, 2), [1, 2, 3, 1, 2]),
    ("flat", [1, [2, [3, [4]]]], (), [1, 2, [3, [4]]]),
    ("flat", [1, [2, [3, [4]]]], (float("inf"),), [1, 2, 3, 4]),
    ("flat", [1, [2]], (-1,), [1, [2]]),
    ("sort", [10, 9, 1, 100, U, None], (), [1, 10, 100, 9, None, U]),
    ("sort", ["\U0001F600", "\uffff", "a"], (), ["a", "\U0001F600", "\uffff"]),
    ("toSorted", [3, 1, 2], (fn(lambda a, b: b - a),), [3, 2, 1]),
    ("sort", [5, 1, 4], (fn(lambda a, b: 0),), [5, 1, 4]),
    ("sort", [5, 1, 4], (fn(lambda a, b: NAN),), [5, 1, 4]),
    ("map", [1, 2, 3], (fn(lambda x, i, a: x * i),), [0, 2, 6]),
    ("filter", [0, 1, "", "a"], (fn(lambda x, i, a: x),), [1, "a"]),
    ("find", [1, 2, 3], (fn(lambda x, i, a: x > 1),), 2),
    ("findLastIndex", [1, 2, 3], (fn(lambda x, i, a: x < 3),), 1),
    ("some", [], (fn(lambda *a: True),), False),
    ("every", [], (fn(lambda *a: False),), True),
    ("reduce", [1, 2, 3], (fn(lambda a, b, i, o: a + b), 10), 16),
    ("reduceRight", ["a", "b", "c"], (fn(lambda a, b, i, o: a + b),), "cba"),
    ("flatMap", [1, 2], (fn(lambda x, i, a: [x, [x]]),), [1, [1], 2, [2]]),
]


@pytest.mark.parametrize("name,this,args,want", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_methods(name, this, args, want):
    assert same(proto("ARRAY", name, this, *args), want)


def test_mutators_return_values_and_mutate():
    a = [1]
    assert proto("ARRAY", "push", a, 2, 3) == 3 and a == [1, 2, 3]
    assert proto("ARRAY", "pop", a) == 3 and a == [1, 2]
    assert proto("ARRAY", "shift", a) == 1 and a == [2]
    assert proto("ARRAY", "unshift", a, 0, 1) == 3 and a == [0, 1, 2]
    assert proto("ARRAY", "splice", a, 1, 1, "x", "y") == [1] and a == [0, "x", "y", 2]
    assert proto("ARRAY", "reverse", a) is a and a == [2, "y", "x", 0]
    assert proto("ARRAY", "pop", []) is U


def test_constructor_and_statics():
    array = GLOBALS["Array"]
    assert same(array.call(U, 3), [U, U, U])
    assert array.construct("3") == ["3"]
    assert array.call(U, 1, 2) == [1, 2]
    throws("RangeError", "Invalid array length", lambda: array.call(U, -1))
    throws("RangeError", "Invalid array length", lambda: array.construct(1.5))
    assert static("Array", "isArray", []) is True
    assert static("Array", "isArray", {"length": 0}) is False
    assert static("Array", "of", 7) == [7]
    assert static("Array", "from", "a\U0001F600b") == ["a", "\U0001F600", "b"]
    assert static("Array", "from", {"length": 3}, fn(lambda v, i: i * i)) == [0, 1, 4]
    assert static("Array", "from", {"length": 2, "0": "x", "1": "y"}) == ["x", "y"]
    assert static("Array", "from", 5) == []
    throws("TypeError", "3 is not a function", lambda: static("Array", "from", [1], 3))
    throws("TypeError", None, lambda: static("Array", "from", None))


@pytest.mark.parametrize(
    "callback,message",
    [(3, "3 is not a function"), ({}, "#<Object> is not a function"), ("abc", "abc is not a function"),
     ([1, 2], "[object Array] is not a function"), (None, "null is not a function"), (U, "undefined is not a function")],
)
def test_not_callable_messages(callback, message):
    throws("TypeError", message, lambda: proto("ARRAY", "map", [1], callback))


def test_errors():
    throws("TypeError", "Reduce of empty array with no initial value", lambda: proto("ARRAY", "reduce", [], fn(lambda *a: 0)))
    throws("TypeError", "The comparison function must be either a function or undefined", lambda: proto("ARRAY", "sort", [1], None))
    throws("RangeError", "Invalid index : 5", lambda: proto("ARRAY", "with", [1], 5, 0))
    throws("TypeError", "Array.prototype.map called on null or undefined", lambda: proto("ARRAY", "map", None, fn(lambda *a: 0)))


def test_join_cycle_and_generic_receivers():
    a = [1, 2]
    a.append(a)
    assert proto("ARRAY", "join", a, "-") == "1-2-"
    like = {"length": 3, "0": "a", "2": "b"}
    assert proto("ARRAY", "join", like, "-") == "a--b"
    assert proto("ARRAY", "map", "abc", fn(lambda x, i, o: x + x)) == ["aa", "bb", "cc"]
    assert proto("ARRAY", "indexOf", {"length": 2, "0": "x", "1": "y"}, "y") == 1
    obj = {"length": 1, "0": "x"}
    proto("ARRAY", "push", obj, "y")
    assert obj == {"length": 2, "0": "x", "1": "y"}


def test_iteration_snapshots_length():
    a = [1, 2, 3]
    seen = []
    proto("ARRAY", "forEach", a, fn(lambda x, i, o: (seen.append(x), o.append(9) if x == 1 else None)))
    assert seen == [1, 2, 3] and a == [1, 2, 3, 9]
    b = [1, 2, 3, 4]
    seen = []
    proto("ARRAY", "forEach", b, fn(lambda x, i, o: (seen.append(x), o.pop())))
    assert seen == [1, 2]


def test_stable_comparator_sort_and_inconsistent_comparator():
    items = [{"k": i % 3, "i": i} for i in range(50)]
    out = proto("ARRAY", "sort", items, fn(lambda x, y: x["k"] - y["k"]))
    assert [x["i"] for x in out] == sorted(range(50), key=lambda i: i % 3)
    assert sorted(proto("ARRAY", "sort", list(range(20)), fn(lambda a, b: -1))) == list(range(20))


def test_budgets():
    with activate(Realm(Budgets(array_length=100))):
        with pytest.raises(LimitExceeded):
            GLOBALS["Array"].call(U, 1000)
        with pytest.raises(LimitExceeded):
            proto("ARRAY", "fill", [0] * 50, 1) and proto("ARRAY", "concat", [0] * 60, [0] * 60)
    nested = []
    for _ in range(20000):
        nested = [nested]
    with pytest.raises(LimitExceeded):
        proto("ARRAY", "flat", nested, float("inf"))
