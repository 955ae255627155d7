"""Write compiled patch plans as one deterministic, importable Python module.

Syncers must start without compiling anything and without lark, pydantic or YAML installed,
so ``compile-patches`` writes the plans as Python: the module of every expression (from the
compiler's one emitter, ``compiler/emit.py``, which the in-process exit runs too) plus constructor calls that rebuild each
:class:`~syncpatch.runtime.plan.PatchPlan` from plain data. Everything is built with ``ast``
and printed with ``ast.unparse``; user text only ever enters as ``ast.Constant``, and names
are ours, so nothing in a config can inject code.

Same input, same bytes: configs keep command-line order, resources keep config order,
frozensets are sorted, and nothing time- or machine-dependent is written.

The module checks the runtime's ABI version *before* importing any generated-code helper, so
an artifact from an incompatible syncpatch fails with a message saying to rebuild it rather
than with an ``ImportError`` about some helper name.
"""

from __future__ import annotations

import ast
import hashlib
import math
from typing import Any, Callable, Mapping, Sequence

import attrs

from syncpatch.runtime.compiled import CompiledExpression
from syncpatch.runtime.errors import SyncpatchError

__all__ = [
    "ARTIFACT_FORMAT",
    "ArtifactBuildError",
    "ArtifactConfig",
    "EmittedFunction",
    "render_artifact",
]

ARTIFACT_FORMAT = 1
"""Layout of the module itself (names it defines); bumped when ``syncpatch.loader`` changes."""

ABI_MODULE = "syncpatch.runtime.abi"
_RUNTIME_PREFIX = "syncpatch.runtime."


class ArtifactBuildError(SyncpatchError):
    """A plan holds something the artifact cannot express (a foreign class or callable)."""


@attrs.frozen
class EmittedFunction:
    """One expression's module as the compiler emits it (``compiler/emit.py``: imports, then
    statements) and the top-level name it binds the compiled expression to."""

    module: ast.Module
    entry: str


Emitter = Callable[[str], EmittedFunction]
"""``source -> EmittedFunction``: the compiler's one emitter (see ``build``)."""


@attrs.frozen
class ArtifactConfig:
    """What the artifact records for one config file: its compiled plans and context data."""

    name: str
    plans: Mapping[tuple[str, str], Any]
    enabled: Mapping[tuple[str, str], Any]
    vcluster_config: Mapping[str, Any]
    warnings: Sequence[str] = ()


class _Names(ast.NodeTransformer):
    """Renames a generated module's top-level names consistently, everywhere in it.

    The compiler only makes identifiers of its own (``_v3``), so renaming one name in every
    position (names, defs, arguments) preserves the meaning and lets many expression modules
    share one namespace without collisions.
    """

    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.mapping.get(node.id, node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self.mapping.get(node.arg, node.arg)
        return node

    def _rename_def(self, node: Any) -> Any:
        node.name = self.mapping.get(node.name, node.name)
        self.generic_visit(node)
        return node

    visit_FunctionDef = _rename_def
    visit_ClassDef = _rename_def

    def visit_Global(self, node: ast.Global) -> ast.Global:
        node.names = [self.mapping.get(n, n) for n in node.names]
        return node

    def visit_Nonlocal(self, node: ast.Nonlocal) -> ast.Nonlocal:
        node.names = [self.mapping.get(n, n) for n in node.names]
        return node


def _top_level_names(module: ast.Module) -> list[str]:
    names: list[str] = []
    for stmt in module.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names.extend(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


class _Collector:
    """Merges generated expression modules: shared imports, renamed bodies, one entry each."""

    def __init__(self, emitter: Emitter) -> None:
        self.emitter = emitter
        self.imports: dict[str, dict[str, None]] = {}
        self.body: list[ast.stmt] = []
        self.entries: dict[str, str] = {}  # expression source -> entry name

    def function(self, source: str) -> str:
        if source in self.entries:
            return self.entries[source]
        emitted = self.emitter(source)
        prefix = f"_x{len(self.entries)}"
        mapping = {name: f"{prefix}{name if name.startswith('_') else '_' + name}"
                   for name in _top_level_names(emitted.module)}
        for stmt in emitted.module.body:
            if isinstance(stmt, ast.ImportFrom):
                self._import(stmt)
            elif isinstance(stmt, ast.Import):
                raise ArtifactBuildError("generated code may only use 'from ... import'")
            elif not _is_docstring(stmt):
                self.body.append(_Names(mapping).visit(stmt))
        entry = mapping.get(emitted.entry, emitted.entry)
        self.entries[source] = entry
        return entry

    def _import(self, stmt: ast.ImportFrom) -> None:
        module = stmt.module or ""
        if module != "syncpatch.runtime" and not module.startswith(_RUNTIME_PREFIX) or stmt.level:
            raise ArtifactBuildError(f"generated code imports {module!r}: only syncpatch.runtime is allowed")
        names = self.imports.setdefault(module, {})
        for alias in stmt.names:
            names[alias.name if alias.asname is None else f"{alias.name} as {alias.asname}"] = None

    def add_import(self, module: str, name: str) -> None:
        self.imports.setdefault(module, {})[name] = None

    def import_nodes(self) -> list[ast.stmt]:
        nodes: list[ast.stmt] = []
        for module in sorted(self.imports):
            aliases = []
            for spec in sorted(self.imports[module]):
                name, _, asname = spec.partition(" as ")
                aliases.append(ast.alias(name=name, asname=asname or None))
            nodes.append(ast.ImportFrom(module=module, names=aliases, level=0))
        return nodes


class _Values:
    """Turns plan data (attrs runtime classes, containers, scalars, compiled functions) into
    constructor expressions."""

    def __init__(self, collector: _Collector, sources: Mapping[int, str]) -> None:
        self.collector = collector
        self.sources = sources

    def expr(self, value: Any) -> ast.expr:
        if value is None or isinstance(value, (bool, int, str)):
            return ast.Constant(value)
        if isinstance(value, float):
            if math.isfinite(value):
                return ast.Constant(value)
            return ast.Call(ast.Name("_float", ast.Load()), [ast.Constant(repr(value))], [])
        if isinstance(value, tuple):
            return ast.Tuple([self.expr(v) for v in value], ast.Load())
        if isinstance(value, list):
            return ast.List([self.expr(v) for v in value], ast.Load())
        if isinstance(value, dict):
            return ast.Dict([self.expr(k) for k in value], [self.expr(v) for v in value.values()])
        if isinstance(value, frozenset):
            items = ast.Set([self.expr(v) for v in sorted(value)]) if value else ast.Tuple([], ast.Load())
            return ast.Call(ast.Name("_frozenset", ast.Load()), [items], [])
        if callable(value) and id(value) in self.sources:
            return ast.Name(self.collector.function(self.sources[id(value)]), ast.Load())
        if isinstance(value, CompiledExpression):
            return ast.Name(self.collector.function(value.source), ast.Load())
        if attrs.has(type(value)):
            return self.instance(value)
        raise ArtifactBuildError(f"cannot write {type(value).__qualname__} into an artifact")

    def instance(self, value: Any) -> ast.expr:
        cls = type(value)
        if not cls.__module__.startswith(_RUNTIME_PREFIX):
            raise ArtifactBuildError(f"{cls.__module__}.{cls.__qualname__} is not a runtime class")
        self.collector.add_import(cls.__module__, cls.__qualname__)
        keywords = []
        for field in attrs.fields(cls):
            if not field.init or _derived(field):
                continue
            current = getattr(value, field.name)
            if field.default is not attrs.NOTHING and not hasattr(field.default, "factory") \
                    and current == field.default and type(current) is type(field.default):
                continue
            keywords.append(ast.keyword(arg=field.alias or field.name.lstrip("_"), value=self.expr(current)))
        return ast.Call(ast.Name(cls.__qualname__, ast.Load()), [], keywords)


def _derived(field: Any) -> bool:
    """Fields computed from the others (``segments`` from ``path``) are rebuilt on load."""
    return bool(getattr(field.default, "takes_self", False))


def _abi_check(abi_version: Any) -> list[ast.stmt]:
    message = (
        "this syncpatch artifact was built for runtime ABI {built!r}, but the installed "
        "syncpatch runtime speaks ABI {have!r}; rebuild it with `compile-patches` from the "
        "same syncpatch version that will load it"
    )
    check = ast.parse(
        "if _RUNTIME_ABI != ABI_VERSION:\n"
        "    raise ImportError(_MESSAGE.format(built=ABI_VERSION, have=_RUNTIME_ABI))\n"
    ).body
    return [
        ast.ImportFrom(module=ABI_MODULE, names=[ast.alias("ABI_VERSION", "_RUNTIME_ABI")], level=0),
        _assign("ABI_VERSION", ast.Constant(abi_version)),
        _assign("_MESSAGE", ast.Constant(message)),
        *check,
    ]


def _assign(name: str, value: ast.expr) -> ast.stmt:
    return ast.Assign(targets=[ast.Name(name, ast.Store())], value=value, lineno=0)


def _sandbox() -> list[ast.stmt]:
    """Generated code runs without Python builtins, as the in-process exit binds it with
    ``{"__builtins__": {}}``: functions capture the module's ``__builtins__`` when they are
    created, so it is emptied before the generated ``def``s (the two builtins the plan data
    needs are kept under private names first)."""
    return [
        _assign("_frozenset", ast.Name("frozenset", ast.Load())),
        _assign("_float", ast.Name("float", ast.Load())),
        _assign("__builtins__", ast.Dict([], [])),
    ]


def _config_dict(config: ArtifactConfig, values: _Values) -> ast.expr:
    fields = {
        "plans": dict(config.plans),
        "enabled": dict(config.enabled),
        "vcluster_config": dict(config.vcluster_config),
        "warnings": tuple(config.warnings),
    }
    return values.expr(fields)


def source_digest(texts: Sequence[tuple[str, str]]) -> str:
    """sha256 over (name, text) pairs: identifies the input an artifact was built from."""
    digest = hashlib.sha256()
    for name, text in texts:
        for part in (name, text):
            data = part.encode("utf-8")
            digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def render_artifact(configs: Sequence[ArtifactConfig], *, sources: Mapping[int, str], emitter: Emitter,
                    abi_version: Any, digest: str, version: str) -> str:
    """The artifact's text. ``sources`` maps ``id(fn)`` of each compiled function in the plans
    to its JS source, so the module-text exit can regenerate it."""
    collector = _Collector(emitter)
    values = _Values(collector, sources)
    table = ast.Dict([ast.Constant(c.name) for c in configs], [_config_dict(c, values) for c in configs])
    header = [
        ast.Expr(ast.Constant(f"syncpatch patch plans: generated by compile-patches {version}; do not edit.")),
        *_abi_check(abi_version),
        _assign("ARTIFACT_FORMAT", ast.Constant(ARTIFACT_FORMAT)),
        _assign("SYNCPATCH_VERSION", ast.Constant(version)),
        _assign("SOURCE_SHA256", ast.Constant(digest)),
    ]
    body = [*header, *collector.import_nodes(), *_sandbox(), *collector.body, _assign("CONFIGS", table)]
    module = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
    return "# Generated by syncpatch compile-patches. Do not edit.\n" + ast.unparse(module) + "\n"
