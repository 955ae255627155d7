"""compile_patches with the real JS compiler: errors, undeclared identifiers, valueExists and
virtualToHostDNS."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import syncpatch
from syncpatch.patches import ConfigError, compile_patches


CTX = {"vcluster": {"name": "vc", "namespace": "vcluster-vc", "config": {}}}
SVC = {"metadata": {"name": "web", "namespace": "default", "annotations": {"a": "1"}},
       "spec": {"ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}]}}


def test_prefix_round_trip():
    plan = compile_patches([{"path": "spec.ports[*].name", "expression": '"p-" + value',
                             "reverseExpression": "value.slice(2)"}])
    host = plan.to_host(copy.deepcopy(SVC), CTX)
    assert [p["name"] for p in host["spec"]["ports"]] == ["p-http", "p-https"]
    assert plan.from_host(host, CTX) == SVC


def test_run_time_type_error_becomes_one_patch_error():
    plan = compile_patches([{"path": "metadata.annotations.a", "expression": '"x" + value'},
                            {"path": "spec.ports[*].port", "expression": "value.missing.deeper"}])
    obj = copy.deepcopy(SVC)
    with pytest.raises(syncpatch.PatchError) as info:
        plan.to_host(obj, CTX)
    assert obj == SVC
    err = info.value
    assert (err.patch_index, err.path, err.concrete_path, err.js_name) == (
        1, "spec.ports[*].port", "spec.ports.0.port", "TypeError")
    assert "spec.ports[*].port" in str(err) and "TypeError" in str(err)


def test_undeclared_identifier_is_a_run_time_reference_error():
    plan = compile_patches([{"path": "metadata.annotations.a", "expression": "patched-config"}])
    with pytest.raises(syncpatch.PatchError) as info:
        plan.to_host(copy.deepcopy(SVC), CTX)
    assert info.value.js_name == "ReferenceError"


def test_compile_error_carries_line_and_column_of_the_expression():
    with pytest.raises(ConfigError) as info:
        compile_patches([{"path": "a", "expression": "value +\n  )"}])
    (issue,) = info.value.issues
    assert issue.loc == ("patches", 0, "expression")
    assert issue.line == 2 and issue.column is not None


def test_value_exists_for_missing_bracket_key():
    plan = compile_patches([{"path": 'metadata.annotations["new"]',
                             "expression": 'valueExists ? value : "created"'}])
    out = plan.to_host(copy.deepcopy(SVC), CTX)
    assert out["metadata"]["annotations"] == {"a": "1", "new": "created"}


def test_context_path_and_vcluster_in_expressions():
    plan = compile_patches([{"path": "spec.ports[*].name", "expression": "context.path + '@' + context.vcluster.name"}])
    out = plan.to_host(copy.deepcopy(SVC), CTX)
    assert [p["name"] for p in out["spec"]["ports"]] == ["spec.ports.0.name@vc", "spec.ports.1.name@vc"]


def test_virtual_to_host_dns_in_js():
    plan = compile_patches([{"path": "spec.externalName", "expression": "virtualToHostDNS(value)"}])
    out = plan.to_host({"spec": {"externalName": "db.data.svc.cluster.local"}}, CTX)
    assert out["spec"]["externalName"] == "db-x-data-x-vc.vcluster-vc.svc.cluster.local"
    with pytest.raises(syncpatch.PatchError) as info:
        plan.to_host({"spec": {"externalName": "not-a-service"}}, CTX)
    assert info.value.js_name == "TypeError" and "<name>.<namespace>.svc" in info.value.message


def test_objects_and_arrays_may_be_returned_from_js():
    plan = compile_patches([{"path": "spec.ports", "expression": "value.map(p => ({...p, port: p.port + 1}))"}])
    out = plan.to_host(copy.deepcopy(SVC), CTX)
    assert [p["port"] for p in out["spec"]["ports"]] == [81, 444]


def test_null_and_undefined_delete():
    plan = compile_patches([{"path": "metadata.annotations.a", "expression": "undefined"},
                            {"path": "spec.ports[0]", "expression": "null"}])
    out = plan.to_host(copy.deepcopy(SVC), CTX)
    assert out["metadata"]["annotations"] == {} and out["spec"]["ports"] == [{"name": "https", "port": 443}]


PAIRS = [
    ('"host-" + value', 'value.startsWith("host-") ? value.slice("host-".length) : value'),
    ("btoa(value)", "atob(value)"),
    ('value.split("").reverse().join("")', 'value.split("").reverse().join("")'),
]


@pytest.mark.parametrize(("forward", "reverse"), PAIRS)
def test_pairs_meant_to_cancel_round_trip(forward, reverse):
    plan = compile_patches([{"path": "metadata.labels[*]", "expression": forward, "reverseExpression": reverse},
                            {"path": "spec.ports[*].name", "expression": forward, "reverseExpression": reverse}])

    @settings(max_examples=60, deadline=None)
    @given(labels=st.dictionaries(st.text("abcxyz-./", min_size=1, max_size=8),
                                  st.text("abcdefghij-_. ", max_size=12), max_size=4),
           names=st.lists(st.text("abcdef-", min_size=1, max_size=10), max_size=4))
    def check(labels, names):
        obj = {"metadata": {"name": "o", "labels": labels},
               "spec": {"ports": [{"name": n, "port": i} for i, n in enumerate(names)]}}
        before = copy.deepcopy(obj)
        host = plan.to_host(obj, CTX)
        assert obj == before
        assert plan.from_host(host, CTX) == obj

    check()
