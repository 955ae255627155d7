"""The `Config` resource (`management.platform.sh/v1`): metadata, `spec.raw`, effective `status`.

`costControl`, `platformDB`, `imageBuilder` and `database` are direct children of `status`,
beside `cloud`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from .auth import Auth, OIDCServer
from .base import Model, Rule, field
from .formats import base64_bytes
from .metadata import ObjectMeta
from .sections import (Apps, Audit, Cloud, CostControl, Database, ImageBuilder, PlatformDB,
                       SecretStore, UISettings)

API_VERSION = "management.platform.sh/v1"
KIND = "Config"
PROJECT_NAMESPACE_PREFIX_DEFAULT = "p-"
_PREFIX = re.compile(r"[a-z0-9][-a-z0-9]*\Z")


def decode_raw(raw: str) -> tuple[str, bool]:
    """`spec.raw` as text, and whether it arrived base64-encoded.

    The platform's own type is `[]byte`, so a Config exported from it carries the raw config
    in base64; a hand-written Config holds a plain string. Both are accepted. A YAML mapping always
    holds a `:`, which base64 never does, so text and base64 cannot be confused; the decoded
    bytes must also be UTF-8.
    """
    if not raw.strip():
        return raw, False
    data = base64_bytes(raw.strip())
    if data is None:
        return raw, False
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return raw, False


def _raw_text(value: Any) -> Any:
    return decode_raw(value)[0] if isinstance(value, str) else value


class ConfigStatus(Model):
    """The effective platform configuration; `spec.raw` parsed, validated and defaulted."""

    auth: Auth | None = field(None, "Authentication configuration.")
    oidc: OIDCServer | None = field(None, "Deprecated. The platform acting as an OIDC provider.")
    apps: Apps | None = field(None, "App repositories and predefined apps.")
    audit: Audit | None = field(None, "Audit logging.")
    platform_host: str | None = field("platformHost", "Domain where the platform is hosted, without scheme.")
    project_namespace_prefix: str | None = field(
        "projectNamespacePrefix", "Prefix of project namespaces; default p-.")
    workspace_sub_domain: str | None = field(
        "workspaceSubDomain", "Deprecated. Subdomain of the form *.workspace.<domain>.")
    ui_settings: UISettings | None = field("uiSettings", "User interface settings.")
    secret_store: SecretStore | None = field("secretStore", "Secret store integration.")
    disable_config_endpoint: bool | None = field(
        "disableConfigEndpoint", "Disables setting config via the UI and the config endpoint.")
    authenticate_version_endpoint: bool | None = field(
        "authenticateVersionEndpoint", "Require authentication on /version (tenant clusters 0.27+).")
    cloud: Cloud | None = field(None, "Settings used only in hosted cloud deployments.")
    cost_control: CostControl | None = field("costControl", "Cost dashboard settings.")
    platform_db: PlatformDB | None = field("platformDB", "Platform database volume settings.")
    image_builder: ImageBuilder | None = field("imageBuilder", "Remote image builder settings.")
    database: Database | None = field(None, "Embedded-datastore database connection.")

    def violations(self) -> list[Rule]:
        found: list[Rule] = []
        host = self.platform_host
        if host and ("://" in host or "/" in host or " " in host):
            found.append((("platformHost",), f"invalid host {host!r}: give the domain only, "
                                              "without scheme or path, such as platform.example.com"))
        prefix = self.project_namespace_prefix
        if prefix and (len(prefix) > 32 or not _PREFIX.match(prefix)):
            found.append((("projectNamespacePrefix",),
                          f"invalid prefix {prefix!r}: at most 32 lowercase letters, digits and '-', "
                          "starting with a letter or digit, so that namespace names stay DNS labels"))
        return found


class ConfigSpec(Model):
    """The desired configuration, as the raw platform config YAML text."""

    raw: Annotated[str, BeforeValidator(_raw_text)] = Field(
        "", description="The raw platform config (YAML); base64 (as the platform exports it) is decoded.")


class Config(Model):
    """The platform's own configuration resource."""

    api_version: str = Field(API_VERSION, alias="apiVersion", description="Always management.platform.sh/v1.")
    kind: str = Field(KIND, description="Always Config.")
    metadata: ObjectMeta
    spec: ConfigSpec = Field(default_factory=lambda: ConfigSpec(raw=""))
    status: ConfigStatus | None = None

    def violations(self) -> list[Rule]:
        found: list[Rule] = []
        if self.api_version != API_VERSION:
            found.append((("apiVersion",), f"unsupported apiVersion {self.api_version!r}: expected {API_VERSION}"))
        if self.kind != KIND:
            found.append((("kind",), f"unsupported kind {self.kind!r}: expected {KIND}"))
        return found
