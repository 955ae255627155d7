"""compile_patches / compile_config: plans, keyword directions, compile errors and warnings."""

import pytest

from syncpatch.patches import ConfigError, compile_config, compile_patches
from syncpatch.patches.compile import SWAPPED_FROM_HOST, format_loc, is_swapped
from syncpatch.runtime.plan import ExpressionPatch
from syncpatch.runtime.references import LabelsPatch, ReferencePatch


class CompileError(Exception):
    """Shaped like syncpatch.CompileError: 1-based line/column inside the expression."""

    def __init__(self, message, line, column):
        super().__init__(f"<expression>:{line}:{column}: {message}")
        self.message, self.line, self.column = message, line, column


def py_compiler(source):
    """A Python stand-in: the 'expression' is a Python lambda body over value/context."""
    if source.startswith("!"):
        raise CompileError("Unexpected token", 2, 5)
    code = compile(source, "<expr>", "eval")

    def patch(value, context, *, value_exists=True):
        return eval(code, {"value": value, "context": context, "value_exists": value_exists})
    return patch


def test_compile_patches_builds_typed_entries_in_order():
    plan = compile_patches([
        {"path": "a", "expression": "value + 1"},
        {"path": "spec.secretName", "reference": {"kind": "Secret", "apiVersion": "v1"}},
        {"path": "spec.selector", "labels": {}},
    ], compiler=py_compiler)
    assert [type(e) for e in plan.entries] == [ExpressionPatch, ReferencePatch, LabelsPatch]
    assert [e.index for e in plan.entries] == [0, 1, 2]
    assert plan.entries[1].reference.kind == "Secret"


def test_compile_error_carries_expression_line_and_column():
    with pytest.raises(ConfigError) as info:
        compile_patches([{"path": "a", "expression": "value"}, {"path": "b", "reverseExpression": "!bad"}],
                        compiler=py_compiler)
    (issue,) = info.value.issues
    assert issue.loc == ("patches", 1, "reverseExpression")
    assert (issue.line, issue.column) == (2, 5)
    assert issue.patch_path == "b" and "Unexpected token" in issue.message


def test_every_compile_error_is_collected():
    with pytest.raises(ConfigError) as info:
        compile_config({"sync": {"toHost": {"secrets": {"patches": [{"path": "a", "expression": "!x"}]}},
                                 "fromHost": {"nodes": {"patches": [{"path": "b", "expression": "!y",
                                                                      "reverseExpression": "!z"}]}}}},
                       compiler=py_compiler)
    assert [format_loc(i.loc) for i in info.value.issues] == [
        "sync.toHost.secrets.patches[0].expression",
        "sync.fromHost.nodes.patches[0].expression",
        "sync.fromHost.nodes.patches[0].reverseExpression",
    ]


def test_non_compile_exceptions_from_the_compiler_propagate():
    def broken(source):
        raise KeyError("bug")
    with pytest.raises(KeyError):
        compile_patches([{"path": "a", "expression": "1"}], compiler=broken)


CONFIG = {
    "sync": {
        "toHost": {
            "endpoints": {"patches": [{"path": "metadata.labels.x", "expression": "'to-' + value",
                                       "reverseExpression": "value[3:]"}]},
            "customResources": {"certificates.cert-manager.io": {
                "patches": [{"path": "spec.secretName", "reference": {"kind": "Secret", "apiVersion": "v1"}}]}},
        },
        "fromHost": {
            "nodes": {"enabled": True, "patches": [{"path": "metadata.labels.x", "expression": "'from-' + value"}]},
            "configMaps": {"enabled": True, "mappings": {"byName": {"shared/cfg": "default/cfg"}},
                           "patches": [{"path": "data.x", "reverseExpression": "'rev-' + value"}]},
            "customResources": {"issuers.cert-manager.io": {
                "patches": [{"path": "spec.x", "reverseExpression": "'rev-' + value"}]}},
        },
    }
}


def test_compile_config_returns_plans_per_resource():
    compiled = compile_config(CONFIG, compiler=py_compiler)
    assert set(compiled.plans) == {
        ("toHost", "endpoints"), ("toHost", "customResources/certificates.cert-manager.io"),
        ("fromHost", "nodes"), ("fromHost", "configMaps"),
        ("fromHost", "customResources/issuers.cert-manager.io"),
    }
    assert compiled.plan("toHost", "services").entries == ()
    assert compiled.enabled[("toHost", "endpoints")] is True
    assert compiled.enabled[("fromHost", "nodes")] is True
    assert compiled.warnings == ()


def test_to_host_resources_use_expression_towards_the_host():
    plan = compile_config(CONFIG, compiler=py_compiler).plan("toHost", "endpoints")
    obj = {"metadata": {"labels": {"x": "v"}}}
    assert plan.keywords == {"to_host": "expression", "from_host": "reverseExpression"}
    assert plan.from_host(plan.to_host(obj)) == obj


def test_from_host_nodes_run_expression_host_to_tenant():
    plan = compile_config(CONFIG, compiler=py_compiler).plan("fromHost", "nodes")
    assert plan.keywords == {"to_host": "reverseExpression", "from_host": "expression"}
    assert plan.from_host({"metadata": {"labels": {"x": "n"}}})["metadata"]["labels"]["x"] == "from-n"


@pytest.mark.parametrize("resource", ["configMaps", "customResources/issuers.cert-manager.io"])
def test_from_host_config_maps_and_custom_resources_run_reverse_expression_host_to_tenant(resource):
    plan = compile_config(CONFIG, compiler=py_compiler).plan("fromHost", resource)
    assert plan.keywords["from_host"] == "reverseExpression"
    obj = {"data": {"x": "v"}, "spec": {"x": "v"}}
    out = plan.from_host(obj)
    assert "rev-v" in (out["data"]["x"], out["spec"]["x"])


def test_keyword_rule_table():
    for resource in ("nodes", "events", "storageClasses", "ingressClasses", "priorityClasses", "runtimeClasses"):
        assert is_swapped("fromHost", resource)
    for resource in ("configMaps", "secrets", "customResources/x"):
        assert not is_swapped("fromHost", resource)
    assert not any(is_swapped("toHost", r) for r in SWAPPED_FROM_HOST)


def test_endpoints_disabled_with_services_enabled_warns_but_compiles():
    compiled = compile_config({"sync": {"toHost": {"endpoints": {"enabled": False}}}}, compiler=py_compiler)
    (warning,) = compiled.warnings
    assert format_loc(warning.loc) == "sync.toHost.endpoints.enabled"
    assert "no backends" in str(warning)
    assert compile_config({"sync": {"toHost": {"endpoints": {"enabled": False},
                                               "services": {"enabled": False}}}}, compiler=py_compiler).warnings == ()


def test_context_carries_config_merged_with_defaults():
    compiled = compile_config({"controlPlane": {"distro": {"k8s": {"enabled": True}}},
                               "sync": {"toHost": {"ingresses": {"enabled": True}}}}, compiler=py_compiler)
    ctx = compiled.context("vc", "vcluster-vc")
    cfg = ctx["vcluster"]["config"]
    assert cfg["controlPlane"]["distro"]["k8s"]["enabled"] is True
    assert cfg["sync"]["toHost"]["ingresses"]["enabled"] is True
    assert cfg["sync"]["toHost"]["pods"]["enabled"] is True  # default filled in
    assert ctx["vcluster"]["name"] == "vc" and ctx["hostObject"] is None


def test_reference_plans_use_concat_kinds():
    compiled = compile_config(CONFIG, compiler=py_compiler, concat_kinds=["Secret"])
    plan = compiled.plan("toHost", "customResources/certificates.cert-manager.io")
    cert = {"metadata": {"name": "c", "namespace": "app"}, "spec": {"secretName": "tls"}}
    out = plan.to_host(cert, compiled.context("vc", "host"))
    assert out["spec"]["secretName"] == "tls-x-app-x-vc"


def test_expressions_see_context_path():
    plan = compile_patches([{"path": "spec.ports[*].name", "expression": "context['path']"}], compiler=py_compiler)
    out = plan.to_host({"spec": {"ports": [{"name": "a"}, {"name": "b"}]}})
    assert [p["name"] for p in out["spec"]["ports"]] == ["spec.ports.0.name", "spec.ports.1.name"]


def test_kind_synced_to_host_feeds_perform_imports():
    compiled = compile_config({"sync": {"toHost": {"secrets": {"enabled": False},
                                                   "customResources": {"issuers.cert-manager.io": {}}}}},
                              compiler=py_compiler)
    assert compiled.kind_synced_to_host("ConfigMap") is True
    assert compiled.kind_synced_to_host("Secret") is False
    assert compiled.kind_synced_to_host("Ingress") is False
    assert compiled.kind_synced_to_host("issuers.cert-manager.io") is True
