"""The patch path language: segments, errors with columns, and context.path formatting."""

import pickle

import pytest

from syncpatch.runtime.paths import (
    WILDCARD,
    Index,
    Key,
    PathError,
    format_concrete_path,
    format_segments,
    parse_path,
)


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("a.b.c", (Key("a"), Key("b"), Key("c"))),
        ("spec.ports[*].name", (Key("spec"), Key("ports"), WILDCARD, Key("name"))),
        ("metadata.labels[*]", (Key("metadata"), Key("labels"), WILDCARD)),
        ('metadata.annotations["example.com/key"]',
         (Key("metadata"), Key("annotations"), Key("example.com/key", bracket=True))),
        ("spec.containers[3].image", (Key("spec"), Key("containers"), Index(3), Key("image"))),
        ('a."dotted.key".b', (Key("a"), Key("dotted.key", quoted=True), Key("b"))),
        (".a..b.", (Key("a"), Key("b"))),
        ("", ()),
        ("a[*][*]", (Key("a"), WILDCARD, WILDCARD)),
        ("a.*.b", (Key("a"), WILDCARD, Key("b"))),
        ('a["x\\"y"]', (Key("a"), Key('x"y', bracket=True))),
        ('a["with ] and ["]', (Key("a"), Key("with ] and [", bracket=True))),
    ],
)
def test_parses_into_typed_segments(path, segments):
    assert parse_path(path) == segments


@pytest.mark.parametrize(
    ("path", "column", "fragment"),
    [
        ("metadata.annotations['key']", 22, 'use double quotes, e.g. ["key"]'),
        ("a.'b'", 3, "use double quotes"),
        ("a[", 3, "unterminated '['"),
        ("a[b[c]]", 4, "write the key whole"),
        ("a[-1]", 3, "non-negative index"),
        ("a[1", 4, "missing ']'"),
        ('a["k', 3, "unterminated double-quoted key"),
        ('a["k"', 6, "missing ']'"),
        ("a]", 2, "unexpected ']'"),
        ('a[0]b', 5, "expected '.' or '['"),
        ('a."b"c', 6, "expected '.' or '['"),
        ('ab"c"', 3, "a quote may only start a segment"),
    ],
)
def test_errors_report_the_column(path, column, fragment):
    with pytest.raises(PathError) as info:
        parse_path(path)
    assert info.value.column == column
    assert fragment in info.value.message
    assert f"column {column}" in str(info.value)
    # the caret line points at the column
    assert str(info.value).splitlines()[-1].index("^") == column + 1


def test_path_error_pickles():
    with pytest.raises(PathError) as info:
        parse_path("a['b']")
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.message, again.path, again.column) == (info.value.message, "a['b']", 3)


@pytest.mark.parametrize(
    ("parts", "text"),
    [
        (("spec", "ports", 0, "name"), "spec.ports.0.name"),
        (("metadata", "annotations", "example.com/key"), 'metadata.annotations."example.com/key"'),
        (("data", "a[0]"), 'data."a[0]"'),
        (("data", 'q"uote.d'), 'data."q\\"uote.d"'),
        ((), ""),
    ],
)
def test_concrete_path_formatting(parts, text):
    assert format_concrete_path(parts) == text


@pytest.mark.parametrize(
    "parts",
    [("spec", "ports", 0, "name"), ("metadata", "annotations", "example.com/key"), ("a", 'b"c.d')],
)
def test_concrete_paths_parse_back_to_the_same_keys(parts):
    segments = parse_path(format_concrete_path(parts))
    assert [s.name for s in segments] == [str(p) for p in parts]


def test_format_segments_round_trips():
    for path in ['spec.ports[*].name', 'metadata.annotations["a.b/c"]', 'a."x.y".b[2]', "a[*][*]"]:
        assert parse_path(format_segments(parse_path(path))) == parse_path(path)
