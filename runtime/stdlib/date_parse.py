"""Date string parsing as V8 does it (21.4.3.2 Date.parse; V8's ``DateParser``).

First the ES Date Time String Format (``YYYY-MM-DDTHH:mm:ss.sssZ``, ``+YYYYYY`` years,
``±HH:mm`` / ``±HHmm`` offsets); whatever it leaves over goes through V8's legacy parser,
which accepts ``Tue Mar 05 2024 10:00:00 GMT+0000 (...)``, ``Tue, 05 Mar 2024 10:00:00 GMT``,
``March 5, 2024``, ``2024/03/05 10:00``, ``03/05/2024`` and similar. The local time zone is
UTC, so strings without an offset read as UTC.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ..convert import JS_WHITESPACE

__all__ = ["parse_date", "make_day", "make_time", "make_date", "time_clip"]

MS_PER_DAY = 86_400_000
MAX_TIME = 8.64e15
_NONE = None


# --- MakeDay / MakeTime / MakeDate / TimeClip (21.4.1.28-31), V8's ranges --------------------

_CUM = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)
_CUM_LEAP = (0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335)


def _trunc(x: float) -> float:
    return float(math.trunc(x)) if math.isfinite(x) else x


def days_from_year(y: int) -> int:
    """Day number of January 1st of year ``y`` (proleptic Gregorian, day 0 = 1970-01-01)."""
    y1 = y - 1
    return 365 * (y - 1970) + (y1 // 4 - 1969 // 4) - (y1 // 100 - 1969 // 100) + (y1 // 400 - 1969 // 400)


def is_leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def make_day(year: float, month: float, date: float) -> float:
    """MakeDay (21.4.1.28) with V8's year/month bounds."""
    if not (math.isfinite(year) and math.isfinite(month) and math.isfinite(date)):
        return math.nan
    year, month = _trunc(year), _trunc(month)
    if not (-1_000_000 <= year <= 1_000_000 and -10_000_000 <= month <= 10_000_000):
        return math.nan
    y = int(year) + int(month) // 12
    m = int(month) % 12
    day = days_from_year(y) + (_CUM_LEAP if is_leap(y) else _CUM)[m]
    return float(day) + _trunc(date) - 1


def make_time(hour: float, minute: float, sec: float, ms: float) -> float:
    """MakeTime (21.4.1.27)."""
    if not all(math.isfinite(v) for v in (hour, minute, sec, ms)):
        return math.nan
    return _trunc(hour) * 3_600_000.0 + _trunc(minute) * 60_000.0 + _trunc(sec) * 1000.0 + _trunc(ms)


def make_date(day: float, time: float) -> float:
    """MakeDate (21.4.1.29)."""
    if not (math.isfinite(day) and math.isfinite(time)):
        return math.nan
    tv = day * MS_PER_DAY + time
    return tv if math.isfinite(tv) else math.nan


def time_clip(t: float) -> float:
    """TimeClip (21.4.1.31): NaN outside +-8.64e15, else an integral value (never -0)."""
    if not math.isfinite(t) or abs(t) > MAX_TIME:
        return math.nan
    return float(math.trunc(t)) + 0.0


# --- tokens -----------------------------------------------------------------------------------

class Tok(NamedTuple):
    kind: str  # "num", "sym", "kw", "ws", "unknown", "end"
    value: int | str = 0
    length: int = 0
    kwtype: str = ""


_KEYWORDS: list[tuple[str, str, int]] = [
    *((m, "month", i + 1) for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))),
    ("am", "ampm", 0), ("pm", "ampm", 12),
    ("ut", "tz", 0), ("utc", "tz", 0), ("z", "tz", 0), ("gmt", "tz", 0),
    ("cdt", "tz", -5), ("cst", "tz", -6), ("edt", "tz", -4), ("est", "tz", -5),
    ("mdt", "tz", -6), ("mst", "tz", -7), ("pdt", "tz", -7), ("pst", "tz", -8),
    ("t", "tsep", 0),
]


def _keyword(prefix: str, length: int) -> Tok:
    """KeywordTable::Lookup: the first 3 letters decide; longer words only for months."""
    for name, kind, value in _KEYWORDS:
        if prefix == name and (length <= 3 or kind == "month"):
            return Tok("kw", value, length, kind)
    return Tok("kw", 0, length, "invalid")


def tokenize(s: str) -> list[Tok]:
    """V8's DateStringTokenizer."""
    out: list[Tok] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if "0" <= c <= "9":
            j = i
            while j < n and "0" <= s[j] <= "9":
                j += 1
            digits = s[i:j].lstrip("0")[:9]
            out.append(Tok("num", int(digits) if digits else 0, j - i))
            i = j
        elif c in ":-+.)":
            out.append(Tok("sym", c))
            i += 1
        elif c >= "A" and c not in JS_WHITESPACE:
            j = i
            while j < n and s[j] >= "A" and s[j] not in JS_WHITESPACE:
                j += 1
            prefix = "".join(ch.lower() if ch.isascii() else ch for ch in s[i : min(j, i + 3)])
            out.append(_keyword(prefix, j - i))
            i = j
        elif c in JS_WHITESPACE:
            j = i
            while j < n and s[j] in JS_WHITESPACE:
                j += 1
            out.append(Tok("ws", 0, j - i))
            i = j
        elif c == "(":
            depth = 0
            while i < n:
                depth += {"(": 1, ")": -1}.get(s[i], 0)
                i += 1
                if depth == 0:
                    break
            out.append(Tok("unknown"))
        else:
            out.append(Tok("unknown"))
            i += 1
    out.append(Tok("end"))
    return out


# --- composers (V8's DayComposer / TimeComposer / TimeZoneComposer) -------------------------

class _Day:
    def __init__(self) -> None:
        self.comp: list[int] = []
        self.named_month: int | None = None
        self.iso = False

    def add(self, n: int) -> bool:
        if len(self.comp) >= 3:
            return False
        self.comp.append(n)
        return True

    def write(self) -> tuple[int, int, int] | None:
        if not self.comp:
            return None
        c = self.comp + [1] * (3 - len(self.comp))
        year = 0
        if self.named_month is None:
            if self.iso or not 1 <= c[0] <= 31:
                year, month, day = c
            else:
                month, day, year = c
        else:
            month = self.named_month
            if not 1 <= c[0] <= 31:
                year, day = c[0], c[1]
            else:
                day, year = c[0], c[1]
        if not self.iso:
            if 0 <= year <= 49:
                year += 2000
            elif 50 <= year <= 99:
                year += 1900
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return None
        return year, month - 1, day


def _is_minute(n: int) -> bool:
    return 0 <= n < 60


class _Time:
    def __init__(self) -> None:
        self.comp: list[int] = []
        self.hour_offset: int | None = None

    def empty(self) -> bool:
        return not self.comp

    def add(self, n: int) -> bool:
        if len(self.comp) >= 4:
            return False
        self.comp.append(n)
        return True

    def add_final(self, n: int) -> bool:
        if not self.add(n):
            return False
        self.comp += [0] * (4 - len(self.comp))
        return True

    def expecting(self, n: int) -> bool:
        k = len(self.comp)
        return (k == 1 and _is_minute(n)) or (k == 2 and _is_minute(n)) or (k == 3 and 0 <= n < 1000)

    def write(self) -> tuple[int, int, int, int] | None:
        hour, minute, second, ms = self.comp + [0] * (4 - len(self.comp))
        if self.hour_offset is not None:
            if not 0 <= hour <= 12:
                return None
            hour = hour % 12 + self.hour_offset
        if not (0 <= hour < 24 and _is_minute(minute) and _is_minute(second) and 0 <= ms < 1000):
            if hour != 24 or minute or second or ms:
                return None
        return hour, minute, second, ms


class _Zone:
    def __init__(self) -> None:
        self.sign: int | None = None
        self.hour: int | None = None
        self.minute: int | None = None

    def set(self, offset_hours: int) -> None:
        self.sign = -1 if offset_hours < 0 else 1
        self.hour = abs(offset_hours)
        self.minute = 0

    def empty(self) -> bool:
        return self.sign is None

    def is_utc(self) -> bool:
        return self.hour == 0 and self.minute == 0

    def expecting(self, n: int) -> bool:
        return self.hour is not None and self.minute is None and _is_minute(n)

    def offset_seconds(self) -> float:
        """V8 computes the offset in wrapping unsigned 32-bit arithmetic and rejects a result
        above Smi::kMaxValue (returned here as +Infinity)."""
        if self.sign is None:
            return math.nan  # local time (UTC here)
        total = ((self.hour or 0) * 3600 + (self.minute or 0) * 60) & 0xFFFFFFFF
        if total > 0x7FFFFFFF:  # above Smi::kMaxValue: the string is rejected
            return math.inf
        return float(self.sign * total)


def _millis(tok: Tok) -> int:
    """ReadMilliseconds: the first three significant digits of the numeral."""
    n, length = int(tok.value), tok.length
    if length == 1:
        return n * 100
    if length == 2:
        return n * 10
    if length > 3:
        length = min(length, 9)
        return int(n // 10 ** (length - 3))
    return n


# --- the ES Date Time String Format, then the legacy grammar ---------------------------------

class _Scanner:
    def __init__(self, toks: list[Tok]) -> None:
        self.toks = toks
        self.i = 0

    def peek(self) -> Tok:
        return self.toks[self.i]

    def next(self) -> Tok:
        t = self.toks[self.i]
        if t.kind != "end":
            self.i += 1
        return t

    def skip(self, sym: str) -> bool:
        t = self.toks[self.i]
        if t.kind == "sym" and t.value == sym:
            self.i += 1
            return True
        return False

    def fixed(self, n: int) -> bool:
        t = self.toks[self.i]
        return t.kind == "num" and t.length == n


_INVALID = Tok("invalid")
_END = Tok("end")


def _es5_date(sc: _Scanner, day: _Day) -> Tok | None:
    """The date part; a token to hand to the legacy parser, or None to go on."""
    t = sc.peek()
    if t.kind == "sym" and t.value in ("+", "-"):
        sign_tok = sc.next()
        if not sc.fixed(6):
            return sign_tok
        year = int(sc.next().value)
        if sign_tok.value == "-" and year == 0:
            return sign_tok
        day.add(-year if sign_tok.value == "-" else year)
    elif sc.fixed(4):
        day.add(int(sc.next().value))
    else:
        return sc.next()
    if sc.skip("-"):
        if not sc.fixed(2) or not 1 <= int(sc.peek().value) <= 12:
            return sc.next()
        day.add(int(sc.next().value))
        if sc.skip("-"):
            if not sc.fixed(2) or not 1 <= int(sc.peek().value) <= 31:
                return sc.next()
            day.add(int(sc.next().value))
    return None


def _es5_offset(sc: _Scanner, tz: _Zone) -> bool:
    t = sc.peek()
    if t.kind == "kw" and t.kwtype == "tz" and t.length == 1 and t.value == 0:
        sc.next()
        tz.set(0)
    elif t.kind == "sym" and t.value in ("+", "-"):
        tz.sign = 1 if sc.next().value == "+" else -1
        if sc.fixed(4):
            hm = int(sc.next().value)
            if not (0 <= hm // 100 < 24 and _is_minute(hm % 100)):
                return False
            tz.hour, tz.minute = hm // 100, hm % 100
        else:
            if not sc.fixed(2) or not 0 <= int(sc.peek().value) < 24:
                return False
            tz.hour = int(sc.next().value)
            if not sc.skip(":") or not sc.fixed(2) or not _is_minute(int(sc.peek().value)):
                return False
            tz.minute = int(sc.next().value)
    return sc.peek().kind == "end"


def _es5_time(sc: _Scanner, time: _Time, tz: _Zone) -> bool:
    if not sc.fixed(2) or not 0 <= int(sc.peek().value) <= 24:
        return False
    hour24 = sc.peek().value == 24
    time.add(int(sc.next().value))
    if not sc.skip(":") or not sc.fixed(2) or not _is_minute(int(sc.peek().value)):
        return False
    if hour24 and sc.peek().value:
        return False
    time.add(int(sc.next().value))
    if sc.skip(":"):
        if not sc.fixed(2) or not _is_minute(int(sc.peek().value)) or (hour24 and sc.peek().value):
            return False
        time.add(int(sc.next().value))
        if sc.skip("."):
            if sc.peek().kind != "num" or (hour24 and sc.peek().value):
                return False
            time.add(_millis(sc.next()))
    return _es5_offset(sc, tz)


def _es5(sc: _Scanner, day: _Day, time: _Time, tz: _Zone) -> Tok:
    """ParseES5DateTime: END when the whole string matched, INVALID, or a leftover token."""
    left = _es5_date(sc, day)
    if left is not None:
        return left
    t = sc.peek()
    if not (t.kind == "kw" and t.kwtype == "tsep"):
        if t.kind != "end":
            return sc.next()
    else:
        sc.next()
        if not _es5_time(sc, time, tz):
            return _INVALID
    if tz.empty() and time.empty():
        tz.set(0)
    day.iso = True
    return _END


def _legacy_number(sc: _Scanner, tok: Tok, day: _Day, time: _Time, tz: _Zone) -> bool:
    n = int(tok.value)
    if sc.skip(":"):
        if sc.skip(":"):
            if not time.empty():
                return False
            time.add(n)
            time.add(0)
        else:
            if not time.add(n):
                return False
            if sc.peek().kind == "sym" and sc.peek().value == ".":
                sc.next()
    elif sc.skip(".") and time.expecting(n):  # the '.' is consumed either way, as in V8
        time.add(n)
        if sc.peek().kind != "num":
            return False
        time.add_final(_millis(sc.next()))
    elif tz.expecting(n):
        tz.minute = n
    elif time.expecting(n):
        time.add_final(n)
        p = sc.peek()
        is_z = p.kind == "kw" and p.kwtype == "tz" and p.length == 1 and p.value == 0
        if p.kind not in ("end", "ws") and not is_z and not (p.kind == "sym" and p.value in ("+", "-")):
            return False
    else:
        if not day.add(n):
            return False
        sc.skip("-")
    return True


def _legacy_sign(sc: _Scanner, tok: Tok, tz: _Zone) -> bool:
    tz.sign = 1 if tok.value == "+" else -1
    n = length = 0
    if sc.peek().kind == "num":
        t = sc.next()
        n, length = int(t.value), t.length
    if sc.peek().kind == "sym" and sc.peek().value == ":":
        tz.hour, tz.minute = n, None
    elif length in (1, 2):
        tz.hour, tz.minute = n, 0
    elif length in (3, 4):
        tz.hour, tz.minute = n // 100, n % 100
    else:
        return False
    return True


def _legacy(sc: _Scanner, tok: Tok, day: _Day, time: _Time, tz: _Zone) -> bool:
    """DateParser::Parse's legacy loop over the tokens ParseES5DateTime left."""
    has_number = bool(day.comp)
    while tok.kind != "end":
        if tok.kind == "num":
            has_number = True
            if not _legacy_number(sc, tok, day, time, tz):
                return False
        elif tok.kind == "kw":
            word = _legacy_word(sc, tok, day, time, tz, has_number)
            if word is None:
                return False
            has_number = word
        elif tok.kind == "sym" and tok.value in ("+", "-") and (tz.is_utc() or not time.empty()):
            if not _legacy_sign(sc, tok, tz):
                return False
            has_number = True
        elif tok.kind == "sym" and tok.value in ("+", "-", ")") and has_number:
            return False
        tok = sc.next()
    return True


def _legacy_word(sc: _Scanner, tok: Tok, day: _Day, time: _Time, tz: _Zone, has_number: bool) -> bool | None:
    """A keyword token; returns has_read_number (unchanged), or None when the string is bad."""
    if tok.kwtype == "ampm" and not time.empty():
        time.hour_offset = int(tok.value)
    elif tok.kwtype == "month":
        day.named_month = int(tok.value)
        sc.skip("-")
    elif tok.kwtype == "tz" and has_number:
        tz.set(int(tok.value))
    else:
        if has_number or sc.peek().kind == "num":
            return None
    return has_number


def parse_date(s: str) -> float:
    """Date.parse core: a time value (ms since the epoch, UTC) or NaN."""
    sc = _Scanner(tokenize(s))
    day, time, tz = _Day(), _Time(), _Zone()
    left = _es5(sc, day, time, tz)
    if left.kind == "invalid":
        return math.nan
    if left.kind != "end" and not _legacy(sc, left, day, time, tz):
        return math.nan
    ymd = day.write()
    hms = time.write()
    if ymd is None or hms is None:
        return math.nan
    date = make_date(make_day(*ymd), make_time(*hms))
    offset = tz.offset_seconds()
    if offset == math.inf:
        return math.nan
    if offset != offset:
        if not abs(date) <= MAX_TIME + 864_000_000:
            return math.nan
    else:
        date -= offset * 1000.0
        if not abs(date) <= MAX_TIME:
            return math.nan
    return time_clip(date)
