"""Vector: prototype pollution across evaluations.

Each row is a polluter (asserted exactly as V8 evaluates it: inside one evaluation the write
is visible) and a probe that must see pristine built-ins afterwards, whether run as a fresh
expression or by the same compiled expression again. Writes to built-ins live in the
evaluation's realm overlay and die with it.
"""

from __future__ import annotations

from typing import Any

import threading

import pytest

from .sec_harness import UNDEFINED, Case, E, R, check, outcome, params, same

from syncpatch import compile_expression  # noqa: E402

U = UNDEFINED
V = {"metadata": {"name": "web", "labels": {"app": "x"}}, "spec": {"ports": [80]}}

#: (id, polluter, what the polluter returns, probe, what the probe returns in a fresh realm)
ROWS: list[tuple[str, str, object, str, object]] = [
    ("object-proto-x", "Object.prototype.x = 1; ({}).x", R(1), "({}).x", R(U)),
    ("dunder-proto-y", "({}).__proto__.y = 2; ({}).y", R(2), "[({}).y, 'y' in {}]", R([U, False])),
    ("array-proto-via-instance", "const a = []; a.__proto__.evil = 9; [].evil", R(9), "[].evil", R(U)),
    ("value-proto", "value.__proto__.evil = 10; ({}).evil", R(10), "[({}).evil, value.evil]", R([U, U])),
    ("value-constructor-proto", "value.constructor.prototype.evil = 11; ({}).evil", R(11), "({}).evil", R(U)),
    ("array-ctor-proto", "[].constructor.prototype.evil = 12; [].evil", R(12), "[].evil", R(U)),
    ("string-ctor-proto", "''.constructor.prototype.evil = 13; ''.evil", R(13), "'abc'.evil", R(U)),
    ("number-ctor-proto", "(1).constructor.prototype.evil = 14; (2).evil", R(14), "(2).evil", R(U)),
    ("boolean-ctor-proto", "true.constructor.prototype.evil = 15; false.evil", R(15), "false.evil", R(U)),
    ("function-proto", "Object.getPrototypeOf(x => x).evil = 16; (function () {}).evil", R(16),
     "(x => x).evil", R(U)),
    ("symbol-proto", "Symbol.prototype.evil = 18; Symbol().evil", R(18), "Symbol().evil", R(U)),
    ("object-proto-tostring", "Object.prototype.toString = () => 'pwned'; String({})", R("pwned"),
     "String({})", R("[object Object]")),
    ("object-proto-hasown", "Object.prototype.hasOwnProperty = () => true; ({}).hasOwnProperty('x')", R(True),
     "({}).hasOwnProperty('x')", R(False)),
    ("object-proto-index", "Object.prototype[0] = 'zero'; [[][0], ({})[0]]", R(["zero", "zero"]),
     "[[][0], ({})[0]]", R([U, U])),
    ("object-proto-length", "Object.prototype.length = 5; Array.from({}).length", R(5), "Array.from({}).length",
     R(0)),
    ("object-proto-value-shadow", "Object.prototype.value = 1; value", R(V), "({}).value", R(U)),
    ("array-proto-map-null", "Array.prototype.map = null; typeof [].map", R("object"), "[1, 2].map(x => x * 2)",
     R([2, 4])),
    ("array-proto-map-arrow", "Array.prototype.map = function (f) { return ['patched', f(1)] }; [5].map(x => x * 2)",
     R(["patched", 2]), "[1, 2].map(x => x * 2)", R([2, 4])),
    ("array-proto-filter-arrow", "Array.prototype.filter = function () { return 'f' }; [1].filter(x => x)", R("f"),
     "[0, 1].filter(x => x)", R([1])),
    ("array-proto-reduce-arrow", "Array.prototype.reduce = function (f, a) { return f(a, 'r') }; "
     "[1, 2].reduce((a, b) => a + b, 'x')", R("xr"), "[1, 2].reduce((a, b) => a + b, 0)", R(3)),
    ("array-own-map-arrow", "const a = [1]; a.map = function (f) { return typeof f }; a.map(x => x)", R("function"),
     "const a = [1]; a.map(x => x + 1)", R([2])),
    ("array-proto-push", "Array.prototype.push = function () { return 99 }; [].push(1)", R(99),
     "const a = []; [a.push(1), a]", R([1, [1]])),
    ("array-proto-index", "Array.prototype[0] = 'zero'; [][0]", R("zero"), "[][0]", R(U)),
    ("array-proto-assign", "Object.assign(Array.prototype, {evil: 19}); [].evil", R(19), "[].evil", R(U)),
    ("array-proto-constructor", "Array.prototype.constructor = null; [].constructor", R(None),
     "[].constructor === Array", R(True)),
    ("array-isarray", "Array.isArray = () => false; Array.isArray([])", R(False), "Array.isArray([])", R(True)),
    ("string-proto-upper", "String.prototype.toUpperCase = function () { return 'U' }; 'a'.toUpperCase()",
     R("U"), "'a'.toUpperCase()", R("A")),
    ("number-proto-tofixed", "Number.prototype.toFixed = () => 'f'; (1).toFixed(2)", R("f"), "(1).toFixed(2)",
     R("1.00")),
    ("math-max", "Math.max = () => 0; Math.max(1, 2)", R(0), "Math.max(1, 2)", R(2)),
    ("math-random", "Math.random = () => 0.5; Math.random()", R(0.5), "Math.random() === 0.5", R(False)),
    ("math-new-key", "Math.evil = 1; Math.evil", R(1), "Math.evil", R(U)),
    ("math-delete", "delete Math.abs; typeof Math.abs", R("undefined"), "Math.abs(-2)", R(2)),
    ("json-parse", "JSON.parse = () => 1; JSON.parse('2')", R(1), "JSON.parse('2')", R(2)),
    ("json-stringify", "JSON.stringify = () => 's'; JSON.stringify(1)", R("s"), "JSON.stringify(1)", R("1")),
    ("object-keys", "Object.keys = () => ['k']; Object.keys({})", R(["k"]), "Object.keys({a: 1})", R(["a"])),
    ("error-proto-tostring", "Error.prototype.toString = () => 'E'; String(new Error('x'))", R("E"),
     "String(new Error('x'))", R("Error: x")),
    ("date-proto", "Date.prototype.getTime = () => 1; new Date(5).getTime()", R(1), "new Date(5).getTime()", R(5)),
    ("map-proto", "Map.prototype.get = () => 42; new Map().get(1)", R(42), "new Map().get(1)", R(U)),
    ("set-proto", "Set.prototype.has = () => true; new Set().has(1)", R(True), "new Set().has(1)", R(False)),
    ("function-call", "Function.prototype.call = () => 'c'; Math.max.call(null, 1, 2)", R("c"),
     "Math.max.call(null, 1, 2)", R(2)),
    ("function-apply", "Function.prototype.apply = () => 'a'; Math.max.apply(null, [1, 2])", R("a"),
     "Math.max.apply(null, [1, 2])", R(2)),
    ("builtin-fn-prop", "parseInt.evil = 1; parseInt.evil", R(1), "parseInt.evil", R(U)),
    ("builtin-method-prop", "Math.abs.evil = 1; Math.abs.evil", R(1), "Math.abs.evil", R(U)),
    ("object-ctor-prop", "Object.prototype.constructor.evil = 1; Object.evil", R(1), "Object.evil", R(U)),
    ("define-on-object-proto", "Object.defineProperty(Object.prototype, 'then', {value: 1}); ({}).then", R(1),
     "({}).then", R(U)),
    ("freeze-object-proto", "Object.freeze(Object.prototype); Object.prototype.zz = 1; [({}).zz, "
     "Object.isFrozen(Object.prototype)]", R([U, True]), "Object.prototype.zz = 1; [({}).zz, "
     "Object.isFrozen(Object.prototype)]", R([1, False])),
    ("freeze-array-proto", "Object.freeze(Array.prototype); Object.isFrozen(Array.prototype)", R(True),
     "Array.prototype.q = 1; [[].q, Object.isFrozen(Array.prototype)]", R([1, False])),
    ("freeze-math", "Object.freeze(Math); Math.evil = 1; Math.evil", R(U), "Math.evil = 1; Math.evil", R(1)),
    ("global-var", "var g = 1; g", R(1), "typeof g", R("undefined")),
    ("global-function", "function g() { return 1 } g()", R(1), "typeof g", R("undefined")),
    ("value-reassign", "value = 5; value", R(5), "value.metadata.name", R("web")),
    ("value-write-deep", "value.metadata.labels.app = 'evil'; value.metadata.labels.app", R("evil"),
     "value.metadata.labels.app", R("x")),
    ("closure-static-counter", "(function f() { f.n = (f.n || 0) + 1; return f.n })()", R(1),
     "(function f() { f.n = (f.n || 0) + 1; return f.n })()", R(1)),
    ("literal-array-mutation", "const a = [1, 2]; a.push(3); a", R([1, 2, 3]), "const a = [1, 2]; a.push(3); a",
     R([1, 2, 3])),
    ("literal-object-mutation", "const o = {a: {b: []}}; o.a.b.push(1); o", R({"a": {"b": [1]}}),
     "const o = {a: {b: []}}; o.a.b.push(1); o", R({"a": {"b": [1]}})),
    ("regexp-lastindex", "const r = /a/g; [r.test('aa'), r.lastIndex]", R([True, 1]),
     "const r = /a/g; [r.test('aa'), r.lastIndex]", R([True, 1])),
    ("regexp-proto", "RegExp.prototype.test = () => 't'; /a/.test('b')", R("t"), "/a/.test('b')", R(False),
     ),
    ("array-proto-iterator", "Array.prototype[Symbol.iterator] = null; [...[1]]", E("TypeError"), "[...[1]]",
     R([1])),
    ("delete-array-map", "delete Array.prototype.map; typeof [].map", R("undefined"), "typeof [].map",
     R("function")),
    ("enumerable-on-proto", "Object.defineProperty(Object.prototype, 'evil', {value: 20, enumerable: true}); "
     "const ks = []; for (const k in {}) ks.push(k); ks", R(["evil"]),
     "const ks = []; for (const k in {}) ks.push(k); ks", R([])),
    ("for-in-array-proto", "Array.prototype.evil = 21; const ks = []; for (const k in [1]) ks.push(k); ks",
     R(["0", "evil"]), "const ks = []; for (const k in [1]) ks.push(k); ks", R(["0"])),
    ("setproto-object-proto", "Object.setPrototypeOf(Object.prototype, {evil: 1}); ({}).evil", E("TypeError"),
     "({}).evil", R(U)),
    ("proto-of-object-proto", "Object.prototype.__proto__ = {evil: 17}; ({}).evil", E("TypeError"),
     "({}).evil", R(U)),
    ("error-name", "Error.prototype.name = 'Evil'; [new Error('x').name, new TypeError('x').name]",
     R(["Evil", "TypeError"]), "new Error('x').name", R("Error")),
]

BUGS: dict[str, str] = {}

CASES: list[Case] = []
PAIRS: list[tuple[Case, Case]] = []
for _id, _pol, _pexp, _probe, _qexp in ROWS:
    _p = Case(f"{_id}", _pol, _pexp, value=V, bug=BUGS.get(_id))
    _q = Case(f"{_id}-probe", _probe, _qexp, value=V)
    CASES += [_p, _q]
    PAIRS.append((_p, _q))


@pytest.mark.parametrize("case", params(CASES))
def test_row_alone(case: Case, through: Any) -> None:
    """Each polluter and each probe evaluates exactly as in V8 (a fresh realm)."""
    check(case, through)


@pytest.mark.parametrize("pair", [pytest.param(p, id=p[0].id) for p in PAIRS])
def test_pollution_does_not_cross_evaluations(pair: tuple[Case, Case]) -> None:
    polluter, probe = pair
    outcome(polluter)
    outcome(polluter)  # twice: the same compiled script must not see its own earlier writes either
    check(probe)
    again = compile_expression(polluter.src)
    first = outcome(Case("a", polluter.src, polluter.expect, value=V))

    def second() -> object:
        return again(dict(V))

    try:
        r1 = second()
        r2 = second()
        assert same(r1, r2), f"{polluter.src!r} returned {r1!r} then {r2!r}"
    except Exception:  # noqa: BLE001 - a throwing polluter: the first outcome says so
        assert first[0] != "result"
    check(probe)


def test_pollution_in_other_thread_is_invisible() -> None:
    """A polluting evaluation running on another thread never shows in this thread's ones."""
    polluter = compile_expression("Object.prototype.x = 1; Array.prototype.y = 2; Math.max = () => 0; "
                                  "let n = 0; for (let i = 0; i < 20000; i++) n += ({}).x; n")
    probe = compile_expression("[({}).x, [].y, Math.max(1, 2)]")
    seen: list[object] = []
    stop = threading.Event()

    def pollute() -> None:
        while not stop.is_set():
            polluter(None)

    thread = threading.Thread(target=pollute)
    thread.start()
    try:
        for _ in range(300):
            seen.append(probe(None))
    finally:
        stop.set()
        thread.join()
    assert all(same(s, [UNDEFINED, UNDEFINED, 2]) for s in seen)


def test_nested_builtin_writes_leave_host_state_alone() -> None:
    """After every polluter ran, the whole probe table still holds in one more fresh pass."""
    for polluter, _ in PAIRS:
        outcome(polluter)
    for _, probe in PAIRS:
        check(probe)
