"""A deterministic clock for wall-time budget tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from syncpatch.runtime import realm


class SteppingClock:
    """Moves ``tick`` seconds at every reading: the wall-time budget trips after a fixed number
    of checks, however fast or loaded the machine is."""

    def __init__(self, tick: float = 1.0) -> None:
        self.now = 0.0
        self.tick = tick

    def monotonic(self) -> float:
        self.now += self.tick
        return self.now


@pytest.fixture
def stepping_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[SteppingClock]:
    """Replace the clock that the runtime's wall-time budget reads, for one test."""
    clock = SteppingClock()
    monkeypatch.setattr(realm, "time", clock)
    yield clock
