"""How promptly each budget stops an evaluation: ``python -m benchmarks.budget_promptness``.

For every budget, a script that exhausts it runs with the default budgets and with a small
setting; the table shows the time from the call to ``LimitExceeded`` (median of N runs, after
a warm-up call) and, for time budgets, the overshoot past the configured limit. Rows that
end in anything but the expected ``LimitExceeded`` are flagged: that budget did not stop the
script. The process caps its address space (``--memory-gib``, default 3) so a budget that
fails to stop a memory bomb ends as a MemoryError row instead of an OOM kill.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from typing import Any

from syncpatch import Budgets, EvaluationError, LimitExceeded, compile_expression

ROOMY = dict(steps=10**12, call_depth=100_000, string_length=1 << 40, array_length=1 << 40, allocation=1 << 50,
             wall_time=600.0, regex_timeout=600.0)

#: (budget, script, small setting); the default row runs with Budgets() untouched
ROWS: list[tuple[str, str, dict[str, Any]]] = [
    ("steps", "while (true) {}", {"steps": 100_000}),
    ("steps", "for (;;) [1, 2, 3, 4, 5, 6, 7, 8].map(x => x)", {"steps": 100_000}),
    ("call_depth", "function r(n) { return r(n + 1) } r(0)", {"call_depth": 60}),
    ("call_depth", "const Y = f => (x => x(x))(x => f(y => x(x)(y))); Y(f => n => f(n + 1))(0)",
     {"call_depth": 60}),
    ("string_length", "let s = 'ab'; while (true) s = s.concat(s)", {"string_length": 50_000}),
    ("string_length", "'a'.repeat(2 ** 30)", {"string_length": 50_000}),
    # known bug (tests/security: string-plus-doubling): '+' is not checked, only MemoryError stops it
    ("string_length", "let s = 'ab'; while (true) s += s", {"string_length": 50_000}),
    ("array_length", "let a = [1]; while (true) a = a.concat(a)", {"array_length": 20_000}),
    ("array_length", "Array(2 ** 32 - 1).fill(0)", {"array_length": 20_000}),
    ("allocation", "const a = []; for (let i = 0; i < 3000; i++) a.push('x'.repeat(100000)); a.length",
     {"allocation": 2_000_000}),
    ("wall_time", "while (true) {}", {"wall_time": 0.2}),
    ("wall_time", "encodeURIComponent('\\u00ff'.repeat(2e6)).length", {"wall_time": 0.2}),
    ("regex", "/^(a|aa)+$/.test('a'.repeat(5000) + 'b')", {"regex_timeout": 0.05}),
    ("regex", "'a'.repeat(30000).split(/(a+)+b/).length", {"regex_timeout": 0.05}),
]


def _once(src: str, budgets: Budgets) -> tuple[float, str]:
    fn = compile_expression(src, budgets=budgets)
    start = time.perf_counter()
    try:
        fn(None)
        outcome = "completed (no limit)"
    except LimitExceeded as exc:
        outcome = f"LimitExceeded({exc.budget})"
    except EvaluationError as exc:
        outcome = f"{exc.js_name}"
    except MemoryError:
        outcome = "MemoryError escaped"
    except RecursionError:
        outcome = "RecursionError escaped"
    return time.perf_counter() - start, outcome


def measure(repeats: int = 3) -> list[dict[str, Any]]:
    compile_expression("[1].map(x => x)")(None)  # warm the runtime up
    rows = []
    for budget, src, small in ROWS:
        for setting, budgets in (("default", Budgets()), ("small", Budgets(**{**ROOMY, **small}))):
            if setting == "default" and budget == "allocation":
                budgets = Budgets(steps=10**12, wall_time=600.0)  # only the allocation budget may stop it
            if setting == "default" and budget == "wall_time":
                budgets = Budgets(steps=10**12)  # else the default step budget trips first
            times, outcomes = [], set()
            for _ in range(repeats):
                elapsed, outcome = _once(src, budgets)
                times.append(elapsed)
                outcomes.add(outcome)
                if elapsed > 2:
                    break  # one slow run says enough
            limit = {"wall_time": budgets.wall_time, "regex": budgets.regex_timeout}.get(budget)
            rows.append({
                "budget": budget, "setting": setting, "script": src, "value": getattr(budgets, budget, None)
                if budget != "regex" else budgets.regex_timeout,
                "median_s": statistics.median(times), "max_s": max(times), "outcome": " / ".join(sorted(outcomes)),
                "overshoot_s": None if limit is None else statistics.median(times) - limit,
                "ok": outcomes == {f"LimitExceeded({budget})"},
                "stopped": all(o.startswith("LimitExceeded") for o in outcomes),
            })
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| budget | setting | limit | script | median | max | overshoot | outcome |",
             "|---|---|---|---|---:|---:|---:|---|"]
    for r in rows:
        over = "" if r["overshoot_s"] is None else f"{r['overshoot_s'] * 1000:+.0f} ms"
        flag = "" if r["ok"] else (" (another budget first)" if r["stopped"] else " **(did not stop it)**")
        script = r["script"] if len(r["script"]) <= 60 else r["script"][:57] + "..."
        lines.append(f"| {r['budget']} | {r['setting']} | {r['value']} | `{script}` | {r['median_s'] * 1000:.1f} ms | "
                     f"{r['max_s'] * 1000:.1f} ms | {over} | {r['outcome']}{flag} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory-gib", type=float, default=3.0)
    args = parser.parse_args(argv)
    cap = int(args.memory_gib * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    print(table(measure(args.repeats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
