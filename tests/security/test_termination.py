"""Once a budget runs out the evaluation is over: nothing in the script resumes it.

No ``catch``, ``finally``, ``return`` in a ``finally``, built-in error handling (a conversion
hook called by a built-in) or later loop iteration runs after the first ``LimitExceeded``;
each row runs through both exits (the closure and a ``compile-patches`` artifact loaded with
``load_plans``).
"""

from __future__ import annotations

import os
import signal
import threading
import warnings
from typing import Any

import pytest

import syncpatch

from .exits import artifact_exit, closure
from .sec_harness import SMALL, Case, L, R, check, params

S = SMALL
# (steps out of the way: the big built-ins charge steps too, and this table is about time)
WALL = SMALL.replace(wall_time=0.3, steps=10**12, string_length=1 << 25, allocation=1 << 40,
                     array_length=2_000_000)
WATCHDOG = {
    "spread": "[...a].length",
    "array-from": "Array.from(a).length",
    "slice": "a.slice().length",
    "sort": "a.sort().length",
    "apply": "Math.max.apply(null, a.slice(0, 100000))",
    "locale-compare": "s.localeCompare(s + 'b')",
    "error-message-key": "null[s]",
}
LOOP = "for (;;) {}"

CASES: list[Case] = [
    Case("finally-return", f"(() => {{ try {{ {LOOP} }} finally {{ return 'x' }} }})()", L("steps"), budgets=S),
    Case("finally-break", f"let r = 0; for (;;) {{ try {{ {LOOP} }} finally {{ r = 1; break }} }} r", L("steps"),
         budgets=S),
    Case("catch-then-return", f"(() => {{ try {{ {LOOP} }} catch (e) {{ }} return 'x' }})()", L("steps"), budgets=S),
    Case("recursion-finally-recurses", "(function f() { try { return f() } finally { f() } })()",
         L("call_depth"), budgets=S),
    Case("recursion-finally-returns", "(function f() { try { return f() } finally { return 1 } })()",
         L("call_depth"), budgets=S),
    Case("tostring-in-key", f"const o = {{}}; o[{{toString() {{ try {{ {LOOP} }} finally {{ return 'k' }} }}}}] = 1; 1",
         L("steps"), budgets=S),
    Case("tostring-in-join", f"[{{toString() {{ try {{ {LOOP} }} finally {{ return 'k' }} }}}}].join()", L("steps"),
         budgets=S),
    Case("comparator-finally", f"[3, 2, 1].sort(() => {{ try {{ {LOOP} }} finally {{ return 0 }} }})", L("steps"),
         budgets=S),
    Case("tojson-finally", f"JSON.stringify({{toJSON() {{ try {{ {LOOP} }} finally {{ return 1 }} }}}})", L("steps"),
         budgets=S),
    Case("replace-callback-finally", f"'abc'.replace(/b/, () => {{ try {{ {LOOP} }} finally {{ return 'x' }} }})",
         L("steps"), budgets=S),
    Case("deep-recursion-caught-each-level",
         "function f(n) { try { return f(n + 1) } catch (e) { return n } } f(0)", L("call_depth"), budgets=S),
    Case("regex-timeout-in-loop",
         "let n = 0; for (let i = 0; i < 100; i++) { try { /^(a|aa)+$/.test('a'.repeat(5000) + 'b') } "
         "catch (e) { n++ } } n", L("regex"), budgets=S.replace(regex_timeout=0.05, steps=10_000_000)),
    # one built-in call after another, each too big for a step check between them: the
    # watchdog interrupts them (wall_time), wherever the thread is
    *[Case(f"watchdog-{name}", f"let a = Array(1e6).fill(1); let s = 'a'.repeat(1e7); let n = 0; "
           f"for (let i = 0; i < 1000; i++) {{ try {{ n += {expr} }} catch (e) {{ n++ }} }} n",
           L("wall_time"), budgets=WALL) for name, expr in WATCHDOG.items()],
    Case("normal-finally-still-runs", "let r = []; try { r.push(1) } finally { r.push(2) } r", R([1, 2]),
         budgets=S),
    Case("normal-catch-still-runs", "try { null.x } catch (e) { e.name }", R("TypeError"), budgets=S),
]


@pytest.mark.parametrize("case", params(CASES))
def test_closure(case: Case) -> None:
    check(case, closure)


@pytest.fixture(scope="module")
def artifact(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return artifact_exit(tmp_path_factory.mktemp("termination"), [c.src for c in CASES])


@pytest.mark.parametrize("case", params(CASES))
def test_artifact(case: Case, artifact: Any) -> None:
    check(case, artifact)


def test_the_next_evaluation_is_fresh() -> None:
    """The realm's end-of-budget state dies with its evaluation."""
    fn = closure(f"if (value) {{ try {{ {LOOP} }} finally {{ }} }} 'ok'", S)
    with pytest.raises(syncpatch.LimitExceeded):
        fn(True, {})
    assert fn(False, {}) == "ok"


def test_no_interrupt_lands_after_the_call() -> None:
    """The watchdog's interrupt never reaches the caller's own code after a call returns."""
    import time

    fn = closure("let a = Array(1e6).fill(1); let n = 0; for (let i = 0; i < 1000; i++) n += [...a].length; n",
                 WALL.replace(wall_time=0.05))
    for _ in range(5):
        with pytest.raises(syncpatch.LimitExceeded):
            fn(None, {})
        deadline = time.monotonic() + 0.1
        while time.monotonic() < deadline:  # plain Python, where a stray interrupt would land
            pass


@pytest.mark.parametrize("hook", ["gc-callback", "finaliser"])
def test_no_interrupt_is_swallowed_by_an_implicit_callback(hook: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A gc hook or a finaliser that runs in the evaluating thread (here a slow one, so the
    watchdog finds it there) never receives the interrupt, which Python would swallow with
    "Exception ignored in ...": the evaluation still ends with the wall-time limit."""
    import gc
    import sys
    import time

    swallowed: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: swallowed.append(repr(u.exc_value)))

    def slow_hook(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            time.sleep(0.004)

    class Slow:
        def __del__(self) -> None:
            time.sleep(0.004)

    def leave_a_cycle(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":  # garbage for the next collection, whose finaliser is slow
            cycle = Slow()
            cycle.self = cycle  # type: ignore[attr-defined]

    fn = closure("let n = 0; for (;;) { let o = {a: {b: [1, 2, {c: n}]}}; o.a.self = o; n++ }",
                 WALL.replace(wall_time=0.05))
    threshold = gc.get_threshold()
    gc.set_threshold(50)
    if hook == "gc-callback":
        gc.callbacks.append(slow_hook)
    else:
        gc.callbacks.append(leave_a_cycle)
    try:
        for _ in range(5):
            with pytest.raises(syncpatch.LimitExceeded):
                fn(None, {})
    finally:
        gc.callbacks.pop()
        gc.set_threshold(*threshold)
    assert swallowed == []


def test_patch_errors_never_carry_python_text() -> None:
    from syncpatch.runtime.plan import _js_error_parts

    assert _js_error_parts(RecursionError("maximum recursion depth exceeded")) == (
        "RangeError", "Maximum call stack size exceeded")
    name, message = _js_error_parts(KeyError("x"))
    assert (name, message) == ("InternalError", "internal error while applying the patch")


def test_the_watchdog_fires_once_and_never_at_an_evaluation_on_its_way_out() -> None:
    """A second interrupt could land in the code that ends an evaluation (after the first, or
    after the evaluation's own budget error), leaving its realm busy and the watchdog firing
    at the thread wherever it runs: ``_due`` allows one, and none once the evaluation is dead."""
    import threading

    from syncpatch.runtime import watchdog
    from syncpatch.runtime.realm import WATCHED, Realm

    realm = Realm(syncpatch.Budgets(wall_time=0.01))
    realm.thread = threading.get_ident() + 1  # (never asked about a live thread's frames here)
    realm.busy = WATCHED
    assert not watchdog._due(realm, 100.0)  # its clock starts at the first look
    assert realm.deadline == 100.01
    assert not watchdog._due(realm, 100.01 + watchdog.GRACE / 2)
    assert watchdog._due(realm, 100.02 + watchdog.GRACE)
    realm.fired = True
    assert not watchdog._due(realm, 200.0)  # fired already: once per evaluation
    realm.fired = False
    realm.dead = syncpatch.LimitExceeded("x", budget="steps")
    assert not watchdog._due(realm, 200.0)  # ending on its own budget error
    realm.dead = None
    realm.busy = False
    assert not watchdog._due(realm, 200.0)  # not in an evaluation


def test_an_interrupt_landing_as_a_plan_application_ends_leaves_the_thread_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The watchdog's one interrupt, made just as an application ends, lands at the first call
    of its ``finally`` (a call's first bytecode takes a pending interrupt): that cleanup still
    restores the thread's current realm and clears the spare, so later calls take the fast path."""
    from syncpatch.runtime import plan as plan_module
    from syncpatch.runtime.plan import ExpressionPatch, PatchPlan
    from syncpatch.runtime.realm import local_state
    from syncpatch.runtime.watchdog import WallTimeInterrupt, disarm

    landed: list[Any] = []

    def interrupted_disarm(realm: Any) -> None:
        if not landed:
            landed.append(realm)
            raise WallTimeInterrupt()
        disarm(realm)

    monkeypatch.setattr(plan_module, "disarm", interrupted_disarm)
    expression = syncpatch.compile_expression("value + '-x'")
    plan = PatchPlan(entries=(ExpressionPatch(index=0, path="metadata.name", expression=expression),))
    expression("warm", {})  # (the thread's state exists)
    state = local_state()
    current, spare = state.realm, state.spare
    spare.fired = True  # as the watchdog leaves it when it fires at the application's end
    out = plan.to_host({"metadata": {"name": "web"}})
    assert landed == [spare]
    assert out == {"metadata": {"name": "web-x"}}
    assert state.realm is current and not spare.busy and not spare.fired
    assert expression("a", {}) == "a-x"


@pytest.mark.parametrize("way", ["exported", "isolated"])
def test_an_interrupt_landing_as_an_own_realm_evaluation_ends_restores_the_thread(
        way: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for evaluations in a realm of their own (``syncpatch eval``'s exported call,
    a call nested in another evaluation): the thread's current realm is restored first."""
    from syncpatch.runtime import entry
    from syncpatch.runtime.realm import local_state
    from syncpatch.runtime.watchdog import WallTimeInterrupt

    landed: list[Any] = []
    end = entry.end_evaluation

    def interrupted_end(realm: Any) -> None:
        if not landed:
            landed.append(realm)
            raise WallTimeInterrupt()
        end(realm)

    expression = syncpatch.compile_expression("value * 2", budgets=syncpatch.Budgets())
    expression(1, {})
    state = local_state()
    current = state.realm
    monkeypatch.setattr(entry, "end_evaluation", interrupted_end)
    if way == "exported":
        assert expression.general.exported(21) == 42
    else:
        assert expression.general._isolated_call(21, {}, True, syncpatch.Budgets()) == 42
    monkeypatch.undo()
    assert len(landed) == 1 and landed[0] is not current
    assert state.realm is current and not landed[0].busy
    assert expression(4, {}) == 8


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX fork")
def test_a_forked_child_gets_a_watchdog_and_a_lock_of_its_own() -> None:
    """A pre-forking server forks after its first evaluations: the child has no watchdog
    thread, and the parent's watchdog may hold its lock at that instant. The child must not
    deadlock registering a realm, and its evaluations must be watched."""
    from syncpatch.runtime import watchdog
    from syncpatch.runtime.realm import Realm

    syncpatch.compile_expression("1", budgets=syncpatch.Budgets())(None)  # (the parent's watchdog runs)
    read, write = os.pipe()
    watchdog.LOCK.acquire()  # (as if the watchdog held it when the fork came: the child's copy stays held)
    pid = -1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # (3.12+: a fork of a threaded process)
            pid = os.fork()
    finally:
        if pid != 0:
            watchdog.LOCK.release()
    if pid == 0:
        try:
            signal.alarm(20)  # (a child that deadlocks dies of it instead of hanging the suite)
            Realm()  # registers with the watchdog
            alive = any(t.name == "syncpatch-watchdog" and t.is_alive() for t in threading.enumerate())
            os.write(write, b"watched" if alive else b"unwatched")
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    answer = os.read(read, 100)
    os.close(read)
    assert os.WIFEXITED(status), "the child died (deadlocked on the watchdog's lock)"
    assert answer == b"watched"
