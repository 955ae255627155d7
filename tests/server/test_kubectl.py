"""The real kubectl (v1.32) against `syncpatch serve`, asserting on parsed output."""

from __future__ import annotations

import json
import os
import shutil
import threading
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import ServerProc, free_port

pytestmark = [pytest.mark.kubectl,
              pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl not on PATH")]

RES = "config.management.platform.sh"
SERVER_CONFIG = """platformHost: platform.example.com
audit:
  enabled: true
  path: {audit}
  policy:
    rules:
    - level: Metadata
auth:
  oidc:
    issuerUrl: https://idp.example.com
    clientId: platform
    clientSecret: very-secret-value
"""


def manifest(name: str, host: str, labels: dict[str, str] | None = None) -> str:
    doc = {"apiVersion": "management.platform.sh/v1", "kind": "Config",
           "metadata": {"name": name, "labels": labels or {}},
           "spec": {"raw": f"platformHost: {host}\n"}}
    return yaml.safe_dump(doc)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    base = tmp_path_factory.mktemp("kubectl")
    cfg = base / "platform.yaml"
    cfg.write_text(SERVER_CONFIG.format(audit=base / "audit"))
    home = base / "home"
    home.mkdir()
    proc = ServerProc(base / "data", free_port(), ["--config", str(cfg)], home).start()
    yield proc
    proc.kill()


def kc(server: ServerProc, *args: str, input: str | None = None, ok: bool = True) -> subprocess.CompletedProcess[str]:
    result = server.kubectl(*args, input=input)
    if ok:
        assert result.returncode == 0, result.stderr
    return result


def table_rows(text: str) -> tuple[list[str], list[list[str]]]:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0].split(), [line.split() for line in lines[1:]]


def test_get_table(server: ServerProc) -> None:
    header, rows = table_rows(kc(server, "get", RES).stdout)
    assert header == ["NAME", "PLATFORM-HOST", "AUDIT", "AGE"]
    platform = next(r for r in rows if r[0] == "platform")
    assert platform[1:3] == ["platform.example.com", "enabled"]
    wide_header, _ = table_rows(kc(server, "get", RES, "-o", "wide").stdout)
    assert wide_header == ["NAME", "PLATFORM-HOST", "AUDIT", "AUTH", "AGE"]


def test_get_one_as_yaml_with_masked_secret(server: ServerProc) -> None:
    obj = yaml.safe_load(kc(server, "get", RES, "platform", "-o", "yaml").stdout)
    assert obj["apiVersion"] == "management.platform.sh/v1" and obj["kind"] == "Config"
    assert obj["metadata"]["name"] == "platform" and obj["metadata"]["uid"]
    assert obj["status"]["platformHost"] == "platform.example.com"
    assert obj["status"]["auth"]["oidc"]["clientSecret"] == "********"
    assert "very-secret-value" not in obj["spec"]["raw"]


def test_create_list_json_and_selectors(server: ServerProc) -> None:
    out = kc(server, "create", "-f", "-", input=manifest("created", "c.example.com", {"tier": "x"}))
    assert out.stdout.strip() == f"{RES}/created created"
    listed = json.loads(kc(server, "get", RES, "-o", "json").stdout)
    assert listed["kind"] == "List"
    names = [i["metadata"]["name"] for i in listed["items"]]
    assert "created" in names and "platform" in names
    selected = json.loads(kc(server, "get", RES, "-l", "tier=x", "-o", "json").stdout)
    assert [i["metadata"]["name"] for i in selected["items"]] == ["created"]
    by_field = kc(server, "get", RES, "--field-selector", "metadata.name=created", "-o", "name").stdout
    assert by_field.split() == [f"{RES}/created"]
    _, paged = table_rows(kc(server, "get", RES, "--chunk-size=1", "-v=6").stdout)
    assert sorted(r[0] for r in paged) == sorted(names)
    log = kc(server, "get", RES, "--chunk-size=1", "-o", "name", "-v=6").stderr
    assert "continue=" in log


def test_apply_creates_then_configures(server: ServerProc, tmp_path: Path) -> None:
    path = tmp_path / "applied.yaml"
    path.write_text(manifest("applied", "one.example.com", {"tier": "a"}))
    assert kc(server, "apply", "-f", str(path)).stdout.strip() == f"{RES}/applied created"
    assert kc(server, "apply", "-f", str(path)).stdout.strip() == f"{RES}/applied unchanged"
    path.write_text(manifest("applied", "two.example.com", {"tier": "a"}))
    assert kc(server, "apply", "-f", str(path)).stdout.strip() == f"{RES}/applied configured"
    assert kc(server, "apply", "-f", str(path)).stdout.strip() == f"{RES}/applied unchanged"
    obj = json.loads(kc(server, "get", RES, "applied", "-o", "json").stdout)
    assert obj["status"]["platformHost"] == "two.example.com"
    assert obj["metadata"]["generation"] == 2
    path.write_text(manifest("applied", "three.example.com"))
    conflict = kc(server, "apply", "--server-side", "-f", str(path), ok=False)
    assert conflict.returncode == 1
    assert 'conflict with "kubectl-client-side-apply"' in conflict.stderr and ".spec.raw" in conflict.stderr
    ss = kc(server, "apply", "--server-side", "--force-conflicts", "-f", str(path)).stdout
    assert "serverside-applied" in ss
    obj = json.loads(kc(server, "get", RES, "applied", "-o", "json", "--show-managed-fields").stdout)
    managers = {(e["manager"], e["operation"]) for e in obj["metadata"]["managedFields"]}
    assert ("kubectl", "Apply") in managers and obj["status"]["platformHost"] == "three.example.com"


def test_patch_and_label(server: ServerProc) -> None:
    kc(server, "create", "-f", "-", input=manifest("patched", "p.example.com"))
    kc(server, "patch", RES, "patched", "--type=merge", "-p", '{"spec":{"raw":"platformHost: q.example.com"}}')
    kc(server, "label", RES, "patched", "team=core")
    obj = json.loads(kc(server, "get", RES, "patched", "-o", "json").stdout)
    assert obj["status"]["platformHost"] == "q.example.com" and obj["metadata"]["labels"] == {"team": "core"}


def test_delete(server: ServerProc) -> None:
    kc(server, "create", "-f", "-", input=manifest("doomed", "d.example.com"))
    out = kc(server, "delete", RES, "doomed")
    assert out.stdout.strip() == f'{RES} "doomed" deleted'
    gone = kc(server, "get", RES, "doomed", ok=False)
    assert gone.returncode == 1 and "NotFound" in gone.stderr


def test_error_invalid_raw_names_field(server: ServerProc) -> None:
    bad = manifest("bad", "h").replace("platformHost: h", "platformHost: [1, 2]")
    out = kc(server, "create", "-f", "-", input=bad, ok=False)
    assert out.returncode == 1
    assert "is invalid" in out.stderr and "spec.raw.platformHost" in out.stderr
    unknown = manifest("bad", "h").replace("spec:", "spec:\n  typo: 1")
    out = kc(server, "create", "-f", "-", input=unknown, ok=False)
    assert out.returncode == 1 and 'unknown field "spec.typo"' in out.stderr


def test_explain_uses_model_schema(server: ServerProc) -> None:
    out = kc(server, "explain", "configs.spec").stdout
    assert "KIND:       Config" in out and "raw" in out
    oidc = kc(server, "explain", "configs.status.auth.oidc.clientSecret").stdout
    assert "FIELD: clientSecret <string>" in oidc


def _read_lines(stream: Any, sink: list[str]) -> None:
    for line in stream:
        sink.append(line.strip())


def _wait_for(check: Any, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_watch_with_timeout(server: ServerProc) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KUBE")}
    env["HOME"] = str(server.home)
    cmd = ["kubectl", "--kubeconfig", str(server.kubeconfig), "get", RES, "--watch",
           "--request-timeout=60s", "-o", "jsonpath={.metadata.name}{\"\\n\"}"]
    watcher = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    names: list[str] = []
    reader = threading.Thread(target=_read_lines, args=(watcher.stdout, names), daemon=True)
    reader.start()
    try:
        assert _wait_for(lambda: "platform" in names), "initial list not printed"
        kc(server, "create", "-f", "-", input=manifest("watched", "w.example.com"))
        kc(server, "delete", RES, "watched")
        assert _wait_for(lambda: names.count("watched") >= 2), names  # ADDED, then DELETED
    finally:
        watcher.terminate()
        watcher.wait(10)


def test_watch_ends_at_request_timeout(server: ServerProc) -> None:
    started = time.monotonic()
    out = kc(server, "get", RES, "--watch", "--request-timeout=2s")
    assert 1.5 < time.monotonic() - started < 25
    header, rows = table_rows(out.stdout)
    assert header == ["NAME", "PLATFORM-HOST", "AUDIT", "AGE"] and "platform" in [r[0] for r in rows]


def test_viewer_is_forbidden_to_write(server: ServerProc, tmp_path: Path) -> None:
    with server.client(server.token()) as c:
        c.post("/auth/users", json={"username": "val", "password": "pw-1234", "role": "viewer"})
        token = c.post("/auth/login", json={"username": "val", "password": "pw-1234"}).json()["token"]
    cfg = yaml.safe_load(server.kubeconfig.read_text())
    cfg["users"][0]["user"]["token"] = token
    viewer_cfg = tmp_path / "viewer.kubeconfig"
    viewer_cfg.write_text(yaml.safe_dump(cfg))
    result = subprocess.run(["kubectl", "--kubeconfig", str(viewer_cfg), "get", RES, "platform", "-o", "name"],
                            capture_output=True, text=True, env={"HOME": str(server.home), "PATH": "/usr/bin:/bin:/usr/local/bin"})
    assert result.stdout.strip() == f"{RES}/platform"
    result = subprocess.run(["kubectl", "--kubeconfig", str(viewer_cfg), "create", "-f", "-"],
                            input=manifest("nope", "n"), capture_output=True, text=True,
                            env={"HOME": str(server.home), "PATH": "/usr/bin:/bin:/usr/local/bin"})
    assert result.returncode == 1 and "Forbidden" in result.stderr and 'User "val" cannot create' in result.stderr
    env = {"HOME": str(server.home), "PATH": "/usr/bin:/bin:/usr/local/bin"}
    for verb, answer in (("list", "yes"), ("create", "no")):
        can = subprocess.run(["kubectl", "--kubeconfig", str(viewer_cfg), "auth", "can-i", verb, RES],
                             capture_output=True, text=True, env=env)
        assert can.stdout.split()[0] == answer


def test_audit_log_written_without_tokens(server: ServerProc) -> None:
    log = server.data.parent / "audit" / "audit.log"
    text = log.read_text()
    events = [json.loads(line) for line in text.splitlines()]
    assert any(e["verb"] == "create" and e["objectRef"]["resource"] == "configs" for e in events if "objectRef" in e)
    assert server.token() not in text and "very-secret-value" not in text
