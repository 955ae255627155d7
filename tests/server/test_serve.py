"""`syncpatch serve` as a process: first start, restarts, config errors, and the Config
settings that need a restart (disableConfigEndpoint), through kubectl."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import REPO, ServerProc

RES = "config.management.platform.sh"


def test_first_start_makes_ca_kubeconfig_and_admin(serve, tmp_path: Path) -> None:
    out = tmp_path / "out" / "admin.kubeconfig"
    srv: ServerProc = serve("--kubeconfig-out", str(out))
    cfg = yaml.safe_load(srv.kubeconfig.read_text())
    cluster = cfg["clusters"][0]["cluster"]
    assert cluster["server"] == srv.url
    assert base64.b64decode(cluster["certificate-authority-data"]) == (srv.data / "ca.crt").read_bytes()
    assert cfg["users"][0]["user"]["token"].startswith("sp.")
    assert yaml.safe_load(out.read_text()) == cfg
    for secret in ("ca.key", "tls.key", "kubeconfig", "admin-password"):
        assert (srv.data / secret).stat().st_mode & 0o077 == 0
    with srv.client(srv.token()) as c:
        assert c.get("/apis/management.platform.sh/v1/configs/platform").status_code == 200
    import httpx

    with pytest.raises(httpx.HTTPError):  # plain http is refused: TLS only
        httpx.get(f"http://127.0.0.1:{srv.port}/version", timeout=3)


def test_certificates_pass_strict_x509_verification(serve) -> None:
    """RFC 5280 strict checking (the default of CPython 3.13's ssl contexts, and of other
    strict clients) needs key identifiers and key usage on the chain; without them a 3.13
    client cannot connect at all."""
    import ssl

    import httpx

    srv: ServerProc = serve()
    ctx = ssl.create_default_context(cafile=str(srv.data / "ca.crt"))
    ctx.verify_flags |= ssl.VERIFY_X509_STRICT
    assert httpx.get(f"{srv.url}/healthz", verify=ctx, timeout=10).status_code == 200


def test_restart_keeps_ca_token_and_objects(serve, tmp_path: Path) -> None:
    srv: ServerProc = serve()
    ca, token = (srv.data / "ca.crt").read_bytes(), srv.token()
    with srv.client(token) as c:
        r = c.post("/apis/management.platform.sh/v1/configs",
                   json={"apiVersion": "management.platform.sh/v1", "kind": "Config",
                         "metadata": {"name": "kept"}, "spec": {"raw": ""}})
        assert r.status_code == 201
    srv.kill()
    again = serve(data=srv.data, port=srv.port)
    assert (again.data / "ca.crt").read_bytes() == ca and again.token() == token
    with again.client(token) as c:
        assert c.get("/apis/management.platform.sh/v1/configs/kept").status_code == 200


def test_invalid_server_config_exits_with_message(tmp_path: Path) -> None:
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("auth:\n  password:\n    disabled: maybe\n")
    result = subprocess.run([sys.executable, "-m", "syncpatch", "serve", "--data", str(tmp_path / "d"),
                             "--config", str(cfg), "--listen", "127.0.0.1:1"],
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert result.returncode != 0
    assert "auth.password.disabled" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.kubectl
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl not on PATH")
def test_disable_config_endpoint_through_kubectl(serve, tmp_path: Path) -> None:
    cfg = tmp_path / "platform.yaml"
    cfg.write_text("disableConfigEndpoint: true\nplatformHost: locked.example.com\n")
    srv: ServerProc = serve("--config", str(cfg))
    got = srv.kubectl("get", RES, "platform", "-o", "jsonpath={.status.platformHost}")
    assert got.stdout == "locked.example.com"
    doc = {"apiVersion": "management.platform.sh/v1", "kind": "Config",
           "metadata": {"name": "x"}, "spec": {"raw": ""}}
    result = srv.kubectl("create", "-f", "-", input=yaml.safe_dump(doc))
    assert result.returncode == 1
    assert "Forbidden" in result.stderr and "disableConfigEndpoint" in result.stderr
    # changing it takes the config file and a restart
    srv.kill()
    cfg.write_text("platformHost: open.example.com\n")
    srv = serve("--config", str(cfg), data=srv.data, port=srv.port)
    assert srv.kubectl("create", "-f", "-", input=yaml.safe_dump(doc)).returncode == 0
    got = srv.kubectl("get", RES, "platform", "-o", "jsonpath={.status.platformHost}")
    assert got.stdout == "open.example.com"


@pytest.mark.kubectl
@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl not on PATH")
def test_authenticate_version_endpoint_process(serve, tmp_path: Path) -> None:
    cfg = tmp_path / "platform.yaml"
    cfg.write_text("authenticateVersionEndpoint: true\n")
    srv: ServerProc = serve("--config", str(cfg))
    with srv.client() as c:
        assert c.get("/version").status_code == 401
    assert "v1.32" in srv.kubectl("version").stdout


@pytest.mark.postgres
def test_effective_config_database_selects_postgresql(serve, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    import psycopg

    pg = request.getfixturevalue("pg_server")
    db = pg.create_database()
    cfg = tmp_path / "platform.yaml"
    cfg.write_text(f"database:\n  enabled: true\n  dataSource: postgres://postgres:unused@127.0.0.1:{pg.port}/{db}\n")
    srv: ServerProc = serve("--config", str(cfg))
    assert not (srv.data / "store.db").exists()
    with psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres dbname={db}") as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sp_configs")]
    assert names == ["platform"]
    with srv.client(srv.token()) as c:  # the served object hides the database password
        obj = c.get("/apis/management.platform.sh/v1/configs/platform").json()
    assert "unused" not in obj["spec"]["raw"] and "unused" not in str(obj["status"])


def test_store_url_choice(tmp_path: Path) -> None:
    from syncpatch.server.bootstrap import ServeError, ServeOptions, store_url

    opts = ServeOptions(data_dir=tmp_path)
    assert store_url(opts, {}) == f"sqlite+pysqlite:///{tmp_path / 'store.db'}"
    pg = {"database": {"enabled": True, "dataSource": "postgres://u:p@h:5432/db"}}
    assert store_url(opts, pg) == "postgres://u:p@h:5432/db"
    assert store_url(opts, {"database": {"enabled": False, "dataSource": "postgres://u:p@h:5432/db"}}).startswith("sqlite")
    assert store_url(ServeOptions(data_dir=tmp_path, store_url="postgresql://x"), pg) == "postgresql://x"
    with pytest.raises(ServeError):
        store_url(opts, {"database": {"enabled": True, "dataSource": "mysql://u:p@h:3306/db"}})


def test_expired_admin_key_is_reminted_on_restart(serve, tmp_path: Path) -> None:
    import time

    cfg = tmp_path / "platform.yaml"
    cfg.write_text("auth:\n  accessKeyMaxTTLSeconds: 2\n")
    srv: ServerProc = serve("--config", str(cfg))
    old = srv.token()
    with srv.client(old) as c:
        assert c.get("/apis").status_code == 200
        time.sleep(2.1)
        assert c.get("/apis").status_code == 401  # capped by accessKeyMaxTTLSeconds
    srv.kill()
    again = serve("--config", str(cfg), data=srv.data, port=srv.port)
    assert again.token() != old
    with again.client(again.token()) as c:
        assert c.get("/apis").status_code == 200


def test_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "syncpatch", "serve", "--data", str(tmp_path / "d"),
                                 "--listen", f"127.0.0.1:{port}"], capture_output=True, text=True,
                                env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "Traceback" not in result.stderr
