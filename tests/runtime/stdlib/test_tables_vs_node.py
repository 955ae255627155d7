"""Differential check: the committed expectations of the Array/Object/Map/Set/Error/Symbol
tables still agree with node (skipped when node is absent)."""

import json
import shutil
import subprocess

import pytest

from ...support.data import require_data
from .gen_js_cases import NODE_EVAL, OWN_TABLES, HERE

pytestmark = pytest.mark.node


@pytest.mark.parametrize("name", OWN_TABLES)
def test_table_matches_node(name):
    require_data(NODE_EVAL)
    if shutil.which("node") is None:
        pytest.skip("node is not available")
    rows = json.loads((HERE / f"{name}.json").read_text())
    lines = "".join(json.dumps({"id": i, "expr": r["expr"], "value": r["value"], "context": {}}) + "\n"
                    for i, r in enumerate(rows))
    out = subprocess.run(["node", str(NODE_EVAL)], input=lines, capture_output=True, text=True, check=True)
    results = [json.loads(line) for line in out.stdout.splitlines()]
    stale = [r["expr"] for r, res in zip(rows, results) if res.get("expect") != r["expect"]]
    assert not stale, f"regenerate with gen_js_cases.py {name}: {stale[:5]}"
