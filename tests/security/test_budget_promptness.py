"""Each budget stops evaluation with its own, clear ``LimitExceeded`` (kinds, not timings).

How promptly each one stops is measured by ``benchmarks/budget_promptness.py`` and written
down in ``docs/security.md``; tests never assert on time. The wall-time rows run on a clock
that moves a second at every reading (``stepping_clock``), so whether the budget trips does
not depend on how fast or loaded the machine is. Budgets are set per expression
(``compile_expression(..., budgets=)``) and per call (``fn(value, budgets=)``); the per-call
value wins. ``LimitExceeded`` is an ``EvaluationError`` whose ``budget`` names the budget.
"""

from __future__ import annotations

from typing import Any

import pytest

from syncpatch import Budgets, EvaluationError, LimitExceeded, compile_expression

from .sec_harness import assert_no_leak

ROOMY = dict(steps=10**12, call_depth=100_000, string_length=1 << 40, array_length=1 << 40, allocation=1 << 50,
             wall_time=60.0, regex_timeout=30.0)

#: budget -> (script that exhausts it, the one small budget, expected js_name, message fragment)
ROWS = {
    "steps": ("while (true) {}", {"steps": 20_000}, "LimitExceeded", "step budget"),
    "steps-callbacks": ("Array(5000).fill(0).map(x => x).length", {"steps": 1_000}, "LimitExceeded", "step"),
    "call_depth": ("function r(n) { return r(n + 1) } r(0)", {"call_depth": 50}, "RangeError",
                   "Maximum call stack size exceeded"),
    "string_length": ("let s = 'ab'; while (true) s = s.concat(s)", {"string_length": 10_000}, "RangeError",
                      "Invalid string length"),
    "array_length": ("let a = [1]; while (true) a = a.concat(a)", {"array_length": 10_000}, "RangeError",
                     "Invalid array length"),
    "wall_time": ("while (true) {}", {"wall_time": 0.05}, "LimitExceeded", "wall-time"),
    "regex": ("/^(a|aa)+$/.test('a'.repeat(5000) + 'b')", {"regex_timeout": 0.05}, "LimitExceeded",
              "regular expression"),
    "wall_time-in-builtin": ("encodeURIComponent('\\u00ff'.repeat(300000)).length", {"wall_time": 0.01},
                             "LimitExceeded", "wall-time"),
    "allocation": ("const a = []; for (let i = 0; i < 100; i++) a.push('x'.repeat(100000)); a.length",
                   {"allocation": 1_000_000}, "RangeError", "allocation"),
}
BUDGET_OF = {"steps-callbacks": "steps", "wall_time-in-builtin": "wall_time"}
BUGS: dict[str, str] = {}


def _params() -> list[object]:
    return [pytest.param(k, id=k, marks=[pytest.mark.xfail(strict=True, reason=f"bug: {BUGS[k]}")] if k in BUGS
                         else []) for k in ROWS]


@pytest.mark.parametrize("row", _params())
def test_budget_trips_with_its_own_error(row: str, request: pytest.FixtureRequest, through: Any) -> None:
    src, small, js_name, fragment = ROWS[row]
    budget = BUDGET_OF.get(row, row)
    if budget == "wall_time":
        request.getfixturevalue("stepping_clock")
    fn = through(src, Budgets(**{**ROOMY, **small}))
    with pytest.raises(LimitExceeded) as info:
        fn(None, {})
    exc = info.value
    assert isinstance(exc, EvaluationError)
    assert exc.budget == budget
    assert exc.js_name == js_name
    assert fragment in str(exc)
    assert_no_leak(str(exc))


@pytest.mark.parametrize("row", _params())
def test_per_call_budgets_override_the_expression_budgets(row: str, request: pytest.FixtureRequest) -> None:
    src, small, _, _ = ROWS[row]
    if BUDGET_OF.get(row, row) == "wall_time":
        request.getfixturevalue("stepping_clock")
    fn = compile_expression(src, budgets=Budgets(**ROOMY))
    with pytest.raises(LimitExceeded) as info:
        fn(None, budgets=Budgets(**{**ROOMY, **small}))
    assert info.value.budget == BUDGET_OF.get(row, row)


def test_limit_is_not_catchable_by_js() -> None:
    for src in ("try { while (true) {} } catch (e) { 'caught' }",
                "try { 'a'.repeat(2 ** 30) } catch (e) { 'caught' }",
                "function r() { try { return r() } catch (e) { return 'caught' } } r()",
                "try { /^(a|aa)+$/.test('a'.repeat(5000) + 'b') } catch (e) { 'caught' } finally { 'fin' }"):
        fn = compile_expression(src, budgets=Budgets(steps=20_000, call_depth=50, string_length=10_000,
                                                     regex_timeout=0.05))
        with pytest.raises(LimitExceeded):
            fn(None)


def test_budgets_reset_between_calls() -> None:
    """A call that used most of a budget leaves nothing behind for the next call."""
    fn = compile_expression("let n = 0; for (let i = 0; i < 9000; i++) n++; n", budgets=Budgets(steps=10_000))
    assert [fn(None) for _ in range(5)] == [9000] * 5
    deep = compile_expression("function f(n) { return n ? f(n - 1) : 0 } f(45)", budgets=Budgets(call_depth=50))
    assert [deep(None) for _ in range(5)] == [0] * 5


def test_limit_after_a_limit_leaves_the_thread_usable() -> None:
    bomb = compile_expression("function r() { return r() } r()", budgets=Budgets(call_depth=50))
    for _ in range(3):
        with pytest.raises(LimitExceeded):
            bomb(None)
    assert compile_expression("[1, 2, 3].map(x => x * 2)")(None) == [2, 4, 6]


def test_default_budgets_are_generous_for_real_patches() -> None:
    fn = compile_expression("Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toUpperCase(), "
                            "String(v).repeat(10)]))")
    value = {f"k{i}": "v" * 50 for i in range(2000)}
    out = fn(value)
    assert len(out) == 2000 and out["K0"] == "v" * 500


def test_budgets_fields_and_defaults() -> None:
    b = Budgets()
    assert (b.steps, b.call_depth, b.string_length, b.array_length, b.allocation, b.wall_time, b.regex_timeout) \
        == (10_000_000, 400, 16 * 1024 * 1024, 1_000_000, 256 * 1024 * 1024, 5.0, 1.0)
