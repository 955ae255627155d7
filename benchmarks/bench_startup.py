"""Section 4 (part): what a syncer pays to start: importing the runtime alone.

Time and memory are measured in separate fresh processes: tracemalloc slows imports
several-fold, so it must not run while the import is timed.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from typing import Any

_TIME_PROBE = r"""
import json, sys, time
t = time.perf_counter()
import syncpatch.runtime.abi
elapsed = time.perf_counter() - t
heavy = sorted(m for m in ("lark", "pydantic", "yaml") if m in sys.modules)
print(json.dumps({"seconds": elapsed, "heavy_modules": heavy}))
"""

_MEMORY_PROBE = r"""
import json, tracemalloc
tracemalloc.start()
import syncpatch.runtime.abi
print(json.dumps({"bytes": tracemalloc.get_traced_memory()[1]}))
"""


def _probe(code: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("syncpatch.runtime.abi does not import: " + out.stderr.strip().splitlines()[-1])
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def run(*, repeats: int) -> dict[str, Any]:
    try:
        times = [_probe(_TIME_PROBE) for _ in range(repeats)]
        memory = _probe(_MEMORY_PROBE)
    except RuntimeError as exc:
        return {"skipped": str(exc)}
    return {
        "import_runtime_ms": statistics.median(t["seconds"] for t in times) * 1e3,
        "import_runtime_peak_kib": memory["bytes"] / 1024,
        "heavy_modules_loaded": times[0]["heavy_modules"],
    }
