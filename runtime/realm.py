"""Per-evaluation state: budgets, and the scratch space that keeps evaluations apart.

Every call of a compiled expression runs inside a fresh ``Realm``. Budgets are charged
against it, and anything a script writes to shared built-ins (``Object.prototype.x = 1``)
goes to the realm's overlay, so no evaluation can affect another one.

The active realm is thread-local: built-ins that need it (``repeat``, ``Array(n)``, regex
timeouts) call ``current_realm()``; generated code holds it in a local for speed.
"""

from __future__ import annotations

import _thread
import threading
import time
from typing import Any

from .errors import LimitExceeded
from .stack import next_check

__all__ = ["Budgets", "DEFAULT_BUDGETS", "FIRST_STACK_CHECK", "Realm", "current_realm", "activate", "acquire", "local_state", "PATCHED_REALMS"]


class Budgets:
    """Limits for one evaluation. Defaults are generous for real patches."""

    __slots__ = ("steps", "call_depth", "string_length", "array_length", "allocation", "wall_time", "regex_timeout")

    def __init__(
        self,
        *,
        steps: int = 10_000_000,
        call_depth: int = 400,
        string_length: int = 16 * 1024 * 1024,
        array_length: int = 1_000_000,
        allocation: int = 256 * 1024 * 1024,
        wall_time: float = 5.0,
        regex_timeout: float = 1.0,
    ) -> None:
        self.steps = steps
        self.call_depth = call_depth
        self.string_length = string_length
        self.array_length = array_length
        self.allocation = allocation
        self.wall_time = wall_time
        self.regex_timeout = regex_timeout

    def replace(self, **changes: Any) -> "Budgets":
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return Budgets(**values)

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"Budgets({inner})"


DEFAULT_BUDGETS = Budgets()


#: the value of ``Realm.busy`` during an evaluation run by ``entry`` or a plan (truthy like
#: ``True``): only those are interrupted by the watchdog, never a realm a caller made busy
WATCHED = 2

#: the call depth at which an evaluation first reads the real stack (``Realm.deeper``); below
#: it, no path can take more than a few pages of C stack
FIRST_STACK_CHECK = 8

#: called with every new realm (the watchdog registers it)
ON_NEW_REALM: list[Any] = []


class Realm:
    """The state of one evaluation (see module docstring)."""

    __slots__ = ("budgets", "steps_left", "depth", "depth_check", "deadline", "allocated", "overlay", "extra", "context", "busy",
                 "is_spare", "dead", "fired", "thread", "__weakref__")

    def __init__(self, budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.budgets = budgets
        self.steps_left = budgets.steps
        self.depth = 0
        #: ``enter`` takes its slow path (``deeper``) past this depth: the call-depth budget, or
        #: the depth up to which the thread's stack was last seen to have room
        self.depth_check = min(budgets.call_depth, FIRST_STACK_CHECK)
        self.deadline = 0.0  # set at the first wall-time check (keeps the per-call cost low)
        self.allocated = 0
        self.overlay: dict[Any, Any] | None = None  # writes to shared built-ins, made lazily
        self.extra: dict[str, Any] = {}  # per-evaluation scratch for runtime modules
        self.context: Any = None  # the call's ``context`` (for virtualToHostDNS)
        self.busy: int = False  # True, or WATCHED during an evaluation (see WATCHED)
        self.is_spare = False  # True only for a thread's spare (which only that thread makes current)
        #: the first budget error of this evaluation: once set, the evaluation is over, and every
        #: later step, call, check and ``finally``/``catch`` entry raises it again
        self.dead: LimitExceeded | None = None
        self.fired = False  # the watchdog interrupted this evaluation (``watchdog.disarm`` clears it)
        self.thread = threading.get_ident()  # realms are used by the thread that made them
        for hook in ON_NEW_REALM:
            hook(self)

    def reset(self, budgets: Budgets) -> None:
        """Make this realm fresh for another evaluation (cheaper than a new one)."""
        self.budgets = budgets
        self.steps_left = budgets.steps
        self.depth = 0
        self.depth_check = min(budgets.call_depth, FIRST_STACK_CHECK)
        self.deadline = 0.0
        self.allocated = 0
        self.dead = None
        if self.overlay is not None or self.extra:
            self.unpatch()
        if self.extra:
            self.extra = {}

    def patched(self) -> None:
        """Note that this realm now shadows shared built-ins (see ``PATCHED_REALMS``)."""
        if not self.busy_patched():
            PATCHED_REALMS[0] += 1
            self.extra["patched"] = True

    def busy_patched(self) -> bool:
        return bool(self.extra.get("patched"))

    def unpatch(self) -> None:
        """Drop the overlay and prototype records at the end of an evaluation."""
        if self.extra.get("patched"):
            PATCHED_REALMS[0] -= 1
            del self.extra["patched"]
        self.overlay = None
        self.extra.pop("protos", None)

    def __del__(self) -> None:
        # a realm dropped while it holds patches (one a direct runtime call patched outside
        # any evaluation, a dead thread's spare) must not leave the count up for good
        extra = getattr(self, "extra", None)  # (None: __init__ did not get that far)
        if extra and extra.get("patched") and PATCHED_REALMS is not None:  # (None: at interpreter exit)
            PATCHED_REALMS[0] -= 1

    def release(self) -> None:
        """The evaluation is over: forget its context and any patches of built-ins."""
        self.busy = False
        self.context = None
        if self.overlay is not None or "patched" in self.extra:
            self.unpatch()

    # budgets ------------------------------------------------------------------------------

    def charge(self, steps: int = 1) -> None:
        """Charge loop iterations / callback calls / built-in work; checks wall time every 1024
        steps and at every bulk charge (built-ins charge in proportion to the work they do)."""
        left = self.steps_left = self.steps_left - steps
        if left < 0:
            if self.dead is not None:
                self.alive()
            if not self.busy:  # outside any evaluation (direct calls): no step budget applies
                self.steps_left = self.budgets.steps
                return
            raise LimitExceeded(
                f"step budget exhausted ({self.budgets.steps} steps)", budget="steps", js_name="LimitExceeded"
            )
        if left & 0x3FF == 0 or steps != 1:
            self.check_time()

    def bulk(self, units: int) -> None:
        """Charge a built-in's work *before* it does it, in proportion to its size (``units``:
        elements copied or sorted, characters compared or built): one step per 16 units, and
        for big work a look at the clock ahead. Work that would end past the deadline at
        :data:`BULK_UNITS_PER_SECOND` (a slow rate: a loaded machine) ends the evaluation now,
        since no check can interrupt one C-level operation once it runs."""
        self.charge((units >> 4) or 1)
        if units > _BULK_LOOKAHEAD and self.busy and self.deadline:
            if time.monotonic() + units / BULK_UNITS_PER_SECOND > self.deadline:
                self.out_of_time()

    def alive(self) -> None:
        """Raise the budget error again when this evaluation is already over (generated code
        calls it on entering ``finally`` and ``catch``; built-ins that swallow errors meet it
        at their next step)."""
        dead = self.dead
        if dead is not None:
            raise dead.with_traceback(None)

    def kill(self, exc: LimitExceeded) -> None:
        """A budget ran out: the evaluation is over (see ``dead``)."""
        if self.busy and self.dead is None:
            self.dead = exc
            self.steps_left = -(1 << 62)  # every later step or call takes the slow path

    def enter(self) -> None:
        """A JS function call starts: charge a step and check the call depth."""
        self.depth += 1
        if self.depth > self.depth_check:
            self.deeper()
        self.steps_left -= 1
        if self.steps_left < 0:
            self.charge(0)

    def deeper(self) -> None:
        """``enter``'s slow path: refuse a call past the call-depth budget or one the thread's C
        stack may not hold (``stack.next_check``; a segfault is no error a caller can catch),
        else note how much deeper calls may go before the stack is read again."""
        depth = self.depth
        limit = self.budgets.call_depth
        try:
            if depth > limit:
                raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth", js_name="RangeError")
            self.depth_check = min(limit, next_check(depth))
        except LimitExceeded:
            self.depth -= 1
            raise

    def leave(self) -> None:
        self.depth -= 1

    def out_of_time(self) -> None:
        raise LimitExceeded(
            f"wall-time budget exhausted ({self.budgets.wall_time:g} s)", budget="wall_time", js_name="LimitExceeded"
        )

    def check_time(self) -> None:
        """Raise when the wall-time budget is spent; the clock starts at the first check."""
        if not self.busy:  # outside any evaluation (direct calls): no wall-time budget applies
            return
        if self.dead is not None:
            self.alive()
        now = time.monotonic()
        if self.deadline == 0.0:
            self.deadline = now + self.budgets.wall_time
        elif now > self.deadline:
            self.out_of_time()

    def regex_timeout(self) -> float:
        """The timeout of one regex call. The ``regex`` package counts *process CPU time*, so
        the wall time left is converted at the CPU share this process got since the
        evaluation's clock started (a loaded machine gives less than one core), then capped
        by the regex budget."""
        limit = self.budgets.regex_timeout
        if not self.busy:
            return limit
        if self.dead is not None:
            self.alive()
        now = time.monotonic()
        if self.deadline == 0.0:
            self.deadline = now + self.budgets.wall_time
            self.extra["cpu0"] = (now, time.process_time())
        left = self.deadline - now
        if left <= 0.0:
            self.out_of_time()
        start, cpu0 = self.extra.setdefault("cpu0", (now, time.process_time()))
        wall = now - start
        share = (time.process_time() - cpu0) / wall if wall > 0.02 else 0.25
        return max(0.001, min(limit, left * min(1.0, max(0.02, share)) * 0.8))

    def check_string(self, length: int) -> None:
        """Refuse a string longer than the budget before building it. Callers build the
        string right after, so it is also charged to the allocation budget (1 byte a unit,
        a lower bound)."""
        if self.dead is not None:
            self.alive()
        if length > self.budgets.string_length:
            raise LimitExceeded(
                f"Invalid string length: {length} exceeds the string budget of {self.budgets.string_length}",
                budget="string_length",
            )
        self.allocate(length)

    def check_array(self, length: int) -> None:
        """Refuse an array longer than the budget before building it."""
        if self.dead is not None:
            self.alive()
        if length > self.budgets.array_length:
            raise LimitExceeded(
                f"Invalid array length: {length} exceeds the array budget of {self.budgets.array_length}",
                budget="array_length",
            )

    def allocate(self, nbytes: int) -> None:
        """Charge an estimate of bytes allocated by one operation."""
        if self.dead is not None:
            self.alive()
        self.allocated += nbytes
        if self.allocated > self.budgets.allocation:
            if not self.busy:  # outside any evaluation (direct calls): no allocation budget
                self.allocated = 0
                return
            raise LimitExceeded(
                f"allocation budget exhausted ({self.budgets.allocation} bytes)", budget="allocation"
            )


_FALLBACK_BUDGETS = Budgets()

#: the rate ``Realm.bulk`` assumes for one C-level operation (a copy, a sort, a collation):
#: measured 50-200 M units a second on one idle core, counted at 20 M for a loaded machine
BULK_UNITS_PER_SECOND = 20_000_000
#: work below this many units ends within a few milliseconds: no look-ahead
_BULK_LOOKAHEAD = 1 << 16


#: per thread: ``realm``, the current realm (the spare between evaluations), and ``spare``, a
#: reusable one. A plain ``_thread._local`` (no subclass: its attribute reads take CPython's
#: short path, the one read every evaluation makes), so a thread's state is made by
#: :func:`local_state` on its first use; before that, reading it raises AttributeError.
_local: Any = _thread._local()


def _new_thread_state() -> Any:
    spare = Realm(_FALLBACK_BUDGETS)
    spare.is_spare = True
    _local.spare = spare
    _local.realm = spare  # the spare is current between evaluations; never None after this
    return _local


def _kill_current(exc: LimitExceeded) -> None:
    realm = getattr(_local, "realm", None)
    if realm is not None:
        realm.kill(exc)


LimitExceeded.on_raise = staticmethod(_kill_current)  # type: ignore[method-assign]

#: how many realms hold writes to shared built-ins (an overlay) or dict prototypes; while
#: zero, member dispatch reads the built-in tables directly (the fast path)
PATCHED_REALMS = [0]


def acquire(budgets: Budgets) -> Realm:
    """A fresh realm for one evaluation on this thread (set ``busy = False`` when done).

    The thread's spare realm is reset and reused when it is not in use, so the per-call cost
    is a few attribute writes rather than an allocation.
    """
    realm: Realm = local_state().spare
    if realm.busy:
        realm = Realm(budgets)
    else:
        realm.reset(budgets)
    realm.busy = True
    return realm


def local_state() -> Any:
    """This thread's state: ``.realm`` (current; the spare between evaluations) and ``.spare`` (reusable),
    made on the thread's first use."""
    if hasattr(_local, "spare"):
        return _local
    return _new_thread_state()


def current_realm() -> Realm:
    """The realm of the evaluation running on this thread (a fresh one outside any)."""
    try:
        realm = _local.realm
    except AttributeError:  # the thread's first use
        realm = _new_thread_state().realm
    if realm is None:
        realm = _local.realm = Realm(_FALLBACK_BUDGETS)
    return realm  # type: ignore[no-any-return]


class activate:
    """Context manager: make ``realm`` current for this thread, restoring the previous one."""

    __slots__ = ("realm", "previous")

    def __init__(self, realm: Realm) -> None:
        self.realm = realm
        self.previous: Realm | None = None

    def __enter__(self) -> Realm:
        self.previous = local_state().realm
        _local.realm = self.realm
        return self.realm

    def __exit__(self, *exc: Any) -> None:
        assert self.previous is not None, "activate's __exit__ runs after its __enter__"
        _local.realm = self.previous
        realm = self.realm
        if realm is not self.previous and not realm.busy and (realm.overlay is not None or "patched" in realm.extra):
            realm.unpatch()  # direct runtime calls in it are over: their patches end with them
