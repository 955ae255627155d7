"""Name translation between a tenant (virtual) cluster and its host, as vCluster does it.

These functions must produce byte-identical names to vCluster's syncer, because a reference
patch rewrites a field to point at an object the syncer created (or will create) on the host.
The algorithms, all over UTF-8 bytes of the joined name:

* ``safe_concat_name(*parts)``: join with ``-``; when longer than 63 bytes keep the first 52,
  add ``-`` and the first 10 hex digits of sha256(full name); then replace ``.-`` with ``-``.
* single-namespace, namespaced object: ``safe_concat_name(name, "x", namespace, "x", vcluster)``;
  the short form is ``"v"`` + the first 13 base36 digits of sha256(``name-x-namespace-x-vcluster``).
* single-namespace, cluster-scoped object:
  ``safe_concat_name("vcluster", name, "x", host_namespace, "x", vcluster)``.
* multi-namespace: names are kept; the host namespace is
  ``vcluster-<8 hex of sha256(namespace)>-<8 hex of sha256(host_namespace + "x" + vcluster)>``.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal, Mapping, Sequence

import attrs

__all__ = [
    "safe_concat_name",
    "base36_encode",
    "single_namespace_host_name",
    "single_namespace_short_name",
    "cluster_scoped_host_name",
    "multi_namespace_host_namespace",
    "virtual_to_host_dns",
    "NameTranslator",
    "Mode",
    "translator_from_context",
]

Mode = Literal["single-namespace", "multi-namespace"]

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _sha256(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def safe_concat_name(*parts: str) -> str:
    """Join ``parts`` with ``-`` into a name of at most 63 bytes (a DNS label's limit).

    The cut is made on bytes, as Go slices strings; should the cut split a multi-byte
    character (never the case for valid Kubernetes names), the partial character is dropped
    rather than producing invalid UTF-8.
    """
    full = "-".join(parts)
    raw = full.encode("utf-8")
    if len(raw) <= 63:
        return full
    head = raw[:52].decode("utf-8", errors="ignore")
    return (head + "-" + hashlib.sha256(raw).hexdigest()[:10]).replace(".-", "-")


def base36_encode(data: bytes) -> str:
    """Big-endian base36 of ``data``, one leading ``0`` per leading zero byte (vCluster's
    ``base36.EncodeBytes``)."""
    number = int.from_bytes(data, "big")
    digits: list[str] = []
    while number > 0:
        number, rem = divmod(number, 36)
        digits.append(_BASE36[rem])
    for byte in data:
        if byte != 0:
            break
        digits.append("0")
    return "".join(reversed(digits))


def single_namespace_host_name(name: str, namespace: str, vcluster_name: str) -> str:
    """The long single-namespace host name: ``name-x-namespace-x-vcluster`` (safe-concatenated)."""
    if not name:
        return ""
    return safe_concat_name(name, "x", namespace, "x", vcluster_name)


def single_namespace_short_name(name: str, namespace: str, vcluster_name: str) -> str:
    """The short single-namespace host name: ``v`` + 13 base36 digits of the sha256.

    The leading ``v`` makes it a valid name for kinds (Services) that must start with a letter.
    """
    if not name:
        return ""
    digest = _sha256("-".join((name, "x", namespace, "x", vcluster_name)))
    return "v" + base36_encode(digest)[:13]


def cluster_scoped_host_name(name: str, host_namespace: str, vcluster_name: str) -> str:
    """Host name of a cluster-scoped object synced from a tenant."""
    if not name:
        return ""
    return safe_concat_name("vcluster", name, "x", host_namespace, "x", vcluster_name)


def multi_namespace_host_namespace(namespace: str, host_namespace: str, vcluster_name: str) -> str:
    """The host namespace that holds a tenant namespace's objects in multi-namespace mode."""
    if not namespace:
        return ""
    ns_hash = hashlib.sha256(namespace.encode("utf-8")).hexdigest()[:8]
    suffix = hashlib.sha256((host_namespace + "x" + vcluster_name).encode("utf-8")).hexdigest()[:8]
    return f"vcluster-{ns_hash}-{suffix}"


_DNS_FORM = '"<name>.<namespace>.svc[.<cluster-domain>]", e.g. "my-svc.default.svc.cluster.local"'


def virtual_to_host_dns(dns_name: str, *, vcluster_name: str, vcluster_namespace: str) -> str:
    """Translate a tenant Service DNS name to the FQDN of its synced host Service.

    ``<name>.<namespace>.svc[.<domain>]`` becomes ``<host name>.<vcluster namespace>.svc[.<domain>]``,
    where the host name is the single-namespace ``safe_concat_name`` form, the name under which
    vCluster's service syncer creates the host Service. A trailing dot is kept.
    Any other shape raises ``ValueError`` whose message shows the expected form (the compiler
    turns it into a JS ``TypeError``).
    """
    if not isinstance(dns_name, str):
        raise ValueError(f"virtualToHostDNS expects a string of the form {_DNS_FORM}")
    plain = type(dns_name) is str and type(vcluster_name) is str and type(vcluster_namespace) is str
    key = (dns_name, vcluster_name, vcluster_namespace)
    if plain:  # (no subclass's own hashing or equality runs)
        known = _HOST_DNS.get(key)
        if known is not None:
            return known
    translated = _translate_dns(dns_name, vcluster_name, vcluster_namespace)
    if plain and len(_HOST_DNS) < _HOST_DNS_LIMIT and len(dns_name) + len(vcluster_name) + len(vcluster_namespace) <= 512:
        _HOST_DNS[key] = translated
    return translated


#: (name, vCluster name, vCluster namespace) -> host FQDN, for names met before (a sha256
#: and some splitting each time otherwise: syncers translate the same few names over and
#: over); bounded, short names only
_HOST_DNS: dict[tuple[str, str, str], str] = {}
_HOST_DNS_LIMIT = 4096


def _translate_dns(dns_name: str, vcluster_name: str, vcluster_namespace: str) -> str:
    text, trailing = (dns_name[:-1], ".") if dns_name.endswith(".") else (dns_name, "")
    labels = text.split(".")
    if len(labels) < 3 or labels[2] != "svc" or any(not label for label in labels):
        raise ValueError(f"virtualToHostDNS expects {_DNS_FORM}; got {dns_name!r}")
    host = single_namespace_host_name(labels[0], labels[1], vcluster_name)
    rest = ".".join(labels[3:])
    suffix = f".{rest}" if rest else ""
    return f"{host}.{vcluster_namespace}.svc{suffix}{trailing}"


NAME_PLACEHOLDER = "${name}"


def mapped_host_namespace(namespace: str, mappings: Sequence[tuple[str, str]], vcluster_name: str) -> str | None:
    """The host namespace ``sync.toHost.namespaces.mappings.byName`` gives a tenant namespace.

    ``${name}`` stands for the vCluster's name. An exact entry wins over a ``prefix-*`` pattern,
    as in vCluster; among patterns the longest prefix wins (vCluster takes whichever its map
    yields first, so we make the choice deterministic). None when nothing maps the namespace.
    """
    patterns = []
    for tenant, host in mappings:
        tenant, host = tenant.replace(NAME_PLACEHOLDER, vcluster_name), host.replace(NAME_PLACEHOLDER, vcluster_name)
        if "*" not in tenant and "*" not in host:
            if tenant == namespace:
                return host
        elif tenant.endswith("*") and host.endswith("*"):
            patterns.append((tenant[:-1], host[:-1]))
    for prefix, host_prefix in sorted(patterns, key=lambda p: -len(p[0])):
        if namespace.startswith(prefix):
            return host_prefix + namespace[len(prefix):]
    return None


@attrs.frozen
class NameTranslator:
    """Translates tenant object names and namespaces to host ones for one vCluster.

    ``concat_kinds`` lists kinds (``"Secret"`` or ``"group/Kind"``) whose host objects are named
    with the long ``safe_concat_name`` form; every other kind gets the short ``v…`` form
    (the single-namespace default for every kind; docs/patches.md says why).
    """

    vcluster_name: str
    host_namespace: str
    mode: Mode = "single-namespace"
    concat_kinds: frozenset[str] = frozenset()
    namespace_mappings: tuple[tuple[str, str], ...] = ()

    def _mapped(self, namespace: str) -> str | None:
        if self.mode != "multi-namespace" or not namespace:
            return None
        if not self.namespace_mappings:  # namespace sync without mappings: the hashed form
            return multi_namespace_host_namespace(namespace, self.host_namespace, self.vcluster_name)
        return mapped_host_namespace(namespace, self.namespace_mappings, self.vcluster_name)

    def host_namespace_for(self, namespace: str) -> str:
        """Host namespace of a tenant namespace (``""`` stays ``""`` for cluster scope); an
        unmapped namespace falls back to the vCluster's own host namespace."""
        if not namespace:
            return ""
        mapped = self._mapped(namespace)
        return mapped if mapped is not None else self.host_namespace

    def host_name(self, name: str, namespace: str, kind: str = "") -> str:
        """Host name of a tenant object; cluster-scoped when ``namespace`` is empty. Objects of
        a mapped namespace keep their name; the rest are renamed as in single-namespace mode."""
        if self._mapped(namespace) is not None:
            return name
        if not namespace:
            return cluster_scoped_host_name(name, self.host_namespace, self.vcluster_name)
        if kind in self.concat_kinds:
            return single_namespace_host_name(name, namespace, self.vcluster_name)
        return single_namespace_short_name(name, namespace, self.vcluster_name)


def _config_flag(config: Any, *keys: str) -> bool:
    node = config
    for key in keys:
        if not isinstance(node, Mapping):
            return False
        node = node.get(key)
    return node is True


def translator_from_context(
    context: Mapping[str, Any], concat_kinds: frozenset[str] = frozenset()
) -> NameTranslator:
    """Derive a translator from ``context.vcluster``: name, host namespace and the mode.

    Namespace sync is on when the tenant config enables ``sync.toHost.namespaces`` (vCluster
    0.33 removed ``experimental.multiNamespaceMode``); its ``mappings.byName`` say where each
    tenant namespace goes on the host.
    """
    vcluster = context.get("vcluster") or {}
    config = vcluster.get("config") or {}
    multi = _config_flag(config, "sync", "toHost", "namespaces", "enabled")
    by_name: Any = config
    for key in ("sync", "toHost", "namespaces", "mappings", "byName"):
        by_name = by_name.get(key) if isinstance(by_name, Mapping) else None
    mappings = tuple((str(k), str(v)) for k, v in by_name.items()) if isinstance(by_name, Mapping) else ()
    return NameTranslator(
        vcluster_name=str(vcluster.get("name") or ""),
        host_namespace=str(vcluster.get("namespace") or ""),
        mode="multi-namespace" if multi else "single-namespace",
        concat_kinds=concat_kinds,
        namespace_mappings=mappings,
    )
