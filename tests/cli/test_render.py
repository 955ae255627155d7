"""Results as JSON data (``syncpatch/cli/render.py``): the export rule for Dates, Maps and Sets,
and a located error for what JSON cannot hold, whatever the runtime hands over."""

import math

import pytest

from syncpatch import UNDEFINED
from syncpatch.cli.render import NotJsonData, json_data
from syncpatch.runtime.stdlib.collections import JSMap, JSSet
from syncpatch.runtime.stdlib.date import JSDate


def test_dates_maps_and_sets_follow_the_plans_export_rule():
    mapping, values = JSMap(), JSSet()
    mapping.store.put("a", 1)
    values.store.put(2, 2)
    got = json_data({"d": JSDate(0.0), "m": mapping, "s": values})
    assert got == {"d": "1970-01-01T00:00:00Z", "m": [["a", 1]], "s": [2]}  # as Go writes a time.Time


def test_undefined_is_dropped_in_objects_and_null_in_arrays():
    assert json_data({"a": UNDEFINED, "b": [UNDEFINED, 1]}) == {"b": [None, 1]}


@pytest.mark.parametrize("value, where", [
    ({"spec": {"ports": [{"port": math.nan}]}}, "spec.ports[0].port"),
    ([JSDate(math.nan)], "[0]"),
    ({"a-b": {"x.y": math.inf}}, "a-b['x.y']"),
])
def test_values_without_json_form_are_located(value, where):
    with pytest.raises(NotJsonData) as info:
        json_data(value)
    assert info.value.where == where
