"""Opt-in soak runs (`pytest -m soak tests/server`): many writers, repeated SIGKILLs."""

from __future__ import annotations

import signal
import threading

import pytest

from .conftest import ServerProc
from .test_durability import BACKENDS, BASE, body, increment_loop, store_args

pytestmark = pytest.mark.soak


@pytest.mark.parametrize("backend", BACKENDS)
def test_soak_writers_across_kills(serve, request: pytest.FixtureRequest, backend: str) -> None:
    args = store_args(request, backend)
    srv: ServerProc = serve(*args)
    token = srv.token()
    with srv.client(token) as c:
        c.post(BASE, json=body("counter", annotations={"count": "0"}))
    total = 0
    for _cycle in range(5):
        acked: list[int] = []
        errors: list[str] = []
        threads = [threading.Thread(target=increment_loop, args=(srv, token, 50, acked, errors))
                   for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(600)
        assert not errors
        total += len(acked)
        srv.kill(signal.SIGKILL)
        srv = serve(*args, data=srv.data, port=srv.port)
        with srv.client(token) as c:
            count = c.get(f"{BASE}/counter").json()["metadata"]["annotations"]["count"]
        assert int(count) == total
