"""The bundled examples: load ``examples/samples.yaml``, run each sample both ways, print them.

``run_demo()`` is what ``make demo`` calls for the patch part; the example tests use
:func:`load_samples` and :func:`run_sample` so the demo and the snapshots cannot drift apart.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

import attrs
import yaml

from syncpatch.runtime.plan import PatchResult
from syncpatch.yamlsource import load_data

from .compile import CompiledConfig, ConfigError, Side, compile_config

__all__ = ["EXAMPLES_DIR", "Sample", "SampleRun", "load_samples", "run_sample", "run_demo"]

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"


@attrs.frozen
class Sample:
    """One sample object of one example config, synced in ``direction``."""

    config_file: Path
    side: Side
    resource: str
    object: Any
    object_file: Path
    direction: str
    round_trip: bool
    vcluster_name: str
    vcluster_namespace: str

    @property
    def id(self) -> str:
        return f"{self.config_file.stem}-{self.object_file.stem}"


@attrs.frozen
class SampleRun:
    """The sample synced forward (``direction``) and the result synced back again."""

    compiled: CompiledConfig
    forward: PatchResult
    back: Any


def _load_yaml(path: Path) -> Any:
    return load_data(path.read_text(encoding="utf-8"))


def load_samples(examples_dir: Path = EXAMPLES_DIR) -> list[Sample]:
    """Read ``samples.yaml`` and the sample objects it names."""
    index = _load_yaml(examples_dir / "samples.yaml")
    vcluster = index["vcluster"]
    samples = []
    for item in index["samples"]:
        object_file = examples_dir / item["object"]
        samples.append(Sample(
            config_file=examples_dir / item["config"],
            side=item["side"],
            resource=item["resource"],
            object=_load_yaml(object_file),
            object_file=object_file,
            direction=item["direction"],
            round_trip=bool(item.get("roundTrip", False)),
            vcluster_name=vcluster["name"],
            vcluster_namespace=vcluster["namespace"],
        ))
    return samples


def run_sample(sample: Sample) -> SampleRun:
    """Compile the sample's config and sync its object forward, then back.

    The forward context has the sample as its source object; the backward one has both, as
    the syncer would (which is what lets reference patches restore tenant names).
    """
    compiled = compile_config(_load_yaml(sample.config_file))
    plan = compiled.plan(sample.side, sample.resource)
    name, namespace = sample.vcluster_name, sample.vcluster_namespace
    obj = sample.object
    if sample.direction == "to_host":
        forward = plan.to_host(obj, compiled.context(name, namespace, virtual_object=obj), with_imports=True)
        back_ctx = compiled.context(name, namespace, host_object=forward.object, virtual_object=obj)
        back = plan.from_host(forward.object, back_ctx)
    else:
        forward = plan.from_host(obj, compiled.context(name, namespace, host_object=obj), with_imports=True)
        back_ctx = compiled.context(name, namespace, host_object=obj, virtual_object=forward.object)
        back = plan.to_host(forward.object, back_ctx)
    return SampleRun(compiled, forward, back)


def _dump(obj: Any, out: TextIO) -> None:
    text = yaml.safe_dump(obj, sort_keys=False, default_flow_style=False)
    out.write("".join("    " + line + "\n" for line in text.splitlines()))


def _print_run(sample: Sample, run: SampleRun, out: TextIO) -> None:
    kind = sample.object.get("kind", "?")
    arrow = "tenant -> host" if sample.direction == "to_host" else "host -> tenant"
    out.write(f"\n== {kind} {sample.object_file.name} with {sample.config_file.name} ({arrow})\n")
    _dump(run.forward.object, out)
    for record in run.forward.imports:
        out.write(f"  import {record.kind} {record.namespace}/{record.name} "
                  f"<-> host {record.host_namespace}/{record.host_name}\n")
    if sample.round_trip:
        verdict = "restores the original" if run.back == sample.object else "DIFFERS from the original"
        out.write(f"  synced back: {verdict}\n")


def run_demo(out: TextIO | None = None, examples_dir: Path = EXAMPLES_DIR) -> int:
    """Print every sample object patched by its example config; 1 when any sample fails."""
    stream = out or sys.stdout
    status = 0
    for sample in load_samples(examples_dir):
        try:
            _print_run(sample, run_sample(sample), stream)
        except (ConfigError, Exception) as exc:  # the demo reports and carries on
            stream.write(f"\n== {sample.id}: FAILED: {exc}\n")
            status = 1
    for config in sorted(examples_dir.glob("*.yaml")):
        if config.name == "samples.yaml":
            continue
        try:
            warnings = compile_config(_load_yaml(config)).warnings
        except Exception:  # already reported above when a sample uses it
            continue
        for warning in warnings:
            stream.write(f"\n{config.name}: {warning}\n")
    return status
