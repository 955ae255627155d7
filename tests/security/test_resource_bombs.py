"""Vectors: memory bombs, infinite loops and recursion, ReDoS, inconsistent sort comparators,
huge numeric ranges.

Limit rows run with small budgets (``SMALL``) so each stops in milliseconds; the budget named
in the row is the one that must trip, as ``LimitExceeded`` (which JS ``catch`` cannot
swallow). Where V8 itself throws (``RangeError: Invalid array length``, ``toFixed() digits``),
the row asserts that JS error instead.
"""

from __future__ import annotations

from typing import Any


import pytest

from .sec_harness import SMALL, UNDEFINED, Case, E, L, R, check, params

from syncpatch import Budgets  # noqa: E402

S = SMALL
REGEX = SMALL.replace(regex_timeout=0.05, steps=10_000_000)

MEMORY: list[Case] = [
    Case("repeat-huge", "'a'.repeat(2 ** 30)", L("string_length"), budgets=S),
    Case("repeat-over-budget", "'ab'.repeat(30000).length", L("string_length"), budgets=S),
    Case("repeat-in-budget", "'ab'.repeat(1000).length", R(2000), budgets=S),
    Case("repeat-catch-cannot-swallow", "try { 'a'.repeat(2 ** 30) } catch (e) { 'caught' }", L("string_length"),
         budgets=S),
    Case("padstart-huge", "'a'.padStart(2 ** 31)", L("string_length"), budgets=S),
    Case("padend-huge", "'x'.padEnd(1e9, 'ab')", L("string_length"), budgets=S),
    Case("array-fill-huge", "Array(1e7).fill(0).length", L("array_length"), budgets=S),
    Case("new-array-fill", "new Array(5e6).fill(1)", L("array_length"), budgets=S),
    Case("array-from-length", "Array.from({length: 1e9})", L("array_length"), budgets=S),
    Case("array-length-assign", "const a = []; a.length = 1e9; a.length", L("array_length"), budgets=S),
    Case("array-index-assign", "const a = []; a[1e9] = 1; a.length", L("array_length"), budgets=S),
    Case("array-index-max", "const a = []; a[4294967294] = 1; a.length", L("array_length"), budgets=S),
    Case("concat-doubling", "let a = [1]; for (let i = 0; i < 40; i++) a = a.concat(a); a.length",
         L("array_length"), budgets=S),
    Case("push-spread-doubling", "let a = [1]; for (let i = 0; i < 40; i++) a.push(...a); a.length",
         L("array_length"), budgets=S),
    Case("reduce-concat-doubling", "[...Array(40)].reduce(acc => acc.concat(acc), [1]).length", L("array_length"),
         budgets=S),
    Case("string-concat-method-doubling", "let s = 'a'; for (let i = 0; i < 40; i++) s = s.concat(s); s.length",
         L("string_length"), budgets=S),
    Case("join-doubling", "let s = 'a'; for (let i = 0; i < 40; i++) s = [s, s].join(''); s.length",
         L("string_length"), budgets=S),
    Case("string-plus-doubling", "let s = 'a'; for (let i = 0; i < 17; i++) s = s + s; s.length",
         L("string_length"), budgets=S),
    Case("string-plus-assign-doubling", "let s = 'a'; for (let i = 0; i < 17; i++) s += s; s.length",
         L("string_length"), budgets=S),
    Case("template-doubling", "let s = 'a'; for (let i = 0; i < 17; i++) s = `${s}${s}`; s.length",
         L("string_length"), budgets=S),
    Case("reduce-string-doubling", "[...Array(17)].reduce(acc => acc + acc, 'ab').length", L("string_length"),
         budgets=S),
    Case("array-spread-doubling", "let a = [1]; for (let i = 0; i < 16; i++) a = [...a, ...a]; a.length",
         L("array_length"), budgets=S),
    Case("join-huge", "Array(1e6).join('abcdefghijklmnopqrstuvwxyz').length", L(), budgets=S),
    Case("split-chars", "'x'.repeat(1e6).split('').length", L(), budgets=S),
    Case("replaceall-empty", "'abc'.replaceAll('', 'x'.repeat(20000)).length", L("string_length"), budgets=S),
    Case("replace-expanding", "'a'.repeat(4000).replace(/a/g, '$&'.repeat(16)).length", L("string_length"),
         budgets=S),
    # a script that patches a built-in sends replace through the spec's generic steps
    Case("replace-expanding-patched", "Object.defineProperty(RegExp.prototype, 'x', {value: 1}); "
         "'a'.repeat(4000).replace(/a/g, '$&'.repeat(16)).length", L("string_length"), budgets=S),
    Case("json-stringify-huge", "JSON.stringify('x'.repeat(1e6)).length", L(), budgets=S),
    Case("json-stringify-dag", "let a = []; for (let i = 0; i < 40; i++) a = [a, a]; JSON.stringify(a).length",
         L(), budgets=S),
    Case("json-stringify-deep", "let o = {}; for (let i = 0; i < 5000; i++) o = {a: o}; JSON.stringify(o).length",
         L(), budgets=S),
    Case("json-stringify-cycle", "const o = {}; o.o = o; JSON.stringify(o)", E("TypeError")),
    Case("string-of-cycle", "const a = []; a.push(a); String(a)", R("")),
    Case("json-parse-deep", "JSON.parse('['.repeat(100000) + ']'.repeat(100000))", L(), budgets=S),
    Case("flat-deep-fill", "Array(1000).fill(Array(1000).fill(0)).flat().length", L("array_length"), budgets=S),
    Case("flatmap-bomb", "Array(2000).fill(0).flatMap(() => Array(1000).fill(0)).length", L("array_length"),
         budgets=S),
    Case("upper-expanding", "'ß'.repeat(30000).toUpperCase().length", L("string_length"), budgets=S),
    Case("encode-uri-expanding", "encodeURIComponent('\\u00ff'.repeat(10000)).length", L("string_length"),
         budgets=S),
    Case("escape-expanding", "escape('\\u00ff'.repeat(20000)).length", L("string_length"), budgets=S),
    Case("btoa-big", "btoa('x'.repeat(1e6)).length", L("string_length"), budgets=S),
    Case("map-of-million", "new Map(Array(1e6).fill(0).map((x, i) => [i, i])).size", L(), budgets=S),
    Case("object-keys-bomb", "const o = {}; for (let i = 0; i < 1e6; i++) o['k' + i] = i; Object.keys(o).length",
         L(), budgets=S),
    Case("string-of-huge-array", "String(Array(1e6).fill(1e21)).length", L(), budgets=S),
    Case("spread-string-huge", "[...'x'.repeat(40000)].length", R(40000), budgets=S.replace(array_length=50_000)),
]

INF_IT = "const it = {[Symbol.iterator]() { return {next() { return {done: false, value: [1, 2]} }} }}; "
ENDLESS = "an endless user iterator runs until a budget stops it (V8 loops forever)"

LOOPS: list[Case] = [
    Case("while-true", "while (true) {}", L("steps"), budgets=S),
    Case("for-ever", "for (;;) {}", L("steps"), budgets=S),
    Case("do-while", "do {} while (1)", L("steps"), budgets=S),
    Case("nested-for-of", "for (const x of [1]) while (1) {}", L("steps"), budgets=S),
    Case("loop-catch-cannot-swallow", "for (;;) { try { while (true) {} } catch (e) {} }", L("steps"), budgets=S),
    Case("loop-finally-continue", "for (;;) { try { continue } finally { } }", L("steps"), budgets=S),
    Case("labelled-continue", "outer: for (;;) { for (;;) { continue outer } }", L("steps"), budgets=S),
    Case("for-in-growing", "const o = {a: 1}; let n = 0; for (const k in o) { o['k' + n] = n; n++ } n",
         R(1)),
    Case("for-of-growing-array", "const a = [1]; for (const x of a) a.push(x); a.length", L(), budgets=S),
    Case("array-callback-loop", "Array(10000).fill(0).map(() => { while (true) {} })", L("steps"), budgets=S),
    Case("every-callback-forever", "[1, 2].every(function f() { return f() })", L("call_depth"), budgets=S),
    Case("self-apply", "((f) => f(f))((f) => f(f))", L("call_depth", "RangeError"), budgets=S),
    Case("y-combinator", "const Y = f => (x => x(x))(x => f(y => x(x)(y))); Y(f => n => f(n + 1))(0)",
         L("call_depth", "RangeError"), budgets=S),
    Case("y-combinator-default-budgets", "const Y = f => (x => x(x))(x => f(y => x(x)(y))); "
         "Y(f => n => f(n + 1))(0)", L("call_depth", "RangeError")),
    Case("recursion-declared", "function r(n) { return r(n + 1) } r(0)", L("call_depth", "RangeError"), budgets=S),
    Case("recursion-arrow", "const f = () => f(); f()", L("call_depth", "RangeError"), budgets=S),
    Case("recursion-catch-cannot-swallow", "function r() { try { return r() } catch (e) { return 'caught' } } r()",
         L("call_depth"), budgets=S),
    Case("mutual-recursion", "function a() { return b() } function b() { return a() } a()", L("call_depth"),
         budgets=S),
    Case("recursion-via-tostring", "({ toString() { return this + '' } }) + ''", L("call_depth"), budgets=S),
    Case("recursion-via-valueof", "({ valueOf() { return this * 1 } }) * 1", L("call_depth"), budgets=S),
    Case("recursion-via-tojson", "JSON.stringify({ toJSON() { return JSON.stringify(this) } })", L("call_depth"),
         budgets=S),
    Case("recursion-via-sort", "function s() { return [2, 1].sort(s) } s()", L("call_depth"), budgets=S),
    Case("recursion-via-replace", "function f() { return 'a'.replace(/a/, f) } f()", L("call_depth"), budgets=S),
    Case("recursion-in-default-param", "function f(a = f()) { return a } f()", L("call_depth"), budgets=S),
    Case("infinite-iterator-spread", INF_IT + "[...it].length", L(), budgets=S, node=False,
         note=ENDLESS),
    Case("infinite-iterator-for-of", INF_IT + "for (const x of it) {} 1", L(), budgets=S, node=False,
         note=ENDLESS),
    Case("infinite-iterator-map", INF_IT + "new Map(it).size", L(), budgets=S, node=False, note=ENDLESS),
    Case("infinite-iterator-destructure", INF_IT + "const [a, ...rest] = it; 1", L(), budgets=S,
         node=False, note=ENDLESS),
    # (a wall time far off: the array budget is the subject, and at the end of a long session a
    # full garbage collection of the test process's heap can pause this allocation-heavy row)
    Case("infinite-iterator-array-from", INF_IT + "Array.from(it).length", L(js_name="RangeError"),
         budgets=S.replace(wall_time=30.0), node=False, note=ENDLESS),
    Case("bounded-recursion-ok", "function f(n) { return n ? f(n - 1) + 1 : 0 } f(40)", R(40), budgets=S),
    Case("bounded-loop-ok", "let n = 0; for (let i = 0; i < 10000; i++) n += i; n", R(49995000), budgets=S),
]

REDOS: list[Case] = [
    Case("redos-alternation", "/^(a|aa)+$/.test('a'.repeat(5000) + 'b')", L("regex"), budgets=REGEX),
    Case("redos-nested-plus", "/(x+x+)+y/.test('x'.repeat(5000))", L("regex"), budgets=REGEX),
    Case("redos-split", "'a'.repeat(30000).split(/(a+)+b/).length", L("regex"), budgets=REGEX),
    Case("redos-constructed", "new RegExp('(a|a)+$').test('a'.repeat(3000) + 'b')", L("regex"), budgets=REGEX),
    Case("redos-catch-cannot-swallow", "try { /^(a|aa)+$/.test('a'.repeat(5000) + 'b') } catch (e) { 'caught' }",
         L("regex"), budgets=REGEX),
    Case("redos-match-all", "[...('a'.repeat(3000) + 'b').matchAll(/(a|aa)+c/g)].length", L("regex"),
         budgets=REGEX),
    Case("redos-replace", "('a'.repeat(3000) + '!').replace(/^(a|a?)+$/, 'x')", L("regex"), budgets=REGEX),
    Case("redos-backreference", "/^(a+)\\1*b$/.test('a'.repeat(3000))", R(False)),
    Case("redos-short-input-fine", "/^(a+)+$/.test('aaaaaaaaaaaaaaaaaaaaaa!')", R(False)),
    Case("regex-nested-quantifier-fine", "/^(\\w+\\s?)*$/.test('word '.repeat(200) + '!')", R(False), node=False,
         note="V8 backtracks exponentially here (node times out); the regex engine answers at once"),
    Case("regex-empty-global-loop", "'abc'.replace(/(?:)/g, '-')", R("-a-b-c-")),
    Case("regex-lookbehind-long", "/(?<=a{1,3})b/.test('a'.repeat(20000) + 'b')", R(True)),
    Case("regex-invalid", "new RegExp('(')", E("SyntaxError")),
    Case("regex-bad-flags", "new RegExp('a', 'zz')", E("SyntaxError")),
]

SORT: list[Case] = [
    Case("sort-random", "[3, 1, 2].sort(() => Math.random() - 0.5).slice().sort((a, b) => a - b)", R([1, 2, 3])),
    Case("sort-always-1", "[3, 1, 2, 5, 4, 9, 7].sort(() => 1)", R([3, 1, 2, 5, 4, 9, 7])),
    Case("sort-always-minus-1", "[3, 1, 2, 5, 4, 9, 7].sort(() => -1)", R([7, 9, 4, 5, 2, 1, 3])),
    Case("sort-nan", "Array.from({length: 100}, (_, i) => i).sort(() => NaN).length", R(100)),
    Case("sort-throws", "[2, 1].sort(() => { throw new RangeError('x') })", E("RangeError")),
    Case("sort-mutates-during", "const a = [3, 1, 2]; a.sort((x, y) => { a.length = 0; return x - y }).length",
         R(3)),
    Case("sort-inconsistent-big", "Array.from({length: 2000}, (_, i) => i).sort((a, b) => (a * 7919 + b) % 3 - 1)"
         ".length", R(2000)),
    Case("sort-string-compare", "[3, 1, 2].sort((a, b) => String(b - a))", R([3, 2, 1])),
    Case("sort-object-compare", "[3, 1, 2].sort(() => ({}))", R([3, 1, 2])),
    Case("sort-comparator-loops", "[3, 1, 2].sort(() => { while (true) {} })", L("steps"), budgets=S),
    Case("sort-charges-steps", "Array.from({length: 20000}, (_, i) => -i).sort((a, b) => a - b).length",
         L("steps"), budgets=S.replace(array_length=50_000)),
    Case("sort-non-function", "[2, 1].sort(1)", E("TypeError")),
    Case("tosorted-inconsistent", "[5, 1, 4].toSorted(() => 0)", R([5, 1, 4])),
]

NUMERIC: list[Case] = [
    Case("tofixed-101", "(1).toFixed(101)", E("RangeError")),
    Case("tofixed-minus", "(1).toFixed(-1)", E("RangeError")),
    Case("tofixed-infinity-digits", "(1).toFixed(Infinity)", E("RangeError")),
    Case("tofixed-100", "(1).toFixed(100).length", R(102)),
    Case("tofixed-1e21", "(1e21).toFixed(2)", R("1e+21")),
    Case("tofixed-1e308", "(1e308).toFixed(100).length", R(6)),
    Case("tofixed-tiny", "(1e-300).toFixed(100)", R("0." + "0" * 100)),
    Case("toprecision-101", "(123.456).toPrecision(101)", E("RangeError")),
    Case("toprecision-0", "(1).toPrecision(0)", E("RangeError")),
    Case("toexponential-101", "(123.456).toExponential(101)", E("RangeError")),
    Case("toprecision-100", "(1e21).toPrecision(100).length", R(101)),
    Case("toexponential-100", "(1/3).toExponential(100).length", R(105)),
    Case("radix-37", "(255).toString(37)", E("RangeError")),
    Case("radix-1", "(255).toString(1)", E("RangeError")),
    Case("radix-0", "(255).toString(0)", E("RangeError")),
    Case("radix-huge", "(255).toString(2 ** 53)", E("RangeError")),
    Case("radix-2-big", "(2 ** 53).toString(2)", R("1" + "0" * 53)),
    Case("radix-36-max", "(-1e308).toString(36).length", R(199)),
    Case("radix-2-tiny", "(1e-300).toString(2).length", R(1051)),
    Case("radix-2-max-value", "Number.MAX_VALUE.toString(2).length", R(1024)),
    Case("radix-2-min-value", "Number.MIN_VALUE.toString(2).length", R(1076)),
    Case("radix-3-fraction", "(0.1).toString(3).length", R(36)),
    Case("array-len-negative", "Array(-1)", E("RangeError")),
    Case("array-len-2-32", "Array(4294967296)", E("RangeError")),
    Case("array-len-fraction", "Array(1.5)", E("RangeError")),
    Case("array-len-nan", "new Array(NaN)", E("RangeError")),
    Case("array-len-max", "Array(2 ** 32 - 1)", L("array_length"), budgets=S),
    Case("array-len-assign-2-32", "[].length = 2 ** 32", E("RangeError")),
    Case("array-len-assign-negative", "const a = [1]; a.length = -1", E("RangeError")),
    Case("repeat-negative", "'ab'.repeat(-1)", E("RangeError")),
    Case("repeat-infinity", "'ab'.repeat(Infinity)", E("RangeError")),
    Case("repeat-zero-huge-count", "''.repeat(2 ** 30)", R("")),
    Case("padstart-nan", "'a'.padStart(NaN)", R("a")),
    Case("string-fromcharcode-many", "String.fromCharCode(...Array(1000).fill(65)).length", R(1000)),
    Case("pow-huge", "2 ** 1e9", R(float("inf"))),
    Case("parseint-huge-string", "parseInt('9'.repeat(400))", R(float("inf"))),
    Case("number-huge-string", "Number('1' + '0'.repeat(400))", R(float("inf"))),
    Case("number-tostring-huge-int", "String(2 ** 1023 * 1.5)", R("1.348269851146737e+308")),
    Case("date-huge", "new Date(8.64e15 + 1).getTime()", R(float("nan"))),
    Case("date-tostring-invalid", "new Date(1e300).toISOString()", E("RangeError")),
    Case("math-max-spread-big", "Math.max(...Array(10000).fill(1))", R(1)),
    Case("fromcodepoint-invalid", "String.fromCodePoint(0x110000)", E("RangeError")),
    Case("tolocale-huge-digits", "(1).toLocaleString('en', {maximumFractionDigits: 1000})", E("RangeError")),
]

CASES = [c for c in MEMORY + LOOPS + REDOS + SORT + NUMERIC if c is not None]
_ = (UNDEFINED, Budgets)


@pytest.mark.parametrize("case", params(MEMORY))
def test_memory_bombs(case: Case, through: Any) -> None:
    check(case, through)


@pytest.mark.parametrize("case", params(LOOPS))
def test_loops_and_recursion(case: Case, through: Any) -> None:
    check(case, through)


@pytest.mark.parametrize("case", params(REDOS))
def test_redos(case: Case, through: Any) -> None:
    check(case, through)


@pytest.mark.parametrize("case", params(SORT))
def test_inconsistent_sort_comparators(case: Case, through: Any) -> None:
    check(case, through)


@pytest.mark.parametrize("case", params(NUMERIC))
def test_huge_numeric_ranges(case: Case, through: Any) -> None:
    check(case, through)
