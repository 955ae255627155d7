"""Vector: getters, ``Object.defineProperty`` and conversion hooks.

syncpatch refuses accessor properties (a compile error in object literals, a ``TypeError``
from ``defineProperty``), so no property read can run hidden code. The conversion hooks that
do exist (``toString``, ``valueOf``, ``toJSON``) run as ordinary budgeted calls: recursion
through them trips the call-depth budget, and they cannot reach the caller's inputs.
"""

from __future__ import annotations


import pytest

from .sec_harness import SMALL, UNDEFINED, C, Case, E, L, R, check, params

ACCESSORS = "syncpatch refuses accessor properties (no hidden code on property reads)"
V = {"a": 1, "o": {"b": 2}}

CASES: list[Case] = [
    Case("literal-getter", "({get x() { return 1 }}).x", C),
    Case("literal-setter", "({set x(v) {}}).x = 1", C),
    Case("literal-getter-recursive", "const o = {get x() { return this.x }}; o.x", C),
    Case("define-getter", "Object.defineProperty({}, 'x', {get() { return 2 }}).x", E("TypeError"), node=False,
         note=ACCESSORS),
    Case("define-setter", "Object.defineProperty({}, 'x', {set(v) {}})", E("TypeError"), node=False,
         note=ACCESSORS),
    Case("define-getter-on-proto", "Object.defineProperty(Object.prototype, 'x', {get() { return 1 }}); ({}).x",
         E("TypeError"), node=False, note=ACCESSORS),
    Case("define-getter-on-value", "Object.defineProperty(value, 'a', {get() { return 9 }}); value.a",
         E("TypeError"), value=V, node=False, note=ACCESSORS),
    Case("define-getter-array-index", "Object.defineProperty([], 0, {get() { return 1 }})", E("TypeError"),
         node=False, note=ACCESSORS),
    Case("defineproperties-getter", "Object.defineProperties({}, {x: {get() { return 1 }}})", E("TypeError"),
         node=False, note=ACCESSORS),
    Case("create-with-getter", "Object.create(Object.prototype, {a: {get() { return 1 }}})", E("TypeError"),
         node=False, note=ACCESSORS),
    Case("define-getter-legacy", "typeof ({}).__defineGetter__", R("undefined"), node=False,
         note="no legacy accessor API"),
    Case("lookup-getter-legacy", "typeof ({}).__lookupGetter__", R("undefined"), node=False,
         note="no legacy accessor API"),
    Case("descriptor-plain", "Object.getOwnPropertyDescriptor({a: 1}, 'a')",
         R({"value": 1, "writable": True, "enumerable": True, "configurable": True})),
    Case("descriptors-plain", "Object.getOwnPropertyDescriptors({a: 1})",
         R({"a": {"value": 1, "writable": True, "enumerable": True, "configurable": True}})),
    Case("define-value-enumerable", "Object.defineProperty({}, 'x', {value: 1, enumerable: true})", R({"x": 1})),
    Case("define-on-primitive", "Object.defineProperty(1, 'x', {value: 1})", E("TypeError")),
    Case("define-array-length", "const a = [1, 2, 3]; Object.defineProperty(a, 'length', {value: 1}); a", R([1])),
    Case("define-on-globalthis-value", "Object.defineProperty(globalThis, 'value', {value: 1}); value", R(1),
         value=V, bug="Object.defineProperty(globalThis, 'value', ...) is not seen by the global 'value' (V8: 1)"),
    Case("define-non-writable", "const o = {}; Object.defineProperty(o, 'x', {value: 1, writable: false}); "
         "o.x = 2; o.x", R(1), bug="defineProperty writable:false is ignored (a later write succeeds)"),
    Case("define-non-enumerable", "const o = {}; Object.defineProperty(o, 'x', {value: 1}); "
         "[Object.keys(o), JSON.stringify(o)]", R([[], "{}"]),
         bug="defineProperty without enumerable:true makes an enumerable property"),
    Case("define-non-configurable", "const o = {}; Object.defineProperty(o, 'x', {value: 1}); "
         "Object.defineProperty(o, 'x', {value: 2})", E("TypeError"),
         bug="redefining a non-configurable property succeeds (V8: TypeError)"),
    Case("seal", "const o = Object.seal({a: 1}); o.b = 2; delete o.a; o", R({"a": 1}),
         bug="Object.seal is not enforced (adds and deletes succeed)"),
    Case("freeze-shallow", "const o = Object.freeze({a: {b: 1}}); o.a.b = 2; o.a.b", R(2)),
    Case("freeze-write-ignored", "const o = Object.freeze({a: 1}); o.a = 2; o.a", R(1)),
    Case("freeze-strict-write", "(function () { 'use strict'; const o = Object.freeze({a: 1}); o.a = 2 })()",
         E("TypeError"), bug="writing a frozen object's property in strict code is silent (V8: TypeError)"),
    Case("math-pi-readonly", "Math.PI = 3; Math.PI", R(3.141592653589793),
         bug="Math.PI is writable (V8: non-writable, the write is ignored)"),
    Case("math-pi-descriptor", "Object.getOwnPropertyDescriptor(Math, 'PI')",
         R({"value": 3.141592653589793, "writable": False, "enumerable": False, "configurable": False}),
         bug="Math.PI's descriptor says writable/configurable"),
    # conversion hooks run as ordinary, budgeted calls
    Case("tostring-hook", "({toString() { return 't' }}) + ''", R("t")),
    Case("valueof-hook", "({valueOf() { return 41 }}) + 1", R(42)),
    Case("tojson-hook", "JSON.stringify({toJSON() { return {a: 1} }})", R('{"a":1}')),
    Case("tojson-reads-value", "JSON.stringify({a: {toJSON() { return value.o }}})", R('{"a":{"b":2}}'), value=V),
    Case("tojson-writes-value", "JSON.stringify({toJSON() { value.a = 'evil'; return 1 }}); value.a", R("evil"),
         value=V),
    Case("valueof-writes-value", "({valueOf() { value.a = 5; return 1 }}) + value.a", R(2), value=V),
    Case("tostring-recursion", "({toString() { return this + '' }}) + ''", L("call_depth"), budgets=SMALL),
    Case("valueof-recursion", "({valueOf() { return this * 1 }}) * 1", L("call_depth"), budgets=SMALL),
    Case("tojson-loop", "JSON.stringify({toJSON() { while (true) {} }})", L("steps"), budgets=SMALL),
    Case("tostring-throws", "`${{toString() { throw new TypeError('t') }}}`", E("TypeError")),
    Case("toprimitive-symbol", "({[Symbol.toPrimitive]() { return 5 }}) * 2", R(10)),
    Case("toprimitive-not-callable", "({[Symbol.toPrimitive]: 1}) + 1", E("TypeError")),
    Case("proto-json-key", "const o = JSON.parse('{\"__proto__\": {\"evil\": 3}}'); [o.evil, ({}).evil, "
         "Object.keys(o)]", R([UNDEFINED, UNDEFINED, ["__proto__"]])),
    Case("proto-literal-key", "const o = {'__proto__': {evil: 4}}; [o.evil, Object.keys(o)]", R([4, []])),
    Case("proto-computed-key", "const o = {['__proto__']: {evil: 5}}; [o.evil, Object.keys(o)]",
         R([UNDEFINED, ["__proto__"]])),
    Case("proto-assign-copies", "const o = Object.assign({}, JSON.parse('{\"__proto__\": {\"evil\": 6}}')); "
         "[o.evil, ({}).evil]", R([6, UNDEFINED])),
    Case("proto-spread", "const o = {...JSON.parse('{\"__proto__\": {\"evil\": 7}}')}; [o.evil, Object.keys(o)]",
         R([UNDEFINED, ["__proto__"]])),
    Case("proto-fromentries", "Object.fromEntries([['__proto__', {evil: 8}]]).evil", R(UNDEFINED)),
    Case("proto-setter-on-instance", "const o = {}; o.__proto__ = {evil: 2}; [o.evil, ({}).evil]",
         R([2, UNDEFINED])),
    Case("proto-value-key", "value.__proto__ = {evil: 1}; [value.evil, JSON.stringify(value)]",
         R([1, '{"a":1,"o":{"b":2}}']), value=V),
]


@pytest.mark.parametrize("case", params(CASES))
def test_getters_and_define_property(case: Case) -> None:
    check(case)
