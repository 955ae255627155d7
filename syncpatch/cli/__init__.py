"""The `syncpatch` command line.

Each subcommand lives in its own module and is imported only when invoked, so that
`syncpatch --help` stays fast and a command's heavy dependencies (the server stack, say)
load only for that command.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

# command name -> (module under syncpatch.cli, attribute holding the click command)
_COMMANDS: dict[str, tuple[str, str]] = {
    "compile-patches": ("patches_cmd", "compile_patches"),
    "apply": ("apply_cmd", "apply"),
    "test": ("patches_cmd", "test"),
    "schema": ("patches_cmd", "schema"),
    "eval": ("eval_cmd", "eval_"),
    "config": ("config_cmd", "config"),
    "serve": ("serve_cmd", "serve"),
}

#: each command's one-line help, for the listing in `syncpatch --help` without importing every
#: command module (pydantic models, the server stack); tests/cli/test_lazy_help.py keeps it equal
#: to the commands' own help
SHORT_HELP: dict[str, str] = {
    "compile-patches": "Check tenant-cluster configs and compile every patch into one Python artifact.",
    "apply": "Apply a config's patches to Kubernetes objects and print the result.",
    "test": "Run declarative patch test cases (YAML) and print a pass/fail table.",
    "schema": "Print the JSON Schema of tenant-config `sync` sections (from the pydantic models).",
    "eval": "Evaluate EXPRESSION (JavaScript) and print the result as JSON.",
    "config": "Validate the platform Config and show its effective settings.",
    "serve": "Serve Configs (management.platform.sh/v1) to kubectl over TLS.",
}


def _shorten(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters, cut at a word with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 3, 1)].rsplit(" ", 1)[0].rstrip(" ,;:") + "..."


class _LazyGroup(click.Group):
    """A click group that imports a subcommand's module on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from ``SHORT_HELP``: listing imports no command module."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, _shorten(SHORT_HELP.get(name, ""), limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """As click's, but a misspelt command name is told the close ones (click looks for
        them among the loaded commands, and this group loads none until one is used)."""
        name = click.utils.make_str(args[0])
        if name not in _COMMANDS and not name.startswith("-") and not ctx.resilient_parsing:
            raise click.exceptions.NoSuchCommand(name, possibilities=sorted(_COMMANDS), ctx=ctx)
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target
        module = importlib.import_module(f"syncpatch.cli.{module_name}")
        command = getattr(module, attr, None)
        return command if isinstance(command, click.Command) else None


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(package_name="syncpatch")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """syncpatch: compiled JavaScript patches for tenant-cluster sync, and the platform Config API.

    \b
    Examples:
      syncpatch compile-patches vcluster.yaml -o plans.py
      syncpatch apply --config vcluster.yaml --resource endpoints ep.yaml --diff
      syncpatch test examples/tests
      syncpatch eval '"host-" + value' --value '"web"'
      syncpatch COMMAND --help
    """
    if ctx.invoked_subcommand is None:  # `syncpatch` alone: the help, and success
        click.echo(ctx.get_help())
        ctx.exit(0)


def main(argv: list[str] | None = None) -> Any:
    """Console entry point for `syncpatch`."""
    return cli.main(args=argv, prog_name="syncpatch")


def compile_patches_main(argv: list[str] | None = None) -> Any:
    """Console entry point for the stand-alone `compile-patches` build step."""
    command = cli.get_command(click.Context(cli), "compile-patches")
    if command is None:
        raise SystemExit("compile-patches is not available in this build")
    return command.main(args=argv, prog_name="compile-patches")
