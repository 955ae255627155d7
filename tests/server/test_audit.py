"""Audit logging: first matching rule, no tokens or secrets in the log, size rotation."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

from syncpatch.server.audit import AuditLog, RequestInfo
from syncpatch.server.store import sqlite_url

from .conftest import BASE, build_api
from .test_auth import SECRET_RAW

POLICY = """audit:
  enabled: true
  path: {path}
  policy:
    rules:
    - level: None
      users: [vera]
    - level: RequestResponse
      verbs: [create]
      resources:
      - group: management.platform.sh
        resources: [configs]
    - level: Metadata
      nonResourceURLs: [/version]
    - level: Metadata
"""


def read_events(path: Path) -> list[dict]:
    return [json.loads(line) for line in (path / "audit.log").read_text().splitlines()]


def test_policy_first_matching_rule_and_no_tokens(tmp_path: Path) -> None:
    logdir = tmp_path / "audit"
    api = build_api(sqlite_url(tmp_path), POLICY.format(path=logdir))
    with api.client:
        api.create("a", SECRET_RAW)
        api.get("a")
        api.get("a", "viewer")  # vera: level None, not logged
        api.req("GET", "/version", None)
        api.req("GET", BASE, "sp.bogus.token-value-123")
    events = read_events(logdir)
    kinds = [(e["verb"], e["level"], e["user"]["username"]) for e in events]
    assert kinds == [("create", "RequestResponse", "admin"), ("get", "Metadata", "admin"),
                     ("get", "Metadata", "system:anonymous"), ("list", "Metadata", "system:anonymous")]
    create = events[0]
    assert create["objectRef"] == {"resource": "configs", "name": None,
                                   "apiGroup": "management.platform.sh", "apiVersion": "v1"}
    assert create["requestObject"]["metadata"]["name"] == "a"
    assert create["responseObject"]["metadata"]["uid"]
    assert events[1]["objectRef"]["name"] == "a" and "requestObject" not in events[1]
    assert events[3]["responseStatus"]["code"] == 401
    text = (logdir / "audit.log").read_text()
    for token in api.tokens.values():
        assert token not in text and token.split(".")[2] not in text
    assert "token-value-123" not in text and "hunter2" not in text
    api.state.store.close()


def test_disabled_audit_writes_nothing(tmp_path: Path) -> None:
    log = AuditLog({"enabled": False, "path": str(tmp_path)})
    log.record(RequestInfo("get", "/x"), 200, time.time())
    assert not (tmp_path / "audit.log").exists()


def test_rotation_by_size_with_backups_and_gzip(tmp_path: Path) -> None:
    log = AuditLog({"enabled": True, "path": str(tmp_path), "level": 1, "maxBackups": 2,
                    "compress": True}, max_bytes=2000)
    for i in range(60):
        log.record(RequestInfo("get", f"/apis/x/{i}"), 200, time.time())
        time.sleep(0.001)
    log.flush()
    backups = log.backups()
    assert len(backups) == 2 and all(p.suffix == ".gz" for p in backups)
    assert (tmp_path / "audit.log").stat().st_size <= 2000
    for p in backups:
        lines = gzip.decompress(p.read_bytes()).decode().splitlines()
        assert lines and all(json.loads(line)["kind"] == "Event" for line in lines)


def test_rotation_max_age_by_file_name(tmp_path: Path) -> None:
    old = tmp_path / "audit-2000-01-01T00-00-00.000000.log"
    old.write_text("{}\n")
    log = AuditLog({"enabled": True, "path": str(tmp_path), "level": 1, "maxAge": 1}, max_bytes=300)
    for i in range(5):
        log.record(RequestInfo("get", f"/x/{i}"), 200, time.time())
    log.flush()
    assert not old.exists()
    assert log.backups()


def test_max_size_default_is_100_megabytes(tmp_path: Path) -> None:
    assert AuditLog({"enabled": True, "path": str(tmp_path)}).max_bytes == 100 * 1024 * 1024
    assert AuditLog({"enabled": True, "path": str(tmp_path), "maxSize": 3}).max_bytes == 3 * 1024 * 1024


def test_omit_stages_response_complete_logs_nothing(tmp_path: Path) -> None:
    log = AuditLog({"enabled": True, "path": str(tmp_path),
                    "policy": {"omitStages": ["ResponseComplete"], "rules": [{"level": "Metadata"}]}})
    log.record(RequestInfo("get", "/x"), 200, time.time())
    assert not (tmp_path / "audit.log").exists()


def test_audit_files_are_private(tmp_path: Path) -> None:
    """The log holds request objects (masked, but still private): owner-only modes."""
    target = tmp_path / "audit"
    log = AuditLog({"enabled": True, "path": str(target), "level": 1, "compress": True},
                   max_bytes=300)
    for i in range(5):
        log.record(RequestInfo("get", f"/x/{i}"), 200, time.time())
    log.flush()
    assert target.stat().st_mode & 0o777 == 0o700
    files = [target / "audit.log", *log.backups()]
    assert len(files) > 1 and all(p.stat().st_mode & 0o777 == 0o600 for p in files)
