"""Budgets: steps, call depth, sizes, wall time; Python failures never escape raw."""

from __future__ import annotations

import pytest

from syncpatch import Budgets, EvaluationError, LimitExceeded, compile_expression


def test_infinite_loop_hits_the_step_budget() -> None:
    expr = compile_expression("while (true) {}", budgets=Budgets(steps=10_000))
    with pytest.raises(LimitExceeded) as info:
        expr({})
    assert info.value.budget == "steps"


def test_step_budget_per_call_override() -> None:
    expr = compile_expression("let n = 0; for (let i = 0; i < 5000; i++) n++; n")
    assert expr({}) == 5000
    with pytest.raises(LimitExceeded):
        expr({}, budgets=Budgets(steps=100))


def test_callbacks_are_charged() -> None:
    expr = compile_expression("const a = Array(2000).fill(0); a.map(x => a.map(y => 1)).length")
    with pytest.raises(LimitExceeded):
        expr({}, budgets=Budgets(steps=50_000))


def test_recursion_is_a_range_error_limit() -> None:
    expr = compile_expression("const f = n => f(n + 1); f(0)")
    with pytest.raises(LimitExceeded) as info:
        expr({})
    assert info.value.js_name == "RangeError"
    assert "Maximum call stack size exceeded" in str(info.value)


def test_y_combinator_recursion_is_stopped() -> None:
    source = "const Y = f => (x => x(x))(x => f(y => x(x)(y))); Y(f => n => f(n + 1))(0)"
    with pytest.raises(LimitExceeded):
        compile_expression(source)({})


def test_limits_are_not_catchable_by_js() -> None:
    expr = compile_expression("try { while (true) {} } catch (e) { 'caught' }", budgets=Budgets(steps=1000))
    with pytest.raises(LimitExceeded):
        expr({})


def test_wall_time_budget(stepping_clock: None) -> None:
    expr = compile_expression("while (true) {}", budgets=Budgets(wall_time=0.2, steps=10**12))
    with pytest.raises(LimitExceeded) as info:
        expr({})
    assert info.value.budget == "wall_time"


def test_string_budget() -> None:
    expr = compile_expression("'x'.repeat(2 ** 28)")
    with pytest.raises(LimitExceeded):
        expr({})


def test_the_process_survives_and_evaluations_are_independent() -> None:
    boom = compile_expression("const f = n => f(n + 1); f(0)")
    for _ in range(3):
        with pytest.raises(LimitExceeded):
            boom({})
    assert compile_expression("[1, 2].map(x => x * 2)")({}) == [2, 4]


def test_internal_errors_do_not_leak_python_details() -> None:
    err = EvaluationError("InternalError", "internal error while evaluating the expression")
    assert "Traceback" not in str(err) and ".py" not in str(err)


@pytest.mark.parametrize(
    "source",
    [
        "let s = 'x'; while (true) s += s",
        "let s = 'x'; while (true) s = `${s}${s}`",
        "let a = [1]; while (true) a = [...a, ...a]",
        "let a = [1]; while (true) a.push(...a)",
    ],
)
def test_doubling_bombs_stop_at_the_size_budgets(source: str) -> None:
    # No wall-time budget in the way, so a loaded machine cannot change which budget trips.
    with pytest.raises(LimitExceeded) as info:
        compile_expression(source, budgets=Budgets(wall_time=3600.0))({})
    assert info.value.js_name == "RangeError"


def test_deep_results_are_a_limit_not_a_crash() -> None:
    with pytest.raises(LimitExceeded):
        compile_expression("let o = {}; for (let i = 0; i < 20000; i++) o = {o}; o")({})
