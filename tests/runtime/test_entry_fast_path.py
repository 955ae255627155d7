"""The general tier's per-call entry (``runtime/entry.py``): its fast path (the thread's idle,
unpatched spare realm with the compile-time budgets) keeps every guarantee of the slow one.

Custom budgets force the general tier, as ``compile_expression(js, budgets=Budgets())`` does
in the benchmark. Each test pairs a call that leaves something behind (a patched built-in, a
global, a spent budget) with a later call on the fast path that must not see it."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import syncpatch
from syncpatch.runtime import members
from syncpatch.runtime.interop import to_python
from syncpatch.runtime.realm import PATCHED_REALMS, WATCHED, Realm, activate, local_state
from syncpatch.runtime.values import UNDEFINED


def general(source: str, **budgets: Any) -> syncpatch.Expression:
    return syncpatch.compile_expression(source, budgets=syncpatch.Budgets(**budgets))


def test_a_patched_array_prototype_does_not_reach_the_next_call() -> None:
    patch = general("Array.prototype.planted = 'leak'; [].planted")
    probe = general("[].planted")
    assert patch(None) == "leak"
    assert probe(None) is UNDEFINED
    spare = local_state().spare
    assert spare.overlay is None and not spare.extra and not spare.busy


def test_a_global_written_by_one_call_does_not_reach_the_next() -> None:
    write = general("globalThis.leaked = 1; leaked")
    read = general("typeof leaked")
    assert write(None) == 1
    assert read(None) == "undefined"


def test_a_call_that_fails_after_patching_leaves_the_spare_clean() -> None:
    before = PATCHED_REALMS[0]
    fail = general("Object.prototype.planted = 1; null.x")
    with pytest.raises(syncpatch.EvaluationError) as info:
        fail(None)
    assert info.value.js_name == "TypeError"
    assert general("({}).planted")(None) is UNDEFINED
    assert PATCHED_REALMS[0] == before


def test_a_spent_step_budget_does_not_carry_over() -> None:
    loop = general("let n = 0; for (let i = 0; i < 1e9; i++) n++; n", steps=10_000)
    with pytest.raises(syncpatch.LimitExceeded) as info:
        loop(None)
    assert info.value.budget == "steps"
    count = general("let n = 0; for (let i = 0; i < 5000; i++) n++; n", steps=10_000)
    assert count(None) == 5000  # a fresh budget, not what the failed call left


def test_call_time_budgets_apply_to_that_call_only() -> None:
    count = general("let n = 0; for (let i = 0; i < value; i++) n++; n")
    small = syncpatch.Budgets(steps=100)
    for _ in range(2):  # (the second call reuses the closure made for these budgets)
        with pytest.raises(syncpatch.LimitExceeded):
            count(5000, budgets=small)
        assert count(50, budgets=small) == 50
        assert count(5000) == 5000  # the compile-time budgets again
    assert count(5000, budgets=syncpatch.Budgets()) == 5000
    assert not local_state().spare.busy


def test_call_time_budgets_on_a_native_expression_load_its_general_tier_once() -> None:
    expression = syncpatch.compile_expression("value.a + 1")
    assert expression.native and not expression.general.loaded
    small = syncpatch.Budgets(steps=100)
    assert [expression({"a": n}, budgets=small) for n in range(3)] == [1, 2, 3]
    assert expression.general.loaded and expression({"a": 5}) == 6


def test_a_call_nested_in_another_evaluation_runs_in_its_own_realm() -> None:
    patch = general("Array.prototype.planted = 'inner'; [].planted")
    outer = Realm()
    outer.busy = WATCHED
    steps_before = outer.steps_left
    with activate(outer):
        assert patch(None) == "inner"
        assert local_state().realm is outer
    assert outer.overlay is None and outer.steps_left == steps_before
    assert general("[].planted")(None) is UNDEFINED


def test_a_call_while_the_spare_is_busy_does_not_touch_it() -> None:
    spare = local_state().spare
    spare.busy = True  # as a plan application holds it
    try:
        assert general("value + 1")(1) == 2
        assert spare.busy is True and spare.context is None
    finally:
        spare.busy = False


def test_a_spare_patched_between_evaluations_is_cleaned_before_the_fast_path() -> None:
    before = PATCHED_REALMS[0]
    spare = local_state().spare
    members.set_member(members.get_prototype([]), "planted", "between")  # a direct runtime call
    assert spare.extra and PATCHED_REALMS[0] == before + 1
    assert general("[].planted")(None) is UNDEFINED
    assert not spare.extra and spare.overlay is None and PATCHED_REALMS[0] == before


def test_each_thread_runs_on_its_own_spare() -> None:
    patch = general("Array.prototype.planted = value; [].planted")
    probe = general("[].planted")
    seen: list[Any] = []
    spares: list[Realm] = []

    def work(tag: int) -> None:
        for _ in range(200):
            seen.append(patch(tag) == tag and probe(None) is UNDEFINED)
        spares.append(local_state().spare)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(seen) and len(seen) == 800
    assert len({id(s) for s in spares}) == 4 and local_state().spare not in spares


def test_inputs_are_copied_only_when_the_script_can_mutate_them() -> None:
    value = {"metadata": {"labels": {"a": "1"}}}
    out = general("value.metadata.labels.b = '2'; value")(value)
    assert value == {"metadata": {"labels": {"a": "1"}}}
    assert out == {"metadata": {"labels": {"a": "1", "b": "2"}}}
    assert general("value.x = 1; value")("text") == "text"  # a scalar: nothing to copy


def test_scalar_inputs_are_canonical_on_the_fast_path() -> None:
    assert general("typeof value === 'number' && Number.isInteger(value)")(2.0) is True
    assert general("value.length")("\U0001f600") == 2  # one code point, two UTF-16 units
    assert general("value.length")(("a", "b")) == 2  # a tuple is an array


@pytest.mark.parametrize("source", [
    "[1, 'a', true, null, undefined]", "({a: 1, b: 'x'})", "({b: 1, 10: 2, 2: 3, a: 4})",
    "Object.fromEntries([['x', 1], ['5', 2]])", "[1, 2 ** 40, -0, 2.5, 2 ** 60]", "({a: 2 ** 40, 2: 1})",
    "({a: -0, 1: 0.5})", "[[1, 2], {c: [3]}]", "({[Symbol.iterator]: 1, 3: 2, a: 2})", "[]", "({})",
    "2 ** 31", "2 ** 53 + 2", "-(2 ** 31)", "4 / 2", "-0", "null", "undefined",
    *(f"try {{ }} catch (e) {{ }} {number}" for number in ("2.5", "1 / 3", "NaN", "-Infinity", "2 ** 60 + 0.5", "6 / 2", "-0")),
])
def test_results_come_back_as_to_python_gives_them(source: str) -> None:
    """The entry's quick result checks agree with ``to_python`` on every kind of result."""
    expression = general(source)
    realm = local_state().spare
    got = expression(None)
    with activate(realm):
        raw = expression.general._main(realm, None, None, True)
    expected = to_python(raw)
    assert repr(got) == repr(expected)
    if isinstance(expected, dict):
        assert list(got) == list(expected)


def test_a_script_whose_main_takes_keywords_runs_on_the_plain_wrapper() -> None:
    """(``catch`` names its variables through ``_main``'s keyword ``_names``: not fused, see
    tests/runtime/test_entry_fused.py; the rows above with ``catch`` test this wrapper.)"""
    assert general("try { } catch (e) { } 2.5").__code__.co_name == "expression"


def test_the_fast_path_is_the_public_function() -> None:
    expression = general("value")
    assert expression.general.entry() is expression
    assert expression({"a": 1}) == {"a": 1}


@pytest.mark.parametrize("value", [
    {1: "int key", "b": 2, "name": "ik"}, {"2": 1, "a": 2, 1: 3}, {"10": "ten", "2": "two", "x": None},
    {1.5: "float key", "a": 1}, [1, "a", None, UNDEFINED, True],
])
def test_caller_dicts_returned_as_they_are_agree_with_to_python(value: Any) -> None:
    """A script that returns its input unchanged (nothing copied) hands back what
    ``to_python`` makes of it: keys that are not strings kept, integer-like keys first."""
    got = general("value")(value)
    assert repr(got) == repr(to_python(value))


# -- a result the script shared into itself expands exponentially on the way out -------------
SHARED_DOUBLING = "(() => { let s = [1]; for (let i = 0; i < 40; i++) { s = [s, s]; } return s; })()"


def test_converting_a_self_shared_result_meets_the_wall_time() -> None:
    """2**40 leaves: the conversion runs while the watchdog still watches the evaluation."""
    expression = syncpatch.compile_expression(SHARED_DOUBLING, budgets=syncpatch.Budgets(wall_time=0.3))
    with pytest.raises(syncpatch.LimitExceeded) as caught:
        expression()
    assert caught.value.budget == "wall_time"


def test_the_native_tier_leaves_a_self_shared_result_to_the_general_tier() -> None:
    from syncpatch.runtime.native import Deopt, export

    s: list[object] = [1]
    for _ in range(40):
        s = [s, s]
    with pytest.raises(Deopt):
        export(s)
    assert export([[1.5], [2.0]]) == [[1.5], [2]]  # small trees are still converted
