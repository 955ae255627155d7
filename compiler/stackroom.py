"""Compile where the C stack is big enough, whatever thread asked.

The compiler's deepest recursion (Python's own ``compile`` and AST walks over a long operator
chain, refused only when Python's recursion limit is reached) needs a few MiB of C stack:
measured under 4 MiB for the worst 100 000-character sources. A syncer compiling on a thread
with a small stack would segfault, so a compile that finds less room than that on its
thread runs on a short-lived worker thread with a large stack (``runtime/bigstack.py``), and
its result or error is handed back. The error comes back cut from the frames it was raised
in: a "nested too deeply" error follows a ``RecursionError`` whose thousands of frames hold
the deep trees being compiled, and freeing those on a 256 KiB thread overflowed it on
CPython 3.13 (``ast`` nodes are freed recursively in C); they are freed on the worker.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from syncpatch.runtime import stack
from syncpatch.runtime.bigstack import WORKER_STACK, run_on_big_stack

__all__ = ["on_big_stack", "COMPILE_STACK", "WORKER_STACK"]

T = TypeVar("T")

#: the room a compile runs in on the calling thread (else on a worker)
COMPILE_STACK = 6 * 1024 * 1024


def on_big_stack(work: Callable[[], T]) -> T:
    """``work()``, on this thread when its stack has room, else on a worker with a big one."""
    if stack.room() >= COMPILE_STACK:
        return work()
    return run_on_big_stack(work)
