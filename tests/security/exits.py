"""The two exits every sandbox row runs through (not a test module).

``closure``: ``compile_expression`` in process. ``artifact``: the production path, the
artifact ``compile-patches`` renders (``patches.build.render``, the same writer and the same
load check, ``artifact_check``), written to a file and imported by ``syncpatch.load_plans``;
the expressions of the loaded plan are called with the row's budgets. The build step's lint
(undeclared globals such as ``process``, which hostile rows use on purpose) is left out:
it refuses configs, it does not change what an artifact does.

Tests take the ``through`` fixture (``conftest.py``), parametrised over both exits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import yaml

import syncpatch
from syncpatch import CompileError
from syncpatch.patches.artifact_check import verify_artifact
from syncpatch.patches.build import ConfigReport, _Recorder, build, render
from syncpatch.patches.compile import compile_config

Exit = Callable[[str, Any], Callable[[Any, Any], Any]]


def closure(src: str, budgets: Any) -> Callable[[Any, Any], Any]:
    return syncpatch.compile_expression(src, budgets=budgets)  # type: ignore[return-value]


def _config(sources: Sequence[str]) -> dict[str, Any]:
    patches = [{"path": f"spec.s{i}", "expression": src} for i, src in enumerate(sources)]
    return {"sync": {"toHost": {"pods": {"enabled": True, "patches": patches}}}}


class ArtifactExit:
    """Loaded artifact expressions by source; sources are built in batches (one artifact each)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.loaded: dict[str, Any] = {}
        self.refused: dict[str, str] = {}
        self.batches = 0

    def prepare(self, sources: Iterable[str]) -> None:
        """Build one artifact holding every new source that compiles; a source that does not is
        built alone through ``compile-patches``' build, whose diagnostic is its refusal."""
        fresh = [s for s in dict.fromkeys(sources) if s not in self.loaded and s not in self.refused]
        good = []
        for src in fresh:
            try:
                syncpatch.compile_expression(src)
                good.append(src)
            except CompileError:
                self.refused[src] = self._refusal(src)
        if good:
            self._load(good)

    def _refusal(self, src: str) -> str:
        path = self.folder / f"refused{len(self.refused)}.yaml"
        path.write_text(yaml.safe_dump(_config([src])), encoding="utf-8")
        result = build([path], displays=["tenant.yaml"])
        errors = [d for d in result.diagnostics if d.severity == "error"]
        assert result.artifact is None and errors, f"the closure refuses {src!r} but compile-patches does not"
        return errors[0].message

    def _load(self, sources: list[str]) -> None:
        self.batches += 1
        text = yaml.safe_dump(_config(sources))
        recorder = _Recorder(lambda src: syncpatch.compile_expression(src))
        compiled = compile_config(yaml.safe_load(text), compiler=recorder)
        report = ConfigReport("tenant.yaml", text, (), compiled, recorder.sources)
        artifact = render([report])
        assert verify_artifact(artifact, [report], render) == []
        path = self.folder / f"plans{self.batches}.py"
        path.write_text(artifact, encoding="utf-8")
        plan = syncpatch.load_plans(path, config="tenant.yaml").plan("toHost", "pods")
        self.loaded.update({entry.expression.source: entry.expression for entry in plan.entries})

    def __call__(self, src: str, budgets: Any) -> Callable[[Any, Any], Any]:
        self.prepare([src])
        if src in self.refused:
            raise _ArtifactRefusal(self.refused[src])
        fn = self.loaded[src]
        return lambda value=None, context=None: fn(value, context, budgets=budgets)


class _ArtifactRefusal(CompileError):
    """compile-patches refused the source (its diagnostic's message)."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)

    def __str__(self) -> str:
        return str(self.args[0])


def artifact_exit(folder: Path, sources: Sequence[str]) -> Exit:
    """An artifact exit with ``sources`` built into one artifact up front."""
    made = ArtifactExit(folder)
    made.prepare(sources)
    return made
