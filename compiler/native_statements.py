"""Native-tier statements: the bodies of block-bodied functions.

Two places take them. A callback with a block body (``c => { const m = c.x; if (...) return a;
return b; }``) stands where an expression must: its declarations become bindings evaluated in
order, and an ``if`` whose branch returns becomes a conditional expression (``block_value``).
A function literal called where a whole statement stands (``(() => { let n = 0; for (...) {...}
return n; })()``) runs as Python statements (``function_body``): ``let`` reassignment, ``if`` /
``else``, ``switch`` (as an ``if`` chain), ``for...of`` over arrays, ``Object.entries`` and
``xs.entries()``, counted ``for (let i = a; i < n; i++)`` loops (``break``, ``continue``,
labelled ``continue`` of the loop around), ``forEach``, and writes into the objects and arrays
the function itself made (``out[k] = v``, ``xs.push(v)``).

Why this agrees with JS: a name assigned again has type ``any`` and no guard's fact (its type
may change between reads); loops run over at most ``MAX_ITEMS`` elements (two levels at most,
as callbacks do); a write goes only into a container a literal made, under a string key that
is not ``__proto__``; a ``return`` is translated only where the rest of the function can be
placed in the other branch, or, from a loop, in the loop's ``else`` (left by ``break``; see
``_Loop``), so control flows as in JS.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

import attrs

from syncpatch.grammar import ast as A
from syncpatch.grammar.ast import walk

from .native import _INPUTS, _PROTO_NAMES, _STR, SIZE_BOUND, Unsupported, _join
from .native_templates import expr as E
from .native_templates import stmts as S

if TYPE_CHECKING:
    from .native import NativeGen

__all__ = ["MATCH_GROUPS", "block_value", "function_body", "held_match", "is_statement_body", "needs_statements", "reduce_in_place",
           "writes_accumulator"]

#: at most this many statements in a translated body (keeps generated code small)
_MAX_STATEMENTS = 64


def is_statement_body(node: Any) -> bool:
    """A block other than a lone ``return x`` (which the callers translate themselves)."""
    return isinstance(node, A.BlockStatement) and not (
        len(node.body) == 1 and isinstance(node.body[0], A.ReturnStatement) and node.body[0].argument is not None)


def needs_statements(e: Any, declared: set[str]) -> bool:
    """An expression statement only ``function_body`` translates: a local assigned again, a
    write into a container a local (of the names ``declared`` before it) holds, or a delete
    from one, ``push``, ``forEach``."""
    if isinstance(e, A.AssignmentExpression):
        return isinstance(e.left, A.Identifier) or isinstance(e.left, A.MemberExpression) \
            and isinstance(e.left.object, A.Identifier) and e.left.object.name in declared
    if isinstance(e, A.UnaryExpression) and e.operator == "delete":
        return isinstance(e.argument, A.MemberExpression) and isinstance(e.argument.object, A.Identifier) \
            and e.argument.object.name in declared
    if isinstance(e, A.UpdateExpression):
        return True
    return isinstance(e, A.CallExpression) and isinstance(e.callee, A.MemberExpression) \
        and isinstance(e.callee.property, A.PropertyName) and e.callee.property.name in ("push", "forEach")


def _live(statements: Any) -> list[Any]:
    out = [s for s in statements if not isinstance(s, A.EmptyStatement)]
    if len(out) > _MAX_STATEMENTS:
        raise Unsupported
    return out


def _body_of(s: Any) -> list[Any]:
    return _live(s.body) if isinstance(s, A.BlockStatement) else _live([s])


def _returns(statements: list[Any]) -> bool:
    """Does running ``statements`` surely end in a ``return`` (or a ``throw``, which natively
    leaves the run to the general tier: nothing after it runs here either)?"""
    for s in statements:
        if isinstance(s, (A.ReturnStatement, A.ThrowStatement)):
            return True
        if isinstance(s, A.BlockStatement) and _returns(_live(s.body)):
            return True
        if isinstance(s, A.IfStatement) and s.alternate is not None and _returns(_body_of(s.consequent)) \
                and _returns(_body_of(s.alternate)):
            return True
        if _catches(s) and _returns(_live(s.block.body)):
            return True  # (natively: a throw in the block leaves the run to the general tier)
    return False


def _untranslated(gen: "NativeGen", node: Any) -> None:
    """The globals a part the native tier never runs reads (a catch clause, a throw's
    argument), noted as the general tier notes them: both tiers' facts name the same."""
    if _has(node, A.FunctionExpression, A.FunctionDeclaration, A.ClassExpression, A.ClassDeclaration):
        raise Unsupported  # (``arguments``, ``this`` and hoisted names: not worth reading here)
    params = [node.param] if isinstance(node, A.CatchClause) and node.param is not None else []
    bound = {x.name for n in walk(node) for p in (n.params if isinstance(n, A.ArrowFunctionExpression) else
                                                  (n.id,) if isinstance(n, A.VariableDeclarator) else ())
             for x in walk(p) if isinstance(x, A.Identifier)}
    bound |= {x.name for p in params for x in walk(p) if isinstance(x, A.Identifier)}
    for n in walk(node):
        if isinstance(n, A.Identifier) and n.name not in bound and n.name not in _INPUTS \
                and n.name not in ("NaN", "Infinity") and gen.lookup(n.name) is None:
            gen.free_globals.setdefault(n.name, n.span)


def _catches(s: Any) -> bool:
    """``try { ... } catch ...`` without ``finally``: natively its block alone (see ``_in_scope``)."""
    return isinstance(s, A.TryStatement) and s.handler is not None and s.finalizer is None


def _has(node: Any, *kinds: type) -> bool:
    """Does ``node`` hold a statement of ``kinds`` outside nested functions?"""
    return any(isinstance(n, kinds) for n in walk(node, prune=(A.ArrowFunctionExpression, A.FunctionExpression)))


def _check_name(gen: "NativeGen", name: str, init: Any, before: list[Any]) -> None:
    """A declared name: not an input, not declared again in its block, not read before its
    declaration in the block (a ReferenceError in JS, an outer binding here)."""
    if name in _INPUTS or name in gen.scopes[-1]:
        raise Unsupported
    if any(_reads(b, name) for b in [*before, init]):
        raise Unsupported


def _reads(node: Any, name: str) -> bool:
    """Does ``node`` spell ``name`` outside an arrow function whose parameters bind it
    (``const c = cs.find(c => c.ready)``: the callback's ``c`` is its own)?"""
    stack = [node]
    while stack:
        item = stack.pop()
        for n in walk(item, prune=A.ArrowFunctionExpression):
            if isinstance(n, A.Identifier) and n.name == name:
                return True
            if isinstance(n, A.ArrowFunctionExpression) and n is not item:
                if not any(isinstance(x, A.Identifier) and x.name == name for x in walk(n.params)):
                    stack.append(n)
    return False


# -- a block body as an expression (callbacks) -----------------------------------------------
def block_value(gen: "NativeGen", block: A.BlockStatement) -> tuple[ast.expr, str]:
    """A callback's block body as one expression: ``const`` / ``let`` bindings (never assigned
    again) and ``if`` statements whose branch returns, up to a ``return``."""
    statements = _live(block.body)
    if not _as_expression(statements):
        return block_function(gen, statements)
    return _value(gen, statements, top=True)


def _as_expression(statements: list[Any]) -> bool:
    """Can ``_value`` write these statements as one expression: bindings never assigned
    again and ``if`` statements whose first branch returns, up to a ``return``?"""
    if any(isinstance(n, A.AssignmentExpression) and isinstance(n.left, A.Identifier)
           or isinstance(n, A.UpdateExpression) for n in walk(tuple(statements))):
        return False
    for s in statements:
        if isinstance(s, A.IfStatement):
            if not _returns(_body_of(s.consequent)) or not all(
                    _as_expression(b) for b in (_body_of(s.consequent),
                                                _body_of(s.alternate) if s.alternate is not None else [])):
                return False
        elif not isinstance(s, (A.VariableDeclaration, A.ReturnStatement)):
            return False
    return True


def block_function(gen: "NativeGen", statements: list[Any]) -> tuple[ast.expr, str]:
    """A callback body with statements ``_value`` cannot write as an expression (a ``let``
    assigned again, a loop): a local Python function of the callback's parameters, defined
    before the statement that calls it, and called per element. Only for a callback that no
    other callback holds (the function sees the entry's locals, not a comprehension's)."""
    if gen.in_comprehension > 1:
        raise Unsupported
    params = sorted({py for py, _ty in gen.scopes[-1].values()})
    saved = gen.pre, gen.in_comprehension, gen.hoisted, gen.facts, gen.conditional_floor, gen.pending
    # its guards' facts hold in it, from where they run, and nowhere outside (it may never run)
    gen.pre, gen.in_comprehension, gen.hoisted, gen.facts, gen.pending = [], 0, [], dict(gen.facts), []
    gen.in_loop += 1  # (it runs once an element: a loop in it is a loop in a loop)
    gen.conditional += 1
    gen.conditional_floor = gen.conditional
    try:
        result, ty = function_body(gen, statements)
        body = [*gen.pre, ast.Return(value=result)]
    finally:
        gen.pre, gen.in_comprehension, gen.hoisted, gen.facts, gen.conditional_floor, gen.pending = saved
        gen.in_loop -= 1
        gen.conditional -= 1
    name = gen.tmp() + "_f"
    fn = ast.parse("def f(): pass").body[0]  # (the fields this Python's FunctionDef has)
    assert isinstance(fn, ast.FunctionDef)
    fn.name, fn.body = name, body
    fn.args.args = [ast.arg(arg=p) for p in params]
    gen.pre.append(fn)
    return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[ast.Name(id=p, ctx=ast.Load()) for p in params],
                    keywords=[]), ty


def _value(gen: "NativeGen", statements: list[Any], top: bool) -> tuple[ast.expr, str]:
    gen.scopes.append({})
    try:
        return _value_in_scope(gen, statements, top)
    finally:
        gen.scopes.pop()


def _value_in_scope(gen: "NativeGen", statements: list[Any], top: bool) -> tuple[ast.expr, str]:
    bindings: list[ast.expr] = []
    for i, s in enumerate(statements):
        if isinstance(s, A.ReturnStatement):
            out = gen.expr(s.argument) if s.argument is not None else (E("UNDEFINED"), "undef")
            return _bound(bindings, out)
        if isinstance(s, A.VariableDeclaration) and s.kind in ("const", "let"):
            s = held_match(s, frozenset(), statements[i + 1:]) or s  # (no name is assigned here)
            for d in s.declarations:
                for _js, name, node, _ty in _declarator(gen, d, statements[:i]):
                    if top and gen.in_comprehension:
                        # before the loops this callback hoists, which may read the binding
                        gen.hoisted.append(E("((T := X), True)[1]", T=name, X=node))
                    elif top:  # (a reduce loop's body: statements)
                        gen.pre.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=node))
                    else:
                        bindings.append(E("(T := X)", T=name, X=node))
            continue
        if isinstance(s, A.IfStatement):
            consequent = _body_of(s.consequent)
            if not _returns(consequent):
                raise Unsupported
            alternate = _body_of(s.alternate) if s.alternate is not None else []
            rest = [] if _returns(alternate) else statements[i + 1:]
            if alternate and rest:
                raise Unsupported  # (the alternate's declarations would reach the rest)
            test = gen.truthy(*gen.expr(s.test))
            marks = len(gen.hoisted), len(gen.pre)
            with gen.branch():
                a, ta = _value(gen, consequent, top=False)
                b, tb = _value(gen, alternate or rest, top=False)
            if (len(gen.hoisted), len(gen.pre)) != marks:
                raise Unsupported  # (a branch's loop would run whichever branch is taken)
            return _bound(bindings, (E("A if C else B", A=a, B=b, C=test), _join(ta, tb)))
        raise Unsupported  # (expression statements, loops: the general tier)
    return _bound(bindings, (E("UNDEFINED"), "undef"))


def _bound(bindings: list[ast.expr], out: tuple[ast.expr, str]) -> tuple[ast.expr, str]:
    if not bindings:
        return out
    return ast.Subscript(value=ast.Tuple(elts=[*bindings, out[0]], ctx=ast.Load()), slice=ast.Constant(-1),
                         ctx=ast.Load()), out[1]


# -- a function body as statements (functions called where a statement stands) ---------------
@attrs.define
class _Body:
    """The translation of one function body: its result's Python name and the types returned."""

    result: str
    types: list[str] = attrs.field(factory=list)
    assigned: frozenset[str | None] = frozenset()
    #: the loops being translated, innermost last
    loops: list["_Loop"] = attrs.field(factory=list)
    #: what runs after the statement list being translated ends: ``"function"`` (nothing: the
    #: function returns), ``"loop"`` (the innermost loop's next iteration) or ``None`` (more)
    tail: str | None = "function"


@attrs.define
class _Loop:
    """A loop being translated. A ``return`` in it (when the loop's statement list ends the
    function) or a ``continue`` of the loop around it (when its list ends that loop's body)
    leaves it by ``break``, and the statements after the loop go into its ``else``, so they
    run only when the loop ends without one: ``exits`` says some ``break`` does that."""

    label: str | None
    tail: str | None  # the ``tail`` of the statement list the loop stands in
    exits: bool = False
    breaks: bool = False  # a plain ``break`` (which would skip the ``else`` too)
    #: a ``break`` of the loop around leaves by ``exits``' ``break`` too: the ``else`` ends in
    #: ``continue`` (of the loop around), and a ``break`` of that loop follows this one
    leaves_outer: bool = False
    continues_outer: bool = False


def function_body(gen: "NativeGen", statements: Any) -> tuple[ast.expr, str]:
    """The body's statements appended to ``gen.pre``; its result as a Python name."""
    live = _live(statements)
    assigned = frozenset(_assigned_name(n) for s in live for n in walk(s)) - {None}
    body = _Body(result=gen.tmp(), assigned=assigned)
    out = _statements(gen, body, live, tail="function")
    if not _returns(live):
        out.insert(0, ast.Assign(targets=[ast.Name(id=body.result, ctx=ast.Store())], value=E("UNDEFINED")))
        body.types.append("undef")
    gen.pre.extend(out)
    if not body.types:
        raise Unsupported  # (every way through throws: the general tier's)
    ty = body.types[0]
    for t in body.types[1:]:
        ty = _join(ty, t)
    return E("R", R=body.result), ty


def _assigned_name(node: Any) -> str | None:
    """The name ``x = ...``, ``x += ...`` or ``x++`` assigns."""
    target = node.left if isinstance(node, A.AssignmentExpression) else \
        node.argument if isinstance(node, A.UpdateExpression) else None
    return target.name if isinstance(target, A.Identifier) else None


def _loop_body(gen: "NativeGen", body: _Body, statements: list[Any], scope: dict[str, Any]) -> list[ast.stmt]:
    """A loop's statements with the loop's own bindings in scope. The body may run zero
    times, so its guards establish no facts outside it."""
    gen.in_loop += 1
    gen.conditional += 1
    gen.scopes.append(scope)
    try:
        return _statements(gen, body, statements, tail="loop")
    finally:
        gen.scopes.pop()
        gen.conditional -= 1
        gen.in_loop -= 1


def _statements(gen: "NativeGen", body: _Body, statements: list[Any], tail: str | None = None) -> list[ast.stmt]:
    """``statements`` in a block scope of their own, followed by what ``tail`` says."""
    gen.scopes.append({})
    saved, body.tail = body.tail, tail
    try:
        return _in_scope(gen, body, statements)
    finally:
        gen.scopes.pop()
        body.tail = saved


def _in_scope(gen: "NativeGen", body: _Body, statements: list[Any]) -> list[ast.stmt]:
    statements = _without_switches(gen, statements)
    for i, s in enumerate(statements):  # (before an ``if`` may move the rest of the block)
        if isinstance(s, A.VariableDeclaration):
            for d in s.declarations:
                _check_name(gen, d.id.name if isinstance(d.id, A.Identifier) else "", None, statements[:i])
    out: list[ast.stmt] = []
    for i, s in enumerate(statements):
        if isinstance(s, A.ReturnStatement):
            leave = _leave_for_return(body)
            node, ty = gen.expr(s.argument) if s.argument is not None else (E("UNDEFINED"), "undef")
            out.extend(_flush(gen))
            out.append(ast.Assign(targets=[ast.Name(id=body.result, ctx=ast.Store())], value=node))
            body.types.append(ty)
            return [*out, *leave]  # (what follows never runs)
        label = None
        if isinstance(s, A.LabeledStatement) and isinstance(s.body, (A.ForOfStatement, A.ForInStatement, A.ForStatement)):
            label, s = s.label.name, s.body
        if isinstance(s, (A.ForOfStatement, A.ForInStatement, A.ForStatement)):
            loop = _Loop(label=label, tail=body.tail)
            body.loops.append(loop)
            try:
                translated = _for_of(gen, body, s) if isinstance(s, A.ForOfStatement) else \
                    _for_in(gen, body, s) if isinstance(s, A.ForInStatement) else _counted(gen, body, s)
            finally:
                body.loops.pop()
            out.extend(translated)
            if loop.exits:
                if loop.breaks:
                    raise Unsupported  # (a plain break would skip the else as well)
                last = translated[-1]
                assert isinstance(last, ast.For)
                with gen.branch():  # (the else runs when no break left the loop)
                    last.orelse = _in_scope(gen, body, statements[i + 1:])
                if loop.leaves_outer:  # (no break: the loop around goes on; a break: it ends)
                    last.orelse.append(ast.Continue())
                    out.append(ast.Break())
                return out  # (the rest of the block went into the loop's else)
            continue
        if isinstance(s, A.IfStatement):
            out.extend(_if(gen, body, s, statements[i + 1:]))
            if _has(s, A.ReturnStatement):
                return out  # (the rest of the block went into a branch)
            continue
        if isinstance(s, A.VariableDeclaration) and s.kind in ("const", "let"):
            held = held_match(s, body.assigned, statements[i + 1:])
            out.extend(_declaration(gen, body, held or s, statements[:i]))
            continue
        if isinstance(s, A.BlockStatement):
            inner = _live(s.body)
            if _has(s, A.ReturnStatement):
                raise Unsupported
            out.extend(_statements(gen, body, inner))
            continue
        if isinstance(s, A.ExpressionStatement):
            out.extend(_expression_statement(gen, body, s.expression))
            continue
        if isinstance(s, (A.BreakStatement, A.ContinueStatement)):
            out.append(_jump(body, s))
            return out  # (what follows never runs)
        if _catches(s):
            # the block alone: where it throws, its translation raises (as all translation
            # does, or the tiers would differ on a script without try), and the general tier
            # runs the script again from the start, catch and all
            assert isinstance(s, A.TryStatement)
            inner = _live(s.block.body)
            if _returns(inner):
                out.extend(_statements(gen, body, inner, body.tail))
                _untranslated(gen, s.handler)
                return out  # (what follows runs only after a throw: the general tier's)
            if _has(s.block, A.ReturnStatement):
                raise Unsupported
            out.extend(_statements(gen, body, inner))
            _untranslated(gen, s.handler)
            continue
        if isinstance(s, A.ThrowStatement):  # (the general tier makes and throws what it throws)
            _untranslated(gen, s.argument)
            out.extend(_flush(gen))
            out.append(ast.Expr(E("DEOPT()")))
            return out  # (what follows never runs)
        raise Unsupported  # (while, do, for-in, try with finally: the general tier)
    return out


def _leave_for_return(body: _Body) -> list[ast.stmt]:
    """How a ``return`` leaves the loops around it: none, or one loop whose statement list
    ends the function (its ``else`` holds the rest of the function, see ``_Loop``)."""
    if not body.loops:
        return []
    if len(body.loops) > 1 or body.loops[0].tail != "function":
        raise Unsupported  # (a return out of two loops, or with statements after the loop's block)
    body.loops[0].exits = True
    return [ast.Break()]


def _jump(body: _Body, s: A.BreakStatement | A.ContinueStatement) -> ast.stmt:
    """``break`` / ``continue`` of the innermost loop (unlabelled or by its label), and
    ``continue outer`` / ``break outer`` from a loop whose statement list ends the body of
    ``outer``, the loop just around it."""
    if not body.loops:
        raise Unsupported  # (a switch's or a labelled block's break: the general tier)
    inner = body.loops[-1]
    if s.label is None or s.label.name == inner.label:
        if isinstance(s, A.BreakStatement):
            inner.breaks = True
            return ast.Break()
        return ast.Continue()
    if len(body.loops) >= 2 and body.loops[-2].label == s.label.name and inner.tail == "loop":
        inner.exits = True
        if isinstance(s, A.ContinueStatement):
            inner.continues_outer = True
        else:
            inner.leaves_outer = body.loops[-2].breaks = True
        if inner.continues_outer and inner.leaves_outer:
            raise Unsupported  # (both leave by the same ``break``)
        return ast.Break()
    raise Unsupported  # (break out of a loop two or more around: the general tier)


def _if(gen: "NativeGen", body: _Body, s: A.IfStatement, rest: list[Any]) -> list[ast.stmt]:
    """``if``/``else``. When a branch holds a ``return``, the statements after the ``if`` run
    only after the other branch: they are placed at its end (so each runs in one place)."""
    branches = [_body_of(s.consequent), _body_of(s.alternate) if s.alternate is not None else []]
    ends = [_returns(b) for b in branches]
    tail = body.tail if not rest else None  # (what follows each branch)
    if any(_has(tuple(b), A.ReturnStatement) for b in branches) and rest:
        if ends == [True, False] or ends == [False, True]:
            open_branch = ends.index(False)
            if any(isinstance(x, A.VariableDeclaration) for x in branches[open_branch]):
                raise Unsupported  # (its declarations would reach the rest)
            branches[open_branch] = [*branches[open_branch], *rest]
        elif not all(ends):
            raise Unsupported  # (the rest would run after both branches: one copy each)
        tail = body.tail  # (the rest is in a branch, or never runs)
    test = gen.truthy(*gen.expr(s.test))
    out = _flush(gen)
    with gen.branch():
        then = _statements(gen, body, branches[0], tail)
        orelse = _statements(gen, body, branches[1], tail) if branches[1] else []
    return [*out, ast.If(test=test, body=then or [ast.Pass()], orelse=orelse)]


def _flush(gen: "NativeGen") -> list[ast.stmt]:
    """The statements translation put ahead of the current one (and its facts, now held)."""
    out, gen.pre = gen.pre, []
    gen.promote()
    return out


def _assign(name: str, value: ast.expr) -> ast.stmt:
    return ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value)


def _declaration(gen: "NativeGen", body: _Body, s: A.VariableDeclaration, before: list[Any]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for d in s.declarations:
        if d.init is None and s.kind == "let" and isinstance(d.id, A.Identifier):
            d = attrs.evolve(d, init=A.Identifier(name="undefined", span=d.span))  # (``let x;``)
        for name, py, node, ty in _declarator(gen, d, before):
            if name in body.assigned and s.kind == "const":
                raise Unsupported  # (a TypeError when it runs: the general tier)
            out.extend(_flush(gen))
            out.append(_assign(py, node))
            if _computes(d.init) and not _literal(node):
                out.extend(gen.bounded(node, py, ty))
            if name is not None and name in body.assigned:
                gen.reassigned.add(py)
                gen.scopes[-1][name] = (py, "any")
            elif _makes_container(d.init) and isinstance(d.id, A.Identifier):
                gen.own.add(py)  # a container this function made: writes into it are its own
    return out


def _makes_container(node: Any) -> bool:
    """A literal, or ``Object.assign({...}, ...)`` / ``Object.fromEntries(...)``: an object
    made right there, which no one else holds (by spelling: the translation of the call
    itself checks that ``Object`` is the global)."""
    if isinstance(node, (A.ObjectExpression, A.ArrayExpression)):
        return True
    if not (isinstance(node, A.CallExpression) and not node.optional and isinstance(node.callee, A.MemberExpression)
            and not node.callee.computed and not node.callee.optional and isinstance(node.callee.object, A.Identifier)
            and node.callee.object.name == "Object" and isinstance(node.callee.property, A.PropertyName)):
        return False
    method = node.callee.property.name
    return method == "fromEntries" or method == "assign" and bool(node.arguments) \
        and isinstance(node.arguments[0], A.ObjectExpression)


def _computes(node: Any) -> bool:
    """Can ``node`` make a value larger than any that exists (a read of a member, a name or a
    literal cannot, so it needs no size bound)?"""
    while isinstance(node, A.ChainExpression):
        node = node.expression
    if isinstance(node, A.MemberExpression):
        return _computes(node.object) or node.computed and _computes(node.property)
    return not isinstance(node, (A.Identifier, A.Literal))


def _literal(node: ast.expr) -> bool:
    """A list or dict display without spreads: as long as it is written."""
    return isinstance(node, ast.List) and not any(isinstance(e, ast.Starred) for e in node.elts) \
        or isinstance(node, ast.Dict) and None not in node.keys


def _declarator(gen: "NativeGen", d: A.VariableDeclarator, before: list[Any]) -> list[tuple[str | None, str, ast.expr, str]]:
    """One declarator's bindings in the order they are made: (JS name, or None for the value
    a pattern reads from; Python name; value; type). Each name enters the scope as it is made
    (a default may read an earlier name: ``[a, b = a]``). Patterns: ``{a, k: b, c = d}`` of
    an object, ``{a, ...rest}`` (a rest name last), ``[a, , b = d]`` and ``[a, ...rest]``
    of an array (no nesting)."""
    if d.init is None:
        raise Unsupported
    pattern = d.id
    if isinstance(pattern, A.Identifier):
        _check_name(gen, pattern.name, d.init, before)
        node, ty = gen.expr(d.init)
        py = gen.tmp()
        gen.scopes[-1][pattern.name] = (py, ty)
        return [(pattern.name, py, node, ty)]
    if _nested(pattern):
        return _nested_declarator(gen, d, before)
    rest = None
    if isinstance(pattern, A.ObjectPattern) and pattern.properties and isinstance(pattern.properties[-1], A.RestElement):
        last = pattern.properties[-1]  # ({status, ...rest} = value: the other members)
        if not isinstance(last.argument, A.Identifier):
            raise Unsupported
        rest = last.argument.name
        pattern = attrs.evolve(pattern, properties=pattern.properties[:-1])
    if isinstance(pattern, A.ArrayPattern) and pattern.elements and isinstance(pattern.elements[-1], A.RestElement):
        last = pattern.elements[-1]  # ([first, ...others] = xs: a new array of the elements after)
        if not isinstance(last.argument, A.Identifier):
            raise Unsupported
        rest = last.argument.name
        pattern = attrs.evolve(pattern, elements=pattern.elements[:-1])
    fields = _pattern_fields(pattern)
    for name, _key, _default in fields:
        _check_name(gen, name, d.init, before)
    if rest is not None:
        _check_name(gen, rest, d.init, before)
    if len({f[0] for f in fields} | ({rest} if rest else set())) != len(fields) + (rest is not None):
        raise Unsupported
    node, ty = gen.expr(d.init)
    holder = gen.tmp()
    is_object = isinstance(pattern, A.ObjectPattern)
    # an object not yet tested whose members are read by DICT_GET, each of which refuses what
    # is no object as the type test would (gen.dict_get); a key Object.prototype has keeps it
    by_get = is_object and ty == "any" and bool(fields) and rest is None \
        and not _PROTO_NAMES.intersection(f[1] for f in fields)
    if by_get:
        gen.consumed(node)
    out: list[tuple[str | None, str, ast.expr, str]] = [
        (None, holder, node if by_get else gen.as_dict(node, ty) if is_object else gen.as_list(node, ty),
         "any" if by_get else "dict" if is_object else "list")]
    later = {f[0] for f in fields}
    for name, key, default in fields:
        later.discard(name)
        py = gen.tmp()
        if isinstance(key, str) and by_get:
            read, rty = gen.dict_get(E("H", H=holder), key), "any"
        elif isinstance(key, str):
            read, rty = gen.load(E("H", H=holder), key), "any"
        else:  # (a plain array: iteration is by index)
            read, rty = E("H[I] if len(H) > I else UNDEFINED", H=holder, I=ast.Constant(key)), "any"
        if default is not None:
            if any(isinstance(n, A.Identifier) and n.name in later | {name} for n in walk(default)):
                raise Unsupported  # (a name not made yet: a ReferenceError in JS)
            marks = len(gen.hoisted), len(gen.pre)
            with gen.branch():
                dv, dty = gen.expr(default)
            if (len(gen.hoisted), len(gen.pre)) != marks:
                raise Unsupported
            read = E("T if (T := R) is not UNDEFINED else D", T=py, R=read, D=dv)
            rty = "any"
        gen.scopes[-1][name] = (py, rty)
        out.append((name, py, read, rty))
    if rest is not None and isinstance(pattern, A.ArrayPattern):
        py = gen.tmp()
        gen.scopes[-1][rest] = (py, "list")
        out.append((rest, py, E("H[N:]", H=holder, N=ast.Constant(len(pattern.elements))), "list"))
    elif rest is not None:
        # the other members in JS's order (insertion order, integer-like keys put first where
        # the result is checked), ASCII keys only (a surrogate pair held as two code points
        # would be one key in JS); anything else the general tier copies
        py = gen.tmp()
        keys = ast.Tuple(elts=[ast.Constant(str(f[1])) for f in fields], ctx=ast.Load())
        read = E("{K: V for K, V in H.items() if K not in N} if (PLAIN_KEYS(H) or JS_KEYS(H)) "
                 "and ''.join(H).isascii() else DEOPT()", K=gen.tmp(), V=gen.tmp(), H=holder, N=keys)
        gen.scopes[-1][rest] = (py, "dict")
        out.append((rest, py, read, "dict"))
    return out


def _nested(pattern: Any) -> bool:
    """Does an object pattern hold another pattern (``{r: {cpu = '0'} = {}}``)?"""
    return isinstance(pattern, A.ObjectPattern) and any(
        isinstance(p, A.Property) and isinstance(p.value.left if isinstance(p.value, A.AssignmentPattern) else p.value,
                                                 (A.ObjectPattern, A.ArrayPattern)) for p in pattern.properties)


def _nested_declarator(gen: "NativeGen", d: A.VariableDeclarator, before: list[Any]
                       ) -> list[tuple[str | None, str, ast.expr, str]]:
    """``const {a, r: {b = 1} = {}} = x``: the flat pattern ``{a, r: #n = {}}`` of ``x``, then
    ``{b = 1}`` of ``#n`` (a name no script can spell). JS reads the inner pattern before the
    next outer member; the reads have no effects here, and a default that reads any name
    the pattern binds is left to the general tier, so the order is not seen."""
    bound = {n.name for n in walk(d.id) if isinstance(n, A.Identifier)}
    for n in walk(d.id):
        if isinstance(n, A.AssignmentPattern) and any(isinstance(m, A.Identifier) and m.name in bound
                                                      for m in walk(n.right)):
            raise Unsupported
    assert isinstance(d.id, A.ObjectPattern)
    flat: list[Any] = []
    inner: list[A.VariableDeclarator] = []
    for p in d.id.properties:
        target = p.value.left if isinstance(p, A.Property) and isinstance(p.value, A.AssignmentPattern) else \
            p.value if isinstance(p, A.Property) else None
        if isinstance(p, A.Property) and isinstance(target, (A.ObjectPattern, A.ArrayPattern)):
            holder = A.Identifier(name=f"#nested{gen.tmp()}", span=p.span)
            value = attrs.evolve(p.value, left=holder) if isinstance(p.value, A.AssignmentPattern) else holder
            flat.append(attrs.evolve(p, value=value, shorthand=False))
            inner.append(A.VariableDeclarator(id=target, init=holder, span=p.span))
        else:
            flat.append(p)
    out = _declarator(gen, attrs.evolve(d, id=attrs.evolve(d.id, properties=tuple(flat))), before)
    for declarator in inner:
        out.extend(_declarator(gen, declarator, before))
    return out


def _pattern_fields(pattern: Any) -> list[tuple[str, str | int, Any]]:
    """(name, key or index, default or None) of a flat object or array pattern."""
    out: list[tuple[str, str | int, Any]] = []
    if isinstance(pattern, A.ObjectPattern):
        for p in pattern.properties:
            if not isinstance(p, A.Property) or p.computed or p.kind != "init":
                raise Unsupported
            key = p.key.name if isinstance(p.key, A.Identifier) else \
                p.key.value if isinstance(p.key, A.Literal) and type(p.key.value) is str else None
            target, default = (p.value.left, p.value.right) if isinstance(p.value, A.AssignmentPattern) else (p.value, None)
            if key is None or key == "__proto__" or not isinstance(target, A.Identifier):
                raise Unsupported
            out.append((target.name, key, default))
        return out
    if isinstance(pattern, A.ArrayPattern):
        for i, el in enumerate(pattern.elements):
            if el is None:
                continue
            target, default = (el.left, el.right) if isinstance(el, A.AssignmentPattern) else (el, None)
            if not isinstance(target, A.Identifier):
                raise Unsupported
            out.append((target.name, i, default))
        return out
    raise Unsupported


def _local(gen: "NativeGen", node: Any, names: set[str]) -> str | None:
    """The Python name of the local ``node`` names, when it is among ``names``."""
    if not isinstance(node, A.Identifier):
        return None
    found = gen.lookup(node.name)
    return found[0] if found is not None and found[0] in names else None


def _expression_statement(gen: "NativeGen", body: _Body, e: Any) -> list[ast.stmt]:
    if isinstance(e, A.AssignmentExpression) and isinstance(e.left, A.Identifier):
        return _reassign(gen, e.left, e.operator, e.right)
    if isinstance(e, A.UpdateExpression) and isinstance(e.argument, A.Identifier):
        # x++ is x - (-1): ToNumber first, as JS does (never a string join)
        step = -1 if e.operator == "++" else 1
        return _reassign(gen, e.argument, "-=", A.Literal(value=step, raw=str(step), span=e.span))
    if isinstance(e, A.AssignmentExpression) and e.operator == "=" and isinstance(e.left, A.MemberExpression) \
            and not e.left.optional and _local(gen, e.left.object, gen.own) is not None:
        return _own_write(gen, e.left, e.right)
    if isinstance(e, A.AssignmentExpression) and e.operator not in ("=", "&&=") and isinstance(e.left, A.MemberExpression) \
            and not e.left.optional and _local(gen, e.left.object, gen.own) is not None \
            and (not e.left.computed or isinstance(e.left.property, (A.Literal, A.Identifier))):
        # ``counts[k] += 1``, ``o.app ??= 'x'``: ``o[k] = o[k] + 1``, ``o.app = o.app ?? 'x'``,
        # alike where the key is read twice without effect (a name or a literal) and writing
        # back a member that is there changes nothing (&&= would make an absent one)
        op = e.operator[:-1]
        combined = A.LogicalExpression(operator=op, left=e.left, right=e.right, span=e.span) if op in ("??", "||") \
            else A.BinaryExpression(operator=op, left=e.left, right=e.right, span=e.span)
        return _own_write(gen, e.left, combined)
    if isinstance(e, A.UnaryExpression) and e.operator == "delete" and isinstance(e.argument, A.MemberExpression) \
            and not e.argument.optional and _local(gen, e.argument.object, gen.own) is not None:
        return _own_delete(gen, e.argument)
    if isinstance(e, A.CallExpression) and not e.optional and isinstance(e.callee, A.MemberExpression) \
            and not e.callee.optional and not e.callee.computed and isinstance(e.callee.property, A.PropertyName):
        method = e.callee.property.name
        if method == "push" and _local(gen, e.callee.object, gen.own) is not None:
            return _push(gen, e)
        group = e.callee.object
        if method == "push" and isinstance(group, A.AssignmentExpression) and group.operator in ("??=", "||=") \
                and isinstance(group.left, A.MemberExpression) and not group.left.optional \
                and _local(gen, group.left.object, gen.own) is not None \
                and isinstance(group.right, A.ArrayExpression) and not group.right.elements:
            return _group_push(gen, e, group)
        if method == "forEach":
            return _for_each(gen, body, e)
    if isinstance(e, A.AssignmentExpression):
        node, _ty = gen.assignment(e)  # (value.k = x: the script's own copy of value)
    else:
        node, _ty = gen.expr(e)
    return [*_flush(gen), _assign(gen.tmp(), node)]


def _reassign(gen: "NativeGen", target: A.Identifier, operator: str, right: Any) -> list[ast.stmt]:
    py = _local(gen, target, gen.reassigned)
    if py is None:
        raise Unsupported  # (a parameter, a const, an input: the general tier)
    if operator == "=":
        node, ty = gen.expr(right)
    elif operator in ("+=", "-=", "*=", "/=", "%=", "|=", "&=", "<<=", ">>=", ">>>=", "^="):
        node, ty = gen.expr(A.BinaryExpression(operator=operator[:-1], left=target, right=right, span=target.span))
    elif operator in ("??=", "||=", "&&="):
        node, ty = gen.expr(A.LogicalExpression(operator=operator[:-1], left=target, right=right, span=target.span))
    else:
        raise Unsupported
    return [*_flush(gen), _assign(py, node), *gen.bounded(node, py, ty)]


def _own_write(gen: "NativeGen", target: A.MemberExpression, right: Any) -> list[ast.stmt]:
    """``out[k] = v`` / ``out.k = v`` into an object this function made (a string key; the
    ``__proto__`` key would set the prototype in JS). Into an array: the general tier."""
    d, k = _own_key(gen, target)
    node, ty = gen.expr(right)
    v, kn = gen.tmp(), gen.tmp()
    # (the key is computed before the value, as in JS)
    bound = gen.bounded(node, v, ty) if _computes(right) else []
    return [*_flush(gen), _assign(kn, k), _assign(v, node), *S("D[K] = V", D=d, K=kn, V=v), *bound]


def _own_delete(gen: "NativeGen", target: A.MemberExpression) -> list[ast.stmt]:
    """``delete out.k`` / ``delete out[k]`` (a statement: its true is unused) on an object
    this function made: its own member goes, if it has one (a key added again goes last,
    as in JS). On an array or an input: the general tier."""
    d, k = _own_key(gen, target)
    return [*_flush(gen), *S("D.pop(K, None)", D=d, K=k)]


def _own_key(gen: "NativeGen", target: A.MemberExpression) -> tuple[str, ast.expr]:
    """The Python name of the own object ``target`` reads a member of, and its key (ASCII
    text that is not ``__proto__``, tested when it runs if it is computed)."""
    d = _local(gen, target.object, gen.own)
    assert d is not None
    found = gen.lookup(target.object.name) if isinstance(target.object, A.Identifier) else None
    if found is None or found[1] != "dict":
        raise Unsupported
    key = gen.static_key(target)
    if key is not None and not target.computed or isinstance(target.property, A.Literal):
        if key is None or key == "__proto__":
            raise Unsupported
        k: ast.expr = ast.Constant(key)
    else:
        kx, kty = gen.expr(target.property)
        if kty not in ("ascii", "str", "any"):
            raise Unsupported
        # (ASCII: a surrogate pair held as two code points is one key in JS, two here)
        test = "(K := X) != '__proto__'" if kty == "ascii" else \
            "type(K := X) is str and K.isascii() and K != '__proto__'"
        k = E(f"K if {test} else DEOPT()", K=gen.tmp(), X=kx)
    return d, k


def _push(gen: "NativeGen", e: A.CallExpression) -> list[ast.stmt]:
    """``xs.push(a, b)`` (and ``xs.push(...ys)`` of arrays) on an array this function made (as
    a statement: its count is unused)."""
    assert isinstance(e.callee, A.MemberExpression)
    xs = _local(gen, e.callee.object, gen.own)
    found = gen.lookup(e.callee.object.name) if isinstance(e.callee.object, A.Identifier) else None
    if xs is None or found is None or found[1] != "list":
        raise Unsupported
    grow, spreads = _pushed(gen, xs, e.arguments)
    # (outside a loop, a few statements add a few elements; in one, or spread, the default budget bounds it)
    bound = S("if len(X) > L: DEOPT()", X=xs, L=ast.Constant(SIZE_BOUND)) if gen.in_loop or spreads else []
    return [*_flush(gen), *grow, *bound]


def _pushed(gen: "NativeGen", xs: str, arguments: tuple[Any, ...]) -> tuple[list[ast.stmt], bool]:
    """The statements that push ``arguments`` onto the list named ``xs`` (a spread array's
    elements spread in), and whether any argument spreads."""
    values: list[ast.expr] = []
    for a in arguments:
        if isinstance(a, A.SpreadElement):  # (another iterable, a string's code points: the general tier)
            values.append(ast.Starred(value=gen.as_list(*gen.expr(a.argument, raw=True)), ctx=ast.Load()))
        else:
            values.append(gen.expr(a)[0])
    if len(values) == 1:
        one = values[0]
        if isinstance(one, ast.Starred):
            return S("X.extend(V)", X=xs, V=one.value), True
        return S("X.append(V)", X=xs, V=one), False
    return S("X.extend(V)", X=xs, V=ast.List(elts=values, ctx=ast.Load())), any(isinstance(v, ast.Starred) for v in values)


def _group_push(gen: "NativeGen", e: A.CallExpression, group: A.AssignmentExpression) -> list[ast.stmt]:
    """``(groups[k] ??= []).push(x)`` (``||=``; ``push(...xs)``) on an object this function
    made: the member read once; a new list made and written when it is null or undefined
    (falsy, for ``||=``), else pushed to when it is a list this idiom made in this run. Those
    are held in a dict by their id (so none is freed and its id taken again); any other member
    (an input's array the script stored there, a value of another type) takes the general
    tier, so no object the script did not make is written. A key Object.prototype has reads
    its member in JS when absent: the general tier too."""
    assert isinstance(group.left, A.MemberExpression)
    d, k = _own_key(gen, group.left)
    made = gen.group_lists
    if made is None:  # (one for the whole call: every grouping idiom's lists)
        made = gen.group_lists = gen.tmp()
        gen.prelude.append(_assign(made, E("{}")))
    kn, xs = gen.tmp(), gen.tmp()
    absent = "X is None or X is UNDEFINED"
    if group.operator == "||=":
        absent += " or not (X if type(X) in PLAIN_TRUTH else JS_TRUTHY(X))"
    steps = [_assign(kn, k), *S("if K in PROTO_NAMES: DEOPT()", K=kn), _assign(xs, E("D.get(K, UNDEFINED)", D=d, K=kn)),
             *S(f"if {absent}:\n    X = []\n    D[K] = X\n    M[id(X)] = X\nelif M.get(id(X)) is not X:\n    DEOPT()",
                X=xs, D=d, K=kn, M=made)]
    grow, _ = _pushed(gen, xs, e.arguments)
    return [*_flush(gen), *steps, *grow, *S("if len(X) > L: DEOPT()", X=xs, L=ast.Constant(SIZE_BOUND))]


def _loop_names(gen: "NativeGen", pattern: Any, element: str) -> tuple[ast.expr, dict[str, tuple[str, str]], bool]:
    """The Python target for a loop's element and the names it binds; ``True`` when the
    target unpacks an entry (``[k, v]`` of ``Object.entries``)."""
    if isinstance(pattern, A.Identifier):
        if pattern.name in _INPUTS:
            raise Unsupported
        py = gen.tmp()
        ty = {"str": "str", "entry": "list"}.get(element, "any")
        return ast.Name(id=py, ctx=ast.Store()), {pattern.name: (py, ty)}, False
    if isinstance(pattern, A.ArrayPattern) and element == "entry" and 1 <= len(pattern.elements) <= 2 \
            and all(p is None or isinstance(p, A.Identifier) and p.name not in _INPUTS for p in pattern.elements):
        k, v = gen.tmp(), gen.tmp()
        names = [p.name if isinstance(p, A.Identifier) else None for p in pattern.elements]
        scope = {n: (py, ty) for n, py, ty in zip(names, (k, v), ("str", "any")) if n is not None}
        if len(scope) != len([n for n in names if n is not None]):
            raise Unsupported
        return ast.Tuple(elts=[ast.Name(id=k, ctx=ast.Store()), ast.Name(id=v, ctx=ast.Store())],
                         ctx=ast.Store()), scope, True
    raise Unsupported


def _loop(gen: "NativeGen", body: _Body, items: Any, pattern: Any, index: Any, statements: list[Any],
          fixed_length: bool = False, over_text: bool = False) -> list[ast.stmt]:
    """``for (const x of items)`` (and ``forEach``'s callback): a Python loop over at most
    ``MAX_ITEMS`` elements (a ``return`` or ``continue outer`` in it: see ``_Loop``).
    ``over_text``: ``items`` may be a string too, whose code points ``for...of`` visits; of
    ASCII text they are its characters, as Python's loop gives them (other text, where a
    surrogate pair may be held as two code points: the general tier). A name of no known type
    is still read as an array: its guard's fact serves the reads after the loop."""
    if fixed_length and _has(tuple(statements), A.ReturnStatement, A.LabeledStatement):
        raise Unsupported  # (a callback's return ends one call, not the loop)
    start = len(gen.pending)
    obj, ty = gen.expr(items, raw=True)
    element = {"strs": "str", "entries": "entry"}.get(ty, "any")
    if over_text and ty in _STR:
        return _loop_on(gen, body, gen.as_ascii(obj, ty), "str", start, pattern, index, statements)
    if over_text and ty == "any" and not isinstance(obj, ast.Name):
        listed = gen.guard("T if type(T := X) is list or type(T) is str and T.isascii() else DEOPT()", obj)
        return _loop_on(gen, body, listed, element, start, pattern, index, statements)
    return _loop_on(gen, body, gen.as_list(obj, ty), element, start, pattern, index, statements,
                    fixed_length=fixed_length)


def _loop_on(gen: "NativeGen", body: _Body, items: ast.expr, element: str, start: int, pattern: Any, index: Any,
             statements: list[Any], scope_extra: dict[str, tuple[str, str]] | None = None,
             fixed_length: bool = False, dicts: frozenset[str] = frozenset()) -> list[ast.stmt]:
    """The loop of ``_loop`` over ``items`` (an array already translated, of ``element``s).

    ``for...of`` sees the array as it changes, as a Python loop does. ``forEach`` and
    ``reduce`` (``fixed_length``) visit only the indexes below the length they started with,
    skipping those gone by then: when the body could change an array (a write into one of
    ``dicts``, names of objects, cannot), the loop goes by index (over a list: no entries view)."""
    if not isinstance(pattern, A.Identifier) and not (isinstance(pattern, A.ArrayPattern) and element == "entry"):
        # ``for (const { name, value } of env)``: the element held in a name no JS name can
        # be, and the pattern a declaration of it that opens the body (as JS binds it each time)
        held = A.Identifier(name="%element" + gen.tmp(), span=pattern.span)
        bind = A.VariableDeclaration(kind="const", declarations=(
            A.VariableDeclarator(id=pattern, init=held, span=pattern.span),), span=pattern.span)
        pattern, statements = held, [bind, *statements]
    target, scope, unpacked = _loop_names(gen, pattern, element)
    scope.update(scope_extra or {})
    by_index = fixed_length and _may_change_arrays(statements, dicts)
    source = bounded(gen, items, start, unpacked and not by_index)
    out = _flush(gen)
    if index is not None:
        if not isinstance(index, A.Identifier) or index.name in _INPUTS or index.name in scope:
            raise Unsupported
        i = gen.tmp()
        scope[index.name] = (i, "int")
        target = ast.Tuple(elts=[ast.Name(id=i, ctx=ast.Store()), target], ctx=ast.Store())
        iterable: ast.expr = E("enumerate(L)", L=source)
    else:
        iterable = E("L", L=source)
    inner = _loop_body(gen, body, statements, scope)
    if by_index:
        if not isinstance(source, str):
            raise Unsupported
        k = gen.tmp()
        element_target = target.elts[1] if isinstance(target, ast.Tuple) and index is not None else target
        head = S("if K >= len(L): continue", K=k, L=ast.Name(id=source, ctx=ast.Load()))
        read = ast.Assign(targets=[element_target], value=E("L[K]", L=ast.Name(id=source, ctx=ast.Load()), K=k))
        if index is not None:
            head.append(ast.Assign(targets=[target.elts[0]], value=E("K", K=k)))  # type: ignore[attr-defined]
        return [*out, ast.For(target=ast.Name(id=k, ctx=ast.Store()), iter=E("range(len(L))", L=ast.Name(id=source, ctx=ast.Load())),
                              body=[*head, read, *inner], orelse=[])]
    return [*out, ast.For(target=target, iter=iterable, body=inner or [ast.Pass()], orelse=[])]


#: array methods that change the array they are called on
_ARRAY_MUTATORS = frozenset(["push", "pop", "shift", "unshift", "splice", "reverse", "sort", "fill", "copyWithin"])


def _may_change_arrays(statements: list[Any], dicts: frozenset[str] = frozenset()) -> bool:
    """Could these statements change an array (a mutating method, a member written or deleted,
    other than a member of one of ``dicts``, names that hold objects all along)?"""
    for n in walk(tuple(statements)):
        if isinstance(n, A.AssignmentExpression) and isinstance(n.left, A.MemberExpression) \
                and isinstance(n.left.object, A.Identifier) and n.left.object.name in dicts:
            continue
        if isinstance(n, A.CallExpression) and isinstance(n.callee, A.MemberExpression) \
                and isinstance(n.callee.property, A.PropertyName) and n.callee.property.name in _ARRAY_MUTATORS:
            return True
        if isinstance(n, (A.AssignmentExpression, A.UpdateExpression)) and isinstance(getattr(n, "left", getattr(n, "argument", None)), A.MemberExpression):
            return True
        if isinstance(n, A.UnaryExpression) and n.operator == "delete":
            return True
    return False


def _for_of(gen: "NativeGen", body: _Body, s: A.ForOfStatement) -> list[ast.stmt]:
    left = s.left
    if not (isinstance(left, A.VariableDeclaration) and left.kind in ("const", "let") and len(left.declarations) == 1
            and left.declarations[0].init is None):
        raise Unsupported
    pattern = left.declarations[0].id
    if any(isinstance(n, A.Identifier) and n.name in body.assigned for n in walk(pattern)):
        raise Unsupported
    right = s.right
    if isinstance(right, A.CallExpression) and not right.arguments and not right.optional \
            and isinstance(right.callee, A.MemberExpression) and not right.callee.computed \
            and not right.callee.optional and isinstance(right.callee.property, A.PropertyName) \
            and right.callee.property.name == "entries" and isinstance(pattern, A.ArrayPattern) \
            and len(pattern.elements) == 2 and isinstance(pattern.elements[1], A.Identifier) \
            and (pattern.elements[0] is None or isinstance(pattern.elements[0], A.Identifier)):
        # ``for (const [i, x] of xs.entries())``: an index and an element of an array (a
        # string or an object has no entries method: the guard leaves them to the general tier)
        return _loop(gen, body, right.callee.object, pattern.elements[1], pattern.elements[0], _body_of(s.body))
    return _loop(gen, body, right, pattern, None, _body_of(s.body), over_text=True)


def _for_in(gen: "NativeGen", body: _Body, s: A.ForInStatement) -> list[ast.stmt]:
    """``for (const k in obj)`` of an object: its keys in JS's order (``Object.keys``': a plain
    object inherits no enumerable key), taken before the first step as the general tier takes
    them (a key the body adds is not visited, in either tier or in V8); nothing for null and
    undefined. Arrays, strings and other values: the general tier. Not where the body deletes
    (V8 skips a deleted key not yet visited)."""
    left = s.left
    if not (isinstance(left, A.VariableDeclaration) and left.kind in ("const", "let") and len(left.declarations) == 1
            and left.declarations[0].init is None and isinstance(left.declarations[0].id, A.Identifier)):
        raise Unsupported
    name = left.declarations[0].id
    statements = _body_of(s.body)
    if name.name in body.assigned or any(isinstance(n, A.UnaryExpression) and n.operator == "delete"
                                         for n in walk(tuple(statements))):
        raise Unsupported
    start = len(gen.pending)
    obj, ty = gen.expr(s.right, raw=True)
    gen.consumed(obj)  # (no text passes the guard)
    if ty == "dict":
        keys = E("JS_KEYS(D)", D=obj)
    elif ty in ("null", "undef"):
        keys = E("[]")
    elif ty == "any":
        keys = gen.guard("JS_KEYS(T) if type(T := X) is dict else [] if T is None or T is UNDEFINED else DEOPT()", obj)
    else:
        raise Unsupported
    return _loop_on(gen, body, keys, "str", start, name, None, statements)


def _for_each(gen: "NativeGen", body: _Body, e: A.CallExpression) -> list[ast.stmt]:
    """``xs.forEach((x, i) => ...)``: a loop whose body is the callback's."""
    assert isinstance(e.callee, A.MemberExpression)
    fn = e.arguments[0] if len(e.arguments) == 1 else None
    if not isinstance(fn, A.ArrowFunctionExpression) or not 1 <= len(fn.params) <= 2:
        raise Unsupported
    if any(isinstance(n, A.Identifier) and n.name in body.assigned for p in fn.params for n in walk(p)):
        raise Unsupported  # (a parameter assigned in the callback)
    statements = _body_of(fn.body) if isinstance(fn.body, A.BlockStatement) else \
        [A.ExpressionStatement(expression=fn.body, span=fn.span)]
    return _loop(gen, body, e.callee.object, fn.params[0], fn.params[1] if len(fn.params) == 2 else None, statements,
                 fixed_length=True)


def writes_accumulator(fn: Any, init: Any) -> bool:
    """``xs.reduce((acc, x) => { acc[k] = v; ...; return acc; }, {})``: a block body that
    returns its accumulator, which starts as a container literal (see ``reduce_in_place``)."""
    if not (isinstance(fn, A.ArrowFunctionExpression) and isinstance(fn.body, A.BlockStatement)
            and len(fn.params) in (2, 3) and isinstance(fn.params[0], A.Identifier)
            and isinstance(init, (A.ObjectExpression, A.ArrayExpression))):
        return False
    statements = _live(fn.body.body)
    last = statements[-1] if statements else None
    return (isinstance(last, A.ReturnStatement) and isinstance(last.argument, A.Identifier)
            and last.argument.name == fn.params[0].name and not _has(tuple(statements[:-1]), A.ReturnStatement))


def reduce_in_place(gen: "NativeGen", items: ast.expr, fn: A.ArrowFunctionExpression, init: Any,
                    start: int) -> tuple[ast.expr, str]:
    """The reduce ``writes_accumulator`` accepts, as a loop over the statements before its
    ``return acc``. Each step returns the object it was given, so JS too writes into the one
    accumulator the literal made: no copy, and no object of the caller is written."""
    acc_param = fn.params[0]
    assert isinstance(acc_param, A.Identifier) and isinstance(fn.body, A.BlockStatement)
    statements = _live(fn.body.body)[:-1]
    assigned = frozenset(_assigned_name(n) for s in statements for n in walk(s)) - {None}
    if acc_param.name in assigned or acc_param.name in _INPUTS:
        raise Unsupported
    node, ty = gen.expr(init)
    acc = gen.tmp()
    gen.pre.append(_assign(acc, node))
    gen.own.add(acc)
    body = _Body(result=gen.tmp(), assigned=assigned)
    index = fn.params[2] if len(fn.params) == 3 else None
    # (an object literal's accumulator is never assigned again: writes into it change no array)
    dicts = frozenset([acc_param.name]) if isinstance(init, A.ObjectExpression) else frozenset()
    loop = _loop_on(gen, body, items, gen.element, start, fn.params[1], index, statements, {acc_param.name: (acc, ty)},
                    fixed_length=True, dicts=dicts)
    gen.pre.extend(loop)  # (after the loop's translation, which hands gen.pre on)
    return E("A", A=acc), ty


def _entries_view(e: ast.expr) -> ast.expr | None:
    """``D.items()`` when ``e`` is ``map(list, D.items())`` (``Object.entries``' list form)."""
    if (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "map" and len(e.args) == 2
            and isinstance(e.args[0], ast.Name) and e.args[0].id == "list"):
        return e.args[1]
    return None


def _entries_in_order(e: ast.expr) -> ast.expr:
    """``JS_ITEMS(D)`` for ``[[K, D[K]] for K in JS_KEYS(D)]`` (``Object.entries``' ordered
    form), where each entry is unpacked: the same keys and values in the same order, as
    pairs picked at C speed (see runtime/native.py)."""
    if isinstance(e, ast.ListComp) and len(e.generators) == 1:
        it = e.generators[0].iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "JS_KEYS" and len(it.args) == 1:
            return E("JS_ITEMS(D)", D=it.args[0])
    return e


def bounded(gen: "NativeGen", items: ast.expr, start: int, unpacked: bool = False) -> str:
    """Hoist the receiver into a local and refuse arrays past ``MAX_ITEMS``. The hoisted
    statement runs before all code still to be translated: its guards' facts hold there.
    The local is only iterated and measured, so ``Object.keys(d)`` and ``Object.values(d)``
    hand over ``d`` and ``d.values()`` themselves, not copies (a loop that adds a key raises);
    so does ``Object.entries(d)`` when each entry is ``unpacked`` into ``[k, v]`` names (no
    entry is seen as an array). Not in a script that deletes members: its loop may change the
    object it goes over."""
    if not gen.deletes and (isinstance(items, ast.IfExp) and isinstance(items.body, ast.Call) and isinstance(items.body.func, ast.Name)
            and items.body.func.id == "list" and len(items.body.args) == 1):
        view = _entries_view(items.body.args[0])
        if view is None:
            items = ast.IfExp(test=items.test, body=items.body.args[0], orelse=items.orelse)
        elif unpacked:
            items = ast.IfExp(test=items.test, body=view, orelse=_entries_in_order(items.orelse))
    if gen.in_comprehension + gen.in_loop > 1:
        raise Unsupported  # loops in loops in loops: MAX_ITEMS cubed is past any budget
    name = gen.tmp()
    if gen.in_comprehension:
        # a loop in a callback: its receiver may read the outer loop's variable, so it is
        # computed per element, in the outer comprehension's conditions (where a walrus may
        # stand; a comprehension's iterable may hold none). Two levels of MAX_ITEMS stay well
        # below the default step budget.
        gen.hoisted.append(E("len(N := L) <= MAX_ITEMS or DEOPT()", N=name, L=items))
        return name
    if gen.in_loop:  # in a reduce loop's body: its statements run per element
        gen.pre.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=items))
        gen.pre.append(ast.If(test=E("len(L) > MAX_ITEMS", L=name), body=[ast.Expr(E("DEOPT()"))], orelse=[]))
        return name
    gen.pre.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=items))
    gen.pre.append(ast.If(test=E("len(L) > MAX_ITEMS", L=name), body=[ast.Expr(E("DEOPT()"))], orelse=[]))
    gen.promote(start)
    return name


# -- switch and counted loops, in terms of the statements above -------------------------------
def _without_switches(gen: "NativeGen", statements: list[Any]) -> list[Any]:
    """Each ``switch`` of ``statements`` as a ``const`` holding its discriminant and a chain of
    ``if`` / ``else if`` statements, one per group of cases (cases with no statements fall
    through to the next), ``default``'s group last. Only where that is the same program: each
    group but the last ends in ``break`` or surely returns (no other fall-through), no other
    ``break`` in it (it would leave the switch, not a loop), and no group reads a name another
    group declares (one block scope in JS, one per branch here). The chain tests the cases in
    source order, one ``===`` at a time, as JS does; so case tests may be computed
    (``switch (true) { case s.endsWith('m'): ... }``, ``case undefined:``), but not in
    ``default``'s own group (whose tests the chain leaves out: it runs when none other
    matched), where only distinct literals may stand, and they may not read a name the switch's
    groups declare (JS reads it in their scope, before its declaration)."""
    if not any(isinstance(s, A.SwitchStatement) for s in statements):
        return statements
    out: list[Any] = []
    for s in statements:
        out.extend(_switch_as_ifs(gen, s) if isinstance(s, A.SwitchStatement) else [s])
    return out


def _switch_as_ifs(gen: "NativeGen", s: A.SwitchStatement) -> list[Any]:
    groups: list[tuple[list[Any], bool, list[Any]]] = []  # (tests, has default, statements)
    tests: list[Any] = []
    has_default = False
    for case in s.cases:
        if case.test is None:
            has_default = True
        else:
            tests.append(case.test)
        body = _live(case.consequent)
        if body and isinstance(body[0], A.BlockStatement) and (
                len(body) == 1 or len(body) == 2 and isinstance(body[1], A.BreakStatement) and body[1].label is None):
            # ``case x: { ... }``: the block is the branch (its declarations stay in it either way)
            body = [*_live(body[0].body), *body[1:]]
        if body:
            groups.append((tests, has_default, body))
            tests, has_default = [], False
    if tests or has_default:
        groups.append((tests, has_default, []))  # (trailing empty cases: nothing runs)
    computed = [t for g in groups for t in g[0] if not _plain_literal(t)]
    if computed and any(g[1] and g[0] for g in groups):
        raise Unsupported  # (default's group has tests: the chain would skip them, computed ones run)
    values = [(type(t.value), t.value) for g in groups for t in g[0] if _plain_literal(t)]
    if len(set(values)) != len(values):
        raise Unsupported
    blocks: list[tuple[list[Any], bool, list[Any]]] = []
    for n, (group_tests, default, body) in enumerate(groups):
        if body and isinstance(body[-1], A.BreakStatement) and body[-1].label is None:
            body = body[:-1]
        elif n < len(groups) - 1 and not _returns(body):
            raise Unsupported  # (falls through into the next group)
        if _has(tuple(body), A.BreakStatement, A.SwitchStatement, A.LabeledStatement):
            raise Unsupported
        blocks.append((group_tests, default, body))
    declared = [{n.id.name for d in b[2] if isinstance(d, A.VariableDeclaration) for n in d.declarations
                 if isinstance(n.id, A.Identifier)} | {x.name for d in b[2] if isinstance(d, A.VariableDeclaration)
                                                       for n in d.declarations if not isinstance(n.id, A.Identifier)
                                                       for x in walk(n.id) if isinstance(x, A.Identifier)}
                for b in blocks]
    if any(isinstance(x, A.Identifier) and x.name in names for names in declared for x in walk(tuple(computed))):
        raise Unsupported  # (a test reading the switch's own declaration: JS's TDZ)
    for n, names in enumerate(declared):
        if any(isinstance(x, A.Identifier) and x.name in names for m, b in enumerate(blocks) if m != n
               for x in walk(tuple(b[2]))):
            raise Unsupported
    span = s.span
    name = "%switch" + gen.tmp()  # (no JS name has a %)
    held = A.Identifier(name=name, span=span)
    chain: Any = None
    default_body = next((b[2] for b in blocks if b[1]), None)
    for group_tests, default, body in reversed(blocks):
        if default or not group_tests:
            continue
        test: Any = None
        for t in reversed(group_tests):
            one = A.BinaryExpression(operator="===", left=held, right=t, span=span)
            test = one if test is None else A.LogicalExpression(operator="||", left=one, right=test, span=span)
        alternate = chain if chain is not None else \
            A.BlockStatement(body=tuple(default_body), span=span) if default_body else None
        chain = A.IfStatement(test=test, consequent=A.BlockStatement(body=tuple(body), span=span),
                              alternate=alternate, span=span)
    if chain is None:
        chain = A.BlockStatement(body=tuple(default_body or ()), span=span)
    declaration = A.VariableDeclaration(
        kind="const", declarations=(A.VariableDeclarator(id=held, init=s.discriminant, span=span),), span=span)
    return [declaration, chain]


def _plain_literal(test: Any) -> bool:
    """A case test that is a string, number, boolean or null literal."""
    return isinstance(test, A.Literal) and (type(test.value) in (str, int, bool) or test.value is None)


def _counted(gen: "NativeGen", body: _Body, s: A.ForStatement) -> list[ast.stmt]:
    """``for (let i = a; i < n; i++)`` (``<=``, ``++i``, ``i += 1``; or down, ``i >= n; i--``)
    over safe integers: a Python ``range`` of at most ``MAX_ITEMS`` steps. JS tests ``i < n`` again each step; ``n``
    here is computed once, so it may only read names the function never assigns and members of
    objects and arrays, and the body may change no array and write no member."""
    init, test = s.init, s.test
    if not (isinstance(init, A.VariableDeclaration) and init.kind == "let" and len(init.declarations) == 1
            and isinstance(init.declarations[0].id, A.Identifier) and init.declarations[0].init is not None):
        raise Unsupported
    name, first = init.declarations[0].id.name, init.declarations[0].init
    statements = _body_of(s.body)
    if name in _INPUTS or not (isinstance(test, A.BinaryExpression) and test.operator in ("<", "<=", ">", ">=")
                               and isinstance(test.left, A.Identifier) and test.left.name == name):
        raise Unsupported
    down = test.operator in (">", ">=")
    if not _steps_by_one(s.update, name, -1 if down else 1) or not _stable(test.right, body, name) \
            or any(isinstance(n, A.Identifier) and n.name == name for n in walk(first)) \
            or any(_assigned_name(n) == name for n in walk(tuple(statements))):
        raise Unsupported
    if _may_change_arrays(statements) and not _apart(gen, test.right, statements):
        raise Unsupported  # (the body may change what the bound reads)
    if gen.in_comprehension + gen.in_loop > 1:
        raise Unsupported  # (loops in loops in loops, as ``bounded`` says)
    a, ta = gen.expr(first)
    b, tb = gen.expr(test.right)
    if tb == "any":  # (a safe integer; a double, a string or anything else: the general tier)
        b, tb = E("T if type(T := X) is int and -9007199254740992 <= T <= 9007199254740992 else DEOPT()",
                  T=gen.tmp(), X=b), "int"
    if ta != "int" or tb != "int":
        raise Unsupported  # (a double's steps: the general tier)
    start, stop, i = gen.tmp(), gen.tmp(), gen.tmp()
    end = E("B + 1", B=b) if test.operator == "<=" else E("B - 1", B=b) if test.operator == ">=" else b
    out = [*_flush(gen), _assign(start, a), _assign(stop, end),
           *S("if T - S > MAX_ITEMS: DEOPT()" if down else "if S - T > MAX_ITEMS: DEOPT()", S=stop, T=start)]
    inner = _loop_body(gen, body, statements, {name: (i, "int")})
    steps = E("range(S, T, -1)", S=start, T=stop) if down else E("range(S, T)", S=start, T=stop)
    return [*out, ast.For(target=ast.Name(id=i, ctx=ast.Store()), iter=steps, body=inner or [ast.Pass()], orelse=[])]


def _apart(gen: "NativeGen", bound: Any, statements: list[Any]) -> bool:
    """Can a body that changes arrays (its own: ``push`` and member writes go only into
    containers the function made) leave ``bound`` as it is? Yes when the bound reads no local
    (none can hold such a container) and no input the script writes into, before the loop
    or in it (a container of its own may have been stored there)."""
    if any(isinstance(n, A.Identifier) and n.name not in _INPUTS for n in walk(bound)):
        return False
    if gen.write_paths:
        return False
    for n in walk(tuple(statements)):
        target = n.left if isinstance(n, A.AssignmentExpression) else None
        while isinstance(target, A.MemberExpression):
            target = target.object
        if isinstance(target, A.Identifier) and target.name in _INPUTS:
            return False
    return True


def _steps_by_one(update: Any, name: str, step: int = 1) -> bool:
    """``i++``, ``++i``, ``i += 1`` (``step`` -1: ``i--``, ``--i``, ``i -= 1``)."""
    if isinstance(update, A.UpdateExpression):
        return update.operator == ("++" if step == 1 else "--") and isinstance(update.argument, A.Identifier) \
            and update.argument.name == name
    return isinstance(update, A.AssignmentExpression) and update.operator == ("+=" if step == 1 else "-=") \
        and isinstance(update.left, A.Identifier) and update.left.name == name \
        and isinstance(update.right, A.Literal) and type(update.right.value) is int and update.right.value == 1


def _stable(node: Any, body: _Body, counter: str) -> bool:
    """An expression whose value no step of the loop changes: literals, names the function
    never assigns (not the counter) and members read from them (no calls)."""
    if isinstance(node, A.Literal):
        return True
    if isinstance(node, A.Identifier):
        return node.name != counter and node.name not in body.assigned
    if isinstance(node, A.MemberExpression):
        return _stable(node.object, body, counter) and (not node.computed or _stable(node.property, body, counter))
    if isinstance(node, A.PropertyName):
        return True
    if isinstance(node, A.BinaryExpression) and node.operator in ("+", "-", "*"):
        return _stable(node.left, body, counter) and _stable(node.right, body, counter)
    return False


#: the method name (no JS property name can be spelled so) that stands for ``s.match(/re/)``
#: held in a ``const`` read only at group indexes and as a test (``native_calls`` translates it)
MATCH_GROUPS = "%match"


def held_match(s: A.VariableDeclaration, assigned: frozenset[str | None], rest: list[Any]) -> A.VariableDeclaration | None:
    """``const m = x.match(/re/)`` whose name the rest of the function reads only at a group
    index (``m[1]``), as a test (``if (!m)``, ``m ? a : b``, ``m && m[1]``) or against null:
    the declaration with a call of ``MATCH_GROUPS`` (the groups, or null), whose array no one
    sees. None otherwise (the general tier makes the match array)."""
    if len(s.declarations) != 1:
        return None
    d = s.declarations[0]
    init = _exec_as_match(d.init)
    if not (isinstance(d.id, A.Identifier) and d.id.name not in assigned and isinstance(init, A.CallExpression)
            and not init.optional and isinstance(init.callee, A.MemberExpression) and not init.callee.optional
            and not init.callee.computed and isinstance(init.callee.property, A.PropertyName)
            and init.callee.property.name == "match"):
        return None
    name = d.id.name
    uses = allowed = 0
    for n in walk(tuple(rest)):
        if isinstance(n, A.Identifier) and n.name == name:
            uses += 1
        elif isinstance(n, A.MemberExpression) and n.computed and _is_name(n.object, name) \
                and isinstance(n.property, A.Literal) and type(n.property.value) is int and n.property.value >= 0 \
                or isinstance(n, A.UnaryExpression) and n.operator == "!" and _is_name(n.argument, name) \
                or isinstance(n, (A.IfStatement, A.ConditionalExpression)) and _is_name(n.test, name) \
                or isinstance(n, A.LogicalExpression) and n.operator == "&&" and _is_name(n.left, name) \
                or isinstance(n, A.BinaryExpression) and n.operator in ("===", "!==") and (
                    _is_name(n.left, name) and _is_null(n.right) or _is_name(n.right, name) and _is_null(n.left)):
            allowed += 1
    if uses != allowed:
        return None
    callee = attrs.evolve(init.callee, property=A.PropertyName(name=MATCH_GROUPS, span=init.callee.property.span))
    return attrs.evolve(s, declarations=(attrs.evolve(d, init=attrs.evolve(init, callee=callee)),))


def _exec_as_match(init: Any) -> Any:
    """``/re/.exec(s)`` (a literal without g or y, one argument) as ``s.match(/re/)``: the
    same match array of the same text (MATCH_GROUPS takes a string only, so exec's ToString
    of another value, which match would not reach for null, is the general tier's)."""
    if isinstance(init, A.CallExpression) and not init.optional and len(init.arguments) == 1 \
            and not isinstance(init.arguments[0], A.SpreadElement) \
            and isinstance(init.callee, A.MemberExpression) and not init.callee.optional \
            and not init.callee.computed and isinstance(init.callee.property, A.PropertyName) \
            and init.callee.property.name == "exec" and isinstance(init.callee.object, A.RegExpLiteral) \
            and not set(init.callee.object.flags) & {"g", "y"}:
        member = attrs.evolve(init.callee, object=init.arguments[0],
                              property=attrs.evolve(init.callee.property, name="match"))
        return attrs.evolve(init, callee=member, arguments=(init.callee.object,))
    return init


def _is_name(node: Any, name: str) -> bool:
    return isinstance(node, A.Identifier) and node.name == name


def _is_null(node: Any) -> bool:
    return isinstance(node, A.Literal) and node.value is None
