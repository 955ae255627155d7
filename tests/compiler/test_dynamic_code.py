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
