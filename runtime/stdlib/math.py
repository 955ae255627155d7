"""The Math namespace (21.3).

Every function converts all of its arguments with ToNumber, in order, before computing.
-0 and NaN follow the spec exactly (Python's ``math`` raises where JS returns NaN or
+-Infinity, and loses -0 in floor/ceil/trunc, so each function handles those cases).
``Math.random`` uses Python's ``random`` (not seedable from JS, like V8).
"""

from __future__ import annotations

import math
import random
import struct
from typing import Any, Callable

from ..convert import normalize_number, to_uint32
from ..values import UNDEFINED
from . import fdlibm as _f
from . import fdlibm_hyp as _h
from . import fdlibm_trig as _t
from .number import to_number
from .registry import GLOBALS, BuiltinNamespace, native

__all__ = ["MATH", "js_pow", "js_round"]

_INF = math.inf
_NAN = math.nan

Num = int | float


def _neg_zero(x: Num) -> bool:
    return x == 0 and type(x) is float and math.copysign(1.0, x) < 0


def _n(x: Any) -> Num:
    return to_number(x)


def js_pow(base: Num, exponent: Num) -> Num:
    """Number::exponentiate (6.1.6.1.3), bit-exact with V8 (its fdlibm pow); shared with the
    ``**`` operator."""
    if exponent != exponent:
        return _NAN
    if exponent == 0:
        return 1
    if base != base:
        return _NAN
    if (exponent == _INF or exponent == -_INF) and (base == 1 or base == -1):
        return _NAN
    if type(base) is int and type(exponent) is int and 0 < exponent < 64 and -(2**26) < base < 2**26:
        r = base**exponent
        if -(2**53) <= r <= 2**53:
            return int(r)  # pow(integer, integer) is exact in fdlibm when representable
    return normalize_number(_f.pow_(float(base), float(exponent)))


def js_round(x: Num) -> Num:
    """Math.round core: round half toward +Infinity; -0 for -0.5 <= x < 0."""
    if type(x) is int:
        return x
    if not math.isfinite(x) or float(x).is_integer():
        return normalize_number(x)
    r = math.ceil(x)
    if r - 0.5 > x:
        r -= 1
    if r == 0 and x < 0:
        return -0.0
    return normalize_number(r)


def _unary(fn: Callable[[float], float], name: str, doc: str) -> Any:
    """Wrap a one-argument fdlibm function (V8's implementation, bit for bit)."""

    def impl(this: Any, x: Any = UNDEFINED, *_: Any) -> Num:
        return normalize_number(fn(float(_n(x))))

    impl.__doc__ = doc
    impl.__name__ = name
    return native(impl, name, 1)


def _sqrt(x: float) -> float:
    """IEEE square root (correctly rounded everywhere); NaN below zero, -0 kept."""
    if x < 0:
        return _NAN
    return math.sqrt(x)


def _abs(this: Any, x: Any = UNDEFINED, *_: Any) -> Num:
    """Math.abs ( x ) (21.3.2.1)."""
    v = _n(x)
    return normalize_number(abs(v))


def _floor(this: Any, x: Any = UNDEFINED, *_: Any) -> Num:
    """Math.floor ( x ) (21.3.2.16)."""
    v = _n(x)
    if type(v) is int or not math.isfinite(v) or float(v).is_integer():
        return normalize_number(v)
    return normalize_number(math.floor(v))


def _ceil(this: Any, x: Any = UNDEFINED, *_: Any) -> Num:
    """Math.ceil ( x ) (21.3.2.10)."""
    v = _n(x)
    if type(v) is int or not math.isfinite(v) or float(v).is_integer():
        return normalize_number(v)
    r = math.ceil(v)
    return -0.0 if r == 0 else normalize_number(r)


def _trunc(this: Any, x: Any = UNDEFINED, *_: Any) -> Num:
    """Math.trunc ( x ) (21.3.2.35)."""
    v = _n(x)
    if type(v) is int or not math.isfinite(v) or float(v).is_integer():
        return normalize_number(v)
    r = math.trunc(v)
    return -0.0 if r == 0 and v < 0 else normalize_number(r)


def _round(this: Any, x: Any = UNDEFINED, *_: Any) -> Num:
    """Math.round ( x ) (21.3.2.28)."""
    return js_round(_n(x))


def _sign(this: Any, x: Any = UNDEFINED, *_: Any) -> Num:
    """Math.sign ( x ) (21.3.2.29)."""
    v = _n(x)
    if v != v or v == 0:
        return normalize_number(v)
    return 1 if v > 0 else -1


def _max(this: Any, *args: Any) -> Num:
    """Math.max ( ...args ) (21.3.2.24): all arguments coerced first; +0 beats -0."""
    values = [_n(a) for a in args]
    result: Num = -_INF
    for v in values:
        if v != v:
            return _NAN
        if v > result or (v == 0 and result == 0 and _neg_zero(result)):
            result = v
    return result


def _min(this: Any, *args: Any) -> Num:
    """Math.min ( ...args ) (21.3.2.25): all arguments coerced first; -0 beats +0."""
    values = [_n(a) for a in args]
    result: Num = _INF
    for v in values:
        if v != v:
            return _NAN
        if v < result or (v == 0 and result == 0 and _neg_zero(v)):
            result = v
    return result


def _pow(this: Any, base: Any = UNDEFINED, exponent: Any = UNDEFINED, *_: Any) -> Num:
    """Math.pow ( base, exponent ) (21.3.2.26)."""
    b = _n(base)
    return js_pow(b, _n(exponent))


def _atan2(this: Any, y: Any = UNDEFINED, x: Any = UNDEFINED, *_: Any) -> Num:
    """Math.atan2 ( y, x ) (21.3.2.8)."""
    ny = _n(y)
    nx = _n(x)
    return normalize_number(_t.atan2(float(ny), float(nx)))


def _hypot(this: Any, *args: Any) -> Num:
    """Math.hypot ( ...args ) (21.3.2.18), with V8's scaled Kahan summation."""
    values = [_n(a) for a in args]
    if not values:
        return 0
    has_nan = any(v != v for v in values)
    absolutes = [0.0 if v != v else abs(float(v)) for v in values]
    top = max(absolutes)
    if top == _INF:
        return _INF
    if has_nan:
        return _NAN
    if top == 0:
        return 0
    total = compensation = 0.0
    for a in absolutes:
        n = a / top
        summand = n * n - compensation
        preliminary = total + summand
        compensation = (preliminary - total) - summand
        total = preliminary
    return normalize_number(math.sqrt(total) * top)


def _imul(this: Any, a: Any = UNDEFINED, b: Any = UNDEFINED, *_: Any) -> int:
    """Math.imul ( x, y ) (21.3.2.19)."""
    x = to_uint32(a)
    y = to_uint32(b)
    r = (x * y) & 0xFFFFFFFF
    return r - 0x100000000 if r >= 0x80000000 else r


def _clz32(this: Any, x: Any = UNDEFINED, *_: Any) -> int:
    """Math.clz32 ( x ) (21.3.2.11)."""
    return 32 - to_uint32(x).bit_length()


def _fround(this: Any, x: Any = UNDEFINED, *_: Any) -> Num:
    """Math.fround ( x ) (21.3.2.17): round to the nearest float32."""
    v = _n(x)
    if v != v:
        return _NAN
    try:
        return normalize_number(struct.unpack("f", struct.pack("f", v))[0])
    except OverflowError:
        return math.copysign(_INF, v)


def _random(this: Any, *_: Any) -> float:
    """Math.random ( ) (21.3.2.27)."""
    return random.random()


_UNARY = {
    "acos": (_t.acos, "Math.acos ( x ) (21.3.2.2)."),
    "acosh": (_h.acosh, "Math.acosh ( x ) (21.3.2.3)."),
    "asin": (_t.asin, "Math.asin ( x ) (21.3.2.4)."),
    "asinh": (_h.asinh, "Math.asinh ( x ) (21.3.2.5)."),
    "atan": (_t.atan, "Math.atan ( x ) (21.3.2.6)."),
    "atanh": (_h.atanh, "Math.atanh ( x ) (21.3.2.7)."),
    "cbrt": (_t.cbrt, "Math.cbrt ( x ) (21.3.2.9)."),
    "cos": (_t.cos, "Math.cos ( x ) (21.3.2.12)."),
    "cosh": (_h.cosh, "Math.cosh ( x ) (21.3.2.13)."),
    "exp": (_f.exp, "Math.exp ( x ) (21.3.2.14)."),
    "expm1": (_f.expm1, "Math.expm1 ( x ) (21.3.2.15)."),
    "log": (_f.log, "Math.log ( x ) (21.3.2.20)."),
    "log1p": (_f.log1p, "Math.log1p ( x ) (21.3.2.21)."),
    "log10": (_f.log10, "Math.log10 ( x ) (21.3.2.22)."),
    "log2": (_f.log2, "Math.log2 ( x ) (21.3.2.23)."),
    "sin": (_t.sin, "Math.sin ( x ) (21.3.2.30)."),
    "sinh": (_h.sinh, "Math.sinh ( x ) (21.3.2.31)."),
    "sqrt": (_sqrt, "Math.sqrt ( x ) (21.3.2.32)."),
    "tan": (_t.tan, "Math.tan ( x ) (21.3.2.33)."),
    "tanh": (_h.tanh, "Math.tanh ( x ) (21.3.2.34)."),
}

_FUNCTIONS: dict[str, tuple[Callable[..., Any], int]] = {
    "abs": (_abs, 1),
    "atan2": (_atan2, 2),
    "ceil": (_ceil, 1),
    "clz32": (_clz32, 1),
    "floor": (_floor, 1),
    "fround": (_fround, 1),
    "hypot": (_hypot, 2),
    "imul": (_imul, 2),
    "max": (_max, 2),
    "min": (_min, 2),
    "pow": (_pow, 2),
    "random": (_random, 0),
    "round": (_round, 1),
    "sign": (_sign, 1),
    "trunc": (_trunc, 1),
}

_CONSTANTS = {
    "E": math.e,
    "LN10": math.log(10),
    "LN2": math.log(2),
    "LOG10E": 0.4342944819032518,
    "LOG2E": 1.4426950408889634,
    "PI": math.pi,
    "SQRT1_2": math.sqrt(0.5),
    "SQRT2": math.sqrt(2),
}


def _build() -> BuiltinNamespace:
    entries: dict[str, Any] = dict(_CONSTANTS)
    for name, (fn, doc) in _UNARY.items():
        entries[name] = _unary(fn, name, doc)
    for name, (impl, length) in _FUNCTIONS.items():
        entries[name] = native(impl, name, length)
    return BuiltinNamespace("Math", dict(sorted(entries.items())))


MATH = _build()
GLOBALS["Math"] = MATH
