"""Fixtures for the whole suite, from tests/support."""

pytest_plugins = ["tests.support.clock"]
