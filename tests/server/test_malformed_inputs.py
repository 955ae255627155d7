"""The malformed-input suite: every hostile input gets a 4xx `Status`, on SQLite and on
PostgreSQL, and no watch stream is cut.

Each case is one request that once gave a 500, cut a stream, or poisoned the store; the
families around them (other non-ASCII digits, other out-of-range integers, other fields)
are covered by parametrisation. A case passes when the answer is a `v1` `Status` with a
code in 400..499, and the store still serves every user afterwards.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from typing import Any

import pytest

from .conftest import BASE, Api, config

JSONP = {"Content-Type": "application/json-patch+json"}
MERGE = {"Content-Type": "application/merge-patch+json"}
REVIEWS = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"


def _token(payload: Any) -> str:
    raw = json.dumps(payload).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _review(**attrs: Any) -> dict[str, Any]:
    return {"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
            "spec": {"resourceAttributes": {"group": "management.platform.sh",
                                            "resource": "configs", **attrs}}}


# (id, method, path, keyword arguments, who); paths are relative to BASE unless absolute.
CASES: list[tuple[str, str, str, dict[str, Any], str | None]] = [
    *[(f"watch-rv-{v!r}", "GET", "", {"params": {"watch": "true", "resourceVersion": v,
                                                   "timeoutSeconds": "1"}}, "admin")
      for v in ["²", "١٢", "１", "9" * 20, "9" * 400, "18446744073709551616", "-1", " 1"]],
    *[(f"watch-item-rv-{v!r}", "GET", "/c1", {"params": {"watch": "true", "resourceVersion": v,
                                                          "timeoutSeconds": "1"}}, "admin")
      for v in ["²", "9" * 20]],
    *[(f"jsonpatch-index-{i!r}", "PATCH", "/c1",
       {"content": json.dumps([{"op": "add", "path": f"/metadata/finalizers/{i}",
                                "value": "a.b/c"}]), "headers": JSONP}, "admin")
      for i in ["²", "٣", "9" * 30, "-1"]],
    ("jsonpatch-from-index", "PATCH", "/c1",
     {"content": json.dumps([{"op": "copy", "from": "/metadata/finalizers/²",
                              "path": "/metadata/labels"}]), "headers": JSONP}, "admin"),
    *[(f"continue-{n}", "GET", "", {"params": {"limit": "1", "continue": _token(tok)}}, "admin")
      for n, tok in [("huge-rv", {"v": "sp/v1", "rv": 10 ** 30, "start": "a"}),
                     ("float-rv", {"v": "sp/v1", "rv": 1e308, "start": "a"}),
                     ("inf-rv", {"v": "sp/v1", "rv": "Infinity", "start": "a"}),
                     ("nul-start", {"v": "sp/v1", "rv": 1, "start": "a\u0000b"}),
                     ("long-start", {"v": "sp/v1", "rv": 1, "start": "a" * 5000}),
                     ("list-start", {"v": "sp/v1", "rv": 1, "start": ["a"]}),
                     ("neg-rv", {"v": "sp/v1", "rv": -5, "start": "a"}),
                     ("surrogate", {"v": "sp/v1", "rv": 1, "start": "\udc80"})]],
    ("continue-not-json", "GET", "", {"params": {"continue": "////"}}, "admin"),
    *[(f"raw-{n}", "POST", "", {"json": config("r1", raw)}, "admin") for n, raw in [
        ("5000-digit-int", "projectNamespacePrefix: p-\nx: " + "9" * 5000 + "\n"),
        ("5000-digit-float", "x: 1" + "0" * 5000 + ".5\n"),
        ("surrogate-escape", 'projectNamespacePrefix: "\\udc80"\n'),
        ("surrogate-key", '"\\udc80": 1\n'),
        ("nul-escape", 'projectNamespacePrefix: "a\\0b"\n'),
        ("huge-exponent", "x: 1e99999\n"),
    ]],
    ("raw-surrogate-merge", "PATCH", "/c1",
     {"content": json.dumps({"spec": {"raw": 'projectNamespacePrefix: "\\udc80"\n'}}),
      "headers": MERGE}, "admin"),
    *[(f"ttl-{n}", "POST", "/auth/keys", {"json": {"ttlSeconds": v}}, "admin")
      for n, v in [("huge", 10 ** 30), ("big", 2 ** 63), ("float", 1.5), ("bool", True),
                   ("str", "10")]],
    ("key-for-missing-user", "POST", "/auth/keys", {"json": {"user": "nobody-here"}}, "admin"),
    ("key-for-nul-user", "POST", "/auth/keys", {"json": {"user": "a\u0000b"}}, "admin"),
    *[(f"review-{n}", "POST", REVIEWS, {"json": _review(**attrs)}, "admin")
      for n, attrs in [("list-verb", {"verb": ["get"]}), ("dict-verb", {"verb": {"a": 1}}),
                       ("int-verb", {"verb": 7}), ("list-group", {"verb": "get", "group": ["x"]}),
                       ("list-resource", {"verb": "get", "resource": ["configs"]}),
                       ("list-subresource", {"verb": "get", "subresource": ["x"]})]],
    ("review-nonresource-list", "POST", REVIEWS,
     {"json": {"spec": {"nonResourceAttributes": {"verb": ["get"], "path": ["/"]}}}}, "admin"),
    ("review-yaml-refused", "POST", REVIEWS,
     {"content": "spec: {resourceAttributes: {verb: get}}",
      "headers": {"Content-Type": "application/yaml"}}, "admin"),
    *[(f"grace-{n}", "DELETE", "/c1", kw, "admin") for n, kw in [
        ("query-huge", {"params": {"gracePeriodSeconds": "9" * 30}}),
        ("query-big", {"params": {"gracePeriodSeconds": str(2 ** 63)}}),
        ("body-huge", {"content": json.dumps({"gracePeriodSeconds": 10 ** 30})}),
        ("body-float", {"content": json.dumps({"gracePeriodSeconds": 1e300})}),
    ]],
    *[(f"name-{n}", method, f"/{name}", kw, "admin") for n, name, method, kw in [
        ("nul-get", "a%00b", "GET", {}),
        ("nul-delete", "a%00b", "DELETE", {}),
        ("nul-put", "a%00b", "PUT", {"json": config("a\u0000b")}),
        ("nul-patch", "a%00b", "PATCH", {"json": {}, "headers": MERGE}),
        ("nul-apply", "a%00b", "PATCH", {"content": "{}", "headers": {
            "Content-Type": "application/apply-patch+yaml"}, "params": {"fieldManager": "t"}}),
        ("long-get", "a" * 300, "GET", {}),
        ("long-watch", "a" * 300, "GET", {"params": {"watch": "1", "timeoutSeconds": "1"}}),
        ("long-delete", "a" * 5000, "DELETE", {}),
        ("surrogate-get", "%ED%B2%80", "GET", {}),
    ]],
    ("create-nul-name", "POST", "", {"json": config("a\u0000b")}, "admin"),
    ("create-nul-generate", "POST", "", {"json": config(None, generateName="a\u0000")}, "admin"),
    *[(f"login-{n}", "POST", "/auth/login", {"json": body}, None) for n, body in [
        ("nul-user", {"username": "a\u0000b", "password": "x"}),
        ("long-user", {"username": "a" * 5000, "password": "x"}),
        ("nul-password", {"username": "admin", "password": "a\u0000"}),
        ("huge-password", {"username": "admin", "password": "p" * 60000}),
        ("list-user", {"username": ["admin"], "password": "x"}),
    ]],
    ("login-yaml-refused", "POST", "/auth/login",
     {"content": "username: admin\npassword: x\n", "headers": {"Content-Type": "application/yaml"}},
     None),
    ("user-nul-name", "POST", "/auth/users",
     {"json": {"username": "a\u0000b", "password": "x", "role": "viewer"}}, "admin"),
    ("user-long-name", "POST", "/auth/users",
     {"json": {"username": "u" * 300, "password": "x", "role": "viewer"}}, "admin"),
    ("revoke-nul-id", "DELETE", "/auth/keys/a%00b", {}, "admin"),
    ("revoke-long-id", "DELETE", "/auth/keys/" + "f" * 500, {}, "admin"),
    ("bearer-nul-id", "GET", "", {}, "sp.a\u0000b.secret"),
    ("bearer-long-id", "GET", "", {}, "sp." + "f" * 5000 + ".secret"),
    *[(f"limit-{v}", "GET", "", {"params": {"limit": v}}, "admin")
      for v in ["²", "9" * 30, "9" * 5000]],
    ("timeout-huge", "GET", "", {"params": {"watch": "true", "timeoutSeconds": "9" * 30}}, "admin"),
]


@pytest.fixture
def seeded(api: Api) -> Api:
    r = api.create("c1", finalizers=[])
    assert r.status_code == 201, r.text
    return api


def _send(api: Api, method: str, path: str, kw: dict[str, Any], who: str | None) -> Any:
    url = path if path.startswith("/a") else BASE + path
    return api.req(method, url, who, **kw)


@pytest.mark.parametrize(("case", "method", "path", "kw", "who"), CASES, ids=[c[0] for c in CASES])
def test_malformed_input_is_a_4xx_status(seeded: Api, case: str, method: str, path: str,
                                         kw: dict[str, Any], who: str | None) -> None:
    resp = _send(seeded, method, path, kw, who)
    assert resp.status_code < 500, (case, resp.status_code, resp.text[:500])
    if resp.status_code >= 400:
        body = resp.json()
        assert body["kind"] == "Status" and body["code"] == resp.status_code, resp.text
        assert "Traceback" not in resp.text
    else:  # a stream that was accepted must end cleanly with well-formed JSON lines
        for line in resp.text.splitlines():
            event = json.loads(line)
            assert event["type"] in ("ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR")
    for who_reads in ("admin", "viewer"):  # nothing poisoned the store
        listed = seeded.req("GET", BASE, who_reads)
        assert listed.status_code == 200, (case, listed.text[:300])
    assert seeded.get("c1").status_code == 200


EXPECTED = {
    "watch-rv-'²'": 400, "jsonpatch-index-'²'": 422, "raw-5000-digit-int": 422,
    "raw-surrogate-escape": 422, "ttl-huge": 422, "review-list-verb": 400,
    "grace-query-huge": 400, "login-nul-user": 401, "login-long-user": 401,
    "key-for-missing-user": 404, "review-yaml-refused": 415, "login-yaml-refused": 415,
    "continue-nul-start": 400, "continue-huge-rv": 400,
}


@pytest.mark.parametrize(("case", "code"), sorted(EXPECTED.items()))
def test_malformed_input_reason(sqlite_api: Api, case: str, code: int) -> None:
    """The exact code for the issue's cases, so a 4xx of the wrong kind is caught too."""
    assert sqlite_api.create("c1", finalizers=[]).status_code == 201
    _id, method, path, kw, who = next(c for c in CASES if c[0] == case)
    resp = _send(sqlite_api, method, path, kw, who)
    assert resp.status_code == code, resp.text


def test_poisoned_status_is_not_stored(sqlite_api: Api) -> None:
    r = sqlite_api.create("p", 'projectNamespacePrefix: "\\udc80"\n')
    assert r.status_code == 422
    assert "spec.raw" in r.text
    assert sqlite_api.get("p").status_code == 404


def test_client_disconnect_is_not_an_internal_error(sqlite_api: Api,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """A client that goes away mid-body is not logged as a server fault."""
    app = sqlite_api.client.app
    token = sqlite_api.tokens["admin"]
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": b'{"metadata":', "more_body": True},
                {"type": "http.disconnect"}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "https", "path": BASE, "raw_path": BASE.encode(), "query_string": b"",
             "root_path": "", "server": ("testserver", 443), "client": ("127.0.0.1", 5000),
             "headers": [(b"authorization", f"Bearer {token}".encode()),
                         (b"content-type", b"application/json"), (b"content-length", b"100")],
             "app": app}
    with caplog.at_level(logging.WARNING, logger="syncpatch.server"):
        asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    assert not [r for r in caplog.records if "internal error" in r.getMessage()]
    starts = [m for m in sent if m["type"] == "http.response.start"]
    assert all(m["status"] < 500 for m in starts)


def test_malformed_answers_are_documented_in_openapi(sqlite_api: Api) -> None:
    """Each Config operation's answer to the suite is a response the OpenAPI documents,
    with the meta/v1 Status schema."""
    doc = sqlite_api.req("GET", "/openapi/v3/apis/management.platform.sh/v1").json()
    assert "io.k8s.apimachinery.pkg.apis.meta.v1.Status" in doc["components"]["schemas"]
    assert sqlite_api.create("c1", finalizers=[]).status_code == 201
    checked = 0
    for case, method, path, kw, who in CASES:
        if path.startswith("/a"):
            continue
        resp = _send(sqlite_api, method, path, kw, who)
        template = BASE if path in ("", "?") else BASE + "/{name}"
        op = doc["paths"][template][method.lower()]
        assert str(resp.status_code) in op["responses"], (case, resp.status_code)
        if resp.status_code >= 400:
            schema = op["responses"][str(resp.status_code)]["content"]["application/json"]["schema"]
            assert schema["$ref"].endswith("meta.v1.Status")
        checked += 1
    assert checked > 40
