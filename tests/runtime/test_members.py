"""Member dispatch: JS names only, prototype chains, sandbox answers, per-evaluation pollution."""

from __future__ import annotations

from typing import Any

import pytest

from syncpatch import UNDEFINED, EvaluationError, compile_expression
from syncpatch.runtime import members
from syncpatch.runtime.realm import Realm, activate
from syncpatch.runtime.values import JSObject, JSThrow


def run(source: str, value: Any = None) -> Any:
    return compile_expression(source)(value, {})


@pytest.mark.parametrize(
    ("obj", "key", "expected"),
    [
        ({"a": 1}, "a", 1),
        ({"1": "x"}, 1, "x"),
        ([10, 20], 1, 20),
        ([10, 20], "1", 20),
        ([10, 20], "01", UNDEFINED),
        ([10, 20], "length", 2),
        ("h\U0001f600", "length", 3),
        ("h\U0001f600", 1, "\ud83d"),
        ("abc", "5", UNDEFINED),
        ({}, "nope", UNDEFINED),
    ],
)
def test_get_member(obj: Any, key: Any, expected: Any) -> None:
    with activate(Realm()):
        assert members.get_member(obj, key) == expected


@pytest.mark.parametrize("obj", [None, UNDEFINED])
def test_reading_from_nullish_is_v8_type_error(obj: Any) -> None:
    with pytest.raises(JSThrow) as info:
        members.get_member(obj, "x")
    name = "undefined" if obj is UNDEFINED else "null"
    assert info.value.value.message == f"Cannot read properties of {name} (reading 'x')"


def test_public_message_for_nullish_read() -> None:
    with pytest.raises(EvaluationError) as info:
        run("value.a.b", {})
    assert str(info.value) == "TypeError: Cannot read properties of undefined (reading 'b')"
    assert info.value.js_name == "TypeError"


@pytest.mark.parametrize(
    "probe",
    ["value.__class__", "value.__dict__", "value.__globals__", "value.__init__", "value.mro", "value.format",
     "value.keys", "value.items", "'x'.__class__", "[].__class__", "(1).__class__", "value.__getattribute__",
     "Math.__dict__", "JSON.__class__", "(() => 1).__code__", "(() => 1).__globals__", "(() => 1).call.__self__"],
)
def test_python_attributes_are_not_reachable(probe: str) -> None:
    assert run(probe, {}) is UNDEFINED


def test_constructor_chains_give_js_answers() -> None:
    assert run("value.constructor === Object", {}) is True
    assert run("[].constructor === Array && ''.constructor === String", {}) is True
    assert run("typeof value.constructor.constructor", {}) == "function"
    # the Function constructor compiles its text in the same sandbox (runtime/dynamic_code.py)
    assert run("value.constructor.constructor('return 1')()", {}) == 1
    assert run("Object.constructor('return this')() === globalThis", {}) is True
    for probe in ["value.constructor.constructor('return process')()", "[].map.constructor('return _realm')()"]:
        with pytest.raises(EvaluationError) as info:
            run(probe, {})
        assert info.value.js_name == "ReferenceError"


def test_global_this_is_a_js_object() -> None:
    assert run("typeof globalThis") == "object"
    assert run("globalThis.Math === Math") is True
    assert run("globalThis.process") is UNDEFINED
    assert run("typeof require") == "undefined"


def test_prototype_pollution_stays_in_one_evaluation() -> None:
    pollute = compile_expression("Object.prototype.polluted = 1; Array.prototype.first = 2; ({}).polluted")
    assert pollute({}) == 1
    assert run("({}).polluted") is UNDEFINED
    assert run("[].first") is UNDEFINED
    assert compile_expression("({}).__proto__.y = 2; ({}).y")() == 2
    assert run("({}).y") is UNDEFINED
    assert compile_expression("Math.max = 3; Math.max")() == 3
    assert run("typeof Math.max") == "function"
    assert run("Math.PI = 3; Math.PI") == 3.141592653589793  # non-writable (21.3.1.6), as in V8


def test_user_prototypes() -> None:
    assert run("const p = {greet() { return 'hi ' + this.n }}; const o = Object.create(p); o.n = 'x'; o.greet()") == "hi x"
    assert run("const o = {}; o.__proto__ = {z: 5}; o.z") == 5
    assert run("function F() { this.a = 1 } F.prototype.b = 2; const f = new F(); [f.a, f.b, f instanceof F]") == [
        1, 2, True]


def test_set_and_delete() -> None:
    with activate(Realm()):
        o: dict[str, Any] = {}
        members.set_member(o, "a", 1)
        members.set_member(o, 2, "x")
        assert o == {"a": 1, "2": "x"}
        assert members.delete_member(o, "a") is True and "a" not in o
        arr = [1]
        members.set_member(arr, 3, 4)
        assert arr == [1, UNDEFINED, UNDEFINED, 4]
        members.set_member(arr, "length", 1)
        assert arr == [1]
    with pytest.raises(JSThrow):
        members.set_member(None, "a", 1)


def test_invalid_array_length() -> None:
    with pytest.raises(EvaluationError) as info:
        run("const a = []; a.length = -1")
    assert info.value.js_name == "RangeError"


def test_own_keys_js_order() -> None:
    with activate(Realm()):
        assert members.own_keys({"b": 1, "2": 1, "a": 1, "1": 1, "-1": 1}) == ["1", "2", "b", "a", "-1"]
        assert members.own_keys([5, 6]) == ["0", "1"]
        assert members.own_keys("ab") == ["0", "1"]
        assert members.own_keys(JSObject(None, {"x": 1})) == ["x"]


def test_iteration() -> None:
    with activate(Realm()):
        assert list(members.js_iterate("a\U0001f600")) == ["a", "\U0001f600"]
        assert list(members.js_iterate([1, 2])) == [1, 2]
        with pytest.raises(JSThrow):
            members.js_iterate({})
    with pytest.raises(EvaluationError, match="is not iterable"):
        run("[...5]")


def test_freeze_is_per_evaluation_and_never_marks_inputs() -> None:
    value = {"a": 1}
    assert compile_expression("Object.freeze(value); value.a = 2; [value.a, Object.isFrozen(value)]")(value) == [1, True]
    assert compile_expression("value.a = 3; value.a")(value) == 3
    assert value == {"a": 1}


def test_call_method_and_function() -> None:
    with activate(Realm()):
        assert members.call_method("abc", "toUpperCase") == "ABC"
        with pytest.raises(JSThrow):
            members.call_function(5, UNDEFINED)


def test_not_a_function_message() -> None:
    with pytest.raises(EvaluationError) as info:
        run("value.map(x => x)", {})
    assert str(info.value) == "TypeError: value.map is not a function"
