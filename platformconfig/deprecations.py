"""The deprecated fields of a validated platform config, as warnings.

Validation (of a whole `Config` object) and the effective config both report them, so they
live below both.
"""

from __future__ import annotations

from .model import ConfigStatus


def status_deprecations(status: ConfigStatus) -> list[str]:
    """Warnings for deprecated fields, with paths relative to the platform config."""
    warnings: list[str] = []
    if status.oidc is not None:
        warnings.append("oidc: deprecated: the platform's own OIDC provider settings will be removed; "
                        "configure OIDC clients through the UI or a secret")
    if status.workspace_sub_domain is not None:
        warnings.append("workspaceSubDomain: deprecated and no longer used")
    return warnings
