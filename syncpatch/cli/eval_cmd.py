"""`syncpatch eval`: evaluate one patch expression on a JSON value, print the JSON result."""

from __future__ import annotations

import json
from typing import Any

import click

__all__ = ["eval_"]


def _parse(text: str | None, what: str) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not valid JSON: {exc}", param_hint=what) from None


@click.command("eval", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("expression")
@click.option("--value", "value_json", metavar="JSON", help="The value the expression sees (JSON).")
@click.option("--context", "context_json", metavar="JSON", help="The context object (JSON).")
@click.option("--value-exists/--no-value-exists", default=True, help="What valueExists reports.")
def eval_(expression: str, value_json: str | None, context_json: str | None, value_exists: bool) -> None:
    """Evaluate EXPRESSION (JavaScript) and print the result as JSON.

    \b
    Examples:
      syncpatch eval '"p-" + value' --value '"web"'
      syncpatch eval 'value.map(p => p.port)' --value '[{"port": 80}]'
      syncpatch eval 'context.vcluster.name' --context '{"vcluster": {"name": "vc"}}'

    The result prints as a patch would store it, as vCluster does: a Date as its RFC 3339
    text, a Map as its [key, value] pairs, a getter as its value; undefined prints as
    `undefined`. A result JSON cannot hold (NaN, Infinity, a function, a symbol) is an error
    naming where it sits, as it would fail a patch. Exit status 1 on a compile or evaluation
    error or such a result.
    """
    from syncpatch import UNDEFINED, CompileError, EvaluationError, compile_expression
    from syncpatch.runtime.plan_export import ExportFailure

    value = _parse(value_json, "--value")
    context = _parse(context_json, "--context")
    try:
        compiled = compile_expression(expression, origin="<eval>")
        result = compiled.general.exported(value, context, value_exists=value_exists)
    except CompileError as exc:
        click.echo(str(exc), err=True)
        raise SystemExit(1) from None
    except EvaluationError as exc:
        if isinstance(exc.js_value, ExportFailure):
            click.echo(f"error: {exc.message}", err=True)
        else:
            click.echo(f"Uncaught {exc}", err=True)
        raise SystemExit(1) from None
    if result is UNDEFINED:
        click.echo("undefined")
        return
    from .render import NotJsonData, json_data

    try:
        data = json_data(result)
    except NotJsonData as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False))
