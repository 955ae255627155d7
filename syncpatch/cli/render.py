"""Results as JSON data, for the commands that print them (``apply``, ``eval``).

Patch results are usually JSON data already, but a script can return what JSON cannot hold:
NaN, Infinity, a function, a symbol. Printing those as ``NaN`` (invalid JSON) or dying on a
YAML representer error both leave the user without an answer, so they become one clear error
naming where the value sits. Dates, Maps and Sets that reach here (the runtime may already
have exported them) follow the export rule of plans: a Date is its RFC 3339 string, a Map its
``[key, value]`` pairs, a Set its values.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["NotJsonData", "json_data"]


class NotJsonData(ValueError):
    """A value with no JSON form; ``where`` is its path in the result (``""`` for the result itself)."""

    def __init__(self, what: str, where: str) -> None:
        self.what = what
        self.where = where
        head = f"the result holds {what} at {where}" if where else f"the result is {what}"
        super().__init__(f"{head}, which JSON and YAML cannot represent")


def _describe(value: Any) -> str | None:
    """A user's name for a JS value that has no JSON form, or None when it has one."""
    from syncpatch.runtime.values import JSFunction, JSSymbol

    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, JSFunction):
        return f"a function ({value.name or 'anonymous'})"
    if isinstance(value, JSSymbol):
        return f"a symbol ({value!r})"
    return None


def _child(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    simple = key.replace("_", "a").replace("-", "a").isalnum()
    return (f"{where}.{key}" if where else key) if simple else f"{where}[{key!r}]"


def json_data(value: Any, where: str = "") -> Any:
    """``value`` as plain JSON data; :class:`NotJsonData` for what has no JSON form.

    ``undefined`` inside an object drops the key and inside an array becomes ``null``
    (as ``JSON.stringify`` does).
    """
    from syncpatch import UNDEFINED

    if value is None or isinstance(value, (str, bool, int)):
        return value
    what = _describe(value)
    if what is not None:
        raise NotJsonData(what, where)
    if isinstance(value, float):
        return value
    if isinstance(value, dict):
        return {str(k): json_data(v, _child(where, str(k))) for k, v in value.items() if v is not UNDEFINED}
    if isinstance(value, (list, tuple)):
        return [None if v is UNDEFINED else json_data(v, _child(where, i)) for i, v in enumerate(value)]
    return _exported(value, where)


def _exported(value: Any, where: str) -> Any:
    """Dates, Maps and Sets by the plans' export rule; anything else is not JSON data."""
    kind = getattr(type(value), "JS_CLASS", None)
    if kind == "Date":
        from syncpatch.runtime.plan_export import go_time_text

        tv = value.tv
        if tv != tv:
            raise NotJsonData("an invalid Date", where)
        return go_time_text(tv)
    if kind == "Map":
        return [[json_data(k, _child(where, i)), json_data(v, _child(where, i))]
                for i, (k, v) in enumerate(value.js_iterator())]
    if kind == "Set":
        return [json_data(v, _child(where, i)) for i, v in enumerate(value.js_iterator())]
    raise NotJsonData(f"a {kind or 'non-JSON'} object", where)
