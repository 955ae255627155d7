"""The one per-call wrapper around a generated ``_main``: realm, boundary conversion, errors.

Both exits of the compiler end here: ``syncpatch.Expression`` (in process) and the functions of
a ``compile-patches`` artifact (``abi.patch_function``), so both behave identically and the
artifact needs only the runtime. A call runs on the thread's spare realm when it is free (a
few attribute writes instead of an allocation), copies only the inputs the script could
mutate (``copy_mask``: bit 1 ``value``, bit 2 ``context``), and converts a result only when it
is a container.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Mapping

from .errors import translate_exception
from .interop import scalar_to_js, shallow_to_js, to_js, to_python
from .realm import DEFAULT_BUDGETS, Budgets, Realm
from .realm import _local as _LOCAL
from .values import UNDEFINED

__all__ = ["CompiledFunction", "patch_function", "end_evaluation"]

_SAFE = 2**53  # ints beyond come back as the double JS holds (to_python converts them)


def end_evaluation(realm: Realm) -> None:
    """An evaluation is over: drop its context and anything it wrote to shared built-ins."""
    realm.busy = False
    realm.context = None
    realm.depth = 0
    if realm.extra or realm.overlay is not None:
        realm.unpatch()
        realm.extra = {}


class CompiledFunction:
    """``fn(value, context=None, *, value_exists=True, budgets=None)`` over a generated main."""

    __slots__ = ("_main", "_names", "_copy", "_steps", "budgets", "source")

    #: no native tier: every call runs here (``runtime/native.py`` makes the native-tier kind)
    native = False

    @property
    def general(self) -> "CompiledFunction":
        """The general tier: this function itself (as ``expression.general`` is for a script
        with a native tier)."""
        return self

    def __init__(self, main: Callable[..., Any], names: Mapping[str, str], copy_mask: int,
                 source: str = "", budgets: Budgets | None = None) -> None:
        self._main = main
        self._names = names
        self._copy = int(copy_mask)
        self.budgets = budgets or DEFAULT_BUDGETS
        self._steps = self.budgets.steps
        self.source = source

    def __repr__(self) -> str:
        return f"CompiledFunction({self.source!r})"

    def _inputs(self, value: Any, context: Any) -> tuple[Any, Any]:
        """The inputs as the script sees them: copies of what it could mutate, and a scalar
        ``value`` in canonical form (joined surrogate pairs, integral floats as ints)."""
        if self._copy:
            value, context = _copy_inputs(self._copy, value, context, self._names)
        else:
            t = type(value)
            if t is float or t is tuple or (t is str and not value.isascii()):
                value = scalar_to_js(value)
        return value, context

    def __call__(self, value: Any = UNDEFINED, context: Any = None, *, value_exists: bool = True,
                 budgets: Budgets | None = None) -> Any:
        value, context = self._inputs(value, context)
        if value_exists is not True:
            if value_exists is not False:
                value_exists = bool(value_exists)
        realm = _LOCAL.realm  # one thread-local read (each costs ~100 ns): the spare is current when idle
        if budgets is not None or realm is None or realm.busy or not realm.is_spare:
            return self._isolated_call(value, context, value_exists, budgets or self.budgets)
        realm.budgets = self.budgets
        realm.steps_left = self._steps
        realm.deadline = 0.0
        realm.allocated = 0
        realm.context = context
        realm.busy = True
        try:
            result = self._main(realm, value, context, value_exists)
        except BaseException as exc:  # noqa: BLE001 - everything becomes a public error
            end_evaluation(realm)
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            raise translate_exception(exc, self._names) from None
        realm.busy = False
        if realm.extra or realm.overlay is not None:
            end_evaluation(realm)
        t = type(result)
        if t is str or t is bool or (t is int and -_SAFE <= result <= _SAFE):
            return result
        return _convert_result(result, self._names)

    def _invoke(self, value: Any, context: Any, value_exists: bool) -> Any:
        """Fast entry for plan application, in the realm the caller made current and busy."""
        value, context = self._inputs(value, context)
        realm = _LOCAL.realm
        realm.budgets = self.budgets
        realm.steps_left = self._steps
        realm.deadline = 0.0
        realm.allocated = 0
        realm.context = context
        try:
            result = self._main(realm, value, context, value_exists)
        except BaseException as exc:  # noqa: BLE001 - everything becomes a public error
            realm.depth = 0
            if realm.extra or realm.overlay is not None:
                realm.unpatch()
                realm.extra = {}
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            raise translate_exception(exc, self._names) from None
        if realm.extra or realm.overlay is not None:
            realm.unpatch()
            realm.extra = {}
        t = type(result)
        if t is str or t is bool or (t is int and -_SAFE <= result <= _SAFE):
            return result
        return _convert_result(result, self._names)

    def _isolated_call(self, value: Any, context: Any, value_exists: bool, budgets: Budgets) -> Any:
        """A call with its own realm: custom budgets, or nested inside another evaluation."""
        local = _LOCAL
        previous = local.realm
        realm = Realm(budgets)
        realm.busy = True
        realm.context = context
        local.realm = realm
        try:
            return to_python(self._main(realm, value, context, value_exists))
        except BaseException as exc:  # noqa: BLE001 - everything becomes a public error
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            raise translate_exception(exc, self._names) from None
        finally:
            end_evaluation(realm)
            local.realm = previous


def patch_function(main: Callable[..., Any], names: Mapping[str, str], copy_mask: int | bool,
                   source: str = "") -> CompiledFunction:
    """Wrap an artifact's generated ``_main`` as a patch function (needs only the runtime)."""
    if sys.getrecursionlimit() < 8000:
        sys.setrecursionlimit(8000)  # deep JS recursion needs room before the depth budget
    return CompiledFunction(main, names, 3 if copy_mask is True else int(copy_mask), source)


def _convert_result(result: Any, names: Any) -> Any:
    """JS result -> Python value; a result too deep to convert is a public LimitExceeded."""
    try:
        return to_python(result)
    except BaseException as exc:  # noqa: BLE001 - RecursionError, the depth limit
        if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
            raise
        raise translate_exception(exc, names) from None


def _copy_inputs(mask: int, value: Any, context: Any, names: Any) -> tuple[Any, Any]:
    """Deep-copy the inputs a script could mutate (bit 1 value, bit 2 context); inputs too
    deep to copy are a public LimitExceeded, never a raw RecursionError."""
    try:
        if mask & 4:
            value = shallow_to_js(value)
        elif mask & 1:
            value = to_js(value)
        if mask & 2:
            context = to_js(context)
    except BaseException as exc:  # noqa: BLE001 - RecursionError, the depth limit
        if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
            raise
        raise translate_exception(exc, names) from None
    return value, context
