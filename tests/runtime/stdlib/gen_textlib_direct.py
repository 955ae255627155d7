"""Regenerate cases/textlib_direct.json (see textlib_direct.py) and the expression tables
cases/{string,regexp,textlib_misc,textlib_more}.json (run by js_cases.py) by asking node.

    python tests/runtime/stdlib/gen_textlib_direct.py

The rows are listed here; node's answers are stored, so the tests never need node.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
NODE_EVAL = HERE.parents[1] / "data" / "oracle" / "node_eval.js"

from textlib_rows import ROWS  # noqa: E402

FUNCTIONS_JS = {
    "upper": "(m) => m.toUpperCase()",
    "args": "(...a) => JSON.stringify(a)",
    "count": "(...a) => a.length",
    "dollar": "() => '$&$1$$'",
    "undef": "() => undefined",
}

PRELUDE = (
    "const FNS = {" + ", ".join(f"{k}: {v}" for k, v in FUNCTIONS_JS.items()) + "};"
    " const A = x => (x !== null && typeof x === 'object' && !Array.isArray(x))"
    " ? ('$re' in x ? new RegExp(x.$re[0], x.$re[1]) : '$fn' in x ? FNS[x.$fn] : x) : x;"
    " const N = v => { if (Array.isArray(v)) { if ('index' in v) return {arr: v.map(N), index: v.index,"
    " groups: v.groups === undefined ? null : {...v.groups}}; return v.map(N); }"
    " if (v && typeof v === 'object' && typeof v.next === 'function') return [...v].map(N); return v; };"
    " const a = (value.args || []).map(A);"
)

BODIES = {
    "proto": "return N(String.prototype[value.m].call(value.this, ...a));",
    "static": "return N(String[value.m](...a));",
    "global": "return N(globalThis[value.m](...a));",
    "exec": "const r = new RegExp(value.re[0], value.re[1]); r.lastIndex = value.li || 0;"
    " const res = r.exec(value.this); return [N(res), r.lastIndex];",
    "test": "const r = new RegExp(value.re[0], value.re[1]); r.lastIndex = value.li || 0;"
    " const res = r.test(value.this); return [res, r.lastIndex];",
    "ctor": "const r = new RegExp(...a); return [r.source, r.flags, r.global, r.ignoreCase, r.multiline,"
    " r.dotAll, r.unicode, r.sticky, r.hasIndices, r.lastIndex, String(r)];",
}


def request(i: int, row: dict) -> dict:
    if row["op"] == "literal":
        return {"id": i, "expr": row["m"], "value": None, "context": {}, "compile_only": True}
    body = BODIES[row["op"]]
    if row.get("msg"):  # the error's name and message (V8's text), or null
        body = "try { (() => { " + body + " })(); return null } catch (e) { return [e.name, e.message] }"
    expr = "(() => { " + PRELUDE + " " + body + " })()"
    return {"id": i, "expr": expr, "value": row, "context": {}}


def main() -> None:
    lines = "".join(json.dumps(request(i, r)) + "\n" for i, r in enumerate(ROWS))
    out = subprocess.run(["node", str(NODE_EVAL)], input=lines, capture_output=True, text=True, check=True)
    rows = []
    for row, line in zip(ROWS, out.stdout.split("\n")):  # not splitlines: U+2028 is data
        res = json.loads(line)
        if "excluded" in res or "internal_error" in res:
            print(f"skipped {row}: {res}", file=sys.stderr)
            continue
        expect = True if res.get("compile_ok") else res["expect"]
        rows.append({**row, "expect": expect})
    (HERE / "cases" / "textlib_direct.json").write_text(json.dumps(rows, indent=0, ensure_ascii=True) + "\n")
    print(f"{len(rows)} rows")
    expression_tables()


def expression_tables() -> None:
    """Like gen_js_cases.py, but writes ASCII JSON (results may hold lone surrogates) and
    splits node's output on newlines only (U+2028 may appear in results)."""
    from gen_js_cases import read_source

    for name in ("string", "regexp", "textlib_misc", "textlib_more"):
        src = HERE / "cases" / f"{name}.txt"
        cases = read_source(src)
        lines = "".join(json.dumps({"id": i, **c}) + "\n" for i, c in enumerate(cases))
        out = subprocess.run(["node", str(NODE_EVAL)], input=lines, capture_output=True, text=True, check=True)
        rows = []
        for case, line in zip(cases, out.stdout.split("\n")):
            res = json.loads(line)
            if "excluded" in res:
                print(f"{name}: excluded ({res['excluded']}): {case['expr']}", file=sys.stderr)
                continue
            rows.append({"expr": case["expr"], "value": case["value"], "expect": res["expect"]})
        src.with_suffix(".json").write_text(json.dumps(rows, indent=1, ensure_ascii=True) + "\n")
        print(f"{name}: {len(rows)} cases")


if __name__ == "__main__":
    main()
