"""The `Config` resource (`management.platform.sh/v1`): metadata, `spec.raw`, effective `status`.

`costControl`, `platformDB`, `imageBuilder` and `database` are direct children of `status`,
beside `cloud` (the seed leaves this open; the issue settles it).
"""

from __future__ import annotations

import re

from pydantic import Field

from .auth import Auth, OIDCServer
from .base import Model, Rule, field
from .metadata import ObjectMeta
from .sections import (Apps, Audit, Cloud, CostControl, Database, ImageBuilder, PlatformDB,
                       SecretStore, UISettings)

API_VERSION = "management.platform.sh/v1"
KIND = "Config"
PROJECT_NAMESPACE_PREFIX_DEFAULT = "p-"
_PREFIX = re.compile(r"[a-z0-9][-a-z0-9]*\Z")


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

    raw: str = Field("", description="The raw platform config (YAML).")


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
