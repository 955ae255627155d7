"""Array exotic behaviour the test262 Array folders check, one case per cause: holes made by
``new Array(n)``/a longer ``length``/a write past the end, indexes past 2**32 - 2, mutators on
array-likes with huge lengths, Symbol.isConcatSpreadable and species, sort and the copying
methods on holes and accessors. Expectations are node's answers (and ECMA-262's)."""

import pytest

import syncpatch

CASES = [
    # holes: absent for `in`, keys and the callback methods; Array.prototype shows through
    ("var c = 0; var a = new Array(10); a[1] = undefined; a.every(function () { c++; return true }); c", 1),
    ("var a = new Array(10); a[0] = a[1] = undefined; var c = 0; a.reduce(function (p, v) { c++; return v }); c", 1),
    ("var a = new Array(10); a[9] = 1; a.length = 5; try { a.reduce(function () {}); 'no' } catch (e) { e.name }",
     "TypeError"),
    ("Array.prototype[1] = 1; var x = [0]; x.length = 2; var s = x.join(); x.shift(); delete Array.prototype[1]; "
     "[s, x[0]]", ["0,1", 1]),
    ("var z = [1]; z[3] = 4; [Object.keys(z).join(), 2 in z, z.length]", ["0,3", False, 4]),
    ("[Array(3).fill(0).join(), 0 in new Array(3), Object.keys(Array(3).map(function () { return 1 })).length]",
     ["0,0,0", False, 0]),
    ("var arr = []; arr.a = 1; Object.defineProperty(arr, 'length', {value: 2}); Object.getOwnPropertyNames(arr)",
     ["length", "a"]),
    ("var t = [7, 8, 9]; var s = []; s[2] = 3; Object.assign(t, [1]); Object.assign(t, s); t", [1, 8, 3]),
    # 2**32 - 1 and above are not array indexes: named properties, the length stays
    ("var x = [0, 1]; x[4294967295] = 'n'; x[4294967296] = 'm'; [x.length, x[4294967295], x['4294967296']]",
     [2, "n", "m"]),
    # mutators on array-likes touch only the indexes the algorithm names (no copy of `length` slots)
    ("var o = {0: 'x', 4294967296: 'y', length: 4294967297}; [Array.prototype.pop.call(o), o.length, o[4294967296]]",
     ["y", 4294967296, syncpatch.UNDEFINED]),
    ("var o = {length: 4294967295}; [Array.prototype.push.call(o, 'a', 'b'), o[4294967296]]", [4294967297, "b"]),
    ("var o = {length: Number.MAX_SAFE_INTEGER}; Array.prototype.fill.call(o, 1, o.length - 2); o[o.length - 2]", 1),
    ("try { Array.prototype.push.call({length: Number.MAX_SAFE_INTEGER}, 1); 'no' } catch (e) { e.name }",
     "TypeError"),
    ("try { Array.prototype.toReversed.call({length: 2 ** 32}); 'no' } catch (e) { e.name }", "RangeError"),
    ("var b = true; [Array.prototype.push.call(b, 1), typeof Array.prototype.reverse.call(false)]", [1, "object"]),
    ("var a = Object.freeze([1, 2]); try { a.push(3); 'no' } catch (e) { e.name }", "TypeError"),
    ("'use strict'; var a = [1, 2, 3]; var l = {}; l[Symbol.toPrimitive] = function () {"
     " Object.defineProperty(a, 'length', {writable: false}); return 0 };"
     " try { a.length = l; 'no' } catch (e) { [e.name, a.length] }", ["TypeError", 3]),
    # concat: spreadable array-likes, holes kept, species honoured
    ("var o = {length: 3, 0: 'a', 2: 'c'}; o[Symbol.isConcatSpreadable] = true; var r = [1].concat(o, 5);"
     " [r.join(), 2 in r, r.length]", ["1,a,,c,5", False, 5]),
    ("var s = new String('ab'); s[Symbol.isConcatSpreadable] = true; [].concat(s)", ["a", "b"]),
    ("var a = []; a.constructor = {}; a.constructor[Symbol.species] = null; a.concat(1).length", 1),
    ("var a = []; a.constructor = {}; a.constructor[Symbol.species] = parseInt;"
     " try { a.slice(); 'no' } catch (e) { e.name }", "TypeError"),
    # Array.of / Array.from on another constructor: its object, length set by [[Set]]
    ("var hits = 0; function P() { Object.defineProperty(this, 'length', {set: function (v) { hits = v }}) }"
     " Array.of.call(P, 1, 2, 3); hits", 3),
    # sort and the copying methods read present elements only
    ("var a = [3, 1, , 2]; a.sort(); [a.join(), 3 in a, a.length]", ["1,2,3,", False, 4]),
    ("var read = []; var o = {length: 3, get 0() { read.push(0); return 'a' }, get 1() { read.push(1); return 'b' },"
     " get 2() { read.push(2); return 'c' }}; Array.prototype.toSpliced.call(o, 1, 1); Array.prototype.with.call(o, 2, 'z');"
     " read.join()", "0,2,0,1"),
]


@pytest.mark.parametrize("source,want", CASES, ids=[str(i) for i in range(len(CASES))])
def test_array_exotic(source: str, want: object) -> None:
    assert syncpatch.compile_expression(source)(None, context={}) == want


def test_sparse_length_does_not_spend_the_array_budget() -> None:
    """A length that needs no storage is free; materialising it is charged (the sandbox promise)."""
    run = syncpatch.compile_expression
    assert run("var o = {length: 2 ** 53 - 1}; Array.prototype.pop.call(o); o.length")(None, context={}) == 2 ** 53 - 2
    with pytest.raises(syncpatch.EvaluationError):
        run("Array(2 ** 32 - 1).fill(0).length")(None, context={})
