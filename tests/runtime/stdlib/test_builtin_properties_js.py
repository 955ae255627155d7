"""Property attributes and conversions of the built-ins that test262's Object, Map, Set, RegExp,
Date, String, NativeErrors and Reflect folders check, one case per cause: built-in accessors
(deletable, without a setter, non-enumerable), accessor elements of arrays, own symbol keys,
Reflect.set with a receiver, NativeError constructors' prototype, template objects,
Symbol.toPrimitive (on every object, and Date.prototype's), Map/Set constructors that call
``set``/``add`` and close their iterator, String objects, Date setters' order. Expectations are node's answers (and ECMA-262's)."""

import pytest

import syncpatch

CASES = [
    # an accessor element of an array deletes to a hole
    ("var a = []; Object.defineProperty(a, '0', {get: function () { return 1 }, configurable: true});"
     " [delete a[0], a.hasOwnProperty('0'), a.length]", [True, False, 1]),
    # built-in accessors: on the prototype (not on instances), configurable, no setter, not enumerable
    ("[delete RegExp.prototype.multiline, RegExp.prototype.hasOwnProperty('multiline'), /a/m.multiline]",
     [True, False, syncpatch.UNDEFINED]),
    ("var d = Object.getOwnPropertyDescriptor(RegExp.prototype, 'dotAll'); [typeof d.get, d.set, d.enumerable,"
     " d.configurable, /a/.hasOwnProperty('global')]", ["function", syncpatch.UNDEFINED, False, True, False]),
    ("Map[Symbol.species] = 1; var d = Object.getOwnPropertyDescriptor(Map, Symbol.species);"
     " [Map[Symbol.species] === Map, d.enumerable, d.configurable, delete Map[Symbol.species],"
     " Map.hasOwnProperty(Symbol.species)]", [True, False, True, True, False]),
    ("'use strict'; var m = new Map([[1, 2]]); try { m.size = 3; 'no' } catch (e) { [e.name, m.size] }",
     ["TypeError", 1]),
    ("var s = new Set([1, 2]); s.size = 5; [s.size, s.hasOwnProperty('size'), Object.getOwnPropertyNames(s).length]",
     [2, False, 0]),
    ("var o = Object.create(RegExp.prototype); o.global = 1; o.hasOwnProperty('global')", False),
    # Object.prototype.__proto__ is an accessor; its setter needs an object-coercible this
    ("var d = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__'); var o = {}; var p = {a: 1};"
     " d.set.call(o, p); [typeof d.get, d.enumerable, o.a, d.get.call(o) === p, d.get.call(1) === Number.prototype]",
     ["function", False, 1, True, True]),
    ("var set = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__').set;"
     " try { set.call(undefined); 'no' } catch (e) { e.name }", "TypeError"),
    # a symbol's description is Symbol.prototype's accessor, not an own property
    ("var s = Symbol('foo'); [s.description, Object.getOwnPropertyDescriptor(s, 'description')]",
     ["foo", syncpatch.UNDEFINED]),
    # own symbol keys of every kind, in creation order (also after a data property became an accessor)
    ("var a = Symbol('a'), b = Symbol('b'); var o = {}; o[a] = 1; o[b] = 2;"
     " Object.defineProperty(o, a, {get: function () {}}); Object.getOwnPropertySymbols(o).map(String)",
     ["Symbol(a)", "Symbol(b)"]),
    ("var a = Symbol('a'); var arr = []; arr[a] = 1; Object.defineProperty(arr, a, {writable: false});"
     " Object.getOwnPropertySymbols(arr).length", 1),
    ("[Object.getOwnPropertySymbols(Array.prototype).map(String).join(), Reflect.ownKeys(Map).map(String).pop(),"
     " Object.getOwnPropertySymbols(Math).map(String).join()]",
     ["Symbol(Symbol.iterator),Symbol(Symbol.unscopables)", "Symbol(Symbol.species)", "Symbol(Symbol.toStringTag)"]),
    # Reflect.set with a receiver: the property found on the target decides, the receiver gets the data
    ("var r = {}; var fn = function () {}; Object.defineProperty(r, 'p', {set: fn});"
     " [Reflect.set({}, 'p', 42, r), Reflect.set({p: 43}, 'p', 42, r), Object.getOwnPropertyDescriptor(r, 'p').set === fn]",
     [False, False, True]),
    ("var p = {}; Object.defineProperty(p, 'x', {set: function (v) { this.y = v }}); var o = Object.create(p);"
     " var r = {}; [Reflect.set(o, 'x', 5, r), r.y, Reflect.set({}, 'z', 1, r), r.z]", [True, 5, True, 1]),
    # built-in lengths
    ("[String.prototype.padStart.length, String.prototype.padEnd.length]", [1, 1]),
    # a parenthesised assignment target is no IdentifierRef: the function stays anonymous
    ("var fn, g; (fn) = function () {}; g = function () {}; [fn.name, g.name]", ["", "g"]),
    ("var s = Symbol('x'); [Symbol.prototype[Symbol.toPrimitive].call(Object(s)) === s,"
     " Object.getOwnPropertyDescriptor(Symbol.prototype, Symbol.toPrimitive).writable]", [True, False]),
    # String objects: read-only indexes and length; the well-known symbols are constants of Symbol
    ("var s = new String('ab'); s.length = 5; s[0] = 'x'; var l = Object.getOwnPropertyDescriptor(s, 'length');"
     " [s.length, s[0], l.writable, l.enumerable, Object.getOwnPropertyDescriptor(s, '0').writable,"
     " Object.getOwnPropertyNames(s).join()]", [2, "a", False, False, False, "0,1,length"]),
    ("var d = Object.getOwnPropertyDescriptor(Symbol, 'species'); [d.writable, d.configurable, d.enumerable]",
     [False, False, False]),
    # Object.fromEntries: any iterable object, the iterator closed when an entry is bad
    ("var n = 0; var it = {}; it[Symbol.iterator] = function () { return {next: function () {"
     " return {value: null, done: false} }, return: function () { n++ } } };"
     " try { Object.fromEntries(it) } catch (e) { [e.name, n] }", ["TypeError", 1]),
    # Date setters read the date value before converting their arguments
    ("var d = new Date(0); var r = d.setMinutes({valueOf: function () { d.setTime(NaN); return 1 }});"
     " [r, d.getMinutes()]", [60000, 1]),
    # NativeError constructors inherit from Error
    ("[Object.getPrototypeOf(RangeError) === Error, Object.getPrototypeOf(AggregateError) === Error,"
     " Object.getPrototypeOf(Error) === Function.prototype]", [True, True, True]),
    # template objects: frozen, raw hidden, one per site in an evaluation
    ("var t; function tag(p) { t = p } tag`${1}`; var d = Object.getOwnPropertyDescriptor(t, 'raw');"
     " var l = Object.getOwnPropertyDescriptor(t, 'length'); [d.enumerable, d.writable, d.configurable, l.writable,"
     " Object.isFrozen(t.raw), Object.keys(t).join()]", [False, False, False, False, True, "0,1"]),
    ("var seen = []; function tag(p) { seen.push(p) } function site() { tag`x` } site(); site(); tag`x`;"
     " [seen[0] === seen[1], seen[0] === seen[2]]", [True, False]),
    # Symbol.toPrimitive is looked up on every object (a getter too), Date.prototype has one
    ("var o = Object.defineProperty({}, Symbol.toPrimitive, {get: function () { throw new RangeError() }});"
     " try { isFinite(o); 'no' } catch (e) { e.name }", "RangeError"),
    ("var n = 0; var o = {get [Symbol.toPrimitive]() { n++ }, get toString() { n++ }, get valueOf() {"
     " return function () { return ' 42 ' } }}; [String.prototype.trimEnd.call(o), n]", [" 42", 2]),
    ("var d = new Date(0); var p = Object.getOwnPropertyDescriptor(Date.prototype, Symbol.toPrimitive);"
     " [typeof (d + 1), d - 1, p.writable, p.enumerable, p.value.name, p.value.length]",
     ["string", -1, False, False, "[Symbol.toPrimitive]", 1]),
    ("Date.prototype[Symbol.toPrimitive].call({valueOf: function () { return 1 }, toString: function () {"
     " return {} }}, 'default')", 1),
    ("var f = Date.prototype[Symbol.toPrimitive]; var r = [];"
     " [undefined, 86, ''].forEach(function (v) { try { f.call(v, 'string') } catch (e) { r.push(e.name) } });"
     " try { f.call({}, 'x') } catch (e) { r.push(e.name) } r.join()", "TypeError,TypeError,TypeError,TypeError"),
    # Map/Set constructors: the iterator is closed on a bad entry or a throwing adder
    ("var n = 0; var it = {}; it[Symbol.iterator] = function () { return {next: function () {"
     " return {value: 1, done: false} }, return: function () { n++ } } };"
     " try { new Map(it) } catch (e) { [e.name, n] }", ["TypeError", 1]),
    ("var n = 0; var it = {}; it[Symbol.iterator] = function () { return {next: function () {"
     " return {value: null, done: false} }, return: function () { n++ } } };"
     " Set.prototype.add = function () { throw new RangeError() }; try { new Set(it) } catch (e) { [e.name, n] }",
     ["RangeError", 1]),
    ("var item = ['k', 'v']; Object.defineProperty(item, 0, {get: function () { throw new RangeError() }});"
     " var it = {}; it[Symbol.iterator] = function () { return {next: function () {"
     " return {value: item, done: false} }} }; try { new Map(it) } catch (e) { e.name }", "RangeError"),
    ("var seen = []; Map.prototype.set = function (k, v) { seen.push(k + v) }; new Map([['a', 1]]); seen", ["a1"]),
]


@pytest.mark.parametrize("source, want", CASES, ids=[c[0][:60] for c in CASES])
def test_builtin_properties(source, want):
    assert syncpatch.compile_expression(source)() == want
