"""The per-expression benchmark set, each with a hand-written Python equivalent.

The hand-written functions are what a careful engineer would write instead of a patch
expression: idiomatic, correct for the given inputs, and not mutating the caller's objects.
"""

from __future__ import annotations

import base64
import copy
import json
import re
from typing import Any, Callable

import attrs


@attrs.frozen
class ExpressionCase:
    name: str
    source: str
    value: Any
    handwritten: Callable[[Any, Any], Any]


CONTEXT: dict[str, Any] = {
    "vcluster": {
        "name": "my-vcluster",
        "namespace": "vcluster-my-vcluster",
        "config": {"sync": {"toHost": {"services": {"enabled": True}, "endpoints": {"enabled": True}}}},
    },
    "hostObject": None,
    "virtualObject": {"metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}}},
    "path": "metadata.name",
}

_PREFIX = "my-prefix-"
_V_PREFIX = re.compile(r"^v-")


def _strip(value: Any, context: Any) -> Any:
    return value[len(_PREFIX):] if value.startswith(_PREFIX) else value


def _optional(value: Any, context: Any) -> Any:
    field = value.get("field")
    other = field.get("other") if field is not None else None
    return other or "default"


def _label_filter(value: Any, context: Any) -> Any:
    return {k: value[k] for k in value if not k.startswith("internal/")}


def _set_key(value: Any, context: Any) -> Any:
    result = dict(value)
    result["k"] = "v"
    return result


PORTS = [{"name": f"p{i}", "port": 8000 + i, "protocol": "TCP"} for i in range(5)]
LABELS = {
    "app": "web", "tier": "frontend", "internal/owner": "team-a", "release": "stable",
    "internal/cost": "42", "version": "v1", "region": "eu", "internal/audit": "yes",
}

CASES: tuple[ExpressionCase, ...] = (
    ExpressionCase("prefix concat", '"my-prefix-" + value', "web-1", lambda v, c: _PREFIX + v),
    ExpressionCase(
        "guarded strip",
        'value.startsWith("my-prefix-") ? value.slice("my-prefix-".length) : value',
        "my-prefix-web-1",
        _strip,
    ),
    ExpressionCase("btoa", "btoa(value)", "admin:s3cr3t!", lambda v, c: base64.b64encode(v.encode()).decode()),
    ExpressionCase(
        "atob", "atob(value)", "YWRtaW46czNjcjN0IQ==", lambda v, c: base64.b64decode(v).decode("utf-8", "replace")
    ),
    ExpressionCase(
        "context name",
        'context.vcluster.name + "-" + value',
        "web",
        lambda v, c: c["vcluster"]["name"] + "-" + v,
    ),
    ExpressionCase("optional (present)", 'value.field?.other || "default"', {"field": {"other": "x"}}, _optional),
    ExpressionCase("optional (null)", 'value.field?.other || "default"', {"field": None}, _optional),
    ExpressionCase(
        "ports map",
        "value.map(p => ({...p, port: p.port + 1000}))",
        PORTS,
        lambda v, c: [{**p, "port": p["port"] + 1000} for p in v],
    ),
    ExpressionCase(
        "label filter",
        'Object.keys(value).filter(k => !k.startsWith("internal/"))'
        ".reduce((acc, k) => ({...acc, [k]: value[k]}), {})",
        LABELS,
        _label_filter,
    ),
    ExpressionCase(
        "regex replace",
        'value.replace(/^v-/, "").toUpperCase()',
        "v-web-frontend",
        lambda v, c: _V_PREFIX.sub("", v, count=1).upper(),
    ),
    ExpressionCase(
        "JSON.stringify",
        "JSON.stringify({name: value, port: 80, tls: true})",
        "web",
        lambda v, c: json.dumps({"name": v, "port": 80, "tls": True}, separators=(",", ":")),
    ),
    ExpressionCase("string literal", '"fixed-value"', "anything", lambda v, c: "fixed-value"),
    ExpressionCase("statement script", 'value["k"]="v";value', {"a": "1", "b": "2"}, _set_key),
)


def input_pool(case: ExpressionCase, size: int = 16) -> list[tuple[Any, Any]]:
    """Distinct deep copies of the inputs, so no contender can cache by identity."""
    return [(copy.deepcopy(case.value), copy.deepcopy(CONTEXT)) for _ in range(size)]
