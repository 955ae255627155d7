"""JSON schema of the Config model, plain or shaped for a Kubernetes `/openapi/v3` document.

kubectl (`explain`, client-side checks) reads OpenAPI 3.0, which has no `"type": "null"`:
nullable fields become `nullable: true`, and references point into `components/schemas`.
"""

from __future__ import annotations

from typing import Any

from .model import API_VERSION, Config

GROUP, VERSION = API_VERSION.split("/")
OPENAPI_REF = "#/components/schemas/{model}"


def config_json_schema(ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
    """The pydantic JSON schema (draft 2020-12) of `Config`, by wire names."""
    return Config.model_json_schema(by_alias=True, ref_template=ref_template)


def config_openapi_schemas(prefix: str = "sh.platform.management.v1.") -> dict[str, Any]:
    """OpenAPI 3.0 component schemas for `Config` and every nested model, keyed by name.

    Names carry `prefix` (Kubernetes style, `sh.platform.management.v1.Config`); the Config
    schema carries `x-kubernetes-group-version-kind` so kubectl can map it to the resource.
    """
    schema = Config.model_json_schema(by_alias=True, ref_template=OPENAPI_REF.replace("{model}", prefix + "{model}"))
    defs: dict[str, Any] = schema.pop("$defs", {})
    out = {prefix + name: _openapi(body) for name, body in defs.items()}
    root = _openapi(schema)
    root["x-kubernetes-group-version-kind"] = [{"group": GROUP, "version": VERSION, "kind": "Config"}]
    out[prefix + "Config"] = root
    return out


def _openapi(node: Any) -> Any:
    """Rewrite `anyOf: [X, {type: null}]` into X with `nullable: true`, recursively."""
    if isinstance(node, list):
        return [_openapi(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _openapi(value) for key, value in node.items() if key != "title"}
    options = out.get("anyOf")
    if isinstance(options, list):
        rest = [o for o in options if o != {"type": "null"}]
        if len(rest) < len(options):
            out.pop("anyOf")
            if out.get("default", 0) is None:
                out.pop("default")
            base = rest[0] if len(rest) == 1 else {"anyOf": rest}
            if "$ref" in base:
                base = {"allOf": [base]}
            out = {**base, **out, "nullable": True}
    return out
