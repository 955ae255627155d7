"""Rows of the direct-call tables for Number, Math, JSON, Date and Boolean.

Each row is ``(group, target, this, args)``:
- target ``"proto:Number.toFixed"`` calls ``Number.prototype.toFixed`` with ``this``;
- ``"static:Math.max"`` calls a property of a global (``JSON.parse``, ``Date.UTC``...);
- ``"call:parseInt"`` calls a global function; ``"new:Date"`` constructs.
Values use the oracle's tags (``{"$number": "NaN"}``, ``{"$undefined": true}``) plus
``{"$date": tv}`` for a Date and ``{"$fn": name}`` for a function from ``FUNCTIONS``.
``gen_numeric_direct.py`` asks node for every row and stores the answers in
``cases/numeric_direct.json``; the tests only read that file.
"""

from __future__ import annotations

import random
import struct
from typing import Any

NAN = {"$number": "NaN"}
INF = {"$number": "Infinity"}
NINF = {"$number": "-Infinity"}
NEG0 = {"$number": "-0"}
U = {"$undefined": True}

# name -> JS source (the Python twin lives in numeric_direct.py)
FUNCTIONS = {
    "double_numbers": "(k, v) => typeof v === 'number' ? v * 2 : v",
    "drop_a": "(k, v) => k === 'a' ? undefined : v",
    "key_echo": "function (k, v) { return k === '' ? v : k + ':' + typeof v }",
    "drop_numbers": "(k, v) => k !== '' && typeof v === 'number' ? undefined : v",
    "inc_numbers": "(k, v) => typeof v === 'number' ? v + 1 : v",
    "to_undefined": "() => undefined",
}

Row = tuple[str, str, Any, list[Any]]
ROWS: list[Row] = []


def add(group: str, target: str, *args: Any) -> None:
    """A row; for ``proto:`` targets the first argument is ``this``."""
    if target.startswith("proto:"):
        ROWS.append((group, target, args[0], list(args[1:])))
    else:
        ROWS.append((group, target, None, list(args)))


def _random_doubles(seed: int, n: int) -> list[float]:
    rnd = random.Random(seed)
    out: list[float] = []
    while len(out) < n:
        k = rnd.random()
        if k < 0.35:
            x = rnd.uniform(-1000, 1000)
        elif k < 0.55:
            x = round(rnd.uniform(-100, 100), rnd.randint(0, 6))
        elif k < 0.75:
            x = rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-20, 25)
        else:
            x = struct.unpack("d", struct.pack("Q", rnd.getrandbits(64)))[0]
        if x == x and x not in (float("inf"), float("-inf")):
            out.append(x)
    return out


def _num(x: float) -> Any:
    if x != x:
        return NAN
    if x == float("inf"):
        return INF
    if x == float("-inf"):
        return NINF
    if x == 0 and str(x).startswith("-"):
        return NEG0
    return x


# --- Number.prototype formatting --------------------------------------------------------------

for x, f in [(8.345, 2), (1.005, 2), (1.45, 1), (1e21, 2), (-1.5, 0), (0.5, 0), (2.5, 0), (-2.5, 0), (1.55, 1),
             (123.456, 10), (-1e-7, 2), (NEG0, 2), (0, 0), (1.25, 1), (1.35, 1), (0.000001, 7), (1e20, 3),
             (999.995, 2), (-0.5, 0), (123.456, U), (42, "2"), (1.1, 100), (5e-324, 100), (1.7976931348623157e308, 2),
             (NAN, 2), (INF, 1), (1, 101), (1, -1), (NAN, 101), (1, INF), (1, 1.9), (0.1, 20), (-1e21, 1)]:
    add("number", "proto:Number.toFixed", x, f)
for x, f in [(123.456, U), (0, 2), (25, 0), (12345, 2), (1.5e-10, 3), (NEG0, U), (-1.5, 1), (1e21, U), (5e-324, U),
             (5e-324, 3), (1.7976931348623157e308, 20), (0.000123, 1), (1.45, 1), (9.995, 2), (NAN, 101), (INF, U),
             (1, 101), (1, -1), (123, 100), (-0.0001, U)]:
    add("number", "proto:Number.toExponential", x, f)
for x, p in [(0, 1), (NEG0, 3), (123.456, 2), (0.000001234, 2), (0.0000001234, 2), (1e21, 3), (1e21, 22), (-1.5e300, 4),
             (123, 100), (123.456, U), (1.45, 2), (99.99, 3), (999999, 3), (1e-7, 1), (NAN, 0), (1, 0), (1, 101),
             (INF, 200), (5e-324, 5), (0.00001, 1), (123456, 6), (123456, 5), (-0.000001, 2)]:
    add("number", "proto:Number.toPrecision", x, p)
for x, r in [(3.75, 2), (0.1, 3), (255.5, 16), (-255.5, 2), (1e21, 36), (3.141592653589793, 7), (2.0**60, 3), (1e300, 5),
             (255, 16), (-255, 36), (NEG0, 2), (NAN, 2), (INF, 16), (0.5, 2), (1e-7, 2), (123.456, 36), (4294967296.5, 16),
             (2**53, 2), (-(2**53) - 2.0, 7), (5e-324, 36), (1, 37), (1, 1), (1, U), (10, "16"), (1.5, 10), (1e21, 10)]:
    add("number", "proto:Number.toString", x, r)
for x in [1234567.891, 1.0005, NEG0, 1e21, NAN, INF, NINF, 0.0001, 1.2345e-7, 12345.6789, 2.0005, -0.0001, -1234.5,
          1.2345e25, 0.0005, 999.9995, 5e-324, 0, 100, -7]:
    add("number", "proto:Number.toLocaleString", x)
for x in [1, -1.5, NAN, NEG0]:
    add("number", "proto:Number.valueOf", x)
for name in ("toFixed", "toString", "valueOf", "toPrecision", "toExponential", "toLocaleString"):
    add("number", f"proto:Number.{name}", "1")
for x in _random_doubles(7, 60):
    add("number_random", "proto:Number.toFixed", x, 2)
    add("number_random", "proto:Number.toPrecision", x, 7)
    add("number_random", "proto:Number.toExponential", x, 4)
    add("number_random", "proto:Number.toString", x, 3)
    add("number_random", "proto:Number.toString", x, 16)

# --- Number statics, globals ------------------------------------------------------------------

for s in ["  12px", "0b101", "\u00a012", "0x1f", "-0x1f", "0x", "-0", "+7", "", "  ", "12e3", "1e21", "Infinity",
          "\u0661", "0" * 400 + "5", "1" * 400, "9007199254740993", "123456789012345678901234567890", "\ufeff5",
          "\u180e5", "- 5", "08", "0.0000005", 1e21, 0.0000005, -0.0, NAN, None, True]:
    add("number_parse", "call:parseInt", s)
for s, r in [("123", 37), ("123", 1), ("11", 2), ("zz", 36), ("ZZ", 36), ("zzzzzzzzzzzzzzzzzzz", 36),
             ("123456789012345678901234567890", 7), ("0x1f", 16), ("0x1f", 10), ("1f", "16"), ("11", 4294967298),
             ("11", -4294967294), ("777", 8), ("1" * 80, 2), ("7" * 40, 8), ("f" * 30, 16), ("v" * 20, 32), ("10", 0),
             ("10", NAN), ("10", 2.9), ("3", 3), ("015bdc1g352CHaD47DG27H62F441hCF87A7A89", 18),
             ("0gh7DBH92H6egfb9dI51F936Ia4bEdC4h799d2", 19), ("0xcvfFa4du9DwjBnv5TgIHJq4w1", 34),
             ("000zzzzzzzzzzzzzzzzzzzzzzzzz", 36)]:
    add("number_parse", "call:parseInt", s, r)
for s in ["-.5e-3x", "e5", "1.e5", ".e5", "-.e5", "Infinityx", "-Infinity", "infinity", "1e1000", "-0", "0x10",
          "\u20281.5", "  3.14abc", "1e", "1e+", "+.5", "..5", "5.", "\u0661", "1_000", "", 1e21, None]:
    add("number_parse", "call:parseFloat", s)
for s in ["0o17", "Infinity", "-Infinity", "+Infinity", " 12 ", "12px", "", " ", "0x1F", "-0x1F", "0b2", "1e3",
          ".5", "5.", "\u0661", "\uff11", "1_0", None, True, U, [5], [1, 2], [], "-0", "\n\t42\u2028"]:
    add("number_parse", "call:Number", s)
add("number_parse", "call:Number")
for s in ["abc", "12", "", U, None, NAN, "0x10", [1], [1, 2], "Infinity"]:
    add("number_parse", "call:isNaN", s)
    add("number_parse", "call:isFinite", s)
for x in [5, 5.5, NAN, INF, "5", 2**53, 2.0**53 + 2, -(2**53) + 1, NEG0, 1e300, True, None]:
    for name in ("isInteger", "isSafeInteger", "isFinite", "isNaN"):
        add("number_parse", f"static:Number.{name}", x)

# --- Boolean ----------------------------------------------------------------------------------

for v in ["", "x", 0, NEG0, NAN, 1, None, U, [], {}, "false"]:
    add("boolean", "call:Boolean", v)
add("boolean", "call:Boolean")
for v in [True, False, 1, "true"]:
    add("boolean", "proto:Boolean.toString", v)
    add("boolean", "proto:Boolean.valueOf", v)

# --- Math -------------------------------------------------------------------------------------

_SPECIAL = [0, NEG0, 1, -1, 0.5, -0.5, 2, 10, INF, NINF, NAN, 1e308, 5e-324, 3, 1e-10, 0.1, 7, -3, 2.5, -2.5, 1024,
            0.49999999999999994, -0.49999999999999994, 4503599627370495.5, -4503599627370495.5, 9007199254740991,
            "7.5", [], [2], "x", None, True, U]
MATH_UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "clz32", "cos", "cosh", "exp",
              "expm1", "floor", "fround", "log", "log1p", "log10", "log2", "round", "sign", "sin", "sinh", "sqrt",
              "tan", "tanh", "trunc"]
for name in MATH_UNARY:
    for x in _SPECIAL:
        add("math", f"static:Math.{name}", x)
    for x in _random_doubles(sum(map(ord, name)) + 11, 30):
        add("math_random", f"static:Math.{name}", x)
    for x in [i / 4 for i in range(-16, 17)]:
        add("math_random", f"static:Math.{name}", x)
_PAIRS = [(1, INF), (-1, NINF), (1, NAN), (NAN, 0), (0, -1), (NEG0, -1), (NEG0, -2), (NEG0, 3), (-8, 1 / 3), (-2, 1025),
          (-2, 1024), (2, 0.5), (65535, 3), (10, -5), (10, 21), (10, 308), (10, 309), (2, -1074), (2, -1075), (3, 40),
          (-3, 39), (7, 19), (1.1, 100), (0.5, INF), (2, NINF), (NINF, 3), (NINF, -3), (NINF, 2), (INF, -1), (2, 53),
          (10, -1), (10, -2), (10, -3), (10, 0.5), (2.5, 2.5), (4, 0.5), (0.1, 3), (1e10, 31), (-0.5, 1e300)]
for a, b in _PAIRS:
    add("math", "static:Math.pow", a, b)
for a, b in [(0, 0), (NEG0, NEG0), (0, NEG0), (NEG0, 1), (NEG0, -1), (1, 0), (-1, 0), (INF, INF), (INF, NINF),
             (NINF, INF), (NAN, 1), (1, 1), (-1, -1), (1, -1e300), (3, 4)]:
    add("math", "static:Math.atan2", a, b)
for args in [(), (3, 4), (NAN, INF), (NAN, 1), (NEG0,), (1e200, 1e200), (0.1, 0.2, 0.3), (3, 4, 5), (-3,),
             (1, 1, 1, 1, 1, 1, 1, 1, 1, 1), (5e-324, 5e-324), ("3", [4])]:
    add("math", "static:Math.hypot", *args)
for args in [(), (NEG0, 0), (0, NEG0), (1, NAN, 3), ("3", 2), (1, 2, 3), (NINF,), (INF, 1), ([], NEG0), (U,)]:
    add("math", "static:Math.max", *args)
    add("math", "static:Math.min", *args)
for a, b in [(3, 4), (0xFFFFFFFF, 5), (2**31, 2), (-5, 12), (1e10, 1e10), (NAN, 1), (2.9, 3.9), (-(2**31), -1)]:
    add("math", "static:Math.imul", a, b)
for a, b in [(x, y) for x in _random_doubles(99, 40) for y in [2, 0.5, 3, -1.5]] + \
        [(x, y) for x, y in zip(_random_doubles(5, 60), _random_doubles(6, 60))]:
    add("math_random", "static:Math.pow", a, b)
    add("math_random", "static:Math.atan2", a, b)
for i in range(-12, 13):
    add("math_random", "static:Math.pow", 10, i)
    add("math_random", "static:Math.pow", 2, i / 2)

# --- JSON -------------------------------------------------------------------------------------

_BAD_JSON = ["{'a': 1}", "undefined", "", '{"a":1,}', "[1,]", "[1 2]", '{"a" 1}', '{"a":1 "b"}', '"abc', '"a\\x"',
             '"a\u0001"', "1e", "-", "1.", "01", "1 2", "tru", "truex", "NaN", "{", "[", '{"a":', '"\\u12"',
             "abcdefghijklmnopqrstuvwxyz0123456789", "[1, abcdefghijklmnopqrstuvwxyz0123456789]", "\u00e9", "[-x]",
             '{"a":1}}', " ", "[1,2", "[1,2,", '"\\x"', '"\\u1"', '"\\uxyz1"', '"\\u12', '"\\', "1e+", "1e+x", "-01",
             "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,x]", "[1,2,3,4,5,6,7,8,9,x]", "tr1e", "[nulx]", '{"a":1,"b":}',
             '{"a":1,"b"', '{"a":1,"b":2', '{"a":1,"b":2,', "{,}", '{"a",}', "[,]", '"a"x', '"a""b"', "Infinity",
             "[object Object]", "-Infinity", "\ufeff1", "\u00a01", "\U0001F600", '"\U0001F600" x', '{"a":1,"b" 1}',
             '{"a":1,"b" "c"}', '[{"b" 1}]', '"\t"', "+1", ".5", "0x10", "[1,2,3,4,5,6,7,8,9,10,11,12,x,14,15,16,17,18,19]",
             '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}x', '"\\\u00e9"', '"\\\u0101"', '"abc\\\u20ac defghijklmnopqrstuvwxyz"',
             '"\\\U0001F600"', '["a\\\u20ac"]']
for s in _BAD_JSON:
    add("json_parse", "static:JSON.parse", s)
for s in ["null", "true", " false ", "\t\r\n 1", "-0", "-0.0", "0.0", "1.0", "1E2", "1e-2", "12345678901234567890",
          "1e400", "-1e400", "123456789012345678901234567890e-10", '"\\u00e9\\ud800"', '"\\ud83d\\ude00"',
          '"\\ud83d\U0001F600"', '"\u007f"', '"\\/\\b\\f\\n\\r\\t\\"\\\\"', '{"__proto__": 1, "b":1,"a":2,"b":3, "1": 4}',
          '{"2": 1, "1": 2, "x": 3, "-1": 4, "01": 5}', '[1, [2, [3, {"a": []}]]]', '{"":""}', '"\\uD834\\uDD1E"',
          "[" * 50 + "]" * 50, '{"a":{"b":{"c":null}}}', '"' + "x" * 300 + '"']:
    add("json_parse", "static:JSON.parse", s)
for v in [None, True, 12, NAN, [1], {"a": 1}]:
    add("json_parse", "static:JSON.parse", v)
_DOC = '{"replicas":3,"debug":false,"tags":["a","b"],"nested":{"a":1,"b":[1,2]}}'
for fn in ("double_numbers", "drop_a", "key_echo", "drop_numbers", "inc_numbers", "to_undefined"):
    add("json_parse", "static:JSON.parse", _DOC, {"$fn": fn})
_DATA = {"b": 2, "a": 1, "list": [1, "two", None, True], "nested": {"x": {"y": [{}]}, "z": None}, "2": "two", "1": []}
for space in [U, 2, 20, 3.9, -1, 0, "", "--------------xx", "\t", True, None, "abc"]:
    add("json_stringify", "static:JSON.stringify", _DATA, None, space)
for v in [U, None, True, "x", NAN, INF, NEG0, 1e21, 1e-7, 0.1, 123, 5e-324, [U, None], {"u": U, "n": NAN},
          "\ud800\U00010000\udc00\ud800 \u0000\u001f\u007f\u2028\u2029\"\\/\b\f\n\r\t", {"\n": 1, "\u00e9": 2},
          {"$date": 0}, {"$date": NAN}, [[]], {"a": []}, {"a": {}}, [{"$fn": "to_undefined"}], {"f": {"$fn": "drop_a"}}]:
    add("json_stringify", "static:JSON.stringify", v)
for fn in ("double_numbers", "drop_a", "key_echo", "drop_numbers", "to_undefined"):
    add("json_stringify", "static:JSON.stringify", _DATA, {"$fn": fn})
    add("json_stringify", "static:JSON.stringify", _DATA, {"$fn": fn}, 1)
for keys in [["b", 1, "b", {}, 0], [], ["a", "nested", "x"], [2, "list"], ["zz"]]:
    add("json_stringify", "static:JSON.stringify", {"1": 1, "a": 2, "0": 3, "b": 4, "nested": {"x": 1, "a": 2},
                                                    "2": [{"a": 1, "b": 2}], "list": [1]}, keys)
    add("json_stringify", "static:JSON.stringify", {"1": 1, "a": 2}, keys, 2)

# --- Date -------------------------------------------------------------------------------------

_DATE_STRINGS = [
    "1/2", "Jan 5", "2024-01-01 10:00", "2024-01-01", "2024-01-01T10:00", "2024-01-01T10:00:00.123456Z",
    "2024-01-01T24:00:00Z", "2024-01-01T10:00:00+05:30", "2024-01-01T10:00:00+0530",
    "Tue Mar 05 2024 10:00:00 GMT+0000 (Coordinated Universal Time)", "Tue, 05 Mar 2024 10:00:00 GMT",
    "March 5, 2024", "5 March 2024 10:00 PM", "2024/03/05", "03/05/2024 10:00:00", "+002024-03-05T00:00:00Z",
    "-000000-03-05T00:00:00Z", "2024-13-05", "2024-02-30", "2024-02-30T00:00:00Z", "foo", "2024", "2024-03",
    "  2024-03-05  ", "2024-03-05T10:00:00z", "2024-03-05t10:00:00Z", "12:00", "Mar 5 2024 12:00 EST",
    "2024-03-05T10:00:00.Z", "2024-01-01T10:00:00.1234567891Z", "Mar 5 2024 12:00 -0800", "2024-03-05 10:00 +01:00",
    "2024-03-05T10:00:00 GMT", "Mar 5 2024 (comment) 10:00", "Tuesday, March 5, 2024", "20240305", "2024-3-5",
    "1970-01-01T00:00:00.000+00:00", "Thu, 01 Jan 1970 00:00:00 GMT+0100", "5", "", " ", "2024-03-05T10:00:00.000-08:00",
    "2024-03-05T25:00", "2024-03-05T24:01", "2024-03-05T10:60", "1 Jan 2000 24:00", "12/31/1999 11:59:59 PM",
    "12/31/1999 12:00 AM", "2000-01-01T00:00:00.5Z", "Sat Jan 01 2000", "January 1 2000 UTC", "2000-01-01T00:00:00+24:00",
    "Jan 1 2000 GMT+5", "2000 Jan 1", "1 2000 Jan", "Jan 2000", "275760-09-13", "+275760-09-13T00:00:00.000Z",
    "+275760-09-13T00:00:00.001Z", "-271821-04-20T00:00:00Z", "-271821-04-19T23:59:59.999Z", "2019-02-29T10:00:00+00:00x",
    "99-1-1", "49/1/1", "1/1/49", "1/1/50", "Jul 4 76", "2000-01-01T00:00Z", "2000-01-01T00Z", "2000-01-01T",
    "T10:00", "Mon Jan 1 2001 pm 3:00", "3pm Jan 1 2001", "Jan 1 2001 3:00pm", "Jan 1 2001 13:00 pm",
    "Jan 1, 2001, 10:00:00 AM", "2024-06-15T08:30:00.000Z", "Fri, 31 Dec 1999 23:59:59 GMT", "2024-01-01T00:00:00.000+14:00",
    # found by fuzzing against node: keyword/number interplay, '.' consumption, 32-bit offsets
    "2024Jan)", "10:00:00.123UT Tmar 2024/03/05", " 50.-08:0012", "32mar  PDT  ", "59 EST. x",
    "1234/Z+0020241234510:00", "-08:00+002024123456:12345Sept", ")10:00:00.123EST+05303224:00123",
    "10:00+05302024:320", "1Z/+05123456:", "10:00:00+27576024:00,5", "February9924UT+27576010:00:00am",
]
for s in _DATE_STRINGS:
    add("date", "static:Date.parse", s)
    add("date", "new:Date", s)
for args in [(), (2024,), (99, 0), (2024, 1, 29, 12, 30, 45, 678), (2024, 0, 31, 25), (2020, 1e9), (2020, -1),
             (2020, -13, -400), (0, 0), (-0.5, 0), (99.9, 0), (1e15, 0), (NAN, 0), (2024, NAN), (2024, 0, 1, 0, 0, 0, 0.9),
             (275760, 8, 13), (275760, 8, 13, 0, 0, 0, 1), ("2024", "1")]:
    add("date", "static:Date.UTC", *args)
    if args:
        add("date", "new:Date", *args)
for v in [0, 1.9, -1.9, 8.64e15, 8.64e15 + 1, -8.64e15, NAN, True, None, U, "5", 1e81, {"$date": 5}, [2024]]:
    add("date", "new:Date", v)
_TVS = [0, 1709632800000, -1, -62198755200000, 253402300800000, -8.64e15, 8.64e15, 951782400000, 1e12 + 123,
        -30610224000001, -62135596800000, -62198755200001, 4102444800000]
_METHODS = ["getTime", "valueOf", "getFullYear", "getMonth", "getDate", "getDay", "getHours", "getMinutes",
            "getSeconds", "getMilliseconds", "getUTCFullYear", "getUTCMonth", "getUTCDate", "getUTCDay", "getUTCHours",
            "getUTCMinutes", "getUTCSeconds", "getUTCMilliseconds", "getTimezoneOffset", "getYear", "toISOString",
            "toJSON", "toString", "toDateString", "toTimeString", "toUTCString", "toGMTString", "toLocaleString",
            "toLocaleDateString", "toLocaleTimeString"]
for tv in _TVS + [NAN]:
    for m in _METHODS:
        add("date", f"proto:Date.{m}", {"$date": tv})
_SETTERS = [("setMilliseconds", (5,)), ("setSeconds", (-1,)), ("setSeconds", (30, 500)), ("setMinutes", (5, 6, 7)),
            ("setHours", (25,)), ("setHours", (NAN,)), ("setHours", (1, 2, 3, 4)), ("setDate", (0,)), ("setDate", (31,)),
            ("setMonth", (13,)), ("setMonth", (1, 30)), ("setMonth", ()), ("setFullYear", (2020,)),
            ("setFullYear", (2020, 1, 29)), ("setTime", ("12",)), ("setTime", (8.64e15 + 1,)), ("setUTCDate", (0,)),
            ("setUTCHours", (48,)), ("setUTCFullYear", (-1,)), ("setUTCMonth", (-1,)), ("setFullYear", (1e9,)),
            ("setYear", (99,)), ("setYear", (2001,)), ("setYear", (NAN,))]
for tv in [0, 1709632800000, NAN]:
    for m, args in _SETTERS:
        add("date", f"proto:Date.{m}", {"$date": tv}, *args)
for m in _METHODS + ["setHours", "setTime", "setYear"]:
    add("date", f"proto:Date.{m}", {})
for m in ["getTime", "toISOString", "setHours", "toString", "valueOf", "getYear", "toJSON"]:
    for this in [1, "ab", [1, 2], None, U]:
        add("date", f"proto:Date.{m}", this)

# integral doubles above 2**53 print their shortest digits padded with zeros
for x in [2.0**60, 2.0**63, -(2.0**57), 1e20 + 65536, 123456789012345680000.0, 2.0**53 + 2, 4.35e20]:
    add("number", "proto:Number.toString", x)
    add("number", "proto:Number.toString", x, 10)
    add("json_stringify", "static:JSON.stringify", [x])
