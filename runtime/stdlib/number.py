"""Number, its prototype, and the globals parseInt / parseFloat / isNaN / isFinite (21.1, 19.2).

Formatting is exact: toFixed / toExponential / toPrecision work on the exact binary value of
the double (``as_integer_ratio``) with ties rounded up in magnitude, as the spec and V8 do;
``toString(radix)`` reproduces V8's ``DoubleToRadixCString`` digit for digit.

Deviations (documented): ``new Number(x)`` returns the primitive number (there are no
wrapper objects); ``toLocaleString`` ignores its locale/options arguments and always
formats like ``en-US`` (grouping commas, at most 3 fraction digits, half-expand rounding);
of its options only the digit options and ``useGrouping`` are honoured.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..convert import number_to_string as _core_number_to_string
from ..convert import (
    JS_WHITESPACE,
    MAX_SAFE_INTEGER,
    normalize_number,
    to_boolean,
    to_int32,
    to_integer_or_infinity,
    to_string,
)
from ..convert import string_to_number as _core_string_to_number
from ..convert import to_number as _core_to_number
from ..members import get_member
from ..subclasses import plain_value
from ..values import UNDEFINED, range_error, type_error
from .registry import GLOBALS, NUMBER_PROTO, method, native
from .wrappers import NumberObject

__all__ = [
    "to_number",
    "string_to_number",
    "parse_int",
    "parse_float",
    "to_fixed",
    "to_exponential",
    "to_precision",
    "to_radix_string",
    "exact_digits",
    "number_to_string",
]

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_DIGIT_VALUE = {c: i for i, c in enumerate(_DIGITS)}
_DIGIT_VALUE.update({c.upper(): i for i, c in enumerate(_DIGITS) if c.isalpha()})

# StringToNumber (7.1.4.1.1) and ToNumber (7.1.4) are the core's (ASCII digits only).
string_to_number = _core_string_to_number
to_number = _core_to_number


# --- exact decimal rounding -------------------------------------------------------------------

def _ratio(x: int | float) -> tuple[int, int]:
    """|x| as an exact fraction (numerator, power-of-two denominator)."""
    if type(x) is int:
        return abs(x), 1
    return abs(float(x)).as_integer_ratio()


def _div_half_up(num: int, den: int) -> int:
    """round(num / den) with ties away from zero (num, den >= 0)."""
    q, r = divmod(num, den)
    return q + 1 if 2 * r >= den else q


def exact_digits(x: int | float, p: int) -> tuple[str, int]:
    """The ``p`` significant digits n and exponent e with n * 10**(e-p+1) nearest to |x|
    (ties: the larger n), as toExponential/toPrecision require. x must be finite, non-zero."""
    num, den = _ratio(x)
    e = math.floor(math.log10(abs(float(x))))
    # correct the float estimate exactly: 10**e <= num/den < 10**(e+1)
    while (num * 10 ** -e if e < 0 else num) < (den if e < 0 else den * 10**e):
        e -= 1
    while (num * 10 ** -(e + 1) if e + 1 < 0 else num) >= (den if e + 1 < 0 else den * 10 ** (e + 1)):
        e += 1
    scale = e - p + 1
    n = _div_half_up(num * 10**-scale, den) if scale < 0 else _div_half_up(num, den * 10**scale)
    if n == 10**p:
        n //= 10
        e += 1
    return str(n), e


def _shortest_digits(x: int | float) -> tuple[str, int]:
    """Shortest round-trip digits of |x| and the decimal exponent of the first digit."""
    text = repr(float(abs(x)))
    mant, _, exp = text.partition("e")
    int_part, _, frac = mant.partition(".")
    digits = (int_part + frac).lstrip("0")
    e = len(int_part) - 1 + (int(exp) if exp else 0)
    if int_part == "0":
        e -= len(frac) - len(frac.lstrip("0")) + 1
    return digits.rstrip("0") or "0", e


# Number::toString(x, 10) (6.1.6.1.20) is the core's ToString for numbers.
number_to_string = _core_number_to_string


def to_fixed(x: int | float, f: int) -> str:
    """Number::toFixed core (21.1.3.3 steps 6-12) for finite x, 0 <= f <= 100."""
    if abs(x) >= 1e21:
        return number_to_string(x)
    num, den = _ratio(x)
    s = str(_div_half_up(num * 10**f, den))
    if f:
        s = s.rjust(f + 1, "0")
        s = s[:-f] + "." + s[-f:]
    return "-" + s if x < 0 else s


def _exp_form(digits: str, e: int) -> str:
    mant = digits if len(digits) == 1 else digits[0] + "." + digits[1:]
    return f"{mant}e{'+' if e >= 0 else '-'}{abs(e)}"


def to_exponential(x: int | float, f: int | None) -> str:
    """Number::toExponential core (21.1.3.2) for finite x; f None means 'as many as needed'."""
    sign = "-" if x < 0 else ""
    if x == 0:
        return sign + _exp_form("0" * ((f or 0) + 1), 0)
    digits, e = _shortest_digits(x) if f is None else exact_digits(x, f + 1)
    return sign + _exp_form(digits, e)


def to_precision(x: int | float, p: int) -> str:
    """Number::toPrecision core (21.1.3.5) for finite x, 1 <= p <= 100."""
    sign = "-" if x < 0 else ""
    if x == 0:
        digits, e = "0" * p, 0
    else:
        digits, e = exact_digits(x, p)
    if e < -6 or e >= p:
        return sign + _exp_form(digits, e)
    if e == p - 1:
        return sign + digits
    if e >= 0:
        return sign + digits[: e + 1] + "." + digits[e + 1 :]
    return sign + "0." + "0" * (-(e + 1)) + digits


# --- toString(radix): V8's DoubleToRadixCString ---------------------------------------------

def _radix_fraction(fraction: float, delta: float, radix: int) -> tuple[list[str], bool]:
    """Fraction digits of V8's algorithm; returns (digits, carry into the integer part)."""
    out: list[str] = []
    while True:
        fraction *= radix
        delta *= radix
        digit = int(fraction)
        out.append(_DIGITS[digit])
        fraction -= digit
        if fraction > 0.5 or (fraction == 0.5 and (digit & 1)):
            if fraction + delta > 1:
                while True:  # round up, propagating the carry backwards
                    if not out:
                        return out, True
                    d = _DIGIT_VALUE[out.pop()]
                    if d + 1 < radix:
                        out.append(_DIGITS[d + 1])
                        return out, False
        if not fraction >= delta:
            return out, False


def to_radix_string(value: int | float, radix: int) -> str:
    """Number::toString(radix) for finite value, 2 <= radix <= 36, radix != 10."""
    if type(value) is int and abs(value) < 2**53:
        n, s = abs(value), []
        while True:
            n, r = divmod(n, radix)
            s.append(_DIGITS[r])
            if not n:
                break
        return ("-" if value < 0 else "") + "".join(reversed(s))
    x = float(value)
    negative = x < 0
    x = abs(x)
    integer = math.floor(x) * 1.0
    fraction = x - integer
    delta = max(0.5 * (math.nextafter(x, math.inf) - x), 5e-324)
    frac_digits: list[str] = []
    if fraction >= delta:
        frac_digits, carry = _radix_fraction(fraction, delta, radix)
        if carry:
            integer += 1
    int_digits: list[str] = []
    while integer / radix >= 2.0**53:
        integer /= radix
        int_digits.append("0")
    while True:
        remainder = math.fmod(integer, radix)
        int_digits.append(_DIGITS[int(remainder)])
        integer = (integer - remainder) / radix
        if not integer > 0:
            break
    text = "".join(reversed(int_digits))
    if frac_digits:
        text += "." + "".join(frac_digits)
    return "-" + text if negative else text


# --- parseInt / parseFloat -------------------------------------------------------------------

def _generic_radix(digits: str, radix: int) -> float:
    """V8's NumberParseIntHelper generic case: 32-bit parts folded in double arithmetic."""
    result = 0.0
    i, n = 0, len(digits)
    limit = 0xFFFFFFFF // 36
    while i < n:
        part, multiplier = 0, 1
        while i < n:
            m = multiplier * radix
            if m > limit:
                break
            part = part * radix + _DIGIT_VALUE[digits[i]]
            multiplier = m
            i += 1
        result = result * multiplier + part
        if result == math.inf:
            break  # stays infinite
    return result


def _radix_value(digits: str, radix: int) -> int | float:
    if radix == 10:
        return normalize_number(float(digits))
    if radix & (radix - 1) == 0:  # power of two: correctly rounded in V8
        try:
            return normalize_number(float(int(digits, radix)))
        except OverflowError:
            return math.inf
    # V8 skips leading zeros first, which shifts where its 32-bit chunks start
    return normalize_number(_generic_radix(digits.lstrip("0"), radix))


_RADIX_DIGITS: dict[int, re.Pattern[str]] = {}


def _radix_digits(radix: int) -> re.Pattern[str]:
    """The longest prefix of radix-``radix`` digits (ASCII only), as a compiled regex."""
    pattern = _RADIX_DIGITS.get(radix)
    if pattern is None:
        chars = "0-" + str(min(radix, 10) - 1)
        if radix > 10:
            last = chr(ord("a") + radix - 11)
            chars += f"a-{last}A-{last.upper()}"
        pattern = _RADIX_DIGITS[radix] = re.compile(f"[{chars}]+")
    return pattern


def parse_int(string: Any, radix: Any = UNDEFINED) -> int | float:
    """parseInt (19.2.5)."""
    if type(string) is str and string.isdigit() and string.isascii() and len(string) <= 15 and (
            radix is UNDEFINED or (type(radix) is int and radix == 10)):
        return int(string)  # plain decimal digits (a port, a count): every one is read, exact below 2**53
    s = to_string(string).lstrip(JS_WHITESPACE)
    sign = 1
    if s[:1] in ("-", "+"):
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    r = to_int32(radix)
    strip_prefix = True
    if r != 0:
        if r < 2 or r > 36:
            return math.nan
        strip_prefix = r == 16
    else:
        r = 10
    if strip_prefix and s[:2] in ("0x", "0X"):
        s, r = s[2:], 16
    m = _radix_digits(r).match(s)
    if not m:
        return math.nan
    value = _radix_value(m.group(), r)
    if value == 0:
        return -0.0 if sign < 0 else 0
    return -value if sign < 0 else value


_FLOAT_PREFIX = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")


def parse_float(string: Any) -> int | float:
    """parseFloat (19.2.4)."""
    s = to_string(string).lstrip(JS_WHITESPACE)
    m = _FLOAT_PREFIX.match(s)
    if not m:
        return math.nan
    return normalize_number(float(m.group()))


def _parse_int_fn(this: Any, string: Any = UNDEFINED, radix: Any = UNDEFINED, *_: Any) -> int | float:
    """parseInt ( string, radix ) (19.2.5)."""
    return parse_int(string, radix)


def _parse_float_fn(this: Any, string: Any = UNDEFINED, *_: Any) -> int | float:
    """parseFloat ( string ) (19.2.4)."""
    return parse_float(string)


def _is_nan_fn(this: Any, number: Any = UNDEFINED, *_: Any) -> bool:
    """isNaN ( number ) (19.2.3)."""
    n = to_number(number)
    return n != n


def _is_finite_fn(this: Any, number: Any = UNDEFINED, *_: Any) -> bool:
    """isFinite ( number ) (19.2.2)."""
    n = to_number(number)
    return type(n) is int or math.isfinite(n)


PARSE_INT = native(_parse_int_fn, "parseInt", 2)
PARSE_FLOAT = native(_parse_float_fn, "parseFloat", 1)
GLOBALS["parseInt"] = PARSE_INT
GLOBALS["parseFloat"] = PARSE_FLOAT
GLOBALS["isNaN"] = native(_is_nan_fn, "isNaN", 1)
GLOBALS["isFinite"] = native(_is_finite_fn, "isFinite", 1)
GLOBALS["NaN"] = math.nan
GLOBALS["Infinity"] = math.inf


# --- Number constructor and statics ----------------------------------------------------------

def _number_ctor(this: Any, *args: Any) -> int | float:
    """Number ( value ) (21.1.1.1): ToNumeric, 0 without an argument."""
    return to_number(args[0]) if args else 0


def _number_construct(*args: Any) -> NumberObject:
    """``new Number(value)`` (21.1.1.1): a wrapper object."""
    return NumberObject(_number_ctor(UNDEFINED, *args))


def _is_num(x: Any) -> bool:
    return type(x) is int or type(x) is float


def _uncoerced(number: Any) -> Any:
    """The argument of a ``Number.is*`` test, which coerces nothing: a caller's int/float
    subclass is its plain number, anything else as it is."""
    return plain_value(number) if type(number) is not int and type(number) is not float else number


def _is_integer(this: Any, number: Any = UNDEFINED, *_: Any) -> bool:
    """Number.isInteger ( number ) (21.1.2.3)."""
    number = _uncoerced(number)
    return type(number) is int or (type(number) is float and math.isfinite(number) and number.is_integer())


def _is_safe_integer(this: Any, number: Any = UNDEFINED, *_: Any) -> bool:
    """Number.isSafeInteger ( number ) (21.1.2.5)."""
    number = _uncoerced(number)
    return _is_integer(this, number) and abs(number) <= MAX_SAFE_INTEGER


def _number_is_finite(this: Any, number: Any = UNDEFINED, *_: Any) -> bool:
    """Number.isFinite ( number ) (21.1.2.2): no coercion."""
    number = _uncoerced(number)
    return type(number) is int or (type(number) is float and math.isfinite(number))


def _number_is_nan(this: Any, number: Any = UNDEFINED, *_: Any) -> bool:
    """Number.isNaN ( number ) (21.1.2.4): no coercion."""
    number = _uncoerced(number)
    return type(number) is float and number != number


NUMBER_STATICS: dict[str, Any] = {
    "EPSILON": 2.0**-52,
    "MAX_SAFE_INTEGER": MAX_SAFE_INTEGER,
    "MIN_SAFE_INTEGER": -MAX_SAFE_INTEGER,
    "MAX_VALUE": 1.7976931348623157e308,
    "MIN_VALUE": 5e-324,
    "NaN": math.nan,
    "POSITIVE_INFINITY": math.inf,
    "NEGATIVE_INFINITY": -math.inf,
    "isInteger": native(_is_integer, "isInteger", 1),
    "isSafeInteger": native(_is_safe_integer, "isSafeInteger", 1),
    "isFinite": native(_number_is_finite, "isFinite", 1),
    "isNaN": native(_number_is_nan, "isNaN", 1),
    "parseFloat": PARSE_FLOAT,
    "parseInt": PARSE_INT,
}

GLOBALS["Number"] = native(_number_ctor, "Number", 1, construct=_number_construct, props=NUMBER_STATICS)


# --- Number.prototype ------------------------------------------------------------------------

def _this_number(this: Any, name: str) -> int | float:
    """thisNumberValue (21.1.3.7.1)."""
    if type(this) is int or type(this) is float:
        return this
    if type(this) is NumberObject:
        return this.value  # type: ignore[no-any-return]
    raise type_error(f"Number.prototype.{name} requires that 'this' be a Number")


def _finite(x: int | float) -> bool:
    return type(x) is int or math.isfinite(x)


@method(NUMBER_PROTO, "toFixed", 1)
def number_to_fixed(this: Any, fraction_digits: Any = UNDEFINED, *_: Any) -> str:
    """Number.prototype.toFixed ( fractionDigits ) (21.1.3.3)."""
    x = _this_number(this, "toFixed")
    f = to_integer_or_infinity(fraction_digits)
    if not 0 <= f <= 100:
        raise range_error("toFixed() digits argument must be between 0 and 100")
    if not _finite(x):
        return number_to_string(x)
    return to_fixed(x, int(f))


@method(NUMBER_PROTO, "toExponential", 1)
def number_to_exponential(this: Any, fraction_digits: Any = UNDEFINED, *_: Any) -> str:
    """Number.prototype.toExponential ( fractionDigits ) (21.1.3.2)."""
    x = _this_number(this, "toExponential")
    f = to_integer_or_infinity(fraction_digits)
    if not _finite(x):
        return number_to_string(x)
    if not 0 <= f <= 100:
        raise range_error("toExponential() argument must be between 0 and 100")
    return to_exponential(x, None if fraction_digits is UNDEFINED else int(f))


@method(NUMBER_PROTO, "toPrecision", 1)
def number_to_precision(this: Any, precision: Any = UNDEFINED, *_: Any) -> str:
    """Number.prototype.toPrecision ( precision ) (21.1.3.5)."""
    x = _this_number(this, "toPrecision")
    if precision is UNDEFINED:
        return number_to_string(x)
    p = to_integer_or_infinity(precision)
    if not _finite(x):
        return number_to_string(x)
    if not 1 <= p <= 100:
        raise range_error("toPrecision() argument must be between 1 and 100")
    return to_precision(x, int(p))


#: radixes whose digits Python's ``format`` writes as Number::toString does for ints (lower case,
#: a leading '-', no prefix)
_INT_FORMATS = {2: "b", 8: "o", 10: "d", 16: "x"}


@method(NUMBER_PROTO, "toString", 1)
def number_to_string_method(this: Any, radix: Any = UNDEFINED, *_: Any) -> str:
    """Number.prototype.toString ( [ radix ] ) (21.1.3.6)."""
    if type(this) is int and -2**53 < this < 2**53 and type(radix) is int and radix in _INT_FORMATS:
        return format(this, _INT_FORMATS[radix])  # an exact int in a power-of-two or decimal radix
    x = _this_number(this, "toString")
    r = 10 if radix is UNDEFINED else to_integer_or_infinity(radix)
    if not 2 <= r <= 36:
        raise range_error("toString() radix argument must be between 2 and 36")
    if r == 10 or not _finite(x):
        return number_to_string(x)
    if x == 0:
        return "0"
    return to_radix_string(x, int(r))


@method(NUMBER_PROTO, "valueOf", 0)
def number_value_of(this: Any, *_: Any) -> int | float:
    """Number.prototype.valueOf ( ) (21.1.3.7)."""
    return _this_number(this, "valueOf")


def _group(int_digits: str) -> str:
    head = len(int_digits) % 3 or 3
    parts = [int_digits[:head]] + [int_digits[i : i + 3] for i in range(head, len(int_digits), 3)]
    return ",".join(parts)


def locale_format(x: int | float, min_fd: int = 0, max_fd: int = 3, min_int: int = 1, grouping: bool = True) -> str:
    """en-US formatting as ICU does it: the shortest digits rounded half-expand to
    ``max_fd`` fraction digits, trailing zeros kept down to ``min_fd``, grouped."""
    if x != x:
        return "NaN"
    sign = "-" if x < 0 or (x == 0 and math.copysign(1.0, x) < 0) else ""
    if not _finite(x):
        return sign + "\u221e"
    scaled = 0
    if x != 0:
        digits, e = _shortest_digits(x)
        shift = e - len(digits) + 1 + max_fd  # |x| * 10**max_fd = int(digits) * 10**shift
        if shift >= 0:
            scaled = int(digits) * 10**shift
        else:
            scaled = _div_half_up(int(digits), 10**-shift)
    text = str(scaled).rjust(max_fd + 1, "0")
    int_part, frac = (text[:-max_fd], text[-max_fd:]) if max_fd else (text, "")
    frac = frac.rstrip("0").ljust(min_fd, "0")
    int_part = int_part.rjust(min_int, "0")
    return sign + (_group(int_part) if grouping else int_part) + ("." + frac if frac else "")


def _digit_option(options: Any, name: str, low: int, high: int) -> int | None:
    """GetNumberOption (ECMA-402 9.2.12): undefined, or an integer in [low, high]."""
    value = get_member(options, name)
    if value is UNDEFINED:
        return None
    n = to_number(value)
    if n != n or not low <= n <= high:
        raise range_error(f"{name} value is out of range.")
    return int(math.floor(n))


def _locale_options(options: Any) -> tuple[int, int, int, bool]:
    """The digit and grouping options of Intl.NumberFormat that en-US output depends on."""
    if options is UNDEFINED:
        return 0, 3, 1, True
    if options is None:
        raise type_error("Cannot convert undefined or null to object")
    min_int = _digit_option(options, "minimumIntegerDigits", 1, 21) or 1
    min_fd = _digit_option(options, "minimumFractionDigits", 0, 20)
    max_fd = _digit_option(options, "maximumFractionDigits", 0, 20)
    if min_fd is None:
        min_fd = 0 if max_fd is None else min(0, max_fd)
    if max_fd is None:
        max_fd = max(3, min_fd)
    elif min_fd > max_fd:
        raise range_error("maximumFractionDigits value is out of range.")
    grouping = get_member(options, "useGrouping")
    return min_fd, max_fd, min_int, grouping is UNDEFINED or to_boolean(grouping)


@method(NUMBER_PROTO, "toLocaleString", 0)
def number_to_locale_string(this: Any, locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> str:
    """Number.prototype.toLocaleString ( [ locales [ , options ] ] ) (21.1.3.4, ECMA-402 16.4.1):
    always en-US; the digit options (minimum/maximumFractionDigits, minimumIntegerDigits)
    and useGrouping are honoured, other options ignored (documented)."""
    x = _this_number(this, "toLocaleString")
    from .string import requested_locales  # late: string.py imports this module's formatting
    requested_locales(locales)  # malformed tags throw as in V8: (1).toLocaleString('$1') is a RangeError
    return locale_format(x, *_locale_options(options))
