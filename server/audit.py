"""Audit log: events per the first matching policy rule, written as JSON lines to
`audit.path`, rotated by size with maxBackups/maxAge and optional gzip (lumberjack-style).

Events never carry request headers, so bearer tokens cannot reach the log; request and
response objects are masked before they are written.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import shutil
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LEVELS = ["None", "Metadata", "Request", "RequestResponse"]
MB = 1024 * 1024


@dataclass
class RequestInfo:
    """What one request looked like, for matching and for the event body."""

    verb: str
    uri: str
    user: str = "system:anonymous"
    groups: list[str] = field(default_factory=list)
    resource: str | None = None
    name: str | None = None
    source_ip: str = ""
    user_agent: str = ""


def _matches(rule: dict[str, Any], req: RequestInfo) -> bool:
    """Kubernetes policy-rule matching: every list set on the rule must match; Configs are
    cluster-scoped, so only `""` in `namespaces` matches them."""
    def within(key: str, value: Any) -> bool:
        allowed = rule.get(key) or []
        return not allowed or value in allowed
    if not within("users", req.user) or not within("verbs", req.verb):
        return False
    if rule.get("userGroups") and not set(rule["userGroups"]) & set(req.groups):
        return False
    if rule.get("namespaces") and "" not in rule["namespaces"]:
        return False
    if req.resource is None:
        urls = rule.get("nonResourceURLs") or []
        if rule.get("resources") or (urls and not any(_url_match(u, req.uri) for u in urls)):
            return False
        return True
    if rule.get("nonResourceURLs"):
        return False
    return not rule.get("resources") or any(_res_match(r, req) for r in rule["resources"])


def _url_match(pattern: str, uri: str) -> bool:
    path = uri.split("?", 1)[0]
    return path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern


def _res_match(spec: dict[str, Any], req: RequestInfo) -> bool:
    if spec.get("group", "") not in ("management.platform.sh", "*"):
        return False
    names = spec.get("resources") or []
    if names and not any(n in ("*", req.resource, f"{req.resource}/*") for n in names):
        return False
    rnames = spec.get("resourceNames") or []
    return not rnames or req.name in rnames


class AuditLog:
    """Policy evaluation plus a size-rotated JSON-lines file."""

    def __init__(self, audit: dict[str, Any], max_bytes: int | None = None) -> None:
        self.enabled = bool(audit.get("enabled")) and bool(audit.get("path"))
        policy = audit.get("policy") or {}
        self.rules: list[dict[str, Any]] = list(policy.get("rules") or [])
        self.omit = set(policy.get("omitStages") or [])
        level = audit.get("level")
        self.default_level = LEVELS[min(max(int(level), 0), 3)] if level is not None else "None"
        self.dir = Path(audit.get("path") or ".")
        self.max_bytes = max_bytes or int(audit.get("maxSize") or 100) * MB
        self.max_backups = int(audit.get("maxBackups") or 0)
        self.max_age_days = int(audit.get("maxAge") or 0)
        self.compress = bool(audit.get("compress"))
        self._lock = threading.Lock()
        self._prune_lock = threading.Lock()
        self._rotations: list[threading.Thread] = []
        if self.enabled:
            self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)

    @property
    def file(self) -> Path:
        return self.dir / "audit.log"

    def level_for(self, req: RequestInfo) -> str:
        """First matching rule wins; without one, the default level (None unless `level`)."""
        for rule in self.rules:
            if _matches(rule, req):
                omitted = set(rule.get("omitStages") or []) | self.omit
                return "None" if "ResponseComplete" in omitted else str(rule.get("level", "None"))
        return "None" if "ResponseComplete" in self.omit else self.default_level

    def wants_request_object(self, req: RequestInfo) -> bool:
        return self.enabled and self.level_for(req) in ("Request", "RequestResponse")

    def record(self, req: RequestInfo, code: int, started: float,
               request_obj: Any = None, response_obj: Any = None) -> None:
        if not self.enabled:
            return
        level = self.level_for(req)
        if level not in LEVELS[1:]:
            return
        event = self._event(req, level, code, started)
        if level in ("Request", "RequestResponse") and request_obj is not None:
            event["requestObject"] = request_obj
        if level == "RequestResponse" and response_obj is not None:
            event["responseObject"] = response_obj
        self._write(json.dumps(event, separators=(",", ":"), default=str) + "\n")

    def _event(self, req: RequestInfo, level: str, code: int, started: float) -> dict[str, Any]:
        def stamp(t: float) -> str:
            return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        event: dict[str, Any] = {
            "kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": level,
            "auditID": str(uuid.uuid4()), "stage": "ResponseComplete", "requestURI": req.uri,
            "verb": req.verb, "user": {"username": req.user, "groups": req.groups},
            "sourceIPs": [req.source_ip] if req.source_ip else [], "userAgent": req.user_agent,
            "responseStatus": {"metadata": {}, "code": code},
            "requestReceivedTimestamp": stamp(started), "stageTimestamp": stamp(time.time()),
        }
        if req.resource:
            event["objectRef"] = {"resource": req.resource, "name": req.name,
                                  "apiGroup": "management.platform.sh", "apiVersion": "v1"}
        return event

    def _write(self, line: str) -> None:
        data = line.encode()
        with self._lock:
            size = self.file.stat().st_size if self.file.exists() else 0
            if size and size + len(data) > self.max_bytes:
                self._rotate()
            fd = os.open(self.file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(fd, "ab") as fh:
                fh.write(data)

    def _rotate(self) -> None:
        """Rename now (cheap, under the lock); compress and prune in a background thread,
        so one request does not pay for gzipping a 100 MB log."""
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H-%M-%S.%f")
        target = self.dir / f"audit-{stamp}.log"
        os.replace(self.file, target)
        worker = threading.Thread(target=self._finish_rotation, args=(target,),
                                  name="audit-rotation", daemon=True)
        self._rotations.append(worker)
        worker.start()

    def _finish_rotation(self, target: Path) -> None:
        with self._prune_lock:
            if self.compress and target.exists():  # an earlier prune may have removed it
                gz = Path(f"{target}.gz")
                fd = os.open(gz, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with open(target, "rb") as src, os.fdopen(fd, "wb") as raw_out, \
                        gzip.GzipFile(fileobj=raw_out, mode="wb") as dst:
                    shutil.copyfileobj(src, dst)
                target.unlink()
            self._prune()

    def flush(self) -> None:
        """Wait for background rotations (tests, shutdown)."""
        for worker in list(self._rotations):
            worker.join()
        self._rotations = [w for w in self._rotations if w.is_alive()]

    def backups(self) -> list[Path]:
        return sorted(p for p in self.dir.glob("audit-*.log*"))

    def _prune(self) -> None:
        backups = self.backups()
        if self.max_age_days > 0:
            cutoff = time.time() - self.max_age_days * 86400
            for p in list(backups):
                if _stamp_of(p) < cutoff:
                    p.unlink()
                    backups.remove(p)
        if self.max_backups > 0:
            for p in backups[: max(0, len(backups) - self.max_backups)]:
                p.unlink()


def _stamp_of(path: Path) -> float:
    """The rotation time encoded in a backup's file name (maxAge goes by this)."""
    text = path.name.removeprefix("audit-").split(".log")[0]
    try:
        when = dt.datetime.strptime(text, "%Y-%m-%dT%H-%M-%S.%f")
    except ValueError:
        return path.stat().st_mtime
    return when.replace(tzinfo=dt.timezone.utc).timestamp()
