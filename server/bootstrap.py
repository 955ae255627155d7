"""First-start and every-start preparation for `syncpatch serve`.

Creates the data directory, certificates, the store, the admin user and key, and the
kubeconfig; seeds the `platform` Config from the server's own config file. Every failure is
a `ServeError` with a message for the terminal, never a traceback.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped,unused-ignore]

from syncpatch.platformconfig.masking import mask_credentials
from syncpatch.runtime.errors import SyncpatchError

from . import errors as E
from .audit import AuditLog
from .auth import Authenticator, AuthSettings
from .model_adapter import RawInvalid, effective_status
from .objects import Clock
from .service import ConfigService, WriteCtx
from .store import Store, sqlite_url
from .tls import ensure_certificates

PLATFORM_NAME = "platform"
SERVE_MANAGER = "syncpatch-serve"


class ServeError(SyncpatchError):
    """A problem starting the server, worded for the terminal."""


@dataclass
class ServeOptions:
    listen: str = "127.0.0.1:8443"
    data_dir: Path = Path("syncpatch-data")
    config_path: Path | None = None
    kubeconfig_out: Path | None = None
    store_url: str | None = None


@dataclass
class Prepared:
    host: str
    port: int
    cert: Path
    key: Path
    kubeconfig: Path
    store: Store
    status: dict[str, Any]
    auth: Authenticator
    audit: AuditLog
    settings: AuthSettings


def parse_listen(listen: str) -> tuple[str, int]:
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ServeError(f"--listen must be HOST:PORT, got {listen!r}")
    host = host.strip("[]") or "127.0.0.1"
    return host, int(port)


def load_platform(path: Path | None) -> tuple[str | None, dict[str, Any]]:
    """The raw server config and its effective status (empty config without a file)."""
    if path is None:
        return None, effective_status("")
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ServeError(f"cannot read --config {path}: {exc.strerror}") from None
    try:
        return raw, effective_status(raw)
    except RawInvalid as exc:
        lines = "\n".join(f"  {c['field'].removeprefix('spec.raw.')}: {c['message']}" for c in exc.causes)
        raise ServeError(f"{path}: invalid platform config:\n{lines}") from None


def store_url(opts: ServeOptions, status: dict[str, Any]) -> str:
    """--store, else the effective config's database (PostgreSQL), else SQLite in --data."""
    if opts.store_url:
        return opts.store_url
    db = status.get("database") or {}
    source = db.get("dataSource") or ""
    if db.get("enabled") and source.startswith(("postgres://", "postgresql://")):
        return source
    if db.get("enabled") and source:
        raise ServeError("database.dataSource: only PostgreSQL data sources are supported")
    return sqlite_url(opts.data_dir)


def server_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"https://[{host}]:{port}" if ":" in host else f"https://{host}:{port}"


def write_kubeconfig(path: Path, url: str, ca_pem: bytes, token: str) -> None:
    doc = {
        "apiVersion": "v1", "kind": "Config", "preferences": {},
        "clusters": [{"name": "syncpatch", "cluster": {
            "server": url, "certificate-authority-data": base64.b64encode(ca_pem).decode()}}],
        "users": [{"name": "syncpatch-admin", "user": {"token": token}}],
        "contexts": [{"name": "syncpatch", "context": {"cluster": "syncpatch", "user": "syncpatch-admin"}}],
        "current-context": "syncpatch",
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        yaml.safe_dump(doc, fh, sort_keys=False)


def _existing_token(path: Path) -> str | None:
    try:
        doc = yaml.safe_load(path.read_text())
        return str(doc["users"][0]["user"]["token"])
    except (OSError, yaml.YAMLError, KeyError, IndexError, TypeError):
        return None


def admin_token(auth: Authenticator, data_dir: Path, kubeconfig: Path) -> str:
    """The admin key for the kubeconfig: bootstrap on first start, reuse while it works."""
    boot = auth.bootstrap_admin()
    if boot:
        token, password = boot
        pw = data_dir / "admin-password"
        fd = os.open(pw, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(password + "\n")
        return token
    existing = _existing_token(kubeconfig)
    if existing:
        try:
            if auth.authenticate(existing).is_admin:
                return existing
        except E.ApiError:
            pass
    return auth.issue("admin", "bootstrap", None)[0]


def seed_platform(store: Store, clock: Clock, raw: str | None) -> None:
    """Keep the `platform` Config in step with the server's config file.

    Replicas starting together may race on it; a lost race is simply retried."""
    for attempt in range(3):
        try:
            _seed_once(store, clock, raw)
            return
        except (E.AlreadyExists, E.Conflict):
            if attempt == 2:
                raise


def _seed_once(store: Store, clock: Clock, raw: str | None) -> None:
    service = ConfigService(store, clock)
    current = store.get(PLATFORM_NAME)
    ctx = WriteCtx(manager=SERVE_MANAGER)
    body: dict[str, Any] = {"apiVersion": "management.platform.sh/v1", "kind": "Config",
            "metadata": {"name": PLATFORM_NAME}, "spec": {"raw": raw or ""}}
    if current is None:
        service.create(body, ctx)
    elif raw is not None and current.get("spec", {}).get("raw") != raw:
        body["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"]
        service.replace(PLATFORM_NAME, body, ctx)


def _plain(exc: Exception) -> str:
    """A driver error's first line, with any password in a URL or DSN masked."""
    return mask_credentials(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")


def prepare(opts: ServeOptions, clock: Clock | None = None) -> Prepared:
    """Everything `serve` needs before uvicorn starts; raises ServeError with a message."""
    host, port = parse_listen(opts.listen)
    raw, status = load_platform(opts.config_path)
    try:
        opts.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        opts.data_dir.chmod(0o700)  # keys, the kubeconfig and store.db live here
    except OSError as exc:
        raise ServeError(f"cannot prepare --data {opts.data_dir}: {exc}") from None
    try:
        store = Store(store_url(opts, status))
    except Exception as exc:  # noqa: BLE001 - driver errors vary; report them plainly
        raise ServeError(f"cannot open the store: {_plain(exc)}") from None
    try:
        ca, cert, key = ensure_certificates(opts.data_dir, host,
                                            None if store.is_sqlite else store.shared)
    except OSError as exc:
        raise ServeError(f"cannot prepare --data {opts.data_dir}: {exc}") from None
    if raw is None:  # no file: the stored server Config (perhaps written through the API) governs
        stored = store.get(PLATFORM_NAME)
        if stored is not None and isinstance(stored.get("status"), dict):
            status = stored["status"]
    settings = AuthSettings.from_status(status)
    auth = Authenticator(store, settings)
    kubeconfig = opts.data_dir / "kubeconfig"
    token = admin_token(auth, opts.data_dir, kubeconfig)
    url = server_url(host, port)
    for target in {kubeconfig, *( [opts.kubeconfig_out] if opts.kubeconfig_out else [])}:
        write_kubeconfig(target, url, ca.read_bytes(), token)
    try:
        seed_platform(store, clock or Clock(), raw)
    except E.ApiError as exc:
        raise ServeError(f"cannot store the platform Config: {exc.message}") from None
    audit = AuditLog(status.get("audit") or {})
    return Prepared(host, port, cert, key, kubeconfig, store, status, auth, audit, settings)
