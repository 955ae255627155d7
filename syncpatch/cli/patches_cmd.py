"""``compile-patches``, ``syncpatch apply``, ``syncpatch test`` and ``syncpatch schema``.

Exit codes are a contract for CI: 0 everything fine, 1 config/patch errors (or warnings under
``--strict``, or failing test cases), 2 usage errors (click's own). Users never see a Python
traceback: anything unexpected is reported as one ``internal error`` line with exit code 1.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, ParamSpec, TypeVar

import click

if TYPE_CHECKING:  # rich loads on first output, not for --help
    from rich.console import Console
    from rich.table import Table

__all__ = ["compile_patches", "apply", "test", "schema", "run_demo"]

P = ParamSpec("P")
R = TypeVar("R")
_CONTEXT = {"help_option_names": ["-h", "--help"]}
_DIRECTIONS = {"to-host": "to_host", "from-host": "from_host"}


def _console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _text(*args: Any, **kwargs: Any) -> Any:
    """rich's ``Text``, imported on first use (not for ``--help``)."""
    from rich.text import Text

    return Text(*args, **kwargs)


def _guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn unexpected exceptions into one readable line and exit code 1."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except ImportError as exc:
            _console(True).print(f"error: a syncpatch stage is missing from this installation: {exc}")
            raise SystemExit(1) from None
        except Exception as exc:  # noqa: BLE001 - the last line of defence for users
            _console(True).print(f"internal error: {type(exc).__name__}: {exc}")
            raise SystemExit(1) from None

    return wrapper


def _print_diagnostics(diagnostics: list[Any], sources: dict[str, str], fmt: str, **extra: Any) -> None:
    from syncpatch.patches.diagnostics import render_json, render_text, summary_line

    if fmt == "json":
        click.echo(render_json(diagnostics, **extra))
        return
    err = _console(True)
    if diagnostics:
        err.print(render_text(diagnostics, sources))
        err.print()
    err.print(summary_line(diagnostics))


@click.command("compile-patches", context_settings=_CONTEXT)
@click.argument("configs", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Write the artifact (an importable .py module) here; '-' for stdout. "
                   "Without it, only check.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Diagnostics as annotated text or as one JSON document (for editors and CI).")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@click.option("--tests", "tests", multiple=True, type=click.Path(exists=True, path_type=Path),
              help="Declarative test cases (file or folder): their objects feed the round-trip check.")
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

    result = build(list(configs), tests=list(tests))
    diagnostics = result.diagnostics
    failed = has_failures(diagnostics, strict=strict)
    written = None
    if not failed and output is not None and result.artifact is not None:
        written = _write(output, result.artifact)
    _print_diagnostics(diagnostics, result.sources, fmt, output=written)
    if written and fmt == "text":
        _console(True).print(f"wrote {written}")
    if failed:
        raise SystemExit(1)


def _write(output: Path, text: str) -> str:
    if str(output) == "-":
        sys.stdout.write(text)
        return "-"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
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


def _read_objects(path: str) -> list[Any]:
    import yaml

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        return [doc for doc in yaml.safe_load_all(text) if doc is not None]
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"cannot read {path}: {exc}", param_hint="OBJECT") from None
    except yaml.YAMLError as exc:
        raise click.BadParameter(f"{path} is not YAML: {exc}", param_hint="OBJECT") from None


def _plan_source(config: Path | None, artifact: Path | None) -> Any:
    """A ``(side, resource) -> (plan, base context factory)`` provider from a config or an artifact.

    Config errors are printed as diagnostics and end the command with exit code 1.
    """
    if artifact is not None:
        from syncpatch.loader import load_plans

        return load_plans(artifact)
    from syncpatch.patches.build import check_config_file

    assert config is not None
    report = check_config_file(config)
    if not report.ok or report.compiled is None:
        errors = [d for d in report.diagnostics if d.severity == "error"]
        _print_diagnostics(errors, {report.filename: report.text}, "text")
        raise SystemExit(1)
    return report.compiled


def _vcluster_context(source: Any, name: str, namespace: str) -> dict[str, Any]:
    """Only ``context.vcluster``: leaving ``virtualObject``/``hostObject`` out lets the plan
    default the source side to the object being synced, as a syncer would."""
    return {"vcluster": source.context(name, namespace)["vcluster"]}


def _dump(obj: Any, fmt: str) -> str:
    from syncpatch.patches.testcases import yaml_dump

    if fmt == "json":
        return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    return yaml_dump(obj)


@click.command("apply", context_settings=_CONTEXT)
@click.argument("objects", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--config", "config", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Tenant-cluster config (YAML) holding the patches.")
@click.option("--artifact", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Use a compile-patches artifact instead of --config.")
@click.option("--resource", required=True,
              help="Resource key: endpoints, fromHost.nodes, toHost.customResources/NAME ...")
@click.option("--direction", type=click.Choice(sorted(_DIRECTIONS)), default="to-host", show_default=True)
@click.option("--diff", "show_diff", is_flag=True, help="Print a unified diff instead of the object.")
@click.option("-o", "--output", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@click.option("--vcluster-name", default="my-vcluster", show_default=True, help="context.vcluster.name")
@click.option("--vcluster-namespace", default="vcluster-my-vcluster", show_default=True,
              help="context.vcluster.namespace (the tenant cluster's host namespace)")
@_guarded
def apply(objects: tuple[str, ...], config: Path | None, artifact: Path | None, resource: str,
          direction: str, show_diff: bool, fmt: str, vcluster_name: str, vcluster_namespace: str) -> None:
    """Apply a config's patches to Kubernetes objects and print the result.

    OBJECTS are YAML files (several documents each allowed; '-' reads stdin).

    \b
    Examples:
      syncpatch apply --config vcluster.yaml --resource endpoints ep.yaml
      syncpatch apply --config vcluster.yaml --resource endpoints --direction from-host host-ep.yaml
      syncpatch apply --config vcluster.yaml --resource secrets --diff -o json secret.yaml
      kubectl get ep web -o yaml | syncpatch apply --artifact plans.py --resource endpoints -
    """
    from syncpatch.patches.testcases import parse_resource, unified_diff

    if (config is None) == (artifact is None):
        raise click.UsageError("give exactly one of --config or --artifact")
    docs = [obj for path in objects for obj in _read_objects(path)]
    source = _plan_source(config, artifact)
    side, key = parse_resource(resource)
    plan = source.plan(side, key)
    out = _console()
    for number, obj in enumerate(docs):
        context = _vcluster_context(source, vcluster_name, vcluster_namespace)
        try:
            result = plan.apply(_DIRECTIONS[direction], obj, context).object
        except Exception as exc:  # a PatchError: the object was left untouched
            _console(True).print(f"error: {exc}")
            raise SystemExit(1) from None
        if number and not show_diff:
            click.echo("---" if fmt == "yaml" else "", nl=fmt == "yaml")
        if show_diff:
            out.print(_text(unified_diff(obj, result, before="input", after="patched")), end="")
        else:
            click.echo(_dump(result, fmt), nl=False)


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
    from syncpatch.patches.testcases import CaseFileError, discover, load_case_file

    for root in paths:
        for file in discover(root):
            try:
                yield from load_case_file(file)
            except CaseFileError as exc:
                yield exc


_MARKS = {"pass": ("PASS", "green"), "fail": ("FAIL", "red"), "error": ("ERROR", "red")}


def _results_table(results: list[Any]) -> Table:
    from rich.table import Table

    table = Table(title="patch tests", title_justify="left")
    for column in ("result", "case", "resource", "direction", "file"):
        table.add_column(column)
    for res in results:
        label, style = _MARKS[res.status]
        case = res.case
        table.add_row(_text(label, style=style), case.name, f"{case.side}.{case.resource}",
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
    broken: list[str] = []
    for item in _iter_cases(paths):
        if isinstance(item, Exception):
            broken.append(str(item))
        else:
            results.append(run_case(item, provide))
    failed = [r for r in results if r.status != "pass"]
    if fmt == "json":
        click.echo(json.dumps(_json_results(results, broken), indent=2))
    else:
        _print_results(results, failed, broken)
    if failed or broken or not results:
        raise SystemExit(1)


def _json_results(results: list[Any], broken: list[str]) -> dict[str, Any]:
    return {
        "cases": [
            {"file": r.case.file, "name": r.case.name, "status": r.status, "message": r.message, "diff": r.diff}
            for r in results
        ],
        "invalidFiles": broken,
        "summary": {s: sum(r.status == s for r in results) for s in ("pass", "fail", "error")},
    }


def _print_results(results: list[Any], failed: list[Any], broken: list[str]) -> None:
    out = _console()
    if results:
        out.print(_results_table(results))
    for res in failed:
        out.print(_text(f"\n{_MARKS[res.status][0]} {res.case.name} ({res.case.file})", style="bold red"))
        if res.message:
            out.print(_text(res.message))
        if res.diff:
            out.print(_text(res.diff), end="")
    for message in broken:
        out.print(_text(f"invalid case file: {message}", style="red"))
    passed = len(results) - len(failed)
    if not results and not broken:
        out.print("no test cases found")
    out.print(f"\n{passed} passed, {len(failed)} failed" + (f", {len(broken)} invalid files" if broken else ""))


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
