"""Vector: getters, ``Object.defineProperty`` and conversion hooks.

Accessor properties run as ordinary budgeted calls, as V8 runs them (recursion through a getter
trips the call-depth budget). The conversion hooks that
do exist (``toString``, ``valueOf``, ``toJSON``) run as ordinary budgeted calls: recursion
through them trips the call-depth budget, and they cannot reach the caller's inputs.
"""

from __future__ import annotations

from typing import Any


import pytest

from .sec_harness import SMALL, UNDEFINED, Case, E, L, R, check, params

V = {"a": 1, "o": {"b": 2}}

CASES: list[Case] = [
    Case("literal-getter", "({get x() { return 1 }}).x", R(1)),
    Case("literal-setter", "({set x(v) {}}).x = 1", R(1)),
    Case("literal-getter-recursive", "const o = {get x() { return this.x }}; o.x", L(js_name="RangeError"), node=False),
    Case("define-getter", "Object.defineProperty({}, 'x', {get() { return 2 }}).x", R(2)),
    Case("define-setter", "Object.defineProperty({}, 'x', {set(v) {}})", R({})),
    Case("define-getter-on-proto", "Object.defineProperty(Object.prototype, 'x', {get() { return 1 }}); ({}).x",
         R(1)),
    Case("define-getter-on-value", "Object.defineProperty(value, 'a', {get() { return 9 }}); value.a",
         R(9), value=V),
    Case("define-getter-array-index", "JSON.stringify(Object.defineProperty([], 0, {get() { return 1 }}))", R("[1]")),
    Case("define-getter-array-index-length", "Object.defineProperty([], 2, {get() { return 1 }}).length", R(3)),
    Case("define-getter-array-index-holes", "const a = Object.defineProperty([], 2, {get() { return 1 }}); [1 in a, 2 in a, JSON.stringify(a)]",
         R([False, True, "[null,null,1]"])),
    Case("defineproperties-getter", "Object.defineProperties({}, {x: {get() { return 1 }}})", R({})),
    Case("create-with-getter", "Object.create(Object.prototype, {a: {get() { return 1 }}})", R({})),
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
         "o.x = 2; o.x", R(1)),
    Case("define-non-enumerable", "const o = {}; Object.defineProperty(o, 'x', {value: 1}); "
         "[Object.keys(o), JSON.stringify(o)]", R([[], "{}"])),
    Case("define-non-configurable", "const o = {}; Object.defineProperty(o, 'x', {value: 1}); "
         "Object.defineProperty(o, 'x', {value: 2})", E("TypeError")),
    Case("seal", "const o = Object.seal({a: 1}); o.b = 2; delete o.a; o", R({"a": 1})),
    Case("freeze-shallow", "const o = Object.freeze({a: {b: 1}}); o.a.b = 2; o.a.b", R(2)),
    Case("freeze-write-ignored", "const o = Object.freeze({a: 1}); o.a = 2; o.a", R(1)),
    Case("freeze-strict-write", "(function () { 'use strict'; const o = Object.freeze({a: 1}); o.a = 2 })()",
         E("TypeError")),
    Case("math-pi-readonly", "Math.PI = 3; Math.PI", R(3.141592653589793)),
    Case("math-pi-descriptor", "Object.getOwnPropertyDescriptor(Math, 'PI')",
         R({"value": 3.141592653589793, "writable": False, "enumerable": False, "configurable": False})),
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
def test_getters_and_define_property(case: Case, through: Any) -> None:
    check(case, through)
