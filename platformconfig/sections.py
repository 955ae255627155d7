"""The non-auth sections of `status`: apps, audit, UI, secret store, cloud, cost control,
platform database, image builder and embedded database, with the shared `resources` shape."""

from __future__ import annotations

from typing import Literal

from .base import Model, Rule, field, required
from .formats import (DayOfWeek, Interval, Number, Quantity, Retention, StorageClass, TimeWindow,
                      check_data_source, parse_quantity)

AUDIT_MAX_SIZE_DEFAULT = 100
SYNC_INTERVAL_DEFAULT = "1m"
RETENTION_DEFAULT = "1y"
COST_CONTROL_ENABLED_DEFAULT = True  # "the cost control dashboard is enabled by default"
# The platform's "initial cost defaults" (its docs, "Cost Control Dashboard"); no currency is
# documented, so none is filled in.
PRICE_DEFAULTS: dict[str, tuple[float, str]] = {
    "average_cpu_price_per_node": (31, "Monthly"),
    "average_ram_price_per_node": (31, "Monthly"),
    "control_plane_price_per_cluster": (900, "Yearly"),
}
INT32_MAX = 2**31 - 1  # `*int32` fields of the Go types
NavBarPosition = Literal["TopStart", "TopEnd", "BottomStart", "BottomEnd"]
NAV_BAR_POSITION_DEFAULT: NavBarPosition = "BottomEnd"


class AppRepository(Model):
    """An extra chart repository."""

    name: str | None = None
    url: str | None = None
    username: str | None = None
    password: str | None = None
    insecure: bool | None = field(None, "Retrieve charts without TLS verification.")


class PredefinedApp(Model):
    """An app offered in the UI."""

    chart: str | None = field(None, "Required. repo/chart name.")
    initial_version: str | None = field("initialVersion", "Preselected version.")
    initial_values: str | None = field("initialValues", "Prefilled values; placeholders are replaced.")
    clusters: list[str] | None = field(None, "Clusters where the app is shown.")
    title: str | None = field(None, "Defaults to the chart name.")
    icon_url: str | None = field("iconUrl", "Defaults to the chart's icon.")
    readme_url: str | None = field("readmeUrl", "Defaults to the public chart index address.")

    def violations(self) -> list[Rule]:
        return required(self, "chart")  # `json:"chart"` has no omitempty: always present


class Apps(Model):
    """App repositories and predefined apps."""

    no_default: bool | None = field("noDefault", "When true the default apps are not parsed.")
    repositories: list[AppRepository] | None = None
    predefined_apps: list[PredefinedApp] | None = field("predefinedApps")


class GroupResources(Model):
    """Resources an audit rule matches within one API group."""

    group: str | None = field(None, "API group; empty is the core group.")
    resources: list[str] | None = None
    resource_names: list[str] | None = field("resourceNames", "Requires resources.")

    def violations(self) -> list[Rule]:
        if self.resource_names and not self.resources:
            return [(("resourceNames",), "requires resources to be set")]
        return []


class AuditRule(Model):
    """One audit policy rule; the first matching rule decides the level."""

    level: str | None = field(None, "Required. Level at which matching requests are recorded.")
    users: list[str] | None = None
    user_groups: list[str] | None = field("userGroups")
    verbs: list[str] | None = None
    resources: list[GroupResources] | None = None
    namespaces: list[str] | None = None
    non_resource_urls: list[str] | None = field(
        "nonResourceURLs", "URL paths; a trailing * matches any path with that prefix.")
    omit_stages: list[str] | None = field("omitStages")
    request_targets: list[str] | None = field("requestTargets")
    clusters: list[str] | None = None

    def violations(self) -> list[Rule]:
        found = required(self, "level")
        for index, url in enumerate(self.non_resource_urls or []):
            problem = _check_non_resource_url(url)
            if problem:
                found.append((("nonResourceURLs", index), problem))
        if self.non_resource_urls and self.resources:
            found.append((("nonResourceURLs",),
                          "a rule applies to resources or to non-resource URLs, not both"))
        return found


def _check_non_resource_url(url: str) -> str | None:
    """`*` alone, or a path starting with `/`, with at most one `*`, at its very end: as in
    Kubernetes audit policies, `/healthz*` matches every path with that prefix."""
    if url == "*":
        return None
    if not url.startswith("/"):
        return f"invalid non-resource URL {url!r}: must begin with '/'"
    if "*" in url[:-1]:
        return (f"invalid non-resource URL {url!r}: a wildcard is allowed only at the end, "
                "such as /healthz* or /apis/*")
    return None


class AuditPolicy(Model):
    """Ordered audit rules; by default nothing is logged."""

    rules: list[AuditRule] | None = field(None, "Strictly ordered; the first match wins.")
    omit_stages: list[str] | None = field("omitStages", "Stages for which no events are created.")


class Audit(Model):
    """Audit logging of incoming API requests."""

    enabled: bool | None = field(None, "Log incoming API requests per the policy.")
    disable_agent_sync_back: bool | None = field("disableAgentSyncBack")
    level: int | None = field(None, "Log level; cannot be used together with policy.", ge=0)
    policy: AuditPolicy | None = None
    data_store_endpoint: str | None = field("dataStoreEndpoint")
    data_store_ttl: int | None = field("dataStoreTTL", "Hours to retain old events.", ge=0)
    path: str | None = field(None, "Directory for audit log files; required when enabled.")
    max_age: int | None = field("maxAge", "Days to retain old log files.", ge=0)
    max_backups: int | None = field("maxBackups", "Old log files kept.", ge=0)
    max_size: int | None = field("maxSize", "Megabytes before rotation; default 100.", ge=0)
    compress: bool | None = field(None, "Gzip rotated files.")

    def violations(self) -> list[Rule]:
        found: list[Rule] = []
        if self.enabled and not self.path:
            found.append((("path",), "is required when audit is enabled"))
        if self.level is not None and self.policy is not None:
            found.append((("level",), "level and policy are mutually exclusive; set only one"))
        return found


class NavBarButton(Model):
    """A button in the navigation bar."""

    position: NavBarPosition | None = field(None, "TopStart, TopEnd, BottomStart or BottomEnd (default).")
    text: str | None = None
    link: str | None = None
    icon: str | None = field(None, "Icon URL.")


class ExternalURLs(Model):
    """Which external URLs the UI may call."""

    block: bool | None = field(None, "Block UI requests to external URLs.")
    allow: list[str] | None = field(None, "Allowed URLs or module names; effective only with block.")


class UISettings(Model):
    """User interface settings."""

    platform_version: str | None = field("platformVersion")
    logo_url: str | None = field("logoURL")
    favicon_url: str | None = field("faviconURL")
    small_logo_url: str | None = field("smallLogoURL")
    logo_background_color: str | None = field("logoBackgroundColor")
    primary_color: str | None = field("primaryColor")
    sidebar_color: str | None = field("sidebarColor")
    accent_color: str | None = field("accentColor")
    legal_template: str | None = field("legalTemplate", "HTML shown to users on authentication.")
    custom_css: list[str] | None = field("customCss", "URLs of CSS files loaded by the UI.")
    custom_java_script: list[str] | None = field("customJavaScript", "URLs of scripts loaded by the UI.")
    nav_bar_buttons: list[NavBarButton] | None = field("navBarButtons")
    external_urls: ExternalURLs | None = field("externalURLs")


class SecretRef(Model):
    """A key in a Kubernetes Secret."""

    name: str | None = None
    key: str | None = field(None, "Required.")
    optional: bool | None = None

    def violations(self) -> list[Rule]:
        return required(self, "key")


class SecretStoreAuth(Model):
    """Token for the secret store, inline or from a Secret (used when token is absent)."""

    token: str | None = None
    token_secret_ref: SecretRef | None = field("tokenSecretRef")


class SecretStore(Model):
    """Secret store integration."""

    enabled: bool | None = None
    address: str | None = None
    skip_tls_verify: bool | None = field("skipTLSVerify")
    namespace: str | None = None
    auth: SecretStoreAuth | None = None
    sync_interval: Interval | None = field("syncInterval", "Go duration; default 1m.")


class MaintenanceWindow(Model):
    """When the hosted platform may apply updates."""

    day_of_week: DayOfWeek | None = field("dayOfWeek", "Day name, such as Sunday.")
    time_window: TimeWindow | None = field("timeWindow", "HH:MM-HH:MM, 24-hour clock, UTC.")


class Cloud(Model):
    """Settings used only in hosted cloud deployments."""

    release_channel: str | None = field("releaseChannel")
    maintenance_window: MaintenanceWindow | None = field("maintenanceWindow")


class ResourceClaim(Model):
    """A named entry of the pod's resource claims."""

    name: str | None = field(None, "Required.")
    request: str | None = field(None, "Empty means everything from the claim.")

    def violations(self) -> list[Rule]:
        return required(self, "name")


class Resources(Model):
    """Compute resources: requests may not exceed limits."""

    limits: dict[str, Quantity] | None = None
    requests: dict[str, Quantity] | None = None
    claims: list[ResourceClaim] | None = None

    def violations(self) -> list[Rule]:
        found: list[Rule] = []
        limits = self.limits or {}
        for name, request in (self.requests or {}).items():
            limit = limits.get(name)
            if limit is not None and _exceeds(request, limit):
                found.append((("requests", name), f"request {request} exceeds the limit {limit}"))
        seen: set[str] = set()
        for index, claim in enumerate(self.claims or []):
            if claim.name and claim.name in seen:
                found.append((("claims", index, "name"), f"duplicate claim name {claim.name!r}"))
            seen.add(claim.name or "")
        return found


def _exceeds(request: str, limit: str) -> bool:
    low, high = parse_quantity(request), parse_quantity(limit)
    return low is not None and high is not None and low > high


class MetricsStorage(Model):
    """Volume of the metrics store."""

    storage_class: StorageClass | None = field(
        "storageClass", "`-` or empty disables provisioning; unset uses the default class.")
    size: Quantity | None = None


class Metrics(Model):
    """Metrics aggregation."""

    replicas: int | None = field(None, ge=0, le=INT32_MAX)
    resources: Resources | None = None
    retention: Retention | None = field(None, "Default 1y.")
    storage: MetricsStorage | None = None


class CostExporter(Model):
    """Per-cluster cost exporter."""

    replicas: int | None = field(None, ge=0, le=INT32_MAX)
    resources: Resources | None = None


class CostControlGlobal(Model):
    """Aggregation across clusters."""

    metrics: Metrics | None = None


class CostControlCluster(Model):
    """Applies to every connected cluster; overridable in a cluster's spec."""

    metrics: Metrics | None = None
    cost_exporter: CostExporter | None = field("costExporter")


class Price(Model):
    """A price over a time period."""

    price: Number | None = field(None, "Price.", ge=0)
    time_period: str | None = field("timePeriod")


class GPUSettings(Model):
    """GPU pricing."""

    enabled: bool | None = None
    average_gpu_price: Price | None = field("averageGPUPrice")


class CostSettings(Model):
    """Prices used by the cost dashboard."""

    price_currency: str | None = field("priceCurrency")
    average_cpu_price_per_node: Price | None = field("averageCPUPricePerNode")
    average_ram_price_per_node: Price | None = field("averageRAMPricePerNode")
    control_plane_price_per_cluster: Price | None = field("controlPlanePricePerCluster")
    gpu_settings: GPUSettings | None = field("gpuSettings")


class CostControl(Model):
    """Cost dashboard."""

    enabled: bool | None = None
    global_: CostControlGlobal | None = field("global")
    cluster: CostControlCluster | None = None
    settings: CostSettings | None = None


class PlatformDB(Model):
    """The platform database's volume."""

    storage_class: StorageClass | None = field(
        "storageClass", "`-` or empty disables provisioning; unset uses the default class.")


class ImageBuilder(Model):
    """Remote image builder for devcontainer images."""

    enabled: bool | None = None
    replicas: int | None = field(None, ge=0, le=INT32_MAX)
    resources: Resources | None = None


class Database(Model):
    """Embedded-datastore database connection."""

    enabled: bool | None = None
    data_source: str | None = field("dataSource", "<scheme>://<user>:<password>@<host>:<port>/<db>")
    identity_provider: str | None = field("identityProvider", "Provider of temporary auth tokens.")
    key_file: str | None = field("keyFile")
    cert_file: str | None = field("certFile")
    ca_file: str | None = field("caFile")
    extra_args: list[str] | None = field("extraArgs")

    def violations(self) -> list[Rule]:
        if not self.data_source:
            return []
        problem = check_data_source(self.data_source, password_optional=bool(self.identity_provider))
        return [(("dataSource",), problem)] if problem else []


