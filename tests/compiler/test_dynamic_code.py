"""eval and the Function constructor: their text goes through the compiler at run time
(``compiler/dynamic.py``) and runs in the caller's realm (``runtime/dynamic_code.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from syncpatch import Budgets, EvaluationError, LimitExceeded, compile_expression
from syncpatch.runtime import dynamic_code


def run(source: str) -> Any:
    return compile_expression(source)()


def test_direct_eval_reads_and_writes_the_callers_bindings() -> None:
    assert run("(function (a) { var b = 2; return eval('a * 10 + b'); })(4)") == 42
    assert run("(function () { var x = 1; eval('x = 5'); return x; })()") == 5
    assert run("var o = { k: 7, m: function () { return eval('this.k'); } }; o.m()") == 7
    assert run("(function () { const c = 1; try { eval('c = 2'); } catch (e) { return e.name; } })()") == "TypeError"


def test_sloppy_eval_var_lands_in_the_caller_or_on_the_global_object() -> None:
    assert run("(function () { var y = 1; eval('var y = 9'); return y; })()") == 9
    assert run("eval('var fresh = 5'); fresh") == 5
    assert run("(function () { 'use strict'; eval('var z = 3'); return typeof z; })()") == "undefined"


def test_sloppy_eval_var_declares_in_the_calling_functions_scope() -> None:
    """A var the function does not bind lands in the function (19.2.1.3), not on the global
    object; it shadows an outer binding from then on, and code from strings may delete it."""
    assert run("function g() { eval('var q = 5'); return q; } [g(), typeof q]") == [5, "undefined"]
    assert run("function g() { eval('var q = 5'); return () => q; } g()()") == 5
    assert run("function g() { eval('var q = 5'); q++; q += 2; return [q, delete q, typeof q]; } g()") == \
        [8, True, "undefined"]
    # the reference `x` on the left is resolved before the eval runs: the outer x gets 1
    assert run("function t() { var x = 0; var inner = (function () { x = (eval('var x;'), 1); return x; })();"
               " return [typeof inner, x]; } t()") == ["undefined", 1]
    assert run("function m() { eval(\"eval('var deep = 9')\"); return deep; } m()") == 9
    assert run("function o() { eval('1'); return typeof toString; } o()") == "function"  # the holder has no prototype


def test_sloppy_eval_function_declarations_land_in_the_caller() -> None:
    assert run("function F() { eval('function h() { return 3; }'); return h(); } F()") == 3
    assert run("eval('function top() { return 4; }'); typeof top") == "function"
    assert run("function g() { eval('function h() { return this; }'); return h() === globalThis; } g()") is True


@pytest.mark.parametrize("source", [
    "(() => { let x; eval('var x;'); })()",
    "({ m() { let x; eval('var x;'); } }).m()",
    "(function () { { let b; eval('var b'); } })()",
    "((a = eval('var a = 42')) => 1)()",  # a parameter list: its names are outside eval's var scope
    "let z = 1; eval('var z = 2')",
    "(function () { let w; eval('function w() {}'); })()",
])
def test_eval_var_clashing_with_a_lexical_name_is_a_syntax_error(source: str) -> None:
    assert run(f"try {{ {source}; 'ran' }} catch (e) {{ e.name }}") == "SyntaxError"


def test_eval_var_may_share_a_var_parameter_or_catch_name() -> None:
    assert run("function k(p) { eval('var p = 7'); return p; } k(1)") == 7
    assert run("function h() { var w = 1; eval('var w = 3'); return w; } h()") == 3
    assert run("try { throw 1 } catch (e) { eval('var e = 2'); e }") == 2


def test_nested_direct_evals_chain_environments() -> None:
    assert run("var n = 0; eval(\"while (n < 5) eval('n++')\"); n") == 5


def test_indirect_eval_and_function_see_the_top_level_only() -> None:
    assert run("var g = 3; function f() { var g = 4; return (0, eval)('g'); } f()") == 3
    assert run("var x = 2; Function('a', 'b', 'return a * b + x')(3, 4)") == 14
    assert run("typeof Function('return this')()") == "object"
    assert run("String(Function('a,b', 'return a'))") == "function anonymous(a,b\n) {\nreturn a\n}"


def test_errors_in_text_are_js_errors() -> None:
    assert run("try { eval('var;'); } catch (e) { e.name }") == "SyntaxError"
    assert run("try { Function('a){', '}'); } catch (e) { e.name }") == "SyntaxError"
    assert run("try { eval('class A { #x }'); } catch (e) { e.name }") == "EvalError"
    assert run("(function () { 'use strict'; try { eval('undeclared = 1'); } catch (e) { return e.name; } })()") \
        == "ReferenceError"
    assert run("eval(42)") == 42


def test_budgets_apply_to_code_from_strings() -> None:
    fn = compile_expression("eval('for (;;) {}')")
    with pytest.raises(LimitExceeded):
        fn(budgets=Budgets(steps=10_000))
    # compiling is charged too: one step a character
    with pytest.raises(LimitExceeded):
        compile_expression("eval('1;'.repeat(3000))")(budgets=Budgets(steps=5_000))


def test_the_host_stays_out_of_reach() -> None:
    for probe in ("eval('_realm')", "Function('return __builtins__')()", "eval('process')"):
        with pytest.raises(EvaluationError) as info:
            run(probe)
        assert info.value.js_name == "ReferenceError"


def test_without_the_compiler_code_from_strings_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dynamic_code, "_hook", [])
    with pytest.raises(EvaluationError) as info:
        run("eval('1')")
    assert info.value.js_name == "EvalError"
    assert "Code generation from strings disallowed" in info.value.message
