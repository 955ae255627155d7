"""syncpatch: JavaScript patch expressions compiled ahead of time into sandboxed Python closures.

The public API is a contract; other tools drive syncpatch only through the names exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the lazily exported names, for type checkers (never imported eagerly)
    from syncpatch.expression import UNDEFINED as UNDEFINED
    from syncpatch.expression import Budgets as Budgets
    from syncpatch.expression import CompileError as CompileError
    from syncpatch.expression import EvaluationError as EvaluationError
    from syncpatch.expression import Expression as Expression
    from syncpatch.expression import LimitExceeded as LimitExceeded
    from syncpatch.expression import compile_expression as compile_expression
    from syncpatch.loader import load_plans as load_plans
    from syncpatch.patches import compile_config as compile_config
    from syncpatch.patches import compile_patches as compile_patches
    from syncpatch.resources import UnknownResourceError as UnknownResourceError
    from syncpatch.runtime.plan import PatchError as PatchError
    from syncpatch.runtime.errors import SyncpatchError as SyncpatchError
    from syncpatch.runtime.plan import PatchPlan as PatchPlan

__all__: list[str] = []

# Lazily exported names: name -> (module, attribute). Importing `syncpatch` stays cheap (no
# pydantic until a config is compiled). Other exports may be added to this table.
_LAZY_EXPORTS: dict[str, tuple[str, str]] = {
    "compile_patches": ("syncpatch.patches", "compile_patches"),
    "compile_config": ("syncpatch.patches", "compile_config"),
    "PatchPlan": ("syncpatch.runtime.plan", "PatchPlan"),
    "PatchError": ("syncpatch.runtime.plan", "PatchError"),
    "SyncpatchError": ("syncpatch.runtime.errors", "SyncpatchError"),
    "load_plans": ("syncpatch.loader", "load_plans"),
    "compile_expression": ("syncpatch.expression", "compile_expression"),
    "Expression": ("syncpatch.expression", "Expression"),
    "EvaluationError": ("syncpatch.expression", "EvaluationError"),
    "LimitExceeded": ("syncpatch.expression", "LimitExceeded"),
    "CompileError": ("syncpatch.expression", "CompileError"),
    "Budgets": ("syncpatch.expression", "Budgets"),
    "UNDEFINED": ("syncpatch.expression", "UNDEFINED"),
    "UnknownResourceError": ("syncpatch.resources", "UnknownResourceError"),
}
__all__ += list(_LAZY_EXPORTS)


def __getattr__(name: str) -> object:
    """PEP 562 lazy attribute access for the names in ``_LAZY_EXPORTS``."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("syncpatch")
        except PackageNotFoundError:  # a bare checkout that was never installed
            return "0+unknown"
    target = _LAZY_EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'syncpatch' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(target[0]), target[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public API shows in ``dir(syncpatch)`` and completion, though loaded lazily."""
    return sorted({*__all__, "__version__", *(name for name in globals() if name.startswith("__"))})
