"""Timing primitives: medians of repeated, interleaved measurements, net of loop overhead."""

from __future__ import annotations

import gc
import statistics
import time
from typing import Any, Callable, Mapping, Sequence

Call = Callable[[Any, Any], Any]
Inputs = Sequence[tuple[Any, Any]]


#: the clock every measurement reads: wall time by default; ``use_cpu_clock()`` switches to
#: this process's CPU time, which a machine shared with other jobs disturbs far less
_clock: Callable[[], float] = time.perf_counter


def use_cpu_clock() -> None:
    global _clock
    _clock = time.process_time


def _noop(value: Any, context: Any) -> None:
    return None


def _run(fn: Call, inputs: Inputs, rounds: int) -> float:
    """Seconds per call over ``rounds`` passes through ``inputs`` (GC off while timing)."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = _clock()
        for _ in range(rounds):
            for value, context in inputs:
                fn(value, context)
        return (_clock() - start) / (rounds * len(inputs))
    finally:
        if gc_was_enabled:
            gc.enable()


def _rounds_for(fn: Call, inputs: Inputs, target: float) -> int:
    rounds = 1
    while True:
        elapsed = _run(fn, inputs, rounds) * rounds * len(inputs)
        if elapsed >= target / 4 or rounds >= 1 << 20:
            return max(1, int(rounds * target / max(elapsed, 1e-9)))
        rounds *= 4


def interleaved_medians(fns: dict[str, Call], inputs: Inputs | Mapping[str, Inputs], *, repeats: int,
                        target: float) -> dict[str, float]:
    """Median seconds per call for each function, net of the loop's own cost (measured
    with a no-op in the same run). Repeats alternate between functions so that machine
    drift hits every contender alike. ``inputs`` is one pool for all, or a pool per
    contender (of equal size: the same data in the form each takes)."""
    contenders = {"<loop>": _noop, **fns}
    pools = inputs if isinstance(inputs, Mapping) else {}
    default = next(iter(pools.values())) if pools else inputs
    assert not isinstance(default, Mapping)
    pool = {name: pools.get(name, default) for name in contenders}
    for name, fn in contenders.items():  # warm-up, untimed: a plan compiles its code on first use,
        _run(fn, pool[name], 1)  # which would otherwise leave the round count calibrated on it
    rounds = {name: _rounds_for(fn, pool[name], target) for name, fn in contenders.items()}
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, fn in contenders.items():
            samples[name].append(_run(fn, pool[name], rounds[name]))
    loop = statistics.median(samples.pop("<loop>"))
    return {name: max(statistics.median(values) - loop, 1e-9) for name, values in samples.items()}


def time_once(thunk: Callable[[], Any], *, repeats: int = 5) -> float:
    """Median wall time of a whole operation (build steps, loading)."""
    values = []
    for _ in range(repeats):
        start = time.perf_counter()
        thunk()
        values.append(time.perf_counter() - start)
    return statistics.median(values)


def geomean(values: list[float]) -> float:
    return statistics.geometric_mean(values) if values else float("nan")
