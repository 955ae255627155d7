"""The ES standard library inside the sandbox, one module per built-in object.

``load()`` imports every module, which registers its built-ins into the ``registry`` tables.
It runs once ``runtime.members`` is complete (members calls it at its end), because stdlib
modules use the core's member dispatch and the core reads the registry: importing either
side first ends with both fully loaded.
"""

from __future__ import annotations

import importlib

# Modules are imported by name so a module still being written does not break the others.
_MODULES = (
    "string", "regexp", "uri", "base64", "collation",
    "number", "math", "json", "date", "boolean",
    "object", "array", "collections", "errors", "symbol", "reflect", "builtin_accessors",
)
_loaded = False
#: module name -> the error its import raised (kept so a broken module does not break the rest)
LOAD_ERRORS: dict[str, str] = {}


def load() -> None:
    """Import every stdlib module once (idempotent)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in _MODULES:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:  # pragma: no cover - only while a module is absent
            if exc.name != f"{__name__}.{name}":
                LOAD_ERRORS[name] = f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # pragma: no cover - a module under construction
            LOAD_ERRORS[name] = f"{type(exc).__name__}: {exc}"


from .. import members as _members  # noqa: E402,F401  (members calls load() when complete)
