"""The ES standard library inside the sandbox, one module per built-in object.

Importing this package registers every built-in into ``registry`` tables.
"""

from __future__ import annotations

import importlib

# Modules are imported by name so a module still being written does not break the others.
_MODULES = (
    "string", "regexp", "uri", "base64", "collation",
    "number", "math", "json", "date", "boolean",
    "object", "array", "collections", "errors", "symbol",
)

for _name in _MODULES:
    try:
        importlib.import_module(f"{__name__}.{_name}")
    except ModuleNotFoundError as _exc:  # pragma: no cover - only while a module is absent
        if _exc.name != f"{__name__}.{_name}":
            raise
