"""How V8 names a value in an error message (``%s is not a function``, ``of object '%s'``).

A function of the value model alone, so that the core (``members``) and the built-ins
(``stdlib``) word their TypeErrors alike without importing each other.
"""

from __future__ import annotations

from typing import Any

from .convert import to_string
from .values import UNDEFINED, JSErrorObject, JSFunction, JSSymbol

__all__ = ["describe"]


def describe(v: Any) -> str:
    """How V8 prints a value in ``%s is not a function`` messages."""
    t = type(v)
    if t is str:
        return v  # type: ignore[no-any-return]
    if t is JSSymbol:
        return repr(v)
    if v is None or v is UNDEFINED or t in (int, float, bool):
        return to_string(v)
    if isinstance(v, list):
        return "[object Array]"
    if isinstance(v, JSErrorObject):
        return to_string(v)
    if t is JSFunction:
        return f"function {v.name}"
    cls = getattr(type(v), "JS_CLASS", None)
    if cls in ("RegExp", "Date"):
        return f"[object {cls}]"
    if cls is not None and cls not in ("Object", "Iterator") and "Iterator" not in cls:
        return f"#<{cls}>"
    if type(v).__name__ == "JSObject" and getattr(v, "proto", 0) is None:
        return "[object Object]"
    return "#<Object>"
