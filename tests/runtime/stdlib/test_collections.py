"""Map and Set called directly (node-verified expectations; see test_collections_js)."""

import pytest

from syncpatch.runtime import members
from syncpatch.runtime.stdlib.collections import JSMap, JSSet
from syncpatch.runtime.stdlib.registry import GLOBALS

from .direct import fresh_realm, NAN, U, fn, same, throws  # noqa: F401 (fixture)

Map = GLOBALS["Map"]
Set = GLOBALS["Set"]


def call(obj, name, *args):
    return type(obj).JS_PROTO[name].call(obj, *args)


def test_same_value_zero_keys():
    m = Map.construct()
    call(m, "set", NAN, "nan")
    call(m, "set", -0.0, "zero")
    call(m, "set", 1, "one")
    call(m, "set", "1", "string one")
    call(m, "set", True, "true")
    assert call(m, "get", NAN) == "nan"
    assert call(m, "get", 0) == "zero"
    assert call(m, "get", 1.0) == "one"
    assert call(m, "get", "1") == "string one"
    assert call(m, "get", True) == "true"
    assert call(m, "get", None) is U
    keys = list(call(m, "keys"))
    assert type(keys[1]) is int and keys[1] == 0  # -0 is stored as +0
    key = {}
    call(m, "set", key, "obj")
    assert call(m, "get", key) == "obj" and call(m, "get", {}) is U
    assert members.get_member(m, "size") == 6


def test_insertion_order_and_updates():
    m = Map.construct([["a", 1], ["b", 2], ["c", 3]])
    assert call(m, "delete", "b") is True and call(m, "delete", "b") is False
    call(m, "set", "b", 4)
    call(m, "set", "a", 5)
    assert list(m.js_iterator()) == [["a", 5], ["c", 3], ["b", 4]]
    assert call(m, "set", "z", 0) is m
    call(m, "clear")
    assert members.get_member(m, "size") == 0


def test_iteration_during_mutation():
    s = Set.construct([1, 2, 3])
    seen = []
    for x in s.js_iterator():
        seen.append(x)
        if x == 1:
            call(s, "delete", 2)
            call(s, "add", 4)
    assert seen == [1, 3, 4]
    m = Map.construct([[1, 1]])
    order = []
    call(m, "forEach", fn(lambda v, k, mm: (order.append(k), call(m, "set", k + 1, 0) if k < 5 else None)))
    assert order == [1, 2, 3, 4, 5]
    m2 = Map.construct([[1, 1], [2, 2]])
    it = call(m2, "keys")
    call(m2, "clear")
    call(m2, "set", 3, 3)
    assert list(it) == [3]


def test_compaction_keeps_iterators_valid():
    s = Set.construct(list(range(200)))
    it = iter(call(s, "values"))
    assert next(it) == 0
    for i in range(1, 150):
        call(s, "delete", i)
    assert list(it) == list(range(150, 200))
    for i in range(150, 190):
        call(s, "delete", i)
    assert list(s.js_iterator()) == [0] + list(range(190, 200))


def test_set_basics():
    s = Set.construct([1, "1", 1.0, NAN, NAN, -0.0, 0])
    assert same(list(s.js_iterator()), [1, "1", NAN, 0])
    assert call(s, "has", NAN) is True and call(s, "has", "x") is False
    assert same(list(call(s, "entries")), [[1, 1], ["1", "1"], [NAN, NAN], [0, 0]])
    assert list(Set.construct("hello").js_iterator()) == ["h", "e", "l", "o"]
    out = []
    call(s, "forEach", fn(lambda v, k, ss: out.append((v, k))))
    assert out[0] == (1, 1)


def test_constructor_errors():
    throws("TypeError", "Constructor Map requires 'new'", lambda: Map.call(U))
    throws("TypeError", "Constructor Set requires 'new'", lambda: Set.call(U))
    throws("TypeError", "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))", lambda: Map.construct(5))
    throws("TypeError", "Iterator value 1 is not an entry object", lambda: Map.construct([1]))
    throws("TypeError", "number 3 is not a function", lambda: call(Map.construct(), "forEach", 3))
    throws("TypeError", 'string "a" is not a function', lambda: call(Set.construct(), "forEach", "a"))
    throws("TypeError", "Method Map.prototype.get called on incompatible receiver #<Object>",
           lambda: JSMap.JS_PROTO["get"].call({}, 1))
    throws("TypeError", "Method Set.prototype.has called on incompatible receiver #<Map>",
           lambda: JSSet.JS_PROTO["has"].call(Map.construct(), 1))
    assert members.get_member(Map.construct(None), "size") == 0


def test_own_properties_and_size_write():
    m = Map.construct()
    members.set_member(m, "x", 1)
    members.set_member(m, "size", 5)
    assert members.get_member(m, "x") == 1 and members.get_member(m, "size") == 0
    assert members.own_keys(m) == ["x"]


@pytest.mark.parametrize("cls", [JSMap, JSSet])
def test_protocol(cls):
    assert cls.JS_CLASS in ("Map", "Set") and "forEach" in cls.JS_PROTO


def test_prototype_resolves_in_a_fresh_process_before_any_instance():
    import subprocess
    import sys

    code = (
        "from syncpatch.runtime import members\n"
        "from syncpatch.runtime.stdlib.registry import GLOBALS\n"
        "p = members.get_member(GLOBALS['Map'], 'prototype')\n"
        "print(type(members.get_member(p, 'get')).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "JSFunction"
