"""Watch: a chunked stream of `{"type", "object"}` lines from a resourceVersion.

Events come from the store's event log, so a watcher sees writes from every replica sharing
the database. Writers in this process wake watchers at once; otherwise they poll.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from . import errors as E
from .store import Store

POLL_SECONDS = 0.25
BOOKMARK_SECONDS = 30.0


class Notifier:
    """Wakes in-process watchers after a write."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except asyncio.TimeoutError:
            pass


def _line(event_type: str, obj: Any) -> bytes:
    return json.dumps({"type": event_type, "object": obj}, separators=(",", ":")).encode() + b"\n"


def expired(rv: int, compacted: int) -> bytes:
    err = E.Gone(f"too old resource version: {rv} ({compacted})")
    return _line("ERROR", err.status())


async def stream(
    store: Store,
    notifier: Notifier,
    start: str | None,
    match: Callable[[dict[str, Any]], bool],
    render: Callable[[dict[str, Any]], Any],
    timeout: float | None,
    bookmarks: bool,
) -> AsyncIterator[bytes]:
    """Yield watch events after `start` ("" or "0": the current objects first)."""
    deadline = time.monotonic() + timeout if timeout else None
    def lines(events: list[tuple[str, dict[str, Any]]]) -> bytes:
        return b"".join(_line(kind, render(obj)) for kind, obj in events if match(obj))

    if start in (None, "", "0"):
        rv, items = await run_in_threadpool(store.list_page, None, None)
        chunk = await run_in_threadpool(lines, [("ADDED", obj) for obj in items])
        if chunk:
            yield chunk
        cursor = rv
    else:
        cursor = int(start)
    last_mark = time.monotonic()
    while deadline is None or time.monotonic() < deadline:
        compacted, events = await run_in_threadpool(store.events_since, cursor)
        if cursor < compacted:
            yield expired(cursor, compacted)
            return
        if events:
            cursor = events[-1][0]
            chunk = await run_in_threadpool(lines, [(kind, obj) for _rv, kind, obj in events])
            if chunk:
                yield chunk
        if bookmarks and time.monotonic() - last_mark > BOOKMARK_SECONDS:
            last_mark = time.monotonic()
            yield _line("BOOKMARK", {"kind": "Config", "apiVersion": "management.platform.sh/v1",
                                     "metadata": {"resourceVersion": str(cursor)}})
        if not events:
            await notifier.wait(POLL_SECONDS)
