"""Symbol called directly (node-verified expectations; see test_symbol_js)."""

from syncpatch.runtime.stdlib.registry import GLOBALS, SYMBOL_PROTO
from syncpatch.runtime.stdlib.symbol import SYMBOL_ITERATOR, WELL_KNOWN
from syncpatch.runtime.values import JSSymbol

from .direct import fresh_realm, U, throws  # noqa: F401 (fixture)

Symbol = GLOBALS["Symbol"]


def test_symbol_creation_and_description():
    s = Symbol.call(U, "x")
    assert type(s) is JSSymbol and s.description == "x"
    assert Symbol.call(U).description is U
    assert Symbol.call(U, 1).description == "1"
    assert Symbol.call(U, "a") is not Symbol.call(U, "a")
    assert SYMBOL_PROTO["toString"].call(s) == "Symbol(x)"
    assert SYMBOL_PROTO["toString"].call(Symbol.call(U)) == "Symbol()"
    assert SYMBOL_PROTO["valueOf"].call(s) is s


def test_new_symbol_and_bad_receivers():
    throws("TypeError", "Symbol is not a constructor", lambda: Symbol.construct())
    throws("TypeError", "Symbol.prototype.toString requires that 'this' be a Symbol",
           lambda: SYMBOL_PROTO["toString"].call(1))


def test_registry_and_well_known():
    f = Symbol.props["for"]
    key_for = Symbol.props["keyFor"]
    assert f.call(U, "k") is f.call(U, "k")
    assert key_for.call(U, f.call(U, "k")) == "k"
    assert key_for.call(U, Symbol.call(U, "k")) is U
    throws("TypeError", "1 is not a symbol", lambda: key_for.call(U, 1))
    assert Symbol.props["iterator"] is SYMBOL_ITERATOR is WELL_KNOWN["iterator"]
    assert SYMBOL_PROTO["toString"].call(SYMBOL_ITERATOR) == "Symbol(Symbol.iterator)"
