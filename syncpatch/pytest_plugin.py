"""pytest plugin entry point (registered under `pytest11`).

Fixtures for snapshot-testing patch configs are added by the compile-patches work.
"""
