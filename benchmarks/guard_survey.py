"""How often a native script's guard gives up on ordinary Kubernetes data, and whether the
two tiers still agree when it does not.

Issue #21: "a guard that fails on common Kubernetes data (numeric strings, missing optional
fields, null in lists) is a bug in the guard". A failed guard costs the general tier (~10x
hand-written), silently: the answer stays right. This survey takes every expression of the
realistic corpus and of the native coverage corpus, derives inputs the way real objects vary
(optional keys absent or null, empty containers, numbers as floats or large ints, numeric
strings, integer-like keys, non-ASCII text and emoji, booleans, unknown keys, null list items, longer
lists), runs each once and records the tier it stayed on, and compares the result with the
general tier forced (``budgets=Budgets()``): any difference is a native-tier bug.

Run ``python -m benchmarks.guard_survey [--details KIND] [--json OUT]``. Each variant ends as:
``native`` (no fallback), ``fallback`` (a guard failed while the general tier answered: the
case this survey hunts), ``error`` (both tiers end in the same error: a fallback is expected,
the native tier leaves errors to the general tier) or ``mismatch`` (the tiers disagree).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
CORPORA = (ROOT / "benchmarks" / "data" / "realistic-public.json",
           ROOT / "tests" / "data" / "native_coverage_corpus.json")
#: at most this many variants of one kind per case (chosen by a seeded draw: reproducible)
PER_KIND = 6
STATUSES = ("native", "fallback", "error", "mismatch")

Path_ = tuple[Any, ...]  # keys and indexes from the root ("value" or "context")


def load_cases() -> list[dict[str, Any]]:
    from .bench_realistic import js_input

    cases = []
    for path in CORPORA:
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            cases.append({"id": case["id"], "js": case["js"],
                          "value": js_input(case["value"]), "context": js_input(case["context"])})
    return cases


# -- where the expression looks --------------------------------------------------------------


def _names(source: str) -> set[str]:
    """Words and quoted keys of the source: the keys an expression may read."""
    words = set(re.findall(r"[A-Za-z_$][\w$]*", source))
    words |= set(re.findall(r"""['"]([^'"]+)['"]""", source))
    return words


def _positions(root: Any, names: set[str]) -> Iterator[tuple[Path_, Any]]:
    """Every (path, node) under ``root`` that the expression may read: the root, nodes under a
    key the source names, and the members of containers under such a key (the entries of
    labels, data, a list the expression maps). Unnamed subtrees are left alone."""
    def walk(node: Any, path: Path_, hot: bool, parent_hot: bool) -> Iterator[tuple[Path_, Any]]:
        if hot or parent_hot:
            yield path, node
        if isinstance(node, dict):
            for k, v in node.items():
                yield from walk(v, path + (k,), k in names, hot)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from walk(v, path + (i,), hot, parent_hot)

    yield from walk(root, (), True, True)


def _replace(root: Any, path: Path_, new: Any) -> Any:
    """A deep copy of ``root`` with the node at ``path`` replaced (``_DROP``: the key removed)."""
    if not path:
        return new
    out = copy.deepcopy(root)
    node = out
    for step in path[:-1]:
        node = node[step]
    if new is _DROP:
        del node[path[-1]]
    else:
        node[path[-1]] = new
    return out


_DROP = object()

# -- the kinds of variation ------------------------------------------------------------------
# Each kind maps (path, node) to the replacements it makes there (none when it does not apply).

Mutation = Callable[[Path_, Any], list[Any]]


def _missing(path: Path_, node: Any) -> list[Any]:
    return [_DROP] if path and isinstance(path[-1], str) else []


def _null(path: Path_, node: Any) -> list[Any]:
    return [None] if node is not None else []


def _empty(path: Path_, node: Any) -> list[Any]:
    if isinstance(node, list) and node:
        return [[]]
    if isinstance(node, dict) and node:
        return [{}]
    if isinstance(node, str) and node:
        return [""]
    return []


def _integral_float(path: Path_, node: Any) -> list[Any]:
    return [float(node)] if type(node) is int else []


def _fraction(path: Path_, node: Any) -> list[Any]:
    return [node + 0.5] if type(node) is int else []


def _big_int(path: Path_, node: Any) -> list[Any]:
    return [2**31 + 7, 2**53 + 2] if type(node) is int else []


def _numeric_string(path: Path_, node: Any) -> list[Any]:
    if type(node) is int:
        return [str(node)]
    if type(node) is str and not node.isdigit():
        return ["8080", "10"]
    return []


def _int_keys(path: Path_, node: Any) -> list[Any]:
    if isinstance(node, dict) and node and all(type(v) in (str, int, bool) for v in node.values()):
        extra = {"10": "ten", "0": "zero"}
        return [{**node, **extra}, {**extra, **node}]
    return []


def _non_ascii(path: Path_, node: Any) -> list[Any]:
    if type(node) is str:
        return [node + "-é", "ünïcødé-東京"]
    if isinstance(node, dict) and node and all(type(k) is str for k in node):
        return [{**node, "café": "ü"}]
    return []


def _emoji(path: Path_, node: Any) -> list[Any]:
    if type(node) is str:
        return [node + "😀"]
    if isinstance(node, dict) and node and all(type(k) is str for k in node):
        return [{**node, "x😀": "😀"}]
    return []


def _boolean(path: Path_, node: Any) -> list[Any]:
    return [True, False] if type(node) in (str, int) else []


def _extra_keys(path: Path_, node: Any) -> list[Any]:
    if isinstance(node, dict):
        return [{**node, "x-extra": "unknown", "x-obj": {"a": 1}}]
    return []


def _null_items(path: Path_, node: Any) -> list[Any]:
    if isinstance(node, list) and node:
        return [node + [None], [None] + node]
    return []


def _longer(path: Path_, node: Any) -> list[Any]:
    if isinstance(node, list) and node:
        return [node * 4]
    if isinstance(node, dict) and node:
        return [{**node, **{f"k{i}.example.com/n": v for i, v in enumerate(list(node.values()) * 3)}}]
    return []


KINDS: dict[str, Mutation] = {
    "missing": _missing, "null": _null, "empty": _empty, "integral-float": _integral_float,
    "fraction": _fraction, "big-int": _big_int,
    "numeric-string": _numeric_string, "int-keys": _int_keys, "non-ascii": _non_ascii, "emoji": _emoji,
    "boolean": _boolean, "extra-keys": _extra_keys, "null-items": _null_items, "longer": _longer,
}


def variants(case: dict[str, Any], kind: str, per_kind: int = PER_KIND) -> list[tuple[str, Any, Any]]:
    """Up to ``per_kind`` (where, value, context) variants of one kind for one case."""
    names = _names(case["js"])
    found = []
    for side in ("value", "context"):
        if side == "context" and "context" not in names:
            continue
        for path, node in _positions(case[side], names):
            for new in KINDS[kind](path, node):
                found.append((side, path, new))
    rng = random.Random(f"{case['id']}:{kind}")
    chosen = sorted(rng.sample(range(len(found)), min(per_kind, len(found))))
    out = []
    for i in chosen:
        side, path, new = found[i]
        value = _replace(case["value"], path, new) if side == "value" else copy.deepcopy(case["value"])
        context = _replace(case["context"], path, new) if side == "context" else copy.deepcopy(case["context"])
        where = side + "".join(f"[{p!r}]" for p in path) + (" (dropped)" if new is _DROP else "")
        out.append((where, value, context))
    return out


# -- running a variant ------------------------------------------------------------------------


def canon(x: Any) -> Any:
    """A structure that tells apart what ``==`` merges: int/float/bool, -0.0, key order."""
    from syncpatch import UNDEFINED

    t = type(x)
    if x is None or x is UNDEFINED or t in (bool, int, str):
        return (t.__name__, x)
    if t is float:
        return ("float", repr(x))
    if t in (list, tuple):
        return (t.__name__, tuple(canon(i) for i in x))
    if isinstance(x, dict):
        return (t.__name__, tuple((canon(k), canon(v)) for k, v in x.items()))
    return ("other", t.__name__, repr(x))


def _outcome(fn: Any, value: Any, context: Any) -> tuple[Any, ...]:
    try:
        return ("ok", canon(fn(value, context)))
    except Exception as exc:  # noqa: BLE001 - the outcome is what is compared
        return ("err", type(exc).__name__, getattr(exc, "js_name", None))


class Runner:
    """One expression compiled twice (native-first, general forced) and run on variants."""

    def __init__(self, source: str) -> None:
        import syncpatch

        self.ours = syncpatch.compile_expression(source)
        self.general = syncpatch.compile_expression(source, budgets=syncpatch.Budgets())
        self.native = bool(self.ours.native)

    def run(self, value: Any, context: Any) -> str:
        """The status of one call (see the module docstring); inputs are not modified."""
        g: dict[str, Any] = self.ours.__globals__  # type: ignore[attr-defined]  # (a function: its module calls _general)
        real = g["_general"]
        calls: list[int] = []

        def counting(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            return real(*args, **kwargs)

        g["_general"] = counting
        try:
            ours = _outcome(self.ours, copy.deepcopy(value), copy.deepcopy(context))
        finally:
            g["_general"] = real
        forced = _outcome(self.general, copy.deepcopy(value), copy.deepcopy(context))
        if ours != forced:
            return "mismatch"
        if not calls:
            return "native"
        return "error" if forced[0] == "err" else "fallback"


def survey(cases: list[dict[str, Any]], kinds: list[str] | None = None,
           per_kind: int = PER_KIND) -> list[dict[str, Any]]:
    """One row per (case, kind, variant) for the cases that have a native tier."""
    rows = []
    for case in cases:
        runner = Runner(case["js"])
        if not runner.native:
            continue
        rows.append({"id": case["id"], "js": case["js"], "kind": "original", "where": "",
                     "status": runner.run(case["value"], case["context"])})
        for kind in kinds or list(KINDS):
            for where, value, context in variants(case, kind, per_kind):
                rows.append({"id": case["id"], "js": case["js"], "kind": kind, "where": where,
                             "status": runner.run(value, context)})
    return rows


def rates(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per kind: how many variants ended in each status."""
    out: dict[str, Counter[str]] = {}
    for r in rows:
        out.setdefault(r["kind"], Counter())[r["status"]] += 1
    return {k: {s: c[s] for s in STATUSES} for k, c in out.items()}


def table(counts: dict[str, dict[str, int]]) -> str:
    lines = [f"{'kind':16} {'variants':>8} {'native':>7} {'fallback':>8} {'error':>6} {'mismatch':>8} "
             f"{'fallback rate':>13}"]
    total: Counter[str] = Counter()
    for kind, c in counts.items():
        total.update(c)
        n = sum(c.values())
        ok = c["native"] + c["fallback"]
        lines.append(f"{kind:16} {n:8} {c['native']:7} {c['fallback']:8} {c['error']:6} {c['mismatch']:8} "
                     f"{(c['fallback'] / ok if ok else 0):13.1%}")
    n = sum(total.values())
    ok = total["native"] + total["fallback"]
    lines.append(f"{'all':16} {n:8} {total['native']:7} {total['fallback']:8} {total['error']:6} "
                 f"{total['mismatch']:8} {(total['fallback'] / ok if ok else 0):13.1%}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--details", nargs="*", default=None,
                        help="list the fallback/mismatch variants (of these kinds; none given: all)")
    parser.add_argument("--only", nargs="*", help="case ids")
    parser.add_argument("--per-kind", type=int, default=PER_KIND)
    parser.add_argument("--json", type=Path, help="write the rows here")
    args = parser.parse_args(argv)
    cases = [c for c in load_cases() if not args.only or c["id"] in args.only]
    rows = survey(cases, per_kind=args.per_kind)
    print(table(rates(rows)))
    if args.details is not None:
        for r in rows:
            if r["status"] in ("fallback", "mismatch") and (not args.details or r["kind"] in args.details):
                print(f"{r['status']:8} {r['kind']:14} {r['id']} {r['where'][:60]:60} {r['js'][:90]}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
