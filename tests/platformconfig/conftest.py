"""Shared fixtures for the platform Config tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from syncpatch.platformconfig import ConfigInvalid, FieldError, effective_config

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "platform"


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


@pytest.fixture
def errors_of() -> Callable[[str], list[FieldError]]:
    """Validate a raw config that must be invalid; its errors."""

    def run(raw: str) -> list[FieldError]:
        with pytest.raises(ConfigInvalid) as info:
            effective_config(raw, source="t.yaml")
        return info.value.errors

    return run


@pytest.fixture
def messages_of(errors_of: Callable[[str], list[FieldError]]) -> Callable[[str], dict[str, str]]:
    """path -> message of every error of an invalid raw config (one message per path)."""

    def run(raw: str) -> dict[str, str]:
        return {e.path: e.message for e in errors_of(raw)}

    return run
