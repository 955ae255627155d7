"""JS operators on the value model (ECMA-262 13.5-13.15, 6.1.6.1 Number::*).

Each operator has a fast path for the common Python types (``int``/``float``/``str``) and
falls back to the spec's abstract operations. Numbers stay canonical: an integral result
within +-2**53 is an ``int``; -0, NaN, infinities and fractions are ``float``.
"""

from __future__ import annotations

import math
from typing import Any, cast

from . import convert, members
from .convert import normalize_number, to_int32, to_number, to_numeric, to_primitive, to_string, to_uint32
from .properties import BUILTIN_ACCESSORS, meta_of
from .strings import concat, has_astral, to_units
from .values import MISSING, UNDEFINED, JSFunction, JSObject, JSErrorObject, JSSymbol, type_error
from .realm import PATCHED_REALMS
from .well_known import SYMBOL_TO_PRIMITIVE, WELL_KNOWN
from .stdlib import registry as reg

__all__ = [
    "add", "sub", "mul", "div", "mod", "power", "neg", "pos", "bit_not", "bit_and", "bit_or",
    "bit_xor", "shl", "sar", "shr", "lt", "gt", "le", "ge", "loose_eq", "loose_ne", "strict_eq",
    "strict_ne", "typeof", "instanceof", "in_op", "to_boolean", "inc", "dec", "js_to_primitive", "ordinary_to_primitive",
]

_TWO_53 = 2**53
SYMBOL_HAS_INSTANCE = WELL_KNOWN["hasInstance"]
to_boolean = convert.to_boolean
typeof = convert.typeof
loose_eq = convert.loose_equals
strict_eq = convert.strict_equals


def loose_ne(a: Any, b: Any) -> bool:
    return not convert.loose_equals(a, b)


def strict_ne(a: Any, b: Any) -> bool:
    return not convert.strict_equals(a, b)


# --- ToPrimitive with user methods (7.1.1.1 OrdinaryToPrimitive) --------------------------------

def _exotic_to_primitive(obj: Any, hint: str) -> Any:
    """``obj[Symbol.toPrimitive](hint)`` when the object defines one (7.1.1 step 2), else MISSING."""
    fn = members.get_member(obj, SYMBOL_TO_PRIMITIVE)
    if fn is None or fn is UNDEFINED:
        return MISSING
    if type(fn) is not JSFunction:
        raise type_error("Symbol.toPrimitive is not a function")
    result = fn.call(obj, hint)
    if members._is_object(result):
        raise type_error("Cannot convert object to primitive value")
    return result


def js_to_primitive(obj: Any, hint: str) -> Any:
    """ToPrimitive of an object (7.1.1): ``obj[Symbol.toPrimitive]`` (Date.prototype has
    one), else OrdinaryToPrimitive."""
    exotic = _exotic_to_primitive(obj, hint)
    if exotic is not MISSING:
        return exotic
    return ordinary_to_primitive(obj, "number" if hint == "default" else hint)


def ordinary_to_primitive(obj: Any, hint: str) -> Any:
    """OrdinaryToPrimitive (7.1.1.1): ``valueOf``/``toString`` found through member dispatch."""
    order = ("toString", "valueOf") if hint == "string" else ("valueOf", "toString")
    found = False
    for name in order:
        fn = members.get_member(obj, name)
        if type(fn) is not JSFunction:
            continue
        found = True
        if fn is reg.OBJECT_PROTO.get("valueOf"):
            continue
        result = fn.call(obj)
        if not members._is_object(result):
            return result
    if not found:
        if type(obj) is dict or type(obj) is JSObject:
            raise type_error("Cannot convert object to primitive value")
        return convert._default_to_primitive(obj, hint)
    if not reg.OBJECT_PROTO:  # stdlib not loaded: built-in defaults
        return convert._default_to_primitive(obj, hint)
    raise type_error("Cannot convert object to primitive value")


def _fast_to_primitive(obj: Any, hint: str) -> Any:
    t = type(obj)
    if t is dict and "toString" not in obj and "valueOf" not in obj and _plain_protos() and not _has_symbol_key(obj) \
            and meta_of(obj) is None:  # no accessor (a getter for toString or Symbol.toPrimitive)
        return "[object Object]"
    if t is list and _plain_protos() and _no_named(obj):
        return convert._array_join(obj)
    if t is JSErrorObject and "toString" not in obj and "name" not in obj and "message" not in obj and _plain_protos() \
            and meta_of(obj) is None:
        return convert._default_to_primitive(obj, hint)
    if t is members.BuiltinProto and _plain_protos():
        if obj.tag in members.WRAPPER_VALUES:
            v = members.WRAPPER_VALUES[obj.tag]
            return "" if v is None else v
        if obj.tag == "Function":
            return "function () { [native code] }"
        if obj.tag == "RegExp":
            return "/(?:)/"
    return js_to_primitive(obj, hint)


def _no_named(arr: list[Any]) -> bool:
    """No own named property or accessor on an array (an own toString, Symbol.toPrimitive...)."""
    m = meta_of(arr)
    return m is None or (not m.named and not m.accessors)


def _has_symbol_key(obj: dict[Any, Any]) -> bool:
    for k in obj:
        if type(k) is JSSymbol:
            return True
    return False


def _plain_protos() -> bool:
    from .realm import PATCHED_REALMS, current_realm

    if not PATCHED_REALMS[0]:
        return True
    realm = current_realm()
    return realm.overlay is None and not realm.extra.get("protos")


convert.set_to_primitive_hook(_fast_to_primitive)


# --- arithmetic -------------------------------------------------------------------------------

def add(a: Any, b: Any) -> Any:
    """The ``+`` operator (13.15.3 ApplyStringOrNumericBinaryOperator)."""
    ta = type(a)
    tb = type(b)
    if ta is str and tb is str:
        return concat(a, b)
    if ta is int and tb is int:
        r = a + b
        return r if -_TWO_53 <= r <= _TWO_53 else float(r)
    if (ta is float or ta is int) and (tb is float or tb is int):
        return normalize_number(float(a) + float(b))
    if ta is str and tb is int and -_TWO_53 <= b <= _TWO_53:  # "9090" + 1: ToString of a safe int is its digits
        return concat(a, str(b))
    if tb is str and ta is int and -_TWO_53 <= a <= _TWO_53:
        return concat(str(a), b)
    a = to_primitive(a)
    b = to_primitive(b)
    if type(a) is str or type(b) is str:
        return concat(to_string(a), to_string(b))
    return _num_add(to_numeric(a), to_numeric(b))


def _num_add(x: Any, y: Any) -> Any:
    if type(x) is int and type(y) is int:
        return normalize_number(x + y)
    return normalize_number(float(x) + float(y))


def sub(a: Any, b: Any) -> Any:
    """Number::subtract (6.1.6.1.8 via 13.15.3)."""
    if type(a) is not int or type(b) is not int:
        a = to_numeric(a)
        b = to_numeric(b)
        if type(a) is not int or type(b) is not int:
            return normalize_number(float(a) - float(b))
    r = a - b
    return r if -_TWO_53 <= r <= _TWO_53 else float(r)


def mul(a: Any, b: Any) -> Any:
    """Number::multiply (6.1.6.1.4): int products are exact, then rounded once; 0 * -n is -0."""
    if type(a) is not int or type(b) is not int:
        a = to_numeric(a)
        b = to_numeric(b)
        if type(a) is not int or type(b) is not int:
            return normalize_number(float(a) * float(b))
    r = a * b
    if r == 0 and (a < 0 or b < 0):
        return -0.0
    return r if -_TWO_53 <= r <= _TWO_53 else float(r)


def div(a: Any, b: Any) -> Any:
    """Number::divide (6.1.6.1.5): IEEE division, x/0 is +-Infinity or NaN."""
    a = to_numeric(a) if type(a) is not int else a
    b = to_numeric(b) if type(b) is not int else b
    if b == 0:
        if a == 0 or a != a:
            return math.nan
        neg = (math.copysign(1.0, a) < 0) != (math.copysign(1.0, b) < 0)
        return -math.inf if neg else math.inf
    if type(a) is int and type(b) is int:
        if a % b == 0:
            q = a // b
            if q == 0 and (a < 0) != (b < 0):
                return -0.0
            return q
        return a / b
    return normalize_number(float(a) / float(b))


def mod(a: Any, b: Any) -> Any:
    """Number::remainder (6.1.6.1.6): truncating, the result has the dividend's sign."""
    a = to_numeric(a) if type(a) is not int else a
    b = to_numeric(b) if type(b) is not int else b
    if type(a) is int and type(b) is int and b != 0:
        r = abs(a) % abs(b)
        if a < 0:
            return -r if r else -0.0
        return r
    a = float(a)
    b = float(b)
    if b == 0 or a != a or b != b or a in (math.inf, -math.inf):
        return math.nan
    if b in (math.inf, -math.inf):
        return normalize_number(a)
    return normalize_number(math.fmod(a, b))


_SAFE = 2**53


def power(a: Any, b: Any) -> Any:
    """Number::exponentiate (6.1.6.1.3) with V8's fdlibm pow, which differs from Python's
    ``math.pow`` in the last digit (``10 ** -5`` is ``9.999999999999999e-06``) and at
    ``1 ** Infinity``. Exact small integer powers keep the int fast path."""
    a = to_numeric(a)
    b = to_numeric(b)
    if type(a) is int and type(b) is int and 0 < b <= 64 and -(2**20) <= a <= 2**20:
        r = a**b
        if -_SAFE <= r <= _SAFE:
            return r
    from .stdlib.math import js_pow

    return normalize_number(js_pow(float(a), float(b)))


def neg(a: Any) -> Any:
    """Unary ``-`` (13.5.5): -0 for 0."""
    if type(a) is not int:
        a = to_numeric(a)
        if type(a) is not int:
            return normalize_number(-a)
    return -a if a != 0 else -0.0


def pos(a: Any) -> Any:
    """Unary ``+`` (13.5.4): ToNumber."""
    return to_number(a)


def inc(a: Any) -> Any:
    """``x + 1`` after ToNumeric, for ``++``."""
    if type(a) is int and a < _TWO_53:
        return a + 1
    return _num_add(to_numeric(a), 1)


def dec(a: Any) -> Any:
    """``x - 1`` after ToNumeric, for ``--``."""
    if type(a) is int and a > -_TWO_53:
        return a - 1
    return _num_add(to_numeric(a), -1)


# --- bitwise (13.12, 6.1.6.1.9-13) --------------------------------------------------------------

def _wrap32(n: int) -> int:
    n &= 0xFFFFFFFF
    return n - 0x100000000 if n >= 0x80000000 else n


def bit_not(a: Any) -> int:
    return ~to_int32(a)


# Each first takes two ints already in range (an int32, or a uint32 for ``>>>``'s left side; a
# shift count in 0..31) without the conversions, which would return them as they are.

def bit_and(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and -0x80000000 <= a <= 0x7FFFFFFF and -0x80000000 <= b <= 0x7FFFFFFF:
        return a & b
    return to_int32(a) & to_int32(b)


def bit_or(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and -0x80000000 <= a <= 0x7FFFFFFF and -0x80000000 <= b <= 0x7FFFFFFF:
        return a | b
    return to_int32(a) | to_int32(b)


def bit_xor(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and -0x80000000 <= a <= 0x7FFFFFFF and -0x80000000 <= b <= 0x7FFFFFFF:
        return a ^ b
    return to_int32(a) ^ to_int32(b)


def shl(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and -0x80000000 <= a <= 0x7FFFFFFF and 0 <= b <= 31:
        n = (a << b) & 0xFFFFFFFF
        return n - 0x100000000 if n >= 0x80000000 else n
    return _wrap32(to_int32(a) << (to_uint32(b) & 31))


def sar(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and -0x80000000 <= a <= 0x7FFFFFFF and 0 <= b <= 31:
        return a >> b
    return to_int32(a) >> (to_uint32(b) & 31)


def shr(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and 0 <= a <= 0xFFFFFFFF and 0 <= b <= 31:
        return a >> b
    return to_uint32(a) >> (to_uint32(b) & 31)


# --- relational (13.10, 7.2.13 IsLessThan) --------------------------------------------------------

def _str_less(a: str, b: str) -> bool:
    """String comparison by UTF-16 code units (differs from code points above U+FFFF)."""
    if a.isascii() or b.isascii() or not (has_astral(a) or has_astral(b)):
        return a < b
    return to_units(a) < to_units(b)


def _less(a: Any, b: Any, left_first: bool = True) -> Any:
    """IsLessThan: True, False, or UNDEFINED (NaN involved)."""
    if left_first:
        a = to_primitive(a, "number")
        b = to_primitive(b, "number")
    else:
        b = to_primitive(b, "number")
        a = to_primitive(a, "number")
    if type(a) is str and type(b) is str:
        return _str_less(a, b)
    x = to_numeric(a)
    y = to_numeric(b)
    if x != x or y != y:
        return UNDEFINED
    return x < y


def lt(a: Any, b: Any) -> bool:
    ta = type(a)
    if (ta is int or ta is float) and (type(b) is int or type(b) is float):
        return a < b  # type: ignore[no-any-return]
    return _less(a, b) is True


def gt(a: Any, b: Any) -> bool:
    ta = type(a)
    if (ta is int or ta is float) and (type(b) is int or type(b) is float):
        return a > b  # type: ignore[no-any-return]
    return _less(b, a, False) is True


def le(a: Any, b: Any) -> bool:
    ta = type(a)
    if (ta is int or ta is float) and (type(b) is int or type(b) is float):
        return a <= b  # type: ignore[no-any-return]
    r = _less(b, a, False)
    return r is False


def ge(a: Any, b: Any) -> bool:
    ta = type(a)
    if (ta is int or ta is float) and (type(b) is int or type(b) is float):
        return a >= b  # type: ignore[no-any-return]
    r = _less(a, b)
    return r is False


# --- in / instanceof ----------------------------------------------------------------------------

def in_op(key: Any, obj: Any) -> bool:
    """``key in obj`` (13.10.1). ``name in [...]`` with a name that is no index (the usual
    use, a mistaken membership test) looks at Array.prototype's chain only, while no realm
    patches built-ins (a plain array has no other own string keys than ``length``)."""
    if type(obj) is list and not _PATCHED[0]:
        if key is None or key is UNDEFINED:
            key = "null" if key is None else "undefined"
        if type(key) is str and key and not "0" <= key[0] <= "9" and key != "length":
            # BuiltinProto.lookup on Array.prototype, then Object.prototype, without its calls:
            # with no realm patched there is no overlay, so only the tables, ``constructor``
            # (both constructors are globals) and the built-in accessors (__proto__) answer
            return key in _ARRAY_METHODS or key in _OBJECT_METHODS or key == "constructor" or \
                ("Array", key) in BUILTIN_ACCESSORS or ("Object", key) in BUILTIN_ACCESSORS
    return members.has_property(obj, key)


_ARRAY_PROTOTYPE = members.PROTOTYPES["Array"]
_ARRAY_METHODS = _ARRAY_PROTOTYPE.table  # (the live tables: a method the stdlib adds later is seen)
_OBJECT_METHODS = members.PROTOTYPES["Object"].table
_PATCHED = PATCHED_REALMS


def instanceof(obj: Any, ctor: Any) -> bool:
    """InstanceofOperator (13.10.2): ``ctor[Symbol.hasInstance]`` when a script gave one,
    else OrdinaryHasInstance."""
    if type(ctor) is not JSFunction or ctor.props or PATCHED_REALMS[0]:
        if not members._is_object(ctor):
            raise type_error("Right-hand side of 'instanceof' is not an object")
        handler = members.get_member(ctor, SYMBOL_HAS_INSTANCE)
        if handler is not UNDEFINED and handler is not None and handler is not FUNCTION_HAS_INSTANCE:
            if type(handler) is not JSFunction:
                raise type_error(f"{convert.typeof(handler)} is not a function")
            return convert.to_boolean(handler.call(ctor, obj))
        if type(ctor) is not JSFunction and not _is_function_prototype(ctor):
            raise type_error("Right-hand side of 'instanceof' is not callable")
    return ordinary_has_instance(ctor, obj)


def _is_function_prototype(v: Any) -> bool:
    """Function.prototype is itself a function (20.2.3), though a BuiltinProto here."""
    return type(v) is members.BuiltinProto and v.tag == "Function"


def ordinary_has_instance(ctor: Any, obj: Any) -> bool:
    """OrdinaryHasInstance (7.3.21): walk ``obj``'s prototype chain for ``ctor.prototype``."""
    if type(ctor) is not JSFunction and not _is_function_prototype(ctor):
        return False
    if not members._is_object(obj):
        return False
    target = members.get_member(ctor, "prototype")
    if not members._is_object(target):
        raise type_error(f"Function has non-object prototype '{convert.to_string(target)}' in instanceof check"
                         if type(target) is not JSSymbol else "Function has non-object prototype in instanceof check")
    proto = members.get_prototype(obj) if type(obj) is not dict else members._dict_proto(obj)
    depth = 0
    while proto is not None and depth < 10_000:
        if proto is target:
            return True
        depth += 1
        proto = proto.parent if type(proto) is members.BuiltinProto else members.get_prototype(proto)
    return False


def _function_has_instance(this: Any, obj: Any = UNDEFINED, *_: Any) -> bool:
    """Function.prototype[Symbol.hasInstance] (20.2.3.6)."""
    return ordinary_has_instance(this, obj)


FUNCTION_HAS_INSTANCE = reg.native(_function_has_instance, "[Symbol.hasInstance]", 1)
cast("dict[Any, JSFunction]", reg.FUNCTION_PROTO)[SYMBOL_HAS_INSTANCE] = FUNCTION_HAS_INSTANCE


def is_symbol(v: Any) -> bool:
    return type(v) is JSSymbol
