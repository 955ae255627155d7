"""Checks before code generation: refused constructs, early errors, and facts for the runtime.

Refused with a compile error that names the construct and says why: what the lexer
already refuses (class, generators, async/await, import, debugger). ``eval`` and the
``Function`` constructor compile their text through the same pipeline at run time
(``dynamic.py``). Regular expression literals are syntax-checked here (an early error in
ECMA-262 13.2.7.2). ``mutates_inputs`` tells the facade whether the inputs must be copied.
"""

from __future__ import annotations

from typing import Any

from syncpatch.grammar import ast as A
from syncpatch.grammar.ast import walk

from syncpatch.runtime.stdlib.regexp_size import too_large

from .errors import CompileError

__all__ = ["check_program", "uses_dynamic_code", "mutates_inputs", "only_writes_value_members", "input_reads", "copy_mask", "SCRIPT_GLOBALS"]

#: method names that can change the object they are called on (or one passed to them)
_MUTATORS = frozenset(
    "push pop shift unshift splice sort reverse fill copyWithin assign defineProperty defineProperties "
    "setPrototypeOf set delete clear add call apply bind".split()
)


def uses_dynamic_code(program: A.Program) -> bool:
    """Does the script name ``eval``, ``Function`` or ``constructor`` (and so may run code from
    strings, which needs the general tier and the script's bindings registered)? A computed
    name (``globalThis["ev" + "al"]``) is not seen: its code sees the global object only."""
    return any((isinstance(node, A.Identifier) and node.name in _DYNAMIC_CODE_NAMES)
               or (isinstance(node, A.Literal) and node.value in _DYNAMIC_CODE_NAMES)
               or (isinstance(node, A.PropertyName) and node.name in _DYNAMIC_CODE_NAMES) for node in walk(program))


_DYNAMIC_CODE_NAMES = frozenset(("eval", "Function", "constructor"))


def check_program(program: A.Program, source: str, origin: str) -> None:
    """Raise a CompileError for the first refused construct, invalid regex literal or early
    error the parser does not see."""
    loop_heads: set[int] = set()
    for node in walk(program):
        early = _early_error(node, loop_heads)
        if early is not None:
            raise CompileError(early[0], early[1].span, source, origin)
        if isinstance(node, A.ObjectExpression):
            protos = [p for p in node.properties if isinstance(p, A.Property) and not p.computed
                      and not p.shorthand and not p.method and isinstance(p.key, A.Literal)
                      and p.key.value == "__proto__"]
            if len(protos) > 1:  # early error (13.2.5.1): ({__proto__: a, "__proto__": b})
                raise CompileError("Duplicate __proto__ fields are not allowed in object literals",
                                   protos[1].span, source, origin)
        if isinstance(node, A.RegExpLiteral):
            error = too_large(node.pattern) or regex_error(node.pattern, node.flags)
            if error is not None:
                raise CompileError(f"Invalid regular expression: /{node.pattern}/{node.flags}: {error}",
                                   node.span, source, origin)


_LOOPS = (A.WhileStatement, A.DoWhileStatement, A.ForStatement, A.ForInStatement, A.ForOfStatement)


def _early_error(node: Any, loop_heads: set[int]) -> tuple[str, Any] | None:
    """Early errors (ECMA-262 static semantics) checked on the AST: ``const a;``, a function
    declaration as a loop body, two ``default`` clauses, a label nested in itself."""
    if isinstance(node, (A.ForInStatement, A.ForOfStatement)):
        loop_heads.add(id(node.left))
    if isinstance(node, _LOOPS) and isinstance(node.body, A.FunctionDeclaration):
        return "In strict mode code, functions can only be declared at top level or inside a block.", node.body
    if isinstance(node, A.VariableDeclaration) and node.kind == "const" and id(node) not in loop_heads:
        for d in node.declarations:
            if d.init is None:
                return "Missing initializer in const declaration", d
    if isinstance(node, A.SwitchStatement):
        defaults = [c for c in node.cases if c.test is None]
        if len(defaults) > 1:
            return "More than one default clause in switch statement", defaults[1]
    if isinstance(node, A.LabeledStatement):
        for inner in walk(node.body):  # the same label on a statement it labels (not in a function)
            if isinstance(inner, A.LabeledStatement) and inner.label.name == node.label.name \
                    and _label_reaches(node.body, inner):
                return f"Label '{node.label.name}' has already been declared", inner.label
    return None


def _label_reaches(root: Any, target: Any) -> bool:
    """Is ``target`` inside ``root`` without crossing a function boundary?"""
    return any(n is target for n in walk(root, prune=A.FUNCTIONS))


def regex_error(pattern: str, flags: str) -> str | None:
    """The syntax error of a regex literal, or None (checked by the runtime's translator)."""
    from syncpatch.runtime.stdlib import regexp_syntax

    try:
        regexp_syntax.translate(pattern, flags)
    except regexp_syntax.PatternError as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - a translator limitation is not a syntax error
        return None
    return None


def only_writes_value_members(program: A.Program) -> bool:
    """Conservatively: does every mutation in this script write, delete or update a member of
    the script global ``value`` itself (``value.k = x``, ``value[k] = x``, ``delete value.k``,
    ``value.n++``)? Then a shallow copy of ``value`` protects the caller's objects.

    False on anything that could reach further: writes through any other object, mutating
    method names, computed method calls, destructuring or ``for-in/of`` into members, and any
    function, declaration or catch clause (so ``value`` cannot be rebound or captured).
    """
    for node in walk(program):
        match node:
            case (A.FunctionExpression() | A.ArrowFunctionExpression() | A.FunctionDeclaration()
                  | A.VariableDeclaration() | A.CatchClause() | A.WithStatement()):
                return False
            case A.AssignmentExpression():
                if not isinstance(node.left, A.Identifier) and not _value_member(node.left):
                    return False
                if isinstance(node.left, A.Identifier) and node.left.name == "value":
                    return False
            case A.UpdateExpression():
                if not _value_member(node.argument):
                    if not isinstance(node.argument, A.Identifier) or node.argument.name == "value":
                        return False
            case A.ForInStatement() | A.ForOfStatement():
                if not isinstance(node.left, A.Identifier) or node.left.name == "value":
                    return False
            case A.UnaryExpression(operator="delete"):
                if not _value_member(node.argument):
                    return False
            case A.CallExpression() | A.MemberExpression():
                if _may_mutate_through(node):
                    return False
            case _:
                pass
    return True


def _assigns_to_literal(node: Any) -> bool:
    """``Object.assign({...}, ...)``: the target is an object literal, which no input is."""
    return (isinstance(node, A.CallExpression) and isinstance(node.callee, A.MemberExpression)
            and isinstance(node.callee.object, A.Identifier) and node.callee.object.name == "Object"
            and not node.callee.computed and _name_of(node.callee.property) == "assign" and bool(node.arguments)
            and isinstance(node.arguments[0], A.ObjectExpression))


def _may_mutate_through(node: A.CallExpression | A.MemberExpression) -> bool:
    """A call of a method that can mutate its receiver (push, sort, assign, ...) or of a
    computed method name, or a read of such a method (it may be called later)."""
    if isinstance(node, A.MemberExpression):
        return _name_of(node.property) in _MUTATORS
    callee = node.callee
    if not isinstance(callee, A.MemberExpression):
        return False
    if _assigns_to_literal(node):
        return False  # Object.assign({...}, ...) writes to the literal it was given, no input
    if callee.computed:
        return not (isinstance(callee.property, A.Literal) and callee.property.value not in _MUTATORS)
    return _name_of(callee.property) in _MUTATORS  # a dotted name


#: methods that, when no script function exists, can only be the built-ins that return a new
#: array (or throw); ``keys``/``values``/``entries`` as ``Object.keys(x)`` (arrays' own return
#: iterators), ``from`` as ``Array.from(x)`` (a new array even of an array; another constructor
#: as its receiver needs a class, which is a script function)
_FRESH_ARRAY_METHODS = frozenset(["split", "slice", "concat", "map", "filter", "flatMap", "flat", "keys", "values",
                                  "entries", "from"])
#: nodes that can define a function, rebind an input, or reach a prototype
_DEFINERS = (A.FunctionExpression, A.ArrowFunctionExpression, A.FunctionDeclaration, A.AssignmentExpression)


def _name_of(node: Any) -> str | None:
    """A member's static name (``obj.name``, or a string literal in ``obj["name"]``)."""
    if isinstance(node, A.PropertyName):
        return node.name
    return node.value if isinstance(node, A.Literal) and type(node.value) is str else None


def _on_fresh_array(node: A.CallExpression | A.MemberExpression, program: A.Program) -> bool:
    """``x.split('.').pop()``: a mutator called on an array the call just made, which no one
    else sees. Only when the script defines no function and assigns nothing: then a method
    named ``split`` (``slice``, ``concat``) on JSON input is the built-in, which returns a
    new array (or throws)."""
    if not isinstance(node, A.CallExpression) or not isinstance(node.callee, A.MemberExpression):
        return False
    receiver = node.callee.object
    if isinstance(receiver, A.ArrayExpression):
        made = True
    else:
        made = (isinstance(receiver, A.CallExpression) and isinstance(receiver.callee, A.MemberExpression)
                and not receiver.callee.computed and not receiver.callee.optional
                and _name_of(receiver.callee.property) in _FRESH_ARRAY_METHODS)
    return made and _no_reachable_functions(program)


def _no_reachable_functions(program: A.Program) -> bool:
    """The script assigns nothing and defines functions only as callbacks passed straight to
    a call (``xs.map(x => ...)``): none can become a member that a method call would find
    (a built-in that stores its argument, such as ``Reflect.set``, is itself a mutator)."""
    callbacks = {id(a) for n in walk(program) if isinstance(n, (A.CallExpression, A.NewExpression))
                 for a in n.arguments if isinstance(a, A.ArrowFunctionExpression)}
    return not any(isinstance(n, _DEFINERS) and id(n) not in callbacks for n in walk(program))


def _value_member(node: Any) -> bool:
    """``value.k`` / ``value[k]`` (not optional): a member of the script global ``value``."""
    return (isinstance(node, A.MemberExpression) and not node.optional
            and isinstance(node.object, A.Identifier) and node.object.name == "value")


def mutates_inputs(program: A.Program) -> bool:
    """Conservatively: could this script change an object it did not create?

    True when it writes or deletes a member, destructures into a member, or calls a method
    whose name can mutate (push, sort, assign, call, ...) or a computed method name.
    """
    fresh_callees = {id(n.callee) for n in walk(program)
                     if isinstance(n, A.CallExpression) and (_on_fresh_array(n, program) or _assigns_to_literal(n))}
    for node in walk(program):
        match node:
            case A.AssignmentExpression():
                if not isinstance(node.left, A.Identifier):
                    return True
            case A.UpdateExpression() | A.ForInStatement() | A.ForOfStatement():
                target = node.argument if isinstance(node, A.UpdateExpression) else node.left
                if not isinstance(target, (A.Identifier, A.VariableDeclaration)):
                    return True
            case A.UnaryExpression(operator="delete") | A.WithStatement():
                return True  # in a `with` body, a name's write or call may reach the object
            case A.CallExpression() | A.MemberExpression():
                if _may_mutate_through(node) and id(node) not in fresh_callees \
                        and not (isinstance(node, A.CallExpression) and id(node.callee) in fresh_callees):
                    return True
            case _:
                pass
    return False


#: the per-call globals a script sees as variables, in ``_main``'s parameter order
SCRIPT_GLOBALS = ("value", "context", "valueExists")


def input_reads(program: A.Program) -> frozenset[str]:
    """The script globals (``SCRIPT_GLOBALS``) the script names anywhere. Conservative: a
    local that shadows one counts too, which only costs a copy or a ``context.path`` update."""
    return frozenset(n.name for n in walk(program) if isinstance(n, A.Identifier) and n.name in SCRIPT_GLOBALS)


def copy_mask(program: A.Program, reads: frozenset[str]) -> int:
    """Which inputs a call must deep-copy: 1 = value, 2 = context (0: none); 4 with 1: a
    shallow copy of ``value`` suffices (the script writes only its own members)."""
    if not mutates_inputs(program):
        return 0
    if only_writes_value_members(program):
        return 5 if "value" in reads else 0
    return (1 if "value" in reads else 0) | (2 if "context" in reads else 0)

