"""The storage layer itself, on SQLite and PostgreSQL: one counter, ordered events,
atomic rollback, compaction, and serialised writers."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from syncpatch.server import store as store_mod
from syncpatch.server.store import Store, Tx


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()


def obj(name: str, rv: int, n: int = 0) -> dict[str, Any]:
    return {"metadata": {"name": name, "uid": f"uid-{name}", "resourceVersion": str(rv)},
            "spec": {"n": n}}


def put(store: Store, name: str, n: int = 0, event: str = "ADDED") -> int:
    def fn(tx: Tx) -> int:
        rv = tx.next_rv()
        tx.put(obj(name, rv, n), event)
        return rv
    return store.write(fn)


def test_counter_grows_across_objects_and_events_are_ordered(store: Store) -> None:
    rvs = [put(store, "a"), put(store, "b"), put(store, "a", 1, "MODIFIED")]
    assert rvs == [1, 2, 3] and store.current_rv() == 3
    compacted, events = store.events_since(1)
    assert compacted == 0
    assert [(rv, t, o["metadata"]["name"]) for rv, t, o in events] == [(2, "ADDED", "b"), (3, "MODIFIED", "a")]
    assert store.get("a")["spec"]["n"] == 1


def test_failed_and_dry_run_writes_leave_nothing(store: Store) -> None:
    put(store, "a")

    def boom(tx: Tx) -> None:
        tx.put(obj("b", tx.next_rv()), "ADDED")
        raise RuntimeError("abort")

    with pytest.raises(RuntimeError):
        store.write(boom)
    store.write(lambda tx: tx.put(obj("c", tx.next_rv()), "ADDED"), dry_run=True)
    assert store.get("b") is None and store.get("c") is None
    assert store.current_rv() == 1 and store.events_since(0)[1][-1][0] == 1


def test_compaction_drops_old_events(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_mod, "EVENT_RETENTION", 3)
    for i in range(6):
        put(store, f"o{i}")
    store.compact()
    compacted, events = store.events_since(0)
    assert compacted == 3 and [e[0] for e in events] == [4, 5, 6]


def test_paging_in_name_order(store: Store) -> None:
    for name in ("c", "a", "b"):
        put(store, name)
    rv, page = store.list_page(None, 2)
    assert rv == 3 and [o["metadata"]["name"] for o in page] == ["a", "b"]
    assert [o["metadata"]["name"] for o in store.list_page("b", 2)[1]] == ["c"]


def test_concurrent_writers_get_unique_versions(store: Store) -> None:
    put(store, "counter")
    seen: list[int] = []
    lock = threading.Lock()

    def bump() -> None:
        for _ in range(15):
            def fn(tx: Tx) -> int:
                cur = tx.get("counter")
                assert cur is not None
                rv = tx.next_rv()
                tx.put(obj("counter", rv, cur["spec"]["n"] + 1), "MODIFIED")
                return rv
            rv = store.write(fn)
            with lock:
                seen.append(rv)

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert store.get("counter")["spec"]["n"] == 60
    assert sorted(seen) == list(range(2, 62))


def test_sqlite_runs_in_wal_mode(tmp_path: Any) -> None:
    s = Store(store_mod.sqlite_url(tmp_path))
    with s.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    s.close()
