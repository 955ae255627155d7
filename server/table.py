"""`meta.k8s.io/v1` Table rendering for human `kubectl get` output."""

from __future__ import annotations

import datetime as dt
from typing import Any

COLUMNS = [
    {"name": "Name", "type": "string", "format": "name", "priority": 0,
     "description": "Name of the Config."},
    {"name": "Platform-Host", "type": "string", "format": "", "priority": 0,
     "description": "Domain where the platform is hosted (status.platformHost)."},
    {"name": "Audit", "type": "string", "format": "", "priority": 0,
     "description": "Whether audit logging is enabled (status.audit.enabled)."},
    {"name": "Auth", "type": "string", "format": "", "priority": 1,
     "description": "Configured identity providers and connectors (status.auth)."},
    {"name": "Age", "type": "string", "format": "", "priority": 0,
     "description": "Time since creation."},
]
_PROVIDERS = ("oidc", "gitHostA", "gitHostB", "idpA", "idpB", "saml")


def human_age(created: str | None, now: dt.datetime) -> str:
    """Kubernetes' short duration format (HumanDuration), e.g. 45s, 3m12s, 5h, 12d."""
    if not created:
        return "<unknown>"
    then = dt.datetime.strptime(created, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
    secs = max(0, int((now - then).total_seconds()))
    if secs < 120:
        return f"{secs}s"
    mins = secs // 60
    if mins < 10:
        return f"{mins}m{secs % 60}s" if secs % 60 else f"{mins}m"
    if mins < 180:
        return f"{mins}m"
    hours = mins // 60
    if hours < 8:
        return f"{hours}h{mins % 60}m" if mins % 60 else f"{hours}h"
    if hours < 48:
        return f"{hours}h"
    days = hours // 24
    return f"{days}d" if days < 365 * 2 else f"{days // 365}y"


def _auth_summary(status: dict[str, Any]) -> str:
    auth = status.get("auth") or {}
    names = [p for p in _PROVIDERS if auth.get(p)]
    names += [c.get("id", "?") for c in auth.get("connectors") or [] if isinstance(c, dict)]
    password = auth.get("password") or {}
    if not password.get("disabled"):
        names.insert(0, "password")
    return ",".join(names) if names else "<none>"


def row(obj: dict[str, Any], now: dt.datetime) -> dict[str, Any]:
    status = obj.get("status") or {}
    audit = status.get("audit") or {}
    meta = obj["metadata"]
    partial = {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
               "metadata": {k: v for k, v in meta.items() if k != "managedFields"}}
    return {"cells": [meta["name"], status.get("platformHost") or "<none>",
                      "enabled" if audit.get("enabled") else "disabled",
                      _auth_summary(status), human_age(meta.get("creationTimestamp"), now)],
            "object": partial}


def table(objs: list[dict[str, Any]], list_meta: dict[str, Any], now: dt.datetime,
          headers: bool = True) -> dict[str, Any]:
    return {"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": list_meta,
            "columnDefinitions": COLUMNS if headers else [],
            "rows": [row(o, now) for o in objs]}
