"""Users, hashed access keys with TTLs, password login, and the admin/viewer split.

Keys look like `sp.<id>.<secret>`; only sha256(secret) is stored, and the comparison is
constant-time. The Config's own `status.auth` settings (TTL cap, login TTL, password login
switch) are read from the server's effective config at start.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from . import errors as E
from .store import Store, keys_t, users_t

DEFAULT_LOGIN_TTL = 20 * 24 * 3600
MAX_TTL = 100 * 365 * 86400  # a requested key lifetime past this is refused (422)
MAX_PASSWORD = 1024
ROLES = ("admin", "viewer")
KEY_ID_LENGTH = 16  # hex characters of `secrets.token_hex(8)`


def valid_username(name: object) -> bool:
    """1-128 printable characters: anything else can be neither stored nor looked up."""
    return (isinstance(name, str) and 0 < len(name) <= 128 and name.isprintable())


def valid_key_id(key_id: str) -> bool:
    return len(key_id) == KEY_ID_LENGTH and all(c in "0123456789abcdef" for c in key_id)
_DUMMY_HASH = hashlib.sha256(b"dummy").hexdigest()


@dataclass(frozen=True)
class Principal:
    user: str
    role: str
    key_id: str

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


@dataclass(frozen=True)
class AuthSettings:
    """The parts of `status.auth` and friends that govern the server itself."""

    password_disabled: bool = False
    max_ttl: int = 0
    login_ttl: int = DEFAULT_LOGIN_TTL
    custom_headers: tuple[tuple[str, str], ...] = ()
    authenticate_version: bool = False
    disable_config_endpoint: bool = False

    @classmethod
    def from_status(cls, status: dict[str, Any]) -> "AuthSettings":
        auth = status.get("auth") or {}
        login_ttl = auth.get("loginAccessKeyTTLSeconds")
        headers = auth.get("customHttpHeaders") or {}
        return cls(
            password_disabled=bool((auth.get("password") or {}).get("disabled")),
            max_ttl=int(auth.get("accessKeyMaxTTLSeconds") or 0),
            login_ttl=DEFAULT_LOGIN_TTL if login_ttl is None else int(login_ttl),
            custom_headers=tuple(sorted((str(k), str(v)) for k, v in headers.items())),
            authenticate_version=bool(status.get("authenticateVersionEndpoint")),
            disable_config_endpoint=bool(status.get("disableConfigEndpoint")),
        )


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str | None) -> bool:
    if not stored or not stored.startswith("scrypt$"):
        hashlib.scrypt(password.encode(), salt=b"0" * 16, n=2**14, r=8, p=1)
        return False
    _, salt, digest = stored.split("$")
    got = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=2**14, r=8, p=1)
    return hmac.compare_digest(got.hex(), digest)


AUTH_CACHE_SECONDS = 2.0  # a verified key is trusted this long without a query
AUTH_CACHE_ENTRIES = 4096


class Authenticator:
    """Key issuance and verification over the store's users and keys tables.

    A verified key is remembered for AUTH_CACHE_SECONDS (never past its expiry), so a busy
    client costs one query every two seconds, not one per request; revoking a key forgets it
    at once in this process, and within AUTH_CACHE_SECONDS in other replicas."""

    def __init__(self, store: Store, settings: AuthSettings) -> None:
        self.store = store
        self.settings = settings
        self._verified: dict[str, tuple[Principal, float, float]] = {}
        self._lock = threading.Lock()

    def cached(self, token: str) -> Principal | None:
        """The principal of a recently verified key, without touching the store."""
        digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
        with self._lock:
            found = self._verified.get(digest)
            if found is None:
                return None
            if time.monotonic() >= found[1] or time.time() >= found[2]:  # both clocks bound it
                del self._verified[digest]
                return None
            return found[0]

    def _remember(self, token: str, principal: Principal, row: dict[str, Any]) -> None:
        """Trust a verified key briefly, never past its expiry or its age cap."""
        left = AUTH_CACHE_SECONDS
        if row["expires_at"] is not None:
            left = min(left, row["expires_at"] - time.time())
        if self.settings.max_ttl > 0:
            left = min(left, row["created_at"] + self.settings.max_ttl - time.time())
        until, until_wall = time.monotonic() + left, time.time() + left
        digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
        with self._lock:
            if len(self._verified) >= AUTH_CACHE_ENTRIES:
                self._verified.clear()
            self._verified[digest] = (principal, until, until_wall)

    def _forget(self, key_id: str) -> None:
        with self._lock:
            for digest in [d for d, (p, _m, _w) in self._verified.items() if p.key_id == key_id]:
                del self._verified[digest]

    def effective_ttl(self, requested: int | None, origin: str) -> int | None:
        """Seconds a new key lives: login TTL or the request, capped by the maximum."""
        ttl = self.settings.login_ttl if origin == "login" else requested
        if ttl == 0:
            ttl = None
        if self.settings.max_ttl > 0:
            ttl = self.settings.max_ttl if ttl is None else min(ttl, self.settings.max_ttl)
        return ttl

    def issue(self, user: str, origin: str, ttl: int | None = None) -> tuple[str, str, float | None]:
        """Create a key for an existing user (404 otherwise); returns (token, key id,
        expiry epoch or None)."""
        key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
        lifetime = self.effective_ttl(ttl, origin)
        now = time.time()
        expires = now + lifetime if lifetime is not None else None
        row = {"id": key_id, "user": user, "origin": origin, "created_at": now,
               "expires_at": expires, "revoked": False,
               "secret_hash": hashlib.sha256(secret.encode()).hexdigest()}

        def _do(c: Connection) -> None:
            found = valid_username(user) and c.execute(
                sa.select(users_t.c.name).where(users_t.c.name == user)).first()
            if not found:
                raise E.NotFound(f'user "{user[:128]}" not found', name=user[:128])
            c.execute(keys_t.insert().values(**row))
        self.store.run(_do, write=True)
        return f"sp.{key_id}.{secret}", key_id, expires

    def authenticate(self, token: str) -> Principal:
        """401 for unknown, malformed, revoked, expired or over-cap keys."""
        parts = token.split(".")
        key_id, secret = (parts[1], parts[2]) if len(parts) == 3 and parts[0] == "sp" else ("", "")
        row = self.store.run(lambda c: _key_row(c, key_id)) if valid_key_id(key_id) else None
        stored = row["secret_hash"] if row else _DUMMY_HASH
        given = hashlib.sha256(secret.encode()).hexdigest()
        ok = hmac.compare_digest(stored, given) and row is not None
        if not ok or row is None or row["revoked"]:
            raise E.Unauthorized("Unauthorized")
        now = time.time()
        if row["expires_at"] is not None and now >= row["expires_at"]:
            raise E.Unauthorized("Unauthorized: access key expired")
        if self.settings.max_ttl > 0 and now - row["created_at"] >= self.settings.max_ttl:
            raise E.Unauthorized("Unauthorized: access key older than accessKeyMaxTTLSeconds")
        if row["role"] not in ROLES:
            raise E.Unauthorized("Unauthorized")
        principal = Principal(row["user"], row["role"], key_id)
        self._remember(token, principal, row)
        return principal

    def login(self, username: str, password: str) -> tuple[str, float | None]:
        if self.settings.password_disabled:
            raise E.Forbidden("password login is disabled (auth.password.disabled is true)")
        known = valid_username(username) and len(password) <= MAX_PASSWORD
        user = self.store.run(lambda c: c.execute(
            sa.select(users_t).where(users_t.c.name == username)).mappings().first()) if known else None
        if not check_password(password[:MAX_PASSWORD], user["password_hash"] if user else None):
            raise E.Unauthorized("Unauthorized: wrong username or password")
        token, _, expires = self.issue(username, "login")
        return token, expires

    def create_user(self, name: str, role: str, password: str | None) -> None:
        if not valid_username(name):
            raise E.invalid(None, [E.cause("username", "Invalid value: 1 to 128 printable "
                                           "characters")])
        if password is not None and (not isinstance(password, str) or len(password) > MAX_PASSWORD):
            raise E.invalid(name, [E.cause("password", f"Invalid value: a string of at most "
                                           f"{MAX_PASSWORD} characters")])
        if role not in ROLES:
            raise E.invalid(name, [E.cause("role", f'Unsupported value: "{role}"', "FieldValueNotSupported")])
        hashed = hash_password(password) if password else None

        def _do(c: Connection) -> None:
            if c.execute(sa.select(users_t.c.name).where(users_t.c.name == name)).first():
                raise E.AlreadyExists(f'user "{name}" already exists', name=name)
            c.execute(users_t.insert().values(name=name, role=role, password_hash=hashed))
        self.store.run(_do, write=True)

    def revoke(self, key_id: str, by: Principal) -> None:
        if not valid_key_id(key_id):
            raise E.NotFound(f'access key "{key_id[:40]}" not found', name=key_id[:40])

        def _do(c: Connection) -> None:
            row = c.execute(sa.select(keys_t).where(keys_t.c.id == key_id)).mappings().first()
            if row is None or (not by.is_admin and row["user"] != by.user):
                raise E.NotFound(f'access key "{key_id}" not found', name=key_id)
            c.execute(keys_t.update().where(keys_t.c.id == key_id).values(revoked=True))
        self.store.run(_do, write=True)
        self._forget(key_id)

    def bootstrap_admin(self) -> tuple[str, str] | None:
        """On first start: an `admin` user with a random password and an access key."""
        have = self.store.run(lambda c: c.execute(
            sa.select(users_t.c.name).where(users_t.c.role == "admin")).first())
        if have:
            return None
        password = secrets.token_urlsafe(18)
        self.create_user("admin", "admin", password)
        token, _, _ = self.issue("admin", "bootstrap", None)
        return token, password


def _key_row(c: Connection, key_id: str) -> dict[str, Any] | None:
    q = (sa.select(keys_t, users_t.c.role).join(users_t, users_t.c.name == keys_t.c.user)
         .where(keys_t.c.id == key_id))
    row = c.execute(q).mappings().first()
    return dict(row) if row else None
