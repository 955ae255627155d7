"""``python -m benchmarks.native_refusals [FILE]``: why the native tier refuses each case of a
corpus (the realistic one by default), for whoever widens the subset.

The translator raises a bare ``Unsupported`` wherever a construct leaves the subset; this
reads the traceback instead: the innermost translator line that raised and the innermost JS
node it was translating (its source text), so a refusal names both the rule and the construct.
"""

from __future__ import annotations

import linecache
import sys
import traceback
from pathlib import Path
from typing import Any



def refusal(source: str) -> str | None:
    """None when the script has a native tier; else where and on what the translator gave up."""
    from syncpatch.compiler.checks import copy_mask, input_reads
    from syncpatch.compiler.emit import front
    from syncpatch.compiler.native import Unsupported
    from syncpatch.compiler.native_program import NativeTranslator

    program = front(source, "<refusal>")
    gen = NativeTranslator(copy_mask(program, input_reads(program)))
    try:
        gen.program(program)
    except Unsupported as exc:
        return _where(exc, source)
    except Exception as exc:  # noqa: BLE001 - a gap in the translator is a refusal too
        return f"{type(exc).__name__}: {exc}"
    return None


def _where(exc: BaseException, source: str) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    raised = frames[-1]
    node_text = "?"
    tb: Any = exc.__traceback__
    while tb is not None:  # the innermost frame that holds a JS node
        node = tb.tb_frame.f_locals.get("node")
        span = getattr(node, "span", None)
        if span is not None:
            node_text = _text_at(source, node)
        tb = tb.tb_next
    line = linecache.getline(raised.filename, raised.lineno or 0).strip()
    return f"{Path(raised.filename).name}:{raised.lineno} {raised.name}: {line}  <- {node_text}"


def _text_at(source: str, node: Any) -> str:
    span = node.span
    lines = source.splitlines()
    try:
        start = span.line
        text = lines[start - 1][span.column - 1:]
    except (AttributeError, IndexError):
        return type(node).__name__
    return f"{type(node).__name__} {text[:60]!r}"


def main(argv: list[str]) -> int:
    from . import bench_realistic

    path = Path(argv[0]) if argv else bench_realistic.DATA
    for case in bench_realistic.load_cases(path):
        why = refusal(case["js"])
        print(f"{case['id']}: {'native' if why is None else why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
