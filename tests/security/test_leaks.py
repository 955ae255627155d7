"""Vector: leaks through results and error messages.

No error text (``str(error)`` of ``EvaluationError``/``LimitExceeded``/``CompileError``) and
no value a script can compute (``String(fn)``, ``e.stack``, ``JSON.stringify`` of built-ins,
property names of built-ins) may show Python type names, tracebacks, file paths or
compiler-made identifiers. ``check`` applies the leak filter to every error; the rows here
also pull text out of the engine into results and filter those.
"""

from __future__ import annotations

from typing import Any


import pytest

from .sec_harness import Case, E, R, assert_no_leak, check, outcome, params

from syncpatch import CompileError, compile_expression  # noqa: E402

V = {"a": 1, "l": [1]}

ERRORS: list[tuple[str, str]] = [
    ("null.x", "TypeError"), ("undefined.foo()", "TypeError"), ("value.nope()", "TypeError"),
    ("value.l.nope()", "TypeError"), ("value()", "TypeError"), ("(1)()", "TypeError"),
    ("new (x => x)()", "TypeError"), ("new Math.abs()", "TypeError"), ("Symbol() + ''", "TypeError"),
    ("`${Symbol()}`", "TypeError"), ("[].reduce((a, b) => a)", "TypeError"), ("Math.abs.call.call(1)", "TypeError"),
    ("Function.prototype.toString.call({})", "TypeError"), ("new Map().get.call({})", "TypeError"),
    ("Set.prototype.add.call([], 1)", "TypeError"), ("Date.prototype.getTime.call({})", "TypeError"),
    ("String.prototype.trim.call(null)", "TypeError"), ("Array.prototype.map.call(null, x => x)", "TypeError"),
    ("[].map(null)", "TypeError"), ("JSON.parse('{bad')", "SyntaxError"), ("JSON.parse('')", "SyntaxError"),
    ("new RegExp('(')", "SyntaxError"), ("decodeURIComponent('%')", "URIError"),
    ("atob('*')", "InvalidCharacterError"), ("Object.defineProperty(1, 'x', {})", "TypeError"),
    ("Object.create(1)", "TypeError"), ("new Date(NaN).toISOString()", "RangeError"),
    ("'a'.normalize('X')", "RangeError"), ("new Set(1)", "TypeError"), ("new Map([1])", "TypeError"),
    ("[...1]", "TypeError"), ("const {a} = null", "TypeError"), ("const [a] = {}", "TypeError"),
    ("for (const x of 5) {}", "TypeError"), ("1 in 1", "TypeError"), ("({}) instanceof 1", "TypeError"),
    ("Symbol() * 1", "TypeError"), ("({toString: () => ({}), valueOf: () => ({})}) + 1", "TypeError"),
    ("let q = q", "ReferenceError"), ("undefinedVar", "ReferenceError"), ("x.y.z", "ReferenceError"),
    ("value.l.x.y", "TypeError"), ("const c = 1; c = 2", "TypeError"), ("BigInt(1)", "ReferenceError"),
    ("new Proxy({}, {})", "ReferenceError"),
    ("Object.fromEntries(1)", "TypeError"), ("throw new Error('boom')", "Error"),
    ("throw new TypeError()", "TypeError"), ("(() => { throw new RangeError('r') })()", "RangeError"),
    ("String.fromCodePoint(-1)", "RangeError"), ("'abc'.repeat(-1)", "RangeError"),
    ("new Intl.NumberFormat('en').format(1)", "ReferenceError"), ("Object.keys(null)", "TypeError"),
    ("Object.entries(undefined)", "TypeError"), ("value.l.at()", None), ("Array.from(null)", "TypeError"),
    ("Object.setPrototypeOf({}, 1)", "TypeError"), ("new Array(-5)", "RangeError"),
    ("structuredClone({})", "ReferenceError"), ("[1, 2].sort('x')", "TypeError"),
    ("({}).hasOwnProperty.call(null, 'x')", "TypeError"), ("encodeURI('\\uD800')", "URIError"),
]

#: a thrown non-Error object surfaces under its constructor's name, as the oracle names it
THROWN: list[tuple[str, str]] = [
    ("throw {a: 1}", "Object"), ("throw Object.prototype", "Object"), ("throw Math", "Object"),
    ("throw x => x", "Function"), ("throw new Map()", "Map"), ("throw [1, 2]", "Array"),
    ("throw globalThis", "Object"), ("throw JSON", "Object"),
]
#: thrown primitives (node's oracle excludes them: no constructor name) surface as Error
THROWN_PRIMITIVES = ["throw null", "throw undefined", "throw 1", "throw 's'", "throw Object.create(null)"]

TEXTS: list[tuple[str, object]] = [
    ("String(x => x)", None), ("String(Math.abs)", "function abs() { [native code] }"),
    ("String(Object)", "function Object() { [native code] }"), ("String(function named(a) { return a })", None),
    ("(x => x).toString()", None), ("String(Math)", "[object Math]"), ("String(JSON)", "[object JSON]"),
    ("String(Object.prototype)", "[object Object]"), ("String(new Map())", "[object Map]"),
    ("Object.prototype.toString.call(x => x)", "[object Function]"),
    ("Object.prototype.toString.call(/a/)", "[object RegExp]"),
    ("Object.prototype.toString.call(null)", "[object Null]"),
    ("JSON.stringify(Math)", "{}"), ("JSON.stringify(Object.prototype)", "{}"),
    ("JSON.stringify(new Map([[1, 2]]))", "{}"), ("JSON.stringify(globalThis)", None),
    ("new Error('x').stack", None), ("(() => { try { null.x } catch (e) { return e.stack } })()", None),
    ("(() => { try { null.x } catch (e) { return String(e) } })()",
     "TypeError: Cannot read properties of null (reading 'x')"),
    ("(() => { try { null.x } catch (e) { return JSON.stringify(e) } })()", "{}"),
    ("(() => { try { null.x } catch (e) { return Object.getOwnPropertyNames(e) } })()", ["stack", "message"]),
    ("(() => { try { undefinedVar } catch (e) { return e.message } })()", "undefinedVar is not defined"),
    ("(() => { try { ({}).x.y } catch (e) { return e.message } })()",
     "Cannot read properties of undefined (reading 'y')"),
    ("Object.getOwnPropertyNames(Object.prototype).join()", None),
    ("Object.getOwnPropertyNames(Array.prototype).join()", None),
    ("Object.getOwnPropertyNames(String.prototype).join()", None),
    ("Object.getOwnPropertyNames(globalThis).join()", None),
    ("Object.getOwnPropertyNames(Math).join()", None),
    ("[Math.abs.name, Object.name, (x => x).name, [].map.name]", ["abs", "Object", "", "map"]),
    ("String(new Date(NaN))", "Invalid Date"), ("String(Symbol('s'))", "Symbol(s)"),
    ("String([x => x, Math.max])", None), ("`${Object.keys}`", None), ("String(/a/g.exec)", None),
    ("String(new Map().entries())", "[object Map Iterator]"), ("String([].values())", "[object Array Iterator]"),
    ("typeof new Error().stack", "string"),
]

CASES: list[Case] = []
NOT_PROVIDED = ("BigInt", "Proxy", "Reflect", "WeakMap", "Intl")
for _i, (_src, _name) in enumerate(ERRORS):
    if _name is not None:
        absent = any(_src.startswith(n) or _src.startswith("new " + n) for n in NOT_PROVIDED)
        CASES.append(Case(f"error-{_i}", _src, E(_name), value=V, node=not absent,
                          note="a built-in syncpatch does not provide" if absent else ""))
for _i, (_src, _name) in enumerate(THROWN):
    CASES.append(Case(f"thrown-{_i}", _src, E(_name), value=V))
for _i, _src in enumerate(THROWN_PRIMITIVES):
    CASES.append(Case(f"thrown-primitive-{_i}", _src, E("Error"), value=V, node=False,
                      note="node's oracle excludes thrown primitives (no constructor name)"))
for _i, (_src, _want) in enumerate(TEXTS):
    if _want is not None:
        CASES.append(Case(f"text-{_i}", _src, R(_want), value=V))


@pytest.mark.parametrize("case", params(CASES))
def test_errors_and_texts(case: Case, through: Any) -> None:
    check(case, through)  # error text goes through the leak filter


@pytest.mark.parametrize("src", [s for s, _ in TEXTS])
def test_engine_texts_show_no_python(src: str) -> None:
    kind, got = outcome(Case("t", src, R(None), value=V))
    assert kind in ("result", "error"), (src, kind, got)
    assert_no_leak(repr(got) if kind == "result" else str(got))
    if kind == "result" and isinstance(got, str):
        assert_no_leak(got)


COMPILE_ERRORS = [
    "value.", "((", "'unterminated", "`${", "a b", "1 = 2", "class A { #x }", "eval('x' +)", "import('x')",
    "function* g() {}", "async () => 1", "'use strict'; with (a) {}", "x => { return }}", "/(/", "let let = 1", "1n",
    "@decorator", "#private", "a?.b = 1", "new.target", "super.x", "yield 1", "let a; let a;", "break",
    "continue", "return 1; }", "\u0000", "\ud800", "😀 = 1", "\\u0061 = ", "a\n++\nb\n++", "'\\u{110000}'",
    "({get x() { return 1 }})", "label: label: 1", "for (const x of) {}", "(a, b) => { 'use strict'; with (a) {} }",
    "0b102", "0o8", "09.5e", "1e", "..1", "a ?? b || c", "-1 ** 2", "delete x", "import.meta", "arguments = 1",
    "(x) => { 'use strict'; let eval = 1 }",
]


@pytest.mark.parametrize("src", COMPILE_ERRORS)
def test_compile_error_text_shows_no_python(src: str) -> None:
    try:
        compile_expression(src)
    except CompileError as exc:
        text = str(exc)
        # the caret excerpt repeats the user's source; the leak filter reads the message line
        assert_no_leak(text.splitlines()[0])
        assert "Traceback" not in text and "/work/" not in text and ".py" not in text.replace(src, "")
        assert text.startswith("<expression>:")
    except BaseException as exc:  # noqa: BLE001
        pytest.fail(f"{type(exc).__name__} escaped from compile_expression({src!r})")
