"""`syncpatch config`: validate a platform config and show its effective Config object.

Diagnostics use the `file:line:column: field.path: message` form that editors and CI logs
link to. Exit codes: 0 valid, 1 invalid input, 2 usage error (click's own).
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click
import yaml
from rich.console import Console
from rich.text import Text

from syncpatch.platformconfig import mask_secrets
from syncpatch.platformconfig.files import DEFAULT_NAME, RAW_PREFIX, Checked, check_text, to_wire

_CONTEXT = {"help_option_names": ["-h", "--help"]}


class _BlockDumper(yaml.SafeDumper):
    """Dumps multi-line strings (`spec.raw`) as literal blocks, as kubectl users expect."""


def _str_presenter(dumper: Any, value: str) -> Any:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _str_presenter)


def _err_console() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _read(path: str) -> str:
    """The file's text; unreadable or non-UTF-8 input is a user error (exit 1), not a crash."""
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":  # (as bytes: the text layer may let undecodable bytes through as surrogates)
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as exc:
        _fail(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        _fail(f"{source}: cannot read: {exc.strerror or exc}")


def _fail(message: str) -> NoReturn:
    _err_console().print(Text.assemble(("error: ", "bold red"), message))
    raise SystemExit(1)


def _excerpt(text: str, line: int, column: int) -> Text:
    """The source line under a message, with a caret at the column (empty past the end)."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return Text()
    gutter = str(line).rjust(5)
    return Text.assemble("\n", (f"{gutter} | ", "blue"), lines[line - 1].expandtabs(1), "\n",
                         (f"{' ' * len(gutter)} | ", "blue"), " " * (max(column, 1) - 1), ("^", "bold"))


def _warning_position(text: str, warning: str) -> tuple[int, int]:
    """Where a warning's field (``oidc: ...``, ``spec.raw:oidc: ...``) is set: the first line
    that sets its last key (inside spec.raw too, which is text in the file), else 1:1."""
    import re

    field = warning.removeprefix(RAW_PREFIX).split(": ", 1)[0]
    key = field.rsplit(".", 1)[-1]
    found = re.search(rf"^([ \t-]*)({re.escape(key)})\s*:", text, re.MULTILINE)
    if found is None:
        return 1, 1
    line = text.count("\n", 0, found.start()) + 1
    return line, len(found.group(1)) + 1


def _report(results: list[Checked], source: str, text: str) -> int:
    """Print every error and warning, each located, with its source line; the number of errors."""
    console = _err_console()
    count = 0
    for result in results:
        for error in result.errors:
            count += 1
            line, column = error.line or 1, error.column or 1
            console.print(Text.assemble((f"{source}:{line}:{column}", "bold"), ": ",
                                        (error.path or "<root>", "cyan"), ": ", (error.message, "red"),
                                        _excerpt(text, line, column)))
        for warning in result.warnings:
            line, column = _warning_position(text, warning)
            console.print(Text.assemble((f"{source}:{line}:{column}: ", "bold"), ("warning: ", "yellow"), warning,
                                        _excerpt(text, line, column)))
    return count


def _check(path: str, name: str = DEFAULT_NAME) -> tuple[list[Checked], str]:
    source = "<stdin>" if path == "-" else path
    text = _read(path)
    try:
        return check_text(text, source, name=name), text
    except SystemExit:
        raise
    except Exception as exc:  # a bug must not surface as a traceback
        _fail(f"internal error while checking {source}: {type(exc).__name__}: {exc} (please report this)")


@click.group("config", context_settings=_CONTEXT)
def config() -> None:
    """Validate the platform Config and show its effective settings.

    \b
    Examples:
      syncpatch config validate platform.yaml
      syncpatch config show platform.yaml -o json
    """


@config.command("validate", context_settings=_CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
def validate(file: str) -> None:
    """Validate FILE: a raw platform config, or a whole Config object.

    Every problem is reported as `file:line:column: field.path: message`. A Config object
    (apiVersion/kind/metadata/spec) has its metadata and its spec.raw validated. Deprecated
    fields give warnings. Exit status: 0 valid, 1 invalid, 2 usage error. FILE may be `-`
    for standard input.

    \b
    Examples:
      syncpatch config validate platform.yaml
      syncpatch config validate config-object.yaml
      kubectl get config.management.platform.sh platform -o yaml | syncpatch config validate -
    """
    source = "<stdin>" if file == "-" else file
    results, text = _check(file)
    errors = _report(results, source, text)
    if errors:
        _err_console().print(Text(f"{source}: {errors} error{'s' if errors != 1 else ''}", "bold red"))
        raise SystemExit(1)
    kinds = {r.kind for r in results}
    what = "Config object" if kinds == {"object"} else "platform config"
    Console(highlight=False, soft_wrap=True).print(Text.assemble(("✓ ", "green"), f"{source}: valid {what}"))


@config.command("show", context_settings=_CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-o", "--output", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True,
              help="Output format.")
@click.option("--reveal", is_flag=True, help="Show secrets instead of masking them as ********.")
@click.option("--name", default=DEFAULT_NAME, show_default=True,
              help="metadata.name when FILE is a raw platform config.")
def show(file: str, output: str, reveal: bool, name: str) -> None:
    """Print the full Config object for FILE, with its effective status.

    The status is the raw config validated and completed with the documented defaults.
    Client secrets, passwords, tokens, caData and the data source password are masked
    unless --reveal is given. Invalid input is reported as by `validate` (exit 1).

    \b
    Examples:
      syncpatch config show platform.yaml
      syncpatch config show platform.yaml -o json --reveal
      syncpatch config show config-object.yaml -o yaml
    """
    source = "<stdin>" if file == "-" else file
    results, text = _check(file, name)
    if _report([r for r in results if r.errors], source, text):
        raise SystemExit(1)
    _report([r for r in results if r.warnings], source, text)
    objects = [to_wire(r.config) for r in results if r.config is not None]
    if not reveal:
        objects = [mask_secrets(obj) for obj in objects]
    click.echo(_render(objects, output), nl=False)


def _render(objects: list[dict[str, Any]], output: str) -> str:
    if output == "json":
        body: Any = objects[0] if len(objects) == 1 else {"apiVersion": "v1", "kind": "List", "items": objects}
        return json.dumps(body, indent=2, ensure_ascii=False) + "\n"
    docs = [yaml.dump(obj, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True) for obj in objects]
    return "---\n".join(docs)
