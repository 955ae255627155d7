"""Vectors: ``constructor.constructor`` chains, ``Function``/``eval`` reachability, and the
global object (``globalThis``, ``this``, ``process``, ``require``, ``import()``).

``eval`` and the ``Function`` constructor (however reached: ``x.constructor.constructor``,
``globalThis.eval``) compile their text with the same compiler and run it in the same
sandbox and budgets as the script: the host stays out of reach from code made of strings
too. Nothing of the host (process, modules, timers, network) exists as a global.
"""

from __future__ import annotations

from typing import Any


import pytest

from .sec_harness import UNDEFINED, C, Case, E, R, check, params

V = {"a": 1}

CASES: list[Case] = [
    # code from strings runs in the sandbox, through the same compiler
    Case("eval-direct", "eval('1 + 1')", R(2)),
    Case("eval-indirect", "(0, eval)('1 + 1')", R(2)),
    Case("eval-as-value", "const e = eval; e('1')", R(1)),
    Case("eval-sees-locals", "(function (a) { return eval('a * 2') })(21)", R(42)),
    Case("eval-host-name", "eval('process')", E("ReferenceError")),
    Case("eval-python-name", "eval('_realm')", E("ReferenceError")),
    Case("eval-refused-inside", "eval('class A { #x }')", E("EvalError"), node=False),
    Case("function-call", "Function('return 1')()", R(1)),
    Case("function-new", "new Function('return this')() === globalThis", R(True)),
    Case("function-process", "Function('return typeof process')()", R("undefined")),
    # compile-time refusals
    Case("import-call", "import('fs')", C),
    Case("import-meta", "import.meta", C),
    Case("import-statement", "import fs from 'fs'; 1", C),
    Case("export-statement", "export const x = 1", C),
    Case("this-top-level", "this === globalThis", R(True)),
    Case("this-top-level-member", "typeof this.process", R("undefined")),
    Case("with-statement", "with (Math) { max(1, 2) }", R(2)),
    Case("with-global-object", "with (globalThis) { typeof process + typeof require }", R("undefinedundefined")),
    Case("with-strict", "'use strict'; with (Math) { max(1, 2) }", C),
    Case("class-declaration", "class A { constructor() { this.x = 1 } } new A().x", R(1)),
    Case("class-private", "class A { #x = 1 } new A()", C),
    Case("generator", "function* g() { yield 1 } [...g()]", C),
    Case("async-arrow", "(async () => 1)()", C),
    Case("await-top", "await 1", C),
    # the Function constructor through prototype chains: the same sandboxed compiler
    Case("ctor-ctor-object", "({}).constructor.constructor('return 1')()", R(1)),
    Case("ctor-ctor-string", "'abc'.constructor.constructor('return process')()", E("ReferenceError")),
    Case("ctor-ctor-array", "[].constructor.constructor('return globalThis')() === globalThis", R(True)),
    Case("ctor-ctor-arrow", "(x => x).constructor('return 1')()", R(1)),
    Case("ctor-ctor-builtin", "Math.max.constructor('return 1')()", R(1)),
    Case("ctor-ctor-new", "new ([].map.constructor)('return 1')()", R(1)),
    Case("ctor-ctor-value", "value.constructor.constructor('return 1')()", R(1), value=V),
    Case("ctor-ctor-proto", "Object.getPrototypeOf(x => x).constructor('return 1')()", R(1)),
    Case("ctor-ctor-apply", "const F = (() => 1).constructor; F.apply(null, ['return 1'])()", R(1)),
    Case("ctor-ctor-call", "const F = (() => 1).constructor; F.call(null, 'return 1')()", R(1)),
    Case("ctor-ctor-no-args", "typeof ({}).constructor.constructor()", R("function")),
    Case("ctor-ctor-caught", "let r; try { r = ({}).constructor.constructor('return 1')() } catch (e) "
         "{ r = e.name } r", R(1)),
    Case("ctor-is-function", "({}).constructor.constructor === (x => x).constructor", R(True)),
    Case("ctor-name", "[].constructor.constructor.name", R("Function")),
    Case("global-eval-lookup", "typeof globalThis.eval", R("function")),
    Case("global-eval-call", "globalThis.eval('1 + 1')", R(2)),
    Case("global-eval-alias", "const e = globalThis.eval; e('value')", R({"a": 1}), value=V),
    Case("global-eval-computed", "globalThis['ev' + 'al']('process')", E("ReferenceError")),
    Case("sloppy-this-eval", "(function () { return this })().eval('1')", R(1)),
    Case("global-function-lookup", "typeof globalThis['Fun' + 'ction']", R("function")),
    Case("global-function-call", "globalThis['Fun' + 'ction']('return 1')()", R(1)),
    Case("settimeout-string", "setTimeout('1', 0)", E("ReferenceError")),
    # the host's globals do not exist
    Case("process", "process", E("ReferenceError")),
    Case("process-env", "process.env.HOME", E("ReferenceError")),
    Case("require", "require('fs')", E("ReferenceError")),
    Case("require-child", "require('child_process').execSync('id')", E("ReferenceError")),
    Case("module", "module.exports", E("ReferenceError")),
    Case("exports", "exports", E("ReferenceError")),
    Case("dirname", "__dirname", E("ReferenceError")),
    Case("filename", "__filename", E("ReferenceError")),
    Case("global", "global", E("ReferenceError")),
    Case("window", "window", E("ReferenceError")),
    Case("self", "self", E("ReferenceError")),
    Case("deno", "Deno", E("ReferenceError")),
    Case("bun", "Bun", E("ReferenceError")),
    Case("fetch", "fetch('http://169.254.169.254/')", E("ReferenceError")),
    Case("xhr", "new XMLHttpRequest()", E("ReferenceError")),
    Case("buffer", "Buffer.from('x')", E("ReferenceError")),
    Case("settimeout", "setTimeout(() => 1, 0)", E("ReferenceError")),
    Case("setinterval", "setInterval(() => 1, 0)", E("ReferenceError")),
    Case("queuemicrotask", "queueMicrotask(() => 1)", E("ReferenceError")),
    Case("python-open", "open('/etc/passwd')", E("ReferenceError")),
    Case("python-import", "__import__('os')", E("ReferenceError")),
    Case("python-builtins", "__builtins__", E("ReferenceError")),
    Case("python-exec", "exec('1')", E("ReferenceError")),
    Case("python-getattr", "getattr(value, '__class__')", E("ReferenceError"), value=V),
    Case("python-globals", "globals()", E("ReferenceError")),
    Case("python-vars", "vars()", E("ReferenceError")),
    Case("python-realm-name", "_realm", E("ReferenceError")),
    Case("python-abi-name", "get_member", E("ReferenceError")),
    Case("typeof-host-names", "[typeof process, typeof require, typeof module, typeof global, typeof window, "
         "typeof fetch, typeof setTimeout, typeof Buffer, typeof __import__, typeof open]",
         R(["undefined"] * 10)),
    Case("globalthis-process", "globalThis.process", R(UNDEFINED)),
    Case("globalthis-require", "typeof globalThis.require", R("undefined")),
    Case("globalthis-keys", "Object.keys(globalThis)", R([])),
    Case("globalthis-typeof", "typeof globalThis", R("object")),
    Case("globalthis-self-ref", "globalThis.globalThis === globalThis", R(True)),
    Case("globalthis-value-not-leaking-host", "Object.getOwnPropertyNames(globalThis).filter(k => "
         "/^(process|require|module|exports|__.*|open|exec|import|Deno|Buffer)$/.test(k))", R([])),
    Case("sloppy-this-global", "(function () { return typeof this })()", R("object")),
    Case("sloppy-this-process", "(function () { return this.process })()", R(UNDEFINED)),
    Case("sloppy-this-require", "(function () { return typeof this.require })()", R("undefined")),
    Case("strict-this", "(function () { 'use strict'; return this })()", R(UNDEFINED)),
    Case("arrow-this-in-function", "(function () { return (() => typeof this)() })()", R("object")),
    Case("call-this-null", "(function () { return typeof this }).call(null)", R("object")),
    Case("method-this", "({f() { return this.a }, a: 7}).f()", R(7)),
    Case("global-assign", "globalThis.foo = 1; foo", R(1)),
    Case("arguments-callee", "(function f() { return typeof arguments.callee })()", R("function")),
    Case("arguments-caller", "(function f() { return typeof f.caller })()", E("TypeError"), node=False,
         note="sloppy V8 exposes f.caller (null here); syncpatch functions own no caller, so the read "
              "meets Function.prototype's %ThrowTypeError% accessor (10.2.4), as the spec's functions do"),
]


@pytest.mark.parametrize("case", params(CASES))
def test_code_from_strings_and_globals(case: Case, through: Any) -> None:
    check(case, through)
