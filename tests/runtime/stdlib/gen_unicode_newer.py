#!/usr/bin/env python3
"""Print ``NEWER_ASSIGNED`` for runtime/stdlib/regexp_unicode.py: the code points node's
``\\p{Cn}`` holds but the regex package assigns (needs node on PATH).

    python tests/runtime/stdlib/gen_unicode_newer.py
"""

from __future__ import annotations

import json
import subprocess

import regex

NODE_SCRIPT = r"""
const re = /\p{Cn}/u; const out = []; let start = -1;
for (let cp = 0; cp <= 0x110000; cp++) {
  const m = cp <= 0x10FFFF && re.test(String.fromCodePoint(cp));
  if (m && start < 0) start = cp;
  if (!m && start >= 0) { out.push([start, cp - 1]); start = -1; }
}
console.log(JSON.stringify(out));
"""


def main() -> None:
    node_cn = json.loads(subprocess.run(["node", "-e", NODE_SCRIPT], capture_output=True, text=True,
                                        check=True).stdout)
    assigned = regex.compile(r"\P{Cn}")
    ranges: list[list[int]] = []
    for lo, hi in node_cn:
        for cp in range(lo, hi + 1):
            if not 0xD800 <= cp <= 0xDFFF and assigned.match(chr(cp)):
                if ranges and ranges[-1][1] == cp - 1:
                    ranges[-1][1] = cp
                else:
                    ranges.append([cp, cp])
    line = "    "
    for lo, hi in ranges:
        item = f"(0x{lo:05X}, 0x{hi:05X}), "
        if len(line) + len(item) > 110:
            print(line.rstrip())
            line = "    "
        line += item
    print(line.rstrip())


if __name__ == "__main__":
    main()
