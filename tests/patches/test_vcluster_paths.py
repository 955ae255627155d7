"""Paths and ``context.path`` as vCluster 0.33's patcher gives them (``pkg/util/patch``), and
the documented differences (each row of the parity table in ``docs/patches.md``)."""

from __future__ import annotations

from typing import Any

import pytest

import syncpatch
from syncpatch.patches import ConfigError
from syncpatch.runtime.paths import PathError, parse_path


def apply(path: str, obj: Any, script: str = "context.path") -> Any:
    return syncpatch.compile_patches([{"path": path, "expression": script}]).to_host(obj, {})


def test_paths_are_trimmed() -> None:
    obj = {"spec": {"a": "x"}}
    assert apply("  spec.a\t", obj) == apply("spec.a", obj) == {"spec": {"a": "spec.a"}}
    assert parse_path(" \n spec.a ") == parse_path("spec.a")


def test_a_trimmed_path_still_reports_columns_in_the_written_path() -> None:
    with pytest.raises(PathError) as info:
        parse_path("  a['k']")
    assert info.value.column == 5 and info.value.path == "  a['k']"


def test_trimmed_duplicates_are_the_same_path() -> None:
    with pytest.raises(ConfigError, match="appears in patches 0, 1"):
        syncpatch.compile_patches([{"path": "spec.a", "expression": "1"}, {"path": " spec.a", "expression": "2"}])


def test_an_unquoted_bracket_key_is_the_quoted_one() -> None:
    assert parse_path("metadata.labels[app]") == parse_path('metadata.labels["app"]')
    created = apply("metadata.labels[team]", {"metadata": {"labels": {}}}, '"core"')
    assert created == {"metadata": {"labels": {"team": "core"}}}


def test_a_quoted_star_in_brackets_is_the_wildcard() -> None:
    assert parse_path('spec.ports["*"].name') == parse_path("spec.ports[*].name")
    out = apply('spec.ports["*"].name', {"spec": {"ports": [{"name": "a"}, {"name": "b"}]}}, 'value + "!"')
    assert out == {"spec": {"ports": [{"name": "a!"}, {"name": "b!"}]}}


def test_a_negative_index_is_refused() -> None:
    with pytest.raises(PathError, match="non-negative"):
        parse_path("spec.ports[-1]")


@pytest.mark.parametrize(("path", "obj", "expected"), [
    ('metadata.annotations["team"]', {"metadata": {"annotations": {"team": "x"}}}, "metadata.annotations"),
    ('metadata.annotations["new"]', {"metadata": {"annotations": {}}}, "metadata.annotations"),
    ('spec.items[*].labels["k"]', {"spec": {"items": [{"labels": {"k": 1}}]}}, "spec.items.0.labels"),
    ('metadata.annotations."example.com/team"', {"metadata": {"annotations": {"example.com/team": "x"}}},
     "metadata.annotations.example.com/team"),
    ("metadata.annotations[*]", {"metadata": {"annotations": {"example.com/team": "x"}}},
     'metadata.annotations."example.com/team"'),
    ('spec."a.b".c', {"spec": {"a.b": {"c": 1}}}, 'spec."a.b".c'),
])
def test_context_path_is_what_vcluster_passes(path: str, obj: Any, expected: str) -> None:
    """A last ``["key"]``: the path of the map holding the key; a last plain key: joined
    unquoted; keys inside the path and keys a wildcard meets: quoted when they hold . [ ]."""
    seen: list[str] = []

    def record(value: Any, context: Any, *, value_exists: bool = True) -> Any:
        seen.append(context["path"])
        return "x"

    from syncpatch.runtime.plan import ExpressionPatch, PatchPlan

    PatchPlan(entries=(ExpressionPatch(index=0, path=path, expression=record),)).to_host(obj, {})
    compiled = apply(path, obj)
    assert seen == [expected]
    assert expected in str(compiled)


def test_an_out_of_range_index_under_a_wildcard_skips_only_that_match() -> None:
    """vCluster returns from the whole patch at the first list too short for the index, so
    later matches stay unpatched; we patch every match that has the index (documented)."""
    obj = {"spec": {"containers": [{"ports": [1]}, {"ports": [1, 2]}]}}
    out = apply("spec.containers[*].ports[1]", obj, "value * 10")
    assert out == {"spec": {"containers": [{"ports": [1]}, {"ports": [1, 20]}]}}


def test_an_index_on_a_map_matches_nothing() -> None:
    """vCluster reads ``[0]`` on a map as the key "0"; an index addresses lists only here (documented)."""
    assert apply("spec.m[0]", {"spec": {"m": {"0": "x"}}}, '"y"') == {"spec": {"m": {"0": "x"}}}
    assert apply('spec.m["0"]', {"spec": {"m": {"0": "x"}}}, '"y"') == {"spec": {"m": {"0": "y"}}}
