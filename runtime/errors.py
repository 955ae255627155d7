"""The root of every public syncpatch error, and the run-time errors.

Everything syncpatch raises at a caller derives from :class:`SyncpatchError`, so
``except syncpatch.SyncpatchError`` catches any of them: ``CompileError`` (the compiler),
``EvaluationError`` and ``LimitExceeded`` (here), ``PatchError`` (plans), the config and
artifact errors of the upper stages. The root lives in the runtime, the lowest stage every
other one may import, in a module that imports nothing, so an artifact (which loads with the
runtime alone) raises the very same classes as an in-process ``Expression``. The grammar
stage imports nothing of ours: its ``GrammarError`` becomes a ``CompileError`` where the
compiler calls the parser (``compiler/errors.py``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SyncpatchError", "EvaluationError", "LimitExceeded"]


class SyncpatchError(Exception):
    """The root of every public syncpatch error."""


class EvaluationError(SyncpatchError):
    """A JS exception thrown at run time: ``js_name`` (TypeError, ...) and the JS message."""

    def __init__(self, js_name: str, message: str, js_value: Any = None) -> None:
        super().__init__(f"{js_name}: {message}" if message else js_name)
        self.js_name = js_name
        self.message = message
        self.js_value = js_value

    def __reduce__(self) -> Any:
        return (type(self), (self.js_name, self.message))


class LimitExceeded(EvaluationError):
    """A budget ran out (steps, call depth, string/array size, allocation, wall time).

    The runtime raises it where the budget runs out; no JS ``catch`` sees it. ``js_name`` is
    the JS error V8 would give where one exists (``RangeError`` for call depth and sizes),
    else ``"LimitExceeded"``; ``budget`` names the budget."""

    def __init__(self, message: str, *, budget: str, js_name: str = "RangeError") -> None:
        super().__init__(js_name, message)
        self.budget = budget
        LimitExceeded.on_raise(self)

    @staticmethod
    def on_raise(exc: "LimitExceeded") -> None:
        """Replaced by ``realm``: an exhausted budget ends the running evaluation for good."""

    def __reduce__(self) -> Any:
        return (_limit_exceeded, (self.message, self.budget, self.js_name))


def _limit_exceeded(message: str, budget: str, js_name: str) -> LimitExceeded:
    return LimitExceeded(message, budget=budget, js_name=js_name)
