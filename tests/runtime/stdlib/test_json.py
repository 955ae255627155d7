"""JSON.parse / JSON.stringify against node's answers, plus cycles, toJSON and budgets."""

import pytest

from syncpatch.runtime.realm import Budgets, Realm, activate
from syncpatch.runtime.stdlib.json import json_parse, json_stringify, quote
from syncpatch.runtime.errors import LimitExceeded
from syncpatch.runtime.values import UNDEFINED, JSErrorObject, JSFunction, JSThrow

from .numeric_direct import rows, run_row


@pytest.mark.parametrize("row", rows("json_parse"))
def test_json_parse(row):
    run_row(row)


@pytest.mark.parametrize("row", rows("json_stringify"))
def test_json_stringify(row):
    run_row(row)


def _message(call):
    with pytest.raises(JSThrow) as info:
        call()
    return info.value.value.error_name, info.value.value.message


def test_cycle_messages_match_v8():
    a = {"b": {"c": [1, {}]}}
    a["b"]["c"][1]["d"] = a
    assert _message(lambda: json_stringify(a)) == ("TypeError", (
        "Converting circular structure to JSON\n"
        "    --> starting at object with constructor 'Object'\n"
        "    |     property 'b' -> object with constructor 'Object'\n"
        "    |     property 'c' -> object with constructor 'Array'\n"
        "    |     index 1 -> object with constructor 'Object'\n"
        "    --- property 'd' closes the circle"))
    deep = {"a": {"b": {"c": {"d": {"e": {}}}}}}
    deep["a"]["b"]["c"]["d"]["e"]["f"] = deep["a"]
    assert _message(lambda: json_stringify(deep))[1] == (
        "Converting circular structure to JSON\n"
        "    --> starting at object with constructor 'Object'\n"
        "    |     property 'b' -> object with constructor 'Object'\n"
        "    |     property 'c' -> object with constructor 'Object'\n"
        "    |     ...\n"
        "    |     property 'e' -> object with constructor 'Object'\n"
        "    --- property 'f' closes the circle")
    arr = [1]
    arr.append(arr)
    assert _message(lambda: json_stringify(arr))[1].endswith("--- index 1 closes the circle")
    empty = {}
    empty[""] = empty
    assert _message(lambda: json_stringify(empty))[1].endswith("--- <anonymous> closes the circle")


def test_shared_non_cyclic_references_are_fine():
    shared = {"x": 1}
    assert json_stringify({"a": shared, "b": [shared, shared]}) == '{"a":{"x":1},"b":[{"x":1},{"x":1}]}'


def test_to_json_receives_the_key():
    calls = []

    def to_json(this, key, *_):
        calls.append(key)
        return key + "!"

    fn = JSFunction(to_json, "toJSON", 1)
    assert json_stringify({"a": {"toJSON": fn}, "l": [{"toJSON": fn}]}) == '{"a":"a!","l":["0!"]}'
    assert json_stringify({"toJSON": fn}) == '"!"'
    assert calls == ["a", "0", ""]


def test_error_objects_serialize_their_own_enumerable_props_only():
    err = JSErrorObject("Error", "boom")
    assert json_stringify(err) == "{}"
    err["code"] = 7
    assert json_stringify(err) == '{"code":7}'


def test_quote_escapes_lone_surrogates_only():
    assert quote("\U0001F600") == '"\U0001F600"'
    assert quote("\ud800x\udfff") == '"\\ud800x\\udfff"'
    assert quote('\x00\x1f"\\\x7f') == '"\\u0000\\u001f\\"\\\\\x7f"'


def test_reviver_sees_the_holder_and_can_mutate_it():
    seen = []

    def reviver(this, key, value, *_):
        seen.append(key)
        if key == "a":
            this["b"]["c"] = 99
        return value

    out = json_parse('{"a":1,"b":{"c":2}}', JSFunction(reviver, "r", 2))
    assert out == {"a": 1, "b": {"c": 99}}
    assert seen == ["a", "c", "b", ""]


def test_nesting_depth_is_a_budget():
    nested = []
    cur = nested
    for _ in range(150):  # call_depth=10 allows 100 levels
        cur.append([])
        cur = cur[0]
    with activate(Realm(Budgets(call_depth=10))):
        with pytest.raises(LimitExceeded):
            json_stringify(nested)
    assert json_stringify(nested) == "[" * 151 + "]" * 151


def test_gap_output_respects_the_string_budget():
    with activate(Realm(Budgets(string_length=50))):
        with pytest.raises(LimitExceeded):
            json_stringify([[[[[[1]]]]]], UNDEFINED, 10)


def test_parse_canonicalizes_escaped_surrogate_pairs():
    assert json_parse('"\\ud83d\\ude00"') == "\U0001F600"
    assert json_parse('"\\ud83d\ude00"') == "\U0001F600"
    assert json_parse('"\\ud800"') == "\ud800"


@pytest.mark.parametrize("args", ["", ", null", ", null, 2"])
def test_a_string_alone_respects_the_string_budget(args):
    """A string's JSON text (up to six units a character) is checked like a container's."""
    import syncpatch

    source = f"JSON.stringify(value{args}).length"
    small = syncpatch.compile_expression(source, budgets=syncpatch.Budgets(string_length=10_000))
    assert small("\n" * 4000) == 8002
    with pytest.raises(LimitExceeded):
        small("\n" * 5000)  # 10,002 units of text
    with pytest.raises(LimitExceeded):
        small("x" * 10_000)


def test_shared_subtrees_cannot_blow_up_the_output():
    big = "x" * 1000
    level = [big, big]
    for _ in range(20):
        level = [level, level]
    with activate(Realm(Budgets(string_length=100_000))):
        with pytest.raises(LimitExceeded):
            json_stringify(level)
