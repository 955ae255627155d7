"""The guard survey (benchmarks/guard_survey.py): its variants are what it says, it tells the
four outcomes apart, and on both corpora's expressions no variant makes the tiers disagree."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import guard_survey as survey

POD: dict[str, Any] = {"metadata": {"name": "web", "labels": {"app": "web"}},
                       "spec": {"ports": [{"port": 80, "name": "http"}], "replicas": 3}}
CASE: dict[str, Any] = {"id": "t1", "js": "value.spec.ports.map(p => p.port)", "value": POD,
                        "context": {"vcluster": {"name": "vc"}}}


def test_variants_change_only_what_the_expression_reads() -> None:
    seen = {where for kind in survey.KINDS for where, _v, _c in survey.variants(CASE, kind, per_kind=100)}
    assert "value['spec']['ports'][0]['port']" in seen
    assert not any("labels" in w for w in seen)  # (no key of it is named in the source)
    assert not any(w.startswith("context") for w in seen)  # (the source reads no context)


@pytest.mark.parametrize(("kind", "want"), [
    ("missing", {"port": None}), ("integral-float", 80.0), ("fraction", 80.5), ("numeric-string", "80"),
    ("big-int", 2**53 + 2), ("null-items", None),
])
def test_each_kind_makes_its_variant(kind: str, want: Any) -> None:
    made = survey.variants(CASE, kind, per_kind=100)
    ports = [v.get("spec", {}).get("ports") for _w, v, _c in made]
    if kind == "missing":
        assert [{"name": "http"}] in ports
    elif kind == "null-items":
        assert [{"port": 80, "name": "http"}, None] in ports
    else:
        assert any(p and type(p[0]) is dict and p[0].get("port") == want and type(p[0]["port"]) is type(want)
                   for p in ports)
    assert POD["spec"]["ports"] == [{"port": 80, "name": "http"}]  # (variants are copies)


def test_outcomes_are_told_apart() -> None:
    runner = survey.Runner("value.spec.ports.map(p => p.port)")
    assert runner.run(POD, None) == "native"
    assert runner.run({"spec": {"ports": [{"port": 80}, {}]}}, None) == "native"  # (absent: undefined, read natively)
    assert runner.run({"spec": {"ports": [{"port": 80}, "x"]}}, None) == "fallback"  # (a string's .port: the general tier's)
    assert runner.run({"spec": None}, None) == "error"  # (a TypeError in both tiers)
    assert not survey.Runner("new Date(value).getTime()").native  # (a Date: general tier only)


#: corpus cases whose native tier takes the general tier on their own input, and why
FALLS_BACK_BY_DESIGN = {
    # ports.indexOf(ports.find(...)): an object found by identity, which the native tier's
    # reads do not promise (the general tier copies each input position on its own)
    "c236": "indexOf of an object",
    # try { JSON.parse(annotation) } catch: the native tier runs the try block alone, so a
    # throw in it (here: text that is no JSON) takes the general tier, which runs the catch
    "c297": "a throw its catch clause takes",
}


def test_no_variant_makes_the_tiers_disagree() -> None:
    rows = survey.survey(survey.load_cases(), per_kind=2)
    assert len(rows) > 2000
    mismatches = [(r["id"], r["kind"], r["where"]) for r in rows if r["status"] == "mismatch"]
    assert not mismatches
    counts = survey.rates(rows)
    # each corpus case's own input stays native, but those whose native tier gives up by design
    fallbacks = {r["id"] for r in rows if r["kind"] == "original" and r["status"] == "fallback"}
    assert fallbacks <= set(FALLS_BACK_BY_DESIGN), fallbacks
    assert "all" in survey.table(counts)
