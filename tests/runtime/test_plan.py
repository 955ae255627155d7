"""PatchPlan application with Python callables standing in for compiled expressions."""

import copy
import pickle

import pytest

from syncpatch.runtime.plan import ExpressionPatch, PatchError, PatchPlan
from syncpatch.runtime.values import UNDEFINED, JSErrorObject, JSThrow


def fn(body):
    """A patch function from a lambda over (value, context, exists)."""
    def patch(value, context, *, value_exists=True):
        return body(value, context, value_exists)
    return patch


def plan(*entries):
    return PatchPlan(entries=tuple(
        ExpressionPatch(index=i, path=p, expression=e, reverse_expression=r)
        for i, (p, e, r) in enumerate(entries)
    ))


PREFIX = fn(lambda v, c, x: "p-" + v)
UNPREFIX = fn(lambda v, c, x: v[2:])


def sample():
    return {
        "metadata": {"name": "web", "namespace": "default", "annotations": {"a.b/c": "1"}},
        "spec": {"ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
                 "selector": {"app": "web"}},
    }


def test_to_host_runs_expression_and_from_host_runs_reverse():
    p = plan(("spec.ports[*].name", PREFIX, UNPREFIX))
    obj = sample()
    host = p.to_host(obj)
    assert [port["name"] for port in host["spec"]["ports"]] == ["p-http", "p-https"]
    assert p.from_host(host) == obj


def test_input_is_never_mutated_and_untouched_subtrees_are_shared():
    p = plan(("spec.ports[0].name", PREFIX, None))
    obj = sample()
    before = copy.deepcopy(obj)
    out = p.to_host(obj)
    assert obj == before
    assert out is not obj and out["spec"] is not obj["spec"]
    assert out["metadata"] is obj["metadata"]  # copy-on-write: only the patched path is copied
    assert out["spec"]["selector"] is obj["spec"]["selector"]
    assert out["spec"]["ports"][1] is obj["spec"]["ports"][1]


def test_patch_function_cannot_mutate_input_through_value():
    def evil(value, context, *, value_exists=True):
        value["x"] = 1
        return value
    obj = sample()
    before = copy.deepcopy(obj)
    out = plan(("spec.selector", evil, None)).to_host(obj)
    assert obj == before
    assert out["spec"]["selector"] == {"app": "web", "x": 1}


def test_unchanged_result_returns_the_same_object():
    obj = sample()
    assert plan(("spec.ports[*].name", fn(lambda v, c, x: v), None)).to_host(obj) is obj


def test_empty_path_replaces_the_whole_object():
    p = plan(("", fn(lambda v, c, x: {"kind": "Replaced", "was": v["metadata"]["name"]}), None))
    assert p.to_host(sample()) == {"kind": "Replaced", "was": "web"}


def test_empty_path_returning_null_is_an_error():
    with pytest.raises(PatchError) as info:
        plan(("", fn(lambda v, c, x: None), None)).to_host(sample())
    assert info.value.patch_index == 0


def test_quoted_last_segment_is_a_plain_key():
    seen = []
    p = plan(('metadata.annotations."missing.key"', fn(lambda v, c, x: seen.append(v) or "new"), None))
    assert p.to_host(sample()) == sample()  # not created
    assert seen == []
    p = plan(('metadata.annotations."a.b/c"', fn(lambda v, c, x: None), None))
    assert p.to_host(sample())["metadata"]["annotations"] == {}


def test_terminal_bracket_key_runs_when_missing_and_creates_it():
    calls = []
    def create(value, context, *, value_exists=True):
        calls.append((value, value_exists, context["path"]))
        return "created"
    out = plan(('metadata.annotations["x.io/new"]', create, None)).to_host(sample())
    assert calls == [(None, False, "metadata.annotations")]  # vCluster passes the map's path
    assert out["metadata"]["annotations"] == {"a.b/c": "1", "x.io/new": "created"}


def test_terminal_bracket_key_with_null_result_creates_nothing():
    obj = sample()
    for result in (None, UNDEFINED):
        out = plan(('metadata.annotations["new"]', fn(lambda v, c, x, r=result: r), None)).to_host(obj)
        assert out == obj


def test_terminal_bracket_key_existing_gets_value_exists_true():
    calls = []
    plan(('metadata.annotations["a.b/c"]', fn(lambda v, c, x: calls.append((v, x)) or v), None)).to_host(sample())
    assert calls == [("1", True)]


def test_bracket_key_with_missing_parent_is_a_noop():
    obj = {"metadata": {"name": "x"}}
    out = plan(('metadata.annotations["new"]', fn(lambda v, c, x: "v"), None)).to_host(obj)
    assert out == obj


@pytest.mark.parametrize("result", [None, UNDEFINED])
def test_null_or_undefined_deletes_the_field(result):
    out = plan(("spec.selector", fn(lambda v, c, x: result), None)).to_host(sample())
    assert "selector" not in out["spec"]


def test_null_deletes_list_elements():
    drop_http = fn(lambda v, c, x: None if v["name"] == "http" else v)
    out = plan(("spec.ports[*]", drop_http, None)).to_host(sample())
    assert out["spec"]["ports"] == [{"name": "https", "port": 443}]
    out = plan(("spec.ports[1]", fn(lambda v, c, x: None), None)).to_host(sample())
    assert out["spec"]["ports"] == [{"name": "http", "port": 80}]


def test_patches_apply_in_list_order():
    p = plan(
        ("spec.ports[0].name", fn(lambda v, c, x: v + "-1"), None),
        ("spec.ports[0].name", fn(lambda v, c, x: v + "-2"), None),
    )
    assert p.to_host(sample())["spec"]["ports"][0]["name"] == "http-1-2"


def test_later_patch_sees_earlier_result_through_context_free_chain():
    p = plan(
        ("spec.selector", fn(lambda v, c, x: {"tier": v["app"]}), None),
        ("spec.selector.tier", fn(lambda v, c, x: v.upper()), None),
    )
    assert p.to_host(sample())["spec"]["selector"] == {"tier": "WEB"}


@pytest.mark.parametrize("path", ["spec.missing", "missing.deeper.path", "spec.ports[7].name",
                                  "spec.ports[*].missing", "metadata.name.deeper", "spec.selector[0]"])
def test_missing_path_or_parent_is_a_noop(path):
    called = []
    obj = sample()
    assert plan((path, fn(lambda v, c, x: called.append(v)), None)).to_host(obj) is obj
    assert called == []


def test_absent_expression_means_no_patch_in_that_direction():
    p = plan(("spec.ports[*].name", None, UNPREFIX))
    obj = sample()
    assert p.to_host(obj) is obj
    assert p.from_host(obj)["spec"]["ports"][0]["name"] == "tp"


def test_wildcard_expands_over_every_element_not_just_the_first():
    obj = {"items": [{"v": i} for i in range(5)]}
    out = plan(("items[*].v", fn(lambda v, c, x: v * 10), None)).to_host(obj)
    assert [item["v"] for item in out["items"]] == [0, 10, 20, 30, 40]


def test_several_wildcards_and_context_path():
    obj = {"spec": {"containers": [
        {"name": "a", "volumeMounts": [{"mountPath": "/x"}, {"mountPath": "/y"}]},
        {"name": "b", "volumeMounts": [{"mountPath": "/z"}]},
    ]}}
    paths = []
    def record(value, context, *, value_exists=True):
        paths.append(context["path"])
        return "/mnt" + value
    out = plan(("spec.containers[*].volumeMounts[*].mountPath", record, None)).to_host(obj)
    assert paths == [
        "spec.containers.0.volumeMounts.0.mountPath",
        "spec.containers.0.volumeMounts.1.mountPath",
        "spec.containers.1.volumeMounts.0.mountPath",
    ]
    assert [m["mountPath"] for c in out["spec"]["containers"] for m in c["volumeMounts"]] == ["/mnt/x", "/mnt/y", "/mnt/z"]


def test_map_wildcard_visits_every_key_with_quoted_context_paths():
    obj = {"metadata": {"annotations": {"a.io/x": "1", "plain": "2"}}}
    paths = []
    out = plan(("metadata.annotations[*]", fn(lambda v, c, x: paths.append(c["path"]) or v + "!"), None)).to_host(obj)
    assert out["metadata"]["annotations"] == {"a.io/x": "1!", "plain": "2!"}
    assert paths == ['metadata.annotations."a.io/x"', "metadata.annotations.plain"]


def test_wildcard_on_a_scalar_or_missing_is_a_noop():
    obj = {"a": "scalar"}
    assert plan(("a[*]", fn(lambda v, c, x: 1 / 0), None), ("b[*]", fn(lambda v, c, x: 1 / 0), None)).to_host(obj) is obj


def test_numeric_plain_segment_indexes_lists():
    out = plan(("spec.ports.1.name", PREFIX, None)).to_host(sample())
    assert out["spec"]["ports"][1]["name"] == "p-https"


def test_objects_and_arrays_may_be_returned():
    out = plan(("spec.selector", fn(lambda v, c, x: [{"k": v}]), None)).to_host(sample())
    assert out["spec"]["selector"] == [{"k": {"app": "web"}}]


def test_context_is_passed_with_defaults():
    seen = {}
    def grab(value, context, *, value_exists=True):
        seen.update(context)
        return value
    obj = sample()
    plan(("metadata.name", grab, None)).to_host(obj, {"vcluster": {"name": "vc", "namespace": "ns", "config": {}}})
    assert seen["vcluster"]["name"] == "vc"
    assert seen["virtualObject"] is obj and seen["hostObject"] is None
    assert seen["path"] == "metadata.name"
    seen.clear()
    p = PatchPlan(entries=(ExpressionPatch(index=0, path="metadata.name", reverse_expression=grab),))
    p.from_host(obj, {"hostObject": None})
    assert seen["hostObject"] is None  # an explicit null is kept


def test_error_leaves_input_untouched_and_raises_one_patch_error():
    def boom(value, context, *, value_exists=True):
        if value == "https":
            raise JSThrow(JSErrorObject("TypeError", "Cannot read properties of undefined (reading 'x')"))
        return value + "!"
    p = plan(
        ("metadata.name", PREFIX, None),
        ("spec.ports[*].name", boom, None),
    )
    obj = sample()
    before = copy.deepcopy(obj)
    with pytest.raises(PatchError) as info:
        p.to_host(obj)
    err = info.value
    assert obj == before
    assert (err.patch_index, err.path, err.concrete_path, err.js_name) == (
        1, "spec.ports[*].name", "spec.ports.1.name", "TypeError")
    assert "spec.ports[*].name" in str(err) and "TypeError" in str(err)
    assert "reading 'x'" in err.message
    assert err.direction == "to_host"


def test_patch_error_uses_js_name_attribute_and_pickles():
    class EvaluationError(Exception):
        js_name = "ReferenceError"
        message = "patched is not defined"
    def fail(value, context, *, value_exists=True):
        raise EvaluationError()
    with pytest.raises(PatchError) as info:
        plan(("metadata.name", fail, None)).to_host(sample())
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value)
    assert again.js_error == "ReferenceError: patched is not defined"


def test_python_exceptions_are_wrapped_too():
    """A Python failure in a patch function is a PatchError in JS terms, never its type name."""
    with pytest.raises(PatchError) as info:
        plan(("metadata.name", fn(lambda v, c, x: 1 / 0), None)).to_host(sample())
    assert info.value.js_name == "InternalError"
    assert "ZeroDivision" not in str(info.value) and "division" not in str(info.value)


def test_swapped_plan_exchanges_keywords():
    p = plan(("metadata.name", PREFIX, UNPREFIX)).swapped()
    assert p.keywords == {"to_host": "reverseExpression", "from_host": "expression"}
    assert p.from_host(sample())["metadata"]["name"] == "p-web"
    assert p.to_host(sample())["metadata"]["name"] == "b"


def test_is_empty_per_direction():
    p = plan(("metadata.name", PREFIX, None))
    assert not p.is_empty("to_host") and p.is_empty("from_host")


def test_with_imports_returns_a_result_object():
    result = plan(("metadata.name", PREFIX, None)).to_host(sample(), with_imports=True)
    assert result.object["metadata"]["name"] == "p-web" and result.imports == ()


def test_same_container_patched_twice_is_copied_once():
    obj = sample()
    p = plan(("spec.ports[0].name", PREFIX, None), ("spec.ports[1].name", PREFIX, None))
    out = p.to_host(obj)
    assert [x["name"] for x in out["spec"]["ports"]] == ["p-http", "p-https"]
    assert obj == sample()


def test_undefined_inside_returned_objects_follows_json_rules():
    out = plan(("spec.selector", fn(lambda v, c, x: {"a": UNDEFINED, "b": [1, UNDEFINED], "c": {"d": UNDEFINED}}), None),
               ('metadata.annotations["n"]', fn(lambda v, c, x: {"k": UNDEFINED}), None)).to_host(sample())
    assert out["spec"]["selector"] == {"b": [1, None], "c": {}}
    assert out["metadata"]["annotations"]["n"] == {}


def test_plans_are_plain_data_plus_functions():
    """What the compile-patches artifact relies on: plain constructors, no pydantic."""
    from syncpatch.runtime.references import LabelsPatch, ReferencePatch, ReferenceSpec

    entries = (
        ExpressionPatch(index=0, path="spec.ports[*].name", expression=PREFIX, reverse_expression=UNPREFIX),
        ReferencePatch(index=1, path="spec.secretName", reference=ReferenceSpec(kind="Secret", api_version="v1")),
        LabelsPatch(index=2, path="spec.selector"),
    )
    p = PatchPlan(entries=entries, to_host_keyword="expression", from_host_keyword="reverseExpression",
                  concat_kinds=frozenset({"Secret"}))
    assert p == PatchPlan(entries=entries, concat_kinds=frozenset({"Secret"}))
    assert entries[0].segments[2].__class__.__name__ == "Wildcard"
    assert p.to_host(sample())["spec"]["ports"][0]["name"] == "p-http"
