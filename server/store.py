"""Storage on SQLAlchemy Core: SQLite (WAL) by default, PostgreSQL for shared replicas.

Every write transaction first bumps the single resourceVersion counter row. That row lock
serialises writers (in SQLite via `BEGIN IMMEDIATE`, in PostgreSQL via the row lock), so
resourceVersions grow in commit order, optimistic-concurrency checks see the latest commit,
and the event log used by watch is gap-free and ordered.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from . import errors as E

T = TypeVar("T")

EVENT_RETENTION = 5000  # watch history kept; older resourceVersions answer 410 Gone
HISTORY_BYTES = 64 * 1024 * 1024  # ... and at most this much of it, however few events
COMPACT_EVERY = 500  # writes between compactions (or HISTORY_BYTES / 4 written)
MAX_OBJECT_BYTES = 3 * 1024 * 1024 // 2  # a stored Config, as etcd's default request limit

metadata = sa.MetaData()
meta_t = sa.Table(
    "sp_meta", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.BigInteger, nullable=False),
)
configs_t = sa.Table(
    "sp_configs", metadata,
    sa.Column("name", sa.String(253), primary_key=True),
    sa.Column("uid", sa.String(36), nullable=False),
    sa.Column("rv", sa.BigInteger, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)
events_t = sa.Table(
    "sp_events", metadata,
    sa.Column("rv", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("type", sa.String(16), nullable=False),
    sa.Column("name", sa.String(253), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)
users_t = sa.Table(
    "sp_users", metadata,
    sa.Column("name", sa.String(128), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("password_hash", sa.String(256)),
)
shared_t = sa.Table(  # what replicas must agree on: the CA and the serving identity
    "sp_shared", metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
keys_t = sa.Table(
    "sp_access_keys", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("user", sa.String(128), nullable=False),
    sa.Column("secret_hash", sa.String(128), nullable=False),
    sa.Column("origin", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float),
    sa.Column("revoked", sa.Boolean, nullable=False, default=False),
)


def storable_name(name: str) -> bool:
    """Names a row can have: no NUL (PostgreSQL text refuses it) and within the column."""
    return 0 < len(name) <= 253 and "\x00" not in name


def sqlite_url(data_dir: Path) -> str:
    return f"sqlite+pysqlite:///{data_dir / 'store.db'}"


def normalize_url(url: str) -> str:
    """Accept `postgres://` and `postgresql://` data sources and pick the psycopg driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _private_sqlite_files(url: str) -> None:
    """store.db holds secrets in clear (and, in its WAL, history): owner-only. SQLite gives
    the -wal and -shm files the database file's mode, so creating it 0600 covers them."""
    path = url.split(":///", 1)[1] if ":///" in url else ""
    if not path or path == ":memory:":
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.chmod(path + suffix, 0o600)


def _sqlite_engine(url: str) -> Engine:
    """WAL with synchronous=FULL (an acknowledged write survives SIGKILL and power loss);
    writers open with BEGIN IMMEDIATE so they queue instead of failing to upgrade a lock."""
    _private_sqlite_files(url)
    engine = sa.create_engine(url, pool_size=8, max_overflow=16)

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("sp_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


class Tx:
    """One write transaction over the Configs table and the event log."""

    def __init__(self, conn: Connection, rv_base: int) -> None:
        self.conn = conn
        self._rv = rv_base
        self.written = 0  # bytes added to the event log

    def next_rv(self) -> int:
        """A fresh resourceVersion; each write (and its watch event) gets its own."""
        self._rv += 1
        self.conn.execute(meta_t.update().where(meta_t.c.key == "rv").values(value=self._rv))
        return self._rv

    @property
    def current_rv(self) -> int:
        return self._rv

    def get(self, name: str) -> dict[str, Any] | None:
        if not storable_name(name):
            return None
        row = self.conn.execute(
            sa.select(configs_t.c.data).where(configs_t.c.name == name)
        ).first()
        return json.loads(row[0]) if row else None

    def exists(self, name: str) -> bool:
        return self.get(name) is not None

    def put(self, obj: dict[str, Any], event: str) -> None:
        """Insert or replace an object and log the watch event (ADDED or MODIFIED)."""
        name, rv = obj["metadata"]["name"], int(obj["metadata"]["resourceVersion"])
        data = json.dumps(obj, separators=(",", ":"))
        if len(data) > MAX_OBJECT_BYTES:
            raise E.RequestEntityTooLarge(
                f"the object would be {len(data)} bytes; at most {MAX_OBJECT_BYTES} can be stored")
        values = {"uid": obj["metadata"]["uid"], "rv": rv, "data": data}
        if event == "ADDED":
            self.conn.execute(configs_t.insert().values(name=name, **values))
        else:
            self.conn.execute(configs_t.update().where(configs_t.c.name == name).values(**values))
        self._log(event, name, rv, data)

    def delete(self, obj: dict[str, Any]) -> None:
        name = obj["metadata"]["name"]
        self.conn.execute(configs_t.delete().where(configs_t.c.name == name))
        data = json.dumps(obj, separators=(",", ":"))
        self._log("DELETED", name, int(obj["metadata"]["resourceVersion"]), data)

    def all(self) -> list[dict[str, Any]]:
        rows = self.conn.execute(sa.select(configs_t.c.data).order_by(configs_t.c.name))
        return [json.loads(r[0]) for r in rows]

    def _log(self, event: str, name: str, rv: int, data: str) -> None:
        self.written += len(data)
        self.conn.execute(events_t.insert().values(rv=rv, type=event, name=name, data=data))


class Store:
    """Database access for the server; every method is synchronous (run in a thread)."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            self.engine = _sqlite_engine(self.url)
        else:
            self.engine = sa.create_engine(self.url, pool_size=8, max_overflow=16,
                                           pool_pre_ping=True, pool_timeout=10,
                                           connect_args={"connect_timeout": 5})
        self._writes = 0
        self._written_bytes = 0
        self._init_schema()

    def _init_schema(self) -> None:
        """Create tables and counters; replicas starting together may race, so retry."""
        for attempt in range(5):
            try:
                self._create_schema()
                return
            except sa.exc.DBAPIError:
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    def _create_schema(self) -> None:
        with self.engine.connect().execution_options(sp_write=True) as conn:
            with conn.begin():
                metadata.create_all(conn, checkfirst=True)
                for key in ("rv", "compacted"):
                    have = conn.execute(sa.select(meta_t.c.key).where(meta_t.c.key == key))
                    if have.first() is None:
                        conn.execute(meta_t.insert().values(key=key, value=0))

    def close(self) -> None:
        self.engine.dispose()

    def write(self, fn: Callable[[Tx], T], *, dry_run: bool = False) -> T:
        """Run `fn` in a serialised write transaction; dry runs roll back."""
        with self.engine.connect().execution_options(sp_write=True) as conn:
            trans = conn.begin()
            try:
                rv = conn.execute(
                    sa.select(meta_t.c.value).where(meta_t.c.key == "rv").with_for_update()
                ).scalar_one()
                tx = Tx(conn, int(rv))
                result = fn(tx)
            except BaseException:
                trans.rollback()
                raise
            if dry_run:
                trans.rollback()
            else:
                trans.commit()
        if not dry_run:
            self._writes += 1
            self._written_bytes += tx.written
            if self._writes % COMPACT_EVERY == 0 or self._written_bytes > HISTORY_BYTES // 4:
                self._written_bytes = 0
                self.compact()
        return result

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            with conn.begin():
                yield conn

    def shared(self, name: str, make: Callable[[], str]) -> str:
        """The value every replica of this store uses under `name`; the first replica to
        ask makes it (`make`), the others read it."""
        def _do(conn: Connection) -> str:
            row = conn.execute(sa.select(shared_t.c.value).where(shared_t.c.name == name)).first()
            if row is not None:
                return str(row[0])
            value = make()
            conn.execute(shared_t.insert().values(name=name, value=value))
            return value
        return self.run(_do, write=True)  # the write lock serialises concurrent first starts

    def ping(self) -> None:
        """One round trip to the database (readiness)."""
        with self.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))

    def current_rv(self) -> int:
        with self.read() as conn:
            return int(conn.execute(
                sa.select(meta_t.c.value).where(meta_t.c.key == "rv")).scalar_one())

    def get(self, name: str) -> dict[str, Any] | None:
        if not storable_name(name):
            return None
        with self.read() as conn:
            row = conn.execute(
                sa.select(configs_t.c.data).where(configs_t.c.name == name)).first()
        return json.loads(row[0]) if row else None

    def list_page(self, after: str | None, limit: int | None) -> tuple[int, list[dict[str, Any]]]:
        """Objects in name order after `after`, with the store's resourceVersion."""
        with self.read() as conn:
            rv = conn.execute(
                sa.select(meta_t.c.value).where(meta_t.c.key == "rv")).scalar_one()
            q = sa.select(configs_t.c.data).order_by(configs_t.c.name)
            if after is not None:
                q = q.where(configs_t.c.name > after)
            if limit is not None:
                q = q.limit(limit)
            items = [json.loads(r[0]) for r in conn.execute(q)]
        return int(rv), items

    def events_since(self, rv: int, limit: int = 500) -> tuple[int, list[tuple[int, str, dict[str, Any]]]]:
        """(compacted rv, events with resourceVersion > rv in order)."""
        with self.read() as conn:
            compacted = conn.execute(
                sa.select(meta_t.c.value).where(meta_t.c.key == "compacted")).scalar_one()
            rows = conn.execute(
                sa.select(events_t.c.rv, events_t.c.type, events_t.c.data)
                .where(events_t.c.rv > rv).order_by(events_t.c.rv).limit(limit))
            events = [(int(r[0]), r[1], json.loads(r[2])) for r in rows]
        return int(compacted), events

    def compact(self) -> None:
        """Drop watch history older than EVENT_RETENTION resourceVersions or beyond
        HISTORY_BYTES of event data, whichever keeps less."""
        def _do(tx: Tx) -> None:
            floor = tx.current_rv - EVENT_RETENTION
            newest = tx.conn.execute(
                sa.select(events_t.c.rv, sa.func.length(events_t.c.data))
                .where(events_t.c.rv > max(floor, 0)).order_by(events_t.c.rv.desc()))
            kept = 0
            for rv, size in newest:
                kept += int(size)
                if kept > HISTORY_BYTES:
                    floor = max(floor, int(rv))
                    break
            before = tx.conn.execute(
                sa.select(meta_t.c.value).where(meta_t.c.key == "compacted")).scalar_one()
            if floor <= max(int(before), 0):
                return  # the compacted version never goes back
            tx.conn.execute(events_t.delete().where(events_t.c.rv <= floor))
            tx.conn.execute(meta_t.update().where(meta_t.c.key == "compacted").values(value=floor))
        self.write(_do)

    def run(self, fn: Callable[[Connection], T], *, write: bool = False) -> T:
        """Run a small auth/user query in its own transaction."""
        with self.engine.connect().execution_options(sp_write=write) as conn:
            with conn.begin():
                return fn(conn)
