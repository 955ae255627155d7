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


class _LazyGroup(click.Group):
    """A click group that imports a subcommand's module on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target
        try:
            module = importlib.import_module(f"syncpatch.cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"syncpatch.cli.{module_name}":
                return None  # command not built yet
            raise
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
