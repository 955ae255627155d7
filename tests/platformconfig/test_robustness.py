"""Arbitrary input never escapes as anything but `ConfigInvalid`, and masking never crashes.

Generated documents mix real field names with junk and wrong types, which exercises the
error conversion and the prune-and-revalidate loop rather than the happy path.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syncpatch.platformconfig import (ConfigInvalid, effective_config, mask_secrets, status_to_dict,
                                      validate_config_object)
from syncpatch.platformconfig.files import check_text
from syncpatch.platformconfig.validate import validate_status

KEYS = ["auth", "oidc", "connectors", "id", "gitHostB", "idpA", "saml", "clientId", "clientSecret",
        "redirectURI", "caData", "audit", "enabled", "path", "level", "policy", "rules", "resources",
        "resourceNames", "nonResourceURLs", "secretStore", "syncInterval", "database", "dataSource",
        "costControl", "global", "metrics", "retention", "limits", "requests", "claims", "name",
        "uiSettings", "navBarButtons", "position", "platformDB", "storageClass", "metadata", "labels",
        "finalizers", "ownerReferences", "controller", "x", "groupsFilters", "maintenanceWindow",
        "timeWindow", "cloud", "imageBuilder", "apps", "repositories", "password", "token"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["*", "/a/*", "1m", "500m", "-", "a:b@c:1/d"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)), max_leaves=25)
DOCS = st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCS)
def test_validation_only_raises_config_invalid(data: dict[str, Any]) -> None:
    try:
        status = validate_status(data)
    except ConfigInvalid as exc:
        assert exc.errors and all(e.message for e in exc.errors)
        return
    status_to_dict(status)


@settings(max_examples=200, deadline=None)
@given(DOCS)
def test_object_validation_only_raises_config_invalid(metadata: dict[str, Any]) -> None:
    obj = {"apiVersion": "management.platform.sh/v1", "kind": "Config", "metadata": metadata}
    try:
        validate_config_object(obj)
    except ConfigInvalid as exc:
        assert exc.errors


@settings(max_examples=200, deadline=None)
@given(DOCS)
def test_masking_never_crashes(data: dict[str, Any]) -> None:
    masked = mask_secrets({"status": data, "spec": {"raw": "auth: {oidc: {clientSecret: s}}"}})
    assert "clientSecret: s" not in masked["spec"]["raw"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_text_gives_a_result_or_config_invalid(text: str) -> None:
    try:
        effective_config(text)
    except ConfigInvalid:
        pass
    for result in check_text(text, "t.yaml"):
        assert result.config is not None or result.errors


def test_alias_bomb_is_refused_quickly() -> None:
    import time

    import pytest

    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    start = time.monotonic()
    with pytest.raises(ConfigInvalid, match="document too large"):
        effective_config("\n".join(lines) + "\n")
    assert time.monotonic() - start < 5


def test_recursive_alias_and_deep_nesting_are_refused() -> None:
    import pytest

    with pytest.raises(ConfigInvalid, match="recursive|nested"):
        effective_config("a: &a\n  b: *a\n")
    with pytest.raises(ConfigInvalid, match="nested too deeply"):
        effective_config("a: " + "[" * 200 + "]" * 200 + "\n")
    with pytest.raises(ConfigInvalid, match="nested too deeply"):
        effective_config("a: " + "[" * 5000 + "]" * 5000 + "\n")


def test_aliases_within_budget_work() -> None:
    status = effective_config("auth:\n  groupsFilters: &g [a, b]\nuiSettings:\n  customCss: *g\n")
    assert status.ui_settings is not None and status.ui_settings.custom_css == ["a", "b"]


def test_mask_raw_with_alias_bomb_masks_everything() -> None:
    from syncpatch.platformconfig import MASK, mask_raw

    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    assert mask_raw("\n".join(lines)) == MASK
