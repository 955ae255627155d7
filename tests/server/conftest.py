"""Fixtures for the server tests: in-process apps on SQLite or PostgreSQL, a real
PostgreSQL started as an unprivileged user, and real `syncpatch serve` processes."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from syncpatch.server.app import State, create_app
from syncpatch.server.audit import AuditLog
from syncpatch.server.auth import Authenticator, AuthSettings
from syncpatch.server.model_adapter import effective_status
from syncpatch.server.objects import Clock
from syncpatch.server.store import Store, sqlite_url

from ..support.serving import REPO, ServerProc, free_port

__all__ = ["BASE", "REPO", "ServerProc", "free_port"]

BASE = "/apis/management.platform.sh/v1/configs"


# ---- PostgreSQL --------------------------------------------------------------------------
def _pg_bindir() -> Path | None:
    for cand in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(cand, "initdb")):
            return Path(cand)
    found = shutil.which("initdb")
    return Path(os.path.realpath(found)).parent if found else None


def _pg_user() -> tuple[str, int, int] | None:
    """The unprivileged account postgres runs as when we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            continue
        return name, pw.pw_uid, pw.pw_gid
    pytest.skip("running as root and no unprivileged user for PostgreSQL")


@dataclass
class PgServer:
    port: int
    base: Path

    def url(self, schema: str) -> str:
        return (f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
                f"?options=-csearch_path%3D{schema}")

    def create_database(self) -> str:
        """A real database (slower than a schema); returns its name."""
        import psycopg

        name = "d_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name

    def new_database(self) -> str:
        """A fresh, empty namespace for one test: a schema (cheap), not a database."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries (initdb) not found")
    user = _pg_user()
    base = Path(tempfile.mkdtemp(prefix="sp-pg-"))
    prefix: list[str] = []
    if user:
        os.chown(base, user[1], user[2])
        prefix = ["runuser", "-u", user[0], "--"]
    port = free_port()
    data = base / "data"
    subprocess.run(prefix + [str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                             "--auth=trust", "-E", "UTF8", "--no-sync"],
                   check=True, capture_output=True)
    opts = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-o", opts,
                             "-l", str(base / "log"), "-w", "start"], check=True, capture_output=True)
    try:
        yield PgServer(port, base)
    finally:
        subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


BACKENDS = [pytest.param("sqlite", id="sqlite"),
            pytest.param("postgres", id="postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    pg: PgServer = request.getfixturevalue("pg_server")
    return pg.new_database()


# ---- in-process API ----------------------------------------------------------------------
@dataclass
class Api:
    """A TestClient over the app plus admin and viewer tokens."""

    client: TestClient
    state: State
    tokens: dict[str, str] = field(default_factory=dict)

    def req(self, method: str, path: str, as_: str | None = "admin", **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", {}) or {})
        if as_ is not None:
            headers.setdefault("Authorization", f"Bearer {self.tokens.get(as_, as_)}")
        return self.client.request(method, path, headers=headers, **kw)

    def create(self, name: str = "c1", raw: str = "", as_: str = "admin", **meta: Any) -> httpx.Response:
        return self.req("POST", BASE, as_, json=config(name, raw, **meta))

    def get(self, name: str, as_: str = "admin") -> httpx.Response:
        return self.req("GET", f"{BASE}/{name}", as_)


def config(name: str | None = "c1", raw: str = "", **meta: Any) -> dict[str, Any]:
    md: dict[str, Any] = dict(meta)
    if name is not None:
        md["name"] = name
    return {"apiVersion": "management.platform.sh/v1", "kind": "Config", "metadata": md,
            "spec": {"raw": raw}}


def build_api(url: str, raw: str = "", clock: Clock | None = None) -> Api:
    status = effective_status(raw)
    store = Store(url)
    settings = AuthSettings.from_status(status)
    auth = Authenticator(store, settings)
    boot = auth.bootstrap_admin()
    assert boot is not None
    auth.create_user("vera", "viewer", "viewer-password")
    viewer, _, _ = auth.issue("vera", "api")
    state = State(store=store, auth=auth, audit=AuditLog(status.get("audit") or {}),
                  settings=settings, clock=clock or Clock())
    client = TestClient(create_app(state), base_url="https://testserver")
    return Api(client, state, {"admin": boot[0], "viewer": viewer})


@pytest.fixture
def api(store_url: str) -> Iterator[Api]:
    a = build_api(store_url)
    with a.client:
        yield a
    a.state.store.close()


@pytest.fixture
def sqlite_api(tmp_path: Path) -> Iterator[Api]:
    a = build_api(sqlite_url(tmp_path))
    with a.client:
        yield a
    a.state.store.close()


# ---- real server processes ---------------------------------------------------------------
@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Factory: serve(extra_args) starts a server; all are stopped afterwards."""
    procs: list[ServerProc] = []
    home = tmp_path / "home"
    home.mkdir()

    def start(*extra: str, data: Path | None = None, port: int | None = None) -> ServerProc:
        proc = ServerProc(data or tmp_path / f"data{len(procs)}", port or free_port(), list(extra), home)
        procs.append(proc)
        return proc.start()

    yield start
    for p in procs:
        p.kill()
