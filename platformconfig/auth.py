"""`status.auth` and the deprecated `status.oidc`: the six connector shapes and login settings.

Required fields are modelled as optional and checked by rules, so that a connector missing
its secret *and* its redirect address reports both at once.
"""

from __future__ import annotations

import re

from .base import Model, Rule, field, required
from .formats import check_base64

DEFAULT_SCOPES = ("email", "profile")
LOGIN_ACCESS_KEY_TTL_DEFAULT = 20 * 24 * 60 * 60
SHAPES = ("oidc", "gitHostA", "gitHostB", "idpA", "idpB", "saml")
_CONNECTOR_ID = re.compile(r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?\Z")


class OIDCProvider(Model):
    """An OpenID Connect identity provider."""

    issuer_url: str | None = field("issuerUrl", "URL the provider signs ID tokens as (the iss claim).")
    client_id: str | None = field("clientId", "Client the token must be issued for.")
    client_secret: str | None = field("clientSecret", "Secret to obtain tokens.")
    redirect_uri: str | None = field("redirectURI", "Platform callback address.")
    post_logout_redirect_uri: str | None = field(
        "postLogoutRedirectURI", "Platform address to redirect to after logout at the provider.")
    ca_file: str | None = field("caFile", "Path to a PEM root certificate of the provider.")
    insecure_ca: bool | None = field("insecureCa", "Communicate without validating certificates.")
    preferred_username: str | None = field("preferredUsername", "Key of the preferred username claim.")
    platform_username_claim: str | None = field(
        "platformUsernameClaim", "Token field used as the user's username.")
    username_claim: str | None = field("usernameClaim", "Token field used as the user's id.")
    email_claim: str | None = field("emailClaim", "Token field used as the user's email.")
    allowed_extra_claims: list[str] | None = field("allowedExtraClaims", "Extra claims the provider may supply.")
    username_prefix: str | None = field("usernamePrefix", "Prefix prepended to usernames.")
    groups_claim: str | None = field("groupsClaim", "Token field that fills the user's groups.")
    groups: list[str] | None = field(None, "If non-empty, only members of a listed group get access.")
    scopes: list[str] | None = field(None, "Scopes sent to the provider; default email and profile.")
    get_user_info: bool | None = field("getUserInfo", "Populate user information from the UserInfo endpoint.")
    groups_prefix: str | None = field("groupsPrefix", "Prefix prepended to group names.")
    type: str | None = field(None, "Type shown in the UI; display only.")
    resource: str | None = field(None, "`resource` URL parameter on token endpoint requests.")


class GitHostOrg(Model):
    """An organization queried for groups (`<org>:<team>` claims)."""

    name: str | None = field(None, "Full organization name.")
    teams: list[str] | None = field(None, "The user must be in at least one; omitted means any member.")

    def violations(self) -> list[Rule]:
        return required(self, "name")


class GitHostA(Model):
    """Git-forge identity provider shape A; `hostName` selects the enterprise variant."""

    client_id: str | None = field("clientId", "Client id.")
    client_secret: str | None = field("clientSecret", "Client secret (required).")
    redirect_uri: str | None = field("redirectURI", "Callback address (required).")
    orgs: list[GitHostOrg] | None = field(None, "Organizations queried for groups.")
    host_name: str | None = field("hostName", "Host name of the enterprise instance.")
    root_ca: str | None = field("rootCA", "Enterprise only: root certificate for an untrusted CA.")

    def violations(self) -> list[Rule]:
        found = required(self, "client_secret", "redirect_uri")
        if self.root_ca and not self.host_name:
            found.append((("hostName",), "is required when rootCA is set (rootCA applies to the "
                                          "enterprise variant only)"))
        return found


class GitHostB(Model):
    """Git-forge identity provider shape B."""

    client_id: str | None = field("clientId", "Client id (required).")
    client_secret: str | None = field("clientSecret", "Client secret (required).")
    redirect_uri: str | None = field("redirectURI", "Redirect address (required).")
    base_url: str | None = field("baseURL", "Base address; default is the public hosted instance.")
    groups: list[str] | None = field(None, "Whitelist conveyed through the groups scope.")

    def violations(self) -> list[Rule]:
        return required(self, "client_id", "client_secret", "redirect_uri")


class IdpA(Model):
    """Public identity provider shape."""

    client_id: str | None = field("clientId", "Client id (required).")
    client_secret: str | None = field("clientSecret", "Client secret (required).")
    redirect_uri: str | None = field("redirectURI", "Platform callback address (required).")
    scopes: list[str] | None = field(None, "Default email and profile.")
    hosted_domains: list[str] | None = field("hostedDomains", "Only users of a listed domain may log in.")
    groups: list[str] | None = field(None, "Only users of a listed group may log in.")
    service_account_file_path: str | None = field(
        "serviceAccountFilePath", "Service account JSON used to check groups.")
    admin_email: str | None = field(
        "adminEmail", "Super user impersonated when listing groups; required with serviceAccountFilePath.")

    def violations(self) -> list[Rule]:
        found = required(self, "client_id", "client_secret", "redirect_uri")
        if self.service_account_file_path and not self.admin_email:
            found.append((("adminEmail",), "is required when serviceAccountFilePath is set"))
        return found


class IdpB(Model):
    """Enterprise directory identity provider shape."""

    client_id: str | None = field("clientId", "Client id (required).")
    client_secret: str | None = field("clientSecret", "Client secret (required).")
    redirect_uri: str | None = field("redirectURI", "Platform callback address (required).")
    tenant: str | None = field(
        None, "common (default), consumers, organizations, or a tenant id or name.")
    groups: list[str] | None = field(None, "A user must be a member of a listed group.")
    only_security_groups: bool | None = field("onlySecurityGroups", "List security groups only.")
    use_groups_as_whitelist: bool | None = field(
        "useGroupsAsWhitelist", "Group claims include only the configured groups.")

    def violations(self) -> list[Rule]:
        return required(self, "client_id", "client_secret", "redirect_uri")


class SAML(Model):
    """SAML 2.0 identity provider shape."""

    redirect_uri: str | None = field("redirectURI", "Must equal the assertion's Destination.")
    sso_url: str | None = field("ssoURL", "SSO URL used for the POST value.")
    ca_data: str | None = field("caData", "Base64 CA certificate that validates the response signature.")
    ca: str | None = field(None, "CA used to validate the response signature.")
    insecure_skip_signature_validation: bool | None = field(
        "insecureSkipSignatureValidation", "Ignore the CA certificate.")
    username_attr: str | None = field("usernameAttr", "Assertion attribute mapped to username.")
    email_attr: str | None = field("emailAttr", "Assertion attribute mapped to email.")
    groups_attr: str | None = field("groupsAttr", "Assertion attribute mapped to groups.")
    entity_issuer: str | None = field("entityIssuer", "Issuer sent in the authentication request.")
    sso_issuer: str | None = field("ssoIssuer", "Issuer expected in the response.")
    groups_delim: str | None = field("groupsDelim", "Delimiter splitting a single groups string.")
    allowed_groups: list[str] | None = field("allowedGroups", "Groups that filter access.")
    filter_groups: bool | None = field("filterGroups", "With allowedGroups, forward only those.")
    name_id_policy_format: str | None = field("nameIDPolicyFormat", "Requested NameID format.")

    def violations(self) -> list[Rule]:
        if self.ca_data and (problem := check_base64(self.ca_data)):
            return [(("caData",), problem)]
        if self.ca_data or self.ca or self.insecure_skip_signature_validation:
            return []
        return [(("caData",), "one of caData, ca or insecureSkipSignatureValidation must be set")]


class PasswordAuth(Model):
    """Login by password."""

    disabled: bool | None = field(None, "When true, login by password is disabled.")


class Connector(Model):
    """An additional connector: an id, a display name and exactly one provider shape."""

    id: str | None = field(None, "Connector id, shown in the URL.")
    display_name: str | None = field("displayName", "Name shown in the UI.")
    oidc: OIDCProvider | None = None
    git_host_a: GitHostA | None = field("gitHostA")
    git_host_b: GitHostB | None = field("gitHostB")
    idp_a: IdpA | None = field("idpA")
    idp_b: IdpB | None = field("idpB")
    saml: SAML | None = None

    def shapes(self) -> list[str]:
        """Wire names of the provider shapes this connector sets."""
        names = ("oidc", "git_host_a", "git_host_b", "idp_a", "idp_b", "saml")
        return [SHAPES[i] for i, name in enumerate(names) if getattr(self, name) is not None]

    def violations(self) -> list[Rule]:
        found = required(self, "id")
        if self.id and not _CONNECTOR_ID.match(self.id):
            found.append((("id",), f"invalid connector id {self.id!r}: letters, digits, '-', '_' "
                                   "and '.', starting and ending with a letter or digit"))
        shapes = self.shapes()
        if len(shapes) != 1:
            given = ", ".join(shapes) if shapes else "none"
            found.append(((), f"exactly one of {', '.join(SHAPES)} must be set (found: {given})"))
        return found


class Auth(Model):
    """Authentication: built-in connectors, extra connectors, access-key lifetimes."""

    oidc: OIDCProvider | None = None
    git_host_a: GitHostA | None = field("gitHostA")
    git_host_b: GitHostB | None = field("gitHostB")
    idp_a: IdpA | None = field("idpA")
    idp_b: IdpB | None = field("idpB")
    saml: SAML | None = None
    password: PasswordAuth | None = None
    connectors: list[Connector] | None = None
    disable_team_creation: bool | None = field(
        "disableTeamCreation", "When true, no teams are created for new groups at SSO login.")
    disable_user_creation: bool | None = field(
        "disableUserCreation", "When true, SSO connectors do not create users on first sign-in.")
    access_key_max_ttl_seconds: int | None = field(
        "accessKeyMaxTTLSeconds", "Maximum access key lifetime; 0 or unset disables the maximum.", ge=0)
    login_access_key_ttl_seconds: int | None = field(
        "loginAccessKeyTTLSeconds", "Lifetime of login access keys; default 20 days, 0 disables.", ge=0)
    custom_http_headers: dict[str, str] | None = field(
        "customHttpHeaders", "Extra headers set on the authentication endpoints.")
    groups_filters: list[str] | None = field(
        "groupsFilters", "Regular expressions; only matching SSO groups are saved.")

    def violations(self) -> list[Rule]:
        found: list[Rule] = []
        seen: dict[str, int] = {}
        for index, connector in enumerate(self.connectors or []):
            if connector.id and connector.id in seen:
                found.append((("connectors", index, "id"),
                              f"duplicate connector id {connector.id!r} (also connectors[{seen[connector.id]}])"))
            seen.setdefault(connector.id or "", index)
        for index, pattern in enumerate(self.groups_filters or []):
            try:
                re.compile(pattern)
            except re.error as exc:
                found.append((("groupsFilters", index), f"invalid regular expression: {exc}"))
        return found


class OIDCClient(Model):
    """A client of the platform's own (deprecated) OIDC provider."""

    name: str | None = field(None, "Client name.")
    client_id: str | None = field("clientId", "Client id.")
    client_secret: str | None = field("clientSecret", "Client secret.")
    redirect_uris: list[str] | None = field("redirectURIs", "Allowed redirect URIs (required).")

    def violations(self) -> list[Rule]:
        return required(self, "redirect_uris")


class OIDCServer(Model):
    """Deprecated: the platform acting as an OIDC provider."""

    enabled: bool | None = field(None, "The platform acts as an OIDC server.")
    wildcard_redirect: bool | None = field("wildcardRedirect", "Allow `*` in client redirect URIs.")
    clients: list[OIDCClient] | None = field(None, "OIDC clients.")
