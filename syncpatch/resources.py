"""Naming a resource's plan: one check, shared by compiled configs and loaded artifacts.

A typo in a side or resource name (``service`` for ``services``) used to return an empty plan,
so a patch silently did nothing. Both plan sources call :func:`check_plan_key`, which refuses
a name the config cannot hold and lists the names it can. Runtime-level (standard library and
the runtime's error root only): artifacts load with the runtime alone.
"""

from __future__ import annotations

import difflib
from typing import Iterable

from syncpatch.runtime.errors import SyncpatchError

__all__ = ["SIDES", "UnknownResourceError", "check_plan_key"]

SIDES = ("toHost", "fromHost")


class UnknownResourceError(SyncpatchError, LookupError):
    """A side or resource name that the config does not know; ``str()`` lists the valid ones."""

    def __init__(self, message: str, choices: tuple[str, ...]) -> None:
        super().__init__(message)
        self.message = message
        self.choices = choices

    def __str__(self) -> str:
        return self.message


def _suggest(name: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_plan_key(side: str, resource: str, known: Iterable[tuple[str, str]]) -> None:
    """Raise :class:`UnknownResourceError` unless ``(side, resource)`` is a resource of the config."""
    if side not in SIDES:
        raise UnknownResourceError(
            f"unknown side {side!r}{_suggest(side, SIDES)}: use one of {', '.join(SIDES)}", SIDES)
    keys = {tuple(key) for key in known}
    if (side, resource) in keys:
        return
    names = tuple(sorted(name for s, name in keys if s == side))
    other = next((s for s, name in keys if name == resource and s != side), None)
    hint = f" ({resource!r} is a {other} resource)" if other else _suggest(resource, names)
    raise UnknownResourceError(
        f"unknown {side} resource {resource!r}{hint}; the config's {side} resources are: {', '.join(names)}",
        names)
