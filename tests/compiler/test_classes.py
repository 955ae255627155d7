"""Classes and ``super`` (ECMA-262 15.7, 13.3.7): each case's expected result is node's.

The cases run without node (their expected values were produced by node and are checked
against it again when node is on PATH), so the class semantics stay covered on every
machine: construction, inheritance from user classes, plain functions and built-ins,
``super`` in class and object-literal methods, fields, names and property attributes, the
errors V8 throws, and the constructs that stay refused with their position.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from syncpatch import UNDEFINED, CompileError, compile_expression

from ..support.data import NODE_EVAL as NODE_EVAL_JS
from ..support.data import require_data

#: (script, node's result as JSON)
CASES: list[tuple[str, str]] = [
    ("class A { constructor(x) { this.x = x; } get dbl() { return this.x * 2; } set dbl(v) { this.x = v / 2; } m() { return 'A' + this.x; } static make(v) { return new this(v); } }\nvar a = A.make(3); a.dbl = 10; [a.x, a.dbl, a.m(), typeof A, A.name, A.length]",
     '[5, 10, "A5", "function", "A", 1]'),
    ("class B { m() {} static s() {} get g() { return 1; } }\n[Object.keys(B.prototype).length, B.prototype.propertyIsEnumerable('m'), Object.getOwnPropertyNames(B.prototype).join(), Object.getOwnPropertyNames(B).join()]",
     '[0, false, "constructor,m,g", "length,name,prototype,s"]'),
    ("class C {}\nvar d = Object.getOwnPropertyDescriptor(C, 'prototype'); [d.writable, d.enumerable, d.configurable, C.prototype.constructor === C, Object.getPrototypeOf(C) === Function.prototype]",
     '[false, false, false, true, true]'),
    ("class C {}\ntry { C(); 'no error' } catch (e) { [e.constructor.name, e.message] }",
     '["TypeError", "Class constructor C cannot be invoked without \'new\'"]'),
    ("try { new D(); 'no error' } catch (e) { e.constructor.name } finally { class D {} }",
     '"ReferenceError"'),
    ('let r = []; try { r.push(K); } catch (e) { r.push(e.constructor.name); } class K {} r.push(typeof K); r',
     '["ReferenceError", "function"]'),
    ("class C { f() { try { C = 1; } catch (e) { return e.constructor.name + ':' + (C === Cls); } } } var Cls = C; new C().f()",
     '"TypeError:true"'),
    ('class C { m() { return typeof this; } static n() { return this === C; } } [C.prototype.m.call(undefined), C.n()]',
     '["undefined", true]'),
    ('class C { m() { return (function () { return this; })(); } } new C().m() === undefined',
     'true'),
    ('var X = class {}; var Y = class Named {}; [X.name, Y.name, typeof Named, (class {}).name]',
     '["X", "Named", "undefined", ""]'),
    ("class C { ['a' + 1]() {} static [Symbol.iterator]() {} get [1 + 1]() { return 2; } } [Object.getOwnPropertyNames(C.prototype).join(), C.prototype[2], typeof C[Symbol.iterator], C.prototype.a1.name, Object.getOwnPropertyDescriptor(C.prototype, '2').get.name]",
     '["2,constructor,a1", 2, "function", "a1", "get 2"]'),
    ('class C { static 2() {} static b() {} static 1() {} } Object.getOwnPropertyNames(C).join()',
     '"1,2,length,name,prototype,b"'),
    ("class A { constructor(x) { this.x = x; } m() { return 'A' + this.x; } static s() { return 'sA'; } }\nclass B extends A { constructor(x) { super(x + 1); this.y = 2; } m() { return 'B' + super.m(); } static s() { return 'sB' + super.s(); } }\nvar b = new B(1); [b.x, b.y, b.m(), B.s(), b instanceof A, b instanceof B, Object.getPrototypeOf(B) === A, Object.keys(b).join()]",
     '[2, 2, "BA2", "sBsA", true, true, true, "x,y"]'),
    ('class A { constructor() { this.made = new.target.name; } } class B extends A {} [new A().made, new B().made]',
     '["A", "B"]'),
    ('class A {} class B extends A { constructor() { this.x = 1; } } try { new B(); } catch (e) { [e.constructor.name, e.message] }',
     '["ReferenceError", "Must call super constructor in derived class before accessing \'this\' or returning from derived constructor"]'),
    ('class A {} class B extends A { constructor() { super(); super(); } } try { new B(); } catch (e) { [e.constructor.name, e.message] }',
     '["ReferenceError", "Super constructor may only be called once"]'),
    ('class A {} class B extends A { constructor() { return 1; } } try { new B(); } catch (e) { [e.constructor.name, e.message] }',
     '["TypeError", "Derived constructors may only return object or undefined"]'),
    ('class A {} class B extends A { constructor() { return {o: 1}; } } new B()',
     '{"o": 1}'),
    ('class A {} class B extends A { constructor() { var f = () => super(); f(); this.ok = true; } } new B().ok',
     'true'),
    ('class N extends null {} [Object.getPrototypeOf(N.prototype), typeof N]',
     '[null, "function"]'),
    ('try { class X extends 3 {} } catch (e) { e.constructor.name }',
     '"TypeError"'),
    ('function F(a) { this.a = a; this.t = new.target === G; } class G extends F { constructor() { super(5); } } var g = new G(); [g.a, g.t, g instanceof F]',
     '[5, true, true]'),
    ('class MyArr extends Array { sum() { return this.reduce((a, b) => a + b, 0); } }\nvar m = new MyArr(); m.push(1, 2, 3); var d = m.map(x => x * 2); [m.length, m.sum(), m instanceof MyArr, Array.isArray(m), d instanceof MyArr, d.sum(), JSON.stringify(m)]',
     '[3, 6, true, true, true, 12, "[1,2,3]"]'),
    ("class E extends Error { constructor(m) { super(m); this.name = 'E'; } } var e = new E('boom'); [e instanceof E, e instanceof Error, e.message, String(e), Object.prototype.toString.call(e)]",
     '[true, true, "boom", "E: boom", "[object Error]"]'),
    ("class M extends Map { getOr(k, d) { return this.has(k) ? this.get(k) : d; } } var m = new M([[1, 'a']]); [m.getOr(1, 'z'), m.getOr(2, 'z'), m.size, m instanceof M, m instanceof Map]",
     '["a", "z", 1, true, true]'),
    ("class R extends RegExp { exec(s) { var r = super.exec(s); if (r) r[0] = r[0].toUpperCase(); return r; } } var r = new R('a+'); ['caaat'.replace(r, '<$&>'), r instanceof R, r.source]",
     '["c<AAA>t", true, "a+"]'),
    ('class S extends Set {} var s = new S([1, 2, 2]); [s.size, s instanceof S, [...s].join()]',
     '[2, true, "1,2"]'),
    ("var base = { hi() { return 'base:' + this.n; } }; var o = { __proto__: base, n: 1, hi() { return 'o>' + super.hi(); } }; o.hi()",
     '"o>base:1"'),
    ('var o = { __proto__: { x: 1 }, m() { super.x = 5; return [this.x, Object.getPrototypeOf(this).x, super.x]; } }; o.m()',
     '[5, 1, 1]'),
    ('var p = { set v(x) { this.seen = x; } }; var o = { __proto__: p, m() { super.v = 7; return this.seen; } }; o.m()',
     '7'),
    ('var o = { m() { return super.toString === Object.prototype.toString; } }; o.m()',
     'true'),
    ('var list = []; for (var i = 0; i < 3; i++) { list.push({ __proto__: { k: i }, m() { return super.k; } }); } list.map(o => o.m())',
     '[0, 1, 2]'),
    ("class P { x = 1; y = this.x + 1; static z = 'zz'; ['c' + 1] = 3; } var p = new P(); [p.x, p.y, P.z, p.c1, Object.keys(p).join()]",
     '[1, 2, "zz", 3, "x,y,c1"]'),
    ('class P { x = 1; } class Q extends P { w = this.x * 10; constructor() { super(); this.v = 5; } } var q = new Q(); [q.w, q.v, Object.keys(q).join()]',
     '[10, 5, "x,w,v"]'),
    ('var n = 0; class F { a = ++n; static b = ++n; } [n, new F().a, new F().a, F.b]',
     '[1, 2, 3, 1]'),
    ('class F { static self = this; arrow = () => this; } var f = new F(); [F.self === F, f.arrow() === f]',
     '[true, true]'),
    ("class A { get g() { return this.v; } } class B extends A { constructor() { super(); this.v = 'own'; } r() { return super.g; } } new B().r()",
     '"own"'),
    ("class A { m() { return 1; } } class B extends A { m() { return super['m']() + 1; } } new B().m()",
     '2'),
    ('class A {} A.prototype.n = 1; class B extends A { inc() { super.n += 1; return [this.n, A.prototype.n]; } } new B().inc()',
     '[2, 1]'),
    ('class A {} class B extends A { d() { try { delete super.x; } catch (e) { return e.constructor.name; } } } new B().d()',
     '"ReferenceError"'),
    ('class A { static create() { return new this(); } } class B extends A {} B.create() instanceof B',
     'true'),
    ('class A { f = function () {}; g = () => 1; h = class {}; static s = function () {}; 1 = () => 2 } var a = new A(); [a.f.name, a.g.name, a.h.name, A.s.name, a[1].name]',
     '["f", "g", "h", "s", "1"]'),
    ("class T extends Array {} [T.from([1, 2]) instanceof T, T.of(1, 2) instanceof T, T.of(7, 8).length, T.from('ab').join()]",
     '[true, true, 2, "a,b"]'),
    ('class A { constructor() { this.nt = new.target === G; } } function G() {} var a = Reflect.construct(A, [], G); [a.nt, Object.getPrototypeOf(a) === G.prototype]',
     '[true, true]'),
    ('var fs = []; for (let i = 0; i < 2; i++) { class K { get() { return i; } } fs.push(new K()); } fs.map(k => k.get())',
     '[0, 1]'),
]


def _plain(v: Any) -> Any:
    if v is UNDEFINED:
        return {"$undefined": True}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


@pytest.mark.parametrize(("source", "expected"), CASES, ids=[c[0][:50] for c in CASES])
def test_classes_give_nodes_results(source: str, expected: str) -> None:
    assert _plain(compile_expression(source)(None)) == json.loads(expected)


@pytest.mark.node
@pytest.mark.skipif(shutil.which("node") is None, reason="node not available")
def test_the_expected_results_are_nodes() -> None:
    node_eval = require_data(NODE_EVAL_JS)
    lines = "".join(json.dumps({"id": i, "expr": s, "value": None, "context": {}}) + "\n"
                    for i, (s, _) in enumerate(CASES))
    proc = subprocess.run(["node", str(node_eval)], input=lines, capture_output=True, text=True, timeout=120)
    results = [json.loads(x) for x in proc.stdout.split("\n") if x.strip()]
    assert [r.get("expect") for r in results] == [json.loads(e) for _, e in CASES]


@pytest.mark.parametrize(("source", "line", "column", "words"), [
    ("class A {\n  #x = 1;\n}", 2, 3, "private class members"),
    ("class A {\n  static { }\n}", 2, 3, "static blocks"),
    ("class A { *g() {} }", 1, 11, "generator methods"),
    ("class A { static *g() {} }", 1, 18, "generator methods"),
    ("class A { async m() {} }", 1, 11, "async methods"),
])
def test_refused_class_members_name_the_place(source: str, line: int, column: int, words: str) -> None:
    with pytest.raises(CompileError) as info:
        compile_expression(source)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value)


@pytest.mark.parametrize(("source", "message"), [
    ("super.x", "'super' keyword unexpected here"),
    ("function f() { super.x }", "'super' keyword unexpected here"),
    ("class A { constructor() { super(); } }", "'super' keyword unexpected here"),
    ("class A extends Object { m() { super(); } }", "'super' keyword unexpected here"),
    ("class A { constructor() {} constructor() {} }", "A class may only have one constructor"),
    ("class A { get constructor() {} }", "Class constructor may not be an accessor"),
    ("class A { static prototype() {} }", "Classes may not have a static property named 'prototype'"),
    ("if (1) class C {}", "Unexpected token 'class'"),
    ("class C {} let C;", "Identifier 'C' has already been declared"),
    ("class C { m() { with (a) {} } }", "Strict mode code may not include a with statement"),
    ("class C { m() { 010 } }", "Octal literals are not allowed in strict mode"),
])
def test_early_errors_of_classes(source: str, message: str) -> None:
    with pytest.raises(CompileError) as info:
        compile_expression(source)
    assert message in str(info.value)


def test_reserved_words_name_class_members() -> None:
    source = "class C { static delete() { return 1; } if() { return 2; } get default() { return 3; } static() { return 4; } } var c = new C(); [C.delete(), c.if(), c.default, c.static()]"
    assert compile_expression(source)(None) == [1, 2, 3, 4]
