"""The bundled examples: every config validates, and (once the JS compiler is present) each
sample object is snapshotted in both directions and round-trips where the pair cancels."""

import io

import attrs
import pytest
import yaml

from syncpatch.patches import compile_config
from syncpatch.patches.demo import EXAMPLES_DIR, load_samples, run_demo, run_sample

SAMPLES = load_samples()
CONFIGS = sorted(p for p in EXAMPLES_DIR.glob("*.yaml") if p.name != "samples.yaml")


def inert_compiler(source):
    def patch(value, context, *, value_exists=True):
        return value
    return patch


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.stem)
def test_every_example_config_validates(config):
    compiled = compile_config(yaml.safe_load(config.read_text()), compiler=inert_compiler)
    assert compiled.plans or compiled.warnings


def test_samples_cover_endpoints_services_and_secrets():
    kinds = {s.object["kind"] for s in SAMPLES}
    assert {"Endpoints", "Service", "Secret"} <= kinds
    for sample in SAMPLES:
        assert sample.config_file.exists() and sample.object_file.exists()


def test_endpoints_disabled_example_warns():
    compiled = compile_config(yaml.safe_load((EXAMPLES_DIR / "endpoints-disabled.yaml").read_text()))
    assert [str(w) for w in compiled.warnings] == [
        "sync.toHost.endpoints.enabled: warning: endpoints sync is disabled while services sync is "
        "enabled: Services without a selector will have no backends on the host"
    ]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.id)
def test_sample_snapshots_both_directions(sample, snapshot):
    run = run_sample(sample)
    assert {
        "forward": run.forward.object,
        "imports": [attrs.asdict(record) for record in run.forward.imports],
        "back": run.back,
    } == snapshot


@pytest.mark.parametrize("sample", [s for s in SAMPLES if s.round_trip], ids=lambda s: s.id)
def test_round_trip_restores_the_original(sample):
    run = run_sample(sample)
    assert run.forward.object != sample.object
    assert run.back == sample.object


def sample_named(object_stem, config_stem=None):
    return next(s for s in SAMPLES if s.object_file.stem == object_stem
                and (config_stem is None or s.config_file.stem == config_stem))


def test_endpoints_every_port_of_every_subset_is_prefixed():
    out = run_sample(sample_named("endpoints")).forward.object
    names = [p["name"] for subset in out["subsets"] for p in subset["ports"]]
    assert names == ["host-http", "host-metrics", "host-grpc"]
    assert out["metadata"]["annotations"]["example.com/synced-from"] == "my-vcluster/default"


def test_secret_url_is_rewritten_inside_base64():
    import base64
    out = run_sample(sample_named("secret")).forward.object
    url = base64.b64decode(out["data"]["database-url"]).decode()
    assert url == "postgres://app:s3cret@db-x-default-x-my-vcluster.vcluster-my-vcluster.svc:5432/app"
    assert out["metadata"]["labels"] == {"env": "tenant-dev", "app": "web"}


def test_external_name_service_points_at_the_host_service():
    out = run_sample(sample_named("service-externalname")).forward.object
    assert out["spec"]["externalName"] == "postgres-x-data-x-my-vcluster.vcluster-my-vcluster.svc.cluster.local"
    assert out["metadata"]["annotations"]["example.com/owner"] == "payments"


def test_nodes_from_host_run_expression_towards_the_tenant():
    out = run_sample(sample_named("node")).forward.object
    assert out["spec"]["providerID"] == "tenant://i-0123456789abcdef0"
    assert "node.kubernetes.io/instance-type" not in out["metadata"]["labels"]


def test_demo_prints_endpoints_services_and_secrets():
    out = io.StringIO()
    assert run_demo(out) == 0
    text = out.getvalue()
    for kind in ("== Endpoints", "== Service", "== Secret"):
        assert kind in text
    assert "DIFFERS" not in text and "FAILED" not in text
