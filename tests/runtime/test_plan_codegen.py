"""Generated plan code (plan_codegen, plan_groups) agrees with the closure walkers it replaces."""

from __future__ import annotations

import ast

import copy
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import syncpatch
from syncpatch.runtime.paths import parse_path
from syncpatch.runtime.plan import ExpressionPatch, PatchError, PatchPlan
from syncpatch.runtime.plan_codegen import compile_plan
from syncpatch.runtime.plan_groups import Ownership, disjoint, edge, group_steps
from syncpatch.runtime.plan_walkers import build_walker, run_walker

from . import plan_strategies

KEYS = ["a", "b", "c.d", "0", "00", "1"]
json_values = plan_strategies.json_values(KEYS, ints=3, strings=["x", ""], max_leaves=14)
paths = plan_strategies.paths(KEYS, min_size=0)


def transform(value: Any, exists: bool) -> Any:
    return plan_strategies.transform(value, exists, keep_even_containers=True)


def recording(log: list[Any], reads: bool):
    def fn(value: Any, ctx: dict[str, Any], exists: bool) -> Any:
        log.append((copy.deepcopy(value), exists, ctx["path"] if reads else None))
        return transform(value, exists)
    return fn


def sequential(obj: Any, steps: list[tuple[tuple, Any, bool]]) -> Any:
    """The reference: closure walkers, one step after the other."""
    ctx: dict[str, Any] = {"path": ""}
    owned: dict[int, Any] = {}
    root = obj
    for segs, fn, reads in steps:
        walker = build_walker(segs, reads)
        if walker is None:
            root = run_walker(None, root, fn, ctx, owned)
        elif isinstance(root, (dict, list)):
            root = walker(root, "", fn, ctx, owned)
    return root


def wrap(exc: Exception, entry: Any, concrete: str, direction: str) -> Exception:
    return RuntimeError(entry, concrete, direction)


def generated(obj: Any, steps: list[tuple[tuple, Any, bool]], fuse: bool) -> Any:
    static = [(number, segs, fn, reads, None) for number, (segs, fn, reads) in enumerate(steps)]
    return compile_plan(static, fuse, wrap, "to_host")(obj, {"path": ""}, {})


@settings(max_examples=500, deadline=None)
@given(obj=json_values, plan=st.lists(st.tuples(paths, st.booleans()), min_size=1, max_size=4),
       fuse=st.booleans())
def test_generated_code_matches_the_closure_walkers(obj, plan, fuse):
    want_log: list[Any] = []
    got_log: list[Any] = []
    before = copy.deepcopy(obj)
    try:
        want = sequential(obj, [(segs, recording(want_log, reads), reads) for segs, reads in plan])
    except ValueError:  # a whole-object patch returned null
        with pytest.raises(ValueError if fuse else RuntimeError):
            generated(obj, [(segs, recording(got_log, reads), reads) for segs, reads in plan], fuse)
        return
    got = generated(obj, [(segs, recording(got_log, reads), reads) for segs, reads in plan], fuse)
    assert obj == before, "input was mutated"
    assert got == want
    if fuse:  # disjoint steps may interleave their calls, never change them
        assert sorted(map(repr, got_log)) == sorted(map(repr, want_log))
    else:
        assert got_log == want_log


def test_untouched_subtrees_are_shared_and_each_container_copied_once():
    obj = {"spec": {"ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}], "selector": {"x": "y"}},
           "metadata": {"name": "m"}}
    plan = syncpatch.compile_patches([{"path": "spec.ports[*].name", "expression": '"n-" + value'},
                                      {"path": "spec.ports[*].port", "expression": "value + 1"}])
    out = plan.to_host(obj)
    assert out["metadata"] is obj["metadata"] and out["spec"]["selector"] is obj["spec"]["selector"]
    assert out["spec"]["ports"] == [{"name": "n-a", "port": 2}, {"name": "n-b", "port": 3}]
    assert obj["spec"]["ports"][0] == {"name": "a", "port": 1}


def test_fused_failure_reports_the_first_failing_step_in_order():
    # Fused, element 0's "y" would fail before element 1's "x"; in order, patch 0 fails first.
    plan = syncpatch.compile_patches([{"path": "items[*].x", "expression": "value.q.r"},
                                      {"path": "items[*].y", "expression": "value.q.r"}])
    obj = {"items": [{"x": {"q": {"r": 1}}, "y": 1}, {"x": 2, "y": {"q": {"r": 1}}}]}
    with pytest.raises(PatchError) as info:
        plan.to_host(obj)
    assert (info.value.patch_index, info.value.concrete_path) == (0, "items.1.x")


def test_subclassed_containers_take_the_closure_walkers():
    obj = OrderedDict(spec=OrderedDict(ports=[OrderedDict(name="a")], other=1))
    plan = syncpatch.compile_patches([{"path": "spec.ports[*].name", "expression": '"n-" + value'},
                                      {"path": "spec.other", "expression": "value + 1"}])
    out = plan.to_host(obj)
    assert out == {"spec": {"ports": [{"name": "n-a"}], "other": 2}}
    assert obj["spec"]["ports"][0]["name"] == "a"


@pytest.mark.parametrize("key", ['x"y', "x'y", "a\\b", "line\nbreak", "{__import__('os')}", "é/ü", ""])
def test_keys_enter_generated_code_as_literals(key):
    path = '["' + key.replace("\\", "\\\\").replace('"', '\\"') + '"]'
    seen = []
    plan = PatchPlan(entries=(ExpressionPatch(index=0, path="m" + path + ".v",
                                              expression=lambda v, c, *, value_exists=True: seen.append(c["path"]) or v + 1),))
    assert plan.to_host({"m": {key: {"v": 1}}}) == {"m": {key: {"v": 2}}}
    assert len(seen) == 1


def test_digit_keys_index_lists():
    plan = syncpatch.compile_patches([{"path": "a.1.b", "expression": '"x"'}, {"path": "a.0", "expression": "null"}])
    assert plan.to_host({"a": [{"b": 1}, {"b": 2}]}) == {"a": [{"b": "x"}]}


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("spec.ports[*].name", "spec.ports[*].port", True),
    ("metadata.labels", "metadata.annotations[*]", True),
    ("spec.ports[*].name", "spec.ports[*].name", False),
    ("spec.ports", "spec.ports[*].name", False),
    ("a[*].x", "a[0].y", False),
    ("a.0", "a.1", False),  # digit keys also index lists, where deletion shifts elements
    ("a.0", "a.b", True),
    ("", "a", False),
])
def test_disjoint(a, b, expected):
    assert disjoint(parse_path(a), parse_path(b)) is expected


def test_groups_and_ownership():
    steps = [parse_path(p) for p in ("a[*].x", "a[*].y", "a[*]", "b.c")]
    groups = group_steps(steps, fuse=True)
    assert groups == [[0, 1], [2, 3]]
    assert group_steps(steps, fuse=False) == [[0], [1], [2], [3]]
    own = Ownership(steps, groups)
    a_items = parse_path("a[*]")
    assert own.must_register(0, a_items[:1]) and not own.must_register(0, a_items)  # the list, not elements
    assert own.may_be_owned(1, parse_path("a")) and not own.may_be_owned(1, parse_path("b"))


def pairwise_groups(steps):
    groups = []
    for number, path in enumerate(steps):
        if groups and path and steps[groups[-1][0]] and all(disjoint(steps[o], path) for o in groups[-1]):
            groups[-1].append(number)
        else:
            groups.append([number])
    return groups


@settings(max_examples=500, deadline=None)
@given(steps=st.lists(paths, max_size=6))
def test_grouping_walks_a_trie_but_means_pairwise_disjoint(steps):
    assert group_steps(steps, fuse=True) == pairwise_groups(steps)


def test_plans_of_native_expressions_run_without_a_realm_and_fall_back_exactly() -> None:
    """A plan whose every function has a native tier runs its generated code with no realm;
    a native fallback and a failure still give what the realm path gives."""
    plan = syncpatch.compile_patches([
        {"path": "metadata.labels[*]", "expression": '"v-" + value'},
        {"path": "spec.n", "expression": "value.toUpperCase()"},
    ])
    assert plan._program("to_host").native
    assert plan.to_host({"metadata": {"labels": {"a": "é", "b": "x"}}}, None) == {
        "metadata": {"labels": {"a": "v-é", "b": "v-x"}}}  # "é" takes the general tier
    with pytest.raises(PatchError) as info:
        plan.to_host({"metadata": {"labels": {"a": "x"}}, "spec": {"n": 3}}, None)
    assert info.value.patch_index == 1 and info.value.concrete_path == "spec.n"
    assert info.value.js_name == "TypeError"


# -- native bodies written into the plan (plan_inline) -------------------------------------------

NATIVE_POOL = [
    '"v-" + value',
    "value.toUpperCase()",
    "value + 1",
    'value.field?.other || "d"',
    'typeof value === "string" ? value.slice(1) : value',
    'value["k"] = "v"; value',
    "Object.keys(value).length",
    "value.map(x => x)",
    "context.path + value",
    'value === "x" ? undefined : value',
    "[value, value]",
    '({...value, seen: true})',
    'value.replace(/^x/, "y")',
]
native_values = plan_strategies.json_values(KEYS, ints=3, strings=["x", "", "é", "xa"], max_leaves=14)


def _outcome(call: Any, obj: Any) -> Any:
    try:
        return ("ok", call(obj))
    except PatchError as exc:
        return ("error", exc.patch_index, exc.concrete_path, exc.js_name)


@settings(max_examples=300, deadline=None)
@given(obj=native_values, plan=st.lists(st.tuples(paths.filter(bool), st.sampled_from(NATIVE_POOL)), max_size=4,
                                         unique_by=lambda step: tuple(map(edge, step[0]))))
def test_inlined_native_bodies_match_calls(obj, plan):
    """The plan function with native bodies in place of calls gives what the function with
    calls gives, fallbacks and errors included, and leaves its input alone."""
    patches = [{"path": "".join(_path_text(segs)), "expression": src} for segs, src in plan]
    compiled = syncpatch.compile_patches(patches)
    program = compiled._program("to_host")
    assert program.inlined is not None
    before = copy.deepcopy(obj)
    inlined = _outcome(lambda o: compiled.to_host(o, None), obj)
    assert obj == before
    program.inlined = None  # the same plan, through calls only
    assert _outcome(lambda o: compiled.to_host(o, None), obj) == inlined


def _path_text(segs: tuple) -> list[str]:
    from syncpatch.runtime.paths import Index, Key

    out = []
    for seg in segs:
        if isinstance(seg, Key):
            out.append(f'[{seg.name!r}]'.replace("'", '"') if seg.bracket or not out else f".{seg.name}")
        elif isinstance(seg, Index):
            out.append(f"[{seg.index}]")
        else:
            out.append("[*]")
    text = "".join(out)
    return [text[1:] if text.startswith(".") else text]


def test_inlined_bodies_replace_the_calls() -> None:
    plan = syncpatch.compile_patches([{"path": "spec.ports[*].name", "expression": "value.toUpperCase()"}])
    program = plan._program("to_host")
    assert program.inlined is not None
    assert plan.to_host({"spec": {"ports": [{"name": "a"}, {"name": "é"}]}}, None) == {
        "spec": {"ports": [{"name": "A"}, {"name": "É"}]}}
    names = program.inlined.__code__.co_names
    assert "upper" in names  # the body is in the plan function, not behind a call


def test_every_native_body_of_the_differential_table_can_be_written_in_place() -> None:
    """Each native body the table exercises (``tests/compiler/test_native_tier.py``) can be
    written into a plan function: the return rewrite and the renaming cover every shape the
    native tier emits (a ``return`` inside a loop, say, would quietly fall back to calls)."""
    from syncpatch.runtime.plan_inline import inline_lines

    from ..compiler import test_native_tier as table
    checked = 0
    for source in table.EXPRESSIONS:
        try:
            fn = syncpatch.compile_expression(source)
        except syncpatch.CompileError:
            continue
        if not fn.native:
            continue
        names: dict[str, Any] = {}

        def bind(obj: Any, stem: str, names: dict[str, Any] = names) -> str:
            name = f"_{stem}{len(names)}"
            names[name] = obj
            return name

        assert fn.compiled.native is not None
        lines = inline_lines(fn.compiled.native, "v", "x", "_q1_", names, bind)
        if any(isinstance(n, ast.FunctionDef) for n in ast.walk(ast.parse(fn.compiled.native.text))):
            # a callback with statements is a local function (native_statements.block_function):
            # such a body is called from the plan, by design, never written in place
            assert lines is None, source
            continue
        assert lines is not None, source
        compile("def site(v, ctx):\n" + "".join(f"    {line}\n" for line in lines) + "    return x\n", "<site>", "exec")
        checked += 1
    assert checked > 150


def test_applying_a_plan_leaves_the_callers_context_alone() -> None:
    """The plan writes ``context.path`` (for expressions that read it, for a missing
    ``["key"]``, for errors): always into its own copy, on every path (inlined, with calls,
    step by step)."""
    plan = syncpatch.compile_patches([
        {"path": 'metadata.annotations["example.com/by"]', "expression": '"syncpatch"'},
        {"path": "metadata.labels[*]", "expression": '"v-" + value'},
        {"path": "spec.n", "expression": "value.toUpperCase()"},
    ])
    context = {"vcluster": {"name": "v"}, "hostObject": None, "virtualObject": None, "path": "caller"}
    before = copy.deepcopy(context)
    plan.to_host({"metadata": {"annotations": {}, "labels": {"a": "x"}}}, context)  # inlined
    plan.to_host({"metadata": {"annotations": {}, "labels": {"a": "é"}}}, context)  # a native fallback
    plan.to_host({"metadata": {"annotations": OrderedDict(), "labels": {"a": "x"}}}, context)  # closure walkers
    with pytest.raises(PatchError):
        plan.to_host({"spec": {"n": 3}}, context)  # an error
    assert context == before


@pytest.mark.parametrize("depth", [18, 19, 25, 60])
def test_paths_nested_past_cpythons_block_limit_take_the_closure_walkers(depth) -> None:
    """CPython refuses a function with more than 20 nested blocks (each [*] is a loop): such a
    plan keeps the closure walkers instead of raising SyntaxError at the caller."""
    plan = syncpatch.compile_patches([{"path": "a" + "[*]" * depth, "expression": '"x-" + value'}])
    obj: Any = "leaf"
    for _ in range(depth):
        obj = [obj]
    expected: Any = "x-leaf"
    for _ in range(depth):
        expected = [expected]
    assert plan.to_host({"a": obj}, None) == {"a": expected}
    assert plan.from_host({"a": obj}, None) == {"a": obj}


def test_an_inlined_body_for_a_missing_key_compiles_without_warnings():
    """A native body that slices ``value`` under a type test is written in place for a missing
    key too; ``value`` is then None, which must not reach the text as a literal (``None[1:]``
    compiles with a SyntaxWarning that a user would see, and fails under ``-W error``)."""
    import warnings

    patches = [{"path": "[*]", "expression": '"v-" + value'},
               {"path": '["b"]', "expression": 'typeof value === "string" ? value.slice(1) : value'}]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled = syncpatch.compile_patches(patches)
        assert compiled._program("to_host").inlined is not None
        assert compiled.to_host({"a": "x"}, None) == {"a": "v-x"}
        assert compiled.to_host(["x", "y"], None) == ["v-x", "v-y"]
