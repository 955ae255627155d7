"""The budget accounting generated code does inline: a step, a call's entry and its exit.

Each is what ``Realm.charge()``, ``Realm.enter()`` and ``Realm.leave()`` do on their fast
path, written into the function or loop itself: a bound-method call per callback call or loop
iteration cost more than the rest of a small callback. The slow paths (a budget spent, a
look at the clock every 1024 steps, a call deeper than ``depth_check``) still call the realm,
so every script ends within its budgets exactly as before.
"""

from __future__ import annotations

import ast

from . import pyast as P

__all__ = ["charge_step", "enter_call", "leave_call"]

#: the local that holds the steps left after a charge (compiler-made names are ``_xN``-shaped,
#: JS names ``_vN``: this one cannot collide)
_LEFT = "_steps_left"
_DEPTH = "_call_depth"


def _realm_attr(name: str, ctx: ast.expr_context | None = None) -> ast.Attribute:
    node = P.attr(P.name("_realm"), name)
    if ctx is not None:
        node.ctx = ctx
    return node


def _take_step(check_clock: bool) -> list[ast.stmt]:
    """``_realm.steps_left -= 1``, then the slow path when spent (and, with ``check_clock``,
    every 1024 steps: ``charge``'s look at the wall time)."""
    take = ast.Assign(targets=[_realm_attr("steps_left", ast.Store()), P.store(_LEFT)],
                      value=ast.BinOp(left=_realm_attr("steps_left"), op=ast.Sub(), right=P.const(1)))
    spent = ast.Compare(left=P.name(_LEFT), ops=[ast.Lt()], comparators=[P.const(0)])
    if check_clock:
        tick = ast.Compare(left=ast.BinOp(left=P.name(_LEFT), op=ast.BitAnd(), right=P.const(0x3FF)),
                           ops=[ast.Eq()], comparators=[P.const(0)])
        spent = P.or_(tick, spent)  # type: ignore[assignment]
    # (the realm's method read where it is called: a bound method made up front, ``_charge``,
    # cost every evaluation an allocation and a closure cell for a path few of them take)
    slow = ast.Call(func=_realm_attr("charge"), args=[P.const(0)], keywords=[])
    return [take, ast.If(test=spent, body=[P.expr_stmt(slow)], orelse=[])]


def charge_step() -> list[ast.stmt]:
    """``_realm.charge()``: one step (a loop iteration, a leaf function's call)."""
    return _take_step(check_clock=True)


def enter_call() -> list[ast.stmt]:
    """``_enter()``: one level deeper (``deeper()`` past ``depth_check``), then one step."""
    deeper = ast.Assign(targets=[_realm_attr("depth", ast.Store()), P.store(_DEPTH)],
                        value=ast.BinOp(left=_realm_attr("depth"), op=ast.Add(), right=P.const(1)))
    check = ast.If(test=ast.Compare(left=P.name(_DEPTH), ops=[ast.Gt()], comparators=[_realm_attr("depth_check")]),
                   body=[P.expr_stmt(ast.Call(func=_realm_attr("deeper"), args=[], keywords=[]))], orelse=[])
    return [deeper, check, *_take_step(check_clock=False)]


def leave_call() -> ast.stmt:
    """``_leave()``: one level back up."""
    return ast.AugAssign(target=_realm_attr("depth", ast.Store()), op=ast.Sub(), value=P.const(1))
