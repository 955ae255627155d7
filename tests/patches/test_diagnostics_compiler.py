"""Every diagnostic with the real compiler: one config with one of each mistake, all reported,
each at its exact line and column, rendered text snapshotted. Skipped until the compiler lands."""

import json

import pytest

from syncpatch.patches.build import check_config_text
from syncpatch.patches.diagnostics import render_json, render_plain


CONFIG = """\
sync:
  toHost:
    endpoints:
      patches:
        - path: subsets[*].ports[*].name
          expression: >
            "host-" +
            value +
        - path: metadata.labels['x']
          expression: patched-config
        - path: metadata.labels.y
          expression: "value in ['a', 'b'] ? \\"yes\\" : valeu"
        - path: spec.a
          expression: |
            const x = value.map(v => {
              return v +
            });
          reverseExpresion: value
        - path: spec.b
          expression: '"v-" + value'
          reverseExpression: 'value.slice(3)'
    servics:
      enabled: true
"""

EXPECTED = [
    (8, 20, "error", "expression-syntax"),  # end of a folded block: just after the last '+'
    (9, 33, "error", "path-single-quote"),
    (10, 23, "error", "undeclared-global"),  # patched-config: one error for the bare word
    (12, 30, "warning", "in-array"),  # inside a double-quoted scalar with escapes
    (12, 56, "error", "undeclared-global"),  # after two \\" escapes
    (17, 13, "error", "expression-syntax"),  # line 4 of a literal block
    (18, 11, "error", "unknown-field"),
    (22, 5, "error", "unknown-field"),
]


@pytest.fixture(scope="module")
def report():
    return check_config_text(CONFIG, "vcluster.yaml")


def test_every_problem_at_its_position(report):
    got = sorted((d.line, d.column, d.severity, d.code) for d in report.diagnostics)
    assert got == EXPECTED
    lines = CONFIG.splitlines()
    assert lines[11][29:31] == "in" and lines[11][55:60] == "valeu" and lines[16][12] == "}"


def test_hints(report):
    hints = {(d.line, d.column): d.hint for d in report.diagnostics}
    assert hints[(10, 23)].startswith('did you mean the string "patched-config"?')
    assert hints[(12, 56)] == "did you mean `value`?"
    assert hints[(18, 11)] == "did you mean `reverseExpression`?"
    assert hints[(22, 5)] == "did you mean `services`?"
    assert 'path: \'metadata.labels["x"]\'' in hints[(9, 33)]


def test_rendered(report, snapshot):
    assert render_plain(list(report.diagnostics), {"vcluster.yaml": CONFIG}) == snapshot


def test_json(report):
    document = json.loads(render_json(list(report.diagnostics)))
    assert document["summary"] == {"errors": 7, "warnings": 1}
    assert [(d["line"], d["column"]) for d in document["diagnostics"]] == [e[:2] for e in EXPECTED]


def test_roundtrip_is_checked_with_the_real_engine():
    text = CONFIG.split("        - path: subsets")[0] + "\n".join(CONFIG.splitlines()[18:21]) + "\n"
    report = check_config_text(text, "vcluster.yaml")
    (diag,) = report.diagnostics
    assert (diag.line, diag.column, diag.code) == (7, 30, "roundtrip")
    assert diag.message.endswith(
        'for value "my-app" expression gives "v-my-app", and reverseExpression turns that into "y-app"')
    fixed = check_config_text(text.replace("slice(3)", "slice(2)"), "vcluster.yaml")
    assert fixed.diagnostics == ()
