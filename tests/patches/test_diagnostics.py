"""Each diagnostic of the build step: exact file:line:column, code, hint, and the rendered text.

The compiler stage is replaced by a small fake here (an expression containing ``@`` fails to
compile at the ``@``), so these tests pin our side of the contract: placing compile errors
inside the expression, classification, hints, and rendering. The same checks run against the
real compiler in ``test_diagnostics_compiler.py``.
"""

import json

import pytest

from syncpatch.patches.build import check_config_text
from syncpatch.patches.diagnostics import Diagnostic, has_failures, render_json, render_plain, summary_line


class CompileError(Exception):
    def __init__(self, message, line, column):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


FUNCTIONS = {
    '"host-" + value': lambda v, c, value_exists=True: "host-" + v,
    'value.slice(5)': lambda v, c, value_exists=True: v[5:],
    'value.slice(4)': lambda v, c, value_exists=True: v[4:],
    "value.toUpperCase()": lambda v, c, value_exists=True: v.upper(),
    "value.toLowerCase()": lambda v, c, value_exists=True: v.lower(),
}


def fake_compiler(source):
    at = source.find("@")
    if at >= 0:
        line = source.count("\n", 0, at) + 1
        column = at - (source.rfind("\n", 0, at) + 1) + 1
        raise CompileError("Unexpected character '@'", line, column)
    return FUNCTIONS.get(source.strip(), lambda v, c, value_exists=True: v)


def check(text, **kwargs):
    return check_config_text(text, "vcluster.yaml", compiler=fake_compiler, **kwargs)


def only(report, code):
    found = [d for d in report.diagnostics if d.code == code]
    assert len(found) == 1, report.diagnostics
    return found[0]


def rendered(report):
    return render_plain(list(report.diagnostics), {report.filename: report.text})


EXPR_IN_BLOCK = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: subsets[*].ports[*].name
          expression: |
            "host-" +
              value @ 2
"""


def test_compile_error_points_into_literal_block(snapshot):
    report = check(EXPR_IN_BLOCK)
    diag = only(report, "expression-syntax")
    assert (diag.line, diag.column, diag.severity) == (8, 21, "error")
    assert report.text.splitlines()[7][20] == "@"
    assert rendered(report) == snapshot


def test_compile_error_points_into_double_quoted_scalar_with_escapes(snapshot):
    text = 'sync:\n  toHost:\n    secrets:\n      patches:\n        - path: data.x\n' \
           '          expression: "\\"a\\\\b\\" + \\u0076alue @"\n'
    report = check(text)
    diag = only(report, "expression-syntax")
    assert (diag.line, diag.column) == (6, 46)
    assert report.text.splitlines()[5][45] == "@"
    assert rendered(report) == snapshot


def test_single_quoted_path_key(snapshot):
    text = """\
sync:
  toHost:
    services:
      patches:
        - path: metadata.annotations['example.com/owner']
          expression: '"me"'
"""
    report = check(text)
    diag = only(report, "path-single-quote")
    assert (diag.line, diag.column) == (5, 38)
    assert report.text.splitlines()[4][37] == "'"
    assert "metadata.annotations[\"example.com/owner\"]" in diag.hint
    assert rendered(report) == snapshot


BARE_WORD = """\
sync:
  toHost:
    configMaps:
      patches:
        - path: metadata.labels["tier"]
          expression: vcp-eks
"""


def test_bare_word_meant_as_string(snapshot):
    report = check(BARE_WORD)
    diag = only(report, "undeclared-global")
    assert (diag.line, diag.column, diag.length, diag.severity) == (6, 23, 7, "error")
    assert diag.hint.startswith('did you mean the string "vcp-eks"?')
    assert has_failures(report.diagnostics)
    assert rendered(report) == snapshot


def test_undeclared_name_inside_a_larger_expression():
    text = BARE_WORD.replace("vcp-eks", "'value + suffix'")
    diag = only(check(text), "undeclared-global")
    assert (diag.line, diag.column, diag.length) == (6, 32, 6)
    assert diag.message.startswith("`suffix` is not defined")
    assert diag.hint.startswith('did you mean the string "suffix"?')


def test_misspelt_global_suggests_the_known_name():
    text = BARE_WORD.replace("vcp-eks", "vaule.trim()")
    diag = only(check(text), "undeclared-global")
    assert diag.hint == "did you mean `value`?"


IN_ARRAY = """\
sync:
  toHost:
    pods:
      patches:
        - path: metadata.labels.env
          expression: 'value in ["dev", "test"] ? "nonprod" : value'
"""


def test_in_array_is_a_warning(snapshot):
    report = check(IN_ARRAY)
    diag = only(report, "in-array")
    assert (diag.line, diag.column, diag.severity) == (6, 30, "warning")
    assert report.text.splitlines()[5][29:31] == "in"
    assert not has_failures(report.diagnostics)
    assert has_failures(report.diagnostics, strict=True)
    assert rendered(report) == snapshot


ROUND_TRIP = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: subsets[*].ports[*].name
          expression: '"host-" + value'
          reverseExpression: value.slice(4)
"""


def test_reverse_that_does_not_undo_is_a_warning(snapshot):
    report = check(ROUND_TRIP)
    diag = only(report, "roundtrip")
    assert (diag.line, diag.column, diag.severity) == (7, 30, "warning")
    assert 'for value "my-app" expression gives "host-my-app"' in diag.message
    assert rendered(report) == snapshot


def test_reverse_that_undoes_gives_no_warning():
    assert check(ROUND_TRIP.replace("slice(4)", "slice(5)")).diagnostics == ()


def test_roundtrip_uses_test_case_values():
    text = ROUND_TRIP.replace('\'"host-" + value\'', "value.toUpperCase()").replace(
        "value.slice(4)", "value.toLowerCase()")
    # "Hello, World" in the generated set already breaks a lower/upper pair
    assert only(check(text), "roundtrip")
    values = {("toHost", "endpoints", "tenant"): [{"subsets": [{"ports": [{"name": "MiXed"}]}]}],
              ("toHost", "endpoints", "host"): [{"subsets": [{"ports": [{"name": "HOST"}]}]}]}
    diag = only(check(text, case_values=values), "roundtrip")
    assert 'for value "MiXed"' in diag.message


def test_every_error_is_reported_not_only_the_first():
    text = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: a
          expression: 1 @ 2
        - path: b['x']
          expression: value
        - path: c
          reverseExpresion: value
"""
    report = check(text)
    codes = sorted(d.code for d in report.diagnostics)
    assert codes == ["expression-syntax", "path-single-quote", "unknown-field"]
    unknown = only(report, "unknown-field")
    assert (unknown.line, unknown.column) == (10, 11)
    assert unknown.hint == "did you mean `reverseExpression`?"


def test_duplicate_path(snapshot):
    text = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: a.b
          expression: value
        - path: a.b
          expression: value
"""
    report = check(text)
    diag = only(report, "duplicate-path")
    assert (diag.line, diag.column) == (7, 11)
    assert rendered(report) == snapshot


def test_yaml_syntax_error():
    report = check("sync:\n  toHost: [\n")
    diag = only(report, "yaml-syntax")
    assert (diag.line, diag.column) == (2, 12)  # the end of the file, on its last line


def test_json_shape():
    diag = Diagnostic("a.yaml", 3, 7, "warning", "in-array", "msg", "hint")
    document = json.loads(render_json([diag]))
    assert document == {
        "diagnostics": [{"file": "a.yaml", "line": 3, "column": 7, "severity": "warning",
                         "code": "in-array", "message": "msg", "hint": "hint"}],
        "summary": {"errors": 0, "warnings": 1},
    }


@pytest.mark.parametrize("severities, text", [
    ((), "no problems"), (("error",), "1 error"), (("error", "warning", "warning"), "1 error, 2 warnings"),
])
def test_summary_line(severities, text):
    diags = [Diagnostic("f", 1, 1, s, "c", "m") for s in severities]
    assert summary_line(diags) == text
