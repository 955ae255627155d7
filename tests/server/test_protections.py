"""Protections against heavy and hostile traffic: bounds, back-off, readiness, timeouts,
private files, one identity for replicas, and the masked-rendering cache."""

from __future__ import annotations

import json
import socket
import ssl
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import uvicorn

from syncpatch.server import http as server_http
from syncpatch.server import rendering, runner, store as server_store
from syncpatch.server.store import sqlite_url
from syncpatch.server.throttle import LoginThrottle, Rate

from .conftest import BASE, REPO, Api, PgServer, build_api, config, free_port
from .test_semantics import assert_status

JSONP = {"Content-Type": "application/json-patch+json"}


# ---- login back-off ----------------------------------------------------------------------
def test_login_is_throttled_per_user(sqlite_api: Api) -> None:
    codes = [sqlite_api.req("POST", "/auth/login", None,
                            json={"username": "admin", "password": f"guess-{i}"}).status_code
             for i in range(8)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429] * 3
    r = sqlite_api.req("POST", "/auth/login", None, json={"username": "admin", "password": "x"})
    body = assert_status(r, 429, "TooManyRequests")
    assert int(r.headers["Retry-After"]) >= 1 and body["details"]["retryAfterSeconds"] >= 1


def test_login_is_throttled_per_address_across_users(sqlite_api: Api) -> None:
    sqlite_api.state.login_throttle = LoginThrottle(address_rate=Rate(burst=3, per_second=0.01))
    codes = [sqlite_api.req("POST", "/auth/login", None,
                            json={"username": f"user{i}", "password": "x"}).status_code
             for i in range(5)]
    assert codes == [401, 401, 401, 429, 429]


def test_throttle_refills_and_success_gives_back() -> None:
    now = [0.0]
    throttle = LoginThrottle(Rate(2, 1.0), Rate(100, 1.0), clock=lambda: now[0])
    throttle.acquire("u", "a")
    throttle.succeeded("u", "a")
    throttle.acquire("u", "a")
    throttle.acquire("u", "a")
    with pytest.raises(Exception, match="too many login attempts"):
        throttle.acquire("u", "a")
    now[0] += 1.0
    throttle.acquire("u", "a")


# ---- readiness ---------------------------------------------------------------------------
def test_readyz_follows_the_store(sqlite_api: Api) -> None:
    assert sqlite_api.req("GET", "/readyz", None).status_code == 200
    dead = sa.create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/x",
                            connect_args={"connect_timeout": 1})
    live, sqlite_api.state.store.engine = sqlite_api.state.store.engine, dead
    try:
        assert sqlite_api.req("GET", "/readyz", None).status_code == 503
        assert sqlite_api.req("GET", "/healthz", None).status_code == 200  # liveness
    finally:
        sqlite_api.state.store.engine = live
    assert sqlite_api.req("GET", "/readyz", None).status_code == 200


# ---- bounds ------------------------------------------------------------------------------
def test_json_patch_copy_amplification_is_413(sqlite_api: Api) -> None:
    assert sqlite_api.create("a", "projectNamespacePrefix: " + "p" * 20 + "\n",
                             annotations={"x": "y" * 4000}).status_code == 201
    ops = [{"op": "add", "path": "/metadata/labels", "value": {}}]
    ops += [{"op": "copy", "from": "/metadata/annotations", "path": f"/metadata/annotations/k{i}"}
            for i in range(40)]
    r = sqlite_api.req("PATCH", f"{BASE}/a", content=json.dumps(ops), headers=JSONP)
    assert r.status_code in (413, 422), r.text
    assert r.status_code != 500


def test_yaml_alias_expansion_in_raw_is_bounded(sqlite_api: Api) -> None:
    raw = "x: &a [" + ",".join(['"' + "z" * 1000 + '"'] * 10) + "]\n"
    raw += "".join(f"y{i}: &b{i} [*{'a' if i == 0 else f'b{i - 1}'}, "
                   f"*{'a' if i == 0 else f'b{i - 1}'}]\n" for i in range(12))
    r = sqlite_api.create("bomb", raw)
    body = assert_status(r, 422, "Invalid")
    assert "aliases are expanded" in body["message"]


def test_large_raw_is_refused_before_parsing(sqlite_api: Api) -> None:
    raw = "a:\n" + "".join(f"  k{i}: [1, 2]\n" for i in range(60000))
    body = assert_status(sqlite_api.create("big", raw), 422, "Invalid")
    assert "spec.raw" in body["message"] and "longer than" in body["message"]


def test_yaml_body_node_count_is_bounded(sqlite_api: Api) -> None:
    doc = "metadata:\n  name: n\n  labels:\n" + "".join(f"    k{i}: v\n" for i in range(30000))
    r = sqlite_api.req("POST", BASE, content=doc, headers={"Content-Type": "application/yaml"})
    assert "more than" in assert_status(r, 400, "BadRequest")["message"]


def test_object_size_is_bounded(sqlite_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_store, "MAX_OBJECT_BYTES", 4000)
    r = sqlite_api.create("a", annotations={"x": "y" * 5000})
    assert_status(r, 413, "RequestEntityTooLarge")


def test_watch_history_is_bounded_by_bytes(sqlite_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_store, "HISTORY_BYTES", 20_000)
    for i in range(10):
        assert sqlite_api.create(f"o{i}", annotations={"x": "y" * 3000}).status_code == 201
    store = sqlite_api.state.store
    store.compact()
    compacted, events = store.events_since(0)
    assert compacted > 0 and sum(len(json.dumps(e[2])) for e in events) <= 20_000 + 4000
    r = sqlite_api.req("GET", BASE, params={"watch": "1", "resourceVersion": "1",
                                            "timeoutSeconds": "1"})
    assert json.loads(r.text.splitlines()[0])["object"]["code"] == 410


def test_number_of_watches_is_bounded(sqlite_api: Api) -> None:
    sqlite_api.state.max_watches = 0
    r = sqlite_api.req("GET", BASE, params={"watch": "1", "timeoutSeconds": "1"})
    assert_status(r, 429, "TooManyRequests")


# ---- rendering cache -----------------------------------------------------------------------
def test_masked_rendering_is_computed_once_per_version(sqlite_api: Api,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    raw = (REPO / "examples/platform/maximal.yaml").read_text()
    assert sqlite_api.create("m", raw).status_code == 201
    calls = []
    real = rendering.mask_object
    monkeypatch.setattr(rendering, "mask_object", lambda o: calls.append(1) or real(o))
    first = sqlite_api.get("m").json()
    for _ in range(5):
        assert sqlite_api.get("m").json() == first
        assert sqlite_api.req("GET", BASE).status_code == 200
    assert len(calls) <= 2  # the object, once (and its last-applied annotation, if any)
    assert "********" in first["spec"]["raw"]
    patch = {"metadata": {"labels": {"k": "v"}}}
    sqlite_api.req("PATCH", f"{BASE}/m", json=patch,
                   headers={"Content-Type": "application/merge-patch+json"})
    assert sqlite_api.get("m").json()["metadata"]["labels"] == {"k": "v"}


def test_last_applied_annotation_is_kept_byte_for_byte(sqlite_api: Api) -> None:
    applied = json.dumps(config("a", "projectNamespacePrefix: q-\n")) + "\n"
    r = sqlite_api.create("a", "projectNamespacePrefix: q-\n",
                          annotations={rendering.LAST_APPLIED: applied})
    assert r.status_code == 201
    shown = sqlite_api.get("a").json()["metadata"]["annotations"][rendering.LAST_APPLIED]
    assert shown == applied


# ---- audit and logs ----------------------------------------------------------------------
def test_query_string_tokens_do_not_reach_the_audit_log(tmp_path: Path) -> None:
    logdir = tmp_path / "audit"
    api = build_api(sqlite_url(tmp_path), f"audit:\n  enabled: true\n  path: {logdir}\n  level: 1\n")
    with api.client:
        token = api.tokens["admin"]
        api.req("GET", BASE, None, params={"token": token, "access_token": "s3cr3t-value"})
        api.req("GET", BASE, None, params={"x": token})
    text = (logdir / "audit.log").read_text()
    assert token.split(".")[2] not in text and "s3cr3t-value" not in text
    assert "********" in text
    api.state.store.close()


# ---- connections -------------------------------------------------------------------------
@pytest.fixture
def plain_server(sqlite_api: Api, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The app under uvicorn with the server's protocol, without TLS, on a free port."""
    monkeypatch.setattr(runner, "HEADER_TIMEOUT", 0.5)
    monkeypatch.setattr(server_http, "BODY_TIMEOUT", 0.5)
    port = free_port()
    config_ = uvicorn.Config(sqlite_api.client.app, host="127.0.0.1", port=port,
                             http=runner.HeadDeadlineProtocol, log_level="error", lifespan="off")
    server = uvicorn.Server(config_)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(10)


def _closed_within(sock: socket.socket, seconds: float) -> tuple[bool, bytes]:
    sock.settimeout(seconds)
    data = b""
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                return True, data
            data += chunk
    except socket.timeout:
        return False, data


def test_slow_request_head_is_cut(plain_server: int) -> None:
    with socket.create_connection(("127.0.0.1", plain_server)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        for _ in range(3):
            time.sleep(0.2)
            try:
                sock.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
        closed, _data = _closed_within(sock, 3)
    assert closed


def test_silent_connection_is_cut(plain_server: int) -> None:
    with socket.create_connection(("127.0.0.1", plain_server)) as sock:
        closed, data = _closed_within(sock, 3)
    assert closed and data == b""


def test_slow_body_is_408(plain_server: int, sqlite_api: Api) -> None:
    token = sqlite_api.tokens["admin"]
    with socket.create_connection(("127.0.0.1", plain_server)) as sock:
        sock.sendall(f"POST {BASE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{".encode())
        closed, data = _closed_within(sock, 3)
    assert b" 408 " in data.split(b"\r\n", 1)[0], data[:200]


def test_keep_alive_request_still_works(plain_server: int) -> None:
    with socket.create_connection(("127.0.0.1", plain_server)) as sock:
        for _ in range(2):
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            sock.settimeout(3)
            data = b""
            while not data.endswith(b"\r\n\r\nok"):
                data += sock.recv(4096)
            assert data.startswith(b"HTTP/1.1 200 OK")


# ---- files and identity ------------------------------------------------------------------
def test_data_dir_and_store_files_are_private(serve: Any, tmp_path: Path) -> None:
    proc = serve()
    client = proc.client(proc.token())
    assert client.post(BASE, json=config("a")).status_code == 201
    mode = stat.S_IMODE(proc.data.stat().st_mode)
    assert mode == 0o700
    for name in ("store.db", "store.db-wal", "ca.key", "tls.key", "kubeconfig", "admin-password"):
        path = proc.data / name
        assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600, name


@pytest.mark.postgres
def test_replicas_share_one_ca_and_serving_identity(serve: Any, pg_server: PgServer) -> None:
    url = pg_server.new_database()
    first = serve("--store", url)
    second = serve("--store", url)
    assert (first.data / "ca.crt").read_bytes() == (second.data / "ca.crt").read_bytes()
    assert (first.data / "tls.crt").read_bytes() == (second.data / "tls.crt").read_bytes()
    # the first replica's kubeconfig (its CA and token) works against the second
    ctx = ssl.create_default_context(cafile=str(first.data / "ca.crt"))
    with httpx.Client(base_url=second.url, verify=ctx,
                      headers={"Authorization": f"Bearer {first.token()}"}) as c:
        assert c.get(BASE).status_code == 200


# ---- secrets in answers --------------------------------------------------------------------
@pytest.mark.parametrize("raw", [
    "auth:\n  oidc:\n    clientSecret: 918273645\n",
    "apps:\n  repositories:\n  - name: r\n    url: https://git.example.com/r.git\n    password: 918273645\n",
])
def test_mistyped_numeric_secret_is_not_echoed(sqlite_api: Api, raw: str) -> None:
    r = sqlite_api.create("s", raw)
    assert r.status_code == 422, r.text
    assert "918273645" not in r.text


def test_credentials_in_urls_are_masked_in_reads(sqlite_api: Api) -> None:
    raw = ("database:\n  enabled: true\n"
           "  dataSource: postgres://app:pw@db.example.com:5432/x?sslpassword=dsn-pw-1\n")
    r = sqlite_api.create("u", raw)
    assert r.status_code == 201, r.text
    for who in ("admin", "viewer"):
        text = sqlite_api.get("u", who).text
        assert "dsn-pw-1" not in text and "sslpassword=********" in text
    revealed = sqlite_api.req("GET", f"{BASE}/u", params={"reveal": "true"}).text
    assert "dsn-pw-1" in revealed


# ---- authentication cache ----------------------------------------------------------------
def test_verified_keys_are_remembered_briefly_and_revocation_is_immediate(
        sqlite_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    from syncpatch.server import auth as auth_mod

    key = sqlite_api.req("POST", "/auth/keys", json={}).json()
    assert sqlite_api.req("GET", BASE, key["token"]).status_code == 200
    # revoked behind the server's back (another replica): trusted at most AUTH_CACHE_SECONDS
    sqlite_api.state.store.run(lambda c: c.execute(
        auth_mod.keys_t.update().where(auth_mod.keys_t.c.id == key["id"]).values(revoked=True)),
        write=True)
    assert sqlite_api.req("GET", BASE, key["token"]).status_code == 200
    real = time.time
    monkeypatch.setattr(auth_mod.time, "time", lambda: real() + auth_mod.AUTH_CACHE_SECONDS + 0.1)
    assert sqlite_api.req("GET", BASE, key["token"]).status_code == 401
    monkeypatch.undo()
    # revoked through this server: forgotten at once
    other = sqlite_api.req("POST", "/auth/keys", json={}).json()
    assert sqlite_api.req("GET", BASE, other["token"]).status_code == 200
    assert sqlite_api.req("DELETE", f"/auth/keys/{other['id']}").status_code == 200
    assert sqlite_api.req("GET", BASE, other["token"]).status_code == 401
