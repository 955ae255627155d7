"""Section 4 (part): what a syncer pays to start: importing the runtime alone.

Time and memory are measured in separate fresh processes: tracemalloc slows imports
several-fold, so it must not run while the import is timed.

Two start-up times are reported. ``import_runtime_ms`` is what an installed syncer pays:
bytecode is cached (pip writes ``.pyc`` files at install time), here in a private
``PYTHONPYCACHEPREFIX`` warmed by one untimed import. ``import_runtime_cold_ms`` has no
bytecode cache at all, so every module is compiled from source on each start (what this
checkout pays when ``PYTHONDONTWRITEBYTECODE`` is set).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
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


def _probe(code: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError("syncpatch.runtime.abi does not import: " + out.stderr.strip().splitlines()[-1])
    probe: dict[str, Any] = json.loads(out.stdout)
    return probe


def run(*, repeats: int) -> dict[str, Any]:
    cold_env = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
    cold_env["PYTHONDONTWRITEBYTECODE"] = "1"
    with tempfile.TemporaryDirectory(prefix="syncpatch-pyc-") as cache:
        warm_env = {k: v for k, v in cold_env.items() if k != "PYTHONDONTWRITEBYTECODE"}
        warm_env["PYTHONPYCACHEPREFIX"] = cache
        try:
            _probe(_TIME_PROBE, warm_env)  # writes the bytecode cache, untimed
            warm_env["PYTHONDONTWRITEBYTECODE"] = "1"
            times = [_probe(_TIME_PROBE, warm_env) for _ in range(repeats)]
            cold = [_probe(_TIME_PROBE, cold_env) for _ in range(repeats)]
            memory = _probe(_MEMORY_PROBE, warm_env)
        except RuntimeError as exc:
            return {"skipped": str(exc)}
    return {
        "import_runtime_ms": statistics.median(t["seconds"] for t in times) * 1e3,
        "import_runtime_cold_ms": statistics.median(t["seconds"] for t in cold) * 1e3,
        "import_runtime_peak_kib": memory["bytes"] / 1024,
        "heavy_modules_loaded": times[0]["heavy_modules"],
    }
