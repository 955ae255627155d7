"""The native tier's entry point: a checked program -> its native statements, or None.

``NativeGen`` (``native.py``) translates expressions and statements; the translations of
calls (``native_calls.py``) build on it, so this module joins the two.
"""

from __future__ import annotations

import ast
from typing import Any

from syncpatch.grammar import ast as A
from syncpatch.grammar.ast import walk

from .native import NativeGen, Unsupported
from .native_calls import _is_new_set, _unique, call, indexed_match, match_truth
from .native_functions import inline_call
from .native_statements import block_value
from .native_templates import expr as E

__all__ = ["NativeProgram", "native_program"]


class NativeTranslator(NativeGen):
    """``NativeGen`` with the calls of the subset."""

    def call(self, node: A.CallExpression) -> tuple[ast.expr, str]:
        return call(self, node)

    def spread_new(self, node: A.NewExpression) -> tuple[ast.expr, str]:
        if not _is_new_set(self, node):
            raise Unsupported
        return _unique(self, node)

    def inline(self, node: A.CallExpression, statement: bool) -> tuple[ast.expr, str]:
        return inline_call(self, node, statement)

    def condition(self, node: Any) -> ast.expr:
        truth = match_truth(self, node)  # (s.match(/re/) read for its truth: whether /re/ matches)
        return truth if truth is not None else super().condition(node)

    def expr(self, node: Any, raw: bool = False) -> tuple[ast.expr, str]:
        if isinstance(node, A.BlockStatement):  # a callback's block body (see native_statements)
            return block_value(self, node)
        if isinstance(node, (A.MemberExpression, A.ChainExpression)):
            group = indexed_match(self, node)  # (s.match(/re/)?.[1]: see there)
            if group is not None:
                return group
        if isinstance(node, A.MemberExpression) and not node.optional and self.static_key(node) == "size" \
                and isinstance(node.object, A.NewExpression) and _is_new_set(self, node.object):
            # new Set(xs).size: how many distinct elements (those [...new Set(xs)] lists)
            return E("len(X)", X=_unique(self, node.object)[0]), "int"
        return super().expr(node, raw)


class NativeProgram:
    """A translated script: its statements, constants, and what it reads (for callers that
    generate the general tier only when it is first needed)."""

    def __init__(self, body: list[ast.stmt], gen: NativeGen) -> None:
        self.body = body
        self.constants = gen.consts
        self.free_globals = gen.free_globals
        self.result_type = gen.result_type  # the type of every result it returns (native.py's names)


#: what the native subset never translates: classes and ``super`` take the general tier
_GENERAL_ONLY = (A.ClassDeclaration, A.ClassExpression, A.Super)


def native_program(program: A.Program, copy_mask: int, source: str | None = None) -> NativeProgram | None:
    """The native translation of ``program``, or None (``source``, when given, spares the
    search for classes in scripts whose text cannot hold one)."""
    if (source is None or "class" in source or "super" in source) \
            and any(isinstance(node, _GENERAL_ONLY) for node in walk(program)):
        return None
    if copy_mask and _writes_locals(program):
        # a script that writes only into objects and arrays it made (native_statements) needs
        # no copy of its inputs: translated without one, any write that could reach an input
        # is refused (then the translation with the copy is tried), and the result is returned
        # only when the general tier's copy would give it alike (COPIED_OUT)
        done = _translate(program, 0, copies_skipped=True)
        if done is not None:
            return done
    return _translate(program, copy_mask)


def _translate(program: A.Program, copy_mask: int, copies_skipped: bool = False) -> NativeProgram | None:
    narrow = _translate_once(program, copy_mask, copies_skipped, wide_text=False)
    if narrow is None or _ASCII_SCREEN not in (text := _text(narrow)):
        return narrow
    # a string value screened for ASCII: the translation that screens it for surrogates only
    # (NativeGen.wide_text) serves non-ASCII names too, and is taken when it costs an ASCII
    # value nothing: the same code but for the screen, which tests ASCII first
    wide = _translate_once(program, copy_mask, copies_skipped, wide_text=True)
    if wide is not None and _text(wide).replace(_WIDE_SCREEN, _ASCII_SCREEN) == text:
        return wide
    return narrow


def _text(done: NativeProgram | str) -> str:
    """The statements' (or an expression's) tree as text (``ast.dump``: no locations needed)."""
    if isinstance(done, str):
        return ast.dump(ast.parse(done, mode="eval").body)
    return ast.dump(ast.Module(body=done.body, type_ignores=[]))


_ASCII_SCREEN = _text("value.isascii()")
_WIDE_SCREEN = _text("value.isascii() or COPIED_OUT(value)")


def _translate_once(program: A.Program, copy_mask: int, copies_skipped: bool, wide_text: bool) -> NativeProgram | None:
    gen = NativeTranslator(copy_mask)
    gen.copies_skipped = copies_skipped
    gen.wide_text = wide_text
    try:
        done = NativeProgram(gen.program(program), gen)
    except Exception:  # noqa: BLE001 - Unsupported, RecursionError, or a gap here: the general tier serves
        return None
    return None if gen.needs_ascii_value else done


def _writes_locals(program: A.Program) -> bool:
    """May the script write only into containers it made: does it declare one (``const out =
    {}``) or pass a literal to ``reduce`` as its accumulator?"""
    return any(isinstance(n, A.VariableDeclarator) and isinstance(n.init, (A.ObjectExpression, A.ArrayExpression))
               or isinstance(n, A.CallExpression) and len(n.arguments) == 2
               and isinstance(n.arguments[1], (A.ObjectExpression, A.ArrayExpression)) for n in walk(program))
