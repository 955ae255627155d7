"""Object built-ins called directly (node-verified expectations; see test_object_js)."""

import pytest

from syncpatch.runtime import members
from syncpatch.runtime.stdlib.registry import GLOBALS, OBJECT_PROTO
from syncpatch.runtime.values import JSErrorObject, JSObject

from .direct import fresh_realm, NAN, U, proto, same, static, throws  # noqa: F401 (fixture)

CASES = [
    ("keys", ({"b": 1, "2": 2, "a": 3, "1": 4},), ["1", "2", "b", "a"]),
    ("keys", ("abc",), ["0", "1", "2"]),
    ("keys", ("a\U0001F600",), ["0", "1", "2"]),
    ("keys", ([4, 5],), ["0", "1"]),
    ("keys", (5,), []),
    ("values", ("abc",), ["a", "b", "c"]),
    ("values", ({"a": 1, "b": [2]},), [1, [2]]),
    ("entries", ({"x": 1, "0": "z"},), [["0", "z"], ["x", 1]]),
    ("entries", ("ab",), [["0", "a"], ["1", "b"]]),
    ("assign", ({}, {"a": 1}, None, U, {"b": 2, "a": 3}), {"a": 3, "b": 2}),
    ("assign", ({"a": 1}, "xy"), {"a": 1, "0": "x", "1": "y"}),
    ("fromEntries", ([[1, "one"], [None, "n"]],), {"1": "one", "null": "n"}),
    ("fromEntries", ([["2", "x"], ["1", "y"], ["z", 0]],), {"2": "x", "1": "y", "z": 0}),
    ("fromEntries", ([["a"]],), {"a": U}),
    ("hasOwn", ({"a": 1}, "a"), True),
    ("hasOwn", ({"a": 1}, "toString"), False),
    ("hasOwn", ([1], "length"), True),
    ("hasOwn", ("ab", 1), True),
    ("getOwnPropertyNames", ([1, 2],), ["0", "1", "length"]),
    ("getOwnPropertyNames", (JSErrorObject("Error", "x"),), ["stack", "message"]),
    ("getOwnPropertyDescriptor", ({"a": 1}, "a"), {"value": 1, "writable": True, "enumerable": True, "configurable": True}),
    ("getOwnPropertyDescriptor", ([1], "length"), {"value": 1, "writable": True, "enumerable": False, "configurable": False}),
    ("getOwnPropertyDescriptor", ("ab", 0), {"value": "a", "writable": False, "enumerable": True, "configurable": False}),
    ("getOwnPropertyDescriptor", ({}, "x"), U),
    ("is", (NAN, NAN), True),
    ("is", (0, -0.0), False),
    ("isFrozen", ({},), False),
    ("isFrozen", (1,), True),
    ("isSealed", (1,), True),
    ("isExtensible", (1,), False),
    ("isExtensible", ({},), True),
]


@pytest.mark.parametrize("name,args,want", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_statics(name, args, want):
    got = static("Object", name, *args)
    assert same(got, want), got
    if isinstance(want, dict):
        assert list(got) == list(want)


def test_keys_order_integer_like_first():
    assert static("Object", "keys", {"01": 1, "10": 2, "9": 3, "-1": 4}) == ["9", "10", "01", "-1"]


def test_errors():
    msg = "Cannot convert undefined or null to object"
    for name in ("keys", "values", "entries", "assign", "hasOwn", "getOwnPropertyNames"):
        throws("TypeError", msg, lambda name=name: static("Object", name, None))
    throws("TypeError", "Iterator value 1 is not an entry object", lambda: static("Object", "fromEntries", [1]))
    throws("TypeError", "Object prototype may only be an Object or null: 1", lambda: static("Object", "create", 1))
    throws("TypeError", "Object.defineProperty called on non-object", lambda: static("Object", "defineProperty", 1, "a", {}))
    throws("TypeError", "Property description must be an object: 1", lambda: static("Object", "defineProperty", {}, "a", 1))
    throws("TypeError", "Object.setPrototypeOf called on null or undefined", lambda: static("Object", "setPrototypeOf", None, {}))
    frozen = static("Object", "freeze", {"a": 1})
    throws("TypeError", "Cannot assign to read only property 'a' of object '#<Object>'",
           lambda: static("Object", "assign", frozen, {"a": 2}))


def test_freeze_seal_prevent_extensions():
    o = static("Object", "freeze", {"a": 1})
    assert static("Object", "isFrozen", o) and static("Object", "isSealed", o)
    assert not static("Object", "isExtensible", o)
    s = static("Object", "seal", {"a": 1})
    assert static("Object", "isSealed", s) and not static("Object", "isFrozen", s)
    assert static("Object", "isFrozen", static("Object", "preventExtensions", {}))
    assert not static("Object", "isFrozen", static("Object", "preventExtensions", {"a": 1}))


def test_create_and_prototypes():
    bare = static("Object", "create", None)
    assert type(bare) is JSObject and bare.proto is None
    assert static("Object", "getPrototypeOf", bare) is None
    p = {"greet": "hi"}
    child = static("Object", "create", p)
    assert static("Object", "getPrototypeOf", child) is p
    assert proto("OBJECT", "isPrototypeOf", p, child) is True
    plain = {}
    static("Object", "setPrototypeOf", plain, p)
    assert static("Object", "getPrototypeOf", plain) is p
    assert static("Object", "defineProperty", {}, "a", {"value": 1}) == {"a": 1}
    # an accessor lives in the evaluation's side table, not in the dict; a read calls the getter
    with_getter = static("Object", "defineProperty", {}, "a", {"get": GLOBALS["Object"]})
    assert with_getter == {} and members.get_member(with_getter, "a") == {}
    throws("TypeError", None, lambda: static("Object", "defineProperty", {}, "a", {"get": GLOBALS["Object"], "value": 1}))


def test_object_ctor():
    assert GLOBALS["Object"].call(U) == {}
    assert GLOBALS["Object"].construct() == {}
    o = {"a": 1}
    assert GLOBALS["Object"].call(U, o) is o


@pytest.mark.parametrize(
    "value,tag",
    [(None, "Null"), (U, "Undefined"), (1, "Number"), ("s", "String"), (True, "Boolean"), ([], "Array"),
     ({}, "Object"), (JSErrorObject("TypeError", "x"), "Error"), (GLOBALS["Math"] if "Math" in GLOBALS else {}, None)],
)
def test_object_prototype_to_string(value, tag):
    got = OBJECT_PROTO["toString"].call(value)
    if tag is not None:
        assert got == f"[object {tag}]"


def test_prototype_methods():
    assert proto("OBJECT", "hasOwnProperty", {"a": 1}, "a") is True
    assert proto("OBJECT", "hasOwnProperty", [1], "length") is True
    assert proto("OBJECT", "hasOwnProperty", {"1": 2}, 1) is True
    assert proto("OBJECT", "propertyIsEnumerable", [1], "length") is False
    assert proto("OBJECT", "propertyIsEnumerable", [1], "0") is True
    throws("TypeError", "Cannot convert undefined or null to object", lambda: proto("OBJECT", "hasOwnProperty", None, "a"))
    throws("TypeError", "Cannot convert undefined or null to object", lambda: proto("OBJECT", "valueOf", None))
    assert proto("OBJECT", "toLocaleString", {}) == "[object Object]"
