"""The ``compile-patches`` build step: check configs, locate every problem, write the artifact.

In-process ``compile_config`` raises on the first config it cannot compile and speaks in
field paths; a build step must instead report *every* problem of *every* file at its
``file:line:column``, add the checks only a build can afford (undeclared globals, ``in [...]``,
round trips), and then write one artifact. This module is that pipeline; the CLI only parses
flags and prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import attrs

from syncpatch.yamlsource import YamlDocument, YamlSyntaxError, load_yaml

from . import checks
from .artifact import ArtifactConfig, EmittedFunction, render_artifact, source_digest
from .artifact_check import verify_artifact
from .compile import CompiledConfig, ConfigError, compile_config
from .diagnostics import Diagnostic

__all__ = [
    "ConfigReport",
    "BuildResult",
    "check_config_text",
    "check_config_file",
    "build",
]

Compiler = Callable[[str], Any]


@attrs.frozen
class ConfigReport:
    """One config file checked: its diagnostics and, when it compiled, its compiled plans."""

    filename: str
    text: str
    diagnostics: tuple[Diagnostic, ...]
    compiled: CompiledConfig | None = None
    sources: Mapping[int, str] = attrs.field(factory=dict)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


@attrs.frozen
class BuildResult:
    """Every report, and the artifact text when all configs compiled."""

    reports: tuple[ConfigReport, ...]
    artifact: str | None = None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for r in self.reports for d in r.diagnostics]

    @property
    def sources(self) -> dict[str, str]:
        return {r.filename: r.text for r in self.reports}


class _Recorder:
    """Wraps the compiler and remembers each compiled function's JS source, by identity.

    The artifact writer regenerates each function through the module-text exit and needs to
    know which source a function in a plan came from; holding the functions keeps ids unique.
    """

    def __init__(self, compiler: Compiler) -> None:
        self.compiler = compiler
        self.sources: dict[int, str] = {}
        self._keep: list[Any] = []

    def __call__(self, source: str) -> Any:
        fn = self.compiler(source)
        self.sources[id(fn)] = source
        self._keep.append(fn)
        return fn


def _default_compiler() -> Compiler:
    from syncpatch.expression import compile_expression

    compiler: Compiler = compile_expression
    return compiler


def check_config_text(text: str, filename: str, *, compiler: Compiler | None = None,
                      case_values: checks.CaseValues | None = None) -> ConfigReport:
    """Check one config's text; never raises for problems in it (they become diagnostics)."""
    try:
        doc = load_yaml(text, filename)
    except YamlSyntaxError as exc:
        diag = Diagnostic(filename, exc.line, exc.column, "error", "yaml-syntax", exc.message)
        return ConfigReport(filename, text, (diag,))
    if not isinstance(doc.data, dict):
        message = ("the file is empty: a tenant-cluster config is a YAML mapping with a top-level 'sync' key"
                   if doc.data is None else
                   "a tenant-cluster config is a YAML mapping (with a top-level 'sync' key)")
        diag = Diagnostic(filename, 1, 1, "error", "config-invalid", message)
        return ConfigReport(filename, text, (diag,))
    diagnostics: list[Diagnostic] = []
    if "sync" not in doc.data:
        no_sync, stop = checks.missing_sync(doc)
        if stop:
            return ConfigReport(filename, text, (no_sync,))
        diagnostics.append(no_sync)
    recorder = _Recorder(compiler or _default_compiler())
    compiled = _compile(doc, recorder, diagnostics)
    diagnostics.extend(checks.lint_expressions(doc))
    if compiled is not None:
        diagnostics.extend(checks.roundtrip_diagnostics(doc, compiled, case_values or {}))
    unique = list(dict.fromkeys(diagnostics))
    return ConfigReport(filename, text, tuple(unique), compiled, recorder.sources)


def _compile(doc: YamlDocument, recorder: _Recorder, out: list[Diagnostic]) -> CompiledConfig | None:
    try:
        compiled = compile_config(doc.data, compiler=recorder)
    except ConfigError as exc:
        out.extend(checks.issue_diagnostic(doc, issue, recorder.compiler) for issue in exc.issues)
        out.extend(checks.extra_compile_errors(doc, exc.issues, recorder))
        out.extend(checks.extra_duplicate_errors(doc, exc.issues))
        return None
    out.extend(checks.warning_diagnostic(doc, w) for w in compiled.warnings)
    return compiled


def check_config_file(path: Path, display: str | None = None, **kwargs: Any) -> ConfigReport:
    """Read and check one config file; an unreadable file is one diagnostic."""
    name = display or str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return ConfigReport(name, "", (Diagnostic(name, 1, 1, "error", "unreadable", f"cannot read: {reason}"),))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ConfigReport(name, "", (_not_text(name, data, exc.start),))
    if "\0" in text:
        return ConfigReport(name, "", (_not_text(name, data, data.index(b"\0")),))
    return check_config_text(text, name, **kwargs)


def _not_text(name: str, data: bytes, offset: int) -> Diagnostic:
    """A binary or non-UTF-8 file, located at its first bad byte."""
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    binary = b"\0" in data[:8192]
    what = "a binary file, not YAML text" if binary else f"not UTF-8 text (byte 0x{data[offset]:02x})"
    return Diagnostic(name, line, column, "error", "unreadable", f"cannot read: {what}")


def _module_source(source: str) -> EmittedFunction:
    """One expression through the compiler's one emitter, as the artifact writer takes it."""
    from syncpatch.compiler import emit_expression

    return EmittedFunction(emit_expression(source).module, "_expression")


def _abi_version() -> Any:
    from syncpatch.runtime.abi import ABI_VERSION

    return ABI_VERSION


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("syncpatch")
    except Exception:  # pragma: no cover - running from a bare checkout
        return "0+unknown"


def render(reports: Sequence[ConfigReport], *, emitter: Callable[[str], EmittedFunction] | None = None,
           abi_version: Any = None) -> str:
    """The artifact of checked, error-free reports."""
    configs = []
    sources: dict[int, str] = {}
    for report in reports:
        assert report.compiled is not None
        compiled = report.compiled
        sources.update(report.sources)
        configs.append(ArtifactConfig(
            name=report.filename,
            plans={key: plan for key, plan in compiled.plans.items()},
            enabled={key: on for key, on in compiled.enabled.items()},
            vcluster_config=compiled.vcluster_config(),
            warnings=tuple(str(w) for w in compiled.warnings),
        ))
    digest = source_digest([(r.filename, r.text) for r in reports])
    return render_artifact(
        configs, sources=sources, emitter=emitter or _module_source,
        abi_version=_abi_version() if abi_version is None else abi_version,
        digest=digest, version=_version(),
    )


def build(paths: Sequence[Path], *, displays: Sequence[str] | None = None, tests: Sequence[Path] = (),
          compiler: Compiler | None = None, emitter: Callable[[str], EmittedFunction] | None = None,
          abi_version: Any = None) -> BuildResult:
    """Check every config (feeding test-case values to the round-trip check); when none has an
    error, render the artifact and load it as a syncer would (``artifact_check``): the
    result holds an artifact only when it loaded and holds the compiled plans."""
    names = list(displays) if displays is not None else [str(p) for p in paths]
    case_values, case_diags = checks.collect_case_values(tests)
    reports = [
        check_config_file(path, name, compiler=compiler, case_values=case_values.get(path.resolve(), {}))
        for path, name in zip(paths, names)
    ]
    if case_diags:
        reports.append(ConfigReport("<tests>", "", tuple(case_diags)))
    if not all(r.ok for r in reports):
        return BuildResult(tuple(reports))
    checked = [r for r in reports if r.compiled is not None]
    artifact = render(checked, emitter=emitter, abi_version=abi_version)
    problems = verify_artifact(artifact, checked, lambda some: render(some, emitter=emitter, abi_version=abi_version))
    if problems:  # loaded as a syncer would, it failed: report it, write nothing
        failing = {d.file: d for d in problems}
        return BuildResult(tuple(attrs.evolve(r, diagnostics=(*r.diagnostics, failing[r.filename]))
                                 if r.filename in failing else r for r in reports))
    return BuildResult(tuple(reports), artifact)


def example_configs(root: Path) -> Iterator[Path]:
    """The tenant configs under ``examples/`` (files with a top-level ``sync`` key)."""
    import yaml

    for path in sorted(root.rglob("*.yaml")):
        if "tests" in path.relative_to(root).parts:
            continue
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict) and "sync" in data:
            yield path
