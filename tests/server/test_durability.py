"""Concurrent writers lose nothing, and a SIGKILLed server loses no acknowledged write,
on SQLite and on PostgreSQL (including two replicas sharing one database)."""

from __future__ import annotations

import json
import signal
import threading
import time
from typing import Any

import pytest

from .conftest import ServerProc

BASE = "/apis/management.platform.sh/v1/configs"
BACKENDS = [pytest.param("sqlite", id="sqlite"),
            pytest.param("postgres", id="postgres", marks=pytest.mark.postgres)]


def store_args(request: pytest.FixtureRequest, backend: str) -> list[str]:
    if backend == "sqlite":
        return []
    return ["--store", request.getfixturevalue("pg_server").new_database()]


def body(name: str, raw: str = "", **meta: Any) -> dict[str, Any]:
    return {"apiVersion": "management.platform.sh/v1", "kind": "Config",
            "metadata": {"name": name, **meta}, "spec": {"raw": raw}}


def increment_loop(srv: ServerProc, token: str, rounds: int, acked: list[int], errors: list[str]) -> None:
    """Read-modify-write of one counter annotation, retrying on 409 Conflict."""
    with srv.client(token, timeout=30) as c:
        for _ in range(rounds):
            for _attempt in range(200):
                obj = c.get(f"{BASE}/counter").json()
                count = int(obj["metadata"]["annotations"]["count"])
                obj["metadata"]["annotations"]["count"] = str(count + 1)
                r = c.put(f"{BASE}/counter", json=obj)
                if r.status_code == 200:
                    acked.append(int(r.json()["metadata"]["resourceVersion"]))
                    break
                if r.status_code != 409:
                    errors.append(r.text)
                    return
            else:
                errors.append("too many conflicts")


@pytest.mark.parametrize("backend", BACKENDS)
def test_concurrent_writers_lose_no_update(serve, request: pytest.FixtureRequest, backend: str) -> None:
    args = store_args(request, backend)
    servers = [serve(*args)]
    if backend == "postgres":  # a second replica on the same database
        servers.append(serve(*args))
    tokens = [s.token() for s in servers]
    with servers[0].client(tokens[0]) as c:
        assert c.post(BASE, json=body("counter", annotations={"count": "0"})).status_code == 201
    clients, rounds = 4, 8
    acked: list[int] = []
    errors: list[str] = []
    threads = [threading.Thread(target=increment_loop,
                                args=(servers[i % len(servers)], tokens[i % len(servers)], rounds, acked, errors))
               for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    with servers[-1].client(tokens[-1]) as c:
        final = c.get(f"{BASE}/counter").json()
    assert final["metadata"]["annotations"]["count"] == str(clients * rounds)
    assert len(acked) == len(set(acked)) == clients * rounds
    assert int(final["metadata"]["resourceVersion"]) == max(acked)


@pytest.mark.postgres
def test_watch_sees_writes_from_another_replica(serve, request: pytest.FixtureRequest) -> None:
    args = store_args(request, "postgres")
    a, b = serve(*args), serve(*args)
    with b.client(b.token()) as cb:
        rv = cb.get(BASE).json()["metadata"]["resourceVersion"]
    with a.client(a.token()) as ca:
        ca.post(BASE, json=body("from-a"))
    with b.client(b.token()) as cb:
        r = cb.get(f"{BASE}?watch=true&resourceVersion={rv}&timeoutSeconds=1")
    events = [json.loads(line) for line in r.text.splitlines()]
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [("ADDED", "from-a")]


def write_burst(srv: ServerProc, token: str, acked: dict[str, tuple[str, int]], stop: threading.Event) -> None:
    with srv.client(token, timeout=5) as c:
        i = 0
        while not stop.is_set():
            name = f"burst-{i}"
            try:
                r = c.post(BASE, json=body(name, f"platformHost: h{i}.example.com\n", labels={"i": str(i)}))
            except Exception:  # noqa: BLE001 - the server is being killed under us
                return
            if r.status_code == 201:
                acked[name] = (r.json()["metadata"]["uid"], int(r.json()["metadata"]["resourceVersion"]))
            i += 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_sigkill_mid_burst_loses_no_acknowledged_write(serve, request: pytest.FixtureRequest, backend: str) -> None:
    args = store_args(request, backend)
    srv: ServerProc = serve(*args)
    token = srv.token()
    acked: dict[str, tuple[str, int]] = {}
    stop = threading.Event()
    writers = [threading.Thread(target=write_burst, args=(srv, token, acked, stop)) for _ in range(1)]
    for w in writers:
        w.start()
    deadline = time.monotonic() + 20
    while len(acked) < 15 and time.monotonic() < deadline:
        time.sleep(0.05)
    srv.kill(signal.SIGKILL)
    stop.set()
    for w in writers:
        w.join(10)
    assert len(acked) >= 15
    again = serve(*args, data=srv.data, port=srv.port)
    with again.client(token) as c:
        items = {i["metadata"]["name"]: i for i in c.get(f"{BASE}?reveal=true").json()["items"]}
        for name, (uid, rv) in acked.items():
            obj = items[name]
            assert obj["metadata"]["uid"] == uid and int(obj["metadata"]["resourceVersion"]) == rv
        for name, obj in items.items():  # nothing half-written
            if name.startswith("burst-"):
                i = name.split("-")[1]
                assert obj["metadata"]["labels"] == {"i": i}
                assert obj["status"]["platformHost"] == f"h{i}.example.com"
        r = c.post(BASE, json=body("after-restart"))
        assert int(r.json()["metadata"]["resourceVersion"]) > max(rv for _, rv in acked.values())
