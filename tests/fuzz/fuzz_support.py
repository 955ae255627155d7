"""Running one script through both backends and node, with canonical outcomes (not a test).

* closure backend: ``syncpatch.compile_expression`` (the in-process exit);
* generated-source backend: the ``compile-patches`` artifact's per-expression module
  (``patches.build._module_source``: the compiler's one emitter), printed with
  ``ast.unparse`` and executed as module text, as an artifact module runs it at import.
"""

from __future__ import annotations

import ast
import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import syncpatch
from syncpatch import Budgets, CompileError, EvaluationError, LimitExceeded

from ..support.data import NODE_EVAL as NODE_EVAL_JS
from ..support.data import require_data
from ..support.oracle_canon import canon  # one canonical form for every harness
NODE = shutil.which("node")
NODE_EVAL = require_data(NODE_EVAL_JS)
CORPUS = Path(__file__).parent / "corpus"

#: small budgets: every fuzzed script finishes (or trips one) within milliseconds
FUZZ_BUDGETS = Budgets(steps=20_000, call_depth=60, string_length=200_000, array_length=20_000,
                       allocation=8_000_000, wall_time=2.0, regex_timeout=0.2)

CONTEXT = {"vcluster": {"name": "vc", "namespace": "ns", "config": {}},
           "hostObject": {"metadata": {"name": "h"}}, "virtualObject": None}


class Escaped(Exception):
    """A Python exception other than the public error types came out of syncpatch."""


def _run(fn: Callable[..., Any], value: Any) -> Any:
    value_copy, context = copy.deepcopy(value), copy.deepcopy(CONTEXT)
    try:
        result = fn(value_copy, context)
    except LimitExceeded as exc:
        return {"$limit": exc.budget}
    except EvaluationError as exc:
        if exc.js_name == "InternalError":
            raise Escaped(f"InternalError: {exc}") from None
        return {"$error": exc.js_name}
    except BaseException as exc:  # noqa: BLE001
        raise Escaped(f"{type(exc).__name__}: {exc}"[:300]) from None
    if value_copy != value and json.dumps(canon(value_copy)) != json.dumps(canon(value)):
        raise Escaped("the caller's value was mutated")
    return canon(result)


def closure_outcome(src: str, value: Any, budgets: Budgets = FUZZ_BUDGETS) -> Any:
    try:
        fn = syncpatch.compile_expression(src, budgets=budgets)
    except CompileError:
        return {"$compile_error": True}
    except BaseException as exc:  # noqa: BLE001
        raise Escaped(f"compile: {type(exc).__name__}: {exc}"[:300]) from None
    return _run(fn, value)


def artifact_function(src: str) -> Callable[..., Any]:
    """The artifact exit for one expression (raises CompileError like the closure exit)."""
    from syncpatch.patches import build

    emitted = build._module_source(src)
    text = ast.unparse(ast.fix_missing_locations(emitted.module))
    namespace: dict[str, Any] = {}
    exec(compile(text, "<artifact>", "exec"), namespace)  # noqa: S102 - the artifact's own code
    return namespace[emitted.entry]  # type: ignore[no-any-return]


def artifact_outcome(src: str, value: Any, budgets: Budgets = FUZZ_BUDGETS) -> Any:
    try:
        fn = artifact_function(src)
    except CompileError:
        return {"$compile_error": True}
    except BaseException as exc:  # noqa: BLE001
        raise Escaped(f"artifact compile: {type(exc).__name__}: {exc}"[:300]) from None
    return _run(lambda v, c: fn(v, c, budgets=budgets), value)


def node_outcomes(scripts: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    assert NODE is not None
    lines = "".join(json.dumps({"id": i, "expr": s, "value": canon(v), "context": CONTEXT}) + "\n"
                    for i, (s, v) in enumerate(scripts))
    proc = subprocess.run([NODE, str(NODE_EVAL)], input=lines, capture_output=True, text=True, timeout=300,
                          env={"ORACLE_NODE_TIMEOUT_MS": "500", "PATH": "/usr/bin:/bin"}, check=True)
    return [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]


#: the corpus replay turns recording off (a known crasher must not be re-recorded as pending)
RECORD = {"on": True}


def save_crasher(kind: str, data: dict[str, Any]) -> Path | None:
    """Record a failing example as ``corpus/pending-<kind>-<property>.json``.

    Overwritten on every failing call, so after hypothesis has shrunk and replayed the failure
    the file holds the minimal example. Pending files are not replayed: a maintainer renames
    one into the corpus (adding ``bug`` with a one-line reason while the bug is open), and
    ``test_corpus.py`` replays it from then on.
    """
    if not RECORD["on"]:
        return None
    CORPUS.mkdir(exist_ok=True)
    body = json.dumps({"kind": kind, **data}, indent=1, sort_keys=True, ensure_ascii=True)
    path = CORPUS / f"pending-{kind}-{data.get('property', 'crash')}.json"
    path.write_text(body + "\n", encoding="utf-8")
    return path
