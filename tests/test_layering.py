"""The stage order, checked on the source: every import edge between the project's packages
must point down (or stay inside its layer), and the runtime must load alone.

The imports are read with ``ast`` (nothing is imported), including those inside functions and
under ``TYPE_CHECKING``: a lazy import is still a dependency. ``importlib.import_module`` with a
literal module name counts as an import too.

The layers, bottom first (a layer may import the layers listed for it, and itself):

- ``grammar`` (lark + attrs) and ``runtime`` (standard library only) depend on nothing here;
- ``compiler`` turns grammar ASTs into code that runs on the runtime;
- ``yamlsource`` (YAML with line/column positions) is shared by the two config readers, and
  reads the YAML objects and request bodies of the command line and the server the same way;
- ``patches`` (sync patch configs) and ``platformconfig`` (the platform Config API; its errors
  derive from the runtime's leaf ``errors`` module, the root of every public error);
- ``server`` serves the Config API;
- the facade (``syncpatch/``: the public names, the artifact loader, the pytest plugin);
- the command line (``syncpatch/cli/``, ``python -m syncpatch``, ``make demo``) on top.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Folder in the checkout -> package it installs as (pyproject's package-dir).
FOLDERS = {
    "grammar": "syncpatch.grammar",
    "compiler": "syncpatch.compiler",
    "runtime": "syncpatch.runtime",
    "yamlsource": "syncpatch.yamlsource",
    "patches": "syncpatch.patches",
    "platformconfig": "syncpatch.platformconfig",
    "server": "syncpatch.server",
    "syncpatch": "syncpatch",
}

# Which layers each layer may import, besides itself.
ALLOWED: dict[str, frozenset[str]] = {
    "grammar": frozenset(),
    "runtime": frozenset(),
    "compiler": frozenset({"grammar", "runtime"}),
    "yamlsource": frozenset(),
    "patches": frozenset({"grammar", "compiler", "runtime", "yamlsource"}),
    "platformconfig": frozenset({"yamlsource", "runtime"}),  # runtime.errors: the root SyncpatchError
    "server": frozenset({"platformconfig", "runtime", "yamlsource"}),
    "facade": frozenset({"grammar", "compiler", "runtime", "yamlsource", "patches", "platformconfig", "server"}),
    "cli": frozenset({"grammar", "compiler", "runtime", "yamlsource", "patches", "platformconfig", "server",
                      "facade"}),
}

# Modules whose layer is not their folder's. ``syncpatch/expression.py`` is the compiler's
# public entry (``compile_expression``): it imports only grammar, compiler and runtime, and the
# patch compiler builds on it, so it sits in the compiler layer although it lives in the
# facade's folder. ``syncpatch/resources.py`` (the plan-key check shared by compiled configs
# and loaded artifacts) imports only the standard library, so artifacts load with the runtime
# alone: it sits in the runtime layer. ``syncpatch/loader.py`` (the artifact loader) imports only
# the runtime and ``resources``, so it sits there too, and ``compile-patches`` (patches) can load
# the artifact it wrote through the very loader a syncer uses.
LAYER_OF_MODULE = {
    "syncpatch.expression": "compiler",
    "syncpatch.resources": "runtime",
    "syncpatch.loader": "runtime",
    "syncpatch.__main__": "cli",
    "syncpatch.demo": "cli",
}

# Import cycles between modules (inside one layer) that are still to be broken. This list only
# shrinks: when a cycle is broken, delete its line here (the test then keeps it broken).
KNOWN_CYCLES: frozenset[frozenset[str]] = frozenset()

# What importing the runtime must not load: it is importable alone.
RUNTIME_FORBIDDEN = ("lark", "pydantic", "yaml", "syncpatch.compiler", "syncpatch.grammar")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    parts = [FOLDERS[rel.parts[0]], *rel.parts[1:-1]]
    if rel.name != "__init__.py":
        parts.append(rel.stem)
    return ".".join(parts)


def _sources() -> Iterator[tuple[str, Path]]:
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield _module_name(path), path


MODULES = dict(_sources())


def layer_of(module: str) -> str | None:
    """The layer of a project module (``None`` for anything else)."""
    for name, layer in LAYER_OF_MODULE.items():
        if module == name or module.startswith(name + "."):
            return layer
    if module == "syncpatch.cli" or module.startswith("syncpatch.cli."):
        return "cli"
    for folder, package in FOLDERS.items():
        if folder != "syncpatch" and (module == package or module.startswith(package + ".")):
            return folder
    if module == "syncpatch" or module.startswith("syncpatch."):
        return "facade"
    return None


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> list[str]:
    """The absolute module names a ``from ... import ...`` reaches."""
    if node.level:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    # `from pkg import name` reaches pkg.name when that is a module of ours, else pkg itself.
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]


def imports_of(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every module that ``module`` imports, with the line of the import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            for target in _resolve(module, path, node):
                yield target, node.lineno
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.args[0].value, node.lineno


def _edges() -> Iterator[tuple[str, str, str, int]]:
    for module, path in MODULES.items():
        for target, line in imports_of(module, path):
            if layer_of(target) is not None:
                yield module, target, f"{path.relative_to(ROOT)}:{line}", line


def test_every_module_is_in_a_layer() -> None:
    assert MODULES, "no sources found"
    assert all(layer_of(m) in ALLOWED for m in MODULES)


def upward(edges: Iterator[tuple[str, str, str, int]]) -> list[str]:
    """The edges that go against the stage order, as ``file:line: ...`` lines."""
    found = []
    for module, target, where, _ in edges:
        src, dst = layer_of(module), layer_of(target)
        assert src is not None and dst is not None
        if src != dst and dst not in ALLOWED[src]:
            found.append(f"{where}: {module} ({src}) imports {target} ({dst})")
    return found


def test_imports_go_down_the_stage_order() -> None:
    found = upward(_edges())
    assert not found, "imports against the stage order:\n" + "\n".join(found)


def test_an_upward_import_is_caught() -> None:
    edges = [
        ("syncpatch.patches.build", "syncpatch.cli.patches_cmd", "patches/build.py:1", 1),
        ("syncpatch.runtime.plan", "syncpatch.compiler.pipeline", "runtime/plan.py:2", 2),
        ("syncpatch.platformconfig.files", "syncpatch.patches", "platformconfig/files.py:3", 3),
        ("syncpatch.compiler.codegen", "syncpatch.runtime.values", "compiler/codegen.py:4", 4),
        ("syncpatch.cli.eval_cmd", "syncpatch", "syncpatch/cli/eval_cmd.py:5", 5),
    ]
    assert [line.split(":")[0] for line in upward(iter(edges))] == [
        "patches/build.py", "runtime/plan.py", "platformconfig/files.py"]


def test_every_known_cycle_still_exists() -> None:
    """A broken cycle must leave KNOWN_CYCLES, so that it cannot come back unnoticed."""
    current = {frozenset(c) for c in _cycles(_graph())}
    assert not KNOWN_CYCLES - current, f"broken, remove from KNOWN_CYCLES: {sorted(map(sorted, KNOWN_CYCLES - current))}"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, ()):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports, without a package's edges to and from its own
    submodules (an ``__init__`` that re-exports them)."""
    graph: dict[str, set[str]] = {}
    for module, target, _, _ in _edges():
        if target in MODULES and target != module and not module.startswith(target + "."):
            if not target.startswith(module + "."):
                graph.setdefault(module, set()).add(target)
    return graph


def test_no_import_cycles() -> None:
    cycles = [c for c in _cycles(_graph()) if frozenset(c) not in KNOWN_CYCLES]
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_runtime_loads_alone() -> None:
    probe = (
        "import sys, syncpatch.runtime, syncpatch.runtime.stdlib, syncpatch.runtime.plan;"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {RUNTIME_FORBIDDEN!r}"
        f" or any(m == f or m.startswith(f + '.') for f in {RUNTIME_FORBIDDEN!r})))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", f"importing syncpatch.runtime loaded: {result.stdout.strip()}"


@pytest.mark.parametrize("first", ["syncpatch.runtime.errors", "syncpatch.runtime.members",
                                   "syncpatch.runtime.stdlib.string", "syncpatch.runtime.stdlib.regexp_vclass"])
def test_any_runtime_module_imported_first_loads_the_whole_runtime(first: str) -> None:
    """The runtime package composes the core (``members``) and the stdlib, which do not import
    each other: whichever module a process imports first, every built-in is registered."""
    probe = (
        f"import {first}\n"
        "from syncpatch.runtime.stdlib.registry import ARRAY_PROTO, GLOBALS\n"
        "from syncpatch.runtime.well_known import SYMBOL_ITERATOR\n"
        "print(all(n in GLOBALS for n in ('Array', 'Object', 'RegExp', 'Symbol', 'JSON')),"
        " 'map' in ARRAY_PROTO, SYMBOL_ITERATOR in ARRAY_PROTO)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True"]


@pytest.mark.parametrize("source", ["from .a import b", "from . import c", "from ..x import y"])
def test_relative_imports_resolve_inside_the_package(source: str) -> None:
    path = ROOT / "patches" / "m.py"
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.ImportFrom)
    targets = _resolve("syncpatch.patches.m", path, node)
    assert all(t.startswith("syncpatch.") for t in targets)
    assert layer_of(targets[0]) in {"patches", "facade"}
