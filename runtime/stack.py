"""How much C stack the current thread has left, so recursion ends before the stack does.

Python's recursion limit is one number for the whole process and counts frames, not bytes:
a plain Python call costs no C stack (CPython 3.11+), but a call that passes through C (a
sort comparator, a ``replace`` callback, the C JSON scanner) costs hundreds to thousands of
bytes. A syncer thread made with ``threading.stack_size(1 << 20)`` overflows long before the
recursion limit, and an overflow is a segfault, not an exception.

So the runtime asks the real stack: :func:`room` is the distance from the stack pointer to
the low end of this thread's stack (``pthread_getattr_np`` gives the bounds, once a thread;
``getcontext`` the stack pointer, a few microseconds a read). Callers read it rarely (JS calls
every few dozen levels, see ``Realm.enter``; deep data walks every few levels) and raise
``LimitExceeded(budget="call_depth")`` while :data:`RESERVE` bytes are still free for the
error's own way out. Where the platform gives neither (not Linux/glibc, an unknown CPU), the
thread's configured size stands in: ``threading.stack_size()`` or ``RLIMIT_STACK``, with no
allowance for what the caller already used.
"""

from __future__ import annotations

import ctypes
import platform
import resource
import sys
import threading
from typing import Any

from .errors import LimitExceeded

__all__ = ["room", "size", "check", "next_check", "RESERVE", "PER_CALL", "MEASURED"]

#: bytes kept free when a recursion is refused: the error's propagation, translation and the
#: caller's handlers run in them
RESERVE = 96 * 1024
#: an upper bound of the C stack one JS call level takes on any path (measured 180-2 900
#: bytes on CPython 3.11: a plain call 370, a sort comparator 2 900); the allowance between
#: two reads of the stack pointer is the room left divided by this
PER_CALL = 8 * 1024
#: the stack a thread is assumed to have when the platform does not say (glibc's default)
_DEFAULT_STACK = 8 * 1024 * 1024

#: offset of the stack pointer in glibc's ``ucontext_t``, by machine (REG_RSP of
#: ``uc_mcontext.gregs`` on x86_64; ``uc_mcontext.sp`` after the 128-byte signal mask on aarch64)
_SP_OFFSET = {"x86_64": 160, "AMD64": 160, "aarch64": 432, "arm64": 432}
_CONTEXT_BYTES = 8192  # larger than glibc's ucontext_t on either machine (968 / 4 560 bytes)


class _Probe(threading.local):
    """Per thread: a buffer ``getcontext`` fills, and the low end of the thread's stack."""

    def __init__(self) -> None:
        self.buffer: Any = None
        self.sp: Any = None
        self.low = 0
        self.size = 0
        _setup(self)


_libc: Any = None
_getcontext: Any = None


def _load_libc() -> None:
    global _libc, _getcontext
    if not sys.platform.startswith("linux") or platform.machine() not in _SP_OFFSET:
        return
    try:
        libc = ctypes.CDLL(None)
        getcontext = libc.getcontext
        libc.pthread_self.restype = ctypes.c_ulong
        libc.pthread_getattr_np.argtypes = (ctypes.c_ulong, ctypes.c_void_p)
        libc.pthread_attr_getstack.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
        libc.pthread_attr_destroy.argtypes = (ctypes.c_void_p,)
    except (OSError, AttributeError):  # pragma: no cover - not glibc (musl has no getcontext)
        return
    getcontext.argtypes = (ctypes.c_void_p,)
    getcontext.restype = ctypes.c_int
    _libc, _getcontext = libc, getcontext


def _setup(probe: _Probe) -> None:
    """Find this thread's stack bounds; keep the stack-pointer reader only when it reads a
    value inside them (so a layout we got wrong is never trusted)."""
    if _libc is not None:
        attr = ctypes.create_string_buffer(256)  # pthread_attr_t is 56 (x86_64) / 64 bytes
        if _libc.pthread_getattr_np(_libc.pthread_self(), attr) == 0:
            low, size = ctypes.c_void_p(), ctypes.c_size_t()
            ok = _libc.pthread_attr_getstack(attr, ctypes.byref(low), ctypes.byref(size)) == 0
            _libc.pthread_attr_destroy(attr)
            if ok and low.value and size.value:
                buffer = ctypes.create_string_buffer(_CONTEXT_BYTES)
                sp = ctypes.c_uint64.from_buffer(buffer, _SP_OFFSET[platform.machine()])
                if _getcontext(buffer) == 0 and low.value < sp.value <= low.value + size.value:
                    probe.buffer, probe.sp, probe.low, probe.size = buffer, sp, low.value, size.value
                    return
    probe.size = _configured_size()


def _configured_size() -> int:
    """The stack size this thread was probably given, when it cannot be read."""
    if threading.current_thread() is not threading.main_thread():
        size = threading.stack_size()
        if size:
            return size
    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    return soft if 0 < soft < (1 << 40) else _DEFAULT_STACK


_load_libc()
_probe = _Probe()

#: whether :func:`room` measures (True) or estimates from the configured size (False)
MEASURED = _probe.buffer is not None


def room() -> int:
    """Bytes of C stack left below the current stack pointer of this thread (measured), or
    the thread's whole configured stack when it cannot be measured."""
    probe = _probe
    buffer = probe.buffer
    if buffer is None:
        return probe.size
    try:
        _getcontext(buffer)
    except ctypes.ArgumentError:  # Python's recursion limit, met inside ctypes' argument check
        raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth", js_name="RangeError") from None
    return int(probe.sp.value) - probe.low


def size() -> int:
    """This thread's whole stack in bytes (read once a thread)."""
    return int(_probe.size)


def check(reserve: int = RESERVE) -> int:
    """Raise the call-depth ``LimitExceeded`` when less than ``reserve`` bytes are left;
    return the bytes left above the reserve."""
    left = room() - reserve
    if left < 0:
        raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth", js_name="RangeError")
    return left


def next_check(depth: int) -> int:
    """A JS call reached ``depth`` levels: raise when the stack cannot take one more, else
    return the depth up to which calls may nest before the stack must be read again (the
    room left over :data:`PER_CALL` a level; with no measurement, what the configured size
    holds from an empty stack)."""
    if MEASURED:
        return depth + check() // PER_CALL
    limit = (_probe.size - RESERVE) // PER_CALL
    if depth > limit:
        raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth", js_name="RangeError")
    return limit
