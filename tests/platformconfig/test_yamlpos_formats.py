"""YAML positions and value formats, including property tests of the parsers."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from syncpatch.platformconfig import ConfigInvalid
from syncpatch.platformconfig.formats import (check_qualified_name, go_duration_seconds,
                                              parse_quantity, split_data_source)
from syncpatch.platformconfig.masking import MASK, mask_data_source
from syncpatch.platformconfig.documents import format_path, load_document, load_documents


def test_positions_are_one_based_for_keys_and_values() -> None:
    doc = load_document("a:\n  b:\n    - x: 1\n      y: two\n")
    assert doc.locate(("a", "b", 0, "y")) == (4, 10)
    assert doc.locate(("a", "b", 0, "y"), at_key=True) == (4, 7)
    assert doc.locate(("a", "b", 0, "missing")) == (3, 7)  # nearest ancestor: the list item
    assert doc.locate(("nope", "deeper")) == (1, 1)


def test_timestamps_stay_strings() -> None:
    assert load_document("t: 2024-05-01T12:00:00Z\nd: 2024-05-01\n").data == {
        "t": "2024-05-01T12:00:00Z", "d": "2024-05-01"}


def test_empty_and_multi_document() -> None:
    assert load_document("").data == {}
    assert [d.data for d in load_documents("a: 1\n---\nb: 2\n")] == [{"a": 1}, {"b": 2}]
    with pytest.raises(ConfigInvalid, match="expected one YAML document"):
        load_document("a: 1\n---\nb: 2\n")


def test_unsafe_tags_are_refused() -> None:
    with pytest.raises(ConfigInvalid, match="invalid YAML"):
        load_document("a: !!python/object/apply:os.system [echo hi]\n")


def test_format_path() -> None:
    assert format_path(("auth", "connectors", 2, "gitHostB", "redirectURI")) == "auth.connectors[2].gitHostB.redirectURI"
    assert format_path(("metadata", "labels", "app.kubernetes.io/name")) == 'metadata.labels["app.kubernetes.io/name"]'
    assert format_path(()) == ""


@pytest.mark.parametrize(("value", "seconds"), [("1m", 60), ("1h30m", 5400), ("1.5s", 1.5), ("300ms", 0.3),
                                                ("0", 0), ("2h45m30s", 9930), ("1us", 1e-6), ("bad", None),
                                                ("1", None), ("", None)])
def test_go_duration(value: str, seconds: float | None) -> None:
    result = go_duration_seconds(value)
    assert result == pytest.approx(seconds) if seconds is not None else result is None


@given(st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(["h", "m", "s", "ms"])), min_size=1, max_size=4))
def test_go_duration_sums_its_parts(parts: list[tuple[int, str]]) -> None:
    scale = {"h": 3600, "m": 60, "s": 1, "ms": 0.001}
    text = "".join(f"{n}{u}" for n, u in parts)
    assert go_duration_seconds(text) == pytest.approx(sum(n * scale[u] for n, u in parts))


@pytest.mark.parametrize(("value", "expected"), [("500m", "0.5"), ("1Gi", str(2**30)), ("2", "2"), ("1e3", "1000"),
                                                 ("1.5k", "1500"), ("100M", "100000000"), ("-1", "-1"),
                                                 ("1GB", None), ("Gi", None), ("1.2.3", None)])
def test_quantities(value: str, expected: str | None) -> None:
    result = parse_quantity(value)
    assert result == (Decimal(expected) if expected is not None else None)


@given(st.integers(0, 10**6), st.sampled_from(["", "k", "M", "Ki", "Mi", "m"]))
def test_quantity_scaling_is_monotonic(number: int, suffix: str) -> None:
    low, high = parse_quantity(f"{number}{suffix}"), parse_quantity(f"{number + 1}{suffix}")
    assert low is not None and high is not None and low < high


@given(st.text(alphabet=st.characters(blacklist_characters="\n"), min_size=1, max_size=30))
def test_data_source_password_never_survives_masking(password: str) -> None:
    value = f"postgres://user:{password}@db.example.com:5432/platform"
    parts = split_data_source(value)
    assert parts is not None and parts["password"] == password
    assert mask_data_source(value) == f"postgres://user:{MASK}@db.example.com:5432/platform"


@pytest.mark.parametrize(("name", "ok"), [("a", True), ("example.com/a-b_c.d", True), ("a" * 63, True),
                                          ("a" * 64, False), ("-a", False), ("a/", False), ("Example.com/a", False)])
def test_qualified_names(name: str, ok: bool) -> None:
    assert (check_qualified_name(name) is None) == ok
