"""Run work on a short-lived thread with a big C stack, and hand its result or error back.

CPython 3.13 bounds the C recursion of freeing nested containers by a fixed count (its C
recursion limit, 10 000 levels), not by the stack the thread has: dropping a 100 000-deep
object needs about 700 KiB of C stack, so a thread with less segfaults the moment such a
value dies (plain Python, no syncpatch needed). A script can build such a value in a loop,
and it dies when the evaluation's frame does. So on CPython 3.13+ an evaluation started on
a thread with less than :data:`SMALL_STACK` runs on a worker with :data:`WORKER_STACK`, where
its values are built and freed; CPython 3.11/3.12 free nested values in bounded steps and
never need it. The compiler uses the same worker for deep compiles (``compiler/stackroom.py``).
"""

from __future__ import annotations

import sys
import threading
from typing import Callable, TypeVar

from . import stack

__all__ = ["COUNTED_DEALLOC", "SMALL_STACK", "WORKER_STACK", "needs_big_stack", "run_on_big_stack"]

T = TypeVar("T")

#: below this thread stack size, evaluations move to a worker (CPython 3.13+ only)
SMALL_STACK = 1024 * 1024
#: the worker's stack (virtual memory: only the pages it touches are used)
WORKER_STACK = 32 * 1024 * 1024
#: whether this interpreter frees nested containers by a count rather than by the stack
COUNTED_DEALLOC = sys.version_info >= (3, 13)
#: ``threading.stack_size`` is process-wide: set and restored under this lock
_SIZE_LOCK = threading.Lock()


def needs_big_stack() -> bool:
    """Whether an evaluation on this thread must run on a worker (a cheap test)."""
    return COUNTED_DEALLOC and stack.size() < SMALL_STACK


def run_on_big_stack(work: Callable[[], T], size: int = WORKER_STACK) -> T:
    """``work()`` on a new thread with a ``size``-byte stack; its error is re-raised here,
    cut from the frames it was raised in (they are freed on the worker, whatever they hold)."""
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as exc:  # noqa: BLE001 - handed back to the calling thread
            exc.__traceback__ = None
            exc.__context__ = None
            exc.__cause__ = None
            failed.append(exc)

    with _SIZE_LOCK:
        previous = threading.stack_size(size)
        try:
            worker = threading.Thread(target=run, name="syncpatch-big-stack", daemon=True)
            worker.start()
        finally:
            threading.stack_size(previous)
    worker.join()
    if failed:
        raise failed[0]
    return done[0]
