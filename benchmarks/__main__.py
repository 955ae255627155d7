"""``python -m benchmarks [--quick] [--only SECTION ...]``: run, print, and record."""

from __future__ import annotations

import argparse
import json
import platform
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

from rich.console import Console

from . import bench_build, bench_expressions, bench_plans, bench_realistic, bench_startup, report, timing

RESULTS = Path(__file__).parent / "results"


def _sections(quick: bool) -> dict[str, Callable[[], dict[str, Any]]]:
    repeats, target = (3, 0.02) if quick else (7, 0.2)
    return {
        "expressions": lambda: bench_expressions.run(repeats=repeats, target=target),
        "realistic": lambda: bench_realistic.run(repeats=repeats, target=target / 4, limit=6 if quick else None),
        "plans": lambda: bench_plans.run_application(
            repeats=repeats, target=target, endpoint_size=(5, 3, 3) if quick else (100, 10, 10)
        ),
        "throughput": lambda: bench_plans.run_throughput(objects=200 if quick else 10_000),
        "scaling": lambda: bench_plans.run_scaling(
            repeats=repeats, target=target, sizes=(1, 10, 100) if quick else (1, 10, 100, 1000),
            patch_counts=(1, 5, 10) if quick else (1, 5, 10, 50, 100),
        ),
        "compile": lambda: bench_build.time_compile_expressions(20 if quick else 1000),
        "build_step": lambda: bench_build.time_build_step(20 if quick else 1000),
        "startup": lambda: bench_startup.run(repeats=3 if quick else 7),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the code runs, not speed")
    parser.add_argument("--only", nargs="*", help="run only these sections")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where latest.json and the chart go")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="time with this process's CPU time instead of wall time (for a busy machine)")
    args = parser.parse_args(argv)
    if args.cpu_clock:
        timing.use_cpu_clock()
    console = Console()
    target = args.out / ("quick.json" if args.quick else "latest.json")
    results: dict[str, Any] = {}
    if args.only and target.exists():  # a partial run refreshes its sections, keeps the others
        try:
            results = json.loads(target.read_text())
        except ValueError:
            results = {}
    results.update({
        "machine": {"python": sys.version.split()[0], "platform": platform.platform(), "processor": platform.processor()},
        "quick": args.quick,
    })
    for name, run in _sections(args.quick).items():
        if args.only and name not in args.only:
            continue
        console.rule(name)
        try:
            results[name] = run()
        except Exception as exc:  # noqa: BLE001 - a section that cannot run is recorded as skipped
            results[name] = {"skipped": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=3)}
        _print(console, name, results[name])
    if not args.quick:
        report.print_targets(console, {name: results[name] for name in _sections(False) if name in results
                                       and (not args.only or name in args.only)})
    report.write_json(results, target)
    if not args.quick and report.write_chart(results, args.out / "ratios.png"):
        console.print(f"chart: {args.out / 'ratios.png'}")
    return 0


def _print(console: Console, name: str, section: dict[str, Any]) -> None:
    if "skipped" in section:
        console.print(f"[yellow]skipped[/]: {section['skipped']}")
    elif name == "expressions":
        report.print_expressions(console, section)
    elif name == "realistic":
        report.print_realistic(console, section)
    elif name == "plans":
        report.print_plans(console, section)
    else:
        console.print(section)


if __name__ == "__main__":
    raise SystemExit(main())
