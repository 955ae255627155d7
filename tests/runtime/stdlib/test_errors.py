"""Error constructors called directly (node-verified expectations; see test_errors_js)."""

import pytest

from syncpatch.runtime import members
from syncpatch.runtime.stdlib.errors import ERROR_NAMES, error_is_instance
from syncpatch.runtime.stdlib.registry import ERROR_PROTO, GLOBALS
from syncpatch.runtime.values import JSErrorObject

from .direct import fresh_realm, U, throws  # noqa: F401 (fixture)


@pytest.mark.parametrize("name", ERROR_NAMES[:-1])
def test_constructors_with_and_without_new(name):
    for err in (GLOBALS[name].call(U, "boom"), GLOBALS[name].construct("boom")):
        assert type(err) is JSErrorObject and err.error_name == name and err.message == "boom"
        assert members.get_member(err, "name") == name
        assert ERROR_PROTO["toString"].call(err) == f"{name}: boom"
        assert error_is_instance(err, "Error") and error_is_instance(err, name)


@pytest.mark.parametrize("message,want", [(U, ""), (None, "null"), (42, "42"), ("x", "x")])
def test_message_conversion(message, want):
    assert GLOBALS["Error"].construct(message).message == want


def test_cause_and_instance_hierarchy():
    err = GLOBALS["TypeError"].construct("x", {"cause": "why"})
    assert members.get_member(err, "cause") == "why"
    assert "cause" not in GLOBALS["Error"].construct("x", {})
    assert "cause" not in GLOBALS["Error"].construct("x", 5)
    assert not error_is_instance(err, "RangeError")
    assert not error_is_instance({}, "Error")


def test_aggregate_error():
    err = GLOBALS["AggregateError"].construct([1, 2], "m")
    assert err.error_name == "AggregateError" and err.message == "m" and err["errors"] == [1, 2]
    assert GLOBALS["AggregateError"].call(U, "x")["errors"] == ["x"]
    throws("TypeError", None, lambda: GLOBALS["AggregateError"].call(U, 3))
    assert GLOBALS["AggregateError"].length == 2 and GLOBALS["Error"].length == 1


@pytest.mark.parametrize(
    "this,want",
    [({"name": "N", "message": "m"}, "N: m"), ({}, "Error"), ({"name": "", "message": "m"}, "m"),
     ({"name": "N", "message": ""}, "N"), (JSErrorObject("Error", ""), "Error")],
)
def test_to_string(this, want):
    assert ERROR_PROTO["toString"].call(this) == want


def test_to_string_incompatible_receiver():
    throws("TypeError", "Method Error.prototype.toString called on incompatible receiver 1",
           lambda: ERROR_PROTO["toString"].call(1))
