"""Budgets bind evaluations only: between evaluations, direct runtime calls never run out."""

import time

import pytest

import syncpatch
from syncpatch.runtime import entry, realm, watchdog
from syncpatch.runtime.realm import current_realm


class ManualClock:
    """A monotonic clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    @staticmethod
    def sleep(seconds: float) -> None:  # the watchdog thread still polls in real time
        time.sleep(seconds)


@pytest.fixture
def manual_clock(monkeypatch: pytest.MonkeyPatch) -> ManualClock:
    """Every clock the wall-time budget reads (the realm's checks, the entry's start, the
    watchdog), frozen: a loaded machine cannot spend the 1 ms budget behind the test's back."""
    clock = ManualClock()
    for module in (realm, entry, watchdog):
        monkeypatch.setattr(module, "time", clock)
    return clock


def test_no_budget_applies_outside_an_evaluation(manual_clock: ManualClock) -> None:
    tight = syncpatch.Budgets(steps=2_000, wall_time=0.001)
    expr = syncpatch.compile_expression("let i = 0; while (i < 1000) i++; i", budgets=tight)
    assert expr(None) == 1000  # leaves the thread's spare realm with a spent budget
    r = current_realm()
    for _ in range(10_000):
        r.charge()  # would exhaust 2,000 steps inside an evaluation
    manual_clock.now += 1.0
    r.check_time()  # a second past the 1 ms deadline: still no error outside an evaluation


def test_budgets_still_bind_inside_evaluations_after_idle_use(manual_clock: ManualClock) -> None:
    test_no_budget_applies_outside_an_evaluation(manual_clock)
    expr = syncpatch.compile_expression("while (true) {}", budgets=syncpatch.Budgets(steps=5_000))
    try:
        expr(None)
    except syncpatch.LimitExceeded as exc:
        assert exc.budget == "steps"
    else:  # pragma: no cover - the assertion below reports it
        raise AssertionError("an infinite loop finished")


def test_allocation_budget_is_per_evaluation():
    tight = syncpatch.Budgets(allocation=1_000_000)
    bomb = syncpatch.compile_expression(
        "let n = 0; for (let i = 0; i < 100; i++) n += 'x'.repeat(1e5).length; n", budgets=tight)
    try:
        bomb(None)
    except syncpatch.LimitExceeded as exc:
        assert exc.budget == "allocation"
    else:  # pragma: no cover
        raise AssertionError("10 MB of strings fit a 1 MB allocation budget")
    # 400 calls of 1 MB each exceed the default 256 MiB in total, but not per evaluation
    single = syncpatch.compile_expression("'x'.repeat(1e6).length")
    assert all(single(None) == 1_000_000 for _ in range(400))


def test_ints_beyond_2_53_come_back_as_doubles():
    """The value mapping: an integral number within +-2**53 comes back as int, else float."""
    expr = syncpatch.compile_expression("[value, {a: value, b: 1}, value]")
    assert expr(2**80) == [float(2**80), {"a": float(2**80), "b": 1}, float(2**80)]
    assert type(syncpatch.compile_expression("value")(2**80)) is float
    assert type(syncpatch.compile_expression("value")(2**53)) is int
