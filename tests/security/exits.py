"""The two exits every sandbox row runs through (not a test module).

``closure``: ``compile_expression`` in process. ``artifact``: the production path, a config
holding the scripts written by ``compile-patches``' builder, imported by ``load_plans``; the
expression objects of the loaded plan are called with the row's budgets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

import syncpatch
from syncpatch.patches.build import build

Exit = Callable[[str, Any], Callable[[Any, Any], Any]]


def closure(src: str, budgets: Any) -> Callable[[Any, Any], Any]:
    return syncpatch.compile_expression(src, budgets=budgets)  # type: ignore[return-value]


def artifact_exit(folder: Path, sources: Sequence[str]) -> Exit:
    """Build one artifact holding every source (one patch each) and return a compiler that
    hands out the loaded expressions; a source the builder refuses raises its CompileError."""
    patches = [{"path": f"spec.s{i}", "expression": src} for i, src in enumerate(sources)]
    config = {"sync": {"toHost": {"pods": {"enabled": True, "patches": patches}}}}
    path = folder / "tenant.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    result = build([path], displays=["tenant.yaml"])
    assert result.artifact is not None, [str(d) for r in result.reports for d in r.diagnostics]
    artifact = folder / "plans.py"
    artifact.write_text(result.artifact, encoding="utf-8")
    plan = syncpatch.load_plans(artifact, config="tenant.yaml").plan("toHost", "pods")
    loaded = {entry.expression.source: entry.expression for entry in plan.entries}

    def compiler(src: str, budgets: Any) -> Callable[[Any, Any], Any]:
        fn = loaded[src]
        return lambda value, context: fn(value, context, budgets=budgets)

    return compiler
