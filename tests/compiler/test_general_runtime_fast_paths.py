"""The runtime's fast paths for plain types (a list read past its end, digit strings to
numbers, an int's ``toString(radix)``, ``btoa`` of non-ASCII text, ``join`` of strs, ``sort``
of ASCII strs, ``new Set(array)`` and ``[...set]``, integer-like key order) answer exactly as
the generic paths they skip.

Each row runs in the general tier (``budgets=Budgets()``) twice: as it is, and after a
script patched a built-in (``PATCH``), which makes every ``PATCHED_REALMS`` fast path step
aside, so the second run is the generic path. Where node is installed, it is the oracle too.
The fast paths that do not depend on patching are compared with the generic routine itself."""

from __future__ import annotations

import base64
import copy
import json
import math
import shutil
import subprocess
from typing import Any

import pytest

from syncpatch import Budgets, compile_expression
from syncpatch.runtime.convert import normalize_number, number_to_string, string_to_number
from syncpatch.runtime.interop import to_python
from syncpatch.runtime.stdlib import number as number_module
from syncpatch.runtime.stdlib.base64 import btoa
from syncpatch.runtime.values import UNDEFINED

GENERAL = Budgets()
#: a patch no row can observe (a non-enumerable Array.prototype property) that marks the realm
#: patched: every fast path gated on ``PATCHED_REALMS`` then takes the generic path
PATCH = 'Object.defineProperty(Array.prototype, "zzUnused", {value: 1}); '
_NODE = shutil.which("node")

STRS = ["b", "a", "c", "a", "B", "", "10", "9"]
ROWS: list[tuple[str, list[Any]]] = [
    # a list's element by an int key: in range, past the end, negative, computed
    ("value[1]", [[1, 2], [1], [], ["x", None]]),
    ("value[5] ?? 'none'", [[1, 2], list(range(6))]),
    ("value[value.length]", [[1, 2], []]),
    ("value[value.length - 3]", [[1, 2], [1, 2, 3]]),
    ("value.split(':')[1] ?? 'latest'", ["nginx:1.25", "nginx", "a:b:c"]),
    # digit strings to numbers (and everything next to them)
    ("Number(value)", ["0", "7", "007", "42", "8080", "123456789012345", "1234567890123456",
                       "9007199254740993", "99999999999999999999", "\u0661\u0662", "\u00b2", " 42", "42 ",
                       "", "-0", "+5", "0x1f", "1e3", "12.5", "1_000", "\u0000"]),
    ("value.split('.').map(Number)", ["10.0.0.1", "192.168.001.010", "1..2"]),
    ("+value + 1", ["41", "0041", "1e2"]),
    ("[parseInt(value), parseInt(value, 10), parseInt(value, 16), parseInt(value, 8), parseInt(value, 0)]",
     ["0", "7", "007", "8080", "123456789012345", "1234567890123456789", "\u0661", " 42", "42px", "", "-0", "0x1f",
      "12.5", "+5"]),
    # an int's toString(radix)
    ("value.toString(16)", [0, 255, -255, 8080, 2**53 - 1, -(2**53 - 1), 2**53, 2**60, 1.5, -0.0, math.inf, math.nan]),
    ("value.toString(2) + '|' + value.toString(8) + '|' + value.toString(10) + '|' + value.toString(36)",
     [0, 5, -5, 1 << 40, 2**53 + 2, 0.25, -7.5]),
    ("value.toString(value % 2 ? 16 : 10)", [10, 11, -11]),
    # join of strs, and of anything else
    ("value.join('.')", [["www", "example", "com"], [], ["a"], ["a", 1, None, UNDEFINED, ["b", "c"]],
                         ["é", "😀", "\ud83d", "\ude00"], ["x" * 3000, "y" * 2000], ["a"] * 65]),
    ("value.join()", [["a", "b"], [1, 2], [True, "x"]]),
    ("value.join(value.length)", [["a", "b"], ["a"]]),
    ("value.split('.').reverse().join('.')", ["www.example.com", "a", ""]),
    # sort of ASCII strs, and of anything else
    ("value.sort()", [STRS, ["a"], [], ["b", "a", "é", "z"], ["😀", "\uffff", "a"], ["b", 10, "a", 9],
                      ["b", UNDEFINED, "a", None], [f"k{i}" for i in range(70, 0, -1)],
                      [f"k{i}" for i in range(64, 0, -1)]]),
    ("value.slice().sort().concat(value)", [["b", "a"]]),
    ("value.sort() === value", [["b", "a"]]),
    ("Object.keys(value).sort()", [{"b": 1, "a": 2, "10": 3, "9": 4}]),
    # new Set(array) and [...set]
    ("[...new Set(value)]", [["a", "b", "a"], [1, 2, 1, 3], [1, "1", True, 1.5, 1.5, None, None, UNDEFINED, UNDEFINED],
                             [math.nan, math.nan, -0.0, 0, 0.0], [], [[1], [1]]]),
    ("new Set(value).size", [["a", "a"], [{"k": 1}, {"k": 1}]]),
    ("[...new Set(value.map(x => x.split('/')[0]))]", [["a/b", "a/c", "d", "d/e/f"]]),
    ("(() => { const s = new Set(value); s.add('z'); s.delete(value[0]); return [...s]; })()", [["a", "b", "a"]]),
    ("[...new Set('hello')]", [None]),
    # replace with a RegExp literal and a str template
    ("value.replace(/[^a-zA-Z0-9]/g, '_')", ["app.kubernetes.io/name", "", "abc", "é-ü", "😀-x", "a\ud800b"]),
    ("value.replace(/^registry\\.example\\.com\\//, 'mirror.local/')", ["registry.example.com/app:1", "docker.io/x"]),
    ("value.replace(/Mi$/, '') * 1024", ["512Mi", "512Gi", "Mi"]),
    ("value.replace(/a*?/g, 'X')", ["aaa", ""]),
    ("value.replace(/a|b/g, '-') + value.replace(/(a)|b/, '-')", ["abcab", "xyz"]),
    ("value.replace(/x/g, '$&$&') + value.replace(/x/, '[$1]')", ["axbx"]),
    ("value.replace(/x/y, 'z') + value.replace(/X/gi, 'z')", ["xax", "axX"]),
    ("value.replace(/./g, '\\\\') + value.replace(/\\d+/g, '\\1')", ["a1b22"]),
    ("value.replace(/(\\w+)-(\\d+)/, 'w') + value.replace(/^\\s+|\\s+$/g, '')", ["  ab-12  "]),
    ("value.replace(/\\u{1F600}/u, 'smile') + value.replace(/b/g, '😀')", ["a😀b", "bb"]),
    ("[value.replace(/a/g, 'b'), value.replace(/a/g, 'c')]", ["aXa"]),
    ("value.map(s => s.replace(/-/g, '.'))", [["a-b", "c", "d-e-f"]]),
    # Object.fromEntries of an array of [str, value] pairs, and of anything else
    ("JSON.stringify(Object.fromEntries(value))", [[["a", 1], ["b", 2], ["a", 3]], [["10", 1], ["2", 2], ["x", 3]], [],
                                                    [["a", 1, "extra"], [1, 2], [None, 3], [True, 4]], [["a"]], [[]],
                                                    [["k", 1], {"0": "o", "1": 2}], [["k", 1], "ab"], [["k", 1], 5]]),
    ("Object.keys(Object.fromEntries(value.map(x => [x, x.length])))", [["b", "a", "1", "b"]]),
    ("Object.fromEntries(value).__proto__ === Object.prototype", [[["__proto__", 1]], [["a", 1]]]),
    # integer-like keys first, in numeric order
    ("Object.keys(value)", [{"config.json": 1, "greeting": 2, "10": 3, "2": 4, "empty": 5},
                            {"01": 1, "1": 2, "0": 3, "4294967295": 4, "4294967294": 5, "a": 6, "\u0661": 7},
                            {"b": 1, "a": 2}, {}]),
    ("Object.entries(value).map(([k, v]) => k + '=' + v)", [{"z": 1, "3": 2, "1": 3}]),
    ("Object.values(value)", [{"z": 1, "3": 2, "1": 3}, {}, {"a": {"b": [1]}, "c": None, "d": UNDEFINED}]),
    ("[Object.values({get a() { return 5 }, b: 2}), Object.values(Object.defineProperty({a: 1}, 'h', {value: 3})),"
     " Object.values({[Symbol()]: 1, x: 2}), Object.values('ab'), Object.values([7, 8])]", [None]),
    ("Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v.length]))",
     [{"config.json": "{}", "greeting": "hello", "10": "ten", "2": "two", "empty": ""}]),
    # `in` over an array: its index keys, length, and the names along Array.prototype's chain
    ("value in ['customer', 'customer-private'] ? value : 'invalid'",
     [None, UNDEFINED, "customer", "0", "1", "2", "01", "length", "", "x", "map", "at", "toSorted", "constructor",
      "__proto__", "hasOwnProperty", "valueOf", "toString", "isPrototypeOf", "toLocaleString", 0, 1, 2, True]),
    ("[value in [], value in [[]], value in ['a', 'b', 'c']]", ["0", "2", "length", "push", "nope", 0, 1.0, -0.0]),
    # truthiness inline (bools, null, undefined, strings) and by truthy (everything else)
    ("[value || 'd', value && 'y', value ? 1 : 2, !value, value?.x || value, value.length && value]",
     [UNDEFINED, None, "", "a", 0, -0.0, math.nan, 1, 2.5, [], {}, True, False, "\ud800", {"x": ""}, {"x": 0}]),
    # a string joined to a safe int, either side (and to an int past the safe range)
    ("[value + 1, 1 + value, value + -7, value + 2**53, (2**53 + 2) + value, value + 0 + 0]",
     ["9090", "", "\ud83d", "\ude00", "x"]),
    # a template of one substitution (ToString of it, nothing to join)
    ("`${value}`", [8080, -0.0, 1.5, 2**60, None, UNDEFINED, True, "x", "", "\ud83d", [1, [2, None]], {"a": 1}]),
    ("`${value}` + `${value}`", ["\ud83d", "\ude00", "a"]),
    ("`${{toString() { return value }}}`", ["ok", "\ud83d\ude00"]),
    # built-in globals and their functions called by name (BUILTIN_CALLS)
    ("[Number.isInteger(value), Number.isSafeInteger(value), Number.isFinite(value), Number.isNaN(value)]",
     [8080, 2**53, 1.5, -0.0, math.nan, math.inf, "5", None, UNDEFINED, True, [1]]),
    ("[String(value), Number(value), Boolean(value), JSON.stringify(value), typeof JSON.stringify(value)]",
     [UNDEFINED, None, 0, -0.0, 1.5, "x", "", True, [1, "a", None, UNDEFINED], {"a": {"b": [1, None]}}]),
    ("JSON.parse(value).kind + Object.keys(JSON.parse(value)).length", ['{"kind": "Pod", "a": 1}', '[1, 2]', '"s"']),
    ("Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v).length]))",
     [{"b": "xy", "10": 12, "a": None, "2": [1, 2]}]),
    ("[Math.max(...value), Math.min(...value), Math.floor(Math.abs(value[0] / 3)), Array.isArray(value)]",
     [[1, -7, 3], [2.5], []]),
    ("[parseInt(value), parseFloat(value), isNaN(value), encodeURIComponent(value), Object.values(Object(value))]",
     ["42px", "3.5e1", "a b&c", ""]),
    ("Array.from(value, x => x * 2).concat(Array.of(1, 2), String.fromCharCode(65 + value.length))", [[1, 2], []]),
    ("Symbol.for ? [Object.getOwnPropertyNames(value).length, Object.assign({}, value, {z: 1}).z] : 0", [{"a": 1}, [1]]),
]


@pytest.mark.parametrize(("source", "want"), [
    # the callee is read before the arguments run (13.3.6.1): a patch made by an argument
    # is seen by the next call only
    ("[Number.isInteger((Number.isInteger = () => 'p', value)), Number.isInteger(value)]", [True, "p"]),
    ("[String((String = () => 'p', value)), String(value)]", ["5", "p"]),
    ("[JSON.stringify((delete JSON.stringify, value))].concat(typeof JSON.stringify)", ["5", "undefined"]),
    ("Object.keys = () => ['k']; Object.keys(value)", ["k"]),
    ("let s = 0; { const String = x => 'own'; s = String(value); } [s, String(value)]", ["own", "5"]),
    ("function f(Number) { return Number.isInteger(value); } f({isInteger: () => 'arg'})", "arg"),
    ("try { Number.nope(value) } catch (e) { e.message }", "Number.nope is not a function"),
    ("Number.isInteger = 7; try { Number.isInteger(value) } catch (e) { e.message }", "Number.isInteger is not a function"),
    ("String = 7; try { String(value) } catch (e) { e.message }", "String is not a function"),
])
def test_built_in_calls_by_name_see_patches_and_shadowing(source: str, want: Any) -> None:
    assert compile_expression(source, budgets=GENERAL)(5) == want
    assert compile_expression(source)(5) == want  # (the native tier, or the general tier behind it)


@pytest.mark.parametrize(("source", "want"), [
    # a method is read before its call's arguments run (13.3.6.1), also when they change it
    ("const o = {f() { return 1; }}; [o.f((o.f = null, value)), o.f === null]", [1, True]),
    ("const o = {f() { return this.n; }, n: 2}; o.f((o.f = () => 'new', o.n = 3))", 3),
    ("const xs = [1, 2]; xs.map(x => x * value, (xs.map = null, 0))", [5, 10]),
    ("[1, 2].reduce((a, b) => a + b, (Array.prototype.reduce = () => 'p', value))", 8),
    ("const s = 'ab'; [s.repeat((String.prototype.repeat = () => 'p', 2)), s.repeat(2)]", ["abab", "p"]),
    ("let o = {f: () => 'old'}; const g = () => { o.f = () => 'new'; return 1; }; [o.f(g()), o.f(g())]", ["old", "new"]),
    # an argument that reads a member by name changes nothing: the method is read once
    ("const o = {f(x) { return x + this.n; }, n: 1}; o.f(o.n)", 2),
    ("let o; try { o.f((o = {f: () => 1}, 1)) } catch (e) { e.name }", "TypeError"),
    ("const o = {}; try { o.f((o.f = () => 1, 1)) } catch (e) { e.message }", "o.f is not a function"),
])
def test_a_method_is_read_before_its_arguments_run(source: str, want: Any) -> None:
    assert compile_expression(source, budgets=GENERAL)(5) == want
    assert compile_expression(source)(5) == want  # (the native tier, or the general tier behind it)


def _outcome(source: str, value: Any) -> tuple[Any, ...]:
    try:
        return ("ok", _canon(compile_expression(source, budgets=GENERAL)(copy.deepcopy(value))))
    except Exception as exc:  # noqa: BLE001 - the outcome is what we compare
        return ("err", getattr(exc, "js_name", None) or type(exc).__name__)


def _canon(v: Any) -> Any:
    """A JSON-able form that tells JS values apart as ``===`` and key order do."""
    if v is UNDEFINED:
        return "<undefined>"
    if type(v) is float and v == 0 and math.copysign(1, v) < 0:
        return "<-0>"
    if type(v) is float or type(v) is int:
        return f"<n:{number_to_string(v)}>"  # (as JS prints it: NaN, Infinity, 1234567890123456800)
    if type(v) is list:
        return [_canon(x) for x in v]
    if type(v) is dict:
        return [[k, _canon(x)] for k, x in v.items()]
    return v


CASES = [(src, value) for src, values in ROWS for value in values]


@pytest.mark.parametrize("source", [src for src, _ in ROWS])
def test_a_fast_path_answers_as_the_generic_path(source: str) -> None:
    for value in dict(ROWS)[source]:
        fast, generic = _outcome(source, value), _outcome(PATCH + source, value)
        assert fast == generic, (source, value, fast, generic)


_NODE_EVAL = r"""
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const revive = v => v === '<undefined>' ? undefined : v === '<NaN>' ? NaN : v === '<-0>' ? -0
  : v === '<inf>' ? Infinity : v === '<-inf>' ? -Infinity : Array.isArray(v) ? v.map(revive) : v;
const canon = v => v === undefined ? '<undefined>' : typeof v === 'number' ? (Object.is(v, -0) ? '<-0>' : `<n:${v}>`)
  : Array.isArray(v) ? v.map(canon) : v !== null && typeof v === 'object' && !(v instanceof Set)
  ? Object.entries(v).map(([k, x]) => [k, canon(x)]) : v;
process.stdout.write(JSON.stringify(cases.map(([src, value]) => {
  try {
    return ['ok', canon((function (value) { return eval(src); })(revive(value)))];
  } catch (e) { return ['err', e.name]; }
})));
"""


def _node_value(v: Any) -> Any:
    """An input as node's side revives it (dicts as objects, in their insertion order)."""
    if v is UNDEFINED:
        return "<undefined>"
    if type(v) is float:
        return "<NaN>" if v != v else "<-0>" if v == 0 and math.copysign(1, v) < 0 else (
            "<inf>" if v == math.inf else "<-inf>" if v == -math.inf else v)
    if type(v) is list:
        return [_node_value(x) for x in v]
    if type(v) is dict:
        return {k: _node_value(x) for k, x in v.items()}
    return v


@pytest.mark.skipif(_NODE is None, reason="node is not installed")
def test_the_fast_paths_agree_with_node() -> None:
    assert _NODE is not None
    cases = [(src, _node_value(v)) for src, v in CASES]
    done = subprocess.run([_NODE, "-e", _NODE_EVAL], input=json.dumps(cases), capture_output=True, text=True,
                          timeout=60, check=True)
    mismatches = []
    for (src, value), want in zip(CASES, json.loads(done.stdout)):
        got = list(_outcome(src, value))
        if got != want:
            mismatches.append((src, value, got, want))
    assert not mismatches, "\n".join(map(repr, mismatches[:10]))


def test_digit_strings_convert_as_the_numeric_grammar_does() -> None:
    """The digits-only shortcut against the grammar's path (a leading space takes it)."""
    for s in ["0", "1", "007", "8080", "123456789012345", "999999999999999", "1000000000000000",
              "9007199254740993", "12345678901234567890123", "0" * 30 + "5", "\u0661", "\u00b2\u00b3", "1\u0661"]:
        got, generic = string_to_number(s), string_to_number(" " + s)
        assert type(got) is type(generic) and (got == generic or (got != got and generic != generic)), (s, got, generic)
        for radix in (UNDEFINED, 10, 10.0, 16, 0):
            got, generic = number_module.parse_int(s, radix), number_module.parse_int(" " + s, radix)
            assert type(got) is type(generic) and (got == generic or (got != got and generic != generic)), (s, radix)
    assert string_to_number("9007199254740993") == normalize_number(float("9007199254740993"))


def test_int_to_string_in_a_power_of_two_radix_is_the_radix_algorithm() -> None:
    method = number_module.number_to_string_method
    for n in [0, 1, -1, 7, 255, -256, 8080, 2**31, -(2**31), 2**52 + 1, 2**53 - 1, -(2**53 - 1)]:
        for radix in (2, 8, 16):
            assert method(n, radix) == number_module.to_radix_string(n, radix), (n, radix)
        assert method(n, 10) == number_module.number_to_string(n) == method(n)
    assert method(2**53, 16) == number_module.to_radix_string(2**53, 16)  # (past the shortcut's range)
    with pytest.raises(Exception, match="requires that 'this' be a Number"):
        method(True, 16)  # (a bool receiver is no Number: the generic path's error)


def test_btoa_of_non_ascii_text_is_the_utf8_of_its_scalar_values() -> None:
    for s in ["café", "caf\u00e9 \u2713 \u6771\u4eac", "😀", "a\ud800b", "\ude00", "\ud83d\ude00x", "\u0000\u00ff"]:
        want = base64.b64encode("".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s).encode("utf-8"))
        assert btoa(UNDEFINED, s) == want.decode("ascii"), s


def test_results_through_the_entry_keep_js_key_order() -> None:
    fn = compile_expression("value", budgets=GENERAL)
    got = fn({"b": 1, "10": 2, "2": 3, "a": 4})
    assert list(got) == ["2", "10", "b", "a"]
    assert to_python({"b": 1, "10": 2}) == {"10": 2, "b": 1}


def _spec_order(d: dict[Any, Any]) -> list[Any]:
    """OrdinaryOwnPropertyKeys as written: exact-str array indexes ascending, then the rest."""
    def index(k: Any) -> bool:
        return type(k) is str and k.isascii() and k.isdigit() and (k == "0" or k[0] != "0") and int(k) < 2**32 - 1
    return sorted((k for k in d if index(k)), key=int) + [k for k in d if not index(k)]


class _Key(str):
    """A caller's str subclass key: never an array index to JS's order."""


def test_ordered_keys_answers_as_the_spec_before_and_after_its_memo_knows_the_keys() -> None:
    from syncpatch.runtime.convert import PLAIN_KEYS_SEEN, ordered_keys

    dicts: list[dict[Any, Any]] = [
        {"zz-memo-a": 1, "zz-memo-b": 2}, {"zz-memo-a": 1, "10": 2, "2": 3}, {"zz-memo-b": 1, "": 2, "0": 3, "01": 4},
        {_Key("zz-memo-a"): 1, "zz-memo-b": 2}, {_Key("7"): 1, "zz-memo-a": 2, "3": 3}, {5: 1, "zz-memo-a": 2},
        {"zz-memo-c": 1, "4294967295": 2, "4294967294": 3, "\u0661": 4},
    ]
    for d in dicts * 2:  # (the second round meets keys the first put into the memo)
        assert ordered_keys(d) == _spec_order(d), d
    assert {"zz-memo-a", "zz-memo-b"} <= PLAIN_KEYS_SEEN  # (zz-memo-c came only with index keys)
    assert not any(k[:1].isdigit() for k in PLAIN_KEYS_SEEN)


def _int32(v: Any) -> int:
    """ToInt32 as written (7.1.6), for the operands below (numbers, bools, digit strings, null)."""
    n = float(v) if v is not None else 0.0
    if n != n or n in (math.inf, -math.inf):
        return 0
    n = int(n) % 2**32
    return n - 2**32 if n >= 2**31 else n


_BITWISE = {
    "&": lambda a, b: _int32(a) & _int32(b),
    "|": lambda a, b: _int32(a) | _int32(b),
    "^": lambda a, b: _int32(a) ^ _int32(b),
    "<<": lambda a, b: _int32(_int32(a) << (_int32(b) % 32)),
    ">>": lambda a, b: _int32(a) >> (_int32(b) % 32),
    ">>>": lambda a, b: (_int32(a) % 2**32) >> (_int32(b) % 32),
}
_BIT_OPERANDS: list[Any] = [0, 1, -1, 8, 31, 32, 33, -31, 255, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**32 - 1,
                            2**32, 2**53, -0.0, 1.5, -3.7, math.nan, math.inf, "8", " 9 ", True, None]


@pytest.mark.parametrize("op", sorted(_BITWISE))
def test_bitwise_operators_on_in_range_ints_answer_as_the_conversions_do(op: str) -> None:
    fn = compile_expression(f"value.a {op} value.b", budgets=GENERAL)
    for a in _BIT_OPERANDS:
        for b in _BIT_OPERANDS:
            got, want = fn({"a": a, "b": b}), _BITWISE[op](a, b)
            assert type(got) is int and got == want, (a, op, b, got, want)
