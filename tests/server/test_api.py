"""Discovery, openapi, list/get/watch, tables and field validation at the HTTP level."""

from __future__ import annotations

import json
from typing import Any

from .conftest import BASE, Api, config
from .test_semantics import assert_status

TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
AGG = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"


def test_version_reports_1_32(sqlite_api: Api) -> None:
    body = sqlite_api.req("GET", "/version", None).json()
    assert (body["major"], body["minor"]) == ("1", "32")


def test_legacy_discovery(sqlite_api: Api) -> None:
    api = sqlite_api
    assert api.req("GET", "/api").json()["versions"] == ["v1"]
    groups = api.req("GET", "/apis").json()
    assert groups["kind"] == "APIGroupList"
    assert groups["groups"][0]["preferredVersion"]["groupVersion"] == "management.platform.sh/v1"
    assert api.req("GET", "/apis/management.platform.sh").json()["kind"] == "APIGroup"
    res = api.req("GET", "/apis/management.platform.sh/v1").json()["resources"][0]
    assert (res["name"], res["kind"], res["namespaced"]) == ("configs", "Config", False)
    assert set(res["verbs"]) >= {"get", "list", "watch", "create", "update", "patch", "delete"}


def test_aggregated_discovery_content_type(sqlite_api: Api) -> None:
    r = sqlite_api.req("GET", "/apis", headers={"Accept": AGG})
    assert r.headers["content-type"] == "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
    item = r.json()["items"][0]
    assert item["metadata"]["name"] == "management.platform.sh"
    assert item["versions"][0]["resources"][0]["scope"] == "Cluster"
    core = sqlite_api.req("GET", "/api", headers={"Accept": AGG})
    assert core.json()["kind"] == "APIGroupDiscoveryList"
    assert "as=APIGroupDiscoveryList" in core.headers["content-type"]


def test_discovery_needs_auth(sqlite_api: Api) -> None:
    assert_status(sqlite_api.req("GET", "/apis", None), 401, "Unauthorized")


def test_openapi_v3_schema_from_model(sqlite_api: Api) -> None:
    index = sqlite_api.req("GET", "/openapi/v3").json()
    url = index["paths"]["apis/management.platform.sh/v1"]["serverRelativeURL"]
    doc = sqlite_api.req("GET", url).json()
    schemas = doc["components"]["schemas"]
    root = schemas["sh.platform.management.v1.Config"]
    assert root["x-kubernetes-group-version-kind"] == [
        {"group": "management.platform.sh", "version": "v1", "kind": "Config"}]
    status_text = json.dumps(schemas)
    assert "accessKeyMaxTTLSeconds" in status_text and "disableConfigEndpoint" in status_text
    patch = doc["paths"]["/apis/management.platform.sh/v1/configs/{name}"]["patch"]
    assert "fieldValidation" in [p["name"] for p in patch["parameters"]]
    assert "application/strategic-merge-patch+json" not in patch["requestBody"]["content"]


def seed(api: Api) -> None:
    api.create("alpha", labels={"team": "a", "tier": "gold"})
    api.create("beta", labels={"team": "b"})
    api.create("gamma", labels={"team": "a"})


def names(resp: Any) -> list[str]:
    return [i["metadata"]["name"] for i in resp.json()["items"]]


def test_list_with_label_selector(api: Api) -> None:
    seed(api)
    assert names(api.req("GET", f"{BASE}?labelSelector=team%3Da")) == ["alpha", "gamma"]
    assert names(api.req("GET", f"{BASE}?labelSelector=team!%3Da")) == ["beta"]
    assert names(api.req("GET", f"{BASE}?labelSelector=team+in+(a,b),!tier")) == ["beta", "gamma"]
    assert names(api.req("GET", f"{BASE}?labelSelector=tier")) == ["alpha"]
    assert_status(api.req("GET", f"{BASE}?labelSelector=%3D%3D%3D"), 400, "BadRequest")


def test_list_with_field_selector(api: Api) -> None:
    seed(api)
    assert names(api.req("GET", f"{BASE}?fieldSelector=metadata.name%3Dbeta")) == ["beta"]
    assert names(api.req("GET", f"{BASE}?fieldSelector=metadata.name!%3Dbeta")) == ["alpha", "gamma"]
    body = assert_status(api.req("GET", f"{BASE}?fieldSelector=spec.raw%3Dx"), 400, "BadRequest")
    assert "field label not supported" in body["message"]


def test_list_limit_and_continue(api: Api) -> None:
    seed(api)
    first = api.req("GET", f"{BASE}?limit=2").json()
    assert [i["metadata"]["name"] for i in first["items"]] == ["alpha", "beta"]
    assert first["metadata"]["remainingItemCount"] == 1
    token = first["metadata"]["continue"]
    second = api.req("GET", f"{BASE}?limit=2&continue={token}").json()
    assert [i["metadata"]["name"] for i in second["items"]] == ["gamma"]
    assert "continue" not in second["metadata"]
    assert second["metadata"]["resourceVersion"] == first["metadata"]["resourceVersion"]
    assert_status(api.req("GET", f"{BASE}?continue=garbage!"), 400, "BadRequest")


def test_get_not_found_is_status(api: Api) -> None:
    body = assert_status(api.get("missing"), 404, "NotFound")
    assert body["message"] == 'configs.management.platform.sh "missing" not found'
    assert body["details"]["name"] == "missing"


def test_table_output(sqlite_api: Api) -> None:
    sqlite_api.create("t", "platformHost: t.example.com\naudit:\n  enabled: true\n  path: /tmp/x\n")
    tbl = sqlite_api.req("GET", BASE, headers={"Accept": TABLE}).json()
    assert tbl["kind"] == "Table" and tbl["apiVersion"] == "meta.k8s.io/v1"
    cols = [c["name"] for c in tbl["columnDefinitions"]]
    assert cols == ["Name", "Platform-Host", "Audit", "Auth", "Age"]
    row = tbl["rows"][0]
    assert row["cells"][:3] == ["t", "t.example.com", "enabled"]
    assert row["object"]["kind"] == "PartialObjectMetadata" and row["object"]["metadata"]["name"] == "t"
    one = sqlite_api.req("GET", f"{BASE}/t", headers={"Accept": TABLE}).json()
    assert one["kind"] == "Table" and len(one["rows"]) == 1


def watch_lines(api: Api, query: str, accept: str = "application/json") -> list[dict[str, Any]]:
    r = api.req("GET", f"{BASE}?watch=true&timeoutSeconds=1&{query}", headers={"Accept": accept})
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines() if line.strip()]


def test_watch_from_resource_version(api: Api) -> None:
    rv = api.create("a").json()["metadata"]["resourceVersion"]
    obj = api.get("a").json()
    obj["metadata"]["labels"] = {"k": "v"}
    api.req("PUT", f"{BASE}/a", json=obj)
    api.create("b")
    api.req("DELETE", f"{BASE}/a")
    events = watch_lines(api, f"resourceVersion={rv}")
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [
        ("MODIFIED", "a"), ("ADDED", "b"), ("DELETED", "a")]
    rvs = [int(e["object"]["metadata"]["resourceVersion"]) for e in events]
    assert rvs == sorted(rvs) and rvs[0] > int(rv)


def test_watch_initial_state_and_field_selector(api: Api) -> None:
    seed(api)
    events = watch_lines(api, "fieldSelector=metadata.name%3Dbeta")
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [("ADDED", "beta")]


def test_watch_table_events(sqlite_api: Api) -> None:
    rv = sqlite_api.create("a").json()["metadata"]["resourceVersion"]
    sqlite_api.create("b")
    events = watch_lines(sqlite_api, f"resourceVersion={rv}", TABLE)
    assert events[0]["type"] == "ADDED" and events[0]["object"]["kind"] == "Table"
    assert events[0]["object"]["rows"][0]["cells"][0] == "b"


def test_watch_too_old_resource_version_is_410(sqlite_api: Api) -> None:
    from syncpatch.server import store as store_mod

    api = sqlite_api
    old = store_mod.EVENT_RETENTION
    store_mod.EVENT_RETENTION = 2
    try:
        for i in range(5):
            api.create(f"c{i}")
        api.state.store.compact()
    finally:
        store_mod.EVENT_RETENTION = old
    events = watch_lines(api, "resourceVersion=1")
    assert events[-1]["type"] == "ERROR"
    assert events[-1]["object"]["code"] == 410 and events[-1]["object"]["reason"] == "Expired"


def test_strict_field_validation(sqlite_api: Api) -> None:
    body = config("a")
    body["spec"]["rwa"] = "typo"
    body["metadata"]["lables"] = {"x": "y"}
    r = sqlite_api.req("POST", f"{BASE}?fieldValidation=Strict", json=body)
    err = assert_status(r, 400, "BadRequest")
    assert 'unknown field "spec.rwa"' in err["message"] and 'unknown field "metadata.lables"' in err["message"]
    warned = sqlite_api.req("POST", f"{BASE}?fieldValidation=Warn", json=body)
    assert warned.status_code == 201
    assert 'unknown field \\"spec.rwa\\"' in ",".join(warned.headers.get_list("warning"))
    assert "rwa" not in warned.json()["spec"]
    body["metadata"]["name"] = "b"
    quiet = sqlite_api.req("POST", f"{BASE}?fieldValidation=Ignore", json=body)
    assert quiet.status_code == 201 and "warning" not in quiet.headers
    assert_status(sqlite_api.req("POST", f"{BASE}?fieldValidation=Loose", json=body), 400, "BadRequest")


def test_unknown_paths_are_404_status(sqlite_api: Api) -> None:
    assert_status(sqlite_api.req("GET", "/apis/other.group/v1/things"), 404, "NotFound")
    assert_status(sqlite_api.req("POST", f"{BASE}/x"), 405, "MethodNotAllowed")


def test_watch_single_object_path(sqlite_api: Api) -> None:
    rv = sqlite_api.create("a").json()["metadata"]["resourceVersion"]
    sqlite_api.create("b")
    sqlite_api.req("DELETE", f"{BASE}/a")
    r = sqlite_api.req("GET", f"{BASE}/a?watch=true&timeoutSeconds=1&resourceVersion={rv}")
    events = [json.loads(line) for line in r.text.splitlines()]
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [("DELETED", "a")]


def test_store_outage_is_503_status(sqlite_api: Api, monkeypatch: Any) -> None:
    from sqlalchemy.exc import OperationalError

    def broken(*_a: Any, **_k: Any) -> Any:
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(sqlite_api.state.store, "get", broken)
    r = sqlite_api.get("x")
    assert_status(r, 503, "ServiceUnavailable")
    assert r.headers["retry-after"] == "1"


def test_deprecated_raw_fields_warn(sqlite_api: Api) -> None:
    r = sqlite_api.create("dep", "workspaceSubDomain: ws.example.com\n")
    assert r.status_code == 201
    assert "workspaceSubDomain" in r.headers.get("warning", "")


def test_watch_bookmarks(sqlite_api: Api, monkeypatch: Any) -> None:
    from syncpatch.server import watch

    monkeypatch.setattr(watch, "BOOKMARK_SECONDS", 0.1)
    rv = sqlite_api.create("a").json()["metadata"]["resourceVersion"]
    events = watch_lines(sqlite_api, f"resourceVersion={rv}&allowWatchBookmarks=true")
    marks = [e for e in events if e["type"] == "BOOKMARK"]
    assert marks and marks[0]["object"]["metadata"]["resourceVersion"] == rv
    assert all(e["type"] == "BOOKMARK" for e in events)
