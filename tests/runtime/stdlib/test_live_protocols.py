"""Built-ins that must talk to their receiver through properties, step by step: array
methods over array-likes (HasProperty/Get each step), ArraySpeciesCreate, and the RegExp
protocol of Symbol.match/replace/search on RegExp-like objects (a user ``exec``)."""

from __future__ import annotations

from typing import Any

from syncpatch import compile_expression


def run(source: str) -> Any:
    return compile_expression(source)()


def test_array_methods_read_array_likes_live() -> None:
    assert run("var o = {0: 1, 1: 2, 2: 3, length: 3}; var seen = [];"
               "Array.prototype.forEach.call(o, function (v, k) { if (k === 0) delete o[1]; seen.push(v); }); seen") \
        == [1, 3]
    assert run("var o = {length: 2, get 0() { o[1] = 'late'; return 'a'; }};"
               "Array.prototype.map.call(o, function (v) { return v; })") == ["a", "late"]
    assert run("Array.prototype.some.call('ab', function (v, i, o) { return o instanceof String; })") is True
    assert run("var o = {0: 'a', 1: 'b', 2: 'c', length: 3};"
               "Array.prototype.indexOf.call(o, 'c', {valueOf: function () { delete o[2]; return 0; }})") == -1
    assert run("Array.prototype.includes.call({length: 2, 0: 1}, undefined)") is True


def test_species_constructor_makes_the_result() -> None:
    assert run("var a = [1, 2, 3]; a.constructor = {}; var made = 0;"
               "a.constructor[Symbol.species] = function (n) { made = n; };"
               "var r = a.map(function (x) { return x * 2; }); [made, r[2], Array.isArray(r)]") == [3, 6, False]
    assert run("var a = [1]; a.constructor = null; try { a.filter(function () {}); } catch (e) { e.name }") \
        == "TypeError"
    assert run("[1, 2, 3].filter(function (x) { return x > 1; })") == [2, 3]


def test_regexp_protocol_on_regexp_like_objects() -> None:
    like = ("var like = {flags: 'g', lastIndex: 0, n: 0, exec: function () {"
            " return this.n++ < 2 ? {0: 'x', index: this.n, length: 1} : null; }};")
    assert run(like + "RegExp.prototype[Symbol.match].call(like, 'abc')") == ["x", "x"]
    assert run(like + "RegExp.prototype[Symbol.replace].call(like, 'abcd', '[$&]')") == "a[x][x]d"
    assert run("RegExp.prototype[Symbol.search].call({lastIndex: 0, exec: function () { return {index: 7}; }}, 's')") \
        == 7
    assert run("var r = /./g; var calls = 0; r.exec = function () { calls++;"
               " return calls === 1 ? {index: 1, length: 1, 0: 0} : calls === 2 ? {index: 3, length: 1, 0: 0} : null; };"
               "r[Symbol.replace]('abcde', 'X')") == "aXcXe"
    assert run("RegExp.prototype.exec = function () { return null; }; 'aXbX'.replace(/X/g, '-')") == "aXbX"
    assert run("'a1b22'.replace(/(\\d)(?<n>\\d)?/g, '<$1|$<n>>')") == "a<1|>b<2|2>"
