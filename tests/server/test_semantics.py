"""Kubernetes object semantics at the HTTP level, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

import pytest

from syncpatch.server.objects import GENERATE_ALPHABET, Clock

from .conftest import BASE, Api, build_api, config


def meta(resp: Any) -> dict[str, Any]:
    return resp.json()["metadata"]


def assert_status(resp: Any, code: int, reason: str) -> dict[str, Any]:
    assert resp.status_code == code, resp.text
    body = resp.json()
    assert body["kind"] == "Status" and body["apiVersion"] == "v1"
    assert body["status"] == "Failure" and body["code"] == code and body["reason"] == reason
    assert "Traceback" not in resp.text
    return body


def causes(resp: Any) -> list[str]:
    return [c["field"] for c in resp.json()["details"]["causes"]]


def test_create_sets_uid_and_creation_timestamp(api: Api) -> None:
    r = api.create("a")
    assert r.status_code == 201, r.text
    m = meta(r)
    assert len(m["uid"]) == 36 and m["creationTimestamp"].endswith("Z")
    assert m["generation"] == 1
    assert api.get("a").json()["metadata"]["uid"] == m["uid"]


def test_resource_version_grows_from_one_counter(api: Api) -> None:
    rvs = [int(meta(api.create("a"))["resourceVersion"]), int(meta(api.create("b"))["resourceVersion"])]
    cur = api.get("a").json()
    cur["metadata"]["labels"] = {"x": "1"}
    rvs.append(int(meta(api.req("PUT", f"{BASE}/a", json=cur))["resourceVersion"]))
    rvs.append(int(meta(api.req("DELETE", f"{BASE}/b"))["resourceVersion"]))
    assert rvs == sorted(rvs) and len(set(rvs)) == 4
    listed = api.req("GET", BASE).json()
    assert int(listed["metadata"]["resourceVersion"]) == rvs[-1]


def test_stale_resource_version_is_409_conflict(api: Api) -> None:
    first = api.create("a").json()
    fresh = dict(first, metadata={**first["metadata"], "labels": {"v": "1"}})
    assert api.req("PUT", f"{BASE}/a", json=fresh).status_code == 200
    stale = dict(first, metadata={**first["metadata"], "labels": {"v": "2"}})
    body = assert_status(api.req("PUT", f"{BASE}/a", json=stale), 409, "Conflict")
    assert "has been modified" in body["message"]
    patch = {"metadata": {"resourceVersion": first["metadata"]["resourceVersion"], "labels": {"v": "3"}}}
    r = api.req("PATCH", f"{BASE}/a", json=patch, headers={"Content-Type": "application/merge-patch+json"})
    assert_status(r, 409, "Conflict")


def test_update_without_resource_version_is_invalid(api: Api) -> None:
    api.create("a")
    r = api.req("PUT", f"{BASE}/a", json=config("a"))
    assert_status(r, 422, "Invalid")
    assert causes(r) == ["metadata.resourceVersion"]


def test_generation_grows_only_outside_metadata(api: Api) -> None:
    obj = api.create("a").json()
    obj["metadata"]["labels"] = {"x": "y"}
    obj = api.req("PUT", f"{BASE}/a", json=obj).json()
    assert obj["metadata"]["generation"] == 1
    obj["spec"]["raw"] = "platformHost: a.example.com\n"
    obj = api.req("PUT", f"{BASE}/a", json=obj).json()
    assert obj["metadata"]["generation"] == 2
    assert obj["status"]["platformHost"] == "a.example.com"


def test_noop_update_keeps_resource_version(api: Api) -> None:
    obj = api.create("a").json()
    again = api.req("PUT", f"{BASE}/a", json=obj).json()
    assert again["metadata"]["resourceVersion"] == obj["metadata"]["resourceVersion"]


@pytest.mark.parametrize("field,value", [("uid", "00000000-0000-0000-0000-000000000000"),
                                         ("creationTimestamp", "2001-01-01T00:00:00Z")])
def test_uid_and_creation_timestamp_are_immutable(api: Api, field: str, value: str) -> None:
    obj = api.create("a").json()
    obj["metadata"][field] = value
    r = api.req("PUT", f"{BASE}/a", json=obj)
    assert_status(r, 422, "Invalid")
    assert causes(r) == [f"metadata.{field}"]


def test_name_is_immutable(api: Api) -> None:
    obj = api.create("a").json()
    obj["metadata"]["name"] = "b"
    assert_status(api.req("PUT", f"{BASE}/a", json=obj), 400, "BadRequest")
    r = api.req("PATCH", f"{BASE}/a", json=[{"op": "replace", "path": "/metadata/name", "value": "b"}],
                headers={"Content-Type": "application/json-patch+json"})
    assert_status(r, 422, "Invalid")
    assert api.get("b").status_code == 404


def test_invalid_raw_names_each_bad_field(api: Api) -> None:
    raw = "auth:\n  password:\n    disabled: notabool\nplatformHost: 5\n"
    r = api.create("a", raw)
    body = assert_status(r, 422, "Invalid")
    assert causes(r) == ["spec.raw.auth.password.disabled", "spec.raw.platformHost"]
    assert body["details"]["name"] == "a" and body["details"]["group"] == "management.platform.sh"
    assert api.get("a").status_code == 404


def test_status_is_computed_from_raw_and_client_status_ignored(api: Api) -> None:
    body = config("a", "platformHost: x.example.com\n")
    body["status"] = {"platformHost": "forged"}
    obj = api.req("POST", BASE, json=body).json()
    assert obj["status"]["platformHost"] == "x.example.com"
    assert obj["status"]["projectNamespacePrefix"] == "p-"


class FixedRng(random.Random):
    """Yields preset characters so tests can force generateName collisions."""

    def __init__(self, chars: str) -> None:
        super().__init__(0)
        self.chars, self.calls = chars, 0

    def choice(self, seq: Any) -> Any:
        ch = self.chars[self.calls % len(self.chars)]
        self.calls += 1
        return ch


def test_generate_name_prefix_suffix_and_alphabet(api: Api) -> None:
    prefix = "p" * 70
    r = api.req("POST", BASE, json=config(None, generateName=prefix))
    assert r.status_code == 201, r.text
    name = meta(r)["name"]
    assert name[:58] == "p" * 58 and len(name) == 63
    assert all(c in GENERATE_ALPHABET for c in name[58:])
    assert meta(r)["generateName"] == prefix


def test_generate_name_retries_collisions_then_409(store_url: str) -> None:
    api = build_api(store_url, clock=Clock(rng=FixedRng("bbbbbccccc")))
    with api.client:
        assert meta(api.req("POST", BASE, json=config(None, generateName="g-")))["name"] == "g-bbbbb"
        # the rng now yields bbbbb (taken) then ccccc: one collision, retried
        api.state.clock.rng = FixedRng("bbbbbccccc")
        assert meta(api.req("POST", BASE, json=config(None, generateName="g-")))["name"] == "g-ccccc"
        api.state.clock.rng = rng = FixedRng("bbbbbccccc")
        body = assert_status(api.req("POST", BASE, json=config(None, generateName="g-")), 409, "AlreadyExists")
        assert "8 attempts" in body["message"] and rng.calls == 8 * 5
        api.state.clock.rng = rng = FixedRng("b" * 5 * 7 + "ddddd")
        assert meta(api.req("POST", BASE, json=config(None, generateName="g-")))["name"] == "g-ddddd"
        assert rng.calls == 8 * 5
    api.state.store.close()


def owner(uid: str, name: str = "o", **kw: Any) -> dict[str, Any]:
    return {"apiVersion": "management.platform.sh/v1", "kind": "Config", "name": name, "uid": uid, **kw}


def test_at_most_one_controller(api: Api) -> None:
    refs = [owner("u1", controller=True), owner("u2", "p", controller=True)]
    r = api.create("a", ownerReferences=refs)
    assert_status(r, 422, "Invalid")
    assert "metadata.ownerReferences" in causes(r)
    assert api.create("a", ownerReferences=refs[:1] + [owner("u2", "p")]).status_code == 201


def test_owner_reference_needs_required_fields(api: Api) -> None:
    r = api.create("a", ownerReferences=[{"apiVersion": "v1", "kind": "X", "name": "n"}])
    assert_status(r, 422, "Invalid")
    assert causes(r) == ["metadata.ownerReferences[0].uid"]


def test_block_owner_deletion_needs_delete_permission(api: Api) -> None:
    foreign = {"apiVersion": "v1", "kind": "Namespace", "name": "ns", "uid": "u9", "blockOwnerDeletion": True}
    r = api.create("a", ownerReferences=[foreign])
    assert_status(r, 422, "Invalid")
    assert causes(r) == ["metadata.ownerReferences[0].blockOwnerDeletion"]
    parent = api.create("parent").json()
    ok = api.create("b", ownerReferences=[owner(parent["metadata"]["uid"], "parent", blockOwnerDeletion=True)])
    assert ok.status_code == 201, ok.text


def test_deleting_the_owner_collects_dependents(api: Api) -> None:
    parent = api.create("parent").json()
    second = api.create("second").json()
    api.create("child", ownerReferences=[owner(parent["metadata"]["uid"], "parent")])
    api.create("other", ownerReferences=[owner(parent["metadata"]["uid"], "parent"),
                                         owner(second["metadata"]["uid"], "second")])
    assert api.req("DELETE", f"{BASE}/parent").status_code == 200
    assert api.get("child").status_code == 404
    assert api.get("other").status_code == 200


def test_finalizers_make_delete_graceful(api: Api) -> None:
    api.create("a", finalizers=["example.com/hold"])
    r = api.req("DELETE", f"{BASE}/a")
    assert r.status_code == 200
    m = meta(r)
    assert m["deletionTimestamp"] and m["deletionGracePeriodSeconds"] == 0
    live = api.get("a").json()
    assert live["metadata"]["deletionTimestamp"] == m["deletionTimestamp"]
    live["metadata"]["finalizers"] = []
    assert api.req("PUT", f"{BASE}/a", json=live).status_code == 200
    assert_status(api.get("a"), 404, "NotFound")


def test_no_new_finalizers_once_deleting(api: Api) -> None:
    api.create("a", finalizers=["example.com/hold"])
    obj = api.req("DELETE", f"{BASE}/a").json()
    obj["metadata"]["finalizers"].append("example.com/more")
    r = api.req("PUT", f"{BASE}/a", json=obj)
    assert_status(r, 422, "Invalid")
    assert causes(r) == ["metadata.finalizers"]


def test_deletion_timestamp_cannot_be_set_or_unset(api: Api) -> None:
    r = api.create("a", deletionTimestamp="2030-01-01T00:00:00Z")
    assert_status(r, 422, "Invalid")
    obj = api.create("a", finalizers=["example.com/hold"]).json()
    obj["metadata"]["deletionTimestamp"] = "2030-01-01T00:00:00Z"
    assert causes(api.req("PUT", f"{BASE}/a", json=obj)) == ["metadata.deletionTimestamp"]
    deleting = api.req("DELETE", f"{BASE}/a").json()
    patch = [{"op": "replace", "path": "/metadata/deletionTimestamp", "value": "2099-01-01T00:00:00Z"}]
    r = api.req("PATCH", f"{BASE}/a", json=patch, headers={"Content-Type": "application/json-patch+json"})
    assert causes(r) == ["metadata.deletionTimestamp"]
    unset = [{"op": "remove", "path": "/metadata/deletionTimestamp"}, {"op": "add", "path": "/metadata/labels", "value": {"k": "v"}}]
    r = api.req("PATCH", f"{BASE}/a", json=unset, headers={"Content-Type": "application/json-patch+json"})
    assert meta(r)["deletionTimestamp"] == deleting["metadata"]["deletionTimestamp"]


def test_grace_period_may_only_shrink(api: Api) -> None:
    api.create("a", finalizers=["example.com/hold"])
    first = meta(api.req("DELETE", f"{BASE}/a", json={"gracePeriodSeconds": 300}))
    assert first["deletionGracePeriodSeconds"] == 300
    longer = meta(api.req("DELETE", f"{BASE}/a", json={"gracePeriodSeconds": 900}))
    assert longer["deletionGracePeriodSeconds"] == 300 and longer["deletionTimestamp"] == first["deletionTimestamp"]
    shorter = meta(api.req("DELETE", f"{BASE}/a?gracePeriodSeconds=10"))
    assert shorter["deletionGracePeriodSeconds"] == 10
    assert shorter["deletionTimestamp"] < first["deletionTimestamp"]
    obj = api.get("a").json()
    obj["metadata"]["deletionGracePeriodSeconds"] = 60
    r = api.req("PUT", f"{BASE}/a", json=obj)
    assert causes(r) == ["metadata.deletionGracePeriodSeconds"]


def test_delete_without_finalizers_removes_and_returns_object(api: Api) -> None:
    uid = meta(api.create("a"))["uid"]
    r = api.req("DELETE", f"{BASE}/a")
    assert r.status_code == 200 and meta(r)["uid"] == uid
    assert_status(api.req("DELETE", f"{BASE}/a"), 404, "NotFound")


def test_delete_preconditions(api: Api) -> None:
    api.create("a")
    r = api.req("DELETE", f"{BASE}/a", json={"preconditions": {"uid": "nope"}})
    assert_status(r, 409, "Conflict")
    assert api.get("a").status_code == 200


APPLY = {"Content-Type": "application/apply-patch+yaml"}


def applied_yaml(name: str, raw: str, labels: dict[str, str] | None = None) -> str:
    import yaml

    return yaml.safe_dump({"apiVersion": "management.platform.sh/v1", "kind": "Config",
                           "metadata": {"name": name, **({"labels": labels} if labels else {})},
                           "spec": {"raw": raw}})


def owners(resp: Any) -> dict[tuple[str, str], Any]:
    return {(e["manager"], e["operation"]): e["fieldsV1"] for e in meta(resp)["managedFields"]}


def test_managed_fields_record_manager_and_operation(api: Api) -> None:
    api.req("POST", f"{BASE}?fieldManager=alice", json=config("a", labels={"x": "1"}))
    r = api.req("PATCH", f"{BASE}/a?fieldManager=bob", json={"metadata": {"labels": {"y": "2"}}},
                headers={"Content-Type": "application/merge-patch+json"})
    fields = owners(r)
    assert set(fields) == {("alice", "Update"), ("bob", "Update")}
    assert fields[("alice", "Update")] == {"f:metadata": {"f:labels": {"f:x": {}}}, "f:spec": {"f:raw": {}}}
    assert fields[("bob", "Update")] == {"f:metadata": {"f:labels": {"f:y": {}}}}
    assert all(e["apiVersion"] == "management.platform.sh/v1" and e["fieldsType"] == "FieldsV1"
               and e["time"].endswith("Z") for e in meta(r)["managedFields"])
    # an update takes ownership of what it changes
    r = api.req("PATCH", f"{BASE}/a?fieldManager=bob", json={"metadata": {"labels": {"x": "9"}}},
                headers={"Content-Type": "application/merge-patch+json"})
    assert owners(r)[("alice", "Update")] == {"f:spec": {"f:raw": {}}}


def test_apply_conflicts_unless_forced(api: Api) -> None:
    api.req("POST", f"{BASE}?fieldManager=alice", json=config("a", "platformHost: a\n"))
    body = applied_yaml("a", "platformHost: b\n")
    r = api.req("PATCH", f"{BASE}/a?fieldManager=carol", content=body, headers=APPLY)
    err = assert_status(r, 409, "Conflict")
    assert err["details"]["causes"] == [{"reason": "FieldManagerConflict", "field": ".spec.raw",
                                         "message": 'conflict with "alice" using management.platform.sh/v1'}]
    assert "Apply failed with 1 conflict" in err["message"]
    same = api.req("PATCH", f"{BASE}/a?fieldManager=carol", content=applied_yaml("a", "platformHost: a\n"),
                   headers=APPLY)
    assert same.status_code == 200  # the same value: shared ownership, no conflict
    assert ("carol", "Apply") in owners(same) and ("alice", "Update") in owners(same)
    forced = api.req("PATCH", f"{BASE}/a?fieldManager=carol&force=true", content=body, headers=APPLY)
    assert forced.status_code == 200 and forced.json()["status"]["platformHost"] == "b"
    assert ("alice", "Update") not in owners(forced)
    assert owners(forced)[("carol", "Apply")] == {"f:spec": {"f:raw": {}}}


def test_apply_removes_fields_it_no_longer_applies(api: Api) -> None:
    first = applied_yaml("a", "", {"keep": "1", "drop": "2"})
    assert api.req("PATCH", f"{BASE}/a?fieldManager=ci", content=first, headers=APPLY).status_code == 201
    api.req("PATCH", f"{BASE}/a?fieldManager=ops", json={"metadata": {"labels": {"other": "3"}}},
            headers={"Content-Type": "application/merge-patch+json"})
    r = api.req("PATCH", f"{BASE}/a?fieldManager=ci", content=applied_yaml("a", "", {"keep": "1"}), headers=APPLY)
    assert r.status_code == 200, r.text
    assert meta(r)["labels"] == {"keep": "1", "other": "3"}
    assert owners(r)[("ci", "Apply")]["f:metadata"] == {"f:labels": {"f:keep": {}}}


def test_server_side_apply_creates(api: Api) -> None:
    applied = "apiVersion: management.platform.sh/v1\nkind: Config\nmetadata:\n  name: new\nspec:\n  raw: ''\n"
    r = api.req("PATCH", f"{BASE}/new?fieldManager=kubectl", content=applied,
                headers={"Content-Type": "application/apply-patch+yaml"})
    assert r.status_code == 201, r.text
    assert meta(r)["managedFields"][0]["operation"] == "Apply"


def test_dry_run_create_stores_nothing(api: Api) -> None:
    r = api.req("POST", f"{BASE}?dryRun=All", json=config("a"))
    assert r.status_code == 201 and meta(r)["uid"]
    assert api.get("a").status_code == 404
    rv = api.req("GET", BASE).json()["metadata"]["resourceVersion"]
    api.create("b")
    obj = api.get("b").json()
    obj["spec"]["raw"] = "platformHost: dry\n"
    assert api.req("PUT", f"{BASE}/b?dryRun=All", json=obj).json()["status"]["platformHost"] == "dry"
    assert "platformHost" not in api.get("b").json()["status"]
    assert api.req("DELETE", f"{BASE}/b?dryRun=All").status_code == 200
    assert api.get("b").status_code == 200
    assert int(api.req("GET", BASE).json()["metadata"]["resourceVersion"]) == int(rv) + 1
    assert_status(api.req("POST", f"{BASE}?dryRun=Sometimes", json=config("c")), 400, "BadRequest")


def test_duplicate_name_is_409_already_exists(api: Api) -> None:
    api.create("a")
    body = assert_status(api.create("a"), 409, "AlreadyExists")
    assert body["details"] == {"name": "a", "group": "management.platform.sh", "kind": "configs"}


def test_dry_run_update_keeps_version_and_empty_maps_are_omitted(api: Api) -> None:
    obj = api.create("a").json()
    patch = {"metadata": {"annotations": {"gone": None}}, "spec": {"raw": "platformHost: d\n"}}
    r = api.req("PATCH", f"{BASE}/a?dryRun=All", json=patch, headers={"Content-Type": "application/merge-patch+json"})
    assert r.status_code == 200
    assert meta(r)["resourceVersion"] == obj["metadata"]["resourceVersion"]
    assert "annotations" not in meta(r) and meta(r)["generation"] == 2
    assert api.get("a").json()["metadata"]["generation"] == 1
