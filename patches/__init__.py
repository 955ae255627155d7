"""Tenant-cluster ``sync`` config models and their compilation into patch plans."""

from .compile import (
    CompiledConfig,
    ConfigError,
    ConfigIssue,
    ConfigWarning,
    compile_config,
    compile_patches,
)
from .models import PatchModel, SyncConfig, TenantConfig

__all__ = [
    "CompiledConfig",
    "ConfigError",
    "ConfigIssue",
    "ConfigWarning",
    "PatchModel",
    "SyncConfig",
    "TenantConfig",
    "compile_config",
    "compile_patches",
]
