"""Config models: aliases, defaults, extra="forbid" and every validation rule, with locations."""

import pytest

from syncpatch.patches import ConfigError, TenantConfig, compile_config, compile_patches
from syncpatch.patches.compile import format_loc


def fake_compiler(source):
    """Stands in for compile_expression in structural tests (no JS needed)."""
    def patch(value, context, *, value_exists=True):
        return source
    return patch


def issues_of(patches=None, config=None):
    with pytest.raises(ConfigError) as info:
        if config is not None:
            compile_config(config, compiler=fake_compiler)
        else:
            compile_patches(patches, compiler=fake_compiler)
    return info.value.issues


def test_defaults_follow_vcluster():
    sync = TenantConfig.model_validate({}).sync
    enabled = {name: getattr(sync.to_host, name).enabled
               for name in ("endpoints", "services", "secrets", "config_maps", "pods",
                            "persistent_volume_claims", "ingresses", "service_accounts",
                            "network_policies", "namespaces")}
    assert enabled == {"endpoints": True, "services": True, "secrets": True, "config_maps": True,
                       "pods": True, "persistent_volume_claims": True, "ingresses": False,
                       "service_accounts": False, "network_policies": False, "namespaces": False}
    assert sync.from_host.events.enabled is True
    assert sync.from_host.nodes.enabled is False
    assert sync.from_host.storage_classes.enabled == "auto"


def test_camel_case_aliases_and_snake_case_names():
    cfg = TenantConfig.model_validate({"sync": {"toHost": {"configMaps": {"enabled": False, "all": True},
                                                           "persistentVolumeClaims": {"enabled": False}}}})
    assert cfg.sync.to_host.config_maps.all is True
    assert cfg.sync.to_host.persistent_volume_claims.enabled is False
    dumped = cfg.sync.model_dump(by_alias=True)
    assert "toHost" in dumped and "configMaps" in dumped["toHost"]


def test_other_top_level_sections_are_modelled_too():
    cfg = TenantConfig.model_validate({"controlPlane": {"distro": {"k8s": {"enabled": True}}}})
    assert cfg.model_dump(by_alias=True, exclude_none=True)["controlPlane"] == {"distro": {"k8s": {"enabled": True}}}
    with pytest.raises(ConfigError) as err:
        compile_config({"controlPlane": {"distro": {"k8s": {"enabeld": True}}}})
    (issue,) = err.value.issues
    assert format_loc(issue.loc) == "controlPlane.distro.k8s.enabeld"
    assert "unknown field `enabeld` in `controlPlane.distro.k8s`" in issue.message


def test_unknown_keys_are_errors_with_their_location():
    (issue,) = issues_of(config={"sync": {"toHost": {"endpoints": {"patches": [
        {"path": "a", "reverseExpresion": "value"}]}}}})
    assert format_loc(issue.loc) == "sync.toHost.endpoints.patches[0].reverseExpresion"
    assert "unknown field `reverseExpresion` in `sync.toHost.endpoints.patches[0]`" in issue.message
    (issue,) = issues_of(config={"sync": {"toHost": {"endpoint": {}}}})
    assert format_loc(issue.loc) == "sync.toHost.endpoint"


def test_path_is_required():
    (issue,) = issues_of([{"expression": "1"}])
    assert issue.loc == ("patches", 0, "path")


@pytest.mark.parametrize(
    ("patch", "found"),
    [
        ({"path": "a"}, "none"),
        ({"path": "a", "expression": "1", "reference": {"kind": "Secret", "apiVersion": "v1"}}, "expression/reverseExpression and reference"),
        ({"path": "a", "reverseExpression": "1", "labels": {}}, "expression/reverseExpression and labels"),
        ({"path": "a", "reference": {"kind": "Secret", "apiVersion": "v1"}, "labels": {}}, "reference and labels"),
    ],
)
def test_exactly_one_mode(patch, found):
    (issue,) = issues_of([patch])
    assert issue.loc == ("patches", 0)
    assert f"found {found}" in issue.message and issue.patch_path == "a"


def test_expression_and_reverse_expression_together_are_one_mode():
    plan = compile_patches([{"path": "a", "expression": "x", "reverseExpression": "y"}], compiler=fake_compiler)
    assert len(plan.entries) == 1


def test_labels_takes_no_options():
    (issue,) = issues_of([{"path": "spec.selector", "labels": {"translate": True}}])
    assert issue.loc == ("patches", 0, "labels", "translate")


def test_duplicate_paths_are_errors():
    (issue,) = issues_of([{"path": "a", "expression": "1"}, {"path": "b", "expression": "1"},
                          {"path": "a", "expression": "2"}])
    assert issue.loc == ("patches", 2) and "patches 0, 2" in issue.message and issue.patch_path == "a"


@pytest.mark.parametrize(
    "pair",
    [
        [{"path": "a", "expression": "1", "reverseExpression": "2"}, {"path": "a", "reverseExpression": "3"}],
        [{"path": "a", "expression": "1"}, {"path": "a", "expression": "2"}],
        [{"path": "a", "expression": "1"}, {"path": "a", "reference": {"kind": "Secret", "apiVersion": "v1"}}],
        [{"path": "a", "reverseExpression": "1"}, {"path": "a", "reverseExpression": "2"}],
    ],
)
def test_duplicate_path_exception_is_narrow(pair):
    assert issues_of(pair)


def test_expression_only_and_reverse_only_may_share_a_path():
    plan = compile_patches([{"path": "a", "expression": "1"}, {"path": "a", "reverseExpression": "2"}],
                           compiler=fake_compiler)
    assert plan.to_host({"a": 0}) == {"a": "1"} and plan.from_host({"a": 0}) == {"a": "2"}


def test_three_entries_on_one_path_are_an_error():
    assert issues_of([{"path": "a", "expression": "1"}, {"path": "a", "reverseExpression": "2"},
                      {"path": "a", "expression": "3"}])


def test_duplicates_inside_a_config_are_located():
    (issue,) = issues_of(config={"sync": {"fromHost": {"nodes": {"patches": [
        {"path": "a", "expression": "1"}, {"path": "a", "expression": "2"}]}}}})
    assert format_loc(issue.loc) == "sync.fromHost.nodes.patches[1]"


@pytest.mark.parametrize("path", ["metadata.name", "metadata.namespace", ".metadata..name", 'metadata["name"]'])
def test_metadata_name_and_namespace_are_not_targets(path):
    (issue,) = issues_of([{"path": path, "expression": "1"}])
    assert issue.loc == ("patches", 0, "path") and "name and namespace" in issue.message


def test_other_metadata_fields_are_fine():
    compile_patches([{"path": "metadata.labels", "expression": "1"},
                     {"path": "metadata.name.x", "expression": "1"}], compiler=fake_compiler)


@pytest.mark.parametrize("field", ["namespacePath", "kindPath", "apiVersionPath"])
def test_name_path_required_with_other_relative_paths(field):
    (issue,) = issues_of([{"path": "spec.ref", "reference": {"kind": "Secret", "apiVersion": "v1", field: "x"}}])
    assert issue.loc == ("patches", 0, "reference") and field in issue.message and "namePath" in issue.message
    assert issue.patch_path == "spec.ref"


def test_path_that_does_not_parse_reports_the_column():
    (issue,) = issues_of([{"path": "metadata.annotations['x']", "expression": "1"}])
    assert issue.loc == ("patches", 0, "path")
    assert (issue.line, issue.column) == (1, 22)
    assert "double quotes" in issue.message and issue.patch_path == "metadata.annotations['x']"


def test_relative_reference_paths_must_parse():
    (issue,) = issues_of([{"path": "spec.ref", "reference": {"kind": "S", "namePath": "a[]"}}])
    assert issue.loc == ("patches", 0, "reference", "namePath") and issue.column == 3


def test_all_errors_are_reported_not_just_the_first():
    issues = issues_of(config={"sync": {
        "toHost": {"secrets": {"patches": [{"path": "a['b']", "expression": "1"}, {"path": "x"}]}},
        "fromHost": {"nodes": {"patches": [{"path": "metadata.name", "expression": "1"}]}},
    }})
    assert sorted(format_loc(i.loc) for i in issues) == [
        "sync.fromHost.nodes.patches[0].path",
        "sync.toHost.secrets.patches[0].path",
        "sync.toHost.secrets.patches[1]",
    ]


def test_config_error_str_lists_locations():
    with pytest.raises(ConfigError) as info:
        compile_patches([{"path": "a"}], compiler=fake_compiler)
    assert "1 config error" in str(info.value) and "patches[0]" in str(info.value)


def test_duplicates_are_found_across_spellings():
    (issue,) = issues_of([{"path": "metadata.labels.app", "expression": "1"},
                          {"path": '.metadata.labels["app"]', "expression": "2"}])
    assert issue.loc == ("patches", 1) and "patches 0, 1" in issue.message
