"""JSON Schema of the ``sync`` section, generated from the pydantic models.

Generated rather than hand-written so that the editor's completion and the build step can
never disagree about a field. The whole-file form constrains only ``sync`` and lets the rest
of a vCluster config (controlPlane, networking, ...) through, as ``TenantConfig`` does.
"""

from __future__ import annotations

from typing import Any

__all__ = ["sync_schema", "SCHEMA_DIALECT"]

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def sync_schema(*, whole_file: bool = True) -> dict[str, Any]:
    """The schema for a tenant-cluster config file (or, ``whole_file=False``, its ``sync`` value)."""
    from .models import SyncConfig

    sync = SyncConfig.model_json_schema(by_alias=True, mode="validation")
    defs = sync.pop("$defs", {})
    if not whole_file:
        return {"$schema": SCHEMA_DIALECT, **sync, "$defs": defs}
    sync_ref = {"$ref": "#/$defs/SyncConfig"}
    defs = {**defs, "SyncConfig": sync}
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "vCluster tenant config (sync section, syncpatch)",
        "description": "sync.toHost / sync.fromHost with their patches; other sections pass through.",
        "type": "object",
        "properties": {"sync": sync_ref},
        "additionalProperties": True,
        "$defs": defs,
    }
