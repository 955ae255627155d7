"""Discovery documents: /version, /api, /apis (legacy and aggregated) and group docs.

kubectl 1.32 asks for aggregated discovery (apidiscovery.k8s.io/v2) first and falls back to
the legacy per-group documents; the response content type must say which one it got.
"""

from __future__ import annotations

import re
from typing import Any

GROUP = "management.platform.sh"
VERSION = "v1"
GROUP_VERSION = f"{GROUP}/{VERSION}"
VERBS = ["create", "delete", "get", "list", "patch", "update", "watch"]
AGG_TYPES = {
    "v2": "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
    "v2beta1": "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList",
}


def version_info() -> dict[str, str]:
    return {
        "major": "1", "minor": "32", "gitVersion": "v1.32.0+syncpatch",
        "gitCommit": "", "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "go1.23.0", "compiler": "gc", "platform": "linux/amd64",
    }


def wants_aggregated(accept: str) -> str | None:
    """The aggregated-discovery version the client accepts first, if any."""
    for part in accept.split(","):
        params = dict(p.strip().split("=", 1) for p in part.split(";")[1:] if "=" in p)
        if params.get("g") == "apidiscovery.k8s.io" and params.get("as") == "APIGroupDiscoveryList":
            if params.get("v") in AGG_TYPES:
                return params["v"]
    return None


def _agg_resource() -> dict[str, Any]:
    return {
        "resource": "configs",
        "responseKind": {"group": GROUP, "version": VERSION, "kind": "Config"},
        "scope": "Cluster",
        "singularResource": "config",
        "verbs": VERBS,
    }


def aggregated(legacy_core: bool, version: str) -> dict[str, Any]:
    """APIGroupDiscoveryList for /api (core, empty) or /apis (our group)."""
    if legacy_core:
        items = [{"metadata": {"creationTimestamp": None},
                  "versions": [{"version": "v1", "resources": [], "freshness": "Current"}]}]
    else:
        items = [{"metadata": {"name": GROUP, "creationTimestamp": None},
                  "versions": [{"version": VERSION, "resources": [_agg_resource()],
                                "freshness": "Current"}]}]
    return {"kind": "APIGroupDiscoveryList", "apiVersion": f"apidiscovery.k8s.io/{version}",
            "metadata": {}, "items": items}


def api_versions(server_address: str) -> dict[str, Any]:
    return {"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0",
                                            "serverAddress": server_address}]}


def core_resources() -> dict[str, Any]:
    return {"kind": "APIResourceList", "groupVersion": "v1", "resources": []}


def api_group() -> dict[str, Any]:
    gv = {"groupVersion": GROUP_VERSION, "version": VERSION}
    return {"kind": "APIGroup", "apiVersion": "v1", "name": GROUP, "versions": [gv],
            "preferredVersion": gv}


def api_group_list() -> dict[str, Any]:
    group = api_group()
    del group["kind"], group["apiVersion"]
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": [group]}


def resource_list() -> dict[str, Any]:
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": GROUP_VERSION,
            "resources": [{"name": "configs", "singularName": "config", "namespaced": False,
                           "kind": "Config", "verbs": VERBS,
                           "storageVersionHash": "c3luY3BhdGNo"}]}


def accepts_table(accept: str) -> bool:
    return bool(re.search(r"as=Table", accept)) and "meta.k8s.io" in accept
