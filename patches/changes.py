"""Patches applied to the changes of an update, as vCluster's syncers apply them.

On an update vCluster does not re-patch the whole object: it computes a JSON merge patch
(RFC 7386) between the previous and the new object and runs the patches over that change
set. So a patch on a field the update did not touch does not fire, and a whole-object patch
(``""``) receives only the change set. Whole-object application (``plan.to_host``) is what a
syncer wants on create; these functions are what it wants on update.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

from syncpatch.runtime.plan import PatchPlan

__all__ = ["merge_patch", "apply_merge_patch", "to_host_changes", "from_host_changes"]


def merge_patch(old: Any, new: Any) -> Any:
    """The RFC 7386 merge patch that turns ``old`` into ``new`` (mappings key by key; a
    removed key is null; anything else, lists included, is replaced whole)."""
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return copy.deepcopy(new)
    out: dict[str, Any] = {}
    for key in old:
        if key not in new:
            out[key] = None
    for key, value in new.items():
        if key not in old:
            out[key] = copy.deepcopy(value)
        elif old[key] != value:
            out[key] = merge_patch(old[key], value) if isinstance(value, Mapping) and isinstance(old[key], Mapping) \
                else copy.deepcopy(value)
    return out


def apply_merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: apply a merge patch to ``target`` (a new object; the input is untouched)."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = apply_merge_patch(out.get(key), value)
    return out


def to_host_changes(plan: PatchPlan, old: Any, new: Any, context: Mapping[str, Any] | None = None) -> Any:
    """The tenant → host change set of an update: the merge patch from ``old`` to ``new`` with
    the plan run over it (only patches whose path the update touched fire)."""
    ctx = dict(context or {})
    ctx.setdefault("virtualObject", new)
    return plan.to_host(merge_patch(old, new), ctx)


def from_host_changes(plan: PatchPlan, old: Any, new: Any, context: Mapping[str, Any] | None = None) -> Any:
    """The host → tenant change set of an update of a host object."""
    ctx = dict(context or {})
    ctx.setdefault("hostObject", new)
    return plan.from_host(merge_patch(old, new), ctx)
