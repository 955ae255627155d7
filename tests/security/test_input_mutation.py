"""Vector: mutation of the caller's ``value`` and ``context``.

A script may write to ``value`` and ``context`` freely; it works on its own copy, so the
caller's objects are deep-equal before and after, whichever alias the write goes through
(variables, containers, callbacks, ``arguments``, ``this``, destructuring, built-ins that
mutate in place). ``check`` deep-compares the inputs after every row.
"""

from __future__ import annotations

from typing import Any

import copy

import pytest

from .sec_harness import Case, R, check, params

from syncpatch import compile_expression  # noqa: E402

V = {"a": {"b": [1, 2, {"c": 3}]}, "arr": [3, 1, 2], "s": "x", "n": None}
CTX = {"vcluster": {"name": "vc", "config": {"x": [1]}}, "hostObject": {"metadata": {"labels": {"k": "v"}}}}

WRITES = {
    "member": ("value.a.x = 1; value.a.x", R(1)),
    "alias-const": ("const v = value; v.x = 1; value.x", R(1)),
    "in-array": ("[value][0].x = 1; value.x", R(1)),
    "object-assign": ("Object.assign(value, {x: 1}); value.x", R(1)),
    "callee-param": ("((o) => { o.x = 1 })(value); value.x", R(1)),
    "push": ("value.arr.push(1)", R(4)),
    "sort": ("value.arr.sort()", R([1, 2, 3])),
    "sort-comparator": ("value.arr.sort((a, b) => b - a)", R([3, 2, 1])),
    "reverse": ("value.arr.reverse()", R([2, 1, 3])),
    "fill": ("value.arr.fill(0)", R([0, 0, 0])),
    "copywithin": ("value.arr.copyWithin(0, 1)", R([1, 2, 2])),
    "pop": ("value.arr.pop()", R(2)),
    "shift": ("value.arr.shift()", R(3)),
    "unshift": ("value.arr.unshift(9)", R(4)),
    "splice": ("value.arr.splice(0, 1)", R([3])),
    "length-zero": ("value.arr.length = 0; value.arr", R([])),
    "delete-key": ("delete value.a; Object.keys(value)", R(["arr", "s", "n"])),
    "delete-deep": ("delete value.a.b[2].c; value.a.b[2]", R({})),
    "define-property": ("Object.defineProperty(value, 'q', {value: 1, enumerable: true}); value.q", R(1)),
    "freeze": ("Object.freeze(value); Object.isFrozen(value)", R(True)),
    "freeze-deep-then-write-host": ("Object.freeze(value.a.b); value.a.b.push", None),
    "set-prototype": ("Object.setPrototypeOf(value, {evil: 1}); value.evil", R(1)),
    "proto-assign": ("value.__proto__ = {evil: 1}; value.evil", R(1)),
    "context-name": ("context.vcluster.name = 'evil'; context.vcluster.name", R("evil")),
    "context-labels": ("context.hostObject.metadata.labels.k = 'evil'; 1", R(1)),
    "context-push": ("context.vcluster.config.x.push(2)", R(2)),
    "context-delete": ("delete context.vcluster; context", R({"hostObject": {"metadata": {"labels": {"k": "v"}}}})),
    "for-of-alias": ("for (const x of [value]) x.a = 1; value.a", R(1)),
    "map-alias": ("new Map([[1, value]]).get(1).a = 2; value.a", R(2)),
    "set-alias": ("new Set([value]).forEach(o => o.z = 1); value.z", R(1)),
    "spread-array-alias": ("[...[value]][0].a = 3; value.a", R(3)),
    "push-call": ("Array.prototype.push.call(value.arr, 1)", R(4)),
    "push-apply": ("[].push.apply(value.arr, [1, 2])", R(5)),
    "values-alias": ("Object.values(value)[0].z = 1; value.a.z", R(1)),
    "entries-alias": ("Object.entries(value)[0][1].z = 1; value.a.z", R(1)),
    "array-from-alias": ("Array.from([value])[0].z = 1; value.z", R(1)),
    "map-callback-alias": ("[value].map(x => x)[0].z = 1; value.z", R(1)),
    "find-alias": ("[value].find(x => true).z = 1; value.z", R(1)),
    "object-spread-shallow": ("({...value}).a.z = 1; value.a.z", R(1)),
    "fromentries-alias": ("Object.fromEntries([['k', value]]).k.z = 1; value.z", R(1)),
    "arguments-alias": ("(function () { arguments[0].z = 1 })(value); value.z", R(1)),
    "destructure-alias": ("const {a} = value; a.z = 1; value.a.z", R(1)),
    "destructure-array-alias": ("const [x] = [value.a]; x.z = 1; value.a.z", R(1)),
    "nullish-alias": ("(value.a ?? {}).z = 1; value.a.z", R(1)),
    "or-alias": ("(value || {}).z = 1; value.z", R(1)),
    "ternary-alias": ("(true ? value : 0).z = 1; value.z", R(1)),
    "comma-alias": ("(0, value).z = 1; value.z", R(1)),
    "increment": ("value.a.b[2].c++; value.a.b[2].c", R(4)),
    "compound": ("value.a.b[2].c += 1; value.a.b[2].c", R(4)),
    "index-write": ("value.arr[0] = 99; value.arr", R([99, 1, 2])),
    "default-param-alias": ("const f = (o = value) => { o.z = 1 }; f(); value.z", R(1)),
    "foreach-alias": ("[value.a].forEach(o => o.z = 1); value.a.z", R(1)),
    "reduce-alias": ("[value].reduce((acc, o) => (o.z = 1, acc), 0)", R(0)),
    "keys-loop-write": ("Object.keys(value).forEach(k => value[k] = 1); value", R({"a": 1, "arr": 1, "s": 1,
                                                                                      "n": 1})),
    "this-alias": ("const g = function () { this.z = 1 }; g.call(value); value.z", R(1)),
    "method-this-alias": ("value.f = function () { this.g = 2 }; value.f(); value.g", R(2)),
    "getownpropertynames-delete": ("Object.getOwnPropertyNames(value).map(k => delete value[k]); value", R({})),
    "splice-nested": ("value.a.b.splice(0); value.a.b", R([])),
    "reassign-value": ("value = 5; value", R(5)),
    "reassign-context": ("context = null; context", R(None)),
    "valueexists-write": ("valueExists = false; valueExists", R(False)),
    "closure-alias": ("const get = () => value.a; get().z = 1; value.a.z", R(1)),
    "json-roundtrip-is-copy": ("JSON.parse(JSON.stringify(value)).z = 1; typeof value.z", R("undefined")),
    "sort-nested-array": ("value.a.b.sort(() => -1)", R([{"c": 3}, 2, 1])),
    "string-index-write": ("value.s[0] = 'y'; value.s", R("x")),
}

CASES: list[Case] = [Case(f"mutate-{k}", src, exp, value=V, context=CTX) for k, (src, exp) in WRITES.items()
                     if exp is not None]


@pytest.mark.parametrize("case", params(CASES))
def test_inputs_unchanged(case: Case, through: Any) -> None:
    check(case, through)  # deep-compares value and context after the run


@pytest.mark.parametrize("src", [s for s, _ in WRITES.values()])
def test_inputs_unchanged_through_the_same_expression_twice(src: str) -> None:
    fn = compile_expression(src)
    value, context = copy.deepcopy(V), copy.deepcopy(CTX)
    try:
        first = fn(value, context)
        second = fn(value, context)
    except Exception:  # noqa: BLE001 - errors are the tables' business; only mutation matters here
        first = second = None
    assert value == V and context == CTX
    assert repr(first) == repr(second)


def test_result_is_not_aliased_to_later_inputs() -> None:
    """A returned sub-object that came from ``value`` is the caller's to keep: writing into the
    result must not reach back into a later evaluation."""
    fn = compile_expression("value.a")
    value = copy.deepcopy(V)
    result = fn(value)
    result["injected"] = True
    again = compile_expression("Object.keys(value.a)")(copy.deepcopy(V))
    assert again == ["b"]


def test_tuple_and_frozen_inputs_are_not_required_to_be_lists() -> None:
    """Inputs holding tuples (read-only sequences) read like arrays and are never written."""
    value = {"t": (1, 2, 3)}
    assert compile_expression("value.t.push(4); value.t")(value) == [1, 2, 3, 4]
    assert value == {"t": (1, 2, 3)}
