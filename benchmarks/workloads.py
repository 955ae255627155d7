"""Objects and patch sets for the plan benchmarks, each with a hand-written equivalent."""

from __future__ import annotations

from typing import Any

CONTEXT: dict[str, Any] = {
    "vcluster": {"name": "my-vcluster", "namespace": "vcluster-my-vcluster", "config": {}},
    "hostObject": None,
    "virtualObject": None,
    "path": "",
}


def endpoints(subsets: int = 100, addresses: int = 10, ports: int = 10) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Endpoints",
        "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
        "subsets": [
            {
                "addresses": [
                    {"ip": f"10.{s % 250}.{a}.1", "hostname": f"web-{s}-{a}", "nodeName": f"node-{a}"}
                    for a in range(addresses)
                ],
                "ports": [{"name": f"port-{p}", "port": 8000 + p, "protocol": "TCP"} for p in range(ports)],
            }
            for s in range(subsets)
        ],
    }


ENDPOINTS_PATCHES = [
    {"path": "subsets[*].addresses[*].hostname", "expression": '"h-" + value', "reverseExpression": "value.slice(2)"},
    {"path": "subsets[*].ports[*].name", "expression": '"p-" + value', "reverseExpression": "value.slice(2)"},
]


def endpoints_to_host_by_hand(obj: dict[str, Any], context: Any) -> dict[str, Any]:
    """What a careful engineer writes: copy only what changes."""
    return {
        **obj,
        "subsets": [
            {
                **subset,
                "addresses": [{**a, "hostname": "h-" + a["hostname"]} if "hostname" in a else a for a in subset["addresses"]],
                "ports": [{**p, "name": "p-" + p["name"]} if "name" in p else p for p in subset["ports"]],
            }
            for subset in obj["subsets"]
        ],
    }


def endpoints_from_host_by_hand(obj: dict[str, Any], context: Any) -> dict[str, Any]:
    return {
        **obj,
        "subsets": [
            {
                **subset,
                "addresses": [{**a, "hostname": a["hostname"][2:]} if "hostname" in a else a for a in subset["addresses"]],
                "ports": [{**p, "name": p["name"][2:]} if "name" in p else p for p in subset["ports"]],
            }
            for subset in obj["subsets"]
        ],
    }


def service() -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {
            "name": "web",
            "namespace": "default",
            "labels": {"app": "web", "tier": "frontend"},
            "annotations": {"example.com/owner": "team-a", "example.com/tier": "gold"},
        },
        "spec": {
            "type": "ClusterIP",
            "selector": {"app": "web"},
            "ports": [{"name": f"p{i}", "port": 80 + i, "targetPort": 8080 + i, "protocol": "TCP"} for i in range(4)],
        },
    }


SERVICE_PATCHES = [
    {"path": 'metadata.annotations["example.com/synced-by"]', "expression": '"syncpatch"'},
    {"path": "metadata.labels[*]", "expression": '"v-" + value', "reverseExpression": "value.slice(2)"},
    {"path": "spec.ports[*].name", "expression": "value.toUpperCase()", "reverseExpression": "value.toLowerCase()"},
    {"path": "spec.ports[*].port", "expression": "value + 10000", "reverseExpression": "value - 10000"},
    {"path": "spec.type", "expression": 'value === "NodePort" ? "ClusterIP" : value'},
    {"path": 'metadata.annotations["example.com/tier"]', "expression": "value.toUpperCase()", "reverseExpression": "value.toLowerCase()"},
]


def service_to_host_by_hand(obj: dict[str, Any], context: Any) -> dict[str, Any]:
    meta = obj["metadata"]
    annotations = {**meta["annotations"], "example.com/synced-by": "syncpatch"}
    if "example.com/tier" in annotations:
        annotations["example.com/tier"] = annotations["example.com/tier"].upper()
    spec = obj["spec"]
    return {
        **obj,
        "metadata": {**meta, "annotations": annotations, "labels": {k: "v-" + v for k, v in meta["labels"].items()}},
        "spec": {
            **spec,
            "type": "ClusterIP" if spec["type"] == "NodePort" else spec["type"],
            "ports": [{**p, "name": p["name"].upper(), "port": p["port"] + 10000} for p in spec["ports"]],
        },
    }


def service_from_host_by_hand(obj: dict[str, Any], context: Any) -> dict[str, Any]:
    meta = obj["metadata"]
    annotations = dict(meta["annotations"])
    if "example.com/tier" in annotations:
        annotations["example.com/tier"] = annotations["example.com/tier"].lower()
    spec = obj["spec"]
    return {
        **obj,
        "metadata": {**meta, "annotations": annotations, "labels": {k: v[2:] for k, v in meta["labels"].items()}},
        "spec": {**spec, "ports": [{**p, "name": p["name"].lower(), "port": p["port"] - 10000} for p in spec["ports"]]},
    }


def pod() -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "web-0", "namespace": "default", "labels": {"app": "web"}, "annotations": {}},
        "spec": {
            "containers": [
                {
                    "name": f"c{i}",
                    "image": f"registry.internal/team/app-{i}:1.0",
                    "env": [{"name": f"E{j}", "value": f"v{j}"} for j in range(5)],
                }
                for i in range(3)
            ],
            "serviceAccountName": "default",
        },
    }


POD_PATCHES = [
    {"path": "spec.containers[*].image", "expression": 'value.replace(/^registry\\.internal\\//, "mirror.example.com/")',
     "reverseExpression": 'value.replace(/^mirror\\.example\\.com\\//, "registry.internal/")'},
    {"path": "spec.containers[*].env[*].value", "expression": '"x-" + value', "reverseExpression": "value.slice(2)"},
    {"path": 'metadata.annotations["example.com/vcluster"]', "expression": "context.vcluster.name"},
    {"path": "metadata.labels.app", "expression": "value + '-' + context.vcluster.name",
     "reverseExpression": "value.slice(0, value.length - context.vcluster.name.length - 1)"},
    {"path": "spec.serviceAccountName", "expression": '"vc-" + value', "reverseExpression": "value.slice(3)"},
]


def pod_to_host_by_hand(obj: dict[str, Any], context: Any) -> dict[str, Any]:
    name = context["vcluster"]["name"]
    meta = obj["metadata"]
    spec = obj["spec"]
    containers = []
    for c in spec["containers"]:
        image = c["image"]
        if image.startswith("registry.internal/"):
            image = "mirror.example.com/" + image[len("registry.internal/"):]
        containers.append({**c, "image": image, "env": [{**e, "value": "x-" + e["value"]} for e in c["env"]]})
    return {
        **obj,
        "metadata": {
            **meta,
            "labels": {**meta["labels"], "app": meta["labels"]["app"] + "-" + name},
            "annotations": {**meta["annotations"], "example.com/vcluster": name},
        },
        "spec": {**spec, "containers": containers, "serviceAccountName": "vc-" + spec["serviceAccountName"]},
    }


def pod_from_host_by_hand(obj: dict[str, Any], context: Any) -> dict[str, Any]:
    name = context["vcluster"]["name"]
    meta = obj["metadata"]
    spec = obj["spec"]
    containers = []
    for c in spec["containers"]:
        image = c["image"]
        if image.startswith("mirror.example.com/"):
            image = "registry.internal/" + image[len("mirror.example.com/"):]
        containers.append({**c, "image": image, "env": [{**e, "value": e["value"][2:]} for e in c["env"]]})
    app = meta["labels"]["app"]
    return {
        **obj,
        "metadata": {**meta, "labels": {**meta["labels"], "app": app[: len(app) - len(name) - 1]}},
        "spec": {**spec, "containers": containers, "serviceAccountName": spec["serviceAccountName"][3:]},
    }
