"""The worst wall-time overshoot over hostile scripts: ``python -m benchmarks.hostile_overshoot``.

Each script tries to outlive its ``wall_time`` (resuming after the budget ran out, or spending
its time inside built-ins between step checks). It runs with a small ``wall_time`` and every
other budget roomy, on the calling thread and on a worker thread with a 1 MiB stack; the
table shows the time from the call to its end, the overshoot past ``wall_time`` and the
outcome. The last line is the worst overshoot: the promise is under 100 ms.
"""

from __future__ import annotations

import argparse
import threading
import time
from typing import Any

from syncpatch import Budgets, EvaluationError, compile_expression

LOOP = "for (;;) {}"
SCRIPTS: list[tuple[str, str]] = [
    ("finally-return", f"(() => {{ try {{ {LOOP} }} finally {{ return 'x' }} }})()"),
    ("finally-recursion", "(function f() { try { return f() } finally { f() } })()"),
    ("tostring-in-builtin", f"[{{toString() {{ try {{ {LOOP} }} finally {{ return 'k' }} }}}}].join()"),
    ("comparator", f"[3, 2, 1].sort(() => {{ {LOOP} }})"),
    ("spread-copies", "let a = Array(1e6).fill(1); let n = 0; for (let i = 0; i < 1000; i++) n += [...a].length; n"),
    ("array-from-copies", "let a = Array(1e6).fill(1); let n = 0; for (let i = 0; i < 1000; i++) "
                          "n += Array.from(a).length; n"),
    ("slice-copies", "let a = Array(1e6).fill(1); let n = 0; for (let i = 0; i < 1000; i++) n += a.slice().length; n"),
    ("sorts", "let a = Array(1e6).fill(1); for (let i = 0; i < 1000; i++) a.sort(); 1"),
    ("apply-arguments", "let a = Array(1e5).fill(1); let n = 0; for (let i = 0; i < 1e4; i++) "
                        "n += Math.max.apply(null, a); n"),
    ("locale-compare", "let s = 'a'.repeat(1e7); let n = 0; for (let i = 0; i < 1000; i++) n += s.localeCompare(s + 'b'); n"),
    ("error-message-key", "let k = 'a'.repeat(1e7); let n = 0; for (let i = 0; i < 1000; i++) "
                          "{ try { null[k] } catch (e) { n += e.message.length } } n"),
    ("split-chars", "let n = 0; for (let i = 0; i < 1000; i++) n += 'x'.repeat(1e6).split('').length; n"),
    ("fill-map", "let n = 0; for (let i = 0; i < 1000; i++) n += Array(1e6).fill(0).map(x => x + 1).length; n"),
    ("join", "let a = Array(1e6).fill('ab'); let n = 0; for (let i = 0; i < 1000; i++) n += a.join(',').length; n"),
    ("stringify-big", "let a = Array(2e5).fill({k: 'v', n: [1, 2]}); let n = 0; for (let i = 0; i < 1000; i++) "
                      "n += JSON.stringify(a).length; n"),
    ("regex-long-subject", "let s = 'ab'.repeat(4e6); let n = 0; for (let i = 0; i < 1000; i++) "
                           "n += s.replace(/b/g, 'c').length; n"),
    ("regex-in-loop", "let n = 0; for (let i = 0; i < 100; i++) { try { /^(a|aa)+$/.test('a'.repeat(5000) + 'b') } "
                      "catch (e) { n++ } } n"),
]
ROOMY = dict(steps=10**12, call_depth=400, string_length=1 << 26, array_length=1 << 22, allocation=1 << 50,
             regex_timeout=600.0)


def _run(src: str, budgets: Budgets) -> tuple[float, str]:
    fn = compile_expression(src, budgets=budgets)
    start = time.monotonic()
    try:
        fn(None)
        outcome = "completed"
    except EvaluationError as exc:
        outcome = f"{type(exc).__name__}({getattr(exc, 'budget', exc.js_name)})"
    return time.monotonic() - start, outcome


def _on_small_stack(src: str, budgets: Budgets) -> tuple[float, str]:
    box: list[Any] = []
    old = threading.stack_size(1 << 20)
    try:
        worker = threading.Thread(target=lambda: box.append(_run(src, budgets)))
        worker.start()
    finally:
        threading.stack_size(old)
    worker.join()
    return box[0] if box else (float("nan"), "thread died")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wall-time", type=float, default=0.5)
    args = parser.parse_args()
    budgets = Budgets(wall_time=args.wall_time, **ROOMY)  # type: ignore[arg-type]
    worst = 0.0
    print("| script | thread | time | overshoot | outcome |\n|---|---|---:|---:|---|")
    for name, src in SCRIPTS:
        for where, runner in (("main", _run), ("1 MiB worker", _on_small_stack)):
            elapsed, outcome = runner(src, budgets)
            over = max(0.0, elapsed - args.wall_time)
            worst = max(worst, over)
            print(f"| {name} | {where} | {elapsed * 1000:.0f} ms | {over * 1000:+.0f} ms | {outcome} |", flush=True)
    print(f"\nworst overshoot past wall_time={args.wall_time:g} s: {worst * 1000:.0f} ms")


if __name__ == "__main__":
    main()
