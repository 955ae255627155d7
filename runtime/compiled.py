"""The one record the compiler hands the runtime for a compiled expression.

Both exits of the compiler build it through :func:`bind_expression`: the in-process closure
(``syncpatch.compile_expression``) and every function of a ``compile-patches`` artifact run
the same emitted module (``compiler/emit.py``), whose last statement calls it. Everything a
consumer needs is a field here, computed once by the compiler: plans read
``facts.reads_context`` to decide whether to keep ``context.path`` current, call ``invoke``,
and write ``native.text`` in place of calls; nobody inspects code or probes attributes.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Mapping

import attrs

from . import abi, native
from .entry import CompiledFunction
from .realm import Budgets
from .values import UNDEFINED

__all__ = ["ExpressionFacts", "NativeTier", "CompiledExpression", "bind_expression", "general_tier", "namespace", "ensure_stack_room",
           "PROVIDERS"]


@attrs.frozen
class ExpressionFacts:
    """What the compiler proved about one script.

    ``copy_mask``: which inputs a call must copy first (bit 1 ``value``, bit 2 ``context``;
    4 with 1: a shallow copy of ``value`` suffices). ``native_result``: the type of every
    result the native tier returns (``any`` without a native tier; see ``compiler/native.py``).
    ``regexes``: the native tier's translated patterns, as ``(name, pattern, ignore_case)``.
    """

    reads_value: bool
    reads_context: bool
    reads_value_exists: bool
    copy_mask: int
    free_globals: tuple[str, ...] = ()
    native_result: str = "any"
    regexes: tuple[tuple[str, str, bool], ...] = ()


@attrs.frozen
class NativeTier:
    """The native statements as Python text (what ``_entry`` runs first; plans write them in
    place of calls) and the constants they name (compiled regexes), by name."""

    text: str
    constants: Mapping[str, Any]


@attrs.frozen
class CompiledExpression:
    """A compiled expression: its public call, the plans' call, both tiers and the facts.

    ``entry(value, context=None, value_exists=True, budgets=None)`` is the public function
    (``syncpatch.Expression``): the native tier when there is one and no ``budgets`` are
    given, else the general tier. ``invoke(value, ctx, value_exists)`` is what plan walkers
    call inside an application's realm. ``general`` holds the general tier and its names
    table (compiler-made Python names back to JS names, for messages).
    """

    source: str
    origin: str
    facts: ExpressionFacts
    entry: Callable[..., Any]
    invoke: Callable[[Any, Any, bool], Any]
    general: CompiledFunction
    native: NativeTier | None = None

    def __call__(self, value: Any = UNDEFINED, context: Any = None, value_exists: bool = True,
                 budgets: Any = None) -> Any:
        return self.entry(value, context, value_exists, budgets)


def ensure_stack_room() -> None:
    """Deep JS recursion (and deep scripts, when compiling) need room before the depth budget."""
    if sys.getrecursionlimit() < 8000:
        sys.setrecursionlimit(8000)


def bind_expression(entry: Callable[..., Any], invoke: Callable[[Any, Any, bool], Any], general: CompiledFunction,
                    facts: ExpressionFacts, source: str, origin: str, native_text: str | None,
                    constants: Mapping[str, Any]) -> CompiledExpression:
    """The record of one emitted expression module; ``entry`` becomes the public
    ``Expression`` (a plain function, so a call costs what a call of hand-written Python
    costs) with the documented attributes, ``compiled`` among them."""
    ensure_stack_room()
    native = NativeTier(native_text, dict(constants)) if native_text is not None else None
    record = CompiledExpression(source, origin, facts, entry, invoke, general, native)
    entry.__qualname__ = entry.__name__ = "Expression"
    entry.__doc__ = source
    attributes = entry.__dict__
    attributes["source"] = source
    attributes["origin"] = origin
    attributes["free_globals"] = facts.free_globals
    attributes["budgets"] = general.budgets
    attributes["native"] = native is not None
    attributes["general"] = general
    attributes["compiled"] = record
    return record


def general_tier(main: Callable[..., Any], names: Mapping[str, str], copy_mask: int, source: str,
                 budgets: Budgets | None = None) -> CompiledFunction:
    """The general tier of an emitted module whose ``_main`` was generated with it."""
    return CompiledFunction(main, names, copy_mask, source, budgets)


#: what an emitted module may name, by the runtime module that provides it (an artifact
#: imports each name from there; in process the module runs in ``namespace()``)
PROVIDERS: dict[str, tuple[str, ...]] = {
    "syncpatch.runtime.abi": abi.NAMES,
    "syncpatch.runtime.native": (*native.HELPERS, *native.BUILTINS, "compile_regex"),
    "syncpatch.runtime.compiled": ("ExpressionFacts", "bind_expression", "general_tier"),
}


def namespace() -> dict[str, Any]:
    """The globals an emitted module runs in, in process: no Python builtins, and exactly the
    names of ``PROVIDERS`` (as an artifact's imports bind them)."""
    ns = abi.namespace()
    ns.update(native.namespace({"compile_regex": native.compile_regex}))
    ns.update(ExpressionFacts=ExpressionFacts, bind_expression=bind_expression, general_tier=general_tier)
    return ns
