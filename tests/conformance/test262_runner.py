"""The test262 conformance runner: every test in an isolated worker process, with a timeout.

Reads the selection in ``../shared/test262`` (beside the checkout; ``TEST262_DIR`` overrides
it): ``tests.jsonl`` plus ``harness/``. A full tc39/test262 checkout works too: then the
tests are the ``.js`` files under ``test/`` (``--dir`` narrows them) and their YAML
frontmatter says how each runs.

How a test runs (the selection's README): the script is ``assert.js`` + ``sta.js`` + each
file in ``includes`` + the test source, with ``"use strict";`` first for ``onlyStrict``
(``raw`` tests run as they are), compiled and called once through the public API.

- positive: passes when the script completes without an exception;
- negative, phase ``parse``: passes when compiling fails with a syntax or early error (a
  construct syncpatch *refuses* is not a syntax error and does not pass);
- negative, phase ``runtime``: passes when running throws an error of ``negative.type``.

Every outcome that is not a pass is a failure: a refused construct, a syntax error on a valid
script, a JS exception, a budget, a crash (a Python exception out of the compiler or runtime,
or a worker that died) or a timeout. The run is compared with the committed expected-failures
list: a failure not on it is a regression, a listed test that passes is an unexpected pass,
and either makes the exit status 1 (so the list is kept exact, as goja's CI keeps its own).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import sys
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
EXPECTED_FAILURES = Path(__file__).with_name("test262_expected_failures.txt")
#: seconds a test may take (compile and run) before its worker is killed; the script's own
#: wall-time budget is half of it
DEFAULT_TIMEOUT = 120.0
#: a worker is replaced after this many tests, so leaks and cached state cannot pile up
TESTS_PER_WORKER = 250

#: outcome kinds; everything but "pass" is a failure
PASS, FAIL, SYNTAX, REFUSED, LIMIT, CRASH, TIMEOUT = "pass", "fail", "syntax", "refused", "limit", "crash", "timeout"


class Case(NamedTuple):
    """One test262 test, as the selection's ``tests.jsonl`` describes it."""

    id: str
    flags: tuple[str, ...]
    includes: tuple[str, ...]
    negative: dict[str, str] | None
    source: str


class Outcome(NamedTuple):
    """What running one case gave: a kind (PASS, FAIL, ...) and a one-line detail."""

    id: str
    kind: str
    detail: str


def default_test262_dir() -> Path:
    """``TEST262_DIR``, else ``../shared/test262`` beside the checkout."""
    env = os.environ.get("TEST262_DIR")
    return Path(env) if env else ROOT.parent / "shared" / "test262"


# ---------------------------------------------------------------------------- loading
def load_cases(root: Path, dirs: Iterable[str] = ()) -> list[Case]:
    """The cases under ``root`` (the selection's ``tests.jsonl``, or a test262 checkout),
    restricted to ids starting with one of ``dirs`` when given; sorted by id."""
    prefixes = tuple(d.rstrip("/") + "/" for d in dirs)
    exact = {d.rstrip("/") for d in dirs}
    selection = root / "tests.jsonl"
    cases = list(_from_jsonl(selection) if selection.exists() else _from_checkout(root, prefixes))
    if prefixes:
        cases = [c for c in cases if c.id.startswith(prefixes) or c.id in exact]
    return sorted(cases, key=lambda c: c.id)


def _from_jsonl(path: Path) -> Iterator[Case]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                yield Case(row["id"], tuple(row.get("flags") or ()), tuple(row.get("includes") or ()),
                           row.get("negative"), row["source"])


_FRONTMATTER = re.compile(r"/\*---(.*?)---\*/", re.S)
#: features a full checkout's tests may name that syncpatch does not take on (see docs/language.md)
_UNSUPPORTED_FLAGS = {"module", "async", "CanBlockIsTrue", "CanBlockIsFalse"}


def _from_checkout(root: Path, prefixes: tuple[str, ...]) -> Iterator[Case]:
    """Tests of a full tc39/test262 checkout (frontmatter read with PyYAML; fixtures and
    module/async tests left out)."""
    import yaml

    starts = [root / p.rstrip("/") for p in prefixes] or [root / "test"]
    for start in starts:
        paths = [start] if start.is_file() else sorted(start.rglob("*.js"))
        for path in paths:
            if "_FIXTURE" in path.name:
                continue
            source = path.read_text(encoding="utf-8")
            match = _FRONTMATTER.search(source)
            meta = (yaml.safe_load(match.group(1)) if match else None) or {}
            flags = tuple(meta.get("flags") or ())
            if _UNSUPPORTED_FLAGS & set(flags):
                continue
            yield Case(path.relative_to(root).as_posix(), flags, tuple(meta.get("includes") or ()),
                       meta.get("negative"), source)


def script_for(case: Case, harness: dict[str, str]) -> str:
    """The text that runs: harness files, includes, then the test (``"use strict";`` first
    for ``onlyStrict``; ``raw`` tests alone)."""
    if "raw" in case.flags:
        return case.source
    parts = [harness["assert.js"], harness["sta.js"]]
    parts.extend(harness[name] for name in case.includes)
    parts.append(case.source)
    text = "\n".join(parts)
    return '"use strict";\n' + text if "onlyStrict" in case.flags else text


def load_harness(root: Path) -> dict[str, str]:
    """Every harness file by name (``harness/*.js``)."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((root / "harness").glob("*.js"))}


# ---------------------------------------------------------------------------- one test
def run_script(script: str, negative: dict[str, str] | None, wall_time: float = 0.0) -> tuple[str, str]:
    """Compile and run one script through the public API; (kind, detail). ``wall_time``
    (seconds) replaces the default 5 s budget: conformance asks what a script does, not how
    fast, and a loaded machine must not turn a slow pass into a failure."""
    import syncpatch

    expect_parse = negative is not None and negative.get("phase") in ("parse", "early")
    expect_runtime = negative.get("type") if negative is not None and negative.get("phase") == "runtime" else None
    try:
        fn = syncpatch.compile_expression(script, origin="test262")
    except syncpatch.CompileError as exc:
        if exc.message.startswith(_WRAPPED_COMPILER_BUGS):
            return CRASH, "compiler: " + _one_line(exc.message)
        if getattr(exc, "refused", False):
            return REFUSED, _one_line(exc.message)
        if expect_parse:
            return PASS, ""
        return SYNTAX, _one_line(exc.message)
    except Exception as exc:  # noqa: BLE001 - a crash of the compiler is an outcome to report
        return CRASH, "compiler: " + _python_error(exc)
    if expect_parse:
        return FAIL, "compiled, but the test expects a SyntaxError"
    try:
        if wall_time:
            fn(budgets=syncpatch.Budgets(wall_time=wall_time))
        else:
            fn()
    except syncpatch.LimitExceeded as exc:
        return (TIMEOUT if exc.budget == "wall_time" else LIMIT), f"{exc.budget}: {exc.js_name}: {exc.message}"
    except syncpatch.EvaluationError as exc:
        if exc.js_name == "InternalError":
            inner = exc.__context__
            return CRASH, "runtime: " + (_python_error(inner) if inner is not None else exc.message)
        if expect_runtime is not None and exc.js_name == expect_runtime:
            return PASS, ""
        return FAIL, _one_line(f"{exc.js_name}: {_thrown_message(exc)}")
    except Exception as exc:  # noqa: BLE001
        return CRASH, "runtime: " + _python_error(exc)
    if expect_runtime is not None:
        return FAIL, f"ran to completion, but the test expects a {expect_runtime}"
    return PASS, ""


#: compile errors that wrap a Python exception of the compiler (a bug, not the script's fault)
_WRAPPED_COMPILER_BUGS = ("cannot build the syntax tree:", "the expression is too complex to compile")


def _thrown_message(exc: Any) -> str:
    """The ``message`` of a thrown object (a Test262Error says which assertion failed)."""
    value = getattr(exc, "js_value", None)
    if isinstance(value, object) and exc.message.startswith("Uncaught") and value is not None:
        try:
            from syncpatch.runtime.members import get_member

            message = get_member(value, "message")
            if isinstance(message, str):
                return message
        except Exception:  # noqa: BLE001 - fall back to the engine's text
            pass
    return str(exc.message)


def _python_error(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return _one_line(f"{type(exc).__name__}: {exc}{where}")


def _printable(text: str) -> str:
    """``text`` with lone surrogates escaped: test262 tests build them, and a UTF-8 terminal or
    log cannot take them."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _one_line(text: str, limit: int = 160) -> str:
    text = " ".join(_printable(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------- the pool
def _serve(conn: multiprocessing.connection.Connection) -> None:
    """A worker: run (script, negative) pairs until told to stop (None)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 8000))
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        script, negative, wall_time = task
        try:
            result = run_script(script, negative, wall_time)
        except BaseException as exc:  # noqa: BLE001 - keep serving; report it
            result = (CRASH, "runner: " + _python_error(exc))
        conn.send(result)


class _Worker:
    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.case: Case | None = None
        self.deadline = 0.0
        self.served = 0

    def give(self, case: Case, script: str, timeout: float) -> None:
        self.case = case
        self.deadline = time.monotonic() + timeout
        self.served += 1
        self.conn.send((script, case.negative, timeout / 2))

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.proc.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


def run_cases(cases: list[Case], harness: dict[str, str], *, jobs: int = 0, timeout: float = DEFAULT_TIMEOUT,
              progress: bool = False, on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Run every case in a pool of ``jobs`` worker processes (default: the CPU count); a case
    past ``timeout`` seconds is a TIMEOUT and its worker is replaced, as is one that dies.
    ``on_outcome`` sees each outcome as it arrives (a long run keeps what it has done)."""
    _warm_up()
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    jobs = jobs or os.cpu_count() or 1
    pending = list(reversed(cases))
    workers = [_Worker(ctx) for _ in range(min(jobs, len(cases)))]
    results: list[Outcome] = []
    started = time.monotonic()
    try:
        while pending or any(w.case is not None for w in workers):
            for i, w in enumerate(workers):
                if w.case is None and pending:
                    if w.served >= TESTS_PER_WORKER:
                        w.stop()
                        workers[i] = w = _Worker(ctx)
                    case = pending.pop()
                    w.give(case, script_for(case, harness), timeout)
            busy = [w for w in workers if w.case is not None]
            wait_for = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            ready = multiprocessing.connection.wait([w.conn for w in busy], timeout=wait_for)
            for i, w in enumerate(workers):
                if w.case is None:
                    continue
                outcome: Outcome | None = None
                lost = False  # the worker died or hangs: replace it
                if w.conn in ready:
                    try:
                        kind, detail = w.conn.recv()
                        outcome = Outcome(w.case.id, kind, detail)
                    except (EOFError, OSError):
                        w.proc.join(1)
                        outcome = Outcome(w.case.id, CRASH, f"the worker died (exit code {w.proc.exitcode})")
                        lost = True
                elif time.monotonic() >= w.deadline:
                    outcome = Outcome(w.case.id, TIMEOUT, f"no result within {timeout:g} s")
                    lost = True
                if outcome is None:
                    continue
                results.append(outcome)
                if on_outcome is not None:
                    on_outcome(outcome)
                if lost:
                    w.stop(kill=True)
                    workers[i] = _Worker(ctx)
                else:
                    w.case = None
                if progress and len(results) % 500 == 0:
                    print(f"  {len(results)}/{len(cases)} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    finally:
        for w in workers:
            w.stop(kill=w.case is not None)
    return sorted(results, key=lambda o: o.id)


def _warm_up() -> None:
    """Import the engine and build the parser tables once, before the workers fork."""
    import syncpatch

    try:
        syncpatch.compile_expression("1")()
    except Exception:  # noqa: BLE001 - a broken engine shows up per test instead
        pass


# ---------------------------------------------------------------------------- reporting
def directory_of(test_id: str, depth: int = 3) -> str:
    """``test/built-ins/Array/prototype/map/x.js`` -> ``test/built-ins/Array`` (depth 3)."""
    return "/".join(test_id.split("/")[:depth])


def report(outcomes: list[Outcome], depth: int = 3) -> str:
    """Pass rates per directory and overall, and failure counts by kind."""
    by_dir: dict[str, Counter[str]] = defaultdict(Counter)
    for o in outcomes:
        by_dir[directory_of(o.id, depth)][o.kind] += 1
    kinds = [FAIL, SYNTAX, REFUSED, LIMIT, CRASH, TIMEOUT]
    lines = [f"{'directory':<48} {'pass':>6} {'total':>6} {'rate':>7}  " + " ".join(f"{k:>7}" for k in kinds)]
    total: Counter[str] = Counter()
    for name in sorted(by_dir):
        counts = by_dir[name]
        total.update(counts)
        lines.append(_row(name, counts, kinds))
    lines.append(_row("all", total, kinds))
    return "\n".join(lines)


def _row(name: str, counts: Counter[str], kinds: list[str]) -> str:
    n = sum(counts.values())
    rate = 100.0 * counts[PASS] / n if n else 0.0
    return f"{name:<48} {counts[PASS]:>6} {n:>6} {rate:>6.1f}%  " + " ".join(f"{counts[k]:>7}" for k in kinds)


def read_expected(path: Path = EXPECTED_FAILURES) -> dict[str, str]:
    """The committed expected failures: test id -> the kind it fails with."""
    expected: dict[str, str] = {}
    if not path.exists():
        return expected
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            test_id, _, kind = line.partition(" ")
            expected[test_id] = kind.strip() or FAIL
    return expected


def write_expected(outcomes: list[Outcome], path: Path = EXPECTED_FAILURES, keep: dict[str, str] | None = None) -> None:
    """Rewrite the list from a run (entries of tests not in the run are kept from ``keep``)."""
    merged = dict(keep or {})
    for o in outcomes:
        merged.pop(o.id, None)
        if o.kind != PASS:
            merged[o.id] = o.kind
    header = ("# test262 tests syncpatch is known to fail: `<id> <kind>` (kind: fail, syntax, refused, limit,\n"
              "# crash, timeout; the last two must not stay here).\n"
              "# Kept exact by `make conformance`: a new failure or a pass of a listed test fails the run.\n"
              "# Regenerate after a fix with `python tests/conformance/test262_runner.py --update-expected`.\n")
    path.write_text(header + "".join(f"{k} {merged[k]}\n" for k in sorted(merged)), encoding="utf-8")


#: (cause, kinds, pattern on the detail): the first match names a failure's likely cause. A
#: heuristic over messages, for the unsupported list in docs/language.md; not a verdict.
CAUSES: list[tuple[str, tuple[str, ...], str]] = [
    ("accessors in object literals (`get x() {}`) refused", (REFUSED,), r"accessors in object literals"),
    ("`eval` / `Function` constructor refused", (REFUSED,), r"'eval' is not allowed|'Function' constructor"),
    ("top-level `this` refused", (REFUSED,), r"'this' is not allowed at the top level"),
    ("class, generators, async, `with` and other refused syntax", (REFUSED,), r""),
    ("accessor properties (`Object.defineProperty` get/set)", (FAIL,), r"Accessor properties"),
    ("property attributes (writable, enumerable, configurable, freeze/seal)", (FAIL,),
     r"descriptor should|should (not )?be (writable|enumerable|configurable)|non-writable|not extensible"
     r"|Cannot (assign to read only|redefine|delete)|isFrozen|isSealed|isExtensible"),
    ("missing early errors (the script compiles)", (FAIL,), r"expects a SyntaxError"),
    ("syntax the parser rejects", (SYNTAX,), r""),
    ("budgets (steps, array length, depth)", (LIMIT,), r""),
    ("timeouts", (TIMEOUT,), r""),
    ("crashes (internal errors)", (CRASH,), r""),
    ("other run-time differences", (FAIL,), r""),
]


def causes(outcomes: Iterable[Outcome]) -> Counter[str]:
    """Failures counted by their likely cause (``CAUSES``)."""
    counts: Counter[str] = Counter()
    for o in outcomes:
        if o.kind == PASS:
            continue
        for name, kinds, pattern in CAUSES:
            if o.kind in kinds and re.search(pattern, o.detail):
                counts[name] += 1
                break
    return counts


def read_log(path: Path) -> list[Outcome]:
    """Outcomes appended by ``--log`` (the last line for a test wins)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Outcome(r["id"], r["kind"], r["detail"]) for r in rows]


class Comparison(NamedTuple):
    """A run against the expected-failures list."""

    regressions: list[Outcome]
    unexpected_passes: list[str]


def compare(outcomes: list[Outcome], expected: dict[str, str]) -> Comparison:
    """New failures (not listed) and listed tests that now pass, among the tests run."""
    regressions = [o for o in outcomes if o.kind != PASS and o.id not in expected]
    passes = [o.id for o in outcomes if o.kind == PASS and o.id in expected]
    return Comparison(regressions, passes)


def sample(cases: list[Case], every: int) -> list[Case]:
    """A deterministic sample of about ``len(cases) / every`` cases, spread over all
    directories (chosen by a hash of the id, so it does not shift when tests are added)."""
    return [c for c in cases if int(hashlib.sha1(c.id.encode()).hexdigest()[:8], 16) % every == 0]


# ---------------------------------------------------------------------------- command line
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--test262", type=Path, default=None, help="the selection or a test262 checkout "
                        "(default: $TEST262_DIR, else ../shared/test262 beside the checkout)")
    parser.add_argument("--dir", action="append", default=[], help="only this test or the ids under this "
                        "folder (repeatable)")
    parser.add_argument("--negative", action="store_true", help="only negative (expected-error) tests")
    parser.add_argument("--sample", type=int, default=0, metavar="N", help="about one test in N (deterministic)")
    parser.add_argument("--spread", action="store_true", help="run in a fixed pseudo-random order, so the "
                        "tests done by a stopped --log run are a uniform sample")
    parser.add_argument("--jobs", "-j", type=int, default=0, help="worker processes (default: CPU count)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per test")
    parser.add_argument("--depth", type=int, default=3, help="directory depth of the pass-rate table")
    parser.add_argument("--expected", type=Path, default=EXPECTED_FAILURES, help="the expected-failures list")
    parser.add_argument("--update-expected", action="store_true", help="rewrite the list from this run")
    parser.add_argument("--failures", action="store_true", help="print every failure with its detail")
    parser.add_argument("--causes", action="store_true", help="count failures by likely cause")
    parser.add_argument("--json", type=Path, default=None, help="write every outcome to this file")
    parser.add_argument("--log", type=Path, default=None, help="append each outcome to this file as it comes "
                        "(JSON lines); tests already in it are skipped, so a stopped run resumes")
    parser.add_argument("--from-log", type=Path, action="append", default=[],
                        help="report on (and compare or --update-expected from) outcomes logged by --log runs "
                        "instead of running tests")
    args = parser.parse_args(argv)

    root = args.test262 or default_test262_dir()
    if not (root / "harness").is_dir():
        message = f"test262 not found at {root} (set TEST262_DIR or --test262)"
        if os.environ.get("CI", "").lower() == "true":
            print(f"error: {message}", file=sys.stderr)
            return 1
        print(f"skipped: {message}")
        return 0
    cases = load_cases(root, args.dir)
    if args.negative:
        cases = [c for c in cases if c.negative]
    if args.sample > 1:
        cases = sample(cases, args.sample)
    if args.spread:
        cases.sort(key=lambda c: hashlib.sha1(c.id.encode()).hexdigest())
    started = time.monotonic()
    if args.from_log:
        logged = {o.id: o for path in args.from_log for o in read_log(path)}
        outcomes = [logged[c.id] for c in cases if c.id in logged]
    else:
        if args.log and args.log.exists():  # resume: tests already logged are not run again
            done = {o.id for o in read_log(args.log)}
            cases = [c for c in cases if c.id not in done]
        log = args.log.open("a", encoding="utf-8") if args.log else None

        def record(outcome: Outcome) -> None:
            if log is not None:
                log.write(json.dumps(outcome._asdict()) + "\n")
                log.flush()

        outcomes = run_cases(cases, load_harness(root), jobs=args.jobs, timeout=args.timeout, progress=True,
                             on_outcome=record)
    elapsed = time.monotonic() - started
    print(report(outcomes, args.depth))
    print(f"ran {len(outcomes)} tests in {elapsed:.0f} s")
    if args.causes:
        for name, count in causes(outcomes).most_common():
            print(f"{count:6}  {name}")
    if args.failures:
        for o in outcomes:
            if o.kind != PASS:
                print(f"{o.kind:8} {o.id}: {_printable(o.detail)}")
    if args.json:
        args.json.write_text(json.dumps([o._asdict() for o in outcomes], indent=0), encoding="utf-8")
    expected = read_expected(args.expected)
    if args.update_expected:
        write_expected(outcomes, args.expected, expected)
        print(f"wrote {args.expected}")
        return 0
    result = compare(outcomes, expected)
    for o in result.regressions:
        print(f"REGRESSION {o.id}: {o.kind}: {_printable(o.detail)}")
    for test_id in result.unexpected_passes:
        print(f"UNEXPECTED PASS {test_id} (remove it from {args.expected.name})")
    bad = [o for o in outcomes if o.kind in (CRASH, TIMEOUT)]
    for o in bad:
        print(f"{o.kind.upper()} {o.id}: {_printable(o.detail)}")
    passed = sum(o.kind == PASS for o in outcomes)
    print(f"{passed} passed, {len(outcomes) - passed} failed")
    return 1 if result.regressions or result.unexpected_passes else 0


if __name__ == "__main__":
    sys.exit(main())
