"""Regenerate cases/numeric_direct.json (rows in numeric_rows.py) by asking node.

    python tests/runtime/stdlib/gen_numeric_direct.py

Runs every row of ``numeric_rows.ROWS`` in node under ``TZ=UTC`` and stores node's answer
(error constructor name *and* message for throws). The tests only read the JSON file.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

HERE = pathlib.Path(__file__).parent

from numeric_rows import FUNCTIONS, ROWS  # noqa: E402

RUNNER = r"""
const FNS = {%s};
const rows = JSON.parse(require('fs').readFileSync(0, 'utf8'));
function dec(v) {
  if (Array.isArray(v)) return v.map(dec);
  if (v !== null && typeof v === 'object') {
    if ('$undefined' in v) return undefined;
    if ('$number' in v) return ({NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0})[v.$number];
    if ('$date' in v) return new Date(dec(v.$date));
    if ('$fn' in v) return FNS[v.$fn];
    const o = {};
    for (const k of Object.keys(v)) o[k] = dec(v[k]);
    return o;
  }
  return v;
}
function num(x) {
  if (Number.isNaN(x)) return {$number: 'NaN'};
  if (x === Infinity) return {$number: 'Infinity'};
  if (x === -Infinity) return {$number: '-Infinity'};
  if (Object.is(x, -0)) return {$number: '-0'};
  if (Number.isInteger(x) && Math.abs(x) <= 2 ** 53) return x;
  if (Number.isInteger(x)) return {$number: x.toExponential()};
  return x;
}
function canon(v) {
  if (v === undefined) return {$undefined: true};
  if (typeof v === 'number') return num(v);
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'function') return {$function: v.name};
  if (v instanceof Date) return {$date: num(v.getTime())};
  if (Array.isArray(v)) return Array.from(v, canon);
  return {$obj: Object.keys(v).map(k => [k, canon(v[k])])};
}
const out = rows.map(([group, target, thisArg, args]) => {
  const [kind, path] = target.split(':');
  const parts = path.split('.');
  const a = dec(args);
  try {
    let r;
    if (kind === 'proto') r = globalThis[parts[0]].prototype[parts[1]].call(dec(thisArg), ...a);
    else if (kind === 'static') r = globalThis[parts[0]][parts[1]](...a);
    else if (kind === 'call') r = globalThis[parts[0]](...a);
    else r = new globalThis[parts[0]](...a);
    return canon(r);
  } catch (e) {
    return {$error: e.constructor.name, message: e.message};
  }
});
process.stdout.write(JSON.stringify(out));
"""


def main() -> None:
    runner = RUNNER % ", ".join(f"{k}: {v}" for k, v in FUNCTIONS.items())
    env = dict(os.environ, TZ="UTC")
    proc = subprocess.run(["node", "-e", runner], input=json.dumps(ROWS), capture_output=True, text=True,
                          check=True, env=env)
    answers = json.loads(proc.stdout)
    rows = [{"group": g, "target": t, "this": this, "args": args, "expect": e}
            for (g, t, this, args), e in zip(ROWS, answers)]
    path = HERE / "cases" / "numeric_direct.json"
    text = "[\n" + ",\n".join(json.dumps(r, ensure_ascii=True, separators=(",", ":")) for r in rows) + "\n]\n"
    path.write_text(text)
    print(f"wrote {len(rows)} rows to {path}")


if __name__ == "__main__":
    main()
