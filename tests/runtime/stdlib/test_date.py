"""Date against node's answers under TZ=UTC (the engine's local time zone is UTC)."""

import time

import pytest

from syncpatch.runtime.stdlib.date import JSDate, civil
from syncpatch.runtime.stdlib.date_parse import days_from_year, parse_date
from syncpatch.runtime.stdlib.registry import GLOBALS
from syncpatch.runtime.values import UNDEFINED

from .numeric_direct import rows, run_row


@pytest.mark.parametrize("row", rows("date"))
def test_date(row):
    run_row(row)


def test_now_reads_the_real_clock():
    before = int(time.time() * 1000)
    now = GLOBALS["Date"].props["now"].call(UNDEFINED)
    after = int(time.time() * 1000) + 1
    assert type(now) is int and before - 1 <= now <= after
    assert abs(GLOBALS["Date"].construct().tv - now) < 5000


def test_date_called_as_a_function_returns_text():
    text = GLOBALS["Date"].call(UNDEFINED)
    assert type(text) is str and text.endswith("GMT+0000 (Coordinated Universal Time)")


def test_civil_round_trips_across_eras():
    for days in range(-800_000, 800_000, 997):
        y, m, d, *_ = civil(days * 86_400_000.0)
        assert days_from_year(y) <= days < days_from_year(y + 1)
        assert parse_date(f"{'+' if y >= 0 else '-'}{abs(y):06d}-{m + 1:02d}-{d:02d}") == days * 86_400_000.0 \
            or y == 0


def test_special_class_protocol():
    d = JSDate(0.0)
    assert d.JS_CLASS == "Date"
    assert d.js_get_own("x") is not None and d.js_own_keys() == []
    assert d.js_set_own("x", 1) and d.js_own_keys() == ["x"]
