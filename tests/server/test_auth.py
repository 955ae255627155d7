"""Authentication, authorization, masking, and the Config settings that govern the server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from syncpatch.server import auth as auth_mod
from syncpatch.server.model_adapter import MASK
from syncpatch.server.store import sqlite_url

from .conftest import BASE, Api, build_api, config
from .test_semantics import assert_status

def epoch(stamp: str) -> float:
    import calendar

    return float(calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")))


SECRET_RAW = ("auth:\n  oidc:\n    issuerUrl: https://idp.example.com\n    clientId: abc\n"
              "    clientSecret: hunter2-secret\n")


@pytest.fixture
def make_api(tmp_path: Path) -> Iterator[object]:
    made: list[Api] = []

    def make(raw: str = "") -> Api:
        sub = tmp_path / f"db{len(made)}"
        sub.mkdir()
        api = build_api(sqlite_url(sub), raw)
        made.append(api)
        return api
    yield make
    for a in made:
        a.state.store.close()


def test_missing_and_bad_tokens_are_401(sqlite_api: Api) -> None:
    assert_status(sqlite_api.req("GET", BASE, None), 401, "Unauthorized")
    for token in ("nonsense", "sp.deadbeef.secret", sqlite_api.tokens["admin"] + "x"):
        assert_status(sqlite_api.req("GET", BASE, token), 401, "Unauthorized")
    r = sqlite_api.req("GET", BASE, None, headers={"Authorization": "Basic abc"})
    assert_status(r, 401, "Unauthorized")


def test_keys_are_stored_hashed(sqlite_api: Api) -> None:
    import sqlalchemy as sa

    from syncpatch.server.store import keys_t

    rows = sqlite_api.state.store.run(lambda c: c.execute(sa.select(keys_t)).mappings().all())
    secrets = [t.split(".")[2] for t in sqlite_api.tokens.values()]
    dumped = repr([dict(r) for r in rows])
    assert rows and not any(s in dumped for s in secrets)


def test_revoked_key_is_401(sqlite_api: Api) -> None:
    r = sqlite_api.req("POST", "/auth/keys", json={})
    token, key_id = r.json()["token"], r.json()["id"]
    assert sqlite_api.req("GET", BASE, token).status_code == 200
    assert sqlite_api.req("DELETE", f"/auth/keys/{key_id}").status_code == 200
    assert_status(sqlite_api.req("GET", BASE, token), 401, "Unauthorized")


def test_expired_key_is_401(sqlite_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    token = sqlite_api.req("POST", "/auth/keys", json={"ttlSeconds": 60}).json()["token"]
    assert sqlite_api.req("GET", BASE, token).status_code == 200
    real = time.time
    monkeypatch.setattr(auth_mod.time, "time", lambda: real() + 61)
    body = assert_status(sqlite_api.req("GET", BASE, token), 401, "Unauthorized")
    assert "expired" in body["message"]


def test_max_ttl_caps_every_key(make_api, monkeypatch: pytest.MonkeyPatch) -> None:
    api = make_api("auth:\n  accessKeyMaxTTLSeconds: 100\n")
    r = api.req("POST", "/auth/keys", json={"ttlSeconds": 10_000}).json()
    expires = epoch(r["expiresAt"])
    assert expires - time.time() <= 101
    real = time.time
    monkeypatch.setattr(auth_mod.time, "time", lambda: real() + 101)
    assert_status(api.req("GET", BASE, r["token"]), 401, "Unauthorized")
    # the bootstrap admin key has no TTL of its own, but the cap still applies
    assert_status(api.req("GET", BASE, "admin"), 401, "Unauthorized")


def test_key_older_than_a_new_cap_is_401(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api = build_api(sqlite_url(tmp_path))
    token = api.tokens["admin"]
    capped = build_api_reuse(api, "auth:\n  accessKeyMaxTTLSeconds: 50\n")
    real = time.time
    monkeypatch.setattr(auth_mod.time, "time", lambda: real() + 51)
    assert_status(capped.req("GET", BASE, token), 401, "Unauthorized")
    api.state.store.close()


def build_api_reuse(api: Api, raw: str) -> Api:
    """The same store under a different server config (a restart with a new file)."""
    from syncpatch.server.auth import Authenticator, AuthSettings
    from syncpatch.server.model_adapter import effective_status

    settings = AuthSettings.from_status(effective_status(raw))
    api.state.settings = settings
    api.state.auth = Authenticator(api.state.store, settings)
    return api


def test_password_login_uses_login_ttl(make_api) -> None:
    api = make_api("auth:\n  loginAccessKeyTTLSeconds: 3600\n  customHttpHeaders:\n    X-Frame-Options: DENY\n")
    api.req("POST", "/auth/users", json={"username": "ann", "password": "pw-123456", "role": "viewer"})
    r = api.req("POST", "/auth/login", None, json={"username": "ann", "password": "pw-123456"})
    assert r.status_code == 200, r.text
    assert r.headers["x-frame-options"] == "DENY"
    expires = epoch(r.json()["expiresAt"])
    assert 3590 < expires - time.time() <= 3601
    assert api.req("GET", BASE, r.json()["token"]).status_code == 200
    bad = api.req("POST", "/auth/login", None, json={"username": "ann", "password": "wrong"})
    assert_status(bad, 401, "Unauthorized")
    assert bad.headers["x-frame-options"] == "DENY"
    assert "x-frame-options" not in api.req("GET", BASE).headers


def test_login_ttl_default_and_cap(make_api) -> None:
    api = make_api("auth:\n  accessKeyMaxTTLSeconds: 600\n")
    api.req("POST", "/auth/users", json={"username": "ann", "password": "pw", "role": "viewer"})
    r = api.req("POST", "/auth/login", None, json={"username": "ann", "password": "pw"}).json()
    expires = epoch(r["expiresAt"])
    assert expires - time.time() <= 601


def test_password_login_refused_when_disabled(make_api) -> None:
    api = make_api("auth:\n  password:\n    disabled: true\n")
    api.req("POST", "/auth/users", json={"username": "ann", "password": "pw", "role": "viewer"})
    r = api.req("POST", "/auth/login", None, json={"username": "ann", "password": "pw"})
    body = assert_status(r, 403, "Forbidden")
    assert "password login is disabled" in body["message"]


def test_authenticate_version_endpoint(make_api) -> None:
    open_api = make_api("")
    assert open_api.req("GET", "/version", None).status_code == 200
    closed = make_api("authenticateVersionEndpoint: true\n")
    assert_status(closed.req("GET", "/version", None), 401, "Unauthorized")
    assert closed.req("GET", "/version", "viewer").status_code == 200


def test_disable_config_endpoint_refuses_writes(make_api) -> None:
    api = make_api("disableConfigEndpoint: true\n")
    body = assert_status(api.create("a"), 403, "Forbidden")
    assert "disableConfigEndpoint" in body["message"]
    assert api.req("GET", BASE).status_code == 200
    assert_status(api.req("DELETE", f"{BASE}/a"), 403, "Forbidden")
    r = api.req("PATCH", f"{BASE}/a", json={}, headers={"Content-Type": "application/merge-patch+json"})
    assert_status(r, 403, "Forbidden")


def test_viewer_reads_but_cannot_write(sqlite_api: Api) -> None:
    sqlite_api.create("a")
    assert sqlite_api.get("a", "viewer").status_code == 200
    assert sqlite_api.req("GET", BASE, "viewer").status_code == 200
    assert sqlite_api.req("GET", f"{BASE}?watch=true&timeoutSeconds=1", "viewer").status_code == 200
    body = assert_status(sqlite_api.create("b", as_="viewer"), 403, "Forbidden")
    assert 'User "vera" cannot create resource "configs"' in body["message"]
    obj = sqlite_api.get("a").json()
    assert_status(sqlite_api.req("PUT", f"{BASE}/a", "viewer", json=obj), 403, "Forbidden")
    assert_status(sqlite_api.req("DELETE", f"{BASE}/a", "viewer"), 403, "Forbidden")
    assert_status(sqlite_api.req("POST", "/auth/users", "viewer",
                                 json={"username": "x", "password": "y", "role": "admin"}), 403, "Forbidden")


def test_secrets_masked_for_viewers_revealed_for_admins(sqlite_api: Api) -> None:
    sqlite_api.create("a", SECRET_RAW)
    seen = sqlite_api.get("a", "viewer").json()
    assert seen["status"]["auth"]["oidc"]["clientSecret"] == MASK
    assert "hunter2" not in str(seen)
    listed = sqlite_api.req("GET", BASE, "viewer").text
    assert "hunter2" not in listed
    assert "hunter2" not in sqlite_api.get("a").text  # admins too, unless they ask
    shown = sqlite_api.req("GET", f"{BASE}/a?reveal=true").json()
    assert shown["status"]["auth"]["oidc"]["clientSecret"] == "hunter2-secret"
    assert "hunter2-secret" in shown["spec"]["raw"]
    assert_status(sqlite_api.req("GET", f"{BASE}/a?reveal=true", "viewer"), 403, "Forbidden")


def test_last_applied_annotation_is_masked(sqlite_api: Api) -> None:
    import json

    body = config("a", SECRET_RAW)
    body["metadata"]["annotations"] = {
        "kubectl.kubernetes.io/last-applied-configuration": json.dumps(config("a", SECRET_RAW))}
    sqlite_api.req("POST", BASE, json=body)
    assert "hunter2" not in sqlite_api.get("a", "viewer").text


def test_writing_back_the_mask_is_refused(sqlite_api: Api) -> None:
    sqlite_api.create("a", SECRET_RAW)
    masked = sqlite_api.get("a").json()
    masked["spec"]["raw"] += "platformHost: h\n"
    r = sqlite_api.req("PUT", f"{BASE}/a", json=masked)
    assert_status(r, 422, "Invalid")
    revealed = sqlite_api.req("GET", f"{BASE}/a?reveal=true").json()
    assert "hunter2-secret" in revealed["spec"]["raw"]


def test_timing_safe_comparison_is_used() -> None:
    import inspect

    assert "compare_digest" in inspect.getsource(auth_mod.Authenticator.authenticate)


def ssar(api: Api, as_: str, verb: str, resource: str = "configs", group: str = "management.platform.sh") -> bool:
    body = {"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
            "spec": {"resourceAttributes": {"verb": verb, "resource": resource, "group": group}}}
    r = api.req("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", as_, json=body)
    assert r.status_code == 201, r.text
    return bool(r.json()["status"]["allowed"])


def test_access_reviews_follow_the_rules(sqlite_api: Api, make_api) -> None:
    assert ssar(sqlite_api, "admin", "delete") and ssar(sqlite_api, "viewer", "watch")
    assert not ssar(sqlite_api, "viewer", "create") and not ssar(sqlite_api, "admin", "list", "pods", "")
    locked = make_api("disableConfigEndpoint: true\n")
    assert not ssar(locked, "admin", "update") and ssar(locked, "admin", "get")
    who = sqlite_api.req("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", "viewer", json={})
    assert who.json()["status"]["userInfo"]["username"] == "vera"


def _pb(field: int, payload: bytes) -> bytes:
    assert len(payload) < 128
    return bytes([field << 3 | 2, len(payload)]) + payload


def test_protobuf_access_review_is_decoded(sqlite_api: Api) -> None:
    attrs = _pb(2, b"create") + _pb(3, b"management.platform.sh") + _pb(5, b"configs")
    review = _pb(2, _pb(1, attrs))
    envelope = b"k8s\x00" + _pb(1, _pb(1, b"authorization.k8s.io/v1") + _pb(2, b"SelfSubjectAccessReview")) + _pb(2, review)
    headers = {"Content-Type": "application/vnd.kubernetes.protobuf"}
    r = sqlite_api.req("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "viewer",
                       content=envelope, headers=headers)
    assert r.json()["spec"]["resourceAttributes"]["verb"] == "create"
    assert r.json()["status"]["allowed"] is False
    bad = sqlite_api.req("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "viewer",
                         content=b"k8s\x00\x12\xff", headers=headers)
    assert_status(bad, 400, "BadRequest")
