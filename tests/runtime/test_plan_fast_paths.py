"""Plan application fast paths: one realm per application, ``context.path`` built only when
a patch function can read it, no input clone for compiled expressions."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import syncpatch
from syncpatch.runtime.plan import PatchError, _reads_context

OBJ = {"items": [{"name": {"x": {"y": 1}}}, {"name": "a"}, {"name": {"x": {"y": 2}}}]}


def _plan(expression: str, path: str = "items[*].name") -> object:
    return syncpatch.compile_patches([{"path": path, "expression": expression}])


@pytest.mark.parametrize(
    ("source", "reads"),
    [
        ('"h-" + value', False),
        ("value.slice(2)", False),
        ('"fixed"', False),
        ("context.vcluster.name", True),
        ("value + context.path", True),
        ("value.map(x => context.path + x)", True),
    ],
)
def test_reads_context_is_the_compilers_fact(source: str, reads: bool) -> None:
    compiled = syncpatch.compile_expression(source).compiled
    assert compiled.facts.reads_context is reads
    assert _reads_context(compiled) is reads


def test_plain_callables_are_assumed_to_read_context() -> None:
    assert _reads_context(lambda value, context: value) is True


def test_failure_names_the_concrete_path_without_per_match_paths() -> None:
    plan = _plan("value.x.y")
    with pytest.raises(PatchError) as info:
        plan.to_host(copy.deepcopy(OBJ))  # type: ignore[attr-defined]
    assert info.value.concrete_path == "items.1.name"
    assert info.value.js_name == "TypeError"


def test_context_path_is_exact_when_read() -> None:
    plan = _plan("context.path")
    out = plan.to_host({"items": [{"name": "a"}, {"name": "b"}]})  # type: ignore[attr-defined]
    assert out == {"items": [{"name": "items.0.name"}, {"name": "items.1.name"}]}


def test_matches_stay_apart_in_a_shared_realm() -> None:
    # The first match patches a built-in; the next match must not see it.
    source = 'if (value === "a") { String.prototype.shout = function () { return "!" }; }\ntypeof "".shout'
    out = _plan(source).to_host({"items": [{"name": "a"}, {"name": "b"}]})  # type: ignore[attr-defined]
    assert out == {"items": [{"name": "function"}, {"name": "undefined"}]}
    assert syncpatch.compile_expression('typeof "".shout')("x") == "undefined"


def test_mutating_expression_does_not_touch_the_input() -> None:
    obj = {"items": [{"name": {"k": "v"}}]}
    before = copy.deepcopy(obj)
    out = _plan('value.k = "changed"; value').to_host(obj)  # type: ignore[attr-defined]
    assert obj == before
    assert out == {"items": [{"name": {"k": "changed"}}]}


def test_a_plan_inside_an_evaluation_runs_in_its_own_realm() -> None:
    # The thread's spare realm is busy: the application takes a fresh one and gives it back.
    from syncpatch.runtime.realm import local_state

    state = local_state()
    state.spare.busy = True
    try:
        out = _plan('"h-" + value').to_host({"items": [{"name": "a"}]})  # type: ignore[attr-defined]
    finally:
        state.spare.busy = False
    assert out == {"items": [{"name": "h-a"}]}
    assert state.realm is state.spare


def test_map_wildcard_failure_names_the_key() -> None:
    plan = _plan("value.x.y", "metadata.labels[*]")
    with pytest.raises(PatchError) as info:
        plan.to_host({"metadata": {"labels": {"a": {"x": {"y": 1}}, "b": "s"}}})  # type: ignore[attr-defined]
    assert info.value.concrete_path == "metadata.labels.b"


def test_map_wildcard_deletes_and_keeps_unchanged_values() -> None:
    obj = {"metadata": {"labels": {"a": "1", "drop": "x", "keep": {"n": 1}}}}
    source = 'value === "x" ? null : typeof value === "object" ? value : "v-" + value'
    out = _plan(source, "metadata.labels[*]").to_host(obj)  # type: ignore[attr-defined]
    assert out == {"metadata": {"labels": {"a": "v-1", "keep": {"n": 1}}}}
    assert obj == {"metadata": {"labels": {"a": "1", "drop": "x", "keep": {"n": 1}}}}


CONTEXT_PATH_SCRIPTS = [
    'value + "@" + context.path',  # the native tier
    'const c = context; value + "@" + c.path',  # 3.13 fuses the LOAD_FAST of `context` here
    'const c = context; try { value + "@" + c.path } catch (e) { "failed" }',  # the general tier only
    'function at(v) { return v + "@" + context.path } at(value)',  # context read by a closure
]


@pytest.mark.parametrize("source", CONTEXT_PATH_SCRIPTS)
def test_context_path_reaches_every_tier(source: str) -> None:
    """Whether a script reads ``context`` is the compiler's fact, never read from bytecode:
    CPython 3.13 fuses the ``LOAD_FAST`` a bytecode scan looked for, and plans then left
    ``context.path`` unset (``x@undefined``)."""
    plan = _plan(source)
    out = plan.to_host({"items": [{"name": "x"}, {"name": "y"}]})  # type: ignore[attr-defined]
    assert out == {"items": [{"name": "x@items.0.name"}, {"name": "y@items.1.name"}]}


def test_context_path_reaches_every_tier_of_an_artifact(tmp_path: Path) -> None:
    """The same through a ``compile-patches`` artifact, loaded as a syncer loads it."""
    from syncpatch.loader import load_plans
    from syncpatch.patches.build import check_config_text, render

    patches = [{"path": f"items[*].n{i}", "expression": source} for i, source in enumerate(CONTEXT_PATH_SCRIPTS)]
    report = check_config_text(json.dumps({"sync": {"toHost": {"configMaps": {"enabled": True, "patches": patches}}}}),
                               "c.json")
    (tmp_path / "artifact.py").write_text(render([report]))
    plan = load_plans(tmp_path / "artifact.py").plan("toHost", "configMaps")
    item = {f"n{i}": "x" for i in range(len(CONTEXT_PATH_SCRIPTS))}
    out = plan.to_host({"items": [item]})
    assert out == {"items": [{f"n{i}": f"x@items.0.n{i}" for i in range(len(CONTEXT_PATH_SCRIPTS))}]}



class _Labels(dict):  # a caller's mapping subclass: the inlined run hands it to a walker
    pass


@pytest.mark.parametrize("source", ['"v-" + value', 'value.toUpperCase()', 'value + "@" + context.path',
                                    'value + "@" + context.vcluster.name.toUpperCase()'])
def test_inlined_runs_leave_the_callers_context_as_it_was(source: str) -> None:
    """An inlined run whose bodies do not read the context reads the caller's dict as it is
    (no copy per application); a walker it hands a caller's subclass to sets ``path`` in a
    copy of its own (a failing call names its path there), so the caller's context is never
    written, whichever branch runs or fails."""
    plan = syncpatch.compile_patches([{"path": "metadata.labels[*]", "expression": source}])
    context = {"vcluster": {"name": "vc"}, "hostObject": None, "virtualObject": None, "path": "given"}
    before = copy.deepcopy(context)
    plain = plan.to_host({"metadata": {"labels": {"a": "x"}}}, context)
    subclass = plan.to_host({"metadata": {"labels": _Labels(a="x")}}, context)
    assert subclass["metadata"]["labels"]["a"] == plain["metadata"]["labels"]["a"]
    assert plain["metadata"]["labels"]["a"] in {"v-x", "X", "x@metadata.labels.a", "x@VC"}
    if "toUpperCase" in source:  # a failing call in the walker: null.toUpperCase(), or the name's
        broken = {"vcluster": {"name": None}} if "context" in source else {}
        context.update(broken)
        before.update(copy.deepcopy(broken))
        with pytest.raises(PatchError) as info:
            plan.to_host({"metadata": {"labels": _Labels(a="x", b=None)}}, context)
        assert info.value.concrete_path == ("metadata.labels.a" if broken else "metadata.labels.b")
    assert context == before
