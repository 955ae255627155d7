"""What every subcommand shares: consoles that never truncate in CI, and the last line of
defence that turns an unexpected exception into one readable line."""

from __future__ import annotations

import functools
import os
import sys
from typing import TYPE_CHECKING, Callable, ParamSpec, TypeVar

import click

if TYPE_CHECKING:  # rich loads on first output, not for --help
    from rich.console import Console

__all__ = ["CONTEXT", "console", "guarded", "fail"]

P = ParamSpec("P")
R = TypeVar("R")
CONTEXT = {"help_option_names": ["-h", "--help"]}

_PIPE_WIDTH = 10_000
"""Width of a console that is not a terminal (CI logs, pipes): rich would otherwise assume 80
columns and cut file names in tables; a log viewer wraps long lines itself."""


def console(stderr: bool = False) -> Console:
    """A console for stdout (or stderr); outside a terminal, as wide as the text needs."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = None
    if not stream.isatty() and not os.environ.get("COLUMNS"):
        width = _PIPE_WIDTH
    return Console(file=stream, highlight=False, soft_wrap=True, width=width)


def fail(message: str, code: int = 1) -> SystemExit:
    """Print ``error: message`` on stderr and return the exit to raise."""
    click.echo(f"error: {message}", err=True)
    return SystemExit(code)


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn unexpected exceptions into one readable line and exit code 1."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - the last line of defence for users
            click.echo(f"internal error: {type(exc).__name__}: {exc}", err=True)
            raise SystemExit(1) from None

    return wrapper
