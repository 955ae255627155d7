"""Early errors (ECMA-262 static semantics) that need the whole tree: scopes and strictness.

The parser sees one token at a time, so rules about a declaration and the scope around it
are checked here on the AST, before any code is generated:

- a ``let``/``const`` declaration where only a statement may stand (``if (a) let b = 1;``), a
  labelled function in a loop or ``with`` body, a function declaration as an ``if`` branch in strict code;
- redeclarations: a name declared twice lexically in one scope, a lexical name that a ``var``
  in the same scope also declares (``let a; { var a; }``), a parameter or catch parameter
  redeclared by ``let``/``const`` in the body, ``let`` as a lexically bound name;
- strict-mode rules (a ``"use strict"`` directive, or the prologue the caller prepends):
  legacy octal literals and escapes, ``with``, ``delete`` of a plain name, duplicate parameters, the
  future reserved words (``implements``, ``static``, ``yield``, ...) as identifiers, and a
  ``"use strict"`` directive in a function with non-simple parameters.

Each violation is raised as ``EarlyError`` (message, node) and becomes a ``GrammarError``
with the node's position in ``build.parse``.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from . import ast as A

__all__ = ["EarlyError", "check", "has_use_strict"]

#: reserved words, never an identifier (12.7.2); the lexer lets an escaped one, or one where
#: a property name could stand, through as an identifier, so a reference or binding is refused here
RESERVED = frozenset("""break case catch class const continue debugger default delete do else enum export
    extends false finally for function if import in instanceof new null return super switch this throw true
    try typeof var void while with""".split())
#: identifiers reserved in strict mode code only (ECMA-262 12.7.2, 13.1.1)
STRICT_RESERVED = frozenset("implements interface let package private protected public static yield".split())
_LEGACY_OCTAL_NUMBER = re.compile(r"0[0-9]")
_LEGACY_OCTAL_ESCAPE = re.compile(r"\\(?:[1-9]|0[0-9])")
_FUNCTIONS = (A.FunctionDeclaration, A.FunctionExpression, A.ArrowFunctionExpression)
_LOOPS = (A.WhileStatement, A.DoWhileStatement, A.ForStatement, A.ForInStatement, A.ForOfStatement)


class EarlyError(Exception):
    """A static-semantics error at ``node``."""

    def __init__(self, message: str, node: Any) -> None:
        super().__init__(message)
        self.message = message
        self.node = node


def check(program: A.Program, source: str | None = None) -> None:
    """Raise ``EarlyError`` for the first violation in ``program`` (``source``, when given,
    spares the walk for ``super`` in scripts whose text cannot hold it)."""
    strict = has_use_strict(program.body)
    _check_var_scope(program.body, (), strict, top_level_functions_are_vars=True)
    _walk(program, strict)
    if source is None or "super" in source:
        _check_super(program)


# ---------------------------------------------------------------------------- strictness
def _directives(body: Iterable[Any]) -> Iterator[A.Literal]:
    """The string literals of a directive prologue."""
    for stmt in body:
        if isinstance(stmt, A.ExpressionStatement) and isinstance(stmt.expression, A.Literal) \
                and isinstance(stmt.expression.value, str) and stmt.expression.raw[:1] in "'\"":
            yield stmt.expression
        else:
            return


def has_use_strict(body: Iterable[Any]) -> bool:
    """A "use strict" directive in the directive prologue (11.2.1)."""
    return any(d.raw[1:-1] == "use strict" for d in _directives(body))


def _is_simple(params: tuple[Any, ...]) -> bool:
    return all(isinstance(p, A.Identifier) for p in params)


# ---------------------------------------------------------------------------- the walk
def _walk(node: Any, strict: bool) -> None:
    """Statement-position, strict-mode and per-function checks over the whole tree."""
    stack: list[tuple[Any, bool]] = [(node, strict)]
    while stack:
        n, is_strict = stack.pop()
        if isinstance(n, tuple):
            stack.extend((item, is_strict) for item in reversed(n))
            continue
        if not hasattr(n, "__attrs_attrs__"):
            continue
        if isinstance(n, A.CLASSES):
            is_strict = True  # every part of a class is strict code (11.2.2)
            if n.id is not None:
                _strict_binding(n.id)
        if isinstance(n, _FUNCTIONS):
            is_strict = _check_function(n, is_strict)
        else:
            _check_statement_positions(n, is_strict)
            _check_any_mode(n)
            if is_strict:
                _check_strict(n)
        for f in n.__attrs_attrs__:
            if f.name == "span":
                continue
            child = getattr(n, f.name)
            if _is_property_name(n, f.name):
                continue  # a property name may be any word: ({static: 1}).static
            stack.append((child, is_strict))


def _is_property_name(node: Any, field: str) -> bool:
    if field == "property" and isinstance(node, A.MemberExpression):
        return not node.computed
    if field == "key" and isinstance(node, (A.MethodDefinition, A.PropertyDefinition)):
        return not node.computed
    return field == "key" and isinstance(node, A.Property) and not node.computed and not node.shorthand


def _check_function(fn: Any, outer_strict: bool) -> bool:
    """Checks on one function; returns whether its body is strict code."""
    body = fn.body.body if isinstance(fn.body, A.BlockStatement) else ()
    own = has_use_strict(body)
    if own and not _is_simple(fn.params):
        raise EarlyError("Illegal 'use strict' directive in function with non-simple parameter list", fn)
    strict = outer_strict or own
    names = [ident for p in fn.params for ident in _bound(p)]
    if strict or isinstance(fn, A.ArrowFunctionExpression) or not _is_simple(fn.params):
        _no_duplicates(names, "Duplicate parameter name not allowed in this context")
    if strict:
        for ident in names + ([fn.id] if getattr(fn, "id", None) is not None else []):
            _strict_binding(ident)
    if isinstance(fn.body, A.BlockStatement):
        _check_var_scope(fn.body.body, tuple(names), strict, top_level_functions_are_vars=True)
    return strict


def _check_statement_positions(n: Any, strict: bool) -> None:
    single: list[Any] = []
    if isinstance(n, A.IfStatement):
        single = [n.consequent, n.alternate]
        for branch in single:
            if isinstance(branch, A.FunctionDeclaration) and strict:
                raise EarlyError("In strict mode code, functions can only be declared at top level or inside a "
                                 "block.", branch)
    elif isinstance(n, _LOOPS):
        single = [n.body]
        body = n.body
        while isinstance(body, A.LabeledStatement):
            body = body.body
        if isinstance(body, A.FunctionDeclaration):
            raise EarlyError("A function declaration cannot be the body of a loop", body)
    elif isinstance(n, A.WithStatement):
        if strict:
            raise EarlyError("Strict mode code may not include a with statement", n)
        single = [n.body]
        body = n.body
        while isinstance(body, A.LabeledStatement):
            body = body.body
        if isinstance(body, A.FunctionDeclaration):  # IsLabelledFunction (14.11.1)
            raise EarlyError("A function declaration cannot be the body of a with statement", body)
    elif isinstance(n, A.LabeledStatement):
        single = [n.body]
        if isinstance(n.body, A.FunctionDeclaration) and strict:
            raise EarlyError("In strict mode code, functions can only be declared at top level or inside a block.",
                             n.body)
    for stmt in single:
        if isinstance(stmt, A.ClassDeclaration):
            raise EarlyError("Unexpected token 'class'", stmt)
        if isinstance(stmt, A.VariableDeclaration) and stmt.kind in ("let", "const"):
            raise EarlyError("Lexical declaration cannot appear in a single-statement context", stmt)


def _check_any_mode(n: Any) -> None:
    if isinstance(n, A.Identifier) and n.name in RESERVED:
        raise EarlyError(f"Unexpected reserved word '{n.name}'", n)
    if isinstance(n, A.RestElement) and isinstance(n.argument, A.AssignmentPattern):
        raise EarlyError("Rest element may not have a default initializer", n)


def _check_strict(n: Any) -> None:
    if isinstance(n, A.Literal):
        if isinstance(n.value, (int, float)) and not isinstance(n.value, bool) \
                and _LEGACY_OCTAL_NUMBER.match(n.raw):
            raise EarlyError("Octal literals are not allowed in strict mode.", n)
        if isinstance(n.value, str) and n.raw[:1] in "'\"" and _LEGACY_OCTAL_ESCAPE.search(_unescaped_pairs(n.raw)):
            raise EarlyError("Octal escape sequences are not allowed in strict mode.", n)
    elif isinstance(n, A.UnaryExpression) and n.operator == "delete" and isinstance(n.argument, A.Identifier):
        raise EarlyError("Delete of an unqualified identifier in strict mode.", n)
    elif isinstance(n, A.UpdateExpression) and isinstance(n.argument, A.Identifier) \
            and n.argument.name in ("eval", "arguments"):
        raise EarlyError("Unexpected eval or arguments in strict mode", n.argument)
    elif isinstance(n, A.AssignmentExpression) and isinstance(n.left, A.Identifier) \
            and n.left.name in ("eval", "arguments"):
        raise EarlyError("Unexpected eval or arguments in strict mode", n.left)
    elif isinstance(n, A.AssignmentExpression) and not isinstance(n.left, (A.Identifier, A.MemberExpression)):
        for ident in _bound(n.left):  # a destructuring assignment: [eval] = a
            _strict_binding(ident)
    elif isinstance(n, (A.ForInStatement, A.ForOfStatement)) and not isinstance(n.left, A.VariableDeclaration):
        for ident in _bound(n.left):
            _strict_binding(ident)
    elif isinstance(n, A.Identifier) and n.name in STRICT_RESERVED:
        raise EarlyError(f"Unexpected strict mode reserved word '{n.name}'", n)
    elif isinstance(n, A.VariableDeclarator):
        for ident in _bound(n.id):
            _strict_binding(ident)
    elif isinstance(n, A.CatchClause) and n.param is not None:
        for ident in _bound(n.param):
            _strict_binding(ident)


def _unescaped_pairs(raw: str) -> str:
    """The literal's text with ``\\\\`` pairs blanked, so ``"\\\\1"`` is not an octal escape."""
    return raw.replace("\\\\", "__")


def _strict_binding(ident: A.Identifier) -> None:
    if ident.name in ("eval", "arguments"):
        raise EarlyError("Unexpected eval or arguments in strict mode", ident)
    if ident.name in STRICT_RESERVED:
        raise EarlyError(f"Unexpected strict mode reserved word '{ident.name}'", ident)


# ---------------------------------------------------------------------------- scopes
def _bound(pattern: Any) -> list[A.Identifier]:
    """The identifiers a binding pattern binds (BoundNames)."""
    out: list[A.Identifier] = []
    stack = [pattern]
    while stack:
        p = stack.pop()
        if isinstance(p, A.Identifier):
            out.append(p)
        elif isinstance(p, A.AssignmentPattern):
            stack.append(p.left)
        elif isinstance(p, A.RestElement):
            stack.append(p.argument)
        elif isinstance(p, A.ArrayPattern):
            stack.extend(e for e in reversed(p.elements) if e is not None)
        elif isinstance(p, A.ObjectPattern):
            stack.extend(prop.argument if isinstance(prop, A.RestElement) else prop.value
                         for prop in reversed(p.properties))
    return out


def _no_duplicates(idents: list[A.Identifier], message: str) -> None:
    seen: set[str] = set()
    for ident in idents:
        if ident.name in seen:
            raise EarlyError(f"{message}: '{ident.name}'" if "'" not in message else message, ident)
        seen.add(ident.name)


def _lexical(stmts: Iterable[Any], functions_are_lexical: bool) -> list[tuple[A.Identifier, bool]]:
    """(name, is a function declaration) for each lexically declared name of a statement list."""
    out: list[tuple[A.Identifier, bool]] = []
    for stmt in stmts:
        if isinstance(stmt, A.VariableDeclaration) and stmt.kind in ("let", "const"):
            out.extend((ident, False) for d in stmt.declarations for ident in _bound(d.id))
        elif isinstance(stmt, A.FunctionDeclaration) and functions_are_lexical:
            out.append((stmt.id, True))
        elif isinstance(stmt, A.ClassDeclaration):
            out.append((stmt.id, False))
    return out


# ---------------------------------------------------------------------------- super
def _check_super(program: A.Program) -> None:
    """``super.x`` only inside a method (15.4.1, its HomeObject), ``super(...)`` only inside
    the constructor of a class with ``extends`` (15.7.1); arrows see their outer context."""
    stack: list[tuple[Any, bool, bool]] = [(program, False, False)]
    while stack:
        n, prop_ok, call_ok = stack.pop()
        if isinstance(n, tuple):
            stack.extend((item, prop_ok, call_ok) for item in n)
            continue
        if not hasattr(n, "__attrs_attrs__"):
            continue
        if isinstance(n, A.MemberExpression) and isinstance(n.object, A.Super) and not prop_ok:
            raise EarlyError("'super' keyword unexpected here", n.object)
        if isinstance(n, A.CallExpression) and isinstance(n.callee, A.Super) and not call_ok:
            raise EarlyError("'super' keyword unexpected here", n.callee)
        if isinstance(n, (A.FunctionDeclaration, A.FunctionExpression)):
            prop_ok = call_ok = False
        elif isinstance(n, A.Property) and (n.method or n.kind != "init") and isinstance(n.value, A.FunctionExpression):
            stack.append((n.key, prop_ok, call_ok))
            stack.append((n.value.body, True, False))
            stack.extend((p, True, False) for p in n.value.params)
            continue
        elif isinstance(n, A.CLASSES):
            derived = n.superClass is not None
            stack.append((n.superClass, prop_ok, call_ok))
            for element in n.body.body:
                stack.append((element.key, prop_ok, call_ok))
                inner_call = derived and isinstance(element, A.MethodDefinition) and element.kind == "constructor"
                if isinstance(element, A.MethodDefinition):
                    stack.append((element.value.body, True, inner_call))
                    stack.extend((p, True, inner_call) for p in element.value.params)
                elif element.value is not None:
                    stack.append((element.value, True, False))
            continue
        for f in n.__attrs_attrs__:
            if f.name != "span":
                stack.append((getattr(n, f.name), prop_ok, call_ok))


def _var_names(stmts: Iterable[Any], top_level_functions: bool) -> set[str]:
    """VarDeclaredNames of a statement list: ``var`` bindings anywhere inside (functions not
    entered), plus the top-level function declarations of a function or script body."""
    names: set[str] = set()
    stack: list[Any] = list(stmts)
    if top_level_functions:
        names.update(s.id.name for s in stack if isinstance(s, A.FunctionDeclaration))
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(n)
            continue
        if not hasattr(n, "__attrs_attrs__") or isinstance(n, _FUNCTIONS):
            continue
        if isinstance(n, A.VariableDeclaration):
            if n.kind == "var":
                names.update(ident.name for d in n.declarations for ident in _bound(d.id))
            continue  # initialisers hold no declarations that count here (functions are not entered)
        if isinstance(n, (A.ExpressionStatement, A.ReturnStatement, A.ThrowStatement)):
            continue
        for f in n.__attrs_attrs__:
            if f.name != "span":
                stack.append(getattr(n, f.name))
    return names


def _check_var_scope(body: tuple[Any, ...], params: tuple[A.Identifier, ...], strict: bool,
                     top_level_functions_are_vars: bool) -> None:
    """A function or script body: its own declarations, then every block inside it."""
    lexical = _lexical(body, functions_are_lexical=not top_level_functions_are_vars)
    _check_lexical(lexical, strict)
    var_names = _var_names(body, top_level_functions=top_level_functions_are_vars)
    for ident, _ in lexical:
        if ident.name in var_names:
            raise EarlyError(f"Identifier '{ident.name}' has already been declared", ident)
        if any(p.name == ident.name for p in params):
            raise EarlyError(f"Identifier '{ident.name}' has already been declared", ident)
    for stmt in body:
        _check_blocks(stmt, strict)


def _check_lexical(lexical: list[tuple[A.Identifier, bool]], strict: bool) -> None:
    seen: dict[str, bool] = {}
    for ident, is_function in lexical:
        if ident.name == "let" and not is_function:
            raise EarlyError("let is disallowed as a lexically bound name", ident)
        if ident.name in seen and not (not strict and is_function and seen[ident.name]):
            raise EarlyError(f"Identifier '{ident.name}' has already been declared", ident)
        seen[ident.name] = is_function


def _block_scope(stmts: tuple[Any, ...], strict: bool, extra: Iterable[A.Identifier] = (),
                 extra_var_conflicts: bool = True) -> None:
    """One block-like scope (block, case block, catch body): lexical names against each other,
    against the ``var`` names inside it, and against ``extra`` (a catch parameter)."""
    lexical = _lexical(stmts, functions_are_lexical=True)
    if not lexical and not extra:
        return
    _check_lexical(lexical, strict)
    var_names = _var_names(stmts, top_level_functions=False)
    for ident, _ in lexical:
        if ident.name in var_names:
            raise EarlyError(f"Identifier '{ident.name}' has already been declared", ident)
    names = {ident.name for ident, _ in lexical}
    for ident in extra:
        if ident.name in names or (extra_var_conflicts and ident.name in var_names):
            raise EarlyError(f"Identifier '{ident.name}' has already been declared", ident)


def _check_blocks(node: Any, strict: bool) -> None:
    """Every block-like scope under ``node`` (functions are checked by their own walk)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(n)
            continue
        if not hasattr(n, "__attrs_attrs__") or isinstance(n, _FUNCTIONS):
            continue
        if isinstance(n, A.BlockStatement):
            _block_scope(n.body, strict)
        elif isinstance(n, A.SwitchStatement):
            _block_scope(tuple(s for case in n.cases for s in case.consequent), strict)
        elif isinstance(n, A.CatchClause) and n.param is not None:
            params = _bound(n.param)
            _no_duplicates(params, "Identifier has already been declared")
            # Annex B.3.5: `catch (e) { var e; }` is allowed for a plain identifier parameter
            _block_scope(n.body.body, strict, params, extra_var_conflicts=not isinstance(n.param, A.Identifier))
            stack.extend(n.body.body)
            continue
        elif isinstance(n, (A.ForStatement, A.ForInStatement, A.ForOfStatement)):
            head = n.init if isinstance(n, A.ForStatement) else n.left
            if isinstance(head, A.VariableDeclaration) and head.kind in ("let", "const"):
                bound = [ident for d in head.declarations for ident in _bound(d.id)]
                _check_lexical([(ident, False) for ident in bound], strict)
                body_vars = _var_names((n.body,), top_level_functions=False)
                for ident in bound:
                    if ident.name in body_vars:
                        raise EarlyError(f"Identifier '{ident.name}' has already been declared", ident)
        for f in n.__attrs_attrs__:
            if f.name != "span":
                stack.append(getattr(n, f.name))
