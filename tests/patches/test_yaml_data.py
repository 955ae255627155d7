"""``yamlsource.load_data``: Kubernetes objects and request bodies read as configs are."""

from __future__ import annotations

import pytest

from syncpatch.yamlsource import YamlSyntaxError, load_data, load_data_all


def test_timestamps_and_dates_stay_text_and_other_scalars_resolve_as_yaml_does() -> None:
    got = load_data("at: 2024-01-02T03:04:05Z\nday: 2024-01-01\nversion: 1.10\nenabled: yes\nport: 80\n")
    assert got == {"at": "2024-01-02T03:04:05Z", "day": "2024-01-01", "version": 1.1, "enabled": True, "port": 80}
    assert load_data_all("a: 2024-01-01\n---\n---\nb: 1\n") == [{"a": "2024-01-01"}, None, {"b": 1}]


def test_bad_yaml_is_positioned_and_worded_as_configs_are() -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load_data("kind: Pod\nmetadata:\n  name: [web\n")
    assert (info.value.line, info.value.column) == (3, 9)
    assert "this '[' is never closed" in info.value.message
    with pytest.raises(YamlSyntaxError) as info:
        load_data("a: !!python/object/apply:os.system [id]\n")
    assert "could not determine a constructor" in info.value.message


def test_without_rewording_bad_input_is_answered_by_the_c_parser_alone() -> None:
    """A server's request bodies: no second, slower parse of bad input (the C parser's words,
    still at a line and column)."""
    with pytest.raises(YamlSyntaxError) as info:
        load_data("kind: Pod\nmetadata:\n  name: [web\n", reword=False)
    assert "never closed" not in info.value.message and info.value.line >= 3
    big = "k: " + "y" * 20_000 + "\nname: [web\n"  # past the rewording limit: the C parser's words too
    with pytest.raises(YamlSyntaxError) as info:
        load_data(big)
    assert "never closed" not in info.value.message
