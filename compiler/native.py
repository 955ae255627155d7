"""The native tier: a script in a typed subset of JS -> plain Python, guarded, no realm.

Most patch expressions are short and total: a concatenation, a strip, a lookup with a
default, a map over ports. For those the general tier's machinery (a realm per call, budgets,
dispatch by JS type) costs far more than the work. The native tier translates the whole
script into the Python a person would write, with a type guard wherever Python and JS could
disagree; a failed guard raises, and the entry function then runs the general tier from
scratch (``runtime/native.py`` says why that is safe). Anything outside the subset makes
``native_body`` return None: the script then has only the general tier.

Types are tracked statically so guards appear only where a value's type is unknown:
``ascii`` (an ASCII str), ``str``, ``int`` (a safe integer), ``bool``, ``null``, ``undef``,
``dict`` and ``list`` (plain containers), ``any``.
"""

from __future__ import annotations

import ast
import math
from typing import Any, Callable, TypeGuard

import attrs

from syncpatch.grammar import ast as A
from syncpatch.grammar.ast import walk
from syncpatch.runtime.realm import DEFAULT_BUDGETS

from .native_templates import expr as E
from .native_templates import stmts as S

__all__ = ["NativeGen", "Unsupported"]

_SAFE = 2**53
#: the default array budget: a native binding, array or split longer than this is left to the
#: general tier, which gives the budget's RangeError (the native tier runs on default budgets)
SIZE_BOUND = DEFAULT_BUDGETS.array_length


def _safe_int(first: str, name: str | None = None) -> str:
    """Template text for "the int ``first`` is a safe integer" (``name``: how ``first`` is read
    again, when ``first`` stores it). Compact ints (|x| < 2**30, nearly every number in
    Kubernetes data) are tested first: CPython 3.11 specialises only compares of one-digit
    ints, so this test costs a fraction of the 2**53 one, which still decides the rest."""
    t = name or first
    return f"(-1073741823 <= {first} and {t} <= 1073741823 or -9007199254740992 <= {t} and {t} <= 9007199254740992)"


def _int_within(first: str, name: str, low: int, high: int) -> str:
    """Template text for "the int ``first`` (read again as ``name``) lies in [low, high]", the
    range of an operand whose sum, difference or product with a literal is a safe integer:
    testing the operand instead of the result needs no temporary for the result. The compact
    part of the range is tested first (see ``_safe_int``)."""
    full = f"{low} <= {first} and {name} <= {high}"
    c_low, c_high = max(low, -1073741823), min(high, 1073741823)
    if c_low > c_high or (c_low, c_high) == (low, high):
        return f"({full})"
    return f"({c_low} <= {first} and {name} <= {c_high} or {low} <= {name} and {name} <= {high})"


_STR = ("ascii", "str")
#: static types whose values compare alike with a string raw or canonical: no surrogates
_PLAIN_TYPES = ("ascii", "int", "bool", "null", "undef")
_LISTS = ("list", "strs", "entries", "pairs")
# strs: a list of str (Object.keys, split); entries: Object.entries' [str, value] lists;
# pairs: a map to two-element array literals (what Object.fromEntries takes)
#: Object.prototype names and other keys whose lookup is not a plain own-property read
_SPECIAL_KEYS = frozenset(["__proto__"])
#: Object.prototype's members: reading one a dict lacks is not undefined (runtime/native.py)
_PROTO_NAMES = frozenset([
    "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toString", "toLocaleString",
    "valueOf", "__proto__", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
])


class Unsupported(Exception):
    """The script leaves the native subset (never reaches a user)."""


def _join(a: str, b: str) -> str:
    if a == b:
        return a
    if a in _STR and b in _STR:
        return "str"
    return "any"


def _plain_end(e: ast.expr) -> bool:
    """Does the Python string expression ``e`` surely end without a high surrogate?"""
    if isinstance(e, ast.Constant) and type(e.value) is str:
        return bool(e.value) and not "\ud800" <= e.value[-1] <= "\udbff"
    if isinstance(e, ast.JoinedStr):
        return _plain_end(e.values[-1])
    return isinstance(e, ast.BinOp) and _plain_end(e.right)


def _plain_start(e: ast.expr) -> bool:
    """Does the Python string expression ``e`` surely start without a low surrogate?"""
    if isinstance(e, ast.Constant) and type(e.value) is str:
        return bool(e.value) and not "\udc00" <= e.value[0] <= "\udfff"
    if isinstance(e, ast.JoinedStr):
        return _plain_start(e.values[0])
    return isinstance(e, ast.BinOp) and _plain_start(e.left)


def _int_text(e: ast.expr) -> ast.expr:
    """The decimal text of the safe integer ``e`` (a literal's now)."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return ast.Constant(str(e.value))
    return E("str(X)", X=e)


def _fits_fstring(e: ast.expr) -> bool:
    """Whether ``e`` can stand inside an f-string's braces on Python 3.11: no string
    constant there needs a backslash or a quote, and no f-string is nested in it."""
    for n in ast.walk(e):
        if isinstance(n, ast.JoinedStr):
            return False
        if isinstance(n, ast.Constant) and type(n.value) is str and not (
                n.value.isascii() and n.value.isprintable() and not any(c in n.value for c in "\\'\"{}")):
            return False
    return True


class _GuardsOff(ast.NodeTransformer):
    """Guards ``name if <test> else DEOPT()`` reduced to ``name``, for ``tests`` the program's
    first statement already ensures."""

    def __init__(self, name: str, *tests: str) -> None:
        self.name = name
        self.tests = tests

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        if (isinstance(node.body, ast.Name) and node.body.id == self.name and isinstance(node.orelse, ast.Call)
                and isinstance(node.orelse.func, ast.Name) and node.orelse.func.id == "DEOPT"
                and ast.unparse(node.test) in self.tests):
            return ast.Name(id=self.name, ctx=ast.Load())
        return self.generic_visit(node)  # type: ignore[return-value]


class _ReadAgain(ast.NodeTransformer):
    """``(x := x)`` -> ``x``."""

    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.expr:
        if isinstance(node.value, ast.Name) and node.value.id == node.target.id:
            return ast.Name(id=node.target.id, ctx=ast.Load())
        return self.generic_visit(node)  # type: ignore[return-value]


def _contains(node: Any, kind: type) -> bool:
    """Whether the JS tree ``node`` holds a node of ``kind``."""
    return any(isinstance(n, kind) for n in walk(node))


def _tested_string(test: ast.expr) -> str | None:
    """The name ``T`` when ``test`` is ``type(T := X) is str`` (or ``type(T) is str``)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is)
            and isinstance(test.comparators[0], ast.Name) and test.comparators[0].id == "str"
            and isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name)
            and test.left.func.id == "type" and len(test.left.args) == 1):
        return None
    arg = test.left.args[0]
    target = arg.target if isinstance(arg, ast.NamedExpr) else arg
    return target.id if isinstance(target, ast.Name) else None


def _is_deopt(e: ast.expr) -> bool:
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "DEOPT"


def _plain_text(s: str) -> bool:
    """A literal that compares alike by code points and by UTF-16 units: no surrogates."""
    return not any("\ud800" <= c <= "\udfff" for c in s)


class NativeGen:
    """Translates one checked program (see module docstring)."""

    #: the prologue screens a string ``value`` for surrogates only, not for ASCII: set by
    #: ``native_program`` for a first translation, kept when no operation needs value's text
    #: to be ASCII (``needs_ascii_value`` says one did: then the script is translated again
    #: with the ASCII screen, which spares those operations a test of their own). Text without
    #: surrogates is what the general tier's canonical form leaves as it is, so a non-ASCII
    #: name ("café", "東京") runs natively through concatenation, templates, ``String``,
    #: comparisons and the value returned as it is.
    wide_text = False
    needs_ascii_value = False

    def call(self, node: A.CallExpression) -> tuple[ast.expr, str]:
        """A call in the subset: ``native_calls.call``, which ``native_program.NativeTranslator``
        plugs in (this module does not import the call translations, which import it)."""
        raise Unsupported

    def spread_new(self, node: A.NewExpression) -> tuple[ast.expr, str]:
        """``[...new Set(xs)]`` (``native_calls``, plugged in as ``call`` is)."""
        raise Unsupported

    def inline(self, node: A.CallExpression, statement: bool) -> tuple[ast.expr, str]:
        """A function literal called where it stands (``native_functions``, plugged in as
        ``call`` is); ``statement``: the call is a whole top-level statement or initialiser."""
        raise Unsupported

    def __init__(self, copy_mask: int) -> None:
        self.counter = 0
        self.scopes: list[dict[str, tuple[str, str]]] = [{}]
        self.pre: list[ast.stmt] = []
        self.consts: dict[str, Any] = {}
        self.value_as_text = False  # the prologue must screen value (see screened)
        self.text_uses: dict[int, ast.expr] = {}  # reads of value whose text may matter, by id (held)
        self.surrogate_free: set[int] = set()  # value's text under the wide screen (see wide_text), by id
        self.copy_mask = copy_mask
        self.in_comprehension = 0
        self.conditional = 0
        self.free_globals: dict[str, Any] = {}  # global names read, with their first span
        self.writes_plain = True  # every member write so far stores a plain value under a plain key
        self.in_loop = 0  # inside a reduce loop's body
        self.conditional_floor = 0  # inside a callback: the conditional depth of its body
        self.loop_names: set[str] = set()  # the innermost callback's parameters
        self.hoisted: list[ast.expr] = []  # the innermost callback's inner loops' receivers
        self.safe_ints: set[str] = set()  # temporaries that hold a safe integer wherever they are read
        #: translations (by id, held) whose value is already what the caller gets: a safe
        #: integer, or a float that is neither integral nor -0 (see ``ready``)
        self.caller_ready: dict[int, ast.expr] = {}
        self.maybe_absent: set[int] = set()  # member reads (by id) where the script allows for absence
        self.last_hoisted: list[ast.expr] = []  # those of the callback just translated
        self.element = "any"  # the element type of the array whose method is being translated
        self.pending: list[tuple[str, str]] = []
        self.facts: dict[str, str] = {}
        self.result_type = "any"
        #: the member paths under ``value`` that the script writes into (``("metadata",)`` for
        #: ``value.metadata.x = 1``), and whether every value written is made by the script
        #: (see ``prologue``)
        self.write_paths: set[tuple[str, ...]] = set()
        self.writes_fresh = True
        #: locals a statement assigns again (``let x``; native_statements): no guard's fact holds
        #: for them, and ``own``: locals holding an object or array the script made (writable)
        self.reassigned: set[str] = set()
        self.own: set[str] = set()
        #: the script deletes a member somewhere (of an object it made): a loop over an
        #: object's keys, values or entries takes a copy, not a view a deletion would change
        self.deletes = False
        #: translated without the input copy the general tier makes (native_program): a
        #: result must be what the copy would give (COPIED_OUT)
        self.copies_skipped = False
        #: input paths (``("value", "metadata")``) read as an object more than once, and the
        #: temporaries that hold those already guarded as dicts (see ``member``)
        self.shared_paths: set[tuple[str, ...]] = set()
        self.memo: dict[tuple[str, ...], str] = {}
        self.top_pre: list[ast.stmt] = self.pre  # the statements run before the current top-level one
        #: translations (by id, held) of lists of ``[key, value]`` entries whose keys are distinct
        #: and in JS's order (``Object.entries`` and filters and key-keeping maps of it), and of
        #: objects made from them: their keys need no check on the way out (see ``exported``)
        self.ordered: dict[int, ast.expr] = {}
        #: the string joins ``joined`` made (by id): a later join takes their parts in
        self.joins: dict[int, ast.expr] = {}
        #: products by a positive literal (by id: the guarded product and its unguarded
        #: ``X * c``), which a further literal factor multiplies unguarded (see ``binary``)
        self.products: dict[int, tuple[ast.expr, ast.expr]] = {}
        #: ``Object.keys(x)`` translations (by id: the translation and ``x``'s), which a
        #: ``sort()`` of them replaces (native_calls)
        self.object_keys: dict[int, tuple[ast.expr, ast.expr]] = {}
        #: literal-index reads of arrays (by id: the read, undefined past the end, and the
        #: plain subscript; see ``past_end_refused``)
        self.indexed: dict[int, tuple[ast.expr, ast.expr, str]] = {}
        #: filters made outside callbacks (by id, held: the translation and its element's
        #: Python name or names), which a map of them joins (native_calls._after_filter)
        self.filtered: dict[int, tuple[ast.expr, Any]] = {}
        #: ``Number(x)`` translations (by id, held; see ``number_of``): an int they give is safe
        self.number_ofs: dict[int, ast.expr] = {}
        #: translations (by id, held) that hold a JS number which may be a fraction (a float
        #: literal, parseFloat, a quotient): arithmetic on them takes the number helpers
        #: (``float_arithmetic``) instead of the safe-integer forms, which would refuse a float
        self.numbers: dict[int, ast.expr] = {}
        #: literal-index reads (by JS node id) whose result a string method reads (``s[0]
        #: .toUpperCase()``): the value read may be a string (see ``string_index``)
        self.string_indexes: set[int] = set()
        #: how many static member reads each name is the object of (see ``read_once``)
        self.member_objects: dict[str, int] = {}
        self.other_uses: dict[str, int] = {}  # the other places each name is written
        self.stand_ins: list[Any] = []  # the rests of short-circuited chains (see short_circuit)
        self.prelude: list[ast.stmt] = []  # statements run first in each call (per-call state)
        self.group_lists: str | None = None  # the lists (g[k] ??= []).push(x) made, by id (native_statements)

    def tmp(self) -> str:
        self.counter += 1
        return f"_n{self.counter}"

    # -- facts: a guard that always ran makes later guards of the same name redundant ----------
    def note_fact(self, e: ast.expr, ty: str) -> None:
        """Record that the name ``e`` has type ``ty`` once this guard has run. Only guards that
        run unconditionally count; they take effect where ``promote`` says (see there)."""
        if not isinstance(e, ast.Name) or self.conditional != self.conditional_floor or e.id in self.reassigned:
            return
        if not self.in_comprehension:
            self.pending.append((e.id, ty))
        elif e.id in self.loop_names:  # a comprehension variable: holds for the rest of this iteration
            self.facts[e.id] = ty

    def promote(self, start: int = 0) -> None:
        """Facts noted since ``start`` hold for all code translated from now on: either the
        statement that ran their guards is complete, or it was hoisted, so it runs before
        everything still to be translated."""
        for name, ty in self.pending[start:]:
            self.facts[name] = ty
        del self.pending[start:]

    def branch(self) -> "_Branch":
        return _Branch(self)

    # -- the script --------------------------------------------------------------------------
    def program(self, program: A.Program) -> list[ast.stmt]:
        """The script's statements, then its completion value returned as the caller gets it."""
        translated = self.statements(program)
        return [_StripAffix().visit(statement) for statement in [*self.prelude, *translated]]

    def statements(self, program: A.Program) -> list[ast.stmt]:
        body: list[ast.stmt] = []
        completion: tuple[ast.expr, str] = (E("UNDEFINED"), "undef")
        self.maybe_absent = _maybe_absent(program)
        self.string_indexes = _string_indexes(program)
        self.member_objects = _member_objects(program)
        self.other_uses = _other_uses(program)
        self.deletes = any(isinstance(n, A.UnaryExpression) and n.operator == "delete" for n in walk(program))
        if not self.copy_mask:
            self.shared_paths = _shared_paths(program, self)
        for statement in program.body:
            self.pre = self.top_pre = []
            if isinstance(statement, A.ExpressionStatement):
                completion = self.expression_statement(statement, body)
            elif isinstance(statement, A.VariableDeclaration) and statement.kind in ("const", "let"):
                self.declaration(statement, body)
            elif not isinstance(statement, A.EmptyStatement):
                raise Unsupported  # (`with` among them: its names resolve at run time, in the general tier)
        result, ty = completion
        last = body[-1] if body else None
        if isinstance(last, ast.Assign) and isinstance(result, ast.Name) and last.targets[0].id == result.id:  # type: ignore[attr-defined]
            body.pop()  # the completion is the last statement's value: return it directly
            result = last.value
        if self.copy_mask & 4 and self.writes_plain and isinstance(result, ast.Name) and result.id == "_val":
            # value with a few plain members written: when the input object is itself plain, the
            # copy is what to_python would return, so the result needs no walk
            # (the values are tested inline: a call costs more than the loop on a few entries;
            # keys never seen before take the walk once, which remembers them)
            prologue = S("if type(value) is dict and len(value) <= 8 and KNOWN_KEYS(value):\n"
                         "    _val = dict(value)\n    _plain = True\n"
                         "    for _x in _val.values():\n"
                         "        if type(_x) not in PLAIN_LEAVES and (type(_x) is not int or not -S <= _x <= S):\n"
                         "            _plain = False\n            break\n"
                         "else:\n    _val = SHALLOW(value) if type(value) is dict else DEOPT()\n    _plain = False",
                         S=ast.Constant(_SAFE))
            body = [_GuardsOff("_val", "type(_val) is dict").visit(stmt) for stmt in body]  # _val is a dict
            return [*prologue, *body, ast.Return(value=E("_val if _plain else TO_PYTHON(_val)"))]
        if (self.path_copies() or self.copies_skipped) and ty not in ("ascii", "bool", "int", "null", "undef"):
            out = [*body, ast.Return(value=E("COPIED_OUT(R)", R=result))]  # (see prologue)
        else:
            out = [*body, *self.result(result, ty)]
        self.result_type = ty
        if self.facts.get("value") in _STR and not self.copy_mask:
            # every run that succeeds has a string value: test that once, up front
            screen = bool(self.value_as_text or self.text_uses)
            test = "type(value) is not str or not value.isascii()" if screen else "type(value) is not str"
            tests = ("type(value) is str", "type(value) is str and value.isascii()")
            if screen and self.wide_text:  # (surrogates only: COPIED_OUT refuses a string with one)
                test, screen = "type(value) is not str or not (value.isascii() or COPIED_OUT(value))", False
            return [*S(f"if {test}: DEOPT()"), *[_GuardsOff("value", *tests[:1 + screen]).visit(stmt) for stmt in out]]
        return [*self.prologue(), *out]

    def expression_statement(self, statement: A.ExpressionStatement, body: list[ast.stmt]) -> tuple[ast.expr, str]:
        e = statement.expression
        if isinstance(e, A.AssignmentExpression):
            node, ty = self.assignment(e)
        elif is_function_call(e):
            node, ty = self.inline(e, statement=True)
        else:
            node, ty = self.expr(e)
        name = self.tmp()
        body.extend(self.pre)
        body.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=node))
        self.promote()
        return E("C", C=name), ty

    def declaration(self, statement: A.VariableDeclaration, body: list[ast.stmt]) -> None:
        for d in statement.declarations:
            if not isinstance(d.id, A.Identifier) or d.init is None or d.id.name in _INPUTS \
                    or d.id.name in self.scopes[0]:
                raise Unsupported  # (a redeclaration is a compile error: the general tier says so)
            node, ty = self.inline(d.init, statement=True) if is_function_call(d.init) else self.expr(d.init)
            name = self.tmp()
            body.extend(self.pre)
            self.pre = self.top_pre = []
            body.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=node))
            if ty not in ("bool", "int", "null", "undef"):
                # a binding can be doubled by the next statement (const b = a + a): bound each
                # one by the default budgets, past which the general tier decides
                body.extend(S("if len(X) > L if type(X) in SIZED else False: DEOPT()", X=name,
                              L=ast.Constant(SIZE_BOUND)))
            self.scopes[0][d.id.name] = (name, ty)
            self.promote()

    def prologue(self) -> list[ast.stmt]:
        """The inputs as the general tier sees them: a copy when the script writes, and no
        text the general tier would canonicalise (non-ASCII, tuples)."""
        if self.path_copies():
            # writes only at static paths, of values the script makes: copying the objects
            # on those paths first is as good as a deep copy (every object written into is
            # one of those copies or one the script made; no input object is)
            return [*S("_val = SHALLOW(value)"), *_copy_paths("_val", self.write_paths, self)]
        if self.copy_mask:
            return S(f"V = {'SHALLOW' if self.copy_mask & 4 else 'TO_JS'}(value)", V="_val")
        if self.value_as_text or self.text_uses:
            if self.wide_text:  # (surrogates only: COPIED_OUT refuses a string with one)
                return S("if (_vt := type(value)) is str:\n    if not (value.isascii() or COPIED_OUT(value)): DEOPT()\n"
                         "elif _vt is tuple: DEOPT()")
            return S("if (_vt := type(value)) is str:\n    if not value.isascii(): DEOPT()\n"
                     "elif _vt is tuple: DEOPT()")
        return []

    def path_copies(self) -> bool:
        """Does the script copy only the objects on its write paths (see ``prologue``)? Its
        result may then hold objects of the caller's input, unconverted: ``COPIED_OUT``
        returns those only where converting them would change nothing."""
        return bool(self.copy_mask & 1 and not self.copy_mask & 4 and self.writes_fresh)

    def result(self, result: ast.expr, ty: str) -> list[ast.stmt]:
        if ty in ("ascii", "str", "bool", "int", "null", "undef", "strs"):
            return [ast.Return(value=result)]  # already what the caller gets (strs: a list of str)
        if ty in ("list", "pairs", "dict") and not _flat_spread(result):
            checked = self.exported(result)
            if checked is not None:
                out, keys_known = checked
                return [ast.Return(value=out if keys_known else self.keys_out(out))]
        if ty == "dict" and isinstance(result, ast.Dict) and 0 < len(result.keys) <= 16 and all(
                isinstance(k, ast.Constant) and type(k.value) is str and not "0" <= k.value[:1] <= "9"
                for k in result.keys):
            # an object literal (no spread): its keys are plain, so only the values whose type
            # is unknown are tested, each where it is made
            tests: list[str] = []
            values: list[ast.expr] = []
            for v in result.values:
                if isinstance(v, ast.Constant) and (type(v.value) in (str, bool, type(None))
                                                    or type(v.value) is int and -_SAFE <= v.value <= _SAFE):
                    values.append(v)
                    continue
                t = self.tmp()
                values.append(E("(T := V)", T=t, V=v))
                tests.append(f"(type({t}) in PLAIN_LEAVES or type({t}) is int and {_safe_int(t)})")
            d = self.tmp()
            made = ast.Dict(keys=result.keys, values=values)
            if not tests:
                return [ast.Return(value=made)]
            return S(f"D = R\nreturn D if {' and '.join(tests)} else DICT_OUT_KEYS(D)", D=d, R=made)
        if ty == "dict":  # a small plain object (the usual result) is tested inline: no call
            # (no return inside the loop: plans write this body in place, see runtime/plan_inline.py)
            return S("D = R\n"
                     "P = len(D) <= 8 and KNOWN_KEYS(D)\n"
                     "if P:\n"
                     "    for X in D.values():\n"
                     f"        if type(X) not in PLAIN_LEAVES and (type(X) is not int or not {_safe_int('X')}):\n"
                     "            P = False\n"
                     "            break\n"
                     "return D if P else DICT_OUT_KEYS(D)", D=self.tmp(), P=self.tmp(), R=result, X=self.tmp(),
                     L=ast.Constant(_SAFE))
        if ty == "list":
            if isinstance(result, ast.Call) and isinstance(result.func, ast.Name) and result.func.id in _AS_CALLER_GETS:
                return [ast.Return(value=result)]
            if isinstance(result, ast.List) and all(isinstance(e, ast.Constant) and type(e.value) in (str, bool, int)
                                                    for e in result.elts):
                return [ast.Return(value=result)]  # a literal of plain constants: what the caller gets
            return [ast.Return(value=E("TO_PYTHON(R)", R=result))]
        return self.returns(result)

    # -- results checked where they are made ----------------------------------------------------
    def exported(self, e: ast.expr, nested: bool = False) -> tuple[ast.expr, bool] | None:
        """``e``, a list or object the script makes, rewritten so that it is already what
        ``to_python`` would give: each part is checked (and converted, rarely) where it is
        made, instead of a walk over the finished result. A part made by the script needs no
        check, a leaf read from the input only a type test. With True, the object's keys are
        known to be in JS's order too; with False, the caller still tests them (``keys_out``).
        None: not a shape handled here (the whole result takes the usual check)."""
        if isinstance(e, ast.ListComp):
            if _flat_spread(e.elt) and not nested:
                # (a result that is a list of {...d, k: x}: TO_PYTHON's first loop looks at it
                # with no call per element; inside a result, SPREAD_OUT per element costs less
                # than a walk of that list again)
                return None
            return ast.ListComp(elt=self.exported_part(e.elt), generators=e.generators), True
        if isinstance(e, ast.List):
            if any(isinstance(x, ast.Starred) for x in e.elts):
                return None
            return ast.List(elts=[self.exported_part(x) for x in e.elts], ctx=ast.Load()), True
        if isinstance(e, ast.DictComp):
            # (keys are strings: the translation tests each one)
            return ast.DictComp(key=e.key, value=self.exported_part(e.value), generators=e.generators), \
                id(e) in self.ordered
        if isinstance(e, ast.Dict):
            return self.exported_dict(e)
        return None

    def exported_dict(self, e: ast.Dict) -> tuple[ast.expr, bool] | None:
        """An object literal: its static keys are plain (none is an array index, which JS
        would enumerate first), so only its values are looked at, each where it is made; one
        spread may stand first (``{...s, k: x}``), whose members ``SPREAD_OUT`` gives as the
        caller gets them (in JS's order, so the literal's keys, all plain, keep it)."""
        keys: list[str] = []
        for i, (k, v) in enumerate(zip(e.keys, e.values)):
            if k is None and i == 0:
                continue
            if k is None and _literal_choice(v):
                continue  # (...(x && { k: v }): a literal or nothing, exported below)
            if not (isinstance(k, ast.Constant) and type(k.value) is str and not "0" <= k.value[:1] <= "9"):
                return None
            keys.append(k.value)
        values: list[ast.expr] = []
        for i, (k, v) in enumerate(zip(e.keys, e.values)):
            if k is not None:
                values.append(self.exported_part(v))
            elif i and isinstance(v, ast.IfExp):
                made = [self.exported(x, nested=True) for x in (v.body, v.orelse)]
                if any(m is None or not m[1] for m in made):
                    return None  # (a key that is an index: the walk puts it in JS's order)
                values.append(ast.IfExp(test=v.test, body=made[0][0], orelse=made[1][0]))  # type: ignore[index]
            else:
                values.append(v)
        if e.keys and e.keys[0] is None:
            # (members the literal writes over are never seen: SPREAD_OUT need not look at them)
            skip = ast.Tuple(elts=[ast.Constant(k) for k in dict.fromkeys(keys)], ctx=ast.Load())
            values[0] = E("SPREAD_OUT(D, K)", D=e.values[0], K=skip)
        return ast.Dict(keys=list(e.keys), values=values), True

    def exported_part(self, e: ast.expr) -> ast.expr:
        """One part of a result (an element or a member value) as ``to_python`` gives it."""
        if isinstance(e, ast.Constant) and (type(e.value) in (str, bool, type(None))
                                            or type(e.value) is int and -_SAFE <= e.value <= _SAFE):
            return e  # (a literal's text has no surrogates: see literal)
        if isinstance(e, ast.Name) and (e.id == "UNDEFINED" or e.id in self.safe_ints) or isinstance(e, ast.Call) and isinstance(
                e.func, ast.Name) and (e.func.id in _AS_CALLER_GETS or e.func.id == "len" and len(e.args) == 1):
            return e  # (len: a safe integer)
        if self.is_ready(e):
            return e
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add) and any(
                isinstance(x, ast.Constant) and type(x.value) is str for x in (e.left, e.right)):
            return e  # (text joined to a string, as in returns)
        if isinstance(e, ast.JoinedStr):
            return e  # (an f-string ``joined`` made: always a str, of text the translation tested)
        if isinstance(e, ast.IfExp):
            return ast.IfExp(test=e.test, body=self.exported_part(e.body), orelse=self.exported_part(e.orelse))
        if isinstance(e, (ast.ListComp, ast.List, ast.Dict, ast.DictComp)):
            made = self.exported(e, nested=True)
            if made is None:
                return E("TO_PYTHON(X)", X=e)
            return made[0] if made[1] else self.keys_out(made[0])
        # a value of unknown type: a plain leaf (the usual one) is tested inline, anything else
        # (an input object, a float) takes to_python
        t = e.id if isinstance(e, ast.Name) else self.tmp()
        first = "T" if isinstance(e, ast.Name) else "(T := X)"
        return E(f"T if type({first}) in PLAIN_LEAVES or type(T) is int and {_safe_int('T')} else TO_PYTHON(T)",
                 T=t, X=e)

    def ready(self, e: ast.expr) -> ast.expr:
        """``e``, noted as a value the caller gets as it is (``returns`` then tests nothing)."""
        self.caller_ready[id(e)] = e
        return e

    def is_ready(self, e: ast.expr) -> bool:
        return self.caller_ready.get(id(e)) is e

    def keys_out(self, e: ast.expr) -> ast.expr:
        """An object whose values are as the caller gets them: its keys are tested (and put
        in JS's order where an array index is among them)."""
        return E("D if KNOWN_KEYS(D := X) or PLAIN_KEYS(D) else KEYS_OUT(D)", D=self.tmp(), X=e)

    def returns(self, result: ast.expr, strings: frozenset[str] = frozenset()) -> list[ast.stmt]:
        """``return`` of a value of unknown type, split at conditionals so that a branch that is
        a constant (``value.x || "default"``), or a name its test found to be a string
        (``strings``), returns it without a type test."""
        if isinstance(result, ast.IfExp):
            tested = _tested_string(result.test)
            inner = strings | {tested} if tested else strings
            return [ast.If(test=result.test, body=self.returns(result.body, inner), orelse=[]),
                    *self.returns(result.orelse, strings)]
        if isinstance(result, ast.Constant) and (type(result.value) in (str, bool, type(None))
                                                 or type(result.value) is int and -_SAFE <= result.value <= _SAFE):
            return [ast.Return(value=result)]
        if isinstance(result, ast.Name) and result.id == "value" and not self.copy_mask and not self.value_as_text \
                and list(self.text_uses) == [id(result)]:
            # the input returned as it is, its only read whose text matters: screened here, where
            # a string is returned (non-ASCII text or a tuple takes the general tier, which
            # canonicalises them), instead of by a prologue that every run pays
            del self.text_uses[id(result)]
            text = "(value.isascii() or COPIED_OUT(value))" if self.wide_text else "value.isascii()"
            return [ast.Return(value=E(f"value if (T := type(value)) is str and {text} else "
                                       "TO_PYTHON(value) if T is not str and T is not tuple else DEOPT()", T=self.tmp()))]
        if isinstance(result, ast.Name) and (result.id == "UNDEFINED" or result.id in strings
                                             or result.id in self.safe_ints):
            return [ast.Return(value=result)]
        if isinstance(result, ast.Call) and isinstance(result.func, ast.Name) and result.func.id in _AS_CALLER_GETS \
                or self.is_ready(result):
            return [ast.Return(value=result)]
        if isinstance(result, ast.Subscript) and isinstance(result.slice, ast.Slice) and (
                isinstance(result.value, ast.Name) and result.value.id in strings
                or isinstance(result.value, ast.IfExp) and isinstance(result.value.body, ast.Name)
                and result.value.body.id in strings and _is_deopt(result.value.orelse)):
            return [ast.Return(value=result)]  # (a slice of a string the translation tested)
        if isinstance(result, ast.BinOp) and isinstance(result.op, ast.Add) and any(
                isinstance(x, ast.Constant) and type(x.value) is str for x in (result.left, result.right)):
            return [ast.Return(value=result)]  # (text joined to a string the translation tested)
        if isinstance(result, ast.JoinedStr):
            return [ast.Return(value=result)]  # (an f-string joined of tested text: a str)
        if isinstance(result, (ast.List, ast.Dict, ast.ListComp, ast.DictComp)):
            made = self.exported(result)  # (a literal such as the default of ``x ?? {}``)
            if made is not None:
                return [ast.Return(value=made[0] if made[1] else self.keys_out(made[0]))]
        return [ast.Return(value=E("T if type(T := R) is str else TO_PYTHON(T)", T=self.tmp(), R=result))]

    def assignment(self, e: A.AssignmentExpression) -> tuple[ast.expr, str]:
        """``value.k = x`` (and ``value[k] = x``, ``value.k ??= x``, ``||=``, ``&&=``) on the
        script's own copy of ``value``."""
        target = e.left
        if e.operator not in ("=", *_LOGICAL_ASSIGNMENTS) or not isinstance(target, A.MemberExpression) \
                or target.optional:
            raise Unsupported
        key = self.static_key(target)
        if key is None or key in _SPECIAL_KEYS or not self.copy_mask:
            raise Unsupported
        if not _fresh(e.right):
            self.writes_fresh = False
        if self.is_input(target.object, "value"):
            target_dict = self.as_dict(E("_val"), self.facts.get("_val", "any"))
        elif self.copy_mask & 1 and not self.copy_mask & 4 and self.under_value(target.object):
            # value.metadata.annotations[k] = x: the script's deep copy of value (TO_JS) holds
            # every object reachable from it, so a write anywhere in it reaches no caller's object
            target_dict = self.as_dict(*self.expr(target.object))
            self.writes_plain = False
        else:
            raise Unsupported
        if e.operator != "=":
            return self.logical_assignment(e.operator, target_dict, key, e.right)
        node, ty = self.expr(e.right)
        if ty not in ("ascii", "str", "bool", "int", "null", "undef") or key[:1].isdigit():
            self.writes_plain = False  # the written value or key may need to_python
        name = self.tmp()
        self.pre.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=node))
        self.pre.extend(S("V[K] = X", V=target_dict, K=ast.Constant(key), X=E("X", X=name)))
        self.pre.extend(self.bounded(node, name, ty))
        return E("X", X=name), ty

    def delete(self, target: Any) -> tuple[ast.expr, str]:
        """``delete value.k`` (``delete value.a.b[k]``, a static key) on the script's own copy
        of ``value``, as ``assignment`` writes it: the member goes, if there is one (true)."""
        if not isinstance(target, A.MemberExpression) or target.optional:
            raise Unsupported
        key = self.static_key(target)
        if key is None or key in _SPECIAL_KEYS or not self.copy_mask:
            raise Unsupported
        if self.is_input(target.object, "value"):
            target_dict = self.as_dict(E("_val"), self.facts.get("_val", "any"))
        elif self.copy_mask & 1 and not self.copy_mask & 4 and self.under_value(target.object):
            target_dict = self.as_dict(*self.expr(target.object))  # (see assignment: a copy)
        else:
            raise Unsupported
        self.pre.extend(S("V.pop(K, None)", V=target_dict, K=ast.Constant(key)))
        return ast.Constant(True), "bool"

    def bounded(self, node: ast.expr, name: str, ty: str) -> list[ast.stmt]:
        """A written member can be doubled next (see ``program``): bound it by the default
        budgets, past which the general tier decides."""
        if ty in ("bool", "int", "null", "undef") or isinstance(node, ast.Constant):
            return []
        return S("if len(X) > L if type(X) in SIZED else False: DEOPT()", X=name, L=ast.Constant(SIZE_BOUND))

    def logical_assignment(self, operator: str, target_dict: ast.expr, key: str,
                           right: Any) -> tuple[ast.expr, str]:
        """``d.k ??= x`` (``||=``, ``&&=``): the member is read once, and ``x`` is computed
        and written only when the test says so (its guards establish no facts)."""
        if key in _PROTO_NAMES:
            raise Unsupported  # (an absent key would read Object.prototype's member)
        d, current = self.tmp(), self.tmp()
        self.pre.extend(S("D = X\nC = D.get(K, UNDEFINED)", D=d, X=target_dict, C=current, K=ast.Constant(key)))
        if operator == "??=":
            test = E("C is None or C is UNDEFINED", C=current)
        else:
            truth = self.truthy(E("C", C=current), "any")
            test = E("not X", X=truth) if operator == "||=" else truth
        outer, self.pre = self.pre, []
        try:
            with self.branch():
                node, ty = self.expr(right)
        finally:
            inner, self.pre = self.pre, outer
        if ty not in ("ascii", "str", "bool", "int", "null", "undef") or key[:1].isdigit():
            self.writes_plain = False
        inner.extend(S("C = X\nD[K] = C", C=current, X=node, D=d, K=ast.Constant(key)))
        inner.extend(self.bounded(node, current, ty))
        self.pre.append(ast.If(test=test, body=inner, orelse=[]))
        return E("C", C=current), "any"

    def is_input(self, node: Any, name: str) -> bool:
        """Whether ``node`` names the script input ``name`` itself: unshadowed, or a parameter
        of an inlined function that was passed it (``(v => ...)(value)``)."""
        if not isinstance(node, A.Identifier):
            return False
        local = self.lookup(node.name)
        if local is None:
            return node.name == name
        return local[0] == _ALIAS + name

    def under_value(self, node: Any) -> bool:
        """``value.a.b`` (static, not optional members): a place inside the input ``value``
        (its path is noted in ``write_paths``)."""
        path: list[str] = []
        while isinstance(node, A.MemberExpression) and not node.optional and not node.computed \
                and isinstance(node.property, A.PropertyName):
            path.append(node.property.name)
            node = node.object
        if not self.is_input(node, "value"):
            return False
        self.write_paths.add(tuple(reversed(path)))
        return True

    # -- names ---------------------------------------------------------------------------------
    def lookup(self, name: str) -> tuple[str, str] | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def is_global(self, node: A.Expression, name: str) -> bool:
        if isinstance(node, A.Identifier) and node.name == name and self.lookup(name) is None:
            self.free_globals.setdefault(name, node.span)  # as the general tier records them
            return True
        return False

    def identifier(self, node: A.Identifier, raw: bool = False) -> tuple[ast.expr, str]:
        local = self.lookup(node.name)
        if local is not None and local[0].startswith(_ALIAS):  # a parameter passed an input itself
            return self.input(local[0][len(_ALIAS):], raw)
        if local is not None:
            return E("X", X=local[0]), self.facts.get(local[0], local[1])
        return self.input(node.name, raw)

    def input(self, name: str, raw: bool = False) -> tuple[ast.expr, str]:
        """A read of the script input ``name`` (or of a global the subset knows)."""
        if name == "value":
            if self.copy_mask:
                return E("X", X="_val"), self.facts.get("_val", "any")
            read = E("value")
            if not raw:  # until a guard that admits no string consumes it (see consumed)
                self.text_uses[id(read)] = read
            return read, self.facts.get("value", "any")
        if name == "context":
            return E("context"), self.facts.get("context", "any")
        if name == "valueExists":
            return E("not not value_exists"), "bool"
        if name == "undefined":
            return E("UNDEFINED"), "undef"
        if name in ("Infinity", "NaN"):
            # (a sentinel: ``p.nodePort ?? Infinity`` for Math.min; a float is what the caller gets)
            return self.number(self.ready(ast.Constant(math.inf if name == "Infinity" else math.nan))), "any"
        raise Unsupported

    # -- expressions ---------------------------------------------------------------------------
    def expr(self, node: Any, raw: bool = False) -> tuple[ast.expr, str]:
        if isinstance(node, (A.MemberExpression, A.CallExpression)):
            split = _short_circuit(node)
            if split is not None and not (self.in_comprehension and _contains(split[1], A.CallExpression)):
                return self.short_circuit(*split)
        match node:
            case A.Identifier():
                return self.identifier(node, raw)
            case A.Literal():
                return self.literal(node)
            case A.TemplateLiteral():
                return self.template(node)
            case A.MemberExpression():
                return self.member(node)
            case A.ChainExpression():
                return self.expr(node.expression, raw)
            case A.CallExpression() if not node.optional:
                return self.call(node)
            case A.CallExpression():  # (``s?.trim?.()``: native_calls takes the few it can)
                return self.call(node)
            case A.BinaryExpression():
                return self.binary(node)
            case A.LogicalExpression():
                return self.logical(node)
            case A.UnaryExpression():
                return self.unary(node)
            case A.ConditionalExpression():
                start = len(self.pending)
                test = self.condition(node.test)
                outer = self.facts
                if not _contains(node, A.ArrowFunctionExpression):
                    # the test's guards ran before either branch (no branch hoists code above it)
                    self.facts = {**outer, **dict(self.pending[start:])}
                try:
                    a, ta = self.in_branch(node.consequent)
                    b, tb = self.in_branch(node.alternate)
                finally:
                    self.facts = outer
                return E("A if C else B", A=a, B=b, C=test), _join(ta, tb)
            case A.ObjectExpression():
                return self.object(node)
            case A.ArrayExpression():
                return self.array(node)
        raise Unsupported

    def short_circuit(self, base: Any, rest: Any, pairs: list[tuple[Any, Any]]) -> tuple[ast.expr, str]:
        """An optional chain (``_short_circuit`` splits it). Each ``?.`` link alone gives
        undefined for a nullish object; where plain links follow one (``xs?.map(f).join(',')``,
        ``o?.spec.ports``) the whole chain short-circuits in JS, which those links would not:
        the chain is then the test of its first ``?.`` object, undefined, or else the rest
        with that link plain (as statements, as ``_optional_call`` makes them: the rest may
        hoist a loop's receiver, which must not run on a nullish object; in a callback's
        comprehension, a conditional expression where the rest calls nothing, so hoists
        nothing ahead of the test: else the links stay as they are, and a plain link after
        undefined takes the general tier)."""
        for link, stand_in in pairs:  # (what the analyses found of a link holds for its stand-in)
            for found in (self.maybe_absent, self.string_indexes):
                if id(link) in found:
                    found.add(id(stand_in))
        self.stand_ins.append(rest)  # (held: the analyses know its links by id)
        obj, ty = self.expr(base, raw=True)
        if self.in_comprehension:
            self.consumed(obj)
            t = self.tmp()
            e, rest_ty = self.chain_rest(rest, t, ty)
            out = E("UNDEFINED if (T := X) is None or T is UNDEFINED else R", T=t, X=obj, R=e)
            if rest_ty in ("ascii", "str", "bool", "int", "null", "undef", "strs") or self.is_ready(e):
                self.ready(out)
            return out, "any"
        out, e, rest_ty = self.unless_nullish(obj, lambda held: self.chain_rest(rest, held, ty))
        if rest_ty in ("ascii", "str", "bool", "int", "null", "undef", "strs") or self.is_ready(e):
            self.ready(out)  # (undefined, or what the caller gets as it is)
        return out, "any"

    def unless_nullish(self, obj: ast.expr,
                       rest: Callable[[str], tuple[ast.expr, str]]) -> tuple[ast.expr, ast.expr, str]:
        """Undefined when ``obj`` is null or undefined, else what ``rest`` makes of it (given
        the name holding it), as statements: ``rest``'s own statements (a loop's receiver it
        hoists, say) run only after the test. The name of the answer, ``rest``'s expression
        and its type."""
        t, r = self.tmp(), self.tmp()
        self.pre.append(ast.Assign(targets=[ast.Name(id=t, ctx=ast.Store())], value=obj))
        saved, self.pre = self.pre, []
        try:
            e, ty = rest(t)
        finally:
            body, self.pre = self.pre, saved
        self.pre.append(ast.If(test=E("T is None or T is UNDEFINED", T=t),
                               body=[ast.Assign(targets=[ast.Name(id=r, ctx=ast.Store())], value=E("UNDEFINED"))],
                               orelse=[*body, ast.Assign(targets=[ast.Name(id=r, ctx=ast.Store())], value=e)]))
        return E("R", R=r), e, ty

    def chain_rest(self, rest: Any, t: str, ty: str) -> tuple[ast.expr, str]:
        """The rest of a short-circuited chain, in a branch, its first ``?.`` object held in ``t``."""
        self.scopes.append({_CHAIN_OBJECT: (t, ty)})
        try:
            with self.branch():
                return self.expr(rest)
        finally:
            self.scopes.pop()

    def literal(self, node: A.Literal) -> tuple[ast.expr, str]:
        v = node.value
        if v is None:
            return ast.Constant(None), "null"
        if type(v) is bool:
            return ast.Constant(v), "bool"
        if type(v) is str:
            if not _plain_text(v):
                raise Unsupported
            return ast.Constant(v), "ascii" if v.isascii() else "str"
        if type(v) is int and -_SAFE <= v <= _SAFE:
            return ast.Constant(v), "int"
        if type(v) is float and math.isfinite(v):  # (1.5, 0.8: a fraction, held as the double JS reads)
            return self.number(ast.Constant(v)), "any"
        raise Unsupported

    def number(self, e: ast.expr) -> ast.expr:
        """``e``, noted as holding a JS number that may be a fraction (see ``numbers``)."""
        self.numbers[id(e)] = e
        return e

    def is_number(self, e: ast.expr) -> bool:
        return self.numbers.get(id(e)) is e

    def float_arithmetic(self, op: str, a: ast.expr, ta: str, b: ast.expr, tb: str) -> tuple[ast.expr, str] | None:
        """``a op b`` where an operand may be a fraction: exact double arithmetic by the number
        helpers (``runtime/native.py``: safe ints and floats only, -0 and a zero divisor as JS
        has them, the result in to_python's form), and ``<`` and friends by Python's exact
        int/float order, which is JS's for safe integers and doubles (NaN compares false in
        both). None when neither operand may be a fraction, or a string takes part in ``+``."""
        if not (self.is_number(a) or self.is_number(b)) or op not in _NUMBER_HELPERS and op not in _ORDERS:
            return None
        if op == "+" and (ta in _STR or tb in _STR):
            return None
        if op != "+":
            a, ta = self.numeric(a, ta)  # (a numeric string counts as its number)
            b, tb = self.numeric(b, tb)
        self.consumed(a)
        self.consumed(b)
        x = a if ta == "int" else E("NUMBER_VALUE(X)", X=a)
        y = b if tb == "int" else E("NUMBER_VALUE(X)", X=b)
        if op in _ORDERS:
            return E(f"X {op} Y", X=x, Y=y), "bool"
        return self.number(self.ready(E(f"{_NUMBER_HELPERS[op]}(X, Y)", X=a, Y=b))), "any"

    def template(self, node: A.TemplateLiteral) -> tuple[ast.expr, str]:
        out: tuple[ast.expr, str] | None = None
        for i, text in enumerate(node.quasis):
            if text is None or not _plain_text(text):
                raise Unsupported
            parts: list[tuple[ast.expr, str]] = []
            if text:
                parts.append((ast.Constant(text), "ascii" if text.isascii() else "str"))
            if i < len(node.expressions):
                parts.append(self.to_text(*self.expr(node.expressions[i])))
            for part in parts:
                out = part if out is None else self.concat(*out, *part)
        if out is None:
            return ast.Constant(""), "ascii"
        return out  # (`${x}` alone: to_text's string, every branch of which is a str)

    def concat(self, a: ast.expr, ta: str, b: ast.expr, tb: str) -> tuple[ast.expr, str]:
        """Two strings joined as JS joins UTF-16 units: a trailing high and a leading low
        surrogate become one character. Python's ``+`` is that unless both sides may hold
        surrogates at the seam (neither is ASCII nor a literal that ends or starts plainly)."""
        ty = "ascii" if ta == tb == "ascii" else "str"
        if ta == "ascii" or tb == "ascii" or _plain_end(a) or _plain_start(b) \
                or id(a) in self.surrogate_free or id(b) in self.surrogate_free:
            return self.joined(a, b), ty
        return E("CONCAT(X, Y)", X=a, Y=b), ty

    def joined(self, a: ast.expr, b: ast.expr) -> ast.expr:
        """``a + b`` of two strings; a chain of three or more parts (``x + '-' + y``, a
        template) becomes one f-string, which builds the text once instead of once a ``+``.
        (Each part is an exact str or int already, which an f-string formats as ``str`` does.)"""
        parts: list[ast.expr] = []
        for e in (a, b):
            if self.joins.get(id(e)) is e:
                if isinstance(e, ast.JoinedStr):
                    parts.extend(v.value if isinstance(v, ast.FormattedValue) else v for v in e.values)
                else:
                    assert isinstance(e, ast.BinOp)
                    parts.extend((e.left, e.right))
            else:
                parts.append(e)
        if len(parts) > 2 and all(isinstance(p, ast.Constant) or _fits_fstring(p) for p in parts):
            values: list[ast.expr] = []
            for p in parts:
                if isinstance(p, ast.Constant):
                    if values and isinstance(values[-1], ast.Constant):
                        values[-1] = ast.Constant(str(values[-1].value) + str(p.value))
                    else:
                        values.append(ast.Constant(p.value))
                else:
                    values.append(ast.FormattedValue(value=p, conversion=-1, format_spec=None))
            out: ast.expr = ast.JoinedStr(values=values)
        else:
            out = E("X + Y", X=a, Y=b)
        self.joins[id(out)] = out
        return out

    # -- guards --------------------------------------------------------------------------------
    def guard(self, template: str, e: ast.expr, **subs: ast.expr) -> ast.expr:
        """A guard template over ``(T := X)``: a name is read again as it is (no store),
        anything else is held in a temporary."""
        if not isinstance(e, ast.Name):
            return E(template, T=self.tmp(), X=e, **subs)
        return _ReadAgain().visit(E(template, T=e.id, X=e.id, **subs))  # type: ignore[no-any-return]

    def held(self, e: ast.expr) -> str:
        """The name a template holds ``e`` in: its own when it is a name (``(x := x)`` is then
        read as ``x`` by ``_ReadAgain``), else a fresh temporary."""
        return e.id if isinstance(e, ast.Name) else self.tmp()

    def consumed(self, e: ast.expr) -> None:
        """``e`` is read only through a guard that admits no string (an int, an object, an
        array) or for its truth value (which canonical form keeps): if it is a read of value,
        its text cannot matter, so it alone needs no prologue."""
        self.text_uses.pop(id(e), None)

    def screened(self, e: ast.expr) -> bool:
        """Whether ``e`` is the input ``value`` itself, which the prologue screens: once it is
        known to be a string, it is ASCII (this asks for the prologue)."""
        if isinstance(e, ast.Name) and e.id == "value" and not self.copy_mask:
            self.value_as_text = True
            return True
        return False

    def as_text(self, e: ast.expr, ty: str, screen: bool = True) -> ast.expr:
        """``e`` as a string (``screen=False``: the caller checks the text itself, so a raw
        ``value`` needs no prologue)."""
        if ty in _STR:
            return e
        if ty != "any":
            raise Unsupported
        self.note_fact(e, "ascii" if screen and self.screened(e) and not self.wide_text else "str")
        return self.guard("T if type(T := X) is str else DEOPT()", e)

    def numeric(self, e: ast.expr, ty: str) -> tuple[ast.expr, str]:
        """A string operand of arithmetic as the number JS reads from it (others as they are)."""
        if ty in _STR:
            return self.number_of(e, ty), "any"
        return e, ty

    def number_of(self, e: ast.expr, ty: str) -> ast.expr:
        """``Number(e)``: text of ASCII digits alone (a port, a replica count), at most 15 of
        them, is a safe integer that ``int`` reads exactly as JS does (leading zeros too), with
        no call; anything else (signs, spaces, hex, fractions, long digit runs, other types)
        takes NUMBER_OF. Either answer is as the caller gets it, and an int either gives is safe."""
        t = self.tmp()
        test = ("(T := X).isascii() and T.isdigit() and len(T) < 16" if ty in _STR
                else "type(T := X) is str and T.isascii() and T.isdigit() and len(T) < 16")
        digits = self.ready(E("int(T)", T=t))
        out = E(f"D if {test} else NUMBER_OF(T)", D=digits, T=t, X=e)
        self.number_ofs[id(out)] = out
        return out

    def to_text(self, e: ast.expr, ty: str) -> tuple[ast.expr, str]:
        """JS ToString of ``e`` where a string is wanted (``+`` with a string, templates,
        ``String(x)``): numbers, null, booleans and undefined by their JS text; an object
        converts itself, so it takes the general tier."""
        if ty in _STR:
            return e, ty
        if ty == "int":
            return E("str(X)", X=e), "ascii"
        if ty == "null":
            return E("(X, 'null')[1]", X=e), "ascii"
        if ty == "undef":
            return E("(X, 'undefined')[1]", X=e), "ascii"
        if ty == "bool":
            return E("'true' if X else 'false'", X=e), "ascii"
        if ty != "any":
            raise Unsupported
        if isinstance(e, ast.Name) and e.id == "value" and not self.copy_mask:
            # the input itself: its text is screened here, so it needs no prologue (STRING_OF
            # refuses strings and tuples)
            self.consumed(e)
            if self.wide_text:  # (text without surrogates: COPIED_OUT refuses a string with one)
                out = E("'null' if value is None else value if (T := type(value)) is str and "
                        "(value.isascii() or COPIED_OUT(value)) else "
                        f"str(value) if T is int and {_safe_int('value')} else STRING_OF(value)", T=self.tmp())
                self.surrogate_free.add(id(out))
                return out, "str"
            # (null first: one identity test, which costs a string operand less than a type
            # test costs null)
            return E("'null' if value is None else value if (T := type(value)) is str and value.isascii() else "
                     f"str(value) if T is int and {_safe_int('value')} else STRING_OF(value)",
                     T=self.tmp()), "ascii"
        return E(f"T if type(T := X) is str else str(T) if type(T) is int and {_safe_int('T')} else STRING_OF(T)",
                 T=self.tmp(), X=e), "str"

    def as_ascii(self, e: ast.expr, ty: str) -> ast.expr:
        if ty == "ascii":
            return e
        if ty != "str" and ty != "any":
            raise Unsupported
        self.note_fact(e, "ascii")
        if ty == "str" and self.wide_text and isinstance(e, ast.Name) and e.id == "value" and not self.copy_mask:
            self.needs_ascii_value = True  # (value's fact says str: the wide screen's)
        if ty == "str":
            return self.guard("T if (T := X).isascii() else DEOPT()", e)
        if self.screened(e):
            if self.wide_text:
                self.needs_ascii_value = True  # (translated again with the ASCII screen)
                return self.guard("T if type(T := X) is str and T.isascii() else DEOPT()", e)
            return self.guard("T if type(T := X) is str else DEOPT()", e)
        return self.guard("T if type(T := X) is str and T.isascii() else DEOPT()", e)

    def past_end_refused(self, e: ast.expr) -> ast.expr:
        """``e`` where a guard that refuses undefined reads it: a literal index of an array
        (``containers[0]``) is then a plain subscript, whose IndexError past the end takes
        the general tier as the guard would have."""
        indexed = self.indexed.get(id(e))
        return indexed[1] if indexed is not None and indexed[0] is e else e

    def as_dict(self, e: ast.expr, ty: str) -> ast.expr:
        self.consumed(e)
        if ty == "dict":
            return e
        if ty != "any":
            raise Unsupported
        e = self.past_end_refused(e)
        self.note_fact(e, "dict")
        return self.guard("T if type(T := X) is dict else DEOPT()", e)

    def as_spread(self, e: ast.expr, ty: str) -> ast.expr:
        """The object whose members a spread ``{...x}`` (or a source of ``Object.assign``)
        copies: ``x`` itself, or none for null and undefined (an absent optional field, such
        as a Pod's labels: JS copies nothing). No fact: later reads of ``x`` test it again."""
        self.consumed(e)
        if ty == "dict":
            return e
        if ty in ("null", "undef"):
            return ast.Dict(keys=[], values=[])
        if ty != "any":
            raise Unsupported
        return self.guard("T if type(T := X) is dict else {} if T is None or T is UNDEFINED else DEOPT()", e)

    def as_list(self, e: ast.expr, ty: str) -> ast.expr:
        self.consumed(e)
        if ty in _LISTS:
            return e
        if ty != "any":
            raise Unsupported
        self.note_fact(e, "list")
        return self.guard("T if type(T := X) is list else DEOPT()", e)

    def as_int(self, e: ast.expr, ty: str) -> ast.expr:
        self.consumed(e)
        if ty == "int":
            return e
        if ty != "any":
            raise Unsupported
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "NUMBER_OF" \
                or self.number_ofs.get(id(e)) is e:
            # (an int NUMBER_OF gives is safe: it makes a larger one a float, as JS holds it)
            return self.guard("T if type(T := X) is int else DEOPT()", e)
        return self.guard(f"T if type(T := X) is int and {_safe_int('T')} else DEOPT()", e)

    def truthy(self, e: ast.expr, ty: str) -> ast.expr:
        """JS ToBoolean as a Python test: Python's own truth agrees on str, int, bool, None and
        undefined; floats (NaN) and containers (always true in JS) take ``JS_TRUTHY``."""
        if ty in ("bool", "ascii", "str", "int", "null", "undef"):
            return e
        self.consumed(e)
        t = self.tmp()
        return E("T if type(T := X) in PLAIN_TRUTH else JS_TRUTHY(T)", T=t, X=e)

    # -- members -------------------------------------------------------------------------------
    def static_key(self, node: A.MemberExpression) -> str | None:
        prop = node.property
        if isinstance(prop, A.PropertyName):
            return prop.name
        if isinstance(prop, A.Literal) and type(prop.value) is str:
            return prop.value
        return None

    def object_path(self, node: Any) -> tuple[str, ...] | None:
        """The input path of ``node`` when it is an unshadowed input or a plain member read of
        one (``value.metadata``: ``("value", "metadata")``), else None."""
        keys: list[str] = []
        while isinstance(node, A.MemberExpression) and not node.optional:
            key = self.static_key(node)
            if key is None or key == "length" or key in _SPECIAL_KEYS:
                return None
            keys.append(key)
            node = node.object
        for root in ("value", "context"):
            if self.is_input(node, root):
                return (root, *reversed(keys))
        return None

    def member(self, node: A.MemberExpression, translated: tuple[ast.expr, str] | None = None) -> tuple[ast.expr, str]:
        shared = None
        key = self.static_key(node)
        if translated is None and not node.optional and self.shared_paths and key is not None \
                and key != "length" and key not in _SPECIAL_KEYS:
            # an input object read again (value.metadata.name ... value.metadata.namespace):
            # its first unconditional read is made, guarded, into a temporary before the
            # top-level statement it is in (so before every later read, whatever order the
            # templates evaluate in, and afresh on each run of a body a plan inlines in a
            # loop). The inputs are not written (no copy mask), so each read sees that dict;
            # reading it early can only fail early, which takes the general tier
            shared = self.object_path(node.object)
            if shared in self.memo:
                return self.load(E("T", T=self.memo[shared]), key, id(node) in self.maybe_absent), "any"
        obj, ty = translated or self.expr(node.object, raw=True)
        if shared in self.shared_paths and ty == "any" and self.pre is self.top_pre and self.conditional == 0 \
                and not self.in_comprehension and not self.in_loop:
            assert shared is not None and key is not None
            self.consumed(obj)
            self.note_fact(obj, "dict")
            t = self.memo[shared] = self.tmp()
            self.pre.extend(S("T = X\nif type(T) is not dict: DEOPT()", T=t, X=obj))
            return self.load(E("T", T=t), key, id(node) in self.maybe_absent), "any"
        if node.optional:
            t = self.tmp()
            key = self.static_key(node)
            if ty == "any" and key is not None and key != "length" and key not in _SPECIAL_KEYS \
                    and key not in _PROTO_NAMES:
                # two identity tests, then the object's own storage (see dict_get): anything
                # else than null, undefined or an object takes the general tier
                self.consumed(obj)
                return E("UNDEFINED if (T := X) is None or T is UNDEFINED else G", T=t, X=obj,
                         G=self.dict_get(E("T", T=t), key)), "any"
            if ty == "any" and key is not None and key != "length" and key not in _SPECIAL_KEYS:
                # the usual case first: an object holds the member (one type test)
                return E("L if type(T := X) is dict else UNDEFINED if T is None or T is UNDEFINED else DEOPT()",
                         T=t, X=obj, L=self.load(E("T", T=t), key)), "any"
            with self.branch():
                inner = self.member_of(node, E("T", T=t), ty)
            return E("UNDEFINED if (T := X) is None or T is UNDEFINED else Y", T=t, X=obj, Y=inner[0]), "any"
        return self.member_of(node, obj, ty)

    def member_of(self, node: A.MemberExpression, obj: ast.expr, ty: str) -> tuple[ast.expr, str]:
        key = self.static_key(node)
        if key is None:
            if not node.computed:
                raise Unsupported
            k, kty = self.expr(node.property)
            # an absent key reads as undefined, unless Object.prototype has it (then KeyError: an
            # own key is read as any other own key, as JS reads a data property; without one,
            # JS would read the prototype, which the general tier does)
            x, t = self.tmp(), self.tmp()
            if isinstance(obj, ast.Name) and ty == "dict" and kty in _STR:  # a plain load: order is moot
                return E("X[T] if (T := K) in X else UNDEFINED if T not in PROTO_NAMES else DEOPT()", X=obj, T=t,
                         K=k), "any"
            # the object is evaluated before the key, as in JS: ((X := obj), (T := key))
            if kty == "int" and isinstance(k, ast.Constant) and type(k.value) is int and k.value >= 0 \
                    and (ty in _STR or ty == "any" and id(node) in self.string_indexes):
                return self.string_index(obj, ty, k)
            if kty == "int" and isinstance(k, ast.Constant) and type(k.value) is int and k.value >= 0:
                # a literal index (containers[0]): no tuple to keep the order, one compare
                items = self.as_list(obj, ty)
                out = E("X[K] if len(X := L) > K else UNDEFINED", X=x, K=k, L=items)
                self.indexed[id(out)] = (out, E("L[K]", L=items, K=k), ty)
                return out, "any"
            if kty == "int":  # (past the end, or a negative index: an absent key of an array)
                return E("X[T] if 0 <= ((X := L), (T := I))[1] < len(X) else UNDEFINED", X=x, T=t,
                         L=self.as_list(obj, ty), I=k), "any"
            if kty in _STR:
                return E("X[T] if ((X := D), (T := K))[1] in X else UNDEFINED if T not in PROTO_NAMES else DEOPT()",
                         X=x, T=t, D=self.as_dict(obj, ty), K=k), "any"
            if kty == "any":
                return E("X.get(T, UNDEFINED) if type(((X := D), (T := K))[1]) is str and T not in PROTO_NAMES "
                         "else DEOPT()", X=x, T=t, D=self.as_dict(obj, ty), K=k), "any"
            raise Unsupported
        if key in _SPECIAL_KEYS:
            raise Unsupported
        if key == "length":
            if isinstance(obj, ast.Constant) and type(obj.value) is str:
                return ast.Constant(len(obj.value.encode("utf-16-le")) // 2), "int"
            keys = self.object_keys.get(id(obj))
            if keys is not None and keys[0] is obj:
                # Object.keys(d).length: one key per entry, in whatever order (no JS_KEYS for
                # integer-like keys such as a ConfigMap's "10"), when every key is a str
                return E("len(D) if type(D := X) is dict and (KNOWN_KEYS(D) or STR_KEYS(D)) else DEOPT()",
                         D=self.tmp(), X=keys[1]), "int"
            if ty in _LISTS:
                return E("len(X)", X=obj), "int"
            # (other text than ASCII: its UTF-16 units counted by the codec, which refuses a
            # surrogate, so a split pair or a lone half, whose count the general tier decides)
            if ty == "ascii":
                return E("len(X)", X=obj), "int"
            if ty in _STR:
                return E("len(T) if (T := X).isascii() else len(T.encode('utf-16-le')) // 2", T=self.tmp(),
                         X=obj), "int"
            if ty != "any":
                raise Unsupported
            t = self.tmp()  # (an object's own "length" is rare: the general tier reads it; a name's
            # length, a string's, is the usual one)
            out = E("len(T) if type(T := X) is str and T.isascii() or type(T) is list else "
                    "len(T.encode('utf-16-le')) // 2 if type(T) is str else DEOPT()", T=t, X=obj)
            assert isinstance(out, ast.IfExp)
            self.ready(out.orelse)  # (an int, as the first branch: no result check in a result)
            return out, "int"
        if ty == "any" and key not in _PROTO_NAMES and self.read_once(node.object):
            self.consumed(obj)
            return self.dict_get(self.past_end_refused(obj), key), "any"
        return self.load(self.as_dict(obj, ty), key, id(node) in self.maybe_absent), "any"

    def read_once(self, node: Any) -> bool:
        """Is ``node`` (the object of a member read) read as an object here alone: a value
        the script does not name (``value.a`` in ``value.a.b``, a call's result), or a name
        that is the object of no other member read? Its type test would then serve this read
        only, which ``dict_get`` makes for less; a name read more often keeps the test, whose
        fact lets each later read be a plain subscript."""
        while isinstance(node, A.ChainExpression):
            node = node.expression
        if isinstance(node, A.Identifier):
            # (and named nowhere else but where it is bound: an object the script also
            # returns or shares must be an exact dict, which its type test ensures)
            bound = 0 if node.name in ("value", "context") else 1
            return self.member_objects.get(node.name, 0) <= 1 and self.other_uses.get(node.name, 0) <= bound
        return True

    def dict_get(self, d: ast.expr, key: str) -> ast.expr:
        """``d[key]`` of a value not yet tested: ``dict.get`` unbound (DICT_GET) reads a dict,
        or a dict subclass's own storage without calling any method it overrides (neither
        ``__getitem__`` nor ``__missing__``), an absent key as undefined; on any other type
        (a list, a string, a number, null, undefined, a tuple, a Mapping) it raises
        TypeError, which takes the general tier. One call costs less than the type test and
        subscript it replaces. (Not for a key Object.prototype has: its absence is not
        undefined.)"""
        assert key not in _PROTO_NAMES
        return E("DICT_GET(D, K, UNDEFINED)", D=d, K=ast.Constant(key))

    def string_index(self, obj: ast.expr, ty: str, k: ast.Constant) -> tuple[ast.expr, str]:
        """``s[0]`` of a string, or of a value that may be a string or an array (an index read
        whose result the script treats as text: see ``_string_indexes``): an ASCII string's
        character is its UTF-16 unit; other text takes the general tier. No list fact is noted
        for a value that may be either."""
        self.consumed(obj)
        x = self.tmp()
        if ty in _STR:
            subject = self.as_ascii(obj, ty)
        else:
            subject = self.guard("T if type(T := X) is list or type(T) is str and T.isascii() else DEOPT()", obj)
        out = E("X[K] if len(X := L) > K else UNDEFINED", X=x, K=k, L=subject)
        self.indexed[id(out)] = (out, E("L[K]", L=subject, K=k), ty)
        return out, "any"

    def load(self, d: ast.expr, key: str, maybe_absent: bool = True) -> ast.expr:
        """``d[key]`` of a dict. Where the script allows for an absent key (see
        ``_maybe_absent``), it is undefined, unless Object.prototype has a member of that name;
        elsewhere a plain subscript, whose KeyError takes the general tier (a method call
        per member read costs more than the usual script's own work)."""
        if key in _PROTO_NAMES or not maybe_absent:
            return E("D[K]", D=d, K=ast.Constant(key))
        return E("D.get(K, UNDEFINED)", D=d, K=ast.Constant(key))

    # -- operators -----------------------------------------------------------------------------
    def binary(self, node: A.BinaryExpression) -> tuple[ast.expr, str]:
        op = node.operator
        a, ta = self.expr(node.left)
        b, tb = self.expr(node.right)
        fractional = self.float_arithmetic(op, a, ta, b, tb)
        if fractional is not None:
            return fractional
        if op == "**":
            return self.power(a, ta, b, tb), "int"
        if op == "+":
            return self.plus(a, ta, b, tb)
        if op in ("===", "!=="):
            # against a value whose text has no surrogates (ASCII) or that is no text at all, a
            # read of value compares alike raw and canonical (a tuple equals none of them)
            if tb in _PLAIN_TYPES:
                self.consumed(a)
            if ta in _PLAIN_TYPES:
                self.consumed(b)
            test = self.strict_equals(a, ta, b, tb)
            return (test if op == "===" else E("not X", X=test)), "bool"
        if op in ("==", "!=") and (ta in ("null", "undef") or tb in ("null", "undef")):
            other = b if ta in ("null", "undef") else a
            self.consumed(other)  # (null and undefined are no text, raw or canonical)
            test = E("(T := X) is None or T is UNDEFINED", T=self.tmp(), X=other)
            return (test if op == "==" else E("not X", X=test)), "bool"
        if op in ("==", "!="):
            # against an ASCII string or safe integer literal, loose equality is strict for a
            # value of the literal's type; null and undefined equal neither; other values
            # convert (a number against text, an object to a primitive): the general tier
            literal, other = (b, a) if _loose_literal(b) else (a, b) if _loose_literal(a) else (None, a)
            if not isinstance(literal, ast.Constant):
                raise Unsupported
            self.consumed(other)
            same = "type(T := X) is str" if type(literal.value) is str else "type(T := X) is int or type(T) in NUMBER_TYPES"
            test = E(f"T == L if {same} else False if T is None or T is UNDEFINED else DEOPT()", T=self.tmp(),
                     X=other, L=literal)
            return (test if op == "==" else E("not X", X=test)), "bool"
        if op in ("<", ">", "<=", ">="):
            # against a literal inside (-2**53, 2**53), an int needs no range test: JS rounds
            # one beyond 2**53 to a double still beyond it, so the order is the exact one
            # (a float too, 8080.0 or 0.5: Python compares an int and a float exactly, as JS
            # compares two doubles when the int is safe; NaN compares false in both)
            number = "T if type(T := X) is int or type(T) in NUMBER_TYPES else DEOPT()"
            text = "T if type(T := X) is str else DEOPT()"
            if ta in ("any", *_STR) and isinstance(b, ast.Constant) and type(b.value) is str and b.value.isascii():
                # against ASCII text, any string compares alike by code points and by UTF-16
                # units (the first difference is an ASCII character against one, or against a
                # non-ASCII character, which is greater either way, or an end)
                self.consumed(a)
                return E(f"X {op} Y", X=a if ta in _STR else self.guard(text, a), Y=b), "bool"
            if tb in ("any", *_STR) and isinstance(a, ast.Constant) and type(a.value) is str and a.value.isascii():
                self.consumed(b)
                return E(f"X {op} Y", X=a, Y=b if tb in _STR else self.guard(text, b)), "bool"
            if ta == "any" and isinstance(b, ast.Constant) and type(b.value) is int and abs(b.value) < _SAFE:
                self.consumed(a)
                return E(f"X {op} Y", X=self.guard(number, a), Y=b), "bool"
            if tb == "any" and isinstance(a, ast.Constant) and type(a.value) is int and abs(a.value) < _SAFE:
                self.consumed(b)
                return E(f"X {op} Y", X=a, Y=self.guard(number, b)), "bool"
            return E(f"X {op} Y", X=self.as_int(a, ta), Y=self.as_int(b, tb)), "bool"
        if op in ("-", "*", "/", "%"):  # a numeric string ("512", a quantity's digits) counts as its number
            a, ta = self.numeric(a, ta)
            b, tb = self.numeric(b, tb)
        if op == "-":
            if ta in ("any", "int") and isinstance(b, ast.Constant) and type(b.value) is int:
                # (the operand's range is tested: the difference is safe exactly then)
                return self.with_literal("U - Y", a, ta, b.value, -_SAFE + b.value, _SAFE + b.value), "int"
            if ta == "any" and tb == "int":  # one type test and one range test, as for +
                self.consumed(a)
                return _ReadAgain().visit(E(f"T if type(U := X) is int and {_safe_int('(T := U - Y)', 'T')} else DEOPT()",
                                            T=self.tmp(), U=self.held(a), X=a, Y=b)), "int"
            return E(f"T if {_safe_int('(T := X - Y)', 'T')} else DEOPT()", T=self.tmp(), X=self.as_int(a, ta),
                     Y=self.as_int(b, tb)), "int"
        if op == "/":  # an exact quotient inline; a fraction, -0 or a zero divisor: DIVIDE
            if isinstance(b, ast.Constant) and type(b.value) is int and b.value > 0:
                return self.number(self.quotient(a, ta, b.value)), "any"
            t, u = self.tmp(), self.tmp()
            self.safe_ints.add(t + "q")
            return self.number(E("Q if ((T := X), (U := Y))[1] and not T % U and (T or U > 0) and (Q := T // U) is not None "
                     "else DIVIDE(T, U)", T=t, U=u, Q=t + "q", X=self.as_int(a, ta), Y=self.as_int(b, tb))), "any"
        if op == "%":
            if isinstance(b, ast.Constant) and type(b.value) is int and b.value > 0:
                # by a positive literal: Python's % is JS's for a dividend >= 0 (a negative one
                # keeps its sign in JS, and may make -0: REMAINDER)
                x = self.as_int(a, ta)
                t = a.id if isinstance(a, ast.Name) else self.tmp()
                held = x if isinstance(a, ast.Name) else E("(T := X)", T=t, X=x)
                return E("T % D if H >= 0 else REMAINDER(T, D)", T=t, H=held, D=b), "int"
            return E("REMAINDER(X, Y)", X=self.as_int(a, ta), Y=self.as_int(b, tb)), "int"
        if op in _BITWISE:  # ToInt32 / ToUint32 of safe integers: two's complement masks
            return E(_BITWISE[op], X=self.as_int(a, ta), Y=self.as_int(b, tb)), "int"
        if op == "in":
            self.consumed(a)  # (HAS_PROPERTY refuses non-ASCII text and tuples; the inline test is ASCII only)
            if isinstance(b, ast.List) and all(isinstance(e, ast.Constant) for e in b.elts) and len(b.elts) <= 64:
                # ``key in [literal, ...]`` (often meant as "is one of"): the array's own keys are
                # its indices and "length"; null reads as "null"; a name its prototypes hold, or
                # another key type, is left to HAS_PROPERTY
                names: list[ast.expr] = [ast.Constant(str(i)) for i in range(len(b.elts))]
                own = ast.Set(elts=[*names, ast.Constant("length")])
                return E("False if (T := X) is None else (T in S) if type(T) is str and T.isascii() "
                         "and T not in PROTO_NAMES and T not in ARRAY_NAMES else HAS_PROPERTY(T, L)",
                         T=self.tmp(), X=a, S=own, L=b), "bool"
            return E("HAS_PROPERTY(X, Y)", X=a, Y=b), "bool"
        if op == "*" and _int_constant(a) is not None and _int_constant(b) is None:
            a, ta, b, tb = b, tb, a, ta  # (a literal factor second: the product is the same)
        if op == "*" and isinstance(b, ast.Constant) and type(b.value) is int and b.value > 0:
            # by a positive literal (* 1024): a zero product is +0 (the other factor is an int,
            # never -0), so only the range is tested. In a chain (x * 1024 * 1024) only the
            # last product is: |x * c| <= |x * c * d| for an int d >= 1, so an earlier
            # product is safe when the last one is
            factor = self.products.get(id(a))
            inner = factor[1] if factor is not None and factor[0] is a else self.as_int(a, ta)
            t = self.tmp()
            product = E("X * Y", X=inner, Y=b)
            out = E(f"T if {_safe_int('(T := P)', 'T')} else DEOPT()", T=t, P=product)
            self.products[id(out)] = (out, product)
            return out, "int"
        if op == "*":  # a zero product is -0 in JS when the other factor is negative: general tier
            # (a reduce from 0 or a zero count keeps +0 and stays here)
            if ta in ("any", "int") and isinstance(b, ast.Constant) and type(b.value) is int and b.value > 0:
                # by a positive literal: a zero product is +0; safe exactly when |a| <= 2**53 // b
                return self.with_literal("U * Y", a, ta, b.value, -(_SAFE // b.value), _SAFE // b.value), "int"
            if tb in ("any", "int") and isinstance(a, ast.Constant) and type(a.value) is int and a.value > 0:
                return self.with_literal("Y * U", b, tb, a.value, -(_SAFE // a.value), _SAFE // a.value), "int"
            return E(f"T if {_safe_int('(T := (U := X) * (V := Y))', 'T')} and (T or (U >= 0 and V >= 0)) else DEOPT()",
                     T=self.tmp(), U=self.tmp(), V=self.tmp(), X=self.as_int(a, ta),
                     Y=self.as_int(b, tb)), "int"
        raise Unsupported

    def power(self, a: ast.expr, ta: str, b: ast.expr, tb: str) -> ast.expr:
        """``a ** b`` of two ints: an exact power that is a safe integer is the double JS
        computes (fdlibm's pow, which JS engines use, gives an integer power exactly when it
        is representable; every partial power is exact too). Two integer literals
        (``1024 ** 3``) are folded; an operand known only at run time (``2 ** (32 - bits)``)
        is tested there: a negative exponent (a fraction) or a power past 2**53 takes the
        general tier, as do operands that are no safe integers."""
        base, exponent = _int_constant(a), _int_constant(b)
        if base is not None and exponent is not None and not isinstance(a, ast.UnaryOp):
            if not 0 <= exponent <= 64:
                raise Unsupported
            folded = base**exponent
            if not -_SAFE <= folded <= _SAFE:
                raise Unsupported
            return ast.Constant(folded)
        x, y = self.as_int(a, ta), self.as_int(b, tb)
        return E(f"T if ((U := X), 0 <= (V := Y) <= 64)[1] and {_safe_int('(T := U ** V)', 'T')} else DEOPT()",
                 T=self.tmp(), U=self.tmp(), V=self.tmp(), X=x, Y=y)

    def with_literal(self, template: str, a: ast.expr, ta: str, literal: int, low: int, high: int,
                     otherwise: str = "DEOPT()") -> ast.expr:
        """``template`` (over ``U``, the operand ``a``, and ``Y``, an int literal) when ``a`` is an
        int in [low, high], where the result is a safe integer, else ``otherwise``: one type test
        (none for a known int) and one range test, and no temporary for a name's value or the
        result's."""
        self.consumed(a)
        u = self.held(a)
        first = "(U := X)" if u != getattr(a, "id", None) else "U"
        if ta != "int":
            test = f"type({first}) is int and {_int_within('U', 'U', low, high)}"
        else:
            test = _int_within(first, "U", low, high)
        made = _ReadAgain().visit(E(f"B if {test} else {otherwise}", U=u, X=a, Y=ast.Constant(literal),
                                    B=E(template, U=u, Y=ast.Constant(literal))))
        assert isinstance(made, ast.IfExp)
        self.ready(made.body)
        return made

    def quotient(self, a: ast.expr, ta: str, divisor: int) -> ast.expr:
        """``a / divisor`` for a positive literal divisor (``/ 2``, ``/ 1024``), both what the
        caller gets: an exact quotient as an int (a power of two by a shift), anything else by
        Python's true division of the two ints, which is correctly rounded as JS's division of
        the two (exact) doubles is. No -0 (a zero dividend is exact) and no zero divisor; a
        fraction is never integral, so it stays a float."""
        x = self.as_int(a, ta)
        if isinstance(a, ast.Name):  # (the guard passes the name through: read it again)
            t, held = a.id, x
        else:
            t = self.tmp()
            held = E("(T := X)", T=t, X=x)
        d = ast.Constant(divisor)
        if divisor & (divisor - 1) == 0:
            test = E("not X & M", X=held, M=ast.Constant(divisor - 1))
            exact = E("T >> K", T=t, K=ast.Constant(divisor.bit_length() - 1))
        else:
            test = E("not X % D", X=held, D=d)
            exact = E("T // D", T=t, D=d)
        return ast.IfExp(test=test, body=self.ready(exact), orelse=self.ready(E("T / D", T=t, D=d)))

    def plus(self, a: ast.expr, ta: str, b: ast.expr, tb: str) -> tuple[ast.expr, str]:
        if ta in _STR or tb in _STR:
            if ta == "int":
                a, ta = _int_text(a), "ascii"
            if tb == "int":
                b, tb = _int_text(b), "ascii"
            # an operand of unknown type is tested: str + x would call a caller's object's
            # __radd__ (or a str subclass's), which native code must not run
            a, ta = self.to_text(a, ta)
            b, tb = self.to_text(b, tb)
            return self.concat(a, ta, b, tb)
        if ta == "int" or tb == "int":
            t = self.tmp()
            if ta == "int" and tb == "any" and isinstance(a, ast.Constant) and type(a.value) is int:
                return self.with_literal("Y + U", b, tb, a.value, -_SAFE - a.value, _SAFE - a.value,
                                         "ADD_TEXT(Y, U)"), "any"
            if ta == "any" and tb == "int" and isinstance(b, ast.Constant) and type(b.value) is int:
                # (a literal's text is known now)
                return self.with_literal("U + Y", a, ta, b.value, -_SAFE - b.value, _SAFE - b.value,
                                         f"U + {str(b.value)!r} if type(U) is str and U.isascii() else ADD_TEXT(U, Y)"), "any"
            if ta == "int" and tb == "any":  # (a string on the right stays on the right)
                u = self.held(b)
                self.consumed(b)
                self.safe_ints.add(t)
                return _ReadAgain().visit(E(f"T if type(U := Y) is int and {_safe_int('(T := X + U)', 'T')} else "
                                            "ADD_TEXT(X, U)", T=t, U=u, X=a, Y=b)), "any"
            if ta == "any" and tb == "int":  # one type test and one range test for both; a string
                u = self.held(a)  # (an annotation's "8080" + 1) is joined with the number's text
                self.consumed(a)  # (ADD_TEXT takes ASCII text only)
                self.safe_ints.add(t)
                return _ReadAgain().visit(E(f"T if type(U := X) is int and {_safe_int('(T := U + Y)', 'T')} else "
                                            "ADD_TEXT(U, Y)", T=t, U=u, X=a, Y=b)), "any"
            return E(f"T if {_safe_int('(T := X + Y)', 'T')} else DEOPT()", T=t, X=self.as_int(a, ta),
                     Y=self.as_int(b, tb)), "int"
        if ta == "any" and tb == "any":  # two safe integers or two strings; anything else: general tier
            return E("ADD(X, Y)", X=a, Y=b), "any"
        raise Unsupported

    def strict_equals(self, a: ast.expr, ta: str, b: ast.expr, tb: str) -> ast.expr:
        if tb == "any" and ta != "any":
            a, ta, b, tb = b, tb, a, ta
        if tb == "null":
            return E("X is None", X=a)
        if tb == "undef":
            return E("X is UNDEFINED", X=a)
        if tb == "bool":
            if isinstance(b, ast.Constant):
                return E("X is True" if b.value else "X is False", X=a)
            if ta == "bool":
                return E("X is Y", X=a, Y=b)
            raise Unsupported
        # An operand of unknown type is type-tested before ``==`` reaches it: a caller's str
        # or int subclass would run its own ``__eq__`` here, where the general tier reads its
        # plain value; so an operand that fails the exact test and is such a subclass goes there
        if tb in _STR:
            if ta in _STR:
                return E("X == Y", X=a, Y=b)
            if ta != "any":  # a known non-string still runs (it may throw): (x, False)[1]
                return E("(X, False)[1]", X=a)
            if not isinstance(b, ast.Constant):
                return E("STRICT_EQUALS(X, Y)", X=a, Y=b)
            t = self.tmp()
            return E("T == Y if type(T := X) is str else UNEQUAL_TEXT(T)", T=t, X=a, Y=b)
        if tb == "int":
            if ta == "int":
                return E("X == Y", X=a, Y=b)
            if not isinstance(b, ast.Constant):
                return E("STRICT_EQUALS(X, Y)", X=a, Y=b)
            t = self.tmp()
            return E("T == Y if type(T := X) in NUMBER_TYPES else UNEQUAL_NUMBER(T)", T=t, X=a, Y=b)
        if ta == "any" and tb == "any":  # (a.name === b.name, k === context.x)
            return E("STRICT_EQUALS(X, Y)", X=a, Y=b)
        raise Unsupported

    def condition(self, node: Any) -> ast.expr:
        """``node`` where only its truth is read (a conditional's test, ``!x``, ``Boolean(x)``, a
        filter's or some's callback): ``a || b`` and ``a && b`` as Python's ``or`` and ``and``
        of their operands' truth (the right one as code that may not run), ``!a`` as ``not``,
        ``Boolean(a)`` as ``a``'s truth. No operand's value is computed to be tested again:
        ``v.configMap || v.secret`` tests an object once, not twice."""
        if isinstance(node, A.LogicalExpression) and node.operator in ("||", "&&"):
            a = self.condition(node.left)
            b, _ = self.in_branch(node.right, as_condition=True)
            return E("A or B" if node.operator == "||" else "A and B", A=a, B=b)
        if isinstance(node, A.UnaryExpression) and node.operator == "!":
            return E("not X", X=self.condition(node.argument))
        if isinstance(node, A.CallExpression) and not node.optional and len(node.arguments) == 1 \
                and not isinstance(node.arguments[0], A.SpreadElement) and self.is_global(node.callee, "Boolean"):
            return self.condition(node.arguments[0])
        return self.truthy(*self.expr(node))

    def logical(self, node: A.LogicalExpression) -> tuple[ast.expr, str]:
        left = node.left
        if node.operator in ("||", "??") and isinstance(node.right, A.Literal) and type(node.right.value) is str \
                and isinstance(left, A.MemberExpression) and left.optional and self.static_key(left) not in (
                    None, "length", *_SPECIAL_KEYS):
            obj, ty = self.expr(left.object, raw=True)
            key = self.static_key(left) or ""
            if ty == "any" and key not in _PROTO_NAMES:  # o?.k || "default" (see dict_get)
                o = self.tmp()
                self.consumed(obj)
                b, tb = self.literal(node.right)
                inner, ti = self.logical_of(node.operator, self.dict_get(E("O", O=o), key), "any", b, tb)
                return E("Y if (O := X) is None or O is UNDEFINED else I",
                         I=inner, O=o, X=obj, Y=ast.Constant(node.right.value)), ti
            if ty == "any":  # o?.k || "default": a missing object short-cuts to the default
                o = self.tmp()
                b, tb = self.literal(node.right)
                inner, ti = self.logical_of(node.operator, self.load(E("O", O=o), self.static_key(left) or ""),
                                            "any", b, tb)
                return E("I if type(O := X) is dict else Y if O is None or O is UNDEFINED else DEOPT()",
                         I=inner, O=o, X=obj, Y=ast.Constant(node.right.value)), ti
            a, ta = self.member(left, (obj, ty))
        elif self.in_comprehension and node.operator in ("??", "||") and self.same_object(left, node.right):
            return self.logical_of(node.operator, *self.sibling_reads(left, node.right))
        else:
            a, ta = self.expr(left)
        b, tb = self.in_branch(node.right)
        return self.logical_of(node.operator, a, ta, b, tb)

    def in_branch(self, node: Any, as_condition: bool = False) -> tuple[ast.expr, str]:
        """``node`` translated as code that may not run (a branch of ``?:``, the right side of
        ``&&``, ``||``, ``??``). The statements its translation hoists (a loop's receiver and
        its bound) run inside the branch when they can be written as expressions, so a branch
        the test guards (``labels ? Object.keys(labels) : []``) never reads what the test
        found absent; other statements (a loop) stay hoisted above the whole expression."""
        with self.branch():
            if self.in_comprehension or self.in_loop:
                return (self.condition(node), "bool") if as_condition else self.expr(node)
            outer, self.pre = self.pre, []
            try:
                e, ty = (self.condition(node), "bool") if as_condition else self.expr(node)
                inner = self.pre
            finally:
                self.pre = outer
        steps = [_as_step(s) for s in inner]
        if not inner or any(x is None for x in steps):
            outer.extend(inner)
            return e, ty
        run = ast.Tuple(elts=[*steps, e], ctx=ast.Load())  # type: ignore[list-item]
        return ast.Subscript(value=run, slice=ast.Constant(-1), ctx=ast.Load()), ty

    def member_chain(self, node: Any) -> tuple[str, ...] | None:
        """``p.backend.service`` as ``("p", "backend", "service")``: a name and plain member
        reads (no optional link, computed key, length or special key), else None."""
        keys: list[str] = []
        while isinstance(node, A.MemberExpression) and not node.optional and not node.computed:
            key = self.static_key(node)
            if key is None or key == "length" or key in _SPECIAL_KEYS or key in _PROTO_NAMES:
                return None
            keys.append(key)
            node = node.object
        if not isinstance(node, A.Identifier):
            return None
        return (node.name, *reversed(keys))

    def same_object(self, left: Any, right: Any) -> bool:
        """``a.b.c.x ?? a.b.c.y`` in a callback: both sides plain reads of one object path."""
        if not (isinstance(left, A.MemberExpression) and isinstance(right, A.MemberExpression)):
            return False
        chain = self.member_chain(left)
        return chain is not None and len(chain) > 2 and chain[:-1] == (self.member_chain(right) or ())[:-1]

    def sibling_reads(self, left: Any, right: Any) -> tuple[ast.expr, str, ast.expr, str]:
        """The two reads of ``same_object``, their object read and guarded once: the left side
        always runs first and holds it (``O``) for the right side, which may run after it in
        the same evaluation; member reads of plain dicts have no effects, so reading the object
        once gives what reading it twice would."""
        obj, ty = self.expr(left.object, raw=True)
        o = self.tmp()
        held = E("(O := D)", O=o, D=self.as_dict(obj, ty))
        a = self.load(held, self.static_key(left) or "", id(left) in self.maybe_absent)
        b = self.load(E("O", O=o), self.static_key(right) or "", id(right) in self.maybe_absent)
        return a, "any", b, "any"

    def logical_of(self, operator: str, a: ast.expr, ta: str, b: ast.expr, tb: str) -> tuple[ast.expr, str]:
        indexed = self.indexed.get(id(a))
        if indexed is not None and indexed[0] is a and indexed[2] == "strs" and operator in ("??", "||") \
                and isinstance(a, ast.IfExp):
            # a string list's literal index (s.split(':')[1] ?? 'latest'): a str, or undefined
            # past the end, which is where the default goes (|| also takes it for "")
            if operator == "??":
                return ast.IfExp(test=a.test, body=a.body, orelse=b), _join("str", tb)
            t = self.tmp()
            return E("T if C and (T := V) else Y", T=t, C=a.test, V=a.body, Y=b), _join("str", tb)
        if operator == "??":  # (a name is tested as it is: no copy)
            made = _ReadAgain().visit(E("T if (T := X) is not None and T is not UNDEFINED else Y", T=self.held(a), X=a,
                                        Y=b))
            if id(a) in self.text_uses:  # (the test does not look at the text: only the value given on does)
                del self.text_uses[id(a)]
                self.text_uses[id(made.body)] = made.body
            return made, _join(ta, tb)
        t = self.tmp()
        if ta == "any":
            # undefined early: its truth value is a Python-level __bool__ call
            if operator == "||":  # a string first: the usual operand, and returned as it is
                return E("(T if T else Y) if type(T := X) is str else Y if T is UNDEFINED else "
                         "(T if T else Y) if type(T) in PLAIN_TRUTH else (T if JS_TRUTHY(T) else Y)",
                         T=t, X=a, Y=b), _join(ta, tb)
            return E("(T if T is UNDEFINED else Y if T else T) if type(T := X) in PLAIN_TRUTH else "
                     "(Y if JS_TRUTHY(T) else T)", T=t, X=a, Y=b), _join(ta, tb)
        test = self.truthy(E("(T := X)", T=t, X=a), ta)
        if operator == "||":
            return E("T if C else Y", T=t, C=test, Y=b), _join(ta, tb)
        return E("Y if C else T", T=t, C=test, Y=b), _join(ta, tb)

    def unary(self, node: A.UnaryExpression) -> tuple[ast.expr, str]:
        if node.operator == "typeof" and not (isinstance(node.argument, A.Identifier)
                                              and self.lookup(node.argument.name) is None
                                              and node.argument.name not in _INPUTS):
            return E("TYPEOF(X)", X=self.expr(node.argument, raw=True)[0]), "ascii"
        if node.operator == "!":
            return E("not X", X=self.condition(node.argument)), "bool"
        if node.operator == "delete":
            return self.delete(node.argument)
        if node.operator == "-" and isinstance(node.argument, A.Literal) and type(node.argument.value) is int \
                and 0 < node.argument.value <= _SAFE:
            return ast.Constant(-node.argument.value), "int"
        if node.operator == "-":
            e, ty = self.expr(node.argument)
            if ty == "int" and isinstance(e, ast.Constant) and type(e.value) is int and e.value > 0:
                return ast.Constant(-e.value), "int"  # (-"prefix".length)
            return E("-T if (T := X) else DEOPT()", T=self.tmp(), X=self.as_int(e, ty)), "int"  # (-0: general)
        raise Unsupported

    # -- literals of containers ----------------------------------------------------------------
    def object(self, node: A.ObjectExpression) -> tuple[ast.expr, str]:
        keys: list[ast.expr | None] = []
        values: list[ast.expr] = []
        for p in node.properties:
            if isinstance(p, A.SpreadElement) and isinstance(p.argument, A.LogicalExpression) \
                    and p.argument.operator == "&&" and isinstance(p.argument.right, A.ObjectExpression):
                # ...(x && { k: v }): a falsy x (false, 0, '', null, undefined) copies nothing,
                # as any primitive does; a truthy one, the literal (an object, always truthy)
                test = self.truthy(*self.expr(p.argument.left))
                made, _ = self.in_branch(p.argument.right)
                keys.append(None)
                values.append(E("M if T else {}", M=made, T=test))
                continue
            if isinstance(p, A.SpreadElement):
                e, ty = self.expr(p.argument, raw=True)
                keys.append(None)
                # a member read may be an absent optional field ({...labels}); a name (a callback's
                # element, {...p, k: x}) is an object, whose fact spares its later reads a test
                values.append(self.as_dict(e, ty) if isinstance(p.argument, A.Identifier) else self.as_spread(e, ty))
                continue
            if p.method:
                raise Unsupported
            keys.append(self.property_key(p))
            values.append(self.expr(p.value)[0])
        return ast.Dict(keys=keys, values=values), "dict"

    def property_key(self, p: A.Property) -> ast.expr:
        if p.computed:
            k, kty = self.expr(p.key)
            return self.as_text(k, kty)
        if isinstance(p.key, A.Identifier):
            name = p.key.name
        elif isinstance(p.key, A.Literal) and type(p.key.value) is str:
            name = p.key.value
        else:
            raise Unsupported
        if name in _SPECIAL_KEYS or not _plain_text(name):
            raise Unsupported
        return ast.Constant(name)

    def array(self, node: A.ArrayExpression) -> tuple[ast.expr, str]:
        """An array literal (typed ``list``: the script may push anything into it);
        ``[...new Set(xs)]`` alone is the new list the set's translation makes."""
        elts: list[ast.expr] = []
        for el in node.elements:
            if el is None:
                raise Unsupported
            if isinstance(el, A.SpreadElement) and isinstance(el.argument, A.NewExpression):
                e, _ty = self.spread_new(el.argument)
                if len(node.elements) == 1:
                    return e, "list"
                elts.append(ast.Starred(value=e, ctx=ast.Load()))
            elif isinstance(el, A.SpreadElement):
                e, ty = self.expr(el.argument, raw=True)
                elts.append(ast.Starred(value=self.as_list(e, ty), ctx=ast.Load()))
            else:
                elts.append(self.expr(el)[0])
        made = ast.List(elts=elts, ctx=ast.Load())
        if len(elts) > 1 and any(isinstance(e, ast.Starred) for e in elts):
            # each spread fits the default array budget, the whole may not: the general tier's RangeError
            return E("T if len(T := X) <= L else DEOPT()", T=self.tmp(), X=made, L=ast.Constant(SIZE_BOUND)), "list"
        return made, "list"


def _literal_choice(e: ast.expr) -> bool:
    """``{...} if test else {...}`` of two dict displays with static keys: what a spread of
    ``x && { k: v }`` or ``c ? { a } : {}`` copies (see ``NativeGen.object``)."""
    return isinstance(e, ast.IfExp) and all(
        isinstance(x, ast.Dict) and all(isinstance(k, ast.Constant) for k in x.keys) for x in (e.body, e.orelse))


def _loose_literal(e: ast.expr) -> bool:
    """An ASCII string or safe integer constant: what ``==`` may compare natively."""
    return isinstance(e, ast.Constant) and (type(e.value) is str and e.value.isascii()
                                            or type(e.value) is int and abs(e.value) < _SAFE)


_INPUTS = frozenset(["value", "context", "valueExists", "undefined"])
#: the Python name of a scope entry that stands for a script input (``_ALIAS + "value"``)
_ALIAS = "#"
_LOGICAL_ASSIGNMENTS = ("??=", "||=", "&&=")


def _maybe_absent(program: A.Program) -> set[int]:
    """The member reads whose absence the script allows for, by id: the object of ``?.`` and
    an optional member itself, the operands of ``??``, ``||``, ``&&``, ``!``, ``typeof``
    and of equality, a conditional's or an ``if``'s test, a switch's discriminant, a spread, a
    source of ``Object.assign``, the value of an object literal's member or an array literal's
    element. Absent keys are common there (``value.x?.y ?? d``, ``c.name === "app"``,
    ``{...labels}``, ``({ name: p.name })``, ``[e.name, e.value]``)."""
    marked: set[int] = set()
    compared: list[A.MemberExpression] = []  # (marked as compared to a value: see below)

    def mark(node: Any, compare: bool = False) -> None:
        while isinstance(node, A.ChainExpression):
            node = node.expression
        if isinstance(node, A.MemberExpression):
            marked.add(id(node))
            if compare:
                compared.append(node)

    for node in walk(program):
        if isinstance(node, A.MemberExpression) and node.optional:
            mark(node.object)
            marked.add(id(node))
        elif isinstance(node, A.LogicalExpression):
            mark(node.left)
            mark(node.right)
        elif isinstance(node, A.UnaryExpression) and node.operator in ("!", "typeof"):
            mark(node.argument, node.operator == "typeof")
        elif isinstance(node, A.BinaryExpression) and node.operator in ("===", "!==", "==", "!="):
            mark(node.left, True)
            mark(node.right, True)
        elif isinstance(node, (A.ConditionalExpression, A.IfStatement)):
            mark(node.test)
        elif isinstance(node, A.SwitchStatement):
            mark(node.discriminant, True)
        elif isinstance(node, A.SpreadElement):
            mark(node.argument)
        elif isinstance(node, A.ObjectExpression):
            for prop in node.properties:  # ({ name: p.name, port: p.port }): optional fields copied
                if isinstance(prop, A.Property):
                    mark(prop.value)
        elif isinstance(node, A.ArrayExpression):
            for element in node.elements:  # ([e.name, e.value]: an env var's value may be absent)
                mark(element)
        elif isinstance(node, A.CallExpression) and _is_assign_call(node):
            for source in node.arguments[1:]:
                mark(source)  # (Object.assign({}, value.metadata.labels): a source copied like a spread)
        elif isinstance(node, A.CallExpression) and _tests_elements(node):
            callback = node.arguments[0]
            assert isinstance(callback, A.ArrowFunctionExpression)
            mark(callback.body)  # (xs.filter(x => x.optionalField))
    # a path the script compares to a value may be absent where it is read again: the branch
    # that gives the member on (value.spec.type === 'X' ? 'Y' : value.spec.type, a switch's
    # default) reads what the test may have found absent. (A truth test is not followed: its
    # true branch reads a present member. A name bound twice only costs a .get more.)
    paths = {_member_path(n) for n in compared}
    paths.discard(None)
    if paths:
        for node in walk(program):
            if isinstance(node, A.MemberExpression) and id(node) not in marked and _member_path(node) in paths:
                marked.add(id(node))
    return marked


def _as_step(s: ast.stmt) -> ast.expr | None:
    """A hoisted statement as an expression: ``N = X`` as ``(N := X)``, ``if C: DEOPT()`` as
    ``DEOPT() if C else None``; None for any other statement."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
        return ast.NamedExpr(target=ast.Name(id=s.targets[0].id, ctx=ast.Store()), value=s.value)
    if isinstance(s, ast.If) and not s.orelse and len(s.body) == 1 and isinstance(s.body[0], ast.Expr) \
            and isinstance(s.body[0].value, ast.Call) and isinstance(s.body[0].value.func, ast.Name) \
            and s.body[0].value.func.id == "DEOPT":
        return E("DEOPT() if C else None", C=s.test)
    return None


def _is_assign_call(node: A.CallExpression) -> bool:
    """``Object.assign(...)`` (by its spelling: the translation checks that ``Object`` is the global)."""
    callee = node.callee
    return isinstance(callee, A.MemberExpression) and not callee.computed and isinstance(callee.object, A.Identifier) \
        and callee.object.name == "Object" and isinstance(callee.property, A.PropertyName) \
        and callee.property.name == "assign"


def _member_objects(program: A.Program) -> dict[str, int]:
    """How many static member reads (``x.k``, ``x["k"]``, ``x?.k``) each name is the object
    of, by name (names bound twice are counted together: that only keeps a type test)."""
    counts: dict[str, int] = {}
    for node in walk(program):
        if isinstance(node, A.MemberExpression):
            obj = node.object
            while isinstance(obj, A.ChainExpression):
                obj = obj.expression
            if isinstance(obj, A.Identifier):
                counts[obj.name] = counts.get(obj.name, 0) + 1
    return counts


def _other_uses(program: A.Program) -> dict[str, int]:
    """How often each name is written other than as a member read's object."""
    counts: dict[str, int] = {}
    objects = set()
    for node in walk(program):
        if isinstance(node, A.MemberExpression):
            obj = node.object
            while isinstance(obj, A.ChainExpression):
                obj = obj.expression
            objects.add(id(obj))
    for node in walk(program):
        if isinstance(node, A.Identifier) and id(node) not in objects:
            counts[node.name] = counts.get(node.name, 0) + 1
    return counts


def _member_path(node: Any) -> tuple[str, ...] | None:
    """``a.b?.c`` as ``("a", "b", "c")``: a name and static keys (optional links or not)."""
    keys: list[str] = []
    while True:
        while isinstance(node, A.ChainExpression):
            node = node.expression
        if not isinstance(node, A.MemberExpression):
            break
        prop = node.property
        if isinstance(prop, A.PropertyName):
            keys.append(prop.name)
        elif isinstance(prop, A.Literal) and type(prop.value) is str:
            keys.append(prop.value)
        else:
            return None
        node = node.object
    return (node.name, *reversed(keys)) if isinstance(node, A.Identifier) and keys else None


def _string_indexes(program: A.Program) -> set[int]:
    """The literal-index reads (by id) whose result a string-only method is called on
    (``name[0].toUpperCase()``): their object is most likely a string, which may be indexed."""
    marked: set[int] = set()
    for node in walk(program):
        if isinstance(node, A.CallExpression) and isinstance(node.callee, A.MemberExpression) \
                and isinstance(node.callee.property, A.PropertyName) and node.callee.property.name in _STRING_ONLY_METHODS:
            inner = node.callee.object
            if isinstance(inner, A.MemberExpression) and inner.computed and isinstance(inner.property, A.Literal) \
                    and type(inner.property.value) is int:
                marked.add(id(inner))
    return marked


_STRING_ONLY_METHODS = frozenset(["toUpperCase", "toLowerCase", "trim", "trimStart", "trimEnd", "padStart", "padEnd",
                                  "startsWith", "endsWith", "charAt", "repeat", "replace", "split", "substring"])


#: array methods whose callback's result is a test (its truth value)
_TEST_CALLBACKS = frozenset(["filter", "find", "findIndex", "some", "every", "findLast", "findLastIndex"])


def _tests_elements(node: A.CallExpression) -> bool:
    """``xs.filter(x => x.k)`` and the like: a callback whose expression body is a test."""
    callee = node.callee
    return (isinstance(callee, A.MemberExpression) and isinstance(callee.property, A.PropertyName)
            and callee.property.name in _TEST_CALLBACKS and len(node.arguments) == 1
            and isinstance(node.arguments[0], A.ArrowFunctionExpression) and node.arguments[0].expression)


def _shared_paths(program: A.Program, gen: NativeGen) -> set[tuple[str, ...]]:
    """The input paths read as objects (the object of a member read) more than once, not
    counting the reads that a shared path below them spares (``value`` in ``value.a.b +
    value.a.c`` is read once: the second ``value.a`` is the temporary)."""
    counts: dict[tuple[str, ...], int] = {}
    for node in walk(program):
        if isinstance(node, A.MemberExpression):
            path = gen.object_path(node.object)
            if path is not None:
                counts[path] = counts.get(path, 0) + 1
    shared: set[tuple[str, ...]] = set()
    for path in sorted(counts, key=len, reverse=True):
        spared = sum(counts[c] - 1 for c in shared if len(c) == len(path) + 1 and c[:-1] == path)
        if counts[path] - spared >= 2:
            shared.add(path)
    return shared


def _flat_spread(e: ast.expr) -> bool:
    """``{...d, k: x}`` with no list or object made among its values: the inline test of the
    finished object (``result``) costs less than a call to look at ``d`` alone."""
    return isinstance(e, ast.Dict) and bool(e.keys) and e.keys[0] is None and not any(
        isinstance(v, (ast.ListComp, ast.List, ast.Dict, ast.DictComp)) for v in e.values[1:])


def _fresh(node: Any) -> bool:
    """Is ``node``'s value a primitive or an object or array the expression makes, holding
    only such values (no object that exists before it runs)?"""
    match node:
        case A.Literal() | A.TemplateLiteral() | A.BinaryExpression() | A.UnaryExpression():
            return True
        case A.Identifier():
            return node.name == "undefined"
        case A.ObjectExpression():
            return all(isinstance(p, A.Property) and p.kind == "init" and not p.method and not p.computed
                       and _fresh(p.value)
                       for p in node.properties)
        case A.ArrayExpression():
            return all(e is not None and not isinstance(e, A.SpreadElement) and _fresh(e) for e in node.elements)
        case A.ConditionalExpression():
            return _fresh(node.consequent) and _fresh(node.alternate)
    return False


def _copy_paths(parent: str, paths: set[tuple[str, ...]], gen: "NativeGen", tested: bool = False) -> list[ast.stmt]:
    """Statements that replace each dict on ``paths`` below ``parent`` (``tested``: known to
    be a dict) by a copy of it, parents first (an absent member or another type has nothing
    to copy: a write through it fails its guard)."""
    out: list[ast.stmt] = []
    test = "type(C := P.get(K)) is dict" if tested else "type(P) is dict and type(C := P.get(K)) is dict"
    for key in sorted({p[0] for p in paths if p}):
        below = {p[1:] for p in paths if p and p[0] == key}
        child = gen.tmp()
        out.extend(S(f"if {test}:\n    P[K] = C = SHALLOW(C)", P=parent, C=child, K=ast.Constant(key)))
        inner = _copy_paths(child, below, gen, tested=True)
        if inner:
            last = out[-1]
            assert isinstance(last, ast.If)
            last.body.extend(inner)
    return out


class _StripAffix(ast.NodeTransformer):
    """``X[N:] if X.startswith(P) else X`` (``len(P) == N``) is ``X.removeprefix(P)``, and
    ``X[:-N] if X.endswith(P) else X`` is ``X.removesuffix(P)``: one call, not three steps
    (once the guards the prologue ensures are off, see ``_GuardsOff``)."""

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        return _strip_affix(self.generic_visit(node))  # type: ignore[arg-type]


def _strip_affix(e: ast.IfExp) -> ast.expr:
    test, body, orelse = e.test, e.body, e.orelse
    receiver = test.func.value if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) else None
    # (X, or (X := Y) where the receiver is computed there: X stays bound as before)
    named = receiver.target if isinstance(receiver, ast.NamedExpr) else receiver
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and len(test.args) == 1
            and not test.keywords and isinstance(named, ast.Name) and isinstance(orelse, ast.Name)
            and orelse.id == named.id and isinstance(test.args[0], ast.Constant)
            and type(test.args[0].value) is str and test.args[0].value
            and isinstance(body, ast.Subscript) and isinstance(body.value, ast.Name) and body.value.id == orelse.id
            and isinstance(body.slice, ast.Slice) and body.slice.step is None):
        return e
    affix, bounds = test.args[0].value, body.slice
    n = len(affix)
    if test.func.attr == "startswith" and bounds.upper is None and isinstance(bounds.lower, ast.Constant) \
            and bounds.lower.value == n:
        method = "removeprefix"
    elif test.func.attr == "endswith" and (bounds.lower is None or isinstance(bounds.lower, ast.Constant)
                                           and bounds.lower.value == 0) and _int_constant(bounds.upper) == -n:
        method = "removesuffix"
    else:
        return e
    assert receiver is not None
    return E(f"X.{method}(P)", X=receiver, P=test.args[0])


def _int_constant(e: ast.expr | None) -> int | None:
    """The int ``e`` writes, as a literal or a negated one (``-N`` in a template)."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        inner = _int_constant(e.operand)
        return None if inner is None else -inner
    return e.value if isinstance(e, ast.Constant) and type(e.value) is int else None


def is_function_call(node: Any) -> TypeGuard[A.CallExpression]:
    """``(x => ...)(arg)`` or ``(function (x) {...})(arg)``: a function literal called at once."""
    return isinstance(node, A.CallExpression) and not node.optional \
        and isinstance(node.callee, (A.ArrowFunctionExpression, A.FunctionExpression))
#: helpers whose results are already what the caller gets (a string, undefined, or a number
#: in to_python's form)
_AS_CALLER_GETS = frozenset(["DEOPT", "DIVIDE", "NUMBER_OF", "JSON_TEXT", "STRING_OF", "RADIX_STRING", "TO_FIXED",
                             "ADD_TEXT",
                             # (new lists of ASCII strings, safe integers and null, or of strings)
                             "UNIQUE", "SORT_DEFAULT", "SORT_STRINGS", "SORTED_UNIQUE"])
#: ToInt32 of the integer V, inline (runtime/native.py's ``int32``, with no call per operator:
#: the same exact arithmetic on Python's unbounded ints)
_INT32 = "(((V) & 0xFFFFFFFF ^ 0x80000000) - 0x80000000)"
#: the number helpers (runtime/native.py) of arithmetic where an operand may be a fraction
_NUMBER_HELPERS = {"+": "ADD_NUMBERS", "-": "SUBTRACT_NUMBERS", "*": "MULTIPLY_NUMBERS", "/": "DIVIDE_NUMBERS"}
_ORDERS = frozenset(["<", ">", "<=", ">="])
_AS_CALLER_GETS = _AS_CALLER_GETS | frozenset(_NUMBER_HELPERS.values())
#: the bitwise operators on two integers X and Y
_BITWISE = {
    "|": _INT32.replace("V", "X | Y"), "&": _INT32.replace("V", "X & Y"), "^": _INT32.replace("V", "X ^ Y"),
    "<<": _INT32.replace("V", "X << (Y & 31)"), ">>": _INT32.replace("V", "X") + " >> (Y & 31)",
    ">>>": "(X & 0xFFFFFFFF) >> (Y & 31)",
}


#: the name a short-circuited chain's rest reads its first ``?.`` object by (no JS name: see ``chain``)
_CHAIN_OBJECT = "#chain"


def _chain_links(node: Any) -> list[Any]:
    """The member reads and calls of a chain, outermost first, down to its base."""
    links = []
    while isinstance(node, (A.MemberExpression, A.CallExpression)):
        links.append(node)
        node = node.object if isinstance(node, A.MemberExpression) else node.callee
    return links


def _short_circuit(node: Any) -> tuple[Any, Any, list[tuple[Any, Any]]] | None:
    """For a chain (the member reads and calls down from ``node``, its outermost link: the
    parser marks a chain's end only where parentheses end it, by a ChainExpression) whose
    first ``?.`` member link in evaluation order is followed by a plain link: that link's
    object, and the chain with the link plain, reading its object by ``_CHAIN_OBJECT``. None
    for a chain that needs no short-circuit (every later link optional, or only the call of
    ``x?.m(...)``), or an optional call ``f?.()`` first (``this`` would change). Third: each
    link of the chain with the link that stands for it in the rest."""
    links = _chain_links(node)
    first = next((i for i in range(len(links) - 1, -1, -1) if links[i].optional), None)
    if first is None or not isinstance(links[first], A.MemberExpression):
        return None
    later = links[:first]
    if later and isinstance(later[-1], A.CallExpression) and later[-1].callee is links[first]:
        later = later[:-1]  # (x?.m(...): the call goes with its optional member)
    if all(link.optional for link in later):
        return None
    target = links[first]
    placeholder = A.Identifier(name=_CHAIN_OBJECT, span=target.span)
    rebuilt: Any = attrs.evolve(target, object=placeholder, optional=False)
    pairs = [(target, rebuilt)]
    for link in links[first - 1::-1] if first else ():
        if isinstance(link, A.MemberExpression):
            rebuilt = attrs.evolve(link, object=rebuilt)
        else:
            rebuilt = attrs.evolve(link, callee=rebuilt)
        pairs.append((link, rebuilt))
    return target.object, rebuilt, pairs


class _Branch:
    """``with gen.branch():`` code that may not run (a conditional operand): its guards
    establish no facts."""

    def __init__(self, gen: NativeGen) -> None:
        self.gen = gen

    def __enter__(self) -> None:
        self.gen.conditional += 1

    def __exit__(self, *_: object) -> None:
        self.gen.conditional -= 1
