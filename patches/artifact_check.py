"""Load a freshly rendered artifact as a syncer would, before the build calls it good.

The in-process compile and the artifact take different routes from the same emitted module
(the artifact is printed as Python text and imported), so a config can compile in process and
still give an artifact that does not import or that holds other plans. ``compile-patches``
therefore writes the artifact to a private temporary file, imports it through
``syncpatch.loader`` (a fresh module, dropped afterwards), and compares what it finds with
what it compiled. Any failure becomes a diagnostic on the config it concerns.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Sequence

from .diagnostics import Diagnostic

__all__ = ["verify_artifact"]

#: ``render(reports) -> text``: the build's renderer, called again per config to find the culprit
Render = Callable[[Sequence[Any]], str]


def verify_artifact(text: str, reports: Sequence[Any], render: Render) -> list[Diagnostic]:
    """Diagnostics for an artifact that does not load or does not hold the compiled plans
    (none when it is good). ``reports`` are the checked reports it was rendered from."""
    why = _load_problem(text, reports)
    if why is None:
        return []
    culprits = [r for r in reports if len(reports) > 1 and _load_problem(render([r]), [r]) is not None]
    return [_diagnostic(report.filename, why) for report in (culprits or reports)]


def _diagnostic(filename: str, why: str) -> Diagnostic:
    return Diagnostic(filename, 1, 1, "error", "artifact-load",
                      f"the artifact compiled from this config does not load: {why}; nothing was written",
                      hint="this is a syncpatch defect: please report it with the config")


def _load_problem(text: str, reports: Sequence[Any]) -> str | None:
    """Why the artifact ``text`` does not load or differs from ``reports`` (None: it is good)."""
    from syncpatch.loader import load_artifact

    with tempfile.TemporaryDirectory(prefix="syncpatch-check-") as folder:
        path = Path(folder) / "artifact.py"
        path.write_text(text, encoding="utf-8")
        before = set(sys.modules)
        try:
            loaded = load_artifact(path)
        except RecursionError:
            return "it nests too deeply for Python to import"
        except Exception as exc:  # noqa: BLE001 - every failure is reported, in words
            return _words(exc, path)
        finally:
            for name in set(sys.modules) - before:
                if name.startswith("syncpatch_artifact_"):
                    del sys.modules[name]
    return _difference(loaded, reports)


def _words(exc: BaseException, path: Path) -> str:
    """The loader's message without the temporary file's name or any other file path."""
    message = str(exc).replace(f"{path}: ", "").replace(str(path), "the artifact")
    message = re.sub(r"\s*\([^()]*[/\\][^()]*\)", "", message)  # "(/site-packages/...py)"
    return message or "the artifact could not be imported"


def _difference(loaded: dict[str, Any], reports: Sequence[Any]) -> str | None:
    names = [r.filename for r in reports]
    if list(loaded) != names:
        return f"it holds the configs {list(loaded)}, not {names}"
    for report in reports:
        compiled, plans = report.compiled.plans, loaded[report.filename].plans
        if set(plans) != set(compiled):
            return f"it holds plans for {sorted(plans)}, not {sorted(compiled)}"
        for key, plan in compiled.items():
            want = [entry.path for entry in getattr(plan, "entries", ())]
            got = [entry.path for entry in getattr(plans[key], "entries", ())]
            if want != got:
                return f"its {key[0]}.{key[1]} plan patches {got}, not {want}"
    return None
