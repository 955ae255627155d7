"""Scope analysis: which JS binding an identifier means, and its Python name.

Every JS binding (var, let, const, parameter, function declaration, catch parameter) gets a
compiler-made Python identifier ``_vN``; a side table maps it back to the JS name for error
messages. ``var`` and function declarations are hoisted to the function (ECMA-262 10.2.11
FunctionDeclarationInstantiation); ``let``/``const`` are block scoped (14.2.3). Each JS
function becomes one Python ``def``; writes to a binding of an enclosing ``def`` are declared
``nonlocal`` there.
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from syncpatch.grammar import ast as A

__all__ = ["Binding", "Scope", "FunctionFrame", "var_names", "lexical_decls", "function_decls", "pattern_names"]


@attrs.define
class Binding:
    name: str
    pyname: str
    kind: str  # "var", "let", "const", "param", "function", "catch", "global-arg"
    frame: "FunctionFrame"
    per_iteration: bool = False  # a let/const made afresh by each loop iteration (14.7.4.4)
    tdz: bool = False  # declared (hoisted) but its declaration has not been compiled yet
    decl_pos: tuple[int, int] = (0, 0)
    #: a parameter aliased by a mapped arguments object (10.4.4.7): the Python names of the
    #: object and of its parameter-value list, and the index; read ``pv[i]``, written by
    #: ``param_set(args, i, value)``
    mapped: tuple[str, str, int] | None = None


@attrs.define
class FunctionFrame:
    """One Python ``def`` being generated."""

    parent: "FunctionFrame | None"
    this_name: str | None  # Python name of ``this`` (None: arrow or the script)
    arguments_name: str | None = None
    nonlocals: set[str] = attrs.field(factory=set)
    is_arrow: bool = False
    start: tuple[int, int] = (0, 0)
    by_value: set[str] = attrs.field(factory=set)  # per-iteration bindings captured at creation
    loop_depth: int = 0
    uses_this: bool = False
    callee_cell: str | None = None  # a list that holds this function's object once made


@attrs.define
class Scope:
    parent: "Scope | None"
    frame: FunctionFrame
    bindings: dict[str, Binding] = attrs.field(factory=dict)
    with_obj: str | None = None  # a `with` body's scope: the Python name of its object

    def lookup(self, name: str) -> Binding | None:
        scope: Scope | None = self
        while scope is not None:
            b = scope.bindings.get(name)
            if b is not None:
                return b
            scope = scope.parent
        return None


def pattern_names(p: Any) -> Iterator[A.Identifier]:
    """The identifiers a binding pattern declares."""
    match p:
        case A.Identifier():
            yield p
        case A.AssignmentPattern():
            yield from pattern_names(p.left)
        case A.RestElement():
            yield from pattern_names(p.argument)
        case A.ArrayPattern():
            for e in p.elements:
                if e is not None:
                    yield from pattern_names(e)
        case A.ObjectPattern():
            for prop in p.properties:
                yield from pattern_names(prop.value if isinstance(prop, A.Property) else prop)
        case _:
            return


def _children_statements(s: Any) -> Iterator[Any]:
    match s:
        case A.BlockStatement():
            yield from s.body
        case A.IfStatement():
            yield s.consequent
            if s.alternate is not None:
                yield s.alternate
        case A.ForStatement():
            if isinstance(s.init, A.VariableDeclaration):
                yield s.init
            yield s.body
        case A.ForInStatement() | A.ForOfStatement():
            if isinstance(s.left, A.VariableDeclaration):
                yield s.left
            yield s.body
        case A.WhileStatement() | A.DoWhileStatement() | A.LabeledStatement() | A.WithStatement():
            yield s.body
        case A.TryStatement():
            yield s.block
            if s.handler is not None:
                yield s.handler.body
            if s.finalizer is not None:
                yield s.finalizer
        case A.SwitchStatement():
            for case in s.cases:
                yield from case.consequent
        case _:
            return


def var_names(body: tuple[Any, ...]) -> list[A.Identifier]:
    """VarDeclaredNames (8.2.6): ``var`` bindings anywhere in a function body, not nested
    functions; in source order, duplicates kept (the caller dedupes)."""
    out: list[A.Identifier] = []
    stack = list(reversed(body))
    while stack:
        s = stack.pop()
        if isinstance(s, A.VariableDeclaration) and s.kind == "var":
            for d in s.declarations:
                out.extend(pattern_names(d.id))
        stack.extend(reversed(list(_children_statements(s))))
    return out


def lexical_decls(body: tuple[Any, ...]) -> list[tuple[A.Identifier, str]]:
    """LexicallyDeclaredNames of a block's own statements (let/const; a class declaration
    binds like ``let``, 15.7.15)."""
    out: list[tuple[A.Identifier, str]] = []
    for s in body:
        if isinstance(s, A.VariableDeclaration) and s.kind != "var":
            for d in s.declarations:
                out.extend((i, s.kind) for i in pattern_names(d.id))
        elif isinstance(s, A.ClassDeclaration):
            out.append((s.id, "let"))
    return out


def function_decls(body: tuple[Any, ...]) -> list[A.FunctionDeclaration]:
    """Function declarations directly in a block (hoisted to its start)."""
    out = []
    for s in body:
        while isinstance(s, A.LabeledStatement):
            s = s.body
        if isinstance(s, A.FunctionDeclaration):
            out.append(s)
    return out
