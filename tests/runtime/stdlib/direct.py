"""Helpers for calling built-ins directly from Python (no compiler needed)."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from syncpatch.runtime import members  # noqa: F401  (installs the core dispatch)
from syncpatch.runtime.stdlib import registry
from syncpatch.runtime.values import UNDEFINED, JSFunction, JSThrow

U = UNDEFINED
NAN = float("nan")


def fn(body: Callable[..., Any], name: str = "f") -> JSFunction:
    """A JS arrow function from a Python callable taking the JS arguments."""
    return JSFunction(lambda this, *args: body(*args), name, 1, kind="arrow")


def proto(table: str, name: str, this: Any, *args: Any) -> Any:
    """Call ``<Table>.prototype.<name>`` with ``this``."""
    return getattr(registry, f"{table}_PROTO")[name].call(this, *args)


def static(ctor: str, name: str, *args: Any) -> Any:
    return registry.GLOBALS[ctor].props[name].call(UNDEFINED, *args)


def throws(name: str, message: str | None, call: Callable[[], Any]) -> None:
    with pytest.raises(JSThrow) as info:
        call()
    err = info.value.value
    assert err.error_name == name
    if message is not None:
        assert err.message == message


def same(a: Any, b: Any) -> bool:
    """Deep equality that tells 1 from True and NaN equals NaN."""
    if type(a) is not type(b) and not ({type(a), type(b)} <= {int, float}):
        return False
    if isinstance(a, float) and a != a:
        return b != b
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a is b if a is UNDEFINED or b is UNDEFINED else a == b


@pytest.fixture(autouse=True)
def fresh_realm():
    """Run each direct call in a fresh realm: outside an evaluation ``current_realm()`` is a
    thread-wide fallback whose wall-time deadline expires a few seconds into the session."""
    from syncpatch.runtime.realm import Realm, activate

    with activate(Realm()):
        yield
