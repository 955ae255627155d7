"""The effective config: `spec.raw` parsed, validated and completed with documented defaults.

Which defaults are shown where: a default that applies whether or not its section is written
(`projectNamespacePrefix`, `auth.loginAccessKeyTTLSeconds`, `costControl.enabled` and the
cost dashboard's prices) is always present; a default of
an optional feature (audit `maxSize`, secret store `syncInterval`, metrics `retention`,
connector `scopes` and `tenant`, button `position`) appears where that feature is configured.
Unset booleans and lists are left out, as Go's `omitempty` would; values the user wrote are
kept, so an explicit `false` or `loginAccessKeyTTLSeconds: 0` stays visible.
"""

from __future__ import annotations

from typing import Any

from .auth import DEFAULT_SCOPES, LOGIN_ACCESS_KEY_TTL_DEFAULT, Auth, IdpA, IdpB, OIDCProvider
from .deprecations import status_deprecations
from .model import PROJECT_NAMESPACE_PREFIX_DEFAULT, ConfigStatus
from .sections import (AUDIT_MAX_SIZE_DEFAULT, COST_CONTROL_ENABLED_DEFAULT, NAV_BAR_POSITION_DEFAULT,
                       PRICE_DEFAULTS, RETENTION_DEFAULT, SYNC_INTERVAL_DEFAULT,
                       CostControl, CostSettings, Price)
from .validate import validate_status
from .documents import load_document


def effective_config(raw: str, *, source: str = "<raw>") -> ConfigStatus:
    """Parse, validate and default a raw platform config; raises `ConfigInvalid`."""
    return effective_config_with_warnings(raw, source=source)[0]


def effective_config_with_warnings(raw: str, *, source: str = "<raw>") -> tuple[ConfigStatus, list[str]]:
    """`effective_config`, plus the deprecation warnings of the fields the raw config sets."""
    doc = load_document(raw, source)
    status = validate_status(doc.data, doc, source=source)
    return apply_defaults(status), deprecation_warnings(status)


def deprecation_warnings(status_or_raw: ConfigStatus | str) -> list[str]:
    """Warnings for deprecated fields, with paths relative to the platform config."""
    status = effective_config(status_or_raw) if isinstance(status_or_raw, str) else status_or_raw
    return status_deprecations(status)


def apply_defaults(status: ConfigStatus) -> ConfigStatus:
    """A copy of `status` with every documented default filled in."""
    out = status.model_copy(deep=True)
    if out.project_namespace_prefix is None:  # "" is an explicit empty prefix
        out.project_namespace_prefix = PROJECT_NAMESPACE_PREFIX_DEFAULT
    out.auth = _auth_defaults(out.auth or Auth())
    if out.audit is not None and out.audit.max_size is None:
        out.audit.max_size = AUDIT_MAX_SIZE_DEFAULT
    if out.secret_store is not None and out.secret_store.sync_interval is None:
        out.secret_store.sync_interval = SYNC_INTERVAL_DEFAULT
    out.cost_control = _cost_control_defaults(out.cost_control or CostControl())
    if out.ui_settings is not None:
        for button in out.ui_settings.nav_bar_buttons or []:
            if button.position is None:
                button.position = NAV_BAR_POSITION_DEFAULT
    return out


def _auth_defaults(auth: Auth) -> Auth:
    if auth.login_access_key_ttl_seconds is None:
        auth.login_access_key_ttl_seconds = LOGIN_ACCESS_KEY_TTL_DEFAULT
    holders: list[Any] = [auth, *(auth.connectors or [])]
    for holder in holders:
        _provider_defaults(holder.oidc, holder.idp_a, holder.idp_b)
    return auth


def _provider_defaults(oidc: OIDCProvider | None, idp_a: IdpA | None, idp_b: IdpB | None) -> None:
    for provider in (oidc, idp_a):
        if provider is not None and not provider.scopes:
            provider.scopes = list(DEFAULT_SCOPES)
    if idp_b is not None and not idp_b.tenant:
        idp_b.tenant = "common"


def _cost_control_defaults(cost: CostControl) -> CostControl:
    """The dashboard is on unless turned off, with the platform's initial prices."""
    if cost.enabled is None:
        cost.enabled = COST_CONTROL_ENABLED_DEFAULT
    settings = cost.settings = cost.settings or CostSettings()
    for name, (price, period) in PRICE_DEFAULTS.items():
        if getattr(settings, name) is None:
            setattr(settings, name, Price(price=price, time_period=period))
    metrics = [cost.global_.metrics if cost.global_ else None, cost.cluster.metrics if cost.cluster else None]
    for section in metrics:
        if section is not None and section.retention is None:
            section.retention = RETENTION_DEFAULT
    return cost


def status_to_dict(status: ConfigStatus) -> dict[str, Any]:
    """The wire form of a status: camelCase keys, unset fields left out."""
    return status.model_dump(mode="json", by_alias=True, exclude_none=True)
