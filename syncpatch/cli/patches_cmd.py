"""``compile-patches``, ``syncpatch apply``, ``syncpatch test`` and ``syncpatch schema``.

Exit codes are a contract for CI: 0 everything fine, 1 config/patch errors (or warnings under
``--strict``, or failing test cases), 2 usage errors (click's own). Users never see a Python
traceback: anything unexpected is reported as one ``internal error`` line with exit code 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import click

if TYPE_CHECKING:  # rich loads on first output, not for --help
    from rich.table import Table

from .common import CONTEXT, console, guarded

__all__ = ["compile_patches", "test", "schema", "run_demo", "print_diagnostics"]

_DIRECTIONS = {"to-host": "to_host", "from-host": "from_host"}
_CONTEXT = CONTEXT
_console = console
_guarded = guarded


def print_diagnostics(diagnostics: list[Any], sources: dict[str, str], fmt: str, **extra: Any) -> None:
    from syncpatch.patches.diagnostics import render_json, render_text, summary_line

    if fmt == "json":
        click.echo(render_json(diagnostics, sources, **extra))
        return
    err = _console(True)
    if diagnostics:
        err.print(render_text(diagnostics, sources))
        err.print()
    err.print(summary_line(diagnostics))


@click.command("compile-patches", context_settings=_CONTEXT)
@click.argument("configs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Write the artifact (an importable .py module) here; '-' for stdout. "
                   "Without it, only check.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Diagnostics as annotated text or as one JSON document (for editors and CI).")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@click.option("--tests", "tests", multiple=True, type=click.Path(exists=True, path_type=Path),
              help="Declarative test cases (file or folder): their objects feed the round-trip check.")
@click.version_option(package_name="syncpatch", prog_name="compile-patches")
@_guarded
def compile_patches(configs: tuple[Path, ...], output: Path | None, fmt: str, strict: bool,
                    tests: tuple[Path, ...]) -> None:
    """Check tenant-cluster configs and compile every patch into one Python artifact.

    Every problem is reported at FILE:LINE:COLUMN (inside the expression for expression
    errors), with a hint where the mistake is a common one. Exit code 0 when everything is
    fine, 1 for config or patch errors (and warnings with --strict), 2 for usage errors.

    \b
    Examples:
      compile-patches vcluster.yaml                    # check only
      compile-patches vcluster.yaml -o plans.py        # write the artifact
      compile-patches a.yaml b.yaml --format json      # machine-readable diagnostics
      compile-patches vcluster.yaml --tests tests/ --strict -o plans.py
    \b
    Load the artifact in a syncer with:
      plans = syncpatch.load_plans("plans.py")
      ctx = plans.context("my-vc", "team-a", virtual_object=obj)
      host_obj = plans.plan("toHost", "endpoints").to_host(obj, ctx)
    """
    from syncpatch.patches.build import build
    from syncpatch.patches.diagnostics import has_failures

    if output is not None and str(output) != "-" and not output.resolve().parent.is_dir():
        raise click.BadParameter(f"folder {output.parent} does not exist (compile-patches does not create it)",
                                 param_hint="-o/--output")
    result = build(list(configs), tests=list(tests))
    diagnostics = result.diagnostics
    failed = has_failures(diagnostics, strict=strict)
    written = None
    if not failed and output is not None and result.artifact is not None:
        written = _write(output, result.artifact)
    print_diagnostics(diagnostics, result.sources, fmt, output=written)
    if written and fmt == "text":
        _console(True).print(f"wrote {written}")
    if failed:
        raise SystemExit(1)


def _write(output: Path, text: str) -> str:
    if str(output) == "-":
        sys.stdout.write(text)
        return "-"
    import os
    import tempfile

    # A whole artifact or none: written next to the output, then renamed over it.
    handle, partial = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".partial", dir=output.resolve().parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(partial, 0o666 & ~mask)  # as an ordinary new file (mkstemp makes it private)
        os.replace(partial, output)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    _write_bytecode(output)
    return str(output)


def _write_bytecode(output: Path) -> None:
    """Compile the artifact to bytecode next to it (``__pycache__``), so a syncer's first
    load skips compiling the source (about 5x faster for a large artifact). Hash-checked
    bytecode keeps builds deterministic; where the folder is read-only, loading still works
    from the source."""
    import py_compile

    try:
        py_compile.compile(str(output), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    except (OSError, py_compile.PyCompileError):
        pass


def _vcluster_context(source: Any, name: str, namespace: str) -> dict[str, Any]:
    """Only ``context.vcluster``: leaving ``virtualObject``/``hostObject`` out lets the plan
    default the source side to the object being synced, as a syncer would."""
    return {"vcluster": source.context(name, namespace)["vcluster"]}


def _case_plans() -> Callable[[Path, str, str], tuple[Any, dict[str, Any]]]:
    """Plan provider for test cases: each config compiled once, config errors as one message."""
    from syncpatch.patches.build import check_config_file
    from syncpatch.patches.diagnostics import render_plain

    cache: dict[Path, Any] = {}

    def provide(config: Path, side: str, resource: str) -> tuple[Any, dict[str, Any]]:
        if config not in cache:
            cache[config] = check_config_file(config)
        report = cache[config]
        if report.compiled is None:
            errors = [d for d in report.diagnostics if d.severity == "error"]
            raise ValueError(render_plain(errors, {report.filename: report.text}))
        return report.compiled.plan(side, resource), _vcluster_context(report.compiled, "my-vcluster",
                                                                        "vcluster-my-vcluster")

    return provide


def _iter_cases(paths: tuple[Path, ...]) -> Iterator[Any]:
    from syncpatch.patches.testcases import discover, load_cases

    for root in paths:
        for file in discover(root):
            cases, errors = load_cases(file)
            yield from errors
            yield from cases


_MARKS = {"pass": ("PASS", "green"), "fail": ("FAIL", "red"), "error": ("ERROR", "red")}


def _results_table(results: list[Any]) -> Table:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="patch tests", title_justify="left")
    for column in ("result", "case", "resource", "direction", "file"):
        table.add_column(column)
    for res in results:
        label, style = _MARKS[res.status]
        case = res.case
        table.add_row(Text(label, style=style), case.name, f"{case.side}.{case.resource}",
                      case.direction.replace("_", "-"), case.file)
    return table


@click.command("test", context_settings=_CONTEXT)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_guarded
def test(paths: tuple[Path, ...], fmt: str) -> None:
    """Run declarative patch test cases (YAML) and print a pass/fail table.

    A case names its config, resource, direction, context, input and expected object; a
    failing case shows a diff. Exit code 1 when any case fails or errs (or none is found).

    \b
    Examples:
      syncpatch test examples/tests
      syncpatch test tests/patches/endpoints.yaml --format json
    \b
    A case file:
      config: ../vcluster.yaml
      resource: endpoints
      direction: to-host
      cases:
        - name: ports get a prefix
          input: {subsets: [{ports: [{name: http}]}]}
          expected: {subsets: [{ports: [{name: host-http}]}]}
    """
    from syncpatch.patches.testcases import CaseResult, run_case

    provide = _case_plans()
    results: list[CaseResult] = []
    broken: list[Any] = []
    for item in _iter_cases(paths):
        if isinstance(item, Exception):
            broken.append(item)
        else:
            results.append(run_case(item, provide))
    failed = [r for r in results if r.status != "pass"]
    if fmt == "json":
        click.echo(json.dumps(_json_results(results, broken), indent=2))
    else:
        _print_results(results, failed, broken)
    if failed or broken or not results:
        raise SystemExit(1)


def _source_line(file: str, line: int | None) -> str | None:
    """Line ``line`` of a case file, for the excerpt under an invalid case (None if unreadable)."""
    if line is None:
        return None
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return lines[line - 1] if 1 <= line <= len(lines) else None


def _json_results(results: list[Any], broken: list[Any]) -> dict[str, Any]:
    return {
        "cases": [
            {"file": r.case.file, "name": r.case.name, "status": r.status, "message": r.message, "diff": r.diff}
            for r in results
        ],
        "invalidFiles": [str(err) for err in broken],
        "invalid": [{"file": err.file, "line": err.line, "column": err.column, "message": err.message,
                     "excerpt": _source_line(err.file, err.line)} for err in broken],
        "summary": {s: sum(r.status == s for r in results) for s in ("pass", "fail", "error")},
    }


def _print_results(results: list[Any], failed: list[Any], broken: list[Any]) -> None:
    from rich.text import Text

    out = _console()
    if results:
        out.print(_results_table(results))
    for res in failed:
        out.print(Text(f"\n{_MARKS[res.status][0]} {res.case.name} ({res.case.file})", style="bold red"))
        if res.message:
            out.print(Text(res.message))
        if res.diff:
            out.print(Text(res.diff), end="")
    for err in broken:
        out.print(Text(f"\ninvalid: {err}", style="red"))
        excerpt = _source_line(err.file, err.line)
        if excerpt is not None:
            gutter = str(err.line).rjust(5)
            out.print(Text(f"{gutter} | {excerpt}\n{' ' * len(gutter)} | {' ' * ((err.column or 1) - 1)}^"))
    passed = len(results) - len(failed)
    if not results and not broken:
        out.print("no test cases found")
    out.print(f"\n{passed} passed, {len(failed)} failed" + (f", {len(broken)} invalid" if broken else ""))


@click.command("schema", context_settings=_CONTEXT)
@click.option("--sync-only", is_flag=True, help="Only the `sync` section, not a whole config file.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
@_guarded
def schema(sync_only: bool, output: Path | None) -> None:
    """Print the JSON Schema of tenant-config `sync` sections (from the pydantic models).

    Point a YAML language server at it for completion and validation in editors.

    \b
    Examples:
      syncpatch schema > vcluster-sync.schema.json
      syncpatch schema --sync-only
    \b
    Then, first line of vcluster.yaml:
      # yaml-language-server: $schema=./vcluster-sync.schema.json
    """
    from syncpatch.patches.schema import sync_schema

    text = json.dumps(sync_schema(whole_file=not sync_only), indent=2) + "\n"
    if output is not None:
        output.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


def run_demo(root: Path | None = None) -> int:
    """``make demo``: compile-patches over examples/ into a temporary artifact, then run the
    declarative cases in examples/tests. Returns the worse exit code."""
    import os
    import tempfile

    from syncpatch.patches.build import example_configs

    base = root or Path(__file__).resolve().parents[2] / "examples"
    configs = [os.path.relpath(p) for p in example_configs(base)]
    tests_dir = Path(os.path.relpath(base / "tests"))
    codes = []
    with tempfile.TemporaryDirectory() as tmp:
        click.echo(f"$ compile-patches {' '.join(configs)} -o plans.py")
        args = [*configs, "-o", str(Path(tmp) / "plans.py")]
        if tests_dir.is_dir():
            args += ["--tests", str(tests_dir)]
        codes.append(_exit_code(compile_patches, args))
        sys.stderr.flush()
    if tests_dir.is_dir():
        click.echo(f"\n$ syncpatch test {tests_dir}")
        codes.append(_exit_code(test, [str(tests_dir)]))
    return max(codes)


def _exit_code(command: click.Command, args: list[str]) -> int:
    try:
        command.main(args=args, standalone_mode=False)
    except SystemExit as exc:
        return int(exc.code or 0)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    return 0
