"""Render results: a rich table for the terminal, JSON for the record, a PNG chart for the README."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table


def _fmt(x: Any, digits: int = 2) -> str:
    if isinstance(x, (int, float)) and not math.isnan(x):
        return f"{x:.{digits}f}"
    return "-"


def print_expressions(console: Console, section: dict[str, Any]) -> None:
    engines = section["engines"]
    table = Table(title="Per-expression call cost (ns, net of loop) and ratio to hand-written")
    for col in ["expression", "hand-written", "syncpatch", "ratio", *(f"{e} ×slower" for e in engines)]:
        table.add_column(col, justify="right" if col != "expression" else "left")
    for row in section["rows"]:
        ns, ratio = row["ns"], row["ratio_to_handwritten"]
        cells = [row["name"], _fmt(ns.get("handwritten"), 0), _fmt(ns.get("syncpatch"), 0), _fmt(ratio.get("syncpatch"))]
        cells += [_fmt(ns[e] / ns["syncpatch"], 1) if e in ns and "syncpatch" in ns else "-" for e in engines]
        table.add_row(*cells)
    console.print(table)
    for row in section["rows"]:
        for problem in row["problems"]:
            console.print(f"[yellow]not timed[/]: {row['name']}: {problem}")
    console.print(section["summary"])


def print_realistic(console: Console, section: dict[str, Any]) -> None:
    table = Table(title="Realistic corpus: ratio to hand-written, and the tier each case ran on")
    for col in ["case", "expression", "tier", "hand-written ns", "syncpatch", "general forced"]:
        table.add_column(col, justify="left" if col in ("case", "expression", "tier") else "right")
    for row in section["rows"]:
        ratio = row["ratio_to_handwritten"]
        table.add_row(row["id"], row["source"][:48], row["tier"], _fmt(row["ns"].get("handwritten"), 0),
                      _fmt(ratio.get("syncpatch")), _fmt(ratio.get("general")))
    console.print(table)
    for row in section["rows"]:
        for problem in row["problems"]:
            console.print(f"[yellow]not timed[/]: {row['id']}: {problem}")
        if row.get("refusal"):
            console.print(f"no native tier: {row['id']}: {row['refusal']}")
    console.print(section["summary"])


def print_plans(console: Console, section: dict[str, Any]) -> None:
    table = Table(title="Plan application (µs per object) and ratio to hand-written")
    for col in ["workload", "direction", "hand-written", "syncpatch", "ratio"]:
        table.add_column(col)
    for row in section["rows"]:
        for direction in ("to_host", "from_host"):
            r = row[direction]
            if "problem" in r:
                table.add_row(row["name"], direction, "-", "-", r["problem"])
            else:
                table.add_row(row["name"], direction, _fmt(r["handwritten_us"]), _fmt(r["syncpatch_us"]), _fmt(r["ratio"]))
    console.print(table)


def targets(results: dict[str, Any]) -> list[tuple[str, float, str, bool]]:
    """The speed targets a run can be held to, from the sections it ran: (what, measured,
    target, met). A section that was not run (or was skipped) contributes no row."""
    rows: list[tuple[str, float, str, bool]] = []
    summary = results.get("realistic", {}).get("summary")
    if summary:
        geo, forced = summary["syncpatch_geomean_ratio"], summary["general_forced_geomean_ratio"]
        rows += [
            ("realistic corpus, geomean ratio", geo, "<= 1.5", geo <= 1.5),
            ("realistic corpus, cases above 4x", summary["cases_above_4x"], "0", summary["cases_above_4x"] == 0),
            ("realistic corpus, share on the native tier", summary["native_share"], ">= 0.9", summary["native_share"] >= 0.9),
            ("realistic corpus, general tier forced, geomean", forced, "<= 3", forced <= 3),
        ]
        floors = summary.get("floor_geomean")
        if floors:  # what the per-call floors alone make of the two geomeans (bench_realistic)
            rows += [
                ("  the native floor alone (every operation free)", floors["native"], "<= 1.5", floors["native"] <= 1.5),
                ("  the general floor alone (every operation free)", floors["general"], "<= 3", floors["general"] <= 3),
            ]
    expressions = results.get("expressions", {}).get("summary")
    if expressions:
        geo = expressions["syncpatch_geomean_ratio"]
        rows.append(("the benchmark's expression rows, geomean ratio", geo, "<= 1.3", geo <= 1.3))
    plans = [row[d]["ratio"] for row in results.get("plans", {}).get("rows", [])
             for d in ("to_host", "from_host") if "ratio" in row.get(d, {})]
    if plans:
        rows.append(("plan application, worst ratio", max(plans), "<= 1.5", max(plans) <= 1.5))
    return rows


def print_targets(console: Console, results: dict[str, Any]) -> None:
    rows = targets(results)
    if not rows:
        return
    table = Table(title="Speed targets (issue #21): this run")
    for col in ["measure", "this run", "target", "met"]:
        table.add_column(col, justify="left" if col == "measure" else "right")
    for what, value, target, met in rows:
        table.add_row(what, _fmt(value, 0 if isinstance(value, int) else 2), target, "yes" if met else "[red]no[/]")
    console.print(table)


def write_json(results: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, sort_keys=False) + "\n")


def write_chart(results: dict[str, Any], path: Path) -> bool:
    """Per-expression ratios and the scaling curves; False when matplotlib is absent."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(19, 5), gridspec_kw={"width_ratios": [2, 3, 2]})
    rows = results.get("expressions", {}).get("rows", [])
    names = [r["name"] for r in rows]
    for engine in ["syncpatch", *results.get("expressions", {}).get("engines", [])]:
        left.plot(names, [r["ratio_to_handwritten"].get(engine, math.nan) for r in rows], marker="o", label=engine)
    left.axhline(1.3, color="grey", linestyle="--", label="target 1.3×")
    left.set_yscale("log")
    left.set_ylabel("time / hand-written Python")
    left.set_title("Per-expression call cost")
    left.tick_params(axis="x", rotation=60)
    left.legend(fontsize=8)
    _realistic_chart(middle, results.get("realistic", {}))
    scaling = results.get("scaling", {}).get("by_size", [])
    if scaling:
        right.plot([s["elements"] for s in scaling], [s["us"] for s in scaling], marker="o")
        right.set_xscale("log")
        right.set_yscale("log")
        right.set_xlabel("list elements under a wildcard")
        right.set_ylabel("µs per to_host call")
        right.set_title("Scaling with object size")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


_TIER_COLOURS = {"native": "tab:green", "fallback": "tab:orange", "general": "tab:red"}


def _realistic_chart(axis: Any, section: dict[str, Any]) -> None:
    """The realistic corpus: each case's ratio (coloured by the tier it ran on) and the
    general tier forced, sorted by ratio."""
    rows = sorted((r for r in section.get("rows", []) if "syncpatch" in r["ratio_to_handwritten"]),
                  key=lambda r: r["ratio_to_handwritten"]["syncpatch"])
    if not rows:
        axis.set_visible(False)
        return
    xs = range(len(rows))
    axis.plot(xs, [r["ratio_to_handwritten"].get("general", math.nan) for r in rows], color="grey",
              marker=".", linestyle="none", label="general tier forced")
    for tier, colour in _TIER_COLOURS.items():
        points = [(i, r["ratio_to_handwritten"]["syncpatch"]) for i, r in enumerate(rows) if r["tier"] == tier]
        if points:
            axis.scatter([p[0] for p in points], [p[1] for p in points], color=colour, s=18,
                         label=f"syncpatch, {tier} ({len(points)})")
    axis.axhline(1.5, color="grey", linestyle="--", label="target 1.5× (geomean)")
    axis.axhline(4, color="grey", linestyle=":", label="cap 4× (any case)")
    axis.set_yscale("log")
    axis.set_xlabel("realistic cases, sorted by ratio")
    axis.set_ylabel("time / hand-written Python")
    summary = section.get("summary", {})
    axis.set_title(f"Realistic corpus: geomean {_fmt(summary.get('syncpatch_geomean_ratio'))}×, "
                   f"general forced {_fmt(summary.get('general_forced_geomean_ratio'))}×")
    axis.legend(fontsize=8)
