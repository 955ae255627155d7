"""vCluster's chart defaults, and a config file merged over them as Helm merges values.

Inside a tenant cluster, vCluster reads the values Helm rendered: the chart's ``values.yaml``
with the user's file merged over it. ``context.vcluster.config`` is that merged config, so an
expression sees ``controlPlane.distro.k8s.enabled`` even when the file never mentions it.
The defaults are the 0.33.4 chart's own values file, shipped as data.
"""

from __future__ import annotations

import copy
import functools
from importlib import resources
from typing import Any, Mapping

import yaml

from .vcluster_spec import VCLUSTER_VERSION

__all__ = ["chart_defaults", "merge_values"]


@functools.lru_cache(maxsize=1)
def _defaults() -> dict[str, Any]:
    text = resources.files(__package__).joinpath(f"data/vcluster-{VCLUSTER_VERSION}-values.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def chart_defaults() -> dict[str, Any]:
    """A fresh copy of the chart's default values."""
    return copy.deepcopy(_defaults())


def merge_values(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Helm's rule: mappings merge key by key, anything else replaces, a null removes the key."""
    out = dict(base)
    for key, value in override.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge_values(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out
