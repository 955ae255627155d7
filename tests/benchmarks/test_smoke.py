"""The benchmark code runs on tiny sizes (no timing is asserted: speed lives in benchmarks/)."""

import json


from benchmarks import __main__ as bench
from benchmarks import expressions, workloads


def test_handwritten_baselines_do_not_mutate_inputs():
    for case in expressions.CASES:
        value, context = expressions.input_pool(case, 1)[0]
        before = json.dumps(value)
        case.handwritten(value, context)
        assert json.dumps(value) == before, case.name


def test_workload_baselines_round_trip():
    pairs = [
        (workloads.endpoints(3, 2, 2), workloads.endpoints_to_host_by_hand, workloads.endpoints_from_host_by_hand),
        (workloads.service(), workloads.service_to_host_by_hand, workloads.service_from_host_by_hand),
    ]
    for obj, to_host, from_host in pairs:
        assert from_host(to_host(obj, workloads.CONTEXT), workloads.CONTEXT) == {
            **obj, "metadata": {**obj["metadata"], **({"annotations": {**obj["metadata"]["annotations"], "example.com/synced-by": "syncpatch"}} if "annotations" in obj["metadata"] else {})}
        }


def test_quick_run_writes_results(tmp_path):
    assert bench.main(["--quick", "--out", str(tmp_path), "--only", "expressions", "startup"]) == 0
    results = json.loads((tmp_path / "quick.json").read_text())
    rows = results["expressions"]["rows"]
    assert len(rows) == len(expressions.CASES)
    assert all("syncpatch" in r["ns"] for r in rows if not r["problems"])


def test_refusals_name_the_rule_and_the_construct():
    from benchmarks.native_refusals import refusal

    assert refusal('value.name + "-x"') is None  # in the native subset
    why = refusal("(function () { return this })()")  # a called function reading its own `this` is not
    assert why is not None and "native" in why and "CallExpression" in why


def test_floor_geomeans_add_each_tiers_floor_to_the_hand_written_time():
    from benchmarks.bench_realistic import floor_geomeans

    rows = [
        {"ns": {"handwritten": 10.0, "syncpatch": 30.0, "general": 400.0}},
        {"ns": {"handwritten": 1000.0, "syncpatch": 1500.0, "general": 3000.0}},
        {"ns": {"handwritten": 50.0}},  # not timed on syncpatch (a problem row): left out
    ]
    got = floor_geomeans(rows, {"native": 10.0, "general": 190.0})
    assert abs(got["native"] - ((20 / 10) * (1010 / 1000)) ** 0.5) < 1e-9
    assert abs(got["general"] - ((200 / 10) * (1190 / 1000)) ** 0.5) < 1e-9
    # the native time with the general floor in place of the native one
    assert abs(got["general_at_native_speed"] - ((210 / 10) * (1680 / 1000)) ** 0.5) < 1e-9


def test_targets_hold_each_measure_to_its_limit_and_skip_sections_not_run():
    from benchmarks.report import targets

    results = {
        "realistic": {"summary": {"syncpatch_geomean_ratio": 1.6, "general_forced_geomean_ratio": 2.9,
                                  "cases_above_4x": 0, "native_share": 0.95,
                                  "floor_geomean": {"native": 1.4, "general": 3.1}}},
        "plans": {"rows": [{"to_host": {"ratio": 1.2}, "from_host": {"ratio": 1.51}},
                           {"to_host": {"problem": "differ"}, "from_host": {"ratio": 1.1}}]},
    }
    got = {what.strip(): (value, met) for what, value, _target, met in targets(results)}
    assert got["realistic corpus, geomean ratio"] == (1.6, False)
    assert got["realistic corpus, general tier forced, geomean"] == (2.9, True)
    assert got["realistic corpus, cases above 4x"] == (0, True)
    assert got["the general floor alone (every operation free)"] == (3.1, False)
    assert got["plan application, worst ratio"] == (1.51, False)
    assert not any(what.startswith("the benchmark's expression rows") for what in got)  # not run
    assert targets({}) == []
