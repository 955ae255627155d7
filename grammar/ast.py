"""The typed AST: frozen attrs classes with ESTree names, each with a source ``span``.

This is the hand-over type between the grammar stage and the compiler; nothing downstream
sees Lark. Field names follow ESTree (https://github.com/estree/estree) so that readers who
know Babel or Acorn find their way; ``span`` is the 1-based line/column range in the script.
One departure: the name in ``obj.name`` is a ``PropertyName``, not an ``Identifier``, so
that no pass can take it for a variable reference.
"""

from __future__ import annotations

from typing import Any, Iterator, Union

import attrs

from .errors import Span

__all__ = [
    "Span", "Node", "Expression", "Statement", "Pattern",
    "Program", "ExpressionStatement", "BlockStatement", "EmptyStatement", "VariableDeclaration",
    "VariableDeclarator", "IfStatement", "ForStatement", "ForInStatement", "ForOfStatement",
    "WhileStatement", "DoWhileStatement", "BreakStatement", "ContinueStatement", "ReturnStatement",
    "ThrowStatement", "TryStatement", "CatchClause", "SwitchStatement", "SwitchCase",
    "LabeledStatement", "WithStatement", "FunctionDeclaration",
    "Identifier", "PropertyName", "Literal", "RegExpLiteral", "TemplateLiteral", "TaggedTemplateExpression",
    "ThisExpression", "ArrayExpression", "ObjectExpression", "Property", "FunctionExpression",
    "ArrowFunctionExpression", "UnaryExpression", "UpdateExpression", "BinaryExpression",
    "LogicalExpression", "AssignmentExpression", "ConditionalExpression", "CallExpression",
    "NewExpression", "MemberExpression", "ChainExpression", "SequenceExpression", "SpreadElement",
    "ObjectPattern", "ArrayPattern", "AssignmentPattern", "RestElement", "dump", "walk", "FUNCTIONS",
    "Super", "ClassDeclaration", "ClassExpression", "ClassBody", "MethodDefinition", "PropertyDefinition", "CLASSES",
]



@attrs.frozen(kw_only=True)
class Identifier:
    name: str
    span: Span


@attrs.frozen(kw_only=True)
class PropertyName:
    """The name after the dot in ``obj.name`` / ``obj?.name``: a property key spelled as a
    word, never a variable reference (any word, reserved ones included: ``obj.if``)."""
    name: str
    span: Span


@attrs.frozen(kw_only=True)
class Literal:
    """A number, string, boolean or null literal (``value`` is already the JS value)."""
    value: object
    raw: str
    span: Span


@attrs.frozen(kw_only=True)
class RegExpLiteral:
    pattern: str
    flags: str
    span: Span


@attrs.frozen(kw_only=True)
class TemplateLiteral:
    """``quasis`` are the cooked strings (None when invalid, allowed only in tagged templates)."""
    quasis: tuple[str | None, ...]
    raws: tuple[str, ...]
    expressions: tuple["Expression", ...]
    span: Span


@attrs.frozen(kw_only=True)
class TaggedTemplateExpression:
    tag: "Expression"
    quasi: TemplateLiteral
    span: Span


@attrs.frozen(kw_only=True)
class ThisExpression:
    span: Span


@attrs.frozen(kw_only=True)
class MetaProperty:
    """``new.target`` (13.3.12)."""
    meta: str
    property: str
    span: Span


@attrs.frozen(kw_only=True)
class Super:
    """``super`` as the object of ``super.x`` / ``super[x]`` or the callee of ``super(...)``."""
    span: Span


@attrs.frozen(kw_only=True)
class MethodDefinition:
    """A class method, accessor or the constructor (``kind``: "constructor", "method", "get",
    "set"); ``key`` as in ``Property`` (a Literal unless ``computed``)."""
    key: "Expression"
    value: "FunctionExpression"
    computed: bool
    static: bool
    kind: str
    span: Span


@attrs.frozen(kw_only=True)
class PropertyDefinition:
    """A class field (``x = 1;``, ``static y;``)."""
    key: "Expression"
    value: "Expression | None"
    computed: bool
    static: bool
    span: Span


@attrs.frozen(kw_only=True)
class ClassBody:
    body: tuple["MethodDefinition | PropertyDefinition", ...]
    span: Span


@attrs.frozen(kw_only=True)
class ClassExpression:
    id: "Identifier | None"
    superClass: "Expression | None"
    body: ClassBody
    span: Span


@attrs.frozen(kw_only=True)
class ClassDeclaration:
    id: "Identifier"
    superClass: "Expression | None"
    body: ClassBody
    span: Span


@attrs.frozen(kw_only=True)
class SpreadElement:
    argument: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class ArrayExpression:
    elements: tuple["Expression | SpreadElement | None", ...]
    span: Span


@attrs.frozen(kw_only=True)
class Property:
    """An object literal member or an object pattern member (``value`` is then a pattern)."""
    key: "Expression"
    value: "Expression | Pattern"
    computed: bool
    shorthand: bool
    method: bool
    span: Span
    kind: str = "init"  # "get" / "set" for accessor properties


@attrs.frozen(kw_only=True)
class ObjectExpression:
    properties: tuple["Property | SpreadElement", ...]
    span: Span


@attrs.frozen(kw_only=True)
class FunctionExpression:
    id: Identifier | None
    params: tuple["Pattern", ...]
    body: "BlockStatement"
    span: Span


@attrs.frozen(kw_only=True)
class ArrowFunctionExpression:
    params: tuple["Pattern", ...]
    body: "BlockStatement | Expression"
    expression: bool
    span: Span


@attrs.frozen(kw_only=True)
class UnaryExpression:
    operator: str
    argument: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class UpdateExpression:
    operator: str
    prefix: bool
    argument: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class BinaryExpression:
    operator: str
    left: "Expression"
    right: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class LogicalExpression:
    operator: str
    left: "Expression"
    right: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class AssignmentExpression:
    operator: str
    left: "Pattern | Expression"
    right: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class ConditionalExpression:
    test: "Expression"
    consequent: "Expression"
    alternate: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class CallExpression:
    callee: "Expression"
    arguments: tuple["Expression | SpreadElement", ...]
    optional: bool
    span: Span


@attrs.frozen(kw_only=True)
class NewExpression:
    callee: "Expression"
    arguments: tuple["Expression | SpreadElement", ...]
    span: Span


@attrs.frozen(kw_only=True)
class MemberExpression:
    """``obj.name`` (``computed`` False, ``property`` a PropertyName) or ``obj[key]``."""
    object: "Expression"
    property: "Expression | PropertyName"
    computed: bool
    optional: bool
    span: Span


@attrs.frozen(kw_only=True)
class ChainExpression:
    """The end of an optional chain: ``a?.b.c`` short-circuits up to here."""
    expression: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class SequenceExpression:
    expressions: tuple["Expression", ...]
    span: Span


@attrs.frozen(kw_only=True)
class ObjectPattern:
    properties: tuple["Property | RestElement", ...]
    span: Span


@attrs.frozen(kw_only=True)
class ArrayPattern:
    elements: tuple["Pattern | None", ...]
    span: Span


@attrs.frozen(kw_only=True)
class AssignmentPattern:
    left: "Pattern"
    right: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class RestElement:
    argument: "Pattern"
    span: Span


# --- statements ---------------------------------------------------------------------------------

@attrs.frozen(kw_only=True)
class ExpressionStatement:
    expression: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class BlockStatement:
    body: tuple["Statement", ...]
    span: Span


@attrs.frozen(kw_only=True)
class EmptyStatement:
    span: Span


@attrs.frozen(kw_only=True)
class VariableDeclarator:
    id: "Pattern"
    init: "Expression | None"
    span: Span


@attrs.frozen(kw_only=True)
class VariableDeclaration:
    kind: str
    declarations: tuple[VariableDeclarator, ...]
    span: Span


@attrs.frozen(kw_only=True)
class IfStatement:
    test: "Expression"
    consequent: "Statement"
    alternate: "Statement | None"
    span: Span


@attrs.frozen(kw_only=True)
class ForStatement:
    init: "VariableDeclaration | Expression | None"
    test: "Expression | None"
    update: "Expression | None"
    body: "Statement"
    span: Span


@attrs.frozen(kw_only=True)
class ForInStatement:
    left: "VariableDeclaration | Pattern | Expression"
    right: "Expression"
    body: "Statement"
    span: Span


@attrs.frozen(kw_only=True)
class ForOfStatement:
    left: "VariableDeclaration | Pattern | Expression"
    right: "Expression"
    body: "Statement"
    span: Span


@attrs.frozen(kw_only=True)
class WhileStatement:
    test: "Expression"
    body: "Statement"
    span: Span


@attrs.frozen(kw_only=True)
class WithStatement:
    """``with (object) body`` (14.11), sloppy code only."""

    object: "Expression"
    body: "Statement"
    span: Span


@attrs.frozen(kw_only=True)
class DoWhileStatement:
    body: "Statement"
    test: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class BreakStatement:
    label: Identifier | None
    span: Span


@attrs.frozen(kw_only=True)
class ContinueStatement:
    label: Identifier | None
    span: Span


@attrs.frozen(kw_only=True)
class ReturnStatement:
    argument: "Expression | None"
    span: Span


@attrs.frozen(kw_only=True)
class ThrowStatement:
    argument: "Expression"
    span: Span


@attrs.frozen(kw_only=True)
class CatchClause:
    param: "Pattern | None"
    body: BlockStatement
    span: Span


@attrs.frozen(kw_only=True)
class TryStatement:
    block: BlockStatement
    handler: CatchClause | None
    finalizer: BlockStatement | None
    span: Span


@attrs.frozen(kw_only=True)
class SwitchCase:
    test: "Expression | None"
    consequent: tuple["Statement", ...]
    span: Span


@attrs.frozen(kw_only=True)
class SwitchStatement:
    discriminant: "Expression"
    cases: tuple[SwitchCase, ...]
    span: Span


@attrs.frozen(kw_only=True)
class LabeledStatement:
    label: Identifier
    body: "Statement"
    span: Span


@attrs.frozen(kw_only=True)
class FunctionDeclaration:
    id: Identifier
    params: tuple["Pattern", ...]
    body: BlockStatement
    span: Span


@attrs.frozen(kw_only=True)
class Program:
    body: tuple["Statement", ...]
    span: Span


Expression = Union[
    Identifier, Literal, RegExpLiteral, TemplateLiteral, TaggedTemplateExpression, ThisExpression,
    ArrayExpression, ObjectExpression, FunctionExpression, ArrowFunctionExpression, UnaryExpression,
    UpdateExpression, BinaryExpression, LogicalExpression, AssignmentExpression,
    ConditionalExpression, CallExpression, NewExpression, MemberExpression, ChainExpression,
    SequenceExpression, ClassExpression, Super,
]
Pattern = Union[Identifier, MemberExpression, ObjectPattern, ArrayPattern, AssignmentPattern, RestElement]
Statement = Union[
    ExpressionStatement, BlockStatement, EmptyStatement, VariableDeclaration, IfStatement,
    ForStatement, ForInStatement, ForOfStatement, WhileStatement, DoWhileStatement, BreakStatement,
    ContinueStatement, ReturnStatement, ThrowStatement, TryStatement, SwitchStatement,
    LabeledStatement, WithStatement, FunctionDeclaration, ClassDeclaration,
]
Node = Union[Expression, Statement, Pattern, Program, Property, SpreadElement, VariableDeclarator,
             CatchClause, SwitchCase, PropertyName, Super, ClassBody, MethodDefinition, PropertyDefinition]


def dump(node: object, indent: int = 0) -> str:
    """A stable, readable dump of an AST (for snapshots): one field per line, spans inline."""
    pad = "  " * indent
    if isinstance(node, tuple):
        if not node:
            return "[]"
        return "[\n" + "".join(f"{pad}  {dump(x, indent + 1)}\n" for x in node) + f"{pad}]"
    if not attrs.has(type(node)):
        return repr(node)
    fields = [f for f in attrs.fields(type(node)) if f.name != "span"]  # type: ignore[arg-type]
    span = getattr(node, "span")  # noqa: B009 - node is typed object here
    head = f"{type(node).__name__} @{span!r}"
    if not fields:
        return head
    body = "".join(f"{pad}  {f.name}: {dump(getattr(node, f.name), indent + 1)}\n" for f in fields)
    return f"{head}\n{body.rstrip()}"


#: the nodes that start a function scope (``walk(..., prune=FUNCTIONS)`` stays in the current one)
FUNCTIONS = (FunctionExpression, FunctionDeclaration, ArrowFunctionExpression)
#: class definitions (their bodies are strict code, 15.7.1)
CLASSES = (ClassDeclaration, ClassExpression)


def walk(node: object, prune: type | tuple[type, ...] = ()) -> Iterator[Any]:
    """Every AST node in ``node`` (a node or a tuple of them), itself first, in source order:
    the one traversal every stage uses. A node of a ``prune`` type below ``node`` is yielded
    but not entered (``prune=FUNCTIONS``: the code of one function, not its nested ones)."""
    stack: list[object] = [node]
    root = node
    while stack:
        item = stack.pop()
        if type(item) is tuple:
            stack.extend(reversed(item))
            continue
        fields = _FIELDS.get(type(item))
        if fields is None:
            continue
        yield item
        if prune and item is not root and isinstance(item, prune):
            continue
        stack.extend(reversed([getattr(item, name) for name in fields]))


#: per node class, its fields other than ``span``, in declaration order
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in attrs.fields(cls) if f.name != "span")
    for cls in (obj for obj in list(globals().values()) if isinstance(obj, type) and attrs.has(obj))
}
