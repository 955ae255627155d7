"""Reference and labels patches, import records and the in-memory object store."""

import copy

import pytest

from syncpatch.runtime.names import (
    NameTranslator,
    multi_namespace_host_namespace,
    single_namespace_short_name,
)
from syncpatch.runtime.plan import PatchError, PatchPlan
from syncpatch.runtime.references import (
    IMPORTED_ANNOTATION,
    CONTROLLER_LABEL,
    MARKER_LABEL,
    NAMESPACE_LABEL,
    ImportRecord,
    InMemoryObjectStore,
    LabelsPatch,
    ReferencePatch,
    ReferenceSpec,
    host_label,
    perform_imports,
    untranslated_label,
    virtual_label,
)

CTX = {"vcluster": {"name": "vc", "namespace": "vcluster-vc", "config": {}}}
MULTI_CTX = {"vcluster": {"name": "vc", "namespace": "vcluster-vc",
                          "config": {"sync": {"toHost": {"namespaces": {"enabled": True}}}}}}


def ref_plan(path, **spec):
    return PatchPlan(entries=(ReferencePatch(index=0, path=path, reference=ReferenceSpec(**spec)),))


def certificate():
    return {
        "apiVersion": "cert-manager.io/v1",
        "kind": "Certificate",
        "metadata": {"name": "web", "namespace": "app"},
        "spec": {"secretName": "web-tls",
                 "issuerRef": {"name": "ca", "kind": "Issuer", "group": "cert-manager.io"}},
    }


def test_name_reference_to_host_uses_the_short_form_and_records_an_import():
    p = ref_plan("spec.secretName", kind="Secret", api_version="v1")
    obj = certificate()
    result = p.to_host(obj, CTX, with_imports=True)
    short = single_namespace_short_name("web-tls", "app", "vc")
    assert result.object["spec"]["secretName"] == short
    assert obj == certificate()
    assert result.imports == (ImportRecord("v1", "Secret", "app", "web-tls", "vcluster-vc", short, "to_host"),)


def test_concat_form_per_kind_via_translator():
    p = ref_plan("spec.secretName", kind="Secret", api_version="v1")
    tr = NameTranslator("vc", "vcluster-vc", concat_kinds=frozenset({"Secret"}))
    assert p.to_host(certificate(), CTX, translator=tr)["spec"]["secretName"] == "web-tls-x-app-x-vc"


def test_object_reference_with_relative_paths_and_fallbacks():
    obj = certificate()
    obj["spec"]["issuerRef"]["namespace"] = "shared"
    p = ref_plan("spec.issuerRef", kind="ClusterIssuer", api_version="cert-manager.io/v1",
                 name_path="name", namespace_path="namespace", kind_path="kind")
    result = p.to_host(obj, CTX, with_imports=True)
    ref = result.object["spec"]["issuerRef"]
    assert ref["name"] == single_namespace_short_name("ca", "shared", "vc")
    assert ref["namespace"] == "vcluster-vc"
    assert ref["kind"] == "Issuer" and ref["group"] == "cert-manager.io"
    (record,) = result.imports
    assert (record.kind, record.api_version, record.namespace) == ("Issuer", "cert-manager.io/v1", "shared")


def test_namespace_falls_back_to_the_objects_namespace_and_is_not_added():
    p = ref_plan("spec.issuerRef", kind="Issuer", name_path="name", namespace_path="namespace")
    result = p.to_host(certificate(), CTX, with_imports=True)
    assert "namespace" not in result.object["spec"]["issuerRef"]
    assert result.imports[0].namespace == "app"


def test_multi_namespace_keeps_names_and_maps_namespace():
    obj = certificate()
    obj["spec"]["issuerRef"]["namespace"] = "shared"
    p = ref_plan("spec.issuerRef", kind="Issuer", name_path="name", namespace_path="namespace")
    ref = p.to_host(obj, MULTI_CTX)["spec"]["issuerRef"]
    assert ref["name"] == "ca"
    assert ref["namespace"] == multi_namespace_host_namespace("shared", "vcluster-vc", "vc")


def test_reference_round_trip_restores_the_tenant_value():
    p = ref_plan("spec.issuerRef", kind="Issuer", name_path="name", namespace_path="namespace")
    virtual = certificate()
    virtual["spec"]["issuerRef"]["namespace"] = "shared"
    host = p.to_host(virtual, CTX)
    back = p.from_host(host, {**CTX, "virtualObject": virtual, "hostObject": host})
    assert back == virtual
    p2 = ref_plan("spec.secretName", kind="Secret")
    host2 = p2.to_host(certificate(), CTX)
    assert p2.from_host(host2, {**CTX, "virtualObject": certificate()}) == certificate()


def test_from_host_reference_to_a_host_object_imports_it_under_its_own_name():
    host = certificate()
    host["metadata"]["namespace"] = "vcluster-vc"
    host["spec"]["secretName"] = "shared-wildcard-tls"
    result = ref_plan("spec.secretName", kind="Secret", api_version="v1").from_host(
        host, {**CTX, "virtualObject": certificate()}, with_imports=True)
    assert result.object["spec"]["secretName"] == "shared-wildcard-tls"
    assert result.imports == (ImportRecord("v1", "Secret", "app", "shared-wildcard-tls", "vcluster-vc",
                                           "shared-wildcard-tls", "from_host"),)


def test_reference_over_wildcard_list():
    pod = {"metadata": {"name": "p", "namespace": "app"},
           "spec": {"imagePullSecrets": [{"name": "a"}, {"name": "b"}]}}
    result = ref_plan("spec.imagePullSecrets[*].name", kind="Secret", api_version="v1").to_host(
        pod, CTX, with_imports=True)
    assert [s["name"] for s in result.object["spec"]["imagePullSecrets"]] == [
        single_namespace_short_name(n, "app", "vc") for n in "ab"]
    assert [r.name for r in result.imports] == ["a", "b"]


def test_wrong_reference_shape_is_a_type_error():
    p = ref_plan("spec.issuerRef", kind="Issuer")  # an object, but no namePath
    with pytest.raises(PatchError) as info:
        p.to_host(certificate(), CTX)
    assert info.value.js_name == "TypeError" and "namePath" in info.value.message


def test_missing_reference_is_a_noop():
    assert ref_plan("spec.nothing", kind="Secret").to_host(certificate(), CTX) == certificate()


def labels_plan(path):
    return PatchPlan(entries=(LabelsPatch(index=0, path=path),))


def selector_object():
    return {"metadata": {"name": "np", "namespace": "app"},
            "spec": {"podSelector": {
                "matchLabels": {"app": "web", NAMESPACE_LABEL: "forged"},
                "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a"]}]}}}


def test_labels_selector_to_host_translates_keys_and_adds_no_marker():
    """vCluster's HostLabelSelector: the keys vCluster sets itself are moved aside; a selector
    gets no marker labels (vCluster adds those to label maps only)."""
    out = labels_plan("spec.podSelector").to_host(selector_object(), CTX)
    sel = out["spec"]["podSelector"]
    assert sel["matchLabels"] == {"app": "web", host_label(NAMESPACE_LABEL, "vc"): "forged"}
    assert host_label(NAMESPACE_LABEL, "vc").startswith("vcluster.loft.sh/label-vc-x-")
    assert sel["matchExpressions"] == [{"key": "tier", "operator": "In", "values": ["a"]}]


@pytest.mark.parametrize("key", ["release", NAMESPACE_LABEL, MARKER_LABEL, CONTROLLER_LABEL])
def test_the_label_keys_vcluster_translates(key):
    moved = host_label(key, "vc")
    assert moved != key and moved.startswith("vcluster.loft.sh/label-vc-x-")
    assert untranslated_label(moved, "vc") == key
    assert host_label("app.kubernetes.io/name", "vc") == "app.kubernetes.io/name"


def test_labels_round_trip():
    p = labels_plan("spec.podSelector")
    host = p.to_host(selector_object(), CTX)
    assert p.from_host(host, CTX) == selector_object()


def test_a_selector_back_keeps_a_key_vcluster_translates_as_it_is():
    """VirtualLabelSelector: a host selector on vCluster's own marker keeps that key."""
    host = {"spec": {"podSelector": {"matchLabels": {MARKER_LABEL: "vc", host_label("release", "vc"): "r"}}}}
    back = labels_plan("spec.podSelector").from_host(host, CTX)
    assert back["spec"]["podSelector"]["matchLabels"] == {MARKER_LABEL: "vc", "release": "r"}


def test_labels_plain_map_gets_the_marker_labels():
    svc = {"metadata": {"namespace": "app"}, "spec": {"selector": {"app": "web", "release": "r"}}}
    out = labels_plan("spec.selector").to_host(svc, CTX)
    assert out["spec"]["selector"] == {"app": "web", host_label("release", "vc"): "r",
                                       MARKER_LABEL: "vc", NAMESPACE_LABEL: "app"}


def test_a_cluster_scoped_object_gets_the_cluster_marker_value():
    obj = {"metadata": {"name": "n"}, "spec": {"labels": {"a": "b"}}}
    out = labels_plan("spec.labels").to_host(obj, CTX)
    assert out["spec"]["labels"] == {"a": "b", MARKER_LABEL: "vcluster-vc-x-vc"}


def test_a_tenants_forged_moved_aside_key_is_dropped_from_a_map():
    forged = host_label(MARKER_LABEL, "vc")
    obj = {"metadata": {"namespace": "app"}, "spec": {"labels": {forged: "x", "a": "b"}}}
    out = labels_plan("spec.labels").to_host(obj, CTX)
    assert forged not in out["spec"]["labels"]


def test_markers_follow_the_host_map_when_there_is_one():
    obj = {"metadata": {"namespace": "app"}, "spec": {"labels": {"a": "b"}}}
    unmarked = {**CTX, "hostObject": {"spec": {"labels": {"a": "old", CONTROLLER_LABEL: "ctl"}}}}
    out = labels_plan("spec.labels").to_host(obj, unmarked)
    assert out["spec"]["labels"] == {"a": "b", CONTROLLER_LABEL: "ctl"}  # no marker, controller kept
    marked = {**CTX, "hostObject": {"spec": {"labels": {MARKER_LABEL: "vc"}}}}
    assert MARKER_LABEL in labels_plan("spec.labels").to_host(obj, marked)["spec"]["labels"]
    metadata = {**CTX, "hostObject": {"metadata": {"labels": {"a": "old"}}}}
    obj = {"metadata": {"namespace": "app", "labels": {"a": "b"}}}
    assert labels_plan("metadata.labels").to_host(obj, metadata)["metadata"]["labels"][MARKER_LABEL] == "vc"


def test_a_label_map_back_drops_the_syncers_labels_and_restores_moved_keys():
    host = {"spec": {"labels": {"a": "b", MARKER_LABEL: "vc", NAMESPACE_LABEL: "app", CONTROLLER_LABEL: "c",
                                "vcluster.loft.sh/ns-label-vc-x-1234567890": "n", "release": "host-only",
                                host_label("release", "vc"): "r"}}}
    back = labels_plan("spec.labels").from_host(host, CTX)
    assert back["spec"]["labels"] == {"a": "b", "release": "r"}
    tenant = {**CTX, "virtualObject": {"spec": {"labels": {MARKER_LABEL: "tenant's own"}}}}
    back = labels_plan("spec.labels").from_host(host, tenant)
    assert back["spec"]["labels"] == {"a": "b", "release": "r", MARKER_LABEL: "tenant's own"}


def test_a_label_map_round_trips():
    obj = {"metadata": {"namespace": "app"}, "spec": {"labels": {"a": "b", "release": "r"}}}
    p = labels_plan("spec.labels")
    assert p.from_host(p.to_host(obj, CTX), CTX) == obj


def test_virtual_label_has_no_tenant_form_for_the_keys_vcluster_translates():
    assert virtual_label(MARKER_LABEL, "vc") is None
    assert virtual_label("release", "vc") is None
    assert virtual_label("app", "vc") == "app"


def secret(name, namespace, data="x"):
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name, "namespace": namespace,
            "uid": "123", "resourceVersion": "9"}, "data": {"k": data}}


def record(direction="to_host"):
    return ImportRecord("v1", "Secret", "app", "web-tls", "vcluster-vc", "vshort", direction)


def test_import_host_object_into_tenant():
    store = InMemoryObjectStore()
    store.put("host", secret("vshort", "vcluster-vc"))
    (outcome,) = perform_imports([record()], store)
    assert outcome.action == "imported-to-tenant"
    copy_ = store.get("virtual", "v1", "Secret", "app", "web-tls")
    assert copy_["metadata"]["annotations"][IMPORTED_ANNOTATION] == "true"
    assert "uid" not in copy_["metadata"] and copy_["data"] == {"k": "x"}


def test_import_tenant_object_into_host_only_when_sync_enabled():
    store = InMemoryObjectStore()
    original = secret("web-tls", "app")
    store.put("virtual", original)
    snapshot = copy.deepcopy(original)
    assert perform_imports([record()], store)[0].action == "sync-disabled"
    assert store.get("host", "v1", "Secret", "vcluster-vc", "vshort") is None
    out = perform_imports([record()], store, sync_enabled=lambda kind: kind == "Secret", vcluster_name="vc")
    assert out[0].action == "imported-to-host"
    host = store.get("host", "v1", "Secret", "vcluster-vc", "vshort")
    assert host["metadata"]["annotations"][IMPORTED_ANNOTATION] == "true"
    assert host["metadata"]["annotations"]["vcluster.loft.sh/object-name"] == "web-tls"
    assert host["metadata"]["labels"][MARKER_LABEL] == "vc"
    assert original == snapshot


def test_import_present_and_missing():
    store = InMemoryObjectStore()
    assert perform_imports([record()], store)[0].action == "missing"
    store.put("host", secret("vshort", "vcluster-vc"))
    store.put("virtual", secret("web-tls", "app"))
    assert perform_imports([record()], store)[0].action == "present"


def test_store_keys_by_group_not_version():
    store = InMemoryObjectStore()
    store.put("host", {"apiVersion": "cert-manager.io/v1", "kind": "Issuer", "metadata": {"name": "a", "namespace": "n"}})
    assert store.get("host", "cert-manager.io/v1beta1", "Issuer", "n", "a") is not None
    assert store.get("virtual", "cert-manager.io/v1", "Issuer", "n", "a") is None
