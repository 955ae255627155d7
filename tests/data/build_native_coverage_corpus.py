"""Rebuild ``native_coverage_corpus.json``: patch expressions of the kind the realistic
benchmark holds (Kubernetes objects, vCluster patch idioms), written apart from that corpus to
measure how much of such a corpus the native tier covers. Each case's ``expected`` is node's
answer (``node`` must be on PATH): ``python tests/data/build_native_coverage_corpus.py``.

Cases from the eighth batch on also carry ``python``: the lambda ``(value, context) -> result`` a
developer would write by hand, as in the realistic corpus (evaluated with ``re``, ``json``,
``base64`` and ``math`` in scope; undefined reads as None), so the native tier's speed on them
can be set against hand-written Python. The field is optional; older cases have none.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("native_coverage_corpus.json")

CONTEXT = {
    "vcluster": {"name": "my-vcluster", "namespace": "vcluster-my-vcluster",
                 "config": {"sync": {"toHost": {"services": {"enabled": True}}}}},
    "hostObject": {"metadata": {"name": "web-x-default-x-my-vcluster", "namespace": "vcluster-my-vcluster"}},
    "virtualObject": {"metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}}},
    "path": "spec.ports",
}

POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {
        "name": "api-6c8f7d9b5-q2w4e", "namespace": "shop", "uid": "7f3e2a10-9b1c-4d2e-8f00-112233445566",
        "resourceVersion": "90211", "generation": 3, "creationTimestamp": "2026-10-02T07:41:12Z",
        "labels": {"app.kubernetes.io/name": "api", "app.kubernetes.io/part-of": "shop", "pod-template-hash": "6c8f7d9b5",
                   "vcluster.loft.sh/managed-by": "my-vcluster"},
        "annotations": {"team": "payments", "sidecar.istio.io/inject": "true", "empty": ""},
        "ownerReferences": [{"kind": "ReplicaSet", "name": "api-6c8f7d9b5", "controller": True}],
        "finalizers": ["example.com/cleanup", "kubernetes.io/pvc-protection"],
    },
    "spec": {
        "nodeName": "Worker-02",
        "hostNetwork": False,
        "containers": [
            {"name": "api", "image": "ghcr.io/acme/api:2.3.1",
             "ports": [{"name": "http", "containerPort": 8080}, {"name": "metrics", "containerPort": 9102}],
             "env": [{"name": "MODE", "value": "prod"},
                     {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "api-token", "key": "token"}}}],
             "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"cpu": "1", "memory": "1Gi"}}},
            {"name": "proxy", "image": "envoyproxy/envoy:v1.31.0",
             "ports": [{"name": "admin", "containerPort": 9901}],
             "securityContext": {"privileged": False},
             "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"memory": "128Mi"}}},
        ],
    },
    "status": {
        "phase": "Running", "podIP": "10.32.4.17",
        "containerStatuses": [{"name": "api", "ready": True, "restartCount": 2},
                              {"name": "proxy", "ready": False, "restartCount": 0}],
    },
}

SERVICE = {
    "apiVersion": "v1", "kind": "Service",
    "metadata": {"name": "checkout", "namespace": "shop", "labels": {"app": "checkout"}},
    "spec": {"type": "LoadBalancer", "selector": {"app": "checkout", "tier": "backend"},
             "externalName": "payments.billing.svc.cluster.local",
             "ports": [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"},
                       {"name": "https", "port": 443, "targetPort": "https", "protocol": "TCP"},
                       {"port": 5353, "protocol": "UDP"}]},
}

ENDPOINTS = {
    "apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "checkout", "namespace": "shop"},
    "subsets": [
        {"addresses": [{"ip": "10.32.1.4", "nodeName": "worker-1"}, {"ip": "10.32.2.9"}],
         "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}]},
        {"addresses": [{"ip": "10.32.3.3", "nodeName": "worker-3"}],
         "ports": [{"name": "grpc", "port": 9000, "protocol": "TCP"}]},
    ],
}

INGRESS = {
    "apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
    "metadata": {"name": "shop", "annotations": {"cert-manager.io/cluster-issuer": "letsencrypt"}},
    "spec": {"rules": [{"host": "shop.example.com",
                        "http": {"paths": [{"path": "/", "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}},
                       {"host": "*.shop.example.com"}, {"host": "api.example.com"}],
             "tls": [{"hosts": ["shop.example.com", "api.example.com"], "secretName": "shop-tls"}]},
}

CONFIGMAP = {
    "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "app-config", "namespace": "shop"},
    "data": {"app.properties": "# settings\nmode = prod\nthreads=4\n\nregion= eu-west-1 ",
             "LOG_LEVEL": "DEBUG", "values.yaml": "replicas: 2\n", "extra.yml": "a: 1\n", "notes.txt": "  hello  "},
}

SECRET = {
    "apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/basic-auth",
    "metadata": {"name": "db-auth", "namespace": "shop"},
    "data": {"username": "YWRtaW4=", "password": "IHMzY3IzdCA="},
}

DEPLOYMENT = {
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "checkout", "namespace": "shop", "labels": {"app": "checkout"},
                 "annotations": {"deployment.kubernetes.io/revision": "7"}},
    "spec": {
        "replicas": 3,
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
        "selector": {"matchLabels": {"app": "checkout"}},
        "template": {
            "metadata": {"labels": {"app": "checkout"},
                         "annotations": {"kubectl.kubernetes.io/restartedAt": "2026-10-30T11:02:03Z"}},
            "spec": {
                "nodeSelector": {"topology.kubernetes.io/zone": "eu-west-1b", "kubernetes.io/os": "linux",
                                 "node-pool": "Batch"},
                "containers": [
                    {"name": "app", "image": "registry.local/shop/checkout:v2.14.0",
                     "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "PORT", "value": "8080"}],
                     "ports": [{"containerPort": 8080}],
                     "resources": {"requests": {"cpu": "200m"}, "limits": {"memory": "512Mi"}}},
                    {"name": "log-shipper", "image": "fluent/fluent-bit:latest",
                     "env": [{"name": "SKIP_SYNC", "value": "1"}]},
                    {"name": "cache", "image": "redis:7.2.4", "ports": [{"containerPort": 6379}, {"containerPort": 16379}]},
                ],
            },
        },
    },
}

HOST_SERVICE = {
    "apiVersion": "v1", "kind": "Service",
    "metadata": {"name": "web-x-default-x-my-vcluster", "namespace": "vcluster-my-vcluster",
                 "labels": {"app": "web", "vcluster.loft.sh/namespace": "default",
                            "vcluster.loft.sh/managed-by": "my-vcluster", "vcluster.loft.sh/label-my-vcluster-x-1a2b": "x"}},
    "spec": {"type": "LoadBalancer", "clusterIP": "10.96.14.2",
             "ports": [{"name": "http", "port": 80, "targetPort": 8080, "nodePort": 31080, "protocol": "TCP"},
                       {"name": "https", "port": 443, "targetPort": 8443, "nodePort": 31443, "protocol": "TCP"}]},
    "status": {"loadBalancer": {"ingress": [{"ip": "203.0.113.10"}, {"hostname": "lb-1.elb.example.com"}]}},
}

HOST_NODE = {
    "apiVersion": "v1", "kind": "Node",
    "metadata": {"name": "ip-10-0-3-17.eu-west-1.compute.internal",
                 "labels": {"kubernetes.io/hostname": "ip-10-0-3-17", "kubernetes.io/os": "linux",
                            "topology.kubernetes.io/region": "eu-west-1", "topology.kubernetes.io/zone": "eu-west-1b",
                            "node.kubernetes.io/instance-type": "m6i.xlarge", "eks.amazonaws.com/nodegroup": "batch"}},
    "spec": {"taints": [{"key": "dedicated", "value": "batch", "effect": "NoSchedule"},
                        {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"}]},
    "status": {
        "capacity": {"cpu": "4", "memory": "16318412Ki", "pods": "58"},
        "conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}],
        "addresses": [{"type": "InternalIP", "address": "10.0.3.17"}, {"type": "Hostname", "address": "ip-10-0-3-17"}],
    },
}

NETWORK_POLICY = {
    "apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
    "metadata": {"name": "allow-frontend", "namespace": "shop"},
    "spec": {
        "podSelector": {"matchLabels": {"app": "checkout"}},
        "policyTypes": ["Ingress", "Egress"],
        "ingress": [
            {"from": [{"podSelector": {"matchLabels": {"app": "web"}}}, {"ipBlock": {"cidr": "10.0.0.0/16"}}],
             "ports": [{"protocol": "TCP", "port": 8080}, {"port": 9090}]},
            {"from": [{"ipBlock": {"cidr": "192.168.10.0/24", "except": ["192.168.10.7/32"]}}]},
        ],
        "egress": [],
    },
}

PVC = {
    "apiVersion": "v1", "kind": "PersistentVolumeClaim",
    "metadata": {"name": "data-db-0", "namespace": "shop"},
    "spec": {"accessModes": ["ReadWriteOnce", "ReadOnlyMany"], "storageClassName": "gp3",
             "resources": {"requests": {"storage": "20Gi"}}},
    "status": {"phase": "Bound"},
}

DOCKER_SECRET = {
    "apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/dockerconfigjson",
    "metadata": {"name": "pull-secret", "namespace": "shop"},
    "data": {".dockerconfigjson": "eyJhdXRocyI6eyJnaGNyLmlvIjp7ImF1dGgiOiJZbTkwT25Rd2EyVnUifSwicmVnaXN0cnkubG9jYWw6NTAwMCI6eyJhdXRoIjoiWVRwaSJ9fX0="},
}

TLS_SECRET = {
    "apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
    "metadata": {"name": "shop-tls", "namespace": "shop"},
    "data": {"tls.crt": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJzekNDQVZtZ0F3SUJBZ0lVCi0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0KLS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJkVENDQVJ1Z0F3SUJBZ0lVCi0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0K",
             "tls.key": "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSU8KLS0tLS1FTkQgRUMgUFJJVkFURSBLRVktLS0tLQo=",
             "ca.crt": ""},
}

BATCH_POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {
        "name": "worker-7d9f8c6b4-x2kq9", "namespace": "jobs", "creationTimestamp": None,
        "labels": {"app": "worker", "tier": "Backend", "release": "canary", "app.kubernetes.io/instance": "worker-eu"},
        "annotations": {"sidecar.istio.io/inject": "True", "vcluster.loft.sh/object-host-name": None,
                        "prometheus.io/scrape": "true"},
        "ownerReferences": None,
    },
    "spec": {
        "containers": [
            {"name": "worker", "image": "quay.io/acme/worker:1.4.2",
             "resources": {"requests": {"cpu": "1.5", "memory": "1Gi"}, "limits": {"cpu": "2.25", "memory": "1536Mi"}}},
            {"name": "sidecar", "image": "busybox", "resources": {"requests": {"cpu": "50m", "memory": "32Mi"}}},
            {"name": "metrics", "image": "registry.local:5000/obs/exporter@sha256:9f86d081884c7d65",
             "resources": {}},
        ],
        "initContainers": None,
        "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "batch", "effect": "NoSchedule"},
                        {"operator": "Exists"}],
    },
    "status": {
        "phase": "Pending", "startTime": None,
        "conditions": [{"type": "PodScheduled", "status": "True"}, {"type": "Initialized", "status": "True"},
                       {"type": "Ready", "status": "False"}],
        "containerStatuses": [{"name": "worker", "ready": False, "restartCount": 5},
                              {"name": "sidecar", "ready": True, "restartCount": 5},
                              {"name": "metrics", "ready": True, "restartCount": 1}],
    },
}

SCALED_DEPLOYMENT = {
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "ingest", "namespace": "data", "labels": {"app": "ingest", "team": "data-platform"}},
    "spec": {
        "replicas": 5,
        "selector": {"matchLabels": {"app": "ingest", "tier": "batch"},
                     "matchExpressions": [{"key": "track", "operator": "In", "values": ["stable", "canary"]},
                                          {"key": "legacy", "operator": "DoesNotExist"}]},
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": "30%"}},
        "template": {"spec": {
            "containers": [
                {"name": "ingest", "image": "ghcr.io/acme/ingest:3.0.0-rc.1",
                 "resources": {"requests": {"cpu": "750m", "memory": "768Mi"}, "limits": {"cpu": "1.5"}}},
                {"name": "agent", "image": "datadog/agent:7",
                 "resources": {"requests": {"cpu": "0.1", "memory": "256Mi"}}},
            ],
            "initContainers": [{"name": "migrate", "image": "ghcr.io/acme/ingest:3.0.0-rc.1"}],
        }},
    },
}

CLUSTERIP_SERVICE = {
    "apiVersion": "v1", "kind": "Service",
    "metadata": {"name": "redis", "namespace": "cache", "annotations": None},
    "spec": {"type": "ExternalName", "externalName": "redis.cache.svc.cluster.local",
             "ports": [{"port": 6379, "targetPort": "redis", "protocol": "TCP"},
                       {"name": "sentinel", "port": 26379, "protocol": "TCP"},
                       {"port": 6379, "protocol": "TCP", "name": "dup"}]},
}

HTTP_ROUTE = {
    "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
    "metadata": {"name": "store", "namespace": "shop", "labels": {"app": "store", "gateway": "public"}},
    "spec": {
        "parentRefs": [{"name": "public-gw", "namespace": "infra", "sectionName": "https"}, {"name": "internal-gw"}],
        "hostnames": ["store.example.com", "Store.Example.COM", "*.store.example.com"],
        "rules": [
            {"matches": [{"path": {"type": "PathPrefix", "value": "/api"}, "headers": [{"name": "x-canary", "value": "true"}]}],
             "backendRefs": [{"name": "store-v1", "port": 8080, "weight": 90}, {"name": "store-v2", "port": 8080, "weight": 10}]},
            {"matches": [{"path": {"type": "Exact", "value": "/healthz"}}],
             "backendRefs": [{"name": "health", "namespace": "ops", "port": "8081"}]},
            {"backendRefs": [{"name": "store-v1", "port": 8080}],
             "filters": [{"type": "RequestHeaderModifier",
                          "requestHeaderModifier": {"add": [{"name": "x-tenant", "value": "shop"}]}}]},
        ],
    },
}

SHARD_CONFIGMAP = {
    "apiVersion": "v1", "kind": "ConfigMap",
    "metadata": {"name": "shards", "namespace": "db", "labels": {"shard-count": "12"}},
    "data": {"10": "db-10.internal:5432", "2": "db-2.internal:5432", "primary": "db-0.internal:6432",
             "1": "db-1.internal:5432", "weight": "0.75", "max_conn": "200", "enabled": "false", "timeout": " 30s "},
}

EDGE_SERVICE = {
    "apiVersion": "v1", "kind": "Service",
    "metadata": {"name": "gateway", "namespace": "edge",
                 "labels": {"app": "gateway", "vcluster.loft.sh/managed-by": "my-vcluster"},
                 "annotations": {"service.beta.kubernetes.io/aws-load-balancer-type": "nlb",
                                 "service.beta.kubernetes.io/aws-load-balancer-internal": "true",
                                 "external-dns.alpha.kubernetes.io/hostname": "gw.example.com, gw2.example.com,",
                                 "description": "Zürich edge 🚀 gateway"}},
    "spec": {"type": "NodePort", "sessionAffinity": "ClientIP", "externalIPs": None,
             "ports": [{"name": "http", "port": 80, "targetPort": "8080", "nodePort": 30080, "protocol": "TCP"},
                       {"name": "grpc", "port": 9090, "targetPort": 9090, "appProtocol": "grpc"},
                       {"name": "admin", "port": 9901, "targetPort": "admin", "nodePort": None}]},
}

SCHEDULED_POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "etl-runner-5b7c9", "namespace": "jobs",
                 "labels": {"app": "etl", "pod-template-hash": "5b7c9", "version": "2"},
                 "finalizers": ["batch.kubernetes.io/job-tracking"]},
    "spec": {
        "imagePullSecrets": [{"name": "regcred"}, None, {"name": "mirror-cred"}],
        "containers": [
            {"name": "runner", "image": "ghcr.io/acme/etl:4.1",
             "args": ["--port=8080", "--verbose", "run", "--max-conns=200"],
             "env": [{"name": "REPLICAS", "value": "3"}, {"name": "HTTP_PROXY", "value": ""},
                     {"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
                     {"name": "RATIO", "value": "0.25"}],
             "resources": {"requests": {"cpu": "500m", "memory": "2G", "ephemeral-storage": "1Gi"},
                           "limits": {"cpu": "1.75", "memory": "3Gi"}}},
            {"name": "uploader", "image": "amazon/aws-cli", "env": None, "resources": {"requests": {"cpu": "0.2"}}},
        ],
        "tolerations": [
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            {"key": "dedicated", "operator": "Equal", "value": "etl", "effect": "NoSchedule"},
        ],
        "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["eu-west-1a", "eu-west-1c"]},
                                  {"key": "spot", "operator": "DoesNotExist"}]}]}}},
    },
    "status": {"phase": "Running", "containerStatuses": [{"name": "runner", "ready": True, "restartCount": 0}, None,
                                                         {"name": "uploader", "ready": False, "restartCount": 3}]},
}

STRING_SECRET = {
    "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
    "metadata": {"name": "app-creds", "namespace": "shop"},
    "data": {"token": "ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUp6YUc5d0luMC5zaWc=", "ca.crt": ""},
    "stringData": {"config.yaml": "url: https://api.example.com\n", "user": "shop-bot"},
}

PROBE_POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {
        "name": "payments-api-0", "namespace": "billing", "creationTimestamp": "2026-11-03T09:15:00Z",
        "labels": {"app": "payments", "track": "stable", "zone": "eu-west-1a", "statefulset.kubernetes.io/pod-name": "payments-api-0"},
        "annotations": {"prometheus.io/port": "9102", "autoscaling/min-replicas": "2", "autoscaling/max-replicas": " 8 ",
                        "kubectl.kubernetes.io/last-applied-configuration":
                            '{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"app":"payments"}},"spec":{"replicas":4}}',
                        "vcluster.loft.sh/extra": "{not json", "owner": "Åsa Öberg", "weight": "0x10"},
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "payments-api",
                             "uid": "0b4e6f0c-1d2a-4c55-9a7e-3f9d2b8c1a00", "controller": True, "blockOwnerDeletion": True},
                            {"apiVersion": "v1", "kind": "ConfigMap", "name": "payments-lock", "uid": "5e1d"}],
    },
    "spec": {
        "priorityClassName": "system-node-critical",
        "securityContext": {"runAsNonRoot": True, "fsGroup": 2000},
        "containers": [
            {"name": "api", "image": "ghcr.io/acme/payments:5.2.0",
             "args": ["--listen=:$(PORT)", "--db=$(DB_HOST):5432", "--verbose", "$(UNKNOWN)"],
             "ports": [{"name": "http", "containerPort": 8080}, {"name": "metrics", "containerPort": 9102},
                       {"name": "dns", "containerPort": 53, "protocol": "UDP"}],
             "env": [{"name": "PORT", "value": "8080"}, {"name": "DB_HOST", "value": "db.billing"},
                     {"name": "VCLUSTER_NAME", "value": "old"}],
             "envFrom": [{"configMapRef": {"name": "payments-config"}}, {"secretRef": {"name": "payments-secrets", "optional": True}},
                         {"prefix": "X_", "configMapRef": {"name": "extra"}}],
             "livenessProbe": {"httpGet": {"path": "/healthz", "port": "http"}, "periodSeconds": 10, "failureThreshold": 3},
             "readinessProbe": {"tcpSocket": {"port": 9102}, "initialDelaySeconds": 5},
             "securityContext": {"runAsUser": 1001},
             "resources": {"requests": {"cpu": "500m", "memory": "1.5Gi"}, "limits": {"cpu": "2", "memory": "3Gi"}}},
            {"name": "sidecar", "image": "envoyproxy/envoy:v1.31.0",
             "livenessProbe": {"exec": {"command": ["true"]}},
             "resources": {"requests": {"cpu": "0.25", "memory": "128974848"}, "limits": {"cpu": "1500m", "memory": "256M"}}},
        ],
        "tolerations": [
            {"key": "dedicated", "operator": "Equal", "value": "payments", "effect": "NoSchedule"},
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
        ],
        "affinity": {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64", "arm64"]}]},
                {"matchExpressions": [{"key": "node-pool", "operator": "NotIn", "values": ["spot"]},
                                      {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["eu-west-1a"]}]}]}},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname",
                                                    "labelSelector": {"matchLabels": {"app": "payments"}}}}]},
        },
    },
    "status": {
        "phase": "Running", "startTime": "2026-11-03T09:15:04Z",
        "conditions": [{"type": "Initialized", "status": "True", "lastTransitionTime": "2026-11-03T09:15:04Z"},
                       {"type": "Ready", "status": "True", "lastTransitionTime": "2026-11-03T09:16:31Z"},
                       {"type": "ContainersReady", "status": "True", "lastTransitionTime": "2026-11-03T09:16:30Z"},
                       {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2026-11-03T09:15:00Z"}],
        "containerStatuses": [{"name": "api", "ready": True, "restartCount": 0},
                              {"name": "sidecar", "ready": False, "restartCount": 4}],
    },
}

ENV_SECRET = {
    "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
    "metadata": {"name": "payments-secrets", "namespace": "billing", "labels": {"app": "payments"}},
    "data": {"app.env": "REJfVVNFUj1zaG9wCkRCX1BBU1M9czNjcj10CiMgcm90YXRlZCAyMDI2LTEwCgpSRUdJT049ZXUtd2VzdC0xCg==",
             "port": "NTQzMg==", "team": "enVyaWNoLW9wcw==", "empty": ""},
}

CLASS_INGRESS = {
    "apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
    "metadata": {"name": "payments", "namespace": "billing",
                 "annotations": {"nginx.ingress.kubernetes.io/rewrite-target": "/$2",
                                 "nginx.ingress.kubernetes.io/proxy-body-size": "8m"}},
    "spec": {"ingressClassName": "nginx",
             "rules": [{"host": "Pay.Example.com", "http": {"paths": [
                           {"path": "/api(/|$)(.*)", "pathType": "ImplementationSpecific",
                            "backend": {"service": {"name": "payments-api", "port": {"name": "http"}}}},
                           {"path": "/static", "pathType": "Prefix",
                            "backend": {"service": {"name": "payments-web", "port": {"number": 80}}}}]}},
                       {"http": {"paths": [{"path": "/", "pathType": "Prefix",
                                            "backend": {"resource": {"kind": "Bucket", "name": "assets"}}}]}}]},
}

MESH_POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {
        "name": "orders-7b9d5c-2xk4p", "namespace": "orders",
        "labels": {"app": "orders", "version": "v3", "team": " Checkout ", "env": "PROD",
                   "app.kubernetes.io/component": "api", "app.kubernetes.io/name": "Orders"},
        "annotations": {"prometheus.io/port": "9464", "prometheus.io/path": "/metrics",
                        "proxy.istio.io/config": '{"holdApplicationUntilProxyStarts":true,"concurrency":2}',
                        "deploy.example.com/replicas-hint": "007"},
    },
    "spec": {
        "serviceAccountName": "orders", "restartPolicy": "Always",
        "containers": [
            {"name": "orders", "image": "docker.io/acme/orders:1.12.3",
             "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}, {"name": "grpc", "containerPort": 9090}],
             "env": [{"name": "JAVA_OPTS", "value": "-Xmx512m -Xms256m"}, {"name": "WORKERS", "value": "08"},
                     {"name": "FEATURES", "value": "audit,,fast-path,"}],
             "resources": {"requests": {"cpu": "300m", "memory": "384Mi"}, "limits": {"cpu": "1200m", "memory": "768Mi"}},
             "volumeMounts": [{"name": "config", "mountPath": "/etc/orders", "readOnly": True}, {"name": "tmp", "mountPath": "/tmp"}]},
            {"name": "istio-proxy", "image": "docker.io/istio/proxyv2:1.22.1",
             "ports": [{"name": "http-envoy-prom", "containerPort": 15090}],
             "resources": {"requests": {"cpu": "0.1", "memory": "128Mi"}}},
            {"name": "log", "image": "busybox:1.36", "resources": None},
        ],
        "initContainers": [{"name": "istio-init", "image": "docker.io/istio/proxyv2:1.22.1"}],
        "volumes": [{"name": "config", "configMap": {"name": "orders-config"}}, {"name": "tmp", "emptyDir": {}},
                    {"name": "creds", "secret": {"secretName": "orders-db"}},
                    {"name": "data", "persistentVolumeClaim": {"claimName": "orders-data"}}],
        "dnsConfig": {"searches": ["orders.svc.cluster.local", "svc.cluster.local"], "options": [{"name": "ndots", "value": "2"}]},
    },
    "status": {
        "phase": "Running", "podIPs": [{"ip": "10.42.1.9"}, {"ip": "fd00:10:42::9"}],
        "containerStatuses": [{"name": "orders", "ready": True, "restartCount": 1},
                              {"name": "istio-proxy", "ready": True, "restartCount": 0},
                              {"name": "log", "ready": False, "restartCount": 7}],
    },
}

STATEFULSET = {
    "apiVersion": "apps/v1", "kind": "StatefulSet",
    "metadata": {"name": "kafka", "namespace": "streaming", "labels": {"app": "kafka"}},
    "spec": {
        "replicas": 3, "serviceName": "kafka-headless",
        "template": {"metadata": {"labels": {"app": "kafka"}},
                     "spec": {"containers": [{"name": "kafka", "image": "bitnami/kafka:3.7"}]}},
        "volumeClaimTemplates": [
            {"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast",
                                                    "resources": {"requests": {"storage": "100Gi"}}}},
            {"metadata": {"name": "logs"}, "spec": {"accessModes": ["ReadWriteOnce"],
                                                    "resources": {"requests": {"storage": "512Mi"}}}},
            {"spec": {"storageClassName": None}},
        ],
    },
}

TCP_CONFIGMAP = {
    "apiVersion": "v1", "kind": "ConfigMap",
    "metadata": {"name": "tcp-services", "namespace": "ingress-nginx", "labels": None},
    "data": {"9000": "default/example-go:8080", "metrics-port": "10254", "22": "git/gitlab-shell:22",
             "5432": "db/postgres:5432::PROXY", "3306": ""},
}

CERTIFICATE = {
    "apiVersion": "cert-manager.io/v1", "kind": "Certificate",
    "metadata": {"name": "shop-cert", "namespace": "shop"},
    "spec": {"secretName": "shop-cert-tls",
             "dnsNames": ["shop.example.com", "www.shop.example.com", "Shop.Example.com", "api.shop.example.com"],
             "duration": "2160h", "renewBefore": "360h", "issuerRef": {"name": "letsencrypt", "kind": "ClusterIssuer"},
             "usages": None, "privateKey": {"algorithm": "ECDSA", "size": 256}},
}

ENDPOINT_SLICE = {
    "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "addressType": "IPv4",
    "metadata": {"name": "web-abc12", "namespace": "default",
                 "labels": {"kubernetes.io/service-name": "web",
                            "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}},
    "endpoints": [{"addresses": ["10.1.2.3"], "conditions": {"ready": True, "serving": True}, "nodeName": "node-b",
                   "zone": "eu-west-1b"},
                  {"addresses": ["10.1.2.4"], "conditions": {"ready": False}, "nodeName": "node-a", "zone": "eu-west-1a"},
                  {"addresses": ["10.1.2.5", "10.1.2.6"], "conditions": {"ready": True}, "nodeName": "node-a"}],
    "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}, {"name": "", "port": 53, "protocol": "UDP"}],
}

#: (js, value): value is an object above or a scalar input
CASES: list[tuple[str, Any]] = [
    # Pods: containers, images, resources
    ("value.spec.containers.map(c => { const parts = c.image.split('/'); return parts[parts.length - 1]; })", POD),
    ("value.spec.containers.map(c => c.image.split('/').at(-1))", POD),
    ("value.spec.containers.map(c => c.image.substring(0, c.image.lastIndexOf(':')))", POD),
    ("value.spec.containers.some(c => c.securityContext?.privileged === true)", POD),
    ("value.spec.containers.every(c => c.resources?.limits?.memory !== undefined)", POD),
    ("value.spec.containers.findIndex(c => c.name === 'proxy')", POD),
    ("Math.max(...value.spec.containers.map(c => c.ports?.length ?? 0))", POD),
    ("Math.max(...value.spec.containers.flatMap(c => (c.ports ?? []).map(p => p.containerPort)))", POD),
    ("value.spec.containers.map(({name, image}) => `${name}=${image}`)", POD),
    ("value.spec.containers.map(c => c.name.toUpperCase())", POD),
    ("value.spec.containers.map(c => ({...c, image: c.image.startsWith('ghcr.io/') ? c.image : 'mirror.local/' + c.image}))",
     POD),
    ("(() => { let total = 0; for (const c of value.spec.containers) { total += c.ports?.length ?? 0; } return total; })()",
     POD),
    ("(() => { const out = {}; value.spec.containers.forEach(c => { out[c.name] = c.image; }); return out; })()", POD),
    ("Array.isArray(value.spec.containers) ? value.spec.containers.length : 0", POD),
    ("typeof value.metadata.annotations?.team === 'string' ? value.metadata.annotations.team : 'none'", POD),
    ("value.metadata.name.split('-').filter(Boolean).slice(0, -2).join('-')", POD),
    ("value.metadata.creationTimestamp.substring(0, 10)", POD),
    ("value.spec.containers.flatMap(c => c.env ?? []).filter(e => e.valueFrom).map(e => e.name)", POD),
    ("Number.parseInt(value.metadata.resourceVersion, 10) + 1", POD),
    ("value.spec.nodeName ? value.spec.nodeName.toLowerCase() : 'unscheduled'", POD),
    ("value.status.phase === 'Running' ? 'up' : value.status.phase === 'Pending' ? 'starting' : 'down'", POD),
    ("value.status.containerStatuses.filter(s => s.ready).length + '/' + value.status.containerStatuses.length", POD),
    ("value.status.containerStatuses.reduce((n, s) => n + s.restartCount, 0)", POD),
    ("(() => { if (value.spec.hostNetwork) { return 'host'; } else { return value.status.podIP; } })()", POD),
    ("Object.values(value.metadata.labels).join(',')", POD),
    ("Object.entries(value.metadata.labels).map(([k, v]) => `${k}=${v}`).join(',')", POD),
    ("value.spec.containers.map(c => { const m = c.resources.requests.memory; "
     "return m.endsWith('Gi') ? parseInt(m) * 1024 : parseInt(m); })", POD),
    ("(() => { const cpu = value.spec.containers[0].resources.requests.cpu; "
     "return cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000; })()", POD),
    ("Object.assign({}, value.metadata.labels, { 'vcluster.loft.sh/object-name': value.metadata.name })", POD),
    ("(() => { let name = value.metadata.name; if (name.length > 12) { name = name.slice(0, 12); } "
     "return name + '-x-' + context.vcluster.name; })()", POD),
    ("value.metadata.finalizers?.filter(f => f !== 'kubernetes.io/pvc-protection') ?? []", POD),
    ("value.metadata.ownerReferences?.some(o => o.kind === 'ReplicaSet') ?? false", POD),
    ("Object.keys(value.metadata.labels).map(k => k.toLowerCase()).sort()", POD),
    ("String(value.metadata.generation).padStart(4, '0')", POD),
    ("value.metadata.name.replace(/[^a-z0-9-]/g, '-').replace(/^-+|-+$/g, '')", POD),
    ("Object.entries(value.metadata.annotations ?? {}).filter(([k, v]) => typeof v === 'string' && v.length > 0).length",
     POD),
    ("(() => { const labels = {}; for (const [k, v] of Object.entries(value.metadata.labels)) "
     "{ labels[k.replace('/', '_')] = v; } return labels; })()", POD),
    ("value.spec.containers.map(c => { if (c.name === 'api') { return c.image; } return null; })", POD),
    ("value.status.containerStatuses.every(s => s.ready) ? 'Ready' : 'NotReady'", POD),
    ("value.spec.containers.map(c => c.image.includes('@') ? c.image.split('@')[0] : c.image.split(':')[0])", POD),
    # Services
    ("value.spec.ports.map(p => ({ ...p, name: p.name ?? `port-${p.port}` }))", SERVICE),
    ("value.spec.ports.map(({port, protocol}) => `${port}/${protocol}`)", SERVICE),
    ("value.spec.ports.filter(p => p.protocol !== 'UDP').map(p => p.port)", SERVICE),
    ("value.spec.ports.find(p => p.name === 'https')?.targetPort ?? 443", SERVICE),
    ("value.spec.type === 'LoadBalancer' ? 'ClusterIP' : value.spec.type", SERVICE),
    ("value.spec.selector ? Object.keys(value.spec.selector).length : 0", SERVICE),
    ("Math.min(...value.spec.ports.map(p => p.port))", SERVICE),
    ("value.spec.ports.map(p => p.port).sort((a, b) => a - b).at(-1)", SERVICE),
    ("virtualToHostDNS(value.spec.externalName)", SERVICE),
    ("Object.entries(value.spec.selector).map(([k, v]) => k + '=' + v).join(',')", SERVICE),
    ("value.spec.ports.map(p => typeof p.targetPort === 'number' ? p.targetPort : p.port)", SERVICE),
    # Endpoints
    ("value.subsets.flatMap(s => s.addresses.map(a => a.ip)).sort()", ENDPOINTS),
    ("(() => { const ips = []; for (const s of value.subsets) { for (const a of s.addresses) { ips.push(a.ip); } } "
     "return ips; })()", ENDPOINTS),
    ("value.subsets.map(s => s.addresses.length).reduce((a, b) => a + b, 0)", ENDPOINTS),
    ("value.subsets.flatMap(s => s.addresses).filter(a => !a.nodeName).length", ENDPOINTS),
    # Ingresses
    ("value.spec.rules.map(r => r.host.replace(/\\.example\\.com$/, '.' + context.vcluster.name + '.example.com'))",
     INGRESS),
    ("value.spec.rules.map(r => r.host).filter(h => h && !h.startsWith('*.'))", INGRESS),
    ("value.spec.tls?.flatMap(t => t.hosts) ?? []", INGRESS),
    ("value.spec.rules.map(r => ({ ...r, host: r.host.split('.')[0] + '-' + context.vcluster.name + '.' + "
     "r.host.split('.').slice(1).join('.') }))", INGRESS),
    ("value.spec.rules.filter(r => r.http).map(r => r.http.paths.length)", INGRESS),
    # ConfigMaps
    ("Object.keys(value.data).filter(k => k.endsWith('.yaml') || k.endsWith('.yml'))", CONFIGMAP),
    ("Object.fromEntries(Object.entries(value.data).map(([k, v]) => [k, v.trim()]))", CONFIGMAP),
    ("value.data['app.properties'].split('\\n').filter(l => l && !l.startsWith('#')).length", CONFIGMAP),
    ("Object.fromEntries(value.data['app.properties'].split('\\n').filter(l => l.includes('='))"
     ".map(l => [l.split('=')[0].trim(), l.split('=')[1].trim()]))", CONFIGMAP),
    ("value.data.LOG_LEVEL.toLowerCase() === 'debug'", CONFIGMAP),
    ("Object.values(value.data).reduce((n, v) => n + v.length, 0)", CONFIGMAP),
    # Secrets
    ("Object.fromEntries(Object.entries(value.data).map(([k, v]) => [k, atob(v)]))", SECRET),
    ("atob(value.data.username) + ':' + atob(value.data.password).trim()", SECRET),
    ("btoa(atob(value.data.password).trim())", SECRET),
    ("value.type === 'kubernetes.io/tls' ? Object.keys(value.data).every(k => k.startsWith('tls.')) : false", SECRET),
    # scalar inputs (a field a patch rewrites in place)
    ("value.trim().toLowerCase()", " Web-Frontend "),
    ("value.split(',').map(s => s.trim()).filter(s => s.length > 0)", "a, b,,c "),
    ("value.endsWith('Mi') ? parseInt(value) * 1024 * 1024 : parseInt(value)", "256Mi"),
    ("value.lastIndexOf('/') >= 0 ? value.substring(value.lastIndexOf('/') + 1) : value", "registry.local/team/app"),
    ("value.split(':').at(-1)", "nginx:1.27"),
    ("value.padStart(5, '0')", "42"),
    ("typeof value === 'string' ? value.toLowerCase() : String(value)", 8080),
    ("Array.isArray(value) ? value.join(',') : value", ["a", "b"]),
    ("value.replace('docker.io/', '')", "docker.io/library/redis:7"),
    ("value.split('.').filter(Boolean).map(s => s.toLowerCase()).join('.')", "Shop.Example..COM"),
    ("value > 65535 ? 65535 : value < 1 ? 1 : value", 70000),
    ("value.includes('.') ? value : value + '.' + context.vcluster.namespace + '.svc'", "db"),
    ("'-'.repeat(3) + value", "x"),
    ("value.startsWith('sha256:') ? value.substring(7, 19) : value", "sha256:abcdef0123456789abcdef"),
    ("new Date(value).toISOString()", "2026-10-02T07:41:12Z"),
    # a second batch, written after the first was covered, to see how far that generalises
    ("value.metadata.labels?.['app.kubernetes.io/name'] ?? value.metadata.name", POD),
    ("Object.keys(value.metadata.annotations ?? {}).filter(k => k.startsWith('sidecar.istio.io/')).length > 0", POD),
    ("value.spec.containers.map(c => c.image.split('@')[0].split(':')[0].split('/').pop())", POD),
    ("value.spec.containers.map(c => ({ name: c.name, cpu: c.resources?.requests?.cpu ?? '0' }))", POD),
    ("value.spec.containers.reduce((acc, c) => ({ ...acc, [c.name]: c.image }), {})", POD),
    ("value.spec.containers.flatMap(c => c.ports ?? []).map(p => p.containerPort).filter((p, i, a) => a.indexOf(p) === i)",
     POD),
    ("Object.entries(value.metadata.labels).reduce((acc, [k, v]) => { acc[k.replace(/\\./g, '-')] = v; return acc; }, {})",
     POD),
    ("value.spec.ports.map((p, i) => ({ ...p, name: p.name || `port-${i}` }))", SERVICE),
    ("value.spec.ports.reduce((m, p) => Math.max(m, p.port), 0)", SERVICE),
    ("value.metadata.name.length > 12 ? value.metadata.name.slice(0, 12) : value.metadata.name", POD),
    ("value.status.containerStatuses.find(c => c.name === 'api')?.ready === true", POD),
    ("[value.metadata.namespace, value.metadata.name].join('/')", POD),
    ("value.spec.rules.map(r => r.host).join(',')", INGRESS),
    ("value.spec.tls.map(t => ({ ...t, secretName: t.secretName + '-x-' + context.vcluster.name }))", INGRESS),
    ("value.data ? Object.keys(value.data).sort().join(',') : ''", CONFIGMAP),
    ("(value.metadata.labels || {}).app || 'unknown'", SERVICE),
    ("value.spec.containers.filter(c => !c.name.startsWith('istio-')).map(c => c.name)", POD),
    ("value.spec.containers.map(c => c.env?.find(e => e.name === 'MODE')?.value ?? 'default')", POD),
    ("value.metadata.annotations?.['vcluster.loft.sh/object-name'] || value.metadata.name", POD),
    ("value.spec.containers.map(c => parseFloat(c.resources.limits.memory) * 2)", POD),
    ("value.replace(/[^a-z0-9-]/gi, '').toLowerCase().slice(0, 63)", "My_App.Name-01"),
    ("value.split('/').slice(-1)[0]", "registry.local/team/app"),
    ("value.match(/^(\\d+)Mi$/)?.[1]", "512Mi"),
    ("/^\\d+$/.test(value) ? Number(value) : value", "8080"),
    ("value.toString().padStart(3, '0')", 7),
    ("value.startsWith('/') ? value : '/' + value", "api/v1"),
    ("encodeURIComponent(value)", "a b/c"),
    ("value.metadata.labels ? Object.fromEntries(Object.entries(value.metadata.labels)"
     ".filter(([k, v]) => v !== '')) : {}", POD),
    ("value.subsets?.[0]?.addresses?.[0]?.ip ?? null", ENDPOINTS),
    ("(() => { const { name, namespace } = value.metadata; return `${namespace}/${name}`; })()", POD),
    ("value.spec.containers.map(c => { const [image, tag = 'latest'] = c.image.split(':'); return { image, tag }; })",
     POD),
    ("Object.entries(value.spec.selector).every(([k, v]) => context.virtualObject.metadata.labels?.[k] === v)",
     SERVICE),
    ("value.spec.ports.some(p => [80, 443].includes(p.port))", SERVICE),
    ("value.spec.containers.length === 1 ? value.spec.containers[0].name : "
     "value.spec.containers.map(c => c.name).join('+')", POD),
    ("Object.keys(value.metadata.labels).length", POD),
    ("value.metadata.name.endsWith('-0') ? 'primary' : 'replica'", POD),
    ("value.spec.ports.map(p => p.targetPort ?? p.port).map(String)", SERVICE),
    ("value.metadata.ownerReferences?.[0]?.kind === 'ReplicaSet' ? value.metadata.ownerReferences[0].name"
     ".replace(/-[a-z0-9]+$/, '') : value.metadata.name", POD),
    ("(() => { const out = []; for (const [k, v] of Object.entries(value.data)) { if (v.trim() !== '') "
     "{ out.push(`${k}=${v.trim()}`); } } return out; })()", CONFIGMAP),
    ("Object.fromEntries(Object.entries(value.metadata.labels).map(([k, v]) => [k.includes('/') ? k.split('/')[1] : k, v]))",
     POD),
    # a third batch, written after the second was covered
    ("value.spec.containers.map(function (c) { return c.name; })", POD),
    ("value.spec.ports.map(p => p.port).filter(p => p > 1024).length", SERVICE),
    ("value.metadata.labels['app'] === 'checkout' && value.spec.ports.length > 1", SERVICE),
    ("Object.keys(value.data || {}).map(k => k.toUpperCase())", CONFIGMAP),
    ("value.spec.containers.map(c => c.image).some(i => i.endsWith(':latest'))", POD),
    ("(() => { const ports = value.spec.ports || []; return ports.length ? ports[0].port : null; })()", SERVICE),
    ("value.metadata.name.split('-').map((s, i) => i === 0 ? s : s.toUpperCase()).join('')", POD),
    ("Object.entries(value.metadata.annotations).find(([k]) => k.endsWith('team'))?.[1] ?? 'none'", POD),
    ("value.spec.rules.flatMap(r => r.http?.paths?.map(p => r.host + p.path) ?? [])", INGRESS),
    ("value.spec.ports.map(p => Object.assign({}, p, { targetPort: p.port }))", SERVICE),
    ("Number(value.spec.containers[0].resources.requests.cpu.replace('m', '')) / 1000", POD),
    ("value.spec.containers.map(c => c.name).sort().join(',')", POD),
    ("(function (v) { return v.metadata.name.toUpperCase(); })(value)", POD),
    ("value.spec.containers.map(c => c.resources.requests.memory).map(m => parseInt(m, 10))", POD),
    ("value.metadata.creationTimestamp.split('T')[0].split('-').map(Number)", POD),
    # a fourth batch: Deployments, NetworkPolicies, PVCs, Secrets' data, reverse (fromHost) patches of
    # host objects, statement-bodied scripts (switch, counted loops, early returns, labelled continue)
    ("(() => { switch (value.spec.strategy?.type) { case 'Recreate': return 'recreate'; "
     "case 'RollingUpdate': return 'rolling'; default: return 'unknown'; } })()", DEPLOYMENT),
    ("Math.min(value.spec.replicas ?? 1, 2)", DEPLOYMENT),
    ("(() => { const cs = value.spec.template.spec.containers; for (let i = 0; i < cs.length; i++) "
     "{ if (cs[i].name === 'cache') { return i; } } return -1; })()", DEPLOYMENT),
    ("Math.round(value.spec.replicas * 1.5)", DEPLOYMENT),
    ("Math.ceil(value.spec.replicas / 2)", DEPLOYMENT),
    ("value.spec.template.spec.containers.map(c => c.name).reduce((a, b) => a + ',' + b)", DEPLOYMENT),
    ("(() => { const surge = value.spec.strategy.rollingUpdate.maxSurge; return typeof surge === 'string' && "
     "surge.endsWith('%') ? Math.ceil(value.spec.replicas * Number.parseInt(surge, 10) / 100) : surge; })()", DEPLOYMENT),
    ("Object.entries(value.spec.template.spec.nodeSelector ?? {}).map(([k, v]) => `${k}=${v}`)"
     ".sort((a, b) => a.localeCompare(b))", DEPLOYMENT),
    ("(() => { for (const [i, c] of value.spec.template.spec.containers.entries()) "
     "{ if (c.image.endsWith(':latest')) { return `container ${i} (${c.name}) uses latest`; } } return 'ok'; })()",
     DEPLOYMENT),
    ("(() => { const out = []; outer: for (const c of value.spec.template.spec.containers) "
     "{ for (const e of c.env ?? []) { if (e.name === 'SKIP_SYNC') continue outer; } out.push(c.name); } return out; })()",
     DEPLOYMENT),
    ("value.spec.template.spec.containers.map(c => c.image.split(':').at(-1)).every(t => /^v?\\d+\\.\\d+\\.\\d+$/.test(t))",
     DEPLOYMENT),
    ("value.spec.template.spec.containers.map(c => c.name).sort((a, b) => b.localeCompare(a))", DEPLOYMENT),
    ("Array.from({ length: value.spec.replicas }, (_, i) => `${value.metadata.name}-${i}`)", DEPLOYMENT),
    ("(() => { const rev = Number.parseInt(value.metadata.annotations['deployment.kubernetes.io/revision'], 10); "
     "return Number.isNaN(rev) ? 1 : rev + 1; })()", DEPLOYMENT),
    ("value.spec.template.spec.containers.find(c => c.name === 'app')?.env?.find(e => e.name === 'PORT')?.value "
     "?? '80'", DEPLOYMENT),
    ("value.spec.template.spec.containers.reduce((best, c) => (c.ports?.length ?? 0) > (best.ports?.length ?? 0) "
     "? c : best).name", DEPLOYMENT),
    ("(() => { const ns = value.spec.template.spec.nodeSelector; if (!ns) return {}; const out = {}; "
     "for (const k of Object.keys(ns)) { out[k] = ns[k].toLowerCase(); } return out; })()", DEPLOYMENT),
    # reverse patches: a host object back into the virtual cluster
    ("(() => { const ns = value.metadata.labels?.['vcluster.loft.sh/namespace']; if (!ns) return value.metadata.name; "
     "return value.metadata.name.replace('-x-' + ns + '-x-' + context.vcluster.name, ''); })()", HOST_SERVICE),
    ("Object.keys(value.metadata.labels).filter(k => k.indexOf('vcluster.loft.sh/') !== 0)"
     ".reduce((o, k) => Object.assign(o, { [k]: value.metadata.labels[k] }), {})", HOST_SERVICE),
    ("value.status?.loadBalancer?.ingress?.map(i => i.ip ?? i.hostname) ?? []", HOST_SERVICE),
    ("(() => { switch (value.spec.type) { case 'NodePort': case 'LoadBalancer': return 'ClusterIP'; "
     "default: return value.spec.type; } })()", HOST_SERVICE),
    ("value.spec.ports.map(({ nodePort, ...rest }) => rest)", HOST_SERVICE),
    ("value.metadata.name.lastIndexOf('-x-') > 0 ? value.metadata.name.slice(0, value.metadata.name.indexOf('-x-')) "
     ": value.metadata.name", HOST_SERVICE),
    ("Object.fromEntries(Object.entries(value.metadata.labels).filter(([k]) => k.startsWith('topology.kubernetes.io/') "
     "|| k === 'kubernetes.io/hostname'))", HOST_NODE),
    ("value.status.conditions.find(c => c.type === 'Ready')?.status === 'True'", HOST_NODE),
    ("(() => { const cap = value.status.capacity; return { cpu: Number.parseInt(cap.cpu, 10), "
     "memoryGi: Math.floor(Number.parseInt(cap.memory, 10) / (1024 * 1024)) }; })()", HOST_NODE),
    ("value.spec.taints?.filter(t => t.effect === 'NoSchedule').map(t => `${t.key}=${t.value ?? ''}`) ?? []", HOST_NODE),
    ("value.status.addresses.filter(a => a.type === 'InternalIP').map(a => a.address)[0] ?? ''", HOST_NODE),
    # NetworkPolicies and PVCs
    ("value.spec.ingress.flatMap(r => r.ports ?? []).map(p => `${p.protocol ?? 'TCP'}:${p.port}`)", NETWORK_POLICY),
    ("value.spec.policyTypes.includes('Egress') && (value.spec.egress?.length ?? 0) === 0", NETWORK_POLICY),
    ("(() => { let n = 0; for (const rule of value.spec.ingress) { for (const peer of rule.from ?? []) "
     "{ if (peer.ipBlock) n++; } } return n; })()", NETWORK_POLICY),
    ("(() => { const s = value.spec.resources.requests.storage; const m = s.match(/^(\\d+)(Gi|Mi)$/); "
     "if (!m) return null; return m[2] === 'Gi' ? Number(m[1]) * 1024 : Number(m[1]); })()", PVC),
    ("value.spec.accessModes.map(m => m.replace(/[a-z]/g, '')).join(',')", PVC),
    # Secrets' data: base64 text and base64 JSON
    ("Object.keys(JSON.parse(atob(value.data['.dockerconfigjson'])).auths)", DOCKER_SECRET),
    ("atob(value.data['tls.crt']).split('\\n').filter(l => l.startsWith('-----BEGIN')).length", TLS_SECRET),
    ("(() => { const out = {}; for (const k of Object.keys(value.data).sort()) "
     "{ out[k.toUpperCase().replace(/[.-]/g, '_')] = atob(value.data[k]).trim(); } return out; })()", TLS_SECRET),
    ("btoa(JSON.stringify({ auths: { [context.vcluster.name + '.registry.local']: "
     "{ auth: btoa('admin:' + atob(value.data.password).trim()) } } }))", SECRET),
    # scalar fields
    ("decodeURIComponent(value.split('?')[1]?.split('&').find(p => p.startsWith('redirect='))?.slice(9) ?? '')",
     "https://login.example.com/auth?client=web&redirect=https%3A%2F%2Fshop.example.com%2Fcart"),
    ("Number.parseInt(value.replace(/^0x/, ''), 16)", "0x1F90"),
    ("value.trim().split(/\\s+/).map(w => w[0].toUpperCase() + w.slice(1).toLowerCase()).join(' ')", "  hello   WORLD "),
    # a fifth batch: number built-ins over fractional arithmetic and CPU/memory quantities, string
    # indexing and padding, regular expressions with groups and flags, array searches, nested
    # destructuring with defaults, optional calls, typeof checks, sorting and deduplicating objects,
    # inputs with null and absent optional fields
    ("Math.max(1, Math.round(value.spec.replicas * 0.5))", SCALED_DEPLOYMENT),
    ("(() => { const mu = value.spec.strategy?.rollingUpdate?.maxUnavailable ?? '25%'; "
     "return typeof mu === 'number' ? mu : Math.floor(value.spec.replicas * parseFloat(mu) / 100); })()",
     SCALED_DEPLOYMENT),
    ("value.spec.template.spec.containers.reduce((sum, c) => { const q = c.resources?.requests?.cpu ?? '0'; "
     "return sum + (q.endsWith('m') ? parseInt(q, 10) : parseFloat(q) * 1000); }, 0)", SCALED_DEPLOYMENT),
    ("value.spec.containers.map(c => { const cpu = c.resources?.limits?.cpu; if (cpu === undefined) return null; "
     "const milli = cpu.endsWith('m') ? parseFloat(cpu) : parseFloat(cpu) * 1000; return Math.floor(milli * 0.8) + 'm'; })",
     BATCH_POD),
    ("(Number.parseFloat(value.spec.containers[0].resources.limits.cpu) * 1.25).toFixed(2)", BATCH_POD),
    ("(parseInt(value.status.capacity.memory, 10) / 1024 / 1024).toFixed(1) + 'Gi'", HOST_NODE),
    ("(() => { const units = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }; const m = /^([0-9.]+)([KMG]i)?$/"
     ".exec(value.spec.resources.requests.storage); return m ? Number(m[1]) * (units[m[2]] ?? 1) : null; })()", PVC),
    ("`${Math.ceil(parseFloat(value.spec.resources.requests.storage) * 1.1)}Gi`", PVC),
    ("value.metadata.name[0].toUpperCase() + value.metadata.name.slice(1)", BATCH_POD),
    ("value.spec.containers.map(c => c.name.charAt(0) + c.name.at(-1))", BATCH_POD),
    ("value.metadata.name.slice(0, value.metadata.name.lastIndexOf('-'))", BATCH_POD),
    ("value.spec.externalName.slice(0, value.spec.externalName.indexOf('.'))", CLUSTERIP_SERVICE),
    ("'*'.repeat(atob(value.data.password).length)", SECRET),
    ("value.spec.ports.map(p => String(p.port).padStart(5, ' ') + '/' + p.protocol.padEnd(4, '_'))", SERVICE),
    ("Object.fromEntries(Object.entries(value.metadata.labels).map(([k, v]) => [k, v.toUpperCase()]))", BATCH_POD),
    ("`${value.metadata.name}${value.spec.type === 'ExternalName' ? '-ext' : ''}.${context.vcluster.namespace}`",
     CLUSTERIP_SERVICE),
    ("/^true$/i.test(value.metadata.annotations?.['sidecar.istio.io/inject'] ?? '')", BATCH_POD),
    ("value.spec.containers.map(c => { const m = c.image.match(/^(?:([^/]+)\\/)?([^:@]+)(?::([^@]+))?(?:@(.+))?$/); "
     "return m ? { registry: m[1] ?? 'docker.io', repo: m[2], tag: m[3] ?? 'latest' } : null; })", BATCH_POD),
    ("value.metadata.name.replace(/-(\\w)/g, (_, c) => c.toUpperCase())", BATCH_POD),
    ("value.spec.rules.map(r => r.host.replace(/^([^.]+)\\.(.*)$/, '$1-' + context.vcluster.name + '.$2'))", INGRESS),
    ("[].concat(value.metadata.finalizers ?? [], ['vcluster.loft.sh/cleanup'])", BATCH_POD),
    ("(value.spec.containers ?? []).concat(value.spec.initContainers ?? []).map(c => c.name)", BATCH_POD),
    ("value.status.conditions.findLast(c => c.status === 'True')?.type ?? 'Unknown'", BATCH_POD),
    ("value.spec.containers.findIndex(c => c.image.includes('@sha256:'))", BATCH_POD),
    ("Object.values(value.spec.selector ?? {}).every(v => typeof v === 'string')", SERVICE),
    ("value.spec.containers.map(({ name, resources: { requests: { cpu = '0', memory = '0' } = {} } = {} }) "
     "=> `${name}:${cpu}/${memory}`)", BATCH_POD),
    ("value.spec.externalName?.toLowerCase?.() ?? null", CLUSTERIP_SERVICE),
    ("value.metadata.annotations?.['vcluster.loft.sh/object-host-name'] ?? "
     "value.metadata.labels?.['app.kubernetes.io/instance'] ?? value.metadata.labels?.app ?? value.metadata.name",
     BATCH_POD),
    ("value.spec.ports.map(p => typeof p.targetPort === 'string' ? p.targetPort : "
     "typeof p.targetPort === 'number' ? `port-${p.targetPort}` : 'none')", CLUSTERIP_SERVICE),
    ("Object.entries(value.spec.selector.matchLabels).map(([k, v]) => `${k}=${v}`).concat("
     "(value.spec.selector.matchExpressions ?? []).map(e => e.values ? `${e.key} ${e.operator.toLowerCase()} "
     "(${e.values.join(',')})` : e.operator === 'DoesNotExist' ? `!${e.key}` : e.key)).join(',')", SCALED_DEPLOYMENT),
    ("[...value.spec.ports].sort((a, b) => b.port - a.port).map(p => p.name ?? String(p.port))", CLUSTERIP_SERVICE),
    ("value.spec.template.spec.containers.slice().sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)"
     ".map(c => c.name)", DEPLOYMENT),
    ("value.subsets.flatMap(s => s.addresses).filter((a, i, all) => all.findIndex(b => b.nodeName === a.nodeName) === i)"
     ".map(a => a.nodeName ?? 'none')", ENDPOINTS),
    ("(() => { const seen = {}; const out = []; for (const p of value.spec.ports) { const key = p.protocol + '/' + p.port; "
     "if (!seen[key]) { seen[key] = true; out.push(p); } } return out; })()", CLUSTERIP_SERVICE),
    ("(() => { let most = 0; let worst = null; for (const s of value.status.containerStatuses ?? []) "
     "{ if (s.restartCount > most) { most = s.restartCount; worst = s.name; } } return worst; })()", BATCH_POD),
    ("Math.min(...value.spec.ingress.flatMap(r => r.from ?? []).filter(p => p.ipBlock)"
     ".map(p => Number(p.ipBlock.cidr.slice(p.ipBlock.cidr.indexOf('/') + 1))))", NETWORK_POLICY),
    ("Object.keys(value.data).map(k => `${k}: ${atob(value.data[k]).length} bytes`)", SECRET),
    ("value.trimStart().startsWith('#') ? null : value.trim().toUpperCase().replace(/[^A-Z0-9]+/g, '_')",
     "  app.kubernetes.io/name "),
    ("Math.min(Math.max(Math.round(Number.parseFloat(value) * 100), 0), 100) + '%'", "0.125"),
    ("value.lastIndexOf('.') > 0 ? value.slice(value.lastIndexOf('.') + 1).toLowerCase() : ''", "config.Prod.YAML"),
    # a sixth batch: HTTPRoutes, ConfigMaps with integer-like keys, Services whose targetPort is a
    # number, a numeric string or a name, Secrets' stringData, env and args lookups, tolerations and
    # affinity, arrays with null members, `in`, delete, Object.assign of a spread, Array.from,
    # replaceAll, non-ASCII and astral text, reverse patches of host objects
    ("value.spec.hostnames.map(h => h.toLowerCase()).filter((h, i, all) => all.indexOf(h) === i)"
     ".map(h => h.replaceAll('.', '-') + '.' + context.vcluster.namespace + '.svc')", HTTP_ROUTE),
    ("value.spec.rules.flatMap(r => r.backendRefs ?? []).reduce((acc, b) => { acc[b.name] = (acc[b.name] ?? 0) "
     "+ (b.weight ?? 1); return acc; }, {})", HTTP_ROUTE),
    ("value.spec.rules.map(r => r.matches?.[0]?.path?.value ?? '/')", HTTP_ROUTE),
    ("value.spec.parentRefs.map(p => ({ ...p, name: `${p.name}-x-${p.namespace ?? value.metadata.namespace}-x-"
     "${context.vcluster.name}`, namespace: context.vcluster.namespace }))", HTTP_ROUTE),
    ("value.spec.rules.flatMap(r => r.backendRefs).map(b => typeof b.port === 'string' ? Number(b.port) : b.port)",
     HTTP_ROUTE),
    ("value.spec.rules.some(r => (r.filters ?? []).some(f => f.type === 'RequestHeaderModifier'))", HTTP_ROUTE),
    ("value.spec.rules.flatMap(r => r.backendRefs ?? []).map(b => virtualToHostDNS("
     "`${b.name}.${b.namespace ?? value.metadata.namespace}.svc.cluster.local`))", HTTP_ROUTE),
    ("Array.from(value.spec.hostnames, h => h.split('.').length)", HTTP_ROUTE),
    ("value.spec.ports.map(p => ({ name: p.name, port: p.port, targetPort: /^\\d+$/.test(String(p.targetPort)) "
     "? parseInt(p.targetPort, 10) : p.targetPort }))", EDGE_SERVICE),
    ("value.spec.ports.filter(p => 'nodePort' in p && p.nodePort !== null).map(p => p.nodePort)", EDGE_SERVICE),
    ("(() => { const spec = { ...value.spec }; delete spec.externalIPs; delete spec.sessionAffinity; "
     "spec.type = 'ClusterIP'; return spec; })()", EDGE_SERVICE),
    ("Object.keys(value.metadata.annotations).filter(k => k.includes('aws-load-balancer')).map(k => k.split('/').pop())",
     EDGE_SERVICE),
    ("value.metadata.annotations['external-dns.alpha.kubernetes.io/hostname'].split(',').map(h => h.trim())"
     ".filter(h => h.endsWith('.example.com'))", EDGE_SERVICE),
    ("value.spec.ports.map(p => `${p.name}:${p.port}->${p.targetPort ?? p.port}`).join(' ')", EDGE_SERVICE),
    ("value.spec.externalIPs?.length ?? 0", EDGE_SERVICE),
    ("value.spec.ports.indexOf(value.spec.ports.find(p => p.appProtocol === 'grpc'))", EDGE_SERVICE),
    ("value.metadata.annotations.description.length + ':' + value.metadata.annotations.description.toUpperCase()",
     EDGE_SERVICE),
    ("Object.keys(value.data)", SHARD_CONFIGMAP),
    ("Object.entries(value.data).filter(([k]) => /^\\d+$/.test(k)).map(([k, v]) => v.split(':')[0])", SHARD_CONFIGMAP),
    ("Number(value.data.max_conn) * 2 + parseFloat(value.data.weight)", SHARD_CONFIGMAP),
    ("'2' in value.data && !('3' in value.data) && value.data.enabled !== 'true'", SHARD_CONFIGMAP),
    ("value.data[String(Math.max(...Object.keys(value.data).filter(k => !Number.isNaN(Number(k))).map(Number)))]",
     SHARD_CONFIGMAP),
    ("(() => { const t = value.data.timeout.trim(); const n = parseInt(t, 10); "
     "return t.endsWith('ms') ? n : t.endsWith('s') ? n * 1000 : n; })()", SHARD_CONFIGMAP),
    ("Object.values(value.data).map(v => v.split(':')[1]).filter(p => p !== undefined).map(Number)", SHARD_CONFIGMAP),
    ("Object.assign({}, value.data, Object.fromEntries(Object.entries(value.stringData ?? {}).map(([k, v]) => "
     "[k, btoa(v)])))", STRING_SECRET),
    ("atob(value.data.token).split('.').length === 3 ? JSON.parse(atob(atob(value.data.token).split('.')[1])).sub : null",
     STRING_SECRET),
    ("Object.keys({ ...value.data, ...value.stringData }).every(k => /^[-._a-zA-Z0-9]+$/.test(k))", STRING_SECRET),
    ("Object.fromEntries(value.spec.containers[0].env.filter(e => e.value !== undefined).map(e => [e.name, e.value]))",
     SCHEDULED_POD),
    ("parseInt(value.spec.containers[0].env.find(e => e.name === 'REPLICAS')?.value ?? '1', 10) * "
     "parseFloat(value.spec.containers[0].env.find(e => e.name === 'RATIO')?.value ?? '1')", SCHEDULED_POD),
    ("value.spec.containers.map(c => (c.env ?? []).length)", SCHEDULED_POD),
    ("value.spec.tolerations.filter(t => t.key?.startsWith('node.kubernetes.io/'))"
     ".map(t => `${t.key.slice(t.key.indexOf('/') + 1)}:${t.tolerationSeconds ?? 'forever'}`)", SCHEDULED_POD),
    ("value.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms"
     "?.flatMap(t => t.matchExpressions.filter(e => e.operator === 'In').flatMap(e => e.values)) ?? []", SCHEDULED_POD),
    ("value.spec.imagePullSecrets.filter(s => s !== null).map(s => s.name + '-x-' + context.vcluster.name)",
     SCHEDULED_POD),
    ("(() => { const opts = {}; for (const a of value.spec.containers[0].args) { if (!a.startsWith('--')) continue; "
     "const [k, v = 'true'] = a.slice(2).split('='); opts[k] = v; } return opts; })()", SCHEDULED_POD),
    ("(() => { const m = value.spec.containers[0].resources.requests.memory; const n = parseFloat(m); "
     "if (m.endsWith('Gi')) return n * 2 ** 30; if (m.endsWith('G')) return n * 1e9; return n; })()", SCHEDULED_POD),
    ("value.spec.containers.map(c => Math.trunc(parseFloat(c.resources?.limits?.cpu ?? c.resources.requests.cpu) "
     "* 1000) + 'm')", SCHEDULED_POD),
    ("(() => { let ready = 0; for (const s of value.status.containerStatuses ?? []) { if (s?.ready) ready++; } "
     "return `${ready}/${value.status.containerStatuses.length}`; })()", SCHEDULED_POD),
    ("Object.assign({}, ...Object.entries(value.metadata.labels).filter(([k]) => k !== 'pod-template-hash')"
     ".map(([k, v]) => ({ [k]: v })))", SCHEDULED_POD),
    ("[...(value.metadata.finalizers ?? []), ...(value.metadata.deletionTimestamp ? [] : ['vcluster.loft.sh/sync'])]",
     SCHEDULED_POD),
    ("(() => { const labels = { ...value.metadata.labels }; for (const k of Object.keys(labels)) "
     "{ if (k.startsWith('vcluster.loft.sh/')) delete labels[k]; } return labels; })()", HOST_SERVICE),
    # a seventh batch: resource quantities with suffix tables, probes' ports by name, tolerations
    # matched against taints, env and envFrom merges, matchExpressions evaluated, Ingress paths
    # rewritten through virtualToHostDNS, .env text in Secrets, ownerReferences, conditions by
    # transition time, number formatting (toString(16), toFixed), switch with fallthrough,
    # labelled break, new Set, JSON.parse of annotations, try/catch, a name hash
    ("(() => { const q = value.spec.containers[1].resources.limits.cpu; switch (true) { case q.endsWith('m'): "
     "return parseInt(q, 10); default: return Math.round(parseFloat(q) * 1000); } })()", PROBE_POD),
    ("value.spec.containers.map(c => { const m = c.resources.requests.memory; const units = { Ki: 2 ** 10, Mi: 2 ** 20, "
     "Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 }; for (const [suffix, factor] of Object.entries(units)) "
     "{ if (m.endsWith(suffix)) return parseFloat(m.slice(0, -suffix.length)) * factor; } return Number(m); })", PROBE_POD),
    ("value.spec.containers.map(c => { const p = c.livenessProbe?.httpGet?.port; return typeof p === 'string' "
     "? (c.ports ?? []).find(x => x.name === p)?.containerPort ?? null : p ?? null; })", PROBE_POD),
    ("value.spec.containers.flatMap(c => [c.livenessProbe, c.readinessProbe]).filter(Boolean)"
     ".map(p => p.httpGet ? 'http' : p.tcpSocket ? 'tcp' : p.exec ? 'exec' : 'grpc')", PROBE_POD),
    ("[{ key: 'dedicated', value: 'payments', effect: 'NoSchedule' }, { key: 'gpu', effect: 'NoSchedule' }]"
     ".filter(t => !value.spec.tolerations.some(tol => (tol.operator === 'Exists' ? !tol.key || tol.key === t.key "
     ": tol.key === t.key && tol.value === t.value) && (!tol.effect || tol.effect === t.effect))).map(t => t.key)",
     PROBE_POD),
    ("value.spec.containers.map(c => ({ name: c.name, env: [...(c.env ?? []).filter(e => e.name !== 'VCLUSTER_NAME'), "
     "{ name: 'VCLUSTER_NAME', value: context.vcluster.name }] }))", PROBE_POD),
    ("value.spec.containers.flatMap(c => (c.envFrom ?? []).map(s => (s.prefix ?? '') + (s.configMapRef?.name ?? "
     "s.secretRef?.name)))", PROBE_POD),
    ("(() => { const env = {}; for (const e of value.spec.containers[0].env) env[e.name] = e.value; "
     "return value.spec.containers[0].args.map(a => a.replace(/\\$\\((\\w+)\\)/g, (m, n) => env[n] ?? m)); })()",
     PROBE_POD),
    ("value.spec.selector.matchExpressions.every(e => { const v = context.virtualObject.metadata.labels[e.key]; "
     "switch (e.operator) { case 'In': return e.values.includes(v); case 'NotIn': return !e.values.includes(v); "
     "case 'Exists': return v !== undefined; case 'DoesNotExist': return v === undefined; default: return false; } })",
     SCALED_DEPLOYMENT),
    ("value.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.map(t => "
     "t.matchExpressions.map(e => `${e.key} ${e.operator === 'NotIn' ? 'notin' : 'in'} (${e.values.join(', ')})`)"
     ".join(', ')).join(' || ')", PROBE_POD),
    ("value.spec.rules.flatMap(r => (r.http?.paths ?? []).filter(p => p.backend.service).map(p => ({ host: "
     "r.host?.toLowerCase() ?? '*', path: p.path, service: virtualToHostDNS(`${p.backend.service.name}."
     "${value.metadata.namespace}.svc.cluster.local`), port: p.backend.service.port.number ?? p.backend.service.port.name })))",
     CLASS_INGRESS),
    ("value.spec.rules.map(r => ({ ...r, host: r.host ? `${r.host.split('.')[0].toLowerCase()}-${context.vcluster.name}"
     ".example.com` : '*' }))", CLASS_INGRESS),
    ("value.spec.ingressClassName === 'nginx' ? Object.fromEntries(Object.entries(value.metadata.annotations)"
     ".filter(([k]) => k.startsWith('nginx.ingress.kubernetes.io/')).map(([k, v]) => [k.slice(k.indexOf('/') + 1), v])) "
     ": {}", CLASS_INGRESS),
    ("Object.fromEntries(atob(value.data['app.env']).split('\\n').map(l => l.trim()).filter(l => l && !l.startsWith('#'))"
     ".map(l => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))", ENV_SECRET),
    ("Number(atob(value.data.port)) + 1", ENV_SECRET),
    ("Object.keys(value.data).filter(k => value.data[k] !== '').map(k => `${k}=${atob(value.data[k]).length}`)",
     ENV_SECRET),
    ("btoa(Object.entries(value.metadata.labels).map(([k, v]) => `${k}=${v}`).join('\\n'))", ENV_SECRET),
    ("value.metadata.ownerReferences?.find(o => o.controller)?.name ?? null", PROBE_POD),
    ("(value.metadata.ownerReferences ?? []).filter(o => o.controller === true).map(({ uid, blockOwnerDeletion, ...o }) "
     "=> ({ ...o, name: `${o.name}-x-${value.metadata.namespace}-x-${context.vcluster.name}` }))", PROBE_POD),
    ("value.status.conditions.slice().sort((a, b) => a.lastTransitionTime < b.lastTransitionTime ? 1 : "
     "a.lastTransitionTime > b.lastTransitionTime ? -1 : 0)[0].type", PROBE_POD),
    ("value.status.conditions.filter(c => c.status === 'True').map(c => c.type).sort().join(',')", PROBE_POD),
    ("value.metadata.creationTimestamp.split(/[-T:Z]/).slice(0, 5).map(Number)", PROBE_POD),
    ("Math.round((Date.parse(value.status.startTime) - Date.parse(value.metadata.creationTimestamp)) / 1000)", PROBE_POD),
    ("value.spec.containers[0].ports.map(p => p.containerPort.toString(16).padStart(4, '0')).join(':')", PROBE_POD),
    ("(value.status.containerStatuses.filter(s => s.ready).length / value.status.containerStatuses.length * 100)"
     ".toFixed(1) + '%'", PROBE_POD),
    ("value.spec.template?.spec?.securityContext?.runAsUser ?? value.spec.containers?.[0]?.securityContext?.runAsUser "
     "?? value.spec.securityContext?.fsGroup ?? 65534", PROBE_POD),
    ("(() => { const { replicas = 1, strategy: { type = 'RollingUpdate', rollingUpdate: { maxSurge = '25%', "
     "maxUnavailable = '25%' } = {} } = {} } = value.spec; return `${type}:${replicas}:${maxSurge}:${maxUnavailable}`; })()",
     SCALED_DEPLOYMENT),
    ("(() => { let cls; switch (value.spec.priorityClassName) { case 'system-cluster-critical': "
     "case 'system-node-critical': cls = 'system'; break; case undefined: cls = 'default'; break; default: cls = 'user'; } "
     "return cls; })()", PROBE_POD),
    ("value.spec.replicas > 10 ? 'large' : value.spec.replicas > 3 ? 'medium' : value.spec.replicas > 0 ? 'small' : 'off'",
     SCALED_DEPLOYMENT),
    ("(() => { const out = []; for (const c of value.spec.containers) { if (!c.ports) continue; for (const p of c.ports) "
     "{ if (p.protocol === 'UDP') continue; out.push(`${c.name}/${p.name ?? p.containerPort}`); if (out.length >= 2) break; } } "
     "return out; })()", PROBE_POD),
    ("(() => { let zone = null; search: for (const term of value.spec.affinity.nodeAffinity"
     ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms) { for (const e of term.matchExpressions) "
     "{ if (e.key === 'topology.kubernetes.io/zone' && e.operator === 'In') { zone = e.values[0]; break search; } } } "
     "return zone ?? value.metadata.labels.zone; })()", PROBE_POD),
    ("Object.entries(value.metadata.labels).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([k, v]) => `${k}=${v}`)"
     ".join(',')", PROBE_POD),
    ("['Pending', 'Unknown'].includes(value.status.phase) || value.status.containerStatuses.some(s => s.restartCount > 3)",
     PROBE_POD),
    ("[80, 443, 8080, 9102].indexOf(value.spec.containers[0].ports[1].containerPort) !== -1 && "
     "value.spec.containers[0].args.indexOf('--verbose') > 0", PROBE_POD),
    ("(() => { const min = Number(value.metadata.annotations?.['autoscaling/min-replicas'] ?? 1); "
     "const max = Number(value.metadata.annotations?.['autoscaling/max-replicas'] ?? 10); "
     "return Math.min(Math.max(JSON.parse(value.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'])"
     ".spec.replicas, min), max); })()", PROBE_POD),
    ("Number.isInteger(Number(value.metadata.annotations['prometheus.io/port'])) ? "
     "parseInt(value.metadata.annotations['prometheus.io/port'], 10) : 9090", PROBE_POD),
    ("(() => { try { return JSON.parse(value.metadata.annotations['vcluster.loft.sh/extra']).tier ?? 'none'; } "
     "catch (e) { return 'invalid'; } })()", PROBE_POD),
    ("({ ...value.metadata.annotations, 'vcluster.loft.sh/object-name': value.metadata.name, "
     "'vcluster.loft.sh/object-namespace': value.metadata.namespace, owner: value.metadata.labels?.team ?? null })", ENV_SECRET),
    ("[...new Set(value.spec.template.spec.containers.map(c => c.image.split(':')[0]).concat("
     "value.spec.template.spec.initContainers.map(c => c.image.split(':')[0])))]", SCALED_DEPLOYMENT),
    ("(() => { const n = value.metadata.name + '-x-' + value.metadata.namespace + '-x-' + context.vcluster.name; "
     "if (n.length <= 30) return n; let h = 0; for (const ch of n) h = (h * 31 + ch.charCodeAt(0)) >>> 0; "
     "return n.slice(0, 21) + '-' + h.toString(16).padStart(8, '0'); })()", PROBE_POD),
    ("value.metadata.annotations.owner.normalize('NFD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase()"
     ".replace(/\\s+/g, '.')", PROBE_POD),
]

#: an eighth batch, each with the hand-written Python a developer would write (``python``, as in
#: the realistic corpus): regex label rewriting, port and quantity arithmetic, image tag rewriting,
#: sorting and dedup, grouping with reduce, Object.assign and nested spread merges, optional
#: chains with defaults, Array.from / Array.isArray / some / every, Math.max/min over spreads,
#: padStart/padEnd, Number/parseInt of strings, JSON.stringify of parts, Boolean(), destructuring
#: with defaults, integer-like ConfigMap keys, reverse (fromHost) expressions, scalar inputs
CASES_WITH_PYTHON: list[tuple[str, Any, str]] = [
    ("Object.fromEntries(Object.entries(value.metadata.labels).map(([k, v]) => "
     "[k.replace(/^app\\.kubernetes\\.io\\//, 'k8s/'), v.trim().toLowerCase()]))", MESH_POD,
     "lambda value, context, rx=re.compile(r'^app\\.kubernetes\\.io/'): "
     "{rx.sub('k8s/', k, count=1): v.strip().lower() for k, v in value['metadata']['labels'].items()}"),
    ("value.spec.ports.map(p => ({ name: p.name ?? `port-${p.port}`, port: p.port + 10000, targetPort: "
     "typeof p.targetPort === 'number' ? p.targetPort + 10000 : p.targetPort ?? p.port }))", SERVICE,
     "lambda value, context: [{'name': p['name'] if 'name' in p else f\"port-{p['port']}\", 'port': p['port'] + 10000, "
     "'targetPort': t + 10000 if isinstance(t := p.get('targetPort'), int) else p['port'] if t is None else t} "
     "for p in value['spec']['ports']]"),
    ("value.spec.containers.reduce((sum, c) => { const cpu = c.resources?.requests?.cpu ?? '0'; "
     "return sum + (cpu.endsWith('m') ? parseInt(cpu) : parseFloat(cpu) * 1000); }, 0)", MESH_POD,
     "lambda value, context: sum(int(q[:-1]) if q.endswith('m') else float(q) * 1000 for c in value['spec']['containers'] "
     "for q in [((c.get('resources') or {}).get('requests') or {}).get('cpu', '0')])"),
    ("value.spec.containers.map(c => c.image.replace(/^docker\\.io\\//, 'mirror.gcr.io/')"
     ".replace(/:(\\d+)\\.(\\d+)\\.(\\d+)$/, (m, major, minor) => `:${major}.${minor}`))", MESH_POD,
     "lambda value, context, hub=re.compile(r'^docker\\.io/'), tag=re.compile(r':(\\d+)\\.(\\d+)\\.(\\d+)$'): "
     "[tag.sub(lambda m: f':{m[1]}.{m[2]}', hub.sub('mirror.gcr.io/', c['image'], count=1), count=1) "
     "for c in value['spec']['containers']]"),
    ("[...new Set(value.spec.dnsNames.map(n => n.toLowerCase()))].sort()", CERTIFICATE,
     "lambda value, context: sorted({n.lower() for n in value['spec']['dnsNames']})"),
    ("value.spec.containers.concat(value.spec.initContainers ?? []).map(c => c.image)"
     ".filter((img, i, all) => all.indexOf(img) === i)", MESH_POD,
     "lambda value, context: list(dict.fromkeys(c['image'] for c in value['spec']['containers'] + "
     "(value['spec'].get('initContainers') or [])))"),
    ("value.endpoints.reduce((acc, e) => { const z = e.zone ?? 'unknown'; (acc[z] ??= []).push(...e.addresses); "
     "return acc; }, {})", ENDPOINT_SLICE,
     "lambda value, context: (lambda acc: [acc.setdefault(e.get('zone') or 'unknown', []).extend(e['addresses']) "
     "for e in value['endpoints']] and acc)({})"),
    ("Object.assign({}, value.metadata.labels, { 'vcluster.loft.sh/namespace': value.metadata.namespace }, "
     "context.vcluster.name ? { 'vcluster.loft.sh/owner': context.vcluster.name } : {})", MESH_POD,
     "lambda value, context: {**value['metadata']['labels'], 'vcluster.loft.sh/namespace': value['metadata']['namespace'], "
     "**({'vcluster.loft.sh/owner': n} if (n := context['vcluster']['name']) else {})}"),
    ("({ ...value, spec: { ...value.spec, template: { ...value.spec.template, metadata: { "
     "...value.spec.template.metadata, annotations: { ...value.spec.template.metadata?.annotations, "
     "'vcluster.loft.sh/synced': 'true' } } } } })", STATEFULSET,
     "lambda value, context: {**value, 'spec': {**(s := value['spec']), 'template': {**(t := s['template']), "
     "'metadata': {**(m := t['metadata']), 'annotations': {**(m.get('annotations') or {}), "
     "'vcluster.loft.sh/synced': 'true'}}}}}"),
    ("value.spec.volumeClaimTemplates?.map(t => ({ name: t.metadata?.name ?? 'unnamed', class: t.spec?.storageClassName "
     "?? context.vcluster.config?.storage?.defaultClass ?? 'standard', size: t.spec?.resources?.requests?.storage "
     "?? '1Gi' })) ?? []", STATEFULSET,
     "lambda value, context: [{'name': (t.get('metadata') or {}).get('name') or 'unnamed', "
     "'class': (t.get('spec') or {}).get('storageClassName') or ((context['vcluster'].get('config') or {})"
     ".get('storage') or {}).get('defaultClass') or 'standard', "
     "'size': (((t.get('spec') or {}).get('resources') or {}).get('requests') or {}).get('storage') or '1Gi'} "
     "for t in value['spec'].get('volumeClaimTemplates') or []]"),
    ("`${value.metadata.name}${value.spec.replicas > 1 ? `-x${value.spec.replicas}` : ''}.${value.metadata.namespace}"
     "${value.spec.serviceName ? `@${value.spec.serviceName}` : ''}`", STATEFULSET,
     "lambda value, context: f\"{value['metadata']['name']}{f'-x{r}' if (r := value['spec']['replicas']) > 1 else ''}"
     ".{value['metadata']['namespace']}{f'@{s}' if (s := value['spec'].get('serviceName')) else ''}\""),
    ("Array.from(new Set(value.endpoints.map(e => e.nodeName))).sort()", ENDPOINT_SLICE,
     "lambda value, context: sorted({e['nodeName'] for e in value['endpoints']})"),
    ("Object.fromEntries(Object.entries(value.spec).filter(([, v]) => Array.isArray(v)).map(([k, v]) => [k, v.length]))",
     CERTIFICATE,
     "lambda value, context: {k: len(v) for k, v in value['spec'].items() if isinstance(v, list)}"),
    ("value.endpoints.every(e => e.conditions.ready !== false) ? 'healthy' : "
     "value.endpoints.some(e => e.conditions.ready) ? 'degraded' : 'down'", ENDPOINT_SLICE,
     "lambda value, context: 'healthy' if all(e['conditions'].get('ready') is not False for e in value['endpoints']) "
     "else 'degraded' if any(e['conditions'].get('ready') for e in value['endpoints']) else 'down'"),
    ("Math.max(0, ...value.status.containerStatuses.map(s => s.restartCount))", MESH_POD,
     "lambda value, context: max((s['restartCount'] for s in value['status']['containerStatuses']), default=0)"),
    ("Math.min(...value.spec.ports.map(p => p.nodePort ?? Infinity))", EDGE_SERVICE,
     "lambda value, context: min(n if (n := p.get('nodePort')) is not None else math.inf for p in value['spec']['ports'])"),
    ("value.spec.containers.map((c, i) => `${String(i + 1).padStart(2, '0')}-${c.name.padEnd(12, '.')}|`)", MESH_POD,
     "lambda value, context: [f\"{i + 1:02d}-{c['name']:.<12}|\" for i, c in enumerate(value['spec']['containers'])]"),
    ("Object.keys(value.data).filter(k => !k.startsWith('.') && !k.endsWith('.crt'))"
     ".map(k => k.trim().toUpperCase().replace(/[.-]/g, '_'))", TLS_SECRET,
     "lambda value, context: [k.strip().upper().replace('.', '_').replace('-', '_') for k in value['data'] "
     "if not k.startswith('.') and not k.endswith('.crt')]"),
    ("Object.entries(value.data).filter(([k, v]) => /^\\d+$/.test(k) && v).map(([k, v]) => { "
     "const [svc, port, ...rest] = v.split(':'); return { port: Number(k), target: svc, targetPort: Number(port), "
     "proxy: rest.includes('PROXY') }; })", TCP_CONFIGMAP,
     "lambda value, context: [{'port': int(k), 'target': (p := v.split(':'))[0], 'targetPort': int(p[1]), "
     "'proxy': 'PROXY' in p[2:]} for k in sorted((k for k in value['data'] if k.isdigit()), key=int) "
     "if (v := value['data'][k])]"),
    ("parseInt(value.metadata.annotations['deploy.example.com/replicas-hint'], 10) || 1", MESH_POD,
     "lambda value, context: int(value['metadata']['annotations']['deploy.example.com/replicas-hint']) or 1"),
    ("Number(value.spec.containers[0].env.find(e => e.name === 'WORKERS')?.value ?? 4) * 2", MESH_POD,
     "lambda value, context: int(next((e['value'] for e in value['spec']['containers'][0]['env'] "
     "if e['name'] == 'WORKERS'), 4)) * 2"),
    ("JSON.stringify({ ports: value.spec.containers.flatMap(c => (c.ports ?? []).map(p => p.containerPort)), "
     "sa: value.spec.serviceAccountName })", MESH_POD,
     "lambda value, context: json.dumps({'ports': [p['containerPort'] for c in value['spec']['containers'] "
     "for p in c.get('ports', [])], 'sa': value['spec']['serviceAccountName']}, separators=(',', ':'))"),
    ("value.spec.volumes.filter(v => Boolean(v.configMap || v.secret)).map(v => v.configMap?.name ?? v.secret.secretName)",
     MESH_POD,
     "lambda value, context: [v['configMap']['name'] if 'configMap' in v else v['secret']['secretName'] "
     "for v in value['spec']['volumes'] if v.get('configMap') or v.get('secret')]"),
    ("(({ metadata: { name, labels: { version = 'v1', team = 'none' } = {} }, spec: { restartPolicy = 'Always', "
     "priority = 0 } }) => `${name}:${version}:${team.trim()}:${restartPolicy}:${priority}`)(value)", MESH_POD,
     "lambda value, context: f\"{value['metadata']['name']}:{(l := value['metadata'].get('labels') or {}).get('version', 'v1')}:"
     "{l.get('team', 'none').strip()}:{value['spec'].get('restartPolicy', 'Always')}:{value['spec'].get('priority', 0)}\""),
    ("`${atob(value.data.username)}:${btoa(atob(value.data.password).trim())}`", SECRET,
     "lambda value, context: f\"{base64.b64decode(value['data']['username']).decode()}:"
     "{base64.b64encode(base64.b64decode(value['data']['password']).strip()).decode()}\""),
    ("value.spec.type === 'ExternalName' && value.spec.externalName.endsWith('.svc.cluster.local') ? "
     "{ ...value.spec, externalName: virtualToHostDNS(value.spec.externalName) } : value.spec", CLUSTERIP_SERVICE,
     "lambda value, context: (lambda s: {**s, 'externalName': f\"{(l := s['externalName'].split('.'))[0]}-x-{l[1]}-x-"
     "{context['vcluster']['name']}.{context['vcluster']['namespace']}.svc.{'.'.join(l[3:])}\"} "
     "if s['type'] == 'ExternalName' and s['externalName'].endswith('.svc.cluster.local') else s)(value['spec'])"),
    ("(() => { const suffix = `-x-${value.metadata.labels['vcluster.loft.sh/namespace']}-x-${context.vcluster.name}`; "
     "return value.metadata.name.endsWith(suffix) ? value.metadata.name.slice(0, -suffix.length) : value.metadata.name; })()",
     HOST_SERVICE,
     "lambda value, context: value['metadata']['name'].removesuffix("
     "f\"-x-{value['metadata']['labels']['vcluster.loft.sh/namespace']}-x-{context['vcluster']['name']}\")"),
    ("({ loadBalancer: { ingress: (value.status?.loadBalancer?.ingress ?? []).map(i => i.ip ? { ip: i.ip } "
     ": { hostname: i.hostname }) } })", HOST_SERVICE,
     "lambda value, context: {'loadBalancer': {'ingress': [{'ip': i['ip']} if i.get('ip') else {'hostname': i['hostname']} "
     "for i in ((value.get('status') or {}).get('loadBalancer') or {}).get('ingress') or []]}}"),
    ("({ ...value.spec, podSelector: { matchLabels: Object.fromEntries(Object.entries(value.spec.podSelector.matchLabels "
     "?? {}).map(([k, v]) => [`vcluster.loft.sh/label-${context.vcluster.name}-${k}`, v])"
     ".concat([['vcluster.loft.sh/namespace', value.metadata.namespace]])) } })", NETWORK_POLICY,
     "lambda value, context: {**value['spec'], 'podSelector': {'matchLabels': {**{f\"vcluster.loft.sh/label-"
     "{context['vcluster']['name']}-{k}\": v for k, v in (value['spec']['podSelector'].get('matchLabels') or {}).items()}, "
     "'vcluster.loft.sh/namespace': value['metadata']['namespace']}}}"),
    ("value.spec.ingress.flatMap(r => r.from ?? []).filter(f => f.ipBlock).map(f => 2 ** (32 - Number(f.ipBlock.cidr"
     ".split('/')[1])))", NETWORK_POLICY,
     "lambda value, context: [2 ** (32 - int(f['ipBlock']['cidr'].split('/')[1])) for r in value['spec']['ingress'] "
     "for f in r.get('from', []) if f.get('ipBlock')]"),
    ("(() => { const m = /^(\\d+(?:\\.\\d+)?)(Mi|Gi|Ti)?$/.exec(value.spec.resources.requests.storage); "
     "const f = { Mi: 1 / 1024, Gi: 1, Ti: 1024 }[m[2]] ?? 1 / 2 ** 30; return Math.ceil(Number(m[1]) * f * 1.2) + 'Gi'; })()",
     PVC,
     "lambda value, context, rx=re.compile(r'^(\\d+(?:\\.\\d+)?)(Mi|Gi|Ti)?$'): "
     "f\"{math.ceil(float((m := rx.match(value['spec']['resources']['requests']['storage']))[1]) "
     "* {'Mi': 1 / 1024, 'Gi': 1, 'Ti': 1024}.get(m[2], 1 / 2 ** 30) * 1.2)}Gi\""),
    ("value.spec.volumeClaimTemplates.map(t => t.spec.resources?.requests?.storage ?? '0Mi')"
     ".reduce((mi, q) => mi + parseFloat(q) * (q.endsWith('Gi') ? 1024 : 1), 0)", STATEFULSET,
     "lambda value, context: sum(float(q[:-2]) * (1024 if q.endswith('Gi') else 1) for t in "
     "value['spec']['volumeClaimTemplates'] for q in [((t['spec'].get('resources') or {}).get('requests') or {})"
     ".get('storage', '0Mi')])"),
    ("value.spec.containers[0].env.find(e => e.name === 'FEATURES')?.value.split(',').filter(Boolean)"
     ".map(f => f.toUpperCase()) ?? []", MESH_POD,
     "lambda value, context: [f.upper() for f in next((e['value'] for e in value['spec']['containers'][0]['env'] "
     "if e['name'] == 'FEATURES'), '').split(',') if f]"),
    ("[...value.status.containerStatuses].sort((a, b) => b.restartCount - a.restartCount)"
     ".map(s => `${s.name}:${s.restartCount}`)", MESH_POD,
     "lambda value, context: [f\"{s['name']}:{s['restartCount']}\" for s in sorted(value['status']['containerStatuses'], "
     "key=lambda s: -s['restartCount'])]"),
    ("value.subsets.flatMap(s => s.addresses.map(a => ({ addresses: [a.ip], conditions: { ready: true }, "
     "...(a.nodeName && { nodeName: a.nodeName }) })))", ENDPOINTS,
     "lambda value, context: [{'addresses': [a['ip']], 'conditions': {'ready': True}, "
     "**({'nodeName': a['nodeName']} if a.get('nodeName') else {})} for s in value['subsets'] for a in s['addresses']]"),
    ("Object.entries(value.data).filter(([, v]) => v).map(([k, v]) => `${k}:${Math.ceil(v.length / 4) * 3 - "
     "(v.endsWith('==') ? 2 : v.endsWith('=') ? 1 : 0)}`)", TLS_SECRET,
     "lambda value, context: [f\"{k}:{-(-len(v) // 4) * 3 - (2 if v.endswith('==') else 1 if v.endswith('=') else 0)}\" "
     "for k, v in value['data'].items() if v]"),
    ("['true', '1', 'yes'].includes(String(value.metadata.annotations?.['sidecar.istio.io/inject'] ?? '').trim()"
     ".toLowerCase())", BATCH_POD,
     "lambda value, context: str((value['metadata'].get('annotations') or {}).get('sidecar.istio.io/inject') or '')"
     ".strip().lower() in ('true', '1', 'yes')"),
    ("(() => { const [ref, digest] = value.split('@'); const slash = ref.indexOf('/'); const full = slash > 0 && "
     "/[.:]/.test(ref.slice(0, slash)) ? ref : 'docker.io/' + (slash > 0 ? ref : 'library/' + ref); "
     "return (full.lastIndexOf(':') > full.lastIndexOf('/') ? full : full + ':latest') + (digest ? '@' + digest : ''); })()",
     "nginx",
     "lambda value, context: (lambda ref, _, digest: (lambda full: (full if full.rfind(':') > full.rfind('/') else "
     "full + ':latest') + ('@' + digest if digest else ''))(ref if '/' in ref and ('.' in (h := ref.split('/', 1)[0]) "
     "or ':' in h) else 'docker.io/' + (ref if '/' in ref else 'library/' + ref)))(*value.partition('@'))"),
    ("value >= 30000 && value <= 32767 ? value : 30000 + (value % 2768)", 8080,
     "lambda value, context: value if 30000 <= value <= 32767 else 30000 + value % 2768"),
    ("value?.map(t => t.key).filter(Boolean).join(',') || 'none'", None,
     "lambda value, context: ','.join(k for t in value or [] if (k := t.get('key'))) or 'none'"),
]

_NODE = r"""
const vm = require('vm');
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
function virtualToHostDNS(ctx) {
  return name => {
    const labels = name.split('.');
    return `${labels[0]}-x-${labels[1]}-x-${ctx.vcluster.name}.${ctx.vcluster.namespace}.svc` +
      (labels.length > 3 ? '.' + labels.slice(3).join('.') : '');
  };
}
const out = cases.map(c => {
  const sandbox = {value: c.value, context: c.context, valueExists: true, atob, btoa,
                   virtualToHostDNS: virtualToHostDNS(c.context)};
  return vm.runInNewContext(c.js, sandbox);
});
process.stdout.write(JSON.stringify(out));
"""


def main() -> None:
    cases = [{"id": f"c{i + 1:03d}", "js": js, "value": value, "context": CONTEXT} for i, (js, value) in enumerate(CASES)]
    cases += [{"id": f"c{len(CASES) + i + 1:03d}", "js": js, "python": python, "value": value, "context": CONTEXT}
              for i, (js, value, python) in enumerate(CASES_WITH_PYTHON)]
    done = subprocess.run(["node", "-e", _NODE], input=json.dumps(cases), capture_output=True, text=True, check=True)
    for case, expected in zip(cases, json.loads(done.stdout)):
        case["expected"] = expected
    lines = ",\n".join(json.dumps(case, ensure_ascii=False) for case in cases)  # (one case a line)
    description = json.dumps(__doc__.strip().split("\n\n")[0])
    OUT.write_text(f'{{"description": {description},\n"cases": [\n{lines}\n]}}\n', encoding="utf-8")


if __name__ == "__main__":
    main()
