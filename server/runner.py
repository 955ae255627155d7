"""Running the app under uvicorn with connection-level protections.

uvicorn times out idle keep-alive connections, but not a request head that arrives a byte
at a time ("slowloris"), nor a connection that never sends anything: each would hold a
connection forever. The protocol below gives every request head a deadline; request bodies
have theirs in `http.read_body`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0  # seconds from the first byte (or the connection) to a complete head
KEEP_ALIVE_TIMEOUT = 5
MAX_HEADER_BYTES = 64 * 1024


class HeadDeadlineProtocol(H11Protocol):
    """h11 protocol that closes a connection whose request head is not complete in time."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_deadline()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and self._head_timer is None:
            self._arm_head_deadline()  # a new request head starts arriving
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm_head_deadline()  # the head is complete (or the request failed)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_deadline()
        super().connection_lost(exc)

    def _arm_head_deadline(self) -> None:
        self._disarm_head_deadline()
        self._head_timer = self.loop.call_later(HEADER_TIMEOUT, self._head_expired)

    def _disarm_head_deadline(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_expired(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def uvicorn_config(app: Any, host: str, port: int, cert: Path, key: Path) -> uvicorn.Config:
    """The server's uvicorn settings: TLS, quiet logs, bounded heads and keep-alive."""
    return uvicorn.Config(app, host=host, port=port, ssl_certfile=str(cert), ssl_keyfile=str(key),
                          log_level="warning", access_log=False, timeout_graceful_shutdown=1,
                          http=HeadDeadlineProtocol, timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
                          h11_max_incomplete_event_size=MAX_HEADER_BYTES)


def run(app: Any, host: str, port: int, cert: Path, key: Path) -> None:
    uvicorn.Server(uvicorn_config(app, host, port, cert, key)).run()
