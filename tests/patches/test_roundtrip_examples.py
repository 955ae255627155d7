"""The examples through our own pytest plugin: one line per sample object (issue 5: "use it
in our own tests for examples/"). Skipped until the compiler stage has landed."""

from pathlib import Path

import pytest
import yaml


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SAMPLES = yaml.safe_load((EXAMPLES / "samples.yaml").read_text())["samples"]



@pytest.mark.parametrize("s", SAMPLES, ids=lambda s: f"{Path(s['config']).stem}-{Path(s['object']).stem}")
def test_example(patch_snapshot, s):
    patch_snapshot(EXAMPLES / s["config"], f"{s['side']}.{s['resource']}", EXAMPLES / s["object"],
                   direction=s["direction"], round_trip=s["roundTrip"])
