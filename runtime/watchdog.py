"""The wall-time watchdog: an evaluation past its deadline is interrupted wherever it is.

Scripts check the clock every 1024 steps, but one built-in call (a sort, a copy, a
collation of long strings, a conversion hook swallowing errors) can run between checks. A
daemon thread, started with the first evaluation, looks at every thread's current realm
every ``POLL`` seconds: it starts the clock of an evaluation it finds busy without one,
and when an evaluation is ``GRACE`` past its deadline it marks the realm and raises
:class:`WallTimeInterrupt` asynchronously in that thread (``PyThreadState_SetAsyncExc``, which
takes effect at the thread's next bytecode).

The watchdog fires at most once per evaluation, and not at one already ending on a budget
error of its own (:func:`_due`). The interrupt must never land outside an evaluation. The
protocol: the watchdog sets ``realm.fired`` *before* it reads ``realm.busy`` and fires only when busy; an evaluation ends
by clearing ``busy`` and *then* reading ``fired``; when set, it waits for the watchdog
(``LOCK``) and cancels any interrupt still pending (:func:`disarm`). The interrupt is itself
a public ``LimitExceeded``, so one that lands in the few lines between is still a
documented outcome of the call.

Nor may it land in a callback the interpreter runs on its own between two bytecodes of the
evaluation: a ``gc.callbacks`` hook (test tools and profilers install them), a finaliser
(``__del__``) or a weak reference's callback. Python cannot pass an exception out of those:
it prints "Exception ignored in ..." and the evaluation goes on. While such a frame runs in
the evaluating thread the watchdog waits (:func:`_in_implicit_callback`), at most
``PATIENCE`` seconds, and fires at its next look.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
import threading
import time
import weakref
from typing import Any

from .errors import LimitExceeded
from .realm import WATCHED

__all__ = ["WallTimeInterrupt", "watch", "disarm", "POLL", "GRACE", "PATIENCE"]

#: how often the watchdog looks (s), and how far past its deadline an evaluation may run
#: before it is interrupted (its own clock checks normally stop it first)
POLL = 0.01
GRACE = 0.005
#: how long past ``GRACE`` the watchdog waits for an implicit callback to return (one that
#: never does gets the interrupt anyway: it ends the callback, and the next one the evaluation)
PATIENCE = 1.0
#: how many frames below the top are looked at for an implicit callback
_CALLBACK_DEPTH = 16

LOCK = threading.Lock()
#: every realm (each knows its thread), by plain weak references: a ``WeakSet``'s callback
#: would run in the evaluating thread and could swallow the interrupt there
_realms: list["weakref.ref[Any]"] = []
_started = False
_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)
_set_async_exc.restype = ctypes.c_int


class WallTimeInterrupt(LimitExceeded):
    """Raised in an evaluation's thread by the watchdog (constructed there, without arguments;
    like every ``LimitExceeded`` it ends the evaluation for good: see ``Realm.dead``)."""

    def __init__(self) -> None:
        super().__init__("wall-time budget exhausted", budget="wall_time", js_name="LimitExceeded")


def watch(realm: Any) -> None:
    """Register a new realm and start the watchdog."""
    global _started
    with LOCK:
        _realms.append(weakref.ref(realm))
        if not _started:
            _started = True
            threading.Thread(target=_run, name="syncpatch-watchdog", daemon=True).start()


def _after_fork_in_child() -> None:
    """A forked child (a pre-forking server's worker, a ``fork`` pool) has no watchdog thread,
    only the parent's note that one runs, and a copy of ``LOCK`` the thread may have held at
    that instant: the child gets a lock of its own and a watchdog of its own for the realms it
    inherited (a thread's spare among them)."""
    global LOCK, _started
    LOCK = threading.Lock()
    _started = False
    if _realms:
        _started = True
        threading.Thread(target=_run, name="syncpatch-watchdog", daemon=True).start()


if hasattr(os, "register_at_fork"):  # (POSIX)
    os.register_at_fork(after_in_child=_after_fork_in_child)


def disarm(realm: Any) -> None:
    """An evaluation the watchdog fired at has ended: cancel an interrupt not yet delivered."""
    with LOCK:
        realm.fired = False
        _set_async_exc(threading.get_ident(), ctypes.py_object())


def _run() -> None:  # pragma: no cover - timing-driven; tested through the evaluations it stops
    while True:
        try:
            _poll()
        except Exception:  # noqa: BLE001 - the watchdog outlives any one bad poll: it guards every evaluation
            time.sleep(POLL)


def _poll() -> None:
    while True:
        time.sleep(POLL)
        now = time.monotonic()
        with LOCK:
            live = []
            for ref in _realms:
                realm = ref()
                if realm is None:
                    continue
                live.append(ref)
                if _due(realm, now):
                    realm.fired = True
                    if realm.busy == WATCHED:
                        _set_async_exc(realm.thread, WallTimeInterrupt)
            _realms[:] = live


def _due(realm: Any, now: float) -> bool:
    """Whether to interrupt the realm's evaluation now (starting its clock if it has none).

    Once per evaluation: an interrupt ends it for good once it lands (it is a ``LimitExceeded``:
    ``Realm.dead``), and one that is still pending is not made sooner by another. Never once the
    evaluation met a budget error of its own: it is already on its way out. A second interrupt
    could land in that way out, in the code that ends the evaluation, which would then leave
    the realm busy and watched, and the watchdog firing at the thread wherever it runs."""
    if realm.busy != WATCHED or realm.fired or realm.dead is not None:
        return False
    if realm.deadline == 0.0:
        realm.deadline = now + realm.budgets.wall_time
        return False
    if now <= realm.deadline + GRACE:
        return False
    return now >= realm.deadline + GRACE + PATIENCE or not _in_implicit_callback(realm.thread)


def _in_implicit_callback(thread: int) -> bool:
    """Whether the thread is inside a callback the interpreter called on its own (a gc hook,
    a finaliser, a weak reference's callback), where an interrupt would be swallowed."""
    frame = sys._current_frames().get(thread)
    if frame is None:
        return False
    hooks = set()
    for hook in gc.callbacks:
        code = getattr(getattr(hook, "__func__", hook), "__code__", None)
        if code is not None:
            hooks.add(code)
    for _ in range(_CALLBACK_DEPTH):
        if frame is None:
            return False
        code = frame.f_code
        if code in hooks or code.co_name == "__del__" or code.co_filename.endswith(_WEAKREF_MODULES):
            return True
        frame = frame.f_back
    return False


#: the standard library's weak containers remove entries from callbacks
_WEAKREF_MODULES = ("weakref.py", "_weakrefset.py")
