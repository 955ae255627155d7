"""Change-set semantics: patches run over the merge patch of an update, as in vCluster."""

from __future__ import annotations

import syncpatch
from syncpatch.patches.changes import apply_merge_patch, from_host_changes, merge_patch, to_host_changes

CTX = {"vcluster": {"name": "vc", "namespace": "vcluster-vc", "config": {}}}


def test_merge_patch_round_trips() -> None:
    old = {"a": 1, "b": {"c": 2, "d": 3}, "l": [1, 2], "gone": True}
    new = {"a": 1, "b": {"c": 5, "d": 3}, "l": [1], "added": "x"}
    patch = merge_patch(old, new)
    assert patch == {"gone": None, "b": {"c": 5}, "l": [1], "added": "x"}
    assert apply_merge_patch(old, patch) == new


def test_a_patch_on_an_unchanged_field_does_not_fire() -> None:
    plan = syncpatch.compile_patches([
        {"path": "metadata.labels.team", "expression": '"host-" + value', "reverseExpression": "value.slice(5)"},
        {"path": "spec.port", "expression": "value + 1000", "reverseExpression": "value - 1000"}])
    old = {"metadata": {"labels": {"team": "a"}}, "spec": {"port": 80}}
    new = {"metadata": {"labels": {"team": "a"}}, "spec": {"port": 81}}
    assert to_host_changes(plan, old, new, CTX) == {"spec": {"port": 1081}}
    assert plan.to_host(new, CTX) == {"metadata": {"labels": {"team": "host-a"}}, "spec": {"port": 1081}}
    assert from_host_changes(plan, {"spec": {"port": 1080}}, {"spec": {"port": 1090}}, CTX) == {"spec": {"port": 90}}


def test_an_empty_path_receives_the_change_set() -> None:
    plan = syncpatch.compile_patches([{"path": "", "expression": "({...value, seen: Object.keys(value)})"}])
    changes = to_host_changes(plan, {"a": 1, "b": 2}, {"a": 1, "b": 3}, CTX)
    assert changes == {"b": 3, "seen": ["b"]}
