"""Regenerate the node-verified expectations of the stdlib expression tables.

    python tests/runtime/stdlib/gen_js_cases.py [array object ...]

Without names it regenerates only the tables listed in ``OWN_TABLES`` (other modules keep
their own tables in the same folder and may post-process them).

Reads ``cases/<name>.txt`` (one JS expression per line, optionally followed by a TAB and the
JSON ``value``; ``#`` starts a comment line) and writes ``cases/<name>.json`` with node's
canonical result for each, using the shared oracle evaluator. Tests only read the JSON, so
they never need node.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent / "cases"
NODE_EVAL = pathlib.Path(__file__).resolve().parents[2] / "data" / "oracle" / "node_eval.js"
OWN_TABLES = ("array", "array_sort", "array_fuzz", "object", "object_fuzz", "collections", "errors", "symbol")


def read_source(path: pathlib.Path) -> list[dict]:
    cases = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        expr, _, value = line.partition("\t")
        cases.append({"expr": expr, "value": json.loads(value) if value else None, "context": {}})
    return cases


def run_node(cases: list[dict]) -> list[dict]:
    lines = "".join(json.dumps({"id": i, **c}) + "\n" for i, c in enumerate(cases))
    out = subprocess.run(["node", str(NODE_EVAL)], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def main(names: list[str]) -> None:
    for name in names or OWN_TABLES:
        src = HERE / f"{name}.txt"
        cases = read_source(src)
        results = run_node(cases)
        rows = []
        for case, res in zip(cases, results):
            if "excluded" in res:
                print(f"{src.stem}: excluded ({res['excluded']}): {case['expr']}", file=sys.stderr)
                continue
            rows.append({"expr": case["expr"], "value": case["value"], "expect": res["expect"]})
        src.with_suffix(".json").write_text(json.dumps(rows, indent=1, ensure_ascii=True) + "\n")
        print(f"{src.stem}: {len(rows)} cases")


if __name__ == "__main__":
    main(sys.argv[1:])
