"""Positions inside YAML scalars: an expression's own line/column mapped to the file, per style."""

import pytest
import yaml

from syncpatch.yamlsource import YamlSyntaxError, load_yaml, scalar_offsets

P = ("sync", "toHost", "endpoints", "patches")

DOC = '''sync:
  toHost:
    endpoints:
      patches:
        - path: literal
          expression: |
            value +
              "x" + foo
        - path: double
          expression: "value +\\n \\"x\\" + foo\\u0021 + bar"
        - path: single
          expression: '"it''s" + foo'
        - path: plain
          expression: value
            + foo

            + bar
        - path: folded
          expression: >
            value +
            foo
        - path: literal-keep
          expression: |2-
              a
            b
'''


@pytest.fixture(scope="module")
def doc():
    return load_yaml(DOC, "cfg.yaml")


def text_at(doc, line, column, n):
    return doc.lines[line - 1][column - 1 : column - 1 + n]


@pytest.mark.parametrize(
    "index, expr_pos, file_pos, token",
    [
        (0, (1, 1), (7, 13), "value"),
        (0, (2, 9), (8, 21), "foo"),
        (0, (2, 3), (8, 15), '"x"'),
        (1, (2, 8), (10, 42), "foo"),
        (1, (2, 15), (10, 54), "bar"),  # after a \u0021 escape (6 source chars, 1 value char)
        (1, (2, 2), (10, 34), '\\"x'),  # an escaped quote maps to its backslash
        (2, (1, 10), (12, 34), "foo"),  # after '' (2 source chars, 1 value char)
        (3, (1, 9), (15, 15), "foo"),  # a plain scalar folded over lines
        (3, (2, 3), (17, 15), "bar"),  # after an empty line (a \n in the value)
        (4, (1, 9), (21, 13), "foo"),  # folded block: line breaks became spaces
        (5, (1, 3), (24, 15), "a"),  # more-indented first line (indentation indicator)
        (5, (2, 1), (25, 13), "b"),
    ],
)
def test_expression_position_maps_into_scalar(doc, index, expr_pos, file_pos, token):
    assert doc.scalar_position((*P, index, "expression"), *expr_pos) == file_pos
    assert text_at(doc, *file_pos, len(token)) == token


def test_end_of_input_points_just_after_the_expression(doc):
    node, _, _ = doc.node_at((*P, 2, "expression"))
    end = len(node.value) + 1
    line, column = doc.scalar_position((*P, 2, "expression"), 1, end)
    assert (line, column) == (12, 37)
    assert doc.lines[11][column - 1] == "'"  # the closing quote follows the last character


def test_every_style_rebuilds_the_exact_value(doc):
    for index in range(6):
        node, _, _ = doc.node_at((*P, index, "expression"))
        offsets = scalar_offsets(node, DOC)
        assert len(offsets) == len(node.value) + 1
        non_blank = [(ch, DOC[off]) for ch, off in zip(node.value, offsets) if not ch.isspace()]
        # every visible character maps onto itself (escapes map onto their backslash)
        assert all(src == ch or src == "\\" for ch, src in non_blank), (index, non_blank)


def test_position_of_missing_key_is_its_nearest_ancestor(doc):
    assert doc.position((*P, 0, "reverseExpression")) == (5, 11)  # the entry's first key
    assert doc.position((*P, 0, "path")) == (5, 17)
    assert doc.position((*P, 0, "path"), at_key=True) == (5, 11)


def test_yaml_syntax_error_has_position():
    with pytest.raises(YamlSyntaxError) as info:
        load_yaml("sync:\n  toHost: [a\n", "bad.yaml")
    assert (info.value.line, info.value.column) == (2, 11)  # the bracket that is never closed
    assert "invalid YAML" in info.value.message


def test_data_matches_pyyaml(doc):
    assert doc.data == yaml.safe_load(DOC)


def test_crlf_files_map_the_same():
    crlf = load_yaml(DOC.replace("\n", "\r\n"), "cfg.yaml")
    lf = load_yaml(DOC, "cfg.yaml")
    for index, pos in ((0, (2, 9)), (1, (2, 8)), (3, (2, 3)), (4, (1, 9)), (5, (2, 1))):
        path = (*P, index, "expression")
        assert crlf.scalar_position(path, *pos) == lf.scalar_position(path, *pos), index
