"""JSON Schema of a vCluster config file (or its ``sync`` section), from the pydantic models.

Generated rather than hand-written so that the editor's completion and the build step can
never disagree about a field. The whole-file form covers every section of vCluster 0.33
(controlPlane, networking, ...) and refuses unknown keys, as ``TenantConfig`` does.
"""

from __future__ import annotations

from typing import Any

__all__ = ["sync_schema", "SCHEMA_DIALECT"]

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def sync_schema(*, whole_file: bool = True) -> dict[str, Any]:
    """The schema for a tenant-cluster config file (or, ``whole_file=False``, its ``sync`` value)."""
    from .models import SyncConfig, TenantConfig

    if not whole_file:
        sync = SyncConfig.model_json_schema(by_alias=True, mode="validation")
        defs = sync.pop("$defs", {})
        return {"$schema": SCHEMA_DIALECT, **sync, "$defs": defs}
    whole = TenantConfig.model_json_schema(by_alias=True, mode="validation")
    return {
        "$schema": SCHEMA_DIALECT,
        **whole,
        "title": "vCluster 0.33 config (vcluster.yaml), syncpatch",
        "description": "Every section of vcluster.yaml; sync.toHost / sync.fromHost with their patches.",
    }
