"""The general tier's fused entry (``compiler/emit.py``'s ``_FUSED``, ``CompiledFunction.fused``):
a one-expression script's ``_main`` written into the public call with the wrapper's fast path
around it keeps every guarantee of the wrapper (``runtime/entry.py``).

Every script here is one expression, so it takes the fused entry (checked by ``fused``); each
test pairs it with what the plain wrapper must give: errors translated, budgets enforced,
patched built-ins undone, results converted, inputs canonical, nested calls and threads apart."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import syncpatch
from syncpatch.runtime.bigstack import COUNTED_DEALLOC
from syncpatch.runtime.interop import to_python
from syncpatch.runtime.realm import PATCHED_REALMS, WATCHED, Realm, activate, local_state
from syncpatch.runtime.values import UNDEFINED


def fused(source: str, **budgets: Any) -> syncpatch.Expression:
    """The general tier of a one-expression script, checked to run on the fused entry."""
    expression = syncpatch.compile_expression(source, budgets=syncpatch.Budgets(**budgets))
    if not COUNTED_DEALLOC:  # (CPython 3.13+ keeps the plain wrapper: its small-stack check comes first)
        assert expression.__code__.co_name == "_fast", "a one-expression script takes the fused entry"
    assert expression.general.entry() is expression
    return expression


def clean_spare() -> bool:
    spare = local_state().spare
    return not spare.busy and spare.overlay is None and not spare.extra and spare.context is None \
        and spare.dead is None and local_state().realm is spare


def test_a_script_of_statements_and_callbacks_is_fused_too() -> None:
    assert fused("let n = value; n + 1")(1) == 2
    assert fused("value.map(x => x * 2).filter(x => x > 2)")([1, 2, 3]) == [4, 6]
    assert fused("let s = 0; for (const x of value) s += x; s")([1, 2, 3]) == 6
    assert fused("(function f(n) { return n ? n + f(n - 1) : 0; })(value)")(10) == 55


def test_a_long_script_is_fused_unless_its_blocks_nest_deeply() -> None:
    long = "value.metadata.name.length > 20 ? value.metadata.name.slice(0, 20).replace(/-+$/, '') : value.metadata.name"
    assert len(long) > 90  # (past the length at which the emitter measures how deep a module nests)
    assert fused(long)({"metadata": {"name": "a" * 19 + "--b"}}) == "a" * 19
    deep = "let n = 0; " + "if (value) { " * 70 + "n++; " + "} " * 70 + "n"
    expression = syncpatch.compile_expression(deep, budgets=syncpatch.Budgets())
    assert expression.__code__.co_name != "_fast"  # (seventy blocks: three more levels would near CPython's 100)
    assert expression(True) == 1


def test_a_main_with_keyword_parameters_keeps_the_plain_wrapper() -> None:
    expression = syncpatch.compile_expression("try { null.x } catch (e) { e.message }", budgets=syncpatch.Budgets())
    assert expression.__code__.co_name != "_fast"  # (``catch`` names its variables through ``_main``'s ``_names``)
    assert expression(None) == "Cannot read properties of null (reading 'x')"


@pytest.mark.parametrize(("source", "budget", "limits"), [
    ("let n = 0; for (let i = 0; i < value; i++) n++; n", "steps", {"steps": 1000}),
    ("value.map(x => x + 1).length", "steps", {"steps": 1000}),
    ("(function f(n) { return n ? f(n - 1) : 0; })(value)", "call_depth", {"call_depth": 50}),
])
def test_loops_callbacks_and_recursion_meet_their_budgets_on_the_fused_entry(
        source: str, budget: str, limits: dict[str, Any]) -> None:
    expression = fused(source, **limits)
    big = list(range(5000)) if "map" in source else 5000
    with pytest.raises(syncpatch.LimitExceeded) as info:
        expression(big)
    assert info.value.budget == budget and clean_spare()
    assert expression([1, 2] if "map" in source else 20) in (20, 0, 2)  # the next call starts afresh


def test_a_script_that_can_mutate_its_input_keeps_the_plain_wrapper() -> None:
    expression = syncpatch.compile_expression("value.a = 2", budgets=syncpatch.Budgets())
    value = {"a": 1}
    assert expression.__code__.co_name != "_fast" and expression(value) == 2 and value == {"a": 1}


def test_errors_become_public_errors_and_end_the_evaluation() -> None:
    expression = fused("null.x")
    with pytest.raises(syncpatch.EvaluationError) as info:
        expression(None)
    assert info.value.js_name == "TypeError" and "reading 'x'" in str(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__
    assert clean_spare()


def test_a_thrown_value_names_the_script_variable() -> None:
    with pytest.raises(syncpatch.EvaluationError) as info:
        fused("undefinedName + value")(1)
    assert info.value.js_name == "ReferenceError" and "undefinedName" in str(info.value)
    assert clean_spare()


def test_a_patched_built_in_is_undone_after_the_call() -> None:
    before = PATCHED_REALMS[0]
    patch = fused("(Array.prototype.planted = 'leak', [].planted)")
    assert patch(None) == "leak"
    assert fused("[].planted")(None) is UNDEFINED
    assert PATCHED_REALMS[0] == before and clean_spare()


def test_a_failing_call_that_patched_leaves_the_spare_clean() -> None:
    before = PATCHED_REALMS[0]
    with pytest.raises(syncpatch.EvaluationError):
        fused("(Object.prototype.planted = 1, null.x)")(None)
    assert fused("({}).planted")(None) is UNDEFINED
    assert PATCHED_REALMS[0] == before and clean_spare()


@pytest.mark.parametrize(("source", "budget", "limits", "small"), [
    ("Array(SIZE).fill(0).join(',').length", "steps", {"steps": 100}, 19),
    ("'x'.repeat(value).length", "string_length", {"string_length": 1000}, 10),
    ("Array(+value).length", "array_length", {"array_length": 1000}, 10),
    ("'x'.repeat(value).length", "allocation", {"allocation": 1000}, 10),
])
def test_budgets_run_out_on_the_fused_entry_and_the_next_call_starts_afresh(
        source: str, budget: str, limits: dict[str, Any], small: int) -> None:
    budgets = syncpatch.Budgets(**limits)
    expression = fused(source.replace("SIZE", "5000"), **limits)
    with pytest.raises(syncpatch.LimitExceeded) as info:
        expression(5000)
    assert info.value.budget == budget
    assert clean_spare()
    fits = syncpatch.compile_expression(source.replace("SIZE", "10"), budgets=budgets)
    assert fits(10) == small  # a small evaluation fits the same budgets


def test_a_spent_budget_does_not_carry_over_to_the_next_fused_call() -> None:
    spend = fused("Array(100000).fill(0).join(',').length", steps=1000)
    with pytest.raises(syncpatch.LimitExceeded):
        spend(None)
    fits = fused("Array(5000).fill(0).join(',').length", steps=1000)
    assert fits(None) == 9999


def test_the_wall_time_budget_interrupts_a_fused_call() -> None:
    expression = fused("Array(10000000).fill('ab').join('').length", wall_time=0.01,
                       steps=10**12, array_length=10**8, string_length=10**10, allocation=10**12)
    with pytest.raises(syncpatch.LimitExceeded) as info:
        expression(None)
    assert info.value.budget == "wall_time"
    assert clean_spare() and not local_state().spare.fired


@pytest.mark.parametrize("source", [
    "({b: 1, 10: 2, 2: 3, a: 4})", "[1, 2 ** 40, -0, 2.5, 2 ** 60]", "({a: -0, 1: 0.5})", "[[1, 2], {c: [3]}]",
    "2 ** 31", "2 ** 53 + 2", "-(2 ** 31)", "4 / 2", "-0", "null", "undefined", "[]", "'s'", "true", "value",
    "2.5", "1 / 3", "NaN", "Infinity", "-Infinity", "2 ** 53 * 1.5", "2 ** 60 + 0.5", "-0.5", "6 / 2 + 0.0",
])
def test_results_come_back_as_to_python_gives_them(source: str) -> None:
    expression = fused(source)
    realm = local_state().spare
    got = expression(None)
    with activate(realm):
        raw = expression.general._main(realm, None, None, True)
    expected = to_python(raw)
    assert repr(got) == repr(expected)
    if isinstance(expected, dict):
        assert list(got) == list(expected)


def test_inputs_are_canonical_as_on_the_plain_wrapper() -> None:
    assert fused("typeof value === 'number' && Number.isInteger(value)")(2.0) is True
    assert fused("value.length")("\U0001f600") == 2  # one code point, two UTF-16 units
    assert fused("value.length")(("a", "b")) == 2  # a tuple is an array
    assert fused("value + '!'")("abc") == "abc!"


def test_value_exists_is_a_boolean_whatever_the_caller_passes() -> None:
    expression = fused("valueExists")
    assert expression(1, None, 0) is False and expression(1, None, "yes") is True
    assert expression(1, value_exists=False) is False and expression(1) is True


def test_keyword_arguments_and_call_time_budgets() -> None:
    expression = fused("'x'.repeat(value).length")
    assert expression(value=3, context=None) == 3
    with pytest.raises(syncpatch.LimitExceeded):
        expression(5000, budgets=syncpatch.Budgets(string_length=100))
    assert expression(5000) == 5000  # the compile-time budgets again
    assert clean_spare()


def test_a_fused_call_nested_in_another_evaluation_runs_in_its_own_realm() -> None:
    patch = fused("(Array.prototype.planted = 'inner', [].planted)")
    outer = Realm()
    outer.busy = WATCHED
    steps_before = outer.steps_left
    with activate(outer):
        assert patch(None) == "inner"
        assert local_state().realm is outer
    assert outer.overlay is None and outer.steps_left == steps_before
    assert fused("[].planted")(None) is UNDEFINED


def test_a_fused_call_while_the_spare_is_busy_does_not_touch_it() -> None:
    spare = local_state().spare
    spare.busy = True  # as a plan application holds it
    try:
        assert fused("value + 1")(1) == 2
        assert spare.busy is True and spare.context is None
    finally:
        spare.busy = False


def test_each_thread_runs_fused_calls_on_its_own_spare() -> None:
    patches = [fused(f"(Array.prototype.planted = {tag}, [].planted)") for tag in range(4)]
    probe = fused("[].planted")
    seen: list[Any] = []
    spares: list[Realm] = []

    def work(tag: int) -> None:
        for _ in range(200):
            seen.append(patches[tag](None) == tag and probe(None) is UNDEFINED)
        spares.append(local_state().spare)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(seen) and len(seen) == 800
    assert len({id(s) for s in spares}) == 4 and local_state().spare not in spares


def test_a_thread_s_first_evaluation_makes_its_state_whichever_call_comes_first() -> None:
    # (the thread-local state is a plain ``_thread._local``: unset in a thread until its first use)
    add, repeat = fused("value + 1"), fused("'ab'.repeat(value)")
    doors = {
        "fused": lambda: add(1) == 2,
        "wrapper": lambda: add.general(1) == 2,
        "call-time budgets": lambda: add(1, budgets=syncpatch.Budgets()) == 2,
        "a built-in reading the realm": lambda: repeat(2) == "abab",
        "a failing call": lambda: pytest.raises(syncpatch.EvaluationError, fused("null.x"), None) is not None,
    }
    main = local_state().spare
    results: dict[str, bool] = {}

    def first(name: str) -> None:
        results[name] = doors[name]() and clean_spare() and local_state().spare is not main and doors[name]()

    for name in doors:
        thread = threading.Thread(target=first, args=(name,))
        thread.start()
        thread.join()
    assert results == {name: True for name in doors}


class _Text(str):
    def __add__(self, other: Any) -> Any:
        return 1

    def __radd__(self, other: Any) -> Any:
        return 2

    def __eq__(self, other: Any) -> Any:
        return 3

    def __lt__(self, other: Any) -> Any:
        return 4

    __hash__ = str.__hash__


@pytest.mark.parametrize("source", [
    '"tenant-" + value', 'value + "-x"', "`${value}`", "`a${value}b${context}`", 'value === "a"', "value == 1",
    "value != null", "value < 3", 'value >= "b"', "!value", "typeof value", 'value ? "a" : `b${value}`',
    '({toString() { return "q" }}) + ""', "({valueOf() { return 1 }}) < value",
])
def test_a_script_whose_value_is_always_a_string_or_boolean_returns_it_unchecked(source: str) -> None:
    # (``compiler/emit.py``'s ``_plain_result``: the fused entry drops the result's check, whose
    # set of types returned as they are it then never reads)
    expression = fused(source)
    if not COUNTED_DEALLOC:
        assert "_entry_as_is" not in expression.__code__.co_freevars
    for value in [None, True, 0, -0.0, 1.5, float("nan"), "abc", "\u00e9\ud83d\ude00", _Text("s"), {"a": 1}, [], [1, "a"],
                  (1, 2), {"toString": 1}]:
        try:
            result = expression(value, value)
        except syncpatch.EvaluationError:
            continue
        assert type(result) in (str, bool), (value, result)


def test_a_script_whose_value_may_be_anything_keeps_the_result_check() -> None:
    expression = fused('value ? "a" : 1')
    if not COUNTED_DEALLOC:
        assert "_entry_as_is" in expression.__code__.co_freevars
    assert expression([1]) == "a" and expression(0) == 1


def test_each_call_reads_its_own_context() -> None:
    expression = fused("context.vcluster.namespace")
    assert expression(None, {"vcluster": {"namespace": "ns"}}) == "ns"
    assert expression(None, {"vcluster": {"namespace": "other"}}) == "other"
    assert expression(None, {"vcluster": {}}) is UNDEFINED


def test_an_interrupt_is_raised_as_itself() -> None:
    def interrupt(*_: Any) -> Any:
        raise KeyboardInterrupt

    expression = fused("value + 1")
    # (the generated module's own namespace, the operator's slow path: on CPython 3.13+ the
    # public call is the plain wrapper, whose globals are the runtime's, not the module's)
    expression.general._main.__globals__["add"] = interrupt
    with pytest.raises(KeyboardInterrupt):
        expression("a")
    assert clean_spare()
