"""pytest plugin (entry point ``pytest11: syncpatch``): snapshot-test patch configs in one line.

::

    def test_endpoints(patch_snapshot):
        patch_snapshot("vcluster.yaml", "endpoints", "objects/endpoints.yaml", round_trip=True)

The fixture compiles the config (once per session and file), applies its patches to the
object, and compares input, output, import records and (with ``round_trip``) the object synced
back with a syrupy snapshot. Paths are relative to the test file. A config with errors fails
the test with the same located diagnostics ``compile-patches`` prints.

The plugin is loaded into every pytest session of an environment with syncpatch installed, so
it imports nothing heavy until a test uses the fixture.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

__all__ = ["patch_snapshot", "apply_patches", "PatchConfigError"]

_OTHER = {"to_host": "from_host", "from_host": "to_host"}
_DIRECTIONS = {"to-host": "to_host", "to_host": "to_host", "from-host": "from_host", "from_host": "from_host"}
_CACHE: dict[Path, Any] = {}


class PatchConfigError(AssertionError):
    """The config under test does not compile; ``str()`` holds the located diagnostics."""


def _compiled(config: Path) -> Any:
    """Compile once per config file and session (configs do not change during a run)."""
    if config not in _CACHE:
        from syncpatch.patches.build import check_config_file
        from syncpatch.patches.diagnostics import render_plain

        report = check_config_file(config)
        if report.compiled is None:
            errors = [d for d in report.diagnostics if d.severity == "error"]
            raise PatchConfigError(render_plain(errors, {report.filename: report.text}))
        _CACHE[config] = report.compiled
    return _CACHE[config]


def _load_object(obj: Any, base: Path) -> Any:
    if isinstance(obj, (str, Path)):
        from syncpatch.yamlsource import YamlSyntaxError, load_data

        try:
            return load_data((base / obj).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, YamlSyntaxError) as exc:
            raise ValueError(f"cannot read the object {base / obj}: {getattr(exc, 'strerror', None) or exc}") from None
    return obj


def _direction(direction: str) -> str:
    way = _DIRECTIONS.get(direction)
    if way is None:
        raise ValueError(f"unknown direction {direction!r}: use to-host or from-host")
    return way


def _import_record(record: Any) -> Any:
    import attrs

    return attrs.asdict(record) if attrs.has(type(record)) else repr(record)


def apply_patches(config: str | Path, resource: str, obj: Any, *, direction: str = "to-host",
                  vcluster_name: str = "my-vcluster", vcluster_namespace: str = "vcluster-my-vcluster",
                  context: dict[str, Any] | None = None, round_trip: bool = False,
                  base: Path | None = None) -> dict[str, Any]:
    """Apply a config's patches to ``obj`` and return what the snapshot records."""
    from syncpatch.patches.testcases import parse_resource

    root = base or Path.cwd()
    compiled = _compiled((root / config).resolve())
    side, key = parse_resource(resource)
    plan = compiled.plan(side, key)
    way = _direction(direction)
    ctx = {"vcluster": compiled.context(vcluster_name, vcluster_namespace)["vcluster"], **(context or {})}
    source = _load_object(obj, root)
    result = plan.apply(way, source, ctx)
    record: dict[str, Any] = {
        "direction": way,
        "input": source,
        "output": result.object,
        "imports": [_import_record(r) for r in result.imports],
    }
    if round_trip:
        # the way back sees both objects, as a syncer does (reference patches need the tenant's)
        tenant, host = (source, result.object) if way == "to_host" else (result.object, source)
        back_ctx = {**ctx, "virtualObject": tenant, "hostObject": host}
        record["back"] = plan.apply(_OTHER[way], result.object, back_ctx).object
    return record


@pytest.fixture
def patch_snapshot(request: pytest.FixtureRequest) -> Callable[..., dict[str, Any]]:
    """``patch_snapshot(config, resource, obj, direction="to-host", round_trip=False, ...)``
    asserts the patched result against a syrupy snapshot and returns the recorded dict.

    With ``round_trip=True`` it also asserts that syncing the result back restores the input.
    """
    snapshot = request.getfixturevalue("snapshot")  # syrupy's fixture
    base = Path(str(request.path)).parent

    def check(config: str | Path, resource: str, obj: Any, **kwargs: Any) -> dict[str, Any]:
        __tracebackhide__ = True
        from syncpatch.resources import UnknownResourceError

        try:
            record = apply_patches(config, resource, obj, base=base, **kwargs)
        except (UnknownResourceError, ValueError) as exc:  # a typo in the test, not a failing patch
            pytest.fail(f"patch_snapshot: {exc}", pytrace=False)
        if not record == snapshot:  # syrupy's own report: "does not exist", or its diff
            from syrupy import pytest_assertrepr_compare

            lines = pytest_assertrepr_compare(request.config, "==", record, snapshot) or []
            raise AssertionError("\n".join(lines))
        if kwargs.get("round_trip"):
            assert record["back"] == record["input"], "syncing the result back did not restore the input"
        return record

    return check
