"""Property test: the copy-on-write applier agrees with a naive deep-copy-and-mutate model,
and never mutates its input."""

import copy

from hypothesis import given, settings

from syncpatch.runtime.paths import Index, Key, format_segments
from syncpatch.runtime.plan import ExpressionPatch, PatchPlan

from . import plan_strategies

KEYS = ["a", "b", "c.d"]
json_values = plan_strategies.json_values(KEYS, ints=5, strings=["x", "y", ""], max_leaves=12)
paths = plan_strategies.paths(KEYS, min_size=1)


transform = plan_strategies.transform


def naive(obj, segs):
    """Reference model: mutate a deep copy following the documented rules."""
    root = copy.deepcopy(obj)

    def visit(node, i):
        seg = segs[i]
        last = i == len(segs) - 1
        if isinstance(seg, Key):
            if not isinstance(node, dict):
                return
            if seg.name in node:
                targets = [seg.name]
            elif seg.bracket and last:
                result = transform(None, False)
                if result is not None:
                    node[seg.name] = result
                return
            else:
                return
        elif isinstance(seg, Index):
            if not isinstance(node, list) or seg.index >= len(node):
                return
            targets = [seg.index]
        else:
            if isinstance(node, list):
                targets = list(range(len(node)))
            elif isinstance(node, dict):
                targets = list(node)
            else:
                return
        deleted = []
        for t in targets:
            if last:
                result = transform(node[t], True)
                if result is None:
                    deleted.append(t)
                else:
                    node[t] = result
            elif isinstance(node[t], (dict, list)):
                visit(node[t], i + 1)
        for t in reversed(deleted):
            del node[t]

    if isinstance(root, (dict, list)):
        visit(root, 0)
    return root


def patch_fn(value, context, *, value_exists=True):
    return transform(value, value_exists)


@settings(max_examples=400, deadline=None)
@given(obj=json_values, segs=paths)
def test_copy_on_write_matches_naive_model(obj, segs):
    path = format_segments(segs)
    plan = PatchPlan(entries=(ExpressionPatch(index=0, path=path, expression=patch_fn),))
    before = copy.deepcopy(obj)
    out = plan.to_host(obj)
    assert obj == before, "input was mutated"
    assert out == naive(obj, segs)


@settings(max_examples=200, deadline=None)
@given(obj=json_values, first=paths, second=paths)
def test_two_patches_compose_in_order(obj, first, second):
    entries = tuple(ExpressionPatch(index=i, path=format_segments(s), expression=patch_fn)
                    for i, s in enumerate((first, second)))
    before = copy.deepcopy(obj)
    out = PatchPlan(entries=entries).to_host(obj)
    assert obj == before
    assert out == naive(naive(obj, first), second)
