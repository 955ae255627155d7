"""The well-known symbols (ECMA-262 6.1.5.1): ``Symbol.iterator``, ``Symbol.toPrimitive``...

Immutable constants shared by every evaluation. They sit below both the core (iteration and
ToPrimitive read them) and the stdlib (``Symbol`` exposes them, built-ins are keyed by them),
so neither has to import the other to name one.
"""

from __future__ import annotations

from .values import JSSymbol

__all__ = ["WELL_KNOWN", "SYMBOL_ITERATOR", "SYMBOL_TO_PRIMITIVE", "SYMBOL_TO_STRING_TAG"]

WELL_KNOWN: dict[str, JSSymbol] = {
    name: JSSymbol(f"Symbol.{name}")
    for name in (
        "asyncIterator", "hasInstance", "isConcatSpreadable", "iterator", "match", "matchAll",
        "replace", "search", "species", "split", "toPrimitive", "toStringTag", "unscopables",
    )
}
SYMBOL_ITERATOR = WELL_KNOWN["iterator"]
SYMBOL_TO_PRIMITIVE = WELL_KNOWN["toPrimitive"]
SYMBOL_TO_STRING_TAG = WELL_KNOWN["toStringTag"]
