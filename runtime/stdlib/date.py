"""Date (21.4): ``JSDate`` objects, the constructor, its statics and Date.prototype.

The local time zone is UTC (documented): ``getHours`` equals ``getUTCHours``,
``getTimezoneOffset()`` is 0 and ``toString`` prints ``GMT+0000 (Coordinated Universal
Time)``, as node does under ``TZ=UTC``. ``Date.now()`` and ``new Date()`` read the real clock.
``toLocale*String`` ignore their arguments and format like ``en-US``.
"""

from __future__ import annotations

import math
import time as _time
from typing import Any, Callable

from ..convert import to_primitive, to_string
from ..members import get_member, get_prototype
from ..values import MISSING, UNDEFINED, JSFunction, JSSymbol, range_error, type_error
from ..well_known import SYMBOL_TO_PRIMITIVE
from .date_parse import MS_PER_DAY, make_date, make_day, make_time, parse_date, time_clip
from .number import to_number
from .registry import GLOBALS, native

__all__ = ["JSDate", "DATE_PROTO", "now_ms"]

DATE_PROTO: dict[str, JSFunction] = {}
_DAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class JSDate:
    """A Date object: its [[DateValue]] (``tv``, ms since the epoch or NaN) and own props."""

    JS_CLASS = "Date"
    JS_PROTO = DATE_PROTO
    __slots__ = ("tv", "props")

    def __init__(self, tv: float) -> None:
        self.tv = tv
        self.props: dict[str, Any] = {}

    def js_get_own(self, key: Any) -> Any:
        return self.props.get(key, MISSING)

    def js_set_own(self, key: Any, value: Any) -> bool:
        self.props[key] = value
        return True

    def js_own_keys(self) -> list[str]:
        return [k for k in self.props if type(k) is str]

    def __repr__(self) -> str:
        return f"Date({_iso(self.tv) if self.tv == self.tv else 'Invalid Date'})"


def now_ms() -> float:
    """The real clock in whole milliseconds."""
    return float(_time.time_ns() // 1_000_000)


# --- decomposing a time value (21.4.1.3-14) ---------------------------------------------------

def civil(tv: float) -> tuple[int, int, int, int, int, int, int, int]:
    """(year, month0, day, hours, minutes, seconds, ms, weekday) of a finite time value."""
    t = int(tv)
    days, ms_in_day = divmod(t, MS_PER_DAY)
    z = days + 719468  # Howard Hinnant's civil_from_days
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    secs, ms = divmod(ms_in_day, 1000)
    mins, sec = divmod(secs, 60)
    hour, minute = divmod(mins, 60)
    return year, month - 1, day, hour, minute, sec, ms, (days + 4) % 7


def _year_text(y: int) -> str:
    return f"{y:04d}" if y >= 0 else f"-{-y:04d}"


def _iso(tv: float) -> str:
    y, mo, d, h, mi, s, ms, _ = civil(tv)
    year = f"{y:04d}" if 0 <= y <= 9999 else (f"+{y:06d}" if y > 0 else f"-{-y:06d}")
    return f"{year}-{mo + 1:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{ms:03d}Z"


def _date_text(tv: float) -> str:
    y, mo, d, _, _, _, _, wd = civil(tv)
    return f"{_DAYS[wd]} {_MONTHS[mo]} {d:02d} {_year_text(y)}"


def _time_text(tv: float) -> str:
    _, _, _, h, mi, s, _, _ = civil(tv)
    return f"{h:02d}:{mi:02d}:{s:02d} GMT+0000 (Coordinated Universal Time)"


def date_to_string(tv: float) -> str:
    """ToDateString (21.4.4.41.4)."""
    if tv != tv:
        return "Invalid Date"
    return f"{_date_text(tv)} {_time_text(tv)}"


def _utc_text(tv: float) -> str:
    y, mo, d, h, mi, s, _, wd = civil(tv)
    return f"{_DAYS[wd]}, {d:02d} {_MONTHS[mo]} {_year_text(y)} {h:02d}:{mi:02d}:{s:02d} GMT"


def _locale_date(tv: float) -> str:
    y, mo, d, _, _, _, _, _ = civil(tv)
    return f"{mo + 1}/{d}/{y if y > 0 else 1 - y}"


def _locale_time(tv: float) -> str:
    _, _, _, h, mi, s, _, _ = civil(tv)
    return f"{h % 12 or 12}:{mi:02d}:{s:02d} {'AM' if h < 12 else 'PM'}"


# --- the constructor (21.4.2) -----------------------------------------------------------------

def _from_components(args: tuple[Any, ...]) -> float:
    """The time value for ``new Date(y, m, d, h, mi, s, ms)`` / Date.UTC (21.4.2.1 step 5)."""
    nums = [to_number(a) for a in args[:7]]
    defaults = [math.nan, 0, 1, 0, 0, 0, 0]
    y, m, dt, h, mi, s, ms = [float(v) for v in nums] + [float(v) for v in defaults[len(nums):]]
    if y == y:
        yi = math.trunc(y) if math.isfinite(y) else y
        if 0 <= yi <= 99:
            y = 1900.0 + yi
    return time_clip(make_date(make_day(y, m, dt), make_time(h, mi, s, ms)))


def _from_value(value: Any) -> float:
    if type(value) is JSDate:
        return value.tv
    v = to_primitive(value)
    if type(v) is str:
        return parse_date(v)
    return time_clip(float(to_number(v)))


def _date_call(this: Any, *_: Any) -> str:
    """Date ( ...values ) called as a function (21.4.2.1 step 1): the current time as text."""
    return date_to_string(now_ms())


def _date_construct(*args: Any) -> JSDate:
    """``new Date(...)`` (21.4.2.1)."""
    if not args:
        return JSDate(now_ms())
    if len(args) == 1:
        return JSDate(_from_value(args[0]))
    return JSDate(_from_components(args))


def _date_now(this: Any, *_: Any) -> int:
    """Date.now ( ) (21.4.3.1)."""
    return int(now_ms())


def _date_parse(this: Any, string: Any = UNDEFINED, *_: Any) -> Any:
    """Date.parse ( string ) (21.4.3.2)."""
    return _num(parse_date(to_string(string)))


def _date_utc(this: Any, *args: Any) -> Any:
    """Date.UTC ( year [ , month [ , date [ , hours [ , minutes [ , seconds [ , ms ] ] ] ] ] ] ) (21.4.3.4)."""
    if not args:
        return math.nan
    return _num(_from_components(args))


def _num(tv: float) -> Any:
    return int(tv) if tv == tv else tv


# --- prototype: helpers -----------------------------------------------------------------------

def _this_date(this: Any, name: str) -> JSDate:
    """thisTimeValue (21.4.4): TypeError unless ``this`` is a Date, with V8's message."""
    if type(this) is JSDate:
        return this
    if (name.startswith("get") and name != "getYear") or name == "valueOf":
        raise type_error("this is not a Date object.")
    raise type_error(f"Method Date.prototype.{name} called on incompatible receiver {_receiver_text(this)}")


def _receiver_text(v: Any) -> str:
    """How V8 prints a bad receiver: primitives as text, objects as ``#<Ctor>``."""
    if type(v) is list:
        return "[object Array]"
    if isinstance(v, dict):
        return f"#<{getattr(v, 'error_name', 'Object')}>"
    if type(v) is JSFunction:
        return f"function {v.name}() {{ [native code] }}"
    if type(v) in (str, int, float, bool) or v is None or v is UNDEFINED:
        return to_string(v)
    return f"#<{getattr(v, 'tag', 'Object')}>"  # no ToString of an object: it may be Date.prototype itself


def _proto(name: str, length: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        DATE_PROTO[name] = native(fn, name, length)
        return fn

    return register


_FIELDS = {"FullYear": 0, "Month": 1, "Date": 2, "Hours": 3, "Minutes": 4, "Seconds": 5, "Milliseconds": 6, "Day": 7}


def _make_getter(method_name: str, index: int) -> Callable[..., Any]:
    def getter(this: Any, *_: Any) -> Any:
        tv = _this_date(this, method_name).tv
        return tv if tv != tv else civil(tv)[index]

    getter.__doc__ = f"Date.prototype.{method_name} ( ) (21.4.4); local time is UTC."
    getter.__name__ = method_name
    return getter


def _register_getters() -> None:
    for field, index in _FIELDS.items():
        for prefix in ("get", "getUTC"):
            name = prefix + field
            DATE_PROTO[name] = native(_make_getter(name, index), name, 0)


_register_getters()


@_proto("getTime", 0)
def date_get_time(this: Any, *_: Any) -> Any:
    """Date.prototype.getTime ( ) (21.4.4.10)."""
    return _num(_this_date(this, "getTime").tv)


@_proto("valueOf", 0)
def date_value_of(this: Any, *_: Any) -> Any:
    """Date.prototype.valueOf ( ) (21.4.4.44)."""
    return _num(_this_date(this, "valueOf").tv)


@_proto("getYear", 0)
def date_get_year(this: Any, *_: Any) -> Any:
    """Date.prototype.getYear ( ) (B.2.3.1)."""
    tv = _this_date(this, "getYear").tv
    return tv if tv != tv else civil(tv)[0] - 1900


@_proto("getTimezoneOffset", 0)
def date_get_timezone_offset(this: Any, *_: Any) -> Any:
    """Date.prototype.getTimezoneOffset ( ) (21.4.4.11): 0, local time is UTC."""
    tv = _this_date(this, "getTimezoneOffset").tv
    return tv if tv != tv else 0


# --- prototype: setters (21.4.4.20-29) --------------------------------------------------------

def _set(this: Any, name: str, field: int, args: tuple[Any, ...], count: int) -> Any:
    """The shared algorithm of setMilliseconds..setFullYear: replace ``count`` fields from
    ``field`` on with the given arguments (missing optional ones keep their value)."""
    date = _this_date(this, name)
    tv = date.tv  # read before the arguments' conversions, which may change it (21.4.4.20 step 3)
    values = [to_number(a) for a in args[:count]] or [math.nan]
    if tv != tv:
        if field != 0:
            return math.nan
        tv = 0.0
    parts: list[float] = [float(v) for v in civil(tv)[:7]]
    for i, v in enumerate(values):
        parts[field + i] = float(v)
    day = make_day(parts[0], parts[1], parts[2])
    date.tv = time_clip(make_date(day, make_time(parts[3], parts[4], parts[5], parts[6])))
    return _num(date.tv)


_SETTERS = {"Milliseconds": (6, 1), "Seconds": (5, 2), "Minutes": (4, 3), "Hours": (3, 4),
            "Date": (2, 1), "Month": (1, 2), "FullYear": (0, 3)}


def _make_setter(name: str, field: int, count: int) -> Callable[..., Any]:
    def setter(this: Any, *args: Any) -> Any:
        return _set(this, name, field, args, count)

    setter.__doc__ = f"Date.prototype.{name} (21.4.4); local time is UTC."
    setter.__name__ = name
    return setter


def _register_setters() -> None:
    for field, (index, count) in _SETTERS.items():
        for prefix in ("set", "setUTC"):
            name = prefix + field
            DATE_PROTO[name] = native(_make_setter(name, index, count), name, count)


_register_setters()


@_proto("setYear", 1)
def date_set_year(this: Any, year: Any = UNDEFINED, *_: Any) -> Any:
    """Date.prototype.setYear ( year ) (B.2.3.2)."""
    date = _this_date(this, "setYear")
    y = float(to_number(year))
    if y != y:
        date.tv = math.nan
        return math.nan
    yi = math.trunc(y) if math.isfinite(y) else y
    full = 1900.0 + yi if 0 <= yi <= 99 else y
    return _set(date, "setYear", 0, (full,), 1)


@_proto("setTime", 1)
def date_set_time(this: Any, time: Any = UNDEFINED, *_: Any) -> Any:
    """Date.prototype.setTime ( time ) (21.4.4.27)."""
    date = _this_date(this, "setTime")
    date.tv = time_clip(float(to_number(time)))
    return _num(date.tv)


# --- prototype: text --------------------------------------------------------------------------

@_proto("toISOString", 0)
def date_to_iso_string(this: Any, *_: Any) -> str:
    """Date.prototype.toISOString ( ) (21.4.4.36)."""
    tv = _this_date(this, "toISOString").tv
    if tv != tv:
        raise range_error("Invalid time value")
    return _iso(tv)


@_proto("toJSON", 1)
def date_to_json(this: Any, *_: Any) -> Any:
    """Date.prototype.toJSON ( key ) (21.4.4.37)."""
    if type(this) is JSDate:
        return None if this.tv != this.tv else _iso(this.tv)
    if this is None or this is UNDEFINED:
        raise type_error("Cannot convert undefined or null to object")
    tv = to_primitive(this, "number")
    if type(tv) is float and not math.isfinite(tv):
        return None
    fn = get_member(this, "toISOString")
    if type(fn) is not JSFunction:
        raise type_error("toISOString is not a function")
    return fn.call(this)


def _text_method(name: str, fmt: Callable[[float], str], doc: str) -> None:
    def impl(this: Any, *_: Any) -> str:
        tv = _this_date(this, name).tv
        return "Invalid Date" if tv != tv else fmt(tv)

    impl.__doc__ = doc
    impl.__name__ = name
    DATE_PROTO[name] = native(impl, name, 0)


_text_method("toString", date_to_string, "Date.prototype.toString ( ) (21.4.4.41).")
_text_method("toDateString", _date_text, "Date.prototype.toDateString ( ) (21.4.4.35).")
_text_method("toTimeString", _time_text, "Date.prototype.toTimeString ( ) (21.4.4.42).")
_text_method("toUTCString", _utc_text, "Date.prototype.toUTCString ( ) (21.4.4.43).")
_text_method("toLocaleString", lambda tv: f"{_locale_date(tv)}, {_locale_time(tv)}",
             "Date.prototype.toLocaleString ( ) (21.4.4.39); en-US, UTC.")
_text_method("toLocaleDateString", _locale_date, "Date.prototype.toLocaleDateString ( ) (21.4.4.38); en-US.")
_text_method("toLocaleTimeString", _locale_time, "Date.prototype.toLocaleTimeString ( ) (21.4.4.40); en-US.")
DATE_PROTO["toGMTString"] = DATE_PROTO["toUTCString"]


def _date_to_primitive(this: Any, hint: Any = UNDEFINED, *_: Any) -> Any:
    """Date.prototype [ @@toPrimitive ] ( hint ) (21.4.4.45): "default" means "string"."""
    from ..ops import ordinary_to_primitive

    if type(this) in (str, int, float, bool, JSSymbol) or this is None or this is UNDEFINED:
        shown = repr(this) if type(this) is JSSymbol else _receiver_text(this)
        raise type_error(f"Method Date.prototype [ @@toPrimitive ] called on incompatible receiver {shown}")
    if hint == "string" or hint == "default":
        return ordinary_to_primitive(this, "string")
    if hint == "number":
        return ordinary_to_primitive(this, "number")
    raise type_error(f"Invalid hint: {repr(hint) if type(hint) is JSSymbol else to_string(hint)}")


DATE_PROTO[SYMBOL_TO_PRIMITIVE] = native(_date_to_primitive, "[Symbol.toPrimitive]", 1)  # type: ignore[index]


DATE = native(_date_call, "Date", 7, construct=_date_construct, props={
    "now": native(_date_now, "now", 0),
    "parse": native(_date_parse, "parse", 1),
    "UTC": native(_date_utc, "UTC", 7),
    # the core makes a class's prototype object lazily, from its first instance
    "prototype": get_prototype(JSDate(0.0)),
})
GLOBALS["Date"] = DATE
