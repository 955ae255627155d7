"""Compile where the C stack is big enough, whatever thread asked.

The compiler's deepest recursion (Python's own ``compile`` and AST walks over a long operator
chain, refused only when Python's recursion limit is reached) needs a few MiB of C stack:
measured under 4 MiB for the worst 100 000-character sources. A syncer compiling on a thread
with a small stack would segfault, so a compile that finds less room than that on its
thread runs on a short-lived worker thread with a large stack (virtual memory: only the
pages a deep compile touches are used), and its result or error is handed back.
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

from syncpatch.runtime import stack

__all__ = ["on_big_stack", "COMPILE_STACK", "WORKER_STACK"]

T = TypeVar("T")

#: the room a compile runs in on the calling thread (else on a worker)
COMPILE_STACK = 6 * 1024 * 1024
#: the worker thread's stack
WORKER_STACK = 32 * 1024 * 1024
#: ``threading.stack_size`` is process-wide: set and restored under this lock
_SIZE_LOCK = threading.Lock()


def on_big_stack(work: Callable[[], T]) -> T:
    """``work()``, on this thread when its stack has room, else on a worker with a big one."""
    if stack.room() >= COMPILE_STACK:
        return work()
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as exc:  # noqa: BLE001 - handed back to the calling thread
            failed.append(exc)

    with _SIZE_LOCK:
        previous = threading.stack_size(WORKER_STACK)
        try:
            worker = threading.Thread(target=run, name="syncpatch-compile", daemon=True)
            worker.start()
        finally:
            threading.stack_size(previous)
    worker.join()
    if failed:
        raise failed[0].with_traceback(None)
    return done[0]
