"""Boolean and Boolean.prototype (20.3).

``new Boolean(x)`` returns the primitive boolean: there are no wrapper objects in this
engine (documented deviation; a wrapper would be truthy even for ``false``).
"""

from __future__ import annotations

from typing import Any

from ..convert import to_boolean
from ..values import type_error
from .registry import BOOLEAN_PROTO, GLOBALS, method, native
from .wrappers import BooleanObject

__all__ = ["BOOLEAN"]


def _boolean_ctor(this: Any, *args: Any) -> bool:
    """Boolean ( value ) (20.3.1.1): ToBoolean, false without an argument."""
    return to_boolean(args[0]) if args else False


def _boolean_construct(*args: Any) -> BooleanObject:
    """``new Boolean(value)`` (20.3.1.1): a wrapper object."""
    return BooleanObject(_boolean_ctor(None, *args))


def _this_boolean(this: Any, name: str) -> bool:
    """thisBooleanValue (20.3.3.3.1)."""
    if type(this) is bool:
        return this
    if type(this) is BooleanObject:
        return this.value  # type: ignore[no-any-return]
    raise type_error(f"Boolean.prototype.{name} requires that 'this' be a Boolean")


@method(BOOLEAN_PROTO, "toString", 0)
def boolean_to_string(this: Any, *_: Any) -> str:
    """Boolean.prototype.toString ( ) (20.3.3.2)."""
    return "true" if _this_boolean(this, "toString") else "false"


@method(BOOLEAN_PROTO, "valueOf", 0)
def boolean_value_of(this: Any, *_: Any) -> bool:
    """Boolean.prototype.valueOf ( ) (20.3.3.3)."""
    return _this_boolean(this, "valueOf")


BOOLEAN = native(_boolean_ctor, "Boolean", 1, construct=_boolean_construct)
GLOBALS["Boolean"] = BOOLEAN
