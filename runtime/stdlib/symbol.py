"""The Symbol constructor, the well-known symbols and Symbol.prototype (ECMA-262 20.4).

Well-known symbols are module-level constants shared by every evaluation (they are
immutable; defined in ``runtime/well_known.py``, below the core that reads them). ``Symbol.for`` keeps its registry in the realm, so keys never outlive an
evaluation. ``description`` is read by the core straight from ``JSSymbol.description``.
"""

from __future__ import annotations

from typing import Any

from ..convert import to_string
from ..realm import current_realm
from ..values import UNDEFINED, JSSymbol, type_error
from ..well_known import SYMBOL_ITERATOR, SYMBOL_TO_PRIMITIVE, SYMBOL_TO_STRING_TAG, WELL_KNOWN
from .registry import GLOBALS, SYMBOL_PROTO, method, native
from .wrappers import SymbolObject

__all__ = ["WELL_KNOWN", "SYMBOL_ITERATOR", "SYMBOL_TO_PRIMITIVE", "SYMBOL_TO_STRING_TAG", "symbol_descriptive_string", "is_registered"]


def symbol_descriptive_string(sym: JSSymbol) -> str:
    """SymbolDescriptiveString (20.4.3.3.1): ``Symbol(desc)``."""
    d = sym.description
    return f"Symbol({'' if d is UNDEFINED else d})"


def symbol_call(this: Any, description: Any = UNDEFINED, *_: Any) -> JSSymbol:
    """Symbol ( [ description ] ) (20.4.1.1); ``new Symbol`` is a TypeError."""
    return JSSymbol(UNDEFINED if description is UNDEFINED else to_string(description))


def _symbol_construct(*_: Any) -> Any:
    raise type_error("Symbol is not a constructor")


def symbol_for(this: Any, key: Any = UNDEFINED, *_: Any) -> JSSymbol:
    """Symbol.for (20.4.2.2): one symbol per key within the evaluation."""
    k = to_string(key)
    registry: dict[str, JSSymbol] = current_realm().extra.setdefault("symbol.registry", {})
    sym = registry.get(k)
    if sym is None:
        sym = registry[k] = JSSymbol(k)
    return sym


def symbol_key_for(this: Any, sym: Any = UNDEFINED, *_: Any) -> Any:
    """Symbol.keyFor (20.4.2.6)."""
    if type(sym) is not JSSymbol:
        from .array_support import describe

        raise type_error(f"{describe(sym)} is not a symbol")
    return sym.description if is_registered(sym) else UNDEFINED


def is_registered(sym: JSSymbol) -> bool:
    """True for a symbol from ``Symbol.for`` (those cannot be weak collection keys)."""
    registry = current_realm().extra.get("symbol.registry") or {}
    d = sym.description
    return type(d) is str and registry.get(d) is sym


def _this_symbol(this: Any, name: str) -> JSSymbol:
    """thisSymbolValue (20.4.3.6.1)."""
    if type(this) is SymbolObject:
        return this.value  # type: ignore[no-any-return]
    if type(this) is not JSSymbol:
        raise type_error(f"Symbol.prototype.{name} requires that 'this' be a Symbol")
    return this


@method(SYMBOL_PROTO, "toString", 0)
def symbol_to_string(this: Any, *_: Any) -> str:
    """Symbol.prototype.toString (20.4.3.3)."""
    return symbol_descriptive_string(_this_symbol(this, "toString"))


@method(SYMBOL_PROTO, "valueOf", 0)
def symbol_value_of(this: Any, *_: Any) -> JSSymbol:
    """Symbol.prototype.valueOf (20.4.3.4)."""
    return _this_symbol(this, "valueOf")


def symbol_to_primitive(this: Any, *_: Any) -> JSSymbol:
    """Symbol.prototype [ @@toPrimitive ] ( hint ) (20.4.3.5): the symbol, whatever the hint."""
    return _this_symbol(this, "[Symbol.toPrimitive]")


SYMBOL_PROTO[SYMBOL_TO_PRIMITIVE] = native(symbol_to_primitive, "[Symbol.toPrimitive]", 1)  # type: ignore[index]

GLOBALS["Symbol"] = native(
    symbol_call,
    "Symbol",
    0,
    construct=_symbol_construct,
    props={
        "for": native(symbol_for, "for", 1),
        "keyFor": native(symbol_key_for, "keyFor", 1),
        **WELL_KNOWN,
    },
)
