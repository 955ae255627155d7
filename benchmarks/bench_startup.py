"""Section 4 (part): what a syncer pays to start: importing the runtime alone."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from typing import Any

_PROBE = r"""
import json, sys, time, tracemalloc
tracemalloc.start()
t = time.perf_counter()
import syncpatch.runtime.abi
elapsed = time.perf_counter() - t
current, peak = tracemalloc.get_traced_memory()
heavy = sorted(m for m in ("lark", "pydantic", "yaml") if m in sys.modules)
print(json.dumps({"seconds": elapsed, "bytes": peak, "heavy_modules": heavy}))
"""


def run(*, repeats: int) -> dict[str, Any]:
    samples = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True)
        if out.returncode != 0:
            return {"skipped": "syncpatch.runtime.abi does not import: " + out.stderr.strip().splitlines()[-1]}
        samples.append(json.loads(out.stdout))
    return {
        "import_runtime_ms": statistics.median(s["seconds"] for s in samples) * 1e3,
        "import_runtime_peak_kib": statistics.median(s["bytes"] for s in samples) / 1024,
        "heavy_modules_loaded": samples[0]["heavy_modules"],
    }
