"""Name translation vectors. Expected values are derived independently here (hashlib plus
Python's own base-36 parser) from vCluster's documented algorithms, then pinned as literals."""

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from syncpatch.runtime.names import (
    NameTranslator,
    base36_encode,
    cluster_scoped_host_name,
    multi_namespace_host_namespace,
    safe_concat_name,
    single_namespace_host_name,
    single_namespace_short_name,
    translator_from_context,
    virtual_to_host_dns,
)


def sha_hex(text):
    return hashlib.sha256(text.encode()).hexdigest()


def test_safe_concat_name_short_names_are_joined_unchanged():
    assert safe_concat_name("my-secret", "x", "default", "x", "my-vcluster") == "my-secret-x-default-x-my-vcluster"


def test_safe_concat_name_at_exactly_63_bytes_is_kept():
    parts = ("a" * 31, "b" * 31)  # 31 + 1 + 31 = 63
    assert safe_concat_name(*parts) == "-".join(parts)


def test_safe_concat_name_truncates_over_63_bytes():
    full = "a" * 40 + "-x-some-namespace-x-my-vcluster"
    assert len(full) > 63
    expected = full[:52] + "-" + sha_hex(full)[:10]
    got = safe_concat_name("a" * 40, "x", "some-namespace", "x", "my-vcluster")
    assert got == expected == "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-x-some-name-bd1d2358c1"
    assert len(got) == 63


def test_safe_concat_name_replaces_dot_dash_after_the_cut():
    name = "a" * 51 + ".bbbbbbbbbbbbbbbbbbbb"  # byte 52 is the dot
    got = safe_concat_name(name)
    assert got == "a" * 51 + "-" + sha_hex(name)[:10]
    assert ".-" not in got


def independent_base36_prefix(digest: bytes, digits: int) -> str:
    """Top ``digits`` base-36 digits, checked with Python's int(..., 36) parser."""
    number = int.from_bytes(digest, "big")
    width = 1
    while 36 ** width <= number:
        width += 1
    top = number // 36 ** (width - digits)
    return top


def test_base36_matches_pythons_parser():
    for text in ["", "a", "my-secret-x-default-x-my-vcluster"]:
        digest = hashlib.sha256(text.encode()).digest()
        assert int(base36_encode(digest), 36) == int.from_bytes(digest, "big")
    assert base36_encode(b"\x00\x00\x01") == "001"
    assert base36_encode(b"\x00") == "0"


@pytest.mark.parametrize(
    ("name", "namespace", "vcluster", "expected"),
    [
        ("my-secret", "default", "my-vcluster", "v5ri45ovgqam9c"),
    ],
)
def test_short_name_vector(name, namespace, vcluster, expected):
    got = single_namespace_short_name(name, namespace, vcluster)
    digest = hashlib.sha256(f"{name}-x-{namespace}-x-{vcluster}".encode()).digest()
    assert got.startswith("v") and len(got) == 14
    assert int(got[1:], 36) == independent_base36_prefix(digest, 13)
    assert got == expected


def test_short_name_differs_per_namespace_and_vcluster():
    names = {single_namespace_short_name("s", ns, vc) for ns in ("a", "b") for vc in ("x", "y")}
    assert len(names) == 4
    assert single_namespace_short_name("", "ns", "vc") == ""


def test_long_single_namespace_and_cluster_scoped_names():
    assert single_namespace_host_name("web", "prod", "vc1") == "web-x-prod-x-vc1"
    assert cluster_scoped_host_name("fast", "vcluster-ns", "vc") == "vcluster-fast-x-vcluster-ns-x-vc"
    assert single_namespace_host_name("", "prod", "vc1") == ""


def test_multi_namespace_host_namespace_vector():
    got = multi_namespace_host_namespace("default", "vcluster-my-vcluster", "my-vcluster")
    expected = f"vcluster-{sha_hex('default')[:8]}-{sha_hex('vcluster-my-vcluster' + 'x' + 'my-vcluster')[:8]}"
    assert got == expected == "vcluster-37a8eec1-b6420b83"


@pytest.mark.parametrize(
    ("dns", "expected"),
    [
        ("my-svc.default.svc", "my-svc-x-default-x-vc.vcluster-vc.svc"),
        ("my-svc.default.svc.cluster.local", "my-svc-x-default-x-vc.vcluster-vc.svc.cluster.local"),
        ("my-svc.default.svc.cluster.local.", "my-svc-x-default-x-vc.vcluster-vc.svc.cluster.local."),
        ("db.team-a.svc.corp.example", "db-x-team-a-x-vc.vcluster-vc.svc.corp.example"),
    ],
)
def test_virtual_to_host_dns(dns, expected):
    assert virtual_to_host_dns(dns, vcluster_name="vc", vcluster_namespace="vcluster-vc") == expected


def test_virtual_to_host_dns_uses_safe_concat_for_long_names():
    name = "x" * 60
    got = virtual_to_host_dns(f"{name}.default.svc", vcluster_name="vc", vcluster_namespace="host")
    assert got == f"{safe_concat_name(name, 'x', 'default', 'x', 'vc')}.host.svc"


@pytest.mark.parametrize("bad", ["my-svc", "my-svc.default", "my-svc.default.cluster.local", "a..svc",
                                 ".default.svc", "a.b.svc..local", 42, None])
def test_virtual_to_host_dns_rejects_other_shapes_showing_the_expected_form(bad):
    with pytest.raises(ValueError) as info:
        virtual_to_host_dns(bad, vcluster_name="vc", vcluster_namespace="ns")
    assert "<name>.<namespace>.svc[.<cluster-domain>]" in str(info.value)


def test_translator_single_namespace_defaults_to_short_names():
    tr = NameTranslator("vc", "host-ns")
    assert tr.host_name("db-creds", "app", "Secret") == single_namespace_short_name("db-creds", "app", "vc")
    assert tr.host_namespace_for("app") == "host-ns"
    assert tr.host_name("fast", "", "StorageClass") == "vcluster-fast-x-host-ns-x-vc"


def test_translator_concat_form_is_opt_in_per_kind():
    tr = NameTranslator("vc", "host-ns", concat_kinds=frozenset({"Secret"}))
    assert tr.host_name("db-creds", "app", "Secret") == "db-creds-x-app-x-vc"
    assert tr.host_name("db-creds", "app", "ConfigMap").startswith("v")


def test_translator_multi_namespace_keeps_names_and_maps_namespaces():
    tr = NameTranslator("vc", "host-ns", mode="multi-namespace")
    assert tr.host_name("db-creds", "app", "Secret") == "db-creds"
    assert tr.host_namespace_for("app") == multi_namespace_host_namespace("app", "host-ns", "vc")
    assert tr.host_namespace_for("") == ""


@pytest.mark.parametrize(
    ("config", "mode"),
    [
        ({}, "single-namespace"),
        ({"sync": {"toHost": {"namespaces": {"enabled": True}}}}, "multi-namespace"),
        ({"experimental": {"multiNamespaceMode": {"enabled": True}}}, "single-namespace"),  # removed in 0.33
        ({"sync": {"toHost": {"namespaces": {"enabled": False}}}}, "single-namespace"),
    ],
)
def test_translator_from_context(config, mode):
    tr = translator_from_context({"vcluster": {"name": "vc", "namespace": "ns", "config": config}})
    assert (tr.vcluster_name, tr.host_namespace, tr.mode) == ("vc", "ns", mode)


label_parts = st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-.", min_size=1, max_size=40),
                       min_size=1, max_size=6)


@given(label_parts)
def test_safe_concat_name_never_exceeds_63_bytes(parts):
    got = safe_concat_name(*parts)
    full = "-".join(parts)
    if len(full) <= 63:
        assert got == full
    else:
        assert len(got) <= 63 and got.endswith(sha_hex(full)[:10])
        assert got == go_replace_all(full.encode()[:52].decode("utf-8", "ignore") + "-" + sha_hex(full)[:10])


def go_replace_all(text: str, old: str = ".-", new: str = "-") -> str:
    """Go's strings.ReplaceAll, written as its left-to-right scan: one pass, no re-scan of
    what a replacement produced ("..-" becomes ".-", as vCluster's SafeConcatName gives)."""
    out, i = [], 0
    while i < len(text):
        if text.startswith(old, i):
            out.append(new)
            i += len(old)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def test_dot_dot_dash_keeps_one_dot_dash_as_go_does():
    name = "a" * 50 + "..bbbbbbbbbbbbbbbbbbbb"  # bytes 51-52 are dots, then the cut adds "-"
    got = safe_concat_name(name)
    assert got == "a" * 50 + ".-" + sha_hex(name)[:10]
