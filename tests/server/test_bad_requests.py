"""Hostile and broken requests get a 400/413/415/422 Status, never a 500 or a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syncpatch.server.http import MAX_BODY

from .conftest import BASE, Api, config
from .test_semantics import assert_status

MERGE = {"Content-Type": "application/merge-patch+json"}
JSONP = {"Content-Type": "application/json-patch+json"}


def post_raw(api: Api, body: bytes, ctype: str = "application/json") -> Any:
    return api.req("POST", BASE, content=body, headers={"Content-Type": ctype})


@pytest.mark.parametrize("body", [b"{", b"[1,2", b"\xff\xfe", b'{"a": }', b"", b"   ", b'{"a": NaN}',
                                  b'{"metadata": {"generation": Infinity}}'])
def test_malformed_json_is_400(sqlite_api: Api, body: bytes) -> None:
    assert_status(post_raw(sqlite_api, body), 400, "BadRequest")


@pytest.mark.parametrize("body", [b"a: [1, 2", b"key: value\n  bad: indent", b"\t- x", b"a: *missing",
                                  b"metadata: {generation: .inf}"])
def test_malformed_yaml_is_400(sqlite_api: Api, body: bytes) -> None:
    assert_status(post_raw(sqlite_api, body, "application/yaml"), 400, "BadRequest")


def test_yaml_body_is_accepted(sqlite_api: Api) -> None:
    body = b"apiVersion: management.platform.sh/v1\nkind: Config\nmetadata: {name: y}\nspec: {raw: ''}\n"
    assert post_raw(sqlite_api, body, "application/yaml").status_code == 201


def test_yaml_body_keeps_unquoted_dates_as_text(sqlite_api: Api) -> None:
    """An unquoted date in a YAML body is text, as the apiserver's YAML reading keeps it (it
    was a date object here, and the annotation a 422 "must be a map of string to string")."""
    body = (b"apiVersion: management.platform.sh/v1\nkind: Config\n"
            b"metadata: {name: dated, annotations: {deployed: 2024-01-01, at: 2024-01-02T03:04:05Z}}\n"
            b"spec: {raw: ''}\n")
    assert post_raw(sqlite_api, body, "application/yaml").status_code == 201
    got = sqlite_api.req("GET", BASE + "/dated").json()
    assert got["metadata"]["annotations"] == {"deployed": "2024-01-01", "at": "2024-01-02T03:04:05Z"}


def test_yaml_alias_bomb_is_400(sqlite_api: Api) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9))
    body = assert_status(post_raw(sqlite_api, bomb.encode(), "application/yaml"), 400, "BadRequest")
    assert "aliases" in body["message"]


def test_deep_nesting_is_400(sqlite_api: Api) -> None:
    deep = b"[" * 5000 + b"]" * 5000
    assert_status(post_raw(sqlite_api, deep), 400, "BadRequest")
    nested: Any = {}
    for _ in range(100):
        nested = {"x": nested}
    body = config("a")
    body["metadata"]["annotations"] = nested
    assert_status(sqlite_api.req("POST", BASE, json=body), 400, "BadRequest")


@pytest.mark.parametrize("api_version,kind", [("v1", "Config"), ("management.platform.sh/v2", "Config"),
                                              ("management.platform.sh/v1", "Secret")])
def test_wrong_api_version_or_kind_is_400(sqlite_api: Api, api_version: str, kind: str) -> None:
    body = config("a")
    body.update(apiVersion=api_version, kind=kind)
    assert_status(sqlite_api.req("POST", BASE, json=body), 400, "BadRequest")


@pytest.mark.parametrize("body", [[], "string", 42, None, {"metadata": "x"}, {"spec": [1]}])
def test_non_object_bodies_are_400(sqlite_api: Api, body: Any) -> None:
    assert_status(sqlite_api.req("POST", BASE, content=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}), 400, "BadRequest")


def test_oversized_body_is_413(sqlite_api: Api) -> None:
    body = config("a", "x: '" + "y" * (MAX_BODY + 10) + "'\n")
    assert_status(sqlite_api.req("POST", BASE, json=body), 413, "RequestEntityTooLarge")


def test_unsupported_content_type_is_415(sqlite_api: Api) -> None:
    assert_status(post_raw(sqlite_api, b"<xml/>", "application/xml"), 415, "UnsupportedMediaType")
    sqlite_api.create("a")
    r = sqlite_api.req("PATCH", f"{BASE}/a", json={}, headers={"Content-Type": "application/strategic-merge-patch+json"})
    assert_status(r, 415, "UnsupportedMediaType")


@pytest.mark.parametrize("name", ["UPPER", "under_score", "-lead", "trail-", "a" * 254, "dots..x", "sp ace", "ü"])
def test_invalid_names_are_422(sqlite_api: Api, name: str) -> None:
    r = sqlite_api.create(name)
    assert_status(r, 422, "Invalid")
    assert r.json()["details"]["causes"][0]["field"] == "metadata.name"


def test_missing_name_is_422(sqlite_api: Api) -> None:
    r = sqlite_api.req("POST", BASE, json=config(None))
    assert_status(r, 422, "Invalid")


@pytest.mark.parametrize("labels", [{"bad key!": "v"}, {"k": "not a value!"}, {"k": 5}])
def test_invalid_labels_are_422(sqlite_api: Api, labels: Any) -> None:
    assert_status(sqlite_api.create("a", labels=labels), 422, "Invalid")


def test_non_string_raw_is_422(sqlite_api: Api) -> None:
    body = config("a")
    body["spec"]["raw"] = {"not": "a string"}
    assert_status(sqlite_api.req("POST", BASE, json=body), 422, "Invalid")


@pytest.mark.parametrize("patch,headers,code", [
    ([{"op": "frobnicate", "path": "/a"}], JSONP, 400),
    ([{"op": "add", "path": "no-slash", "value": 1}], JSONP, 400),
    ([{"op": "remove", "path": "/spec/missing"}], JSONP, 422),
    ([{"op": "test", "path": "/spec/raw", "value": "other"}], JSONP, 422),
    ([{"op": "add", "path": "/metadata/finalizers/7", "value": "x"}], JSONP, 422),
    ({"op": "add"}, JSONP, 400),
    ([1, 2], JSONP, 400),
    ([{"op": "add", "path": "/spec/raw"}], JSONP, 400),
    ([{"op": "replace", "path": "/spec", "value": "str"}], JSONP, 400),
    ([{"op": "move", "from": "/metadata", "path": "/metadata/labels"}], JSONP, 422),
    ([1], MERGE, 400),
    ({"kind": "Other"}, MERGE, 400),
    ({"spec": {"raw": 7}}, MERGE, 422),
    ({"spec": {"raw": "auth: [1]"}}, MERGE, 422),
])
def test_bad_patch_documents(sqlite_api: Api, patch: Any, headers: dict[str, str], code: int) -> None:
    sqlite_api.create("a")
    r = sqlite_api.req("PATCH", f"{BASE}/a", json=patch, headers=headers)
    assert r.status_code == code, r.text
    assert r.json()["kind"] == "Status"


def test_bad_query_parameters_are_400(sqlite_api: Api) -> None:
    for query in ("limit=-1", "limit=abc", "watch=true&resourceVersion=abc", "timeoutSeconds=x&watch=1"):
        assert_status(sqlite_api.req("GET", f"{BASE}?{query}"), 400, "BadRequest")
    sqlite_api.create("a")
    assert_status(sqlite_api.req("DELETE", f"{BASE}/a?gracePeriodSeconds=soon"), 400, "BadRequest")
    assert_status(sqlite_api.req("DELETE", f"{BASE}/a", json=[1]), 400, "BadRequest")
    for opts in ({"preconditions": 5}, {"propagationPolicy": "Sideways"}, {"gracePeriodSeconds": -1},
                 {"gracePeriodSeconds": "1"}, {"dryRun": "All"}):
        assert_status(sqlite_api.req("DELETE", f"{BASE}/a", json=opts), 400, "BadRequest")
    assert sqlite_api.get("a").status_code == 200


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20)
object_like = st.fixed_dictionaries({}, optional={
    "apiVersion": st.sampled_from(["management.platform.sh/v1", "v1"]) | st.text(max_size=5),
    "kind": st.just("Config") | st.text(max_size=5),
    "metadata": st.fixed_dictionaries({}, optional={
        "name": st.text(alphabet="abc-.XZ9", max_size=12), "generateName": st.text(max_size=8),
        "labels": json_values, "finalizers": json_values, "ownerReferences": json_values,
        "resourceVersion": json_values, "deletionTimestamp": json_values}) | json_values,
    "preconditions": json_values, "propagationPolicy": json_values, "gracePeriodSeconds": json_values,
    "spec": st.fixed_dictionaries({}, optional={"raw": json_values | st.text(max_size=40)}) | json_values,
    "status": json_values})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=object_like | json_values)
def test_fuzzed_bodies_never_500(sqlite_api: Api, body: Any) -> None:
    r = sqlite_api.req("POST", BASE, json=body)
    assert r.status_code in (201, 400, 409, 413, 422), r.text
    assert r.json()["kind"] in ("Status", "Config")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(patch=json_values, kind=st.sampled_from([MERGE, JSONP]))
def test_fuzzed_patches_never_500(sqlite_api: Api, patch: Any, kind: dict[str, str]) -> None:
    if sqlite_api.get("fz").status_code == 404:
        sqlite_api.create("fz")
    r = sqlite_api.req("PATCH", f"{BASE}/fz", json=patch, headers=kind)
    assert r.status_code in (200, 400, 409, 422), r.text


def test_hostile_unknown_field_names_in_warnings(sqlite_api: Api) -> None:
    body = config("w")
    body["spec"]["x\nInjected: yes\u2028\U0010ae01\""] = 1
    r = sqlite_api.req("POST", BASE, json=body)
    assert r.status_code == 201
    assert "injected" not in r.headers
    assert r.headers["warning"].startswith('299 - "unknown field')


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(label=st.text(max_size=30), field=st.text(max_size=30), limit=st.text(max_size=4),
       cont=st.text(max_size=12))
def test_fuzzed_list_queries_never_500(sqlite_api: Api, label: str, field: str, limit: str, cont: str) -> None:
    params = {"labelSelector": label, "fieldSelector": field, "limit": limit, "continue": cont}
    r = sqlite_api.req("GET", BASE, params=params)
    assert r.status_code in (200, 400), r.text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=object_like | json_values, verb=st.sampled_from(["PUT", "APPLY", "DELETE"]))
def test_fuzzed_put_apply_delete_never_500(sqlite_api: Api, body: Any, verb: str) -> None:
    if sqlite_api.get("fz").status_code == 404:
        sqlite_api.create("fz")
    if verb == "APPLY":
        r = sqlite_api.req("PATCH", f"{BASE}/fz?fieldManager=fuzz", content=json.dumps(body).encode(),
                           headers={"Content-Type": "application/apply-patch+yaml"})
    else:
        r = sqlite_api.req(verb, f"{BASE}/fz", json=body)
    assert r.status_code in (200, 201, 400, 409, 422), r.text
    assert r.json()["kind"] in ("Status", "Config")


@pytest.mark.parametrize("body,ctype", [
    (b'apiVersion: "\\ud800"\nkind: Config\n', "application/yaml"),
    (b'{"metadata": {"name": "\\udc00"}}', "application/json"),
    (b'{"\\ud800": 1}', "application/json"),
])
def test_lone_surrogates_are_400(sqlite_api: Api, body: bytes, ctype: str) -> None:
    assert_status(post_raw(sqlite_api, body, ctype), 400, "BadRequest")


def test_malformed_finalizers_while_deleting_are_422(sqlite_api: Api) -> None:
    """Regression (found by fuzzing): non-string finalizers on an object being deleted."""
    sqlite_api.create("a", finalizers=["example.com/x"])
    obj = sqlite_api.req("DELETE", f"{BASE}/a").json()
    for bad in ([{"k": 1}], [[1]], "text"):
        obj["metadata"]["finalizers"] = bad
        assert_status(sqlite_api.req("PUT", f"{BASE}/a", json=obj), 422, "Invalid")
