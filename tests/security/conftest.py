"""The ``through`` fixture: each security row runs through both exits (``exits.py``)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from .exits import ArtifactExit, closure

#: the row tables whose sources go into the one session artifact up front (others are built
#: on first use)
TABLES = ["test_python_attributes", "test_code_from_strings_and_globals", "test_prototype_pollution",
          "test_getters_and_define_property", "test_resource_bombs", "test_input_mutation", "test_leaks"]


@pytest.fixture(scope="session")
def artifact(tmp_path_factory: pytest.TempPathFactory) -> ArtifactExit:
    made = ArtifactExit(tmp_path_factory.mktemp("artifact-exit"))
    sources = []
    for stem in TABLES:
        module = importlib.import_module(f".{stem}", __package__)
        sources += [case.src for case in module.CASES]
    made.prepare(sources)
    return made


@pytest.fixture(params=["closure", "artifact"])
def through(request: pytest.FixtureRequest) -> Any:
    """``compiler(src, budgets) -> fn(value, context)`` of one exit."""
    if request.param == "closure":
        return closure
    return request.getfixturevalue("artifact")
