"""Plan application written out as Python source, compiled once per plan direction.

Why: applying a plan is on the sync hot path, and the closure walkers of ``plan_walkers`` pay
a Python call per path segment and per match, ``isinstance`` checks and an ``owned`` lookup
for every container. The generated function walks each path with nested loops and direct
dict access in one frame, walks a prefix shared by consecutive disjoint steps once
(``plan_groups``), and checks or registers ownership only where another step can meet the
same container.

The generated code covers plain ``dict``/``list`` trees; whatever else it meets (dict or list
subclasses, a digit key used as a list index) it hands to the closure walker for the rest of
the path, which stays the reference semantics. Both share ``plan_walkers``' helpers
(``_plain``, ``_key_text``, the ``owned`` copy-on-write map).

User path keys enter the source only as ``repr()`` literals of ``str`` (and indexes as
``int`` literals), never as identifiers; callables and walkers are bound by generated names.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, NamedTuple, Sequence

from .compiled import CompiledExpression
from .paths import Index, Key, Segment, Wildcard
from .plan_groups import Ownership, edge, group_steps
from .plan_inline import inline_lines
from .values import UNDEFINED as _UNDEFINED
from .plan_walkers import _DELETE, _INDEX_STEP, _INDEX_TEXT, _key_text, _plain, build_walker, run_walker

__all__ = ["compile_plan", "StaticStep", "InlineEntry"]

StaticStep = tuple[Any, "tuple[Segment, ...]", Callable[..., Any], bool, "CompiledExpression | None"]
"""(entry, segments, walker call ``fn(value, ctx, value_exists)``, whether ``fn`` reads context,
the compiled expression it calls when it is one)."""


class InlineEntry(NamedTuple):
    """What the inlined fast path needs from its caller (see ``compile_plan``)."""

    context: Callable[[Any, Any], dict[str, Any]]  # (context, root) -> a fresh complete context
    miss: object  # returned on any failure

_Part = tuple[bool, str]
"""A piece of a concrete path: ``(True, text)`` a constant, ``(False, expr)`` computed at run time."""


def _drop_deleted(items: list[Any]) -> None:
    """Remove the elements a list wildcard marked for deletion (in place: ``items`` is owned)."""
    items[:] = [item for item in items if item is not _DELETE]


def _put(node: Any, key: Any, value: Any, first: bool, owned: dict[int, Any], check: bool,
         register: bool) -> Any:
    """Store ``value`` (``_DELETE``: delete the key or element), copying ``node`` first when
    this group has not copied it yet (``first``) and no earlier group created it. Out of line:
    only for the rare results, so the generated source stays small."""
    if first and not (check and id(node) in owned):
        node = node.copy()
        if register:
            owned[id(node)] = node
    if value is _DELETE:
        del node[key]
    else:
        node[key] = value
    return node


def _put_rare(node: Any, key: Any, old: Any, new: Any, *own: Any) -> Any:
    """A map value's result other than a string or an int (``_set_key``'s rules)."""
    if new is None or new is _UNDEFINED:
        return _put(node, key, _DELETE, *own)
    if new is old:
        return node
    return _put(node, key, _plain(new), *own)


def _put_index_rare(node: Any, index: int, old: Any, new: Any, *own: Any) -> Any:
    """A list element's result other than a string or an int (``_call``'s rules)."""
    if new is None or new is _UNDEFINED:
        return _put(node, index, _DELETE, *own)
    if type(new) is not str and type(new) is not int:
        new = _plain(new)
    return node if new is old else _put(node, index, new, *own)


_BASE_NAMES: dict[str, Any] = {
    "_put": _put,
    "_put_rare": _put_rare,
    "_put_index_rare": _put_index_rare,
    "_M": _DELETE,  # "missing" for dict.get, as in the closure walkers
    "_D": _DELETE,
    "_U": _UNDEFINED,
    "_IS": _INDEX_STEP,
    "_IT": _INDEX_TEXT,
    "_C": (dict, list),
    "_kt": _key_text,
    "_plain": _plain,
    "_drop": _drop_deleted,
    "_whole": run_walker,
}


def _path_expr(parts: list[_Part]) -> str:
    """A Python expression for the concrete path: constants merged, pieces concatenated."""
    out: list[str] = []
    pending = ""
    for constant, text in parts:
        if constant:
            pending += text
            continue
        if pending:
            out.append(repr(pending))
            pending = ""
        out.append(text)
    if pending or not out:
        out.append(repr(pending))
    return " + ".join(out)


def _terminal_path(parts: list[_Part], seg: Key) -> str:
    """``context.path`` at a last key, as vCluster passes it (``plan_walkers._terminal_text``):
    the key unquoted, or for ``["key"]`` the path of the map holding it."""
    if not seg.bracket:
        return _path_expr(parts + [(True, seg.name)])
    if parts and parts[-1][0]:
        return _path_expr(parts[:-1] + [(True, parts[-1][1][:-1])])
    return f"({_path_expr(parts)})[:-1]" if parts else "''"


def _literal_key(name: Any) -> str:
    if type(name) is not str:
        raise TypeError(f"path keys must be str, got {type(name).__name__}")
    return repr(name)


def _literal_index(index: Any) -> str:
    if type(index) is not int or index < 0:
        raise TypeError(f"path indexes must be non-negative ints, got {index!r}")
    return repr(index)


class _Branch:
    """One step as seen from the generated code: its path and its function's bound name."""

    __slots__ = ("segs", "fn", "paths", "callee")

    def __init__(self, segs: tuple[Segment, ...], fn: str, paths: bool, callee: CompiledExpression | None) -> None:
        self.segs = segs
        self.fn = fn
        self.paths = paths  # whether the function reads context.path
        self.callee = callee  # the compiled expression called (its native body may be written in place)

    def inline(self, src: "_Source", value: str, out: str, exists: bool = True) -> list[str] | None:
        """The callee's native body assigning ``out`` (``plan_inline``), or None to call it."""
        if not src.inline or self.callee is None or self.callee.native is None:
            return None
        return inline_lines(self.callee.native, value, out, src.fresh("_q") + "_", src.names, src.bind, exists)

    def sure_scalar(self) -> bool:
        """Whether an inlined body surely returns a string or an int."""
        return self.callee is not None and self.callee.facts.native_result in ("ascii", "str", "int")


class _Node:
    """Where the emitter stands: the variable holding a container, the variable holding the
    same container as it was before this group (``var is orig``: not copied yet), its path
    from the root, and the concrete path pieces leading to it. ``single``: at most one write
    can reach the container per visit (one key or index below it), so no ``var is orig`` test."""

    __slots__ = ("var", "orig", "prefix", "parts", "single")

    def __init__(self, var: str, orig: str, prefix: tuple[Segment, ...], parts: list[_Part]) -> None:
        self.var = var
        self.orig = orig
        self.prefix = prefix
        self.parts = parts
        self.single = False


class _Source:
    """Accumulates generated lines and the objects they refer to by name."""

    def __init__(self, ownership: Ownership, inline: bool = False) -> None:
        self.lines: list[str] = []
        self.names: dict[str, Any] = dict(_BASE_NAMES)
        self.count = 0
        self.ownership = ownership
        self.group = 0
        self.inline = inline  # write native bodies in place (see plan_inline)
        # the context a walker gets: its own copy in an inlined run (it writes "path" there),
        # so the run can read the caller's context as it is when nothing else uses it
        self.walker_ctx = "ctx.copy()" if inline else "ctx"

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def bind(self, value: Any, stem: str) -> str:
        name = self.fresh("_" + stem)
        self.names[name] = value
        return name

    def own(self, node: _Node, ind: int) -> None:
        """Make ``node.var`` writable before a write: copy it at its first write in this
        group unless an earlier group created it, and register the copy for later groups."""
        var = node.var
        if not node.single:
            self.line(ind, f"if {var} is {node.orig}:")
            ind += 1
        if self.ownership.may_be_owned(self.group, node.prefix):
            self.line(ind, f"if id({var}) not in owned:")
            ind += 1
        self.line(ind, f"{var} = {var}.copy()")
        if self.ownership.must_register(self.group, node.prefix):
            self.line(ind, f"owned[id({var})] = {var}")

    def own_args(self, node: _Node) -> str:
        """``first, owned, check, register`` for ``_put``: what ``own`` decides inline."""
        first = "True" if node.single else f"{node.var} is {node.orig}"
        check = self.ownership.may_be_owned(self.group, node.prefix)
        register = self.ownership.must_register(self.group, node.prefix)
        return f"{first}, owned, {check}, {register}"

    def call_missing(self, branch: _Branch, out: str, path: str, ind: int) -> bool:
        """``out = fn(None, ctx, False)`` for a missing ``["key"]``, with ``context.path`` set
        first (the error names it); True as for ``call``."""
        # None through a name, not the literal: a body that subscripts or calls ``value``
        # under a type test would otherwise compile with a SyntaxWarning ("None[1:]")
        body = branch.inline(self, self.bind(None, "absent"), out, exists=False)
        if body is not None:  # as in call: a failure leaves the function
            if branch.paths:
                self.line(ind, f"ctx['path'] = {path}")
            for text in body:
                self.line(ind, text)
            return branch.sure_scalar()
        self.line(ind, f"ctx['path'] = {path}")
        self.line(ind, f"{out} = {branch.fn}(None, ctx, False)")
        return False

    def call(self, branch: _Branch, out: str, value: str, path: str, ind: int) -> bool:
        """``out = fn(value, ctx, True)`` with ``context.path`` set before the call when the
        function reads it, else only when it fails (the error names the concrete path).
        True when ``out`` is surely a string or an int: a native body written in place that
        returns only those (a call may fall back, and the general tier returns what JS does)."""
        if branch.paths:
            self.line(ind, f"ctx['path'] = {path}")
        body = branch.inline(self, value, out)
        if body is not None:  # a failure leaves the function: the caller re-runs with calls
            for text in body:
                self.line(ind, text)
            return branch.sure_scalar()
        if branch.paths:
            self.line(ind, f"{out} = {branch.fn}({value}, ctx, True)")
            return False
        self.line(ind, "try:")
        self.line(ind + 1, f"{out} = {branch.fn}({value}, ctx, True)")
        self.line(ind, "except BaseException:")
        self.line(ind + 1, f"ctx['path'] = {path}")
        self.line(ind + 1, "raise")
        return False


def _by_edge(branches: list[_Branch], d: int) -> list[list[_Branch]]:
    """Branches grouped by their segment at depth ``d``, in order of first appearance."""
    groups: dict[tuple[object, ...], list[_Branch]] = {}
    for branch in branches:
        groups.setdefault(edge(branch.segs[d]), []).append(branch)
    return list(groups.values())


def _dispatch(src: _Source, node: _Node, branches: list[_Branch], ind: int) -> None:
    """Apply every branch's remaining segments to the value in ``node.var``, rebinding it to
    the result (itself when nothing changed). Exact ``dict``/``list`` take generated code,
    other containers each branch's closure walker in turn, scalars match nothing."""
    d = len(node.prefix)
    groups = _by_edge(branches, d)
    seg = groups[0][0].segs[d]
    node.single = len(groups) == 1 and not isinstance(seg, Wildcard)
    if isinstance(seg, Key):  # several groups are always distinct keys (plan_groups.disjoint)
        src.line(ind, f"if type({node.var}) is dict:")
        for group in groups:
            _key_on_dict(src, node, group, ind + 1)
    elif isinstance(seg, Index):
        src.line(ind, f"if type({node.var}) is list:")
        _index_on_list(src, node, groups[0], ind + 1)
    else:
        src.line(ind, f"if type({node.var}) is list:")
        _wildcard_on_list(src, node, groups[0], ind + 1)
        if len(groups[0]) == 1 and d + 1 == len(groups[0][0].segs):  # labels[*]; maps of objects
            src.line(ind, f"elif type({node.var}) is dict:")  # are rare: they take the closures
            _wildcard_on_dict(src, node, groups[0], ind + 1)
    src.line(ind, f"elif isinstance({node.var}, _C):")
    for branch in branches:
        rest = src.bind(build_walker(branch.segs[d:], branch.paths), "w")
        src.line(ind + 1, f"{node.var} = {rest}({node.var}, {_path_expr(node.parts)}, {branch.fn}, {src.walker_ctx}, owned)")


def _descend(src: _Source, node: _Node, key: str, child: str, seg: Segment, branches: list[_Branch],
             step: _Part, ind: int) -> None:
    """Walk ``child`` (already read from ``node.var[key]``) and store a changed result."""
    result = src.fresh("r")
    src.line(ind, f"{result} = {child}")
    inner = _Node(result, child, node.prefix + (seg,), node.parts + [step])
    _dispatch(src, inner, branches, ind)
    src.line(ind, f"if {result} is not {child}:")
    src.own(node, ind + 1)
    src.line(ind + 1, f"{node.var}[{key}] = {result}")


def _set_result(src: _Source, node: _Node, key: str, old: str, new: str, ind: int, rare: str = "_put_rare",
                known: bool = False) -> None:
    """A patched value stored in a map (or, with ``rare="_put_index_rare"``, a list) unless
    unchanged; strings and ints (the usual results) inline, the rest (deletion, containers)
    through the ``rare`` helper. ``known``: the value is surely a string or an int."""
    var, kind = node.var, src.fresh("t")
    if known:
        src.line(ind, f"if {new} is not {old}:")
        src.own(node, ind + 1)
        src.line(ind + 1, f"{var}[{key}] = {new}")
        return
    src.line(ind, f"{kind} = type({new})")
    src.line(ind, f"if {kind} is str or {kind} is int:")
    src.line(ind + 1, f"if {new} is not {old}:")
    src.own(node, ind + 2)
    src.line(ind + 2, f"{var}[{key}] = {new}")
    src.line(ind, "else:")
    src.line(ind + 1, f"{var} = {rare}({var}, {key}, {old}, {new}, {src.own_args(node)})")


def _key_on_dict(src: _Source, node: _Node, branches: list[_Branch], ind: int) -> None:
    d = len(node.prefix)
    seg = branches[0].segs[d]
    assert isinstance(seg, Key)
    name = _literal_key(seg.name)
    if len(branches) > 1 or d + 1 < len(branches[0].segs):
        child = src.fresh("c")
        src.line(ind, f"{child} = {node.var}.get({name})")
        _descend(src, node, name, child, seg, branches, (True, _key_text(seg.name) + "."), ind)
        return
    branch = branches[0]
    old, new, path = src.fresh("v"), src.fresh("x"), _terminal_path(node.parts, seg)
    src.line(ind, f"{old} = {node.var}.get({name}, _M)")
    src.line(ind, f"if {old} is not _M:")
    known = src.call(branch, new, old, path, ind + 1)
    _set_result(src, node, name, old, new, ind + 1, known=known)
    if seg.bracket:  # a missing terminal ["key"]: run with value_exists=False, create on a value
        src.line(ind, "else:")
        if src.call_missing(branch, new, path, ind + 1):  # a string or an int: stored as it is
            src.own(node, ind + 1)
            src.line(ind + 1, f"{node.var}[{name}] = {new}")
            return
        src.line(ind + 1, f"if {new} is not None and {new} is not _U:")
        value = f"{new} if type({new}) is str or type({new}) is int else _plain({new})"
        src.line(ind + 2, f"{node.var} = _put({node.var}, {name}, {value}, {src.own_args(node)})")


def _index_on_list(src: _Source, node: _Node, branches: list[_Branch], ind: int) -> None:
    d = len(node.prefix)
    seg = branches[0].segs[d]
    assert isinstance(seg, Index)
    index, var = _literal_index(seg.index), node.var
    src.line(ind, f"if {index} < len({var}):")
    ind += 1
    if len(branches) > 1 or d + 1 < len(branches[0].segs):
        child = src.fresh("c")
        src.line(ind, f"{child} = {var}[{index}]")
        _descend(src, node, index, child, seg, branches, (True, f"{seg.index}."), ind)
        return
    old, new = src.fresh("v"), src.fresh("x")
    src.line(ind, f"{old} = {var}[{index}]")
    known = src.call(branches[0], new, old, _path_expr(node.parts + [(True, str(seg.index))]), ind)
    _set_result(src, node, index, old, new, ind, rare="_put_index_rare", known=known)


def _wildcard_on_list(src: _Source, node: _Node, branches: list[_Branch], ind: int) -> None:
    d = len(node.prefix)
    seg = branches[0].segs[d]
    i, item, var = src.fresh("i"), src.fresh("c"), node.var
    if len(branches) > 1 or d + 1 < len(branches[0].segs):
        src.line(ind, f"for {i}, {item} in enumerate({node.orig}):")
        step = (False, f"(_IS[{i}] if {i} < 1024 else str({i}) + '.')")
        _descend(src, node, i, item, seg, branches, step, ind + 1)
        return
    new, deleted = src.fresh("x"), src.fresh("dl")
    src.line(ind, f"{deleted} = False")
    src.line(ind, f"for {i}, {item} in enumerate({node.orig}):")
    path = _path_expr(node.parts + [(False, f"(_IT[{i}] if {i} < 1024 else str({i}))")])
    if not src.call(branches[0], new, item, path, ind + 1):
        kind = src.fresh("t")
        src.line(ind + 1, f"{kind} = type({new})")
        src.line(ind + 1, f"if {kind} is not str and {kind} is not int:")  # the usual results skip both tests
        src.line(ind + 2, f"if {new} is None or {new} is _U:")
        src.line(ind + 3, f"{new} = _D")
        src.line(ind + 3, f"{deleted} = True")
        src.line(ind + 2, "else:")
        src.line(ind + 3, f"{new} = _plain({new})")
    src.line(ind + 1, f"if {new} is not {item}:")
    src.own(node, ind + 2)
    src.line(ind + 2, f"{var}[{i}] = {new}")
    src.line(ind, f"if {deleted}:")
    src.line(ind + 1, f"_drop({var})")


def _wildcard_on_dict(src: _Source, node: _Node, branches: list[_Branch], ind: int) -> None:
    """``map[*]`` as the last segment (labels, annotations)."""
    key, item, new = src.fresh("k"), src.fresh("c"), src.fresh("x")
    if src.ownership.may_be_owned(src.group, node.prefix):  # written in place: iterate a snapshot
        src.line(ind, f"for {key}, {item} in list({node.orig}.items()):")
    else:  # every write goes to a copy
        src.line(ind, f"for {key}, {item} in {node.orig}.items():")
    known = src.call(branches[0], new, item, _path_expr(node.parts + [(False, f"_kt({key})")]), ind + 1)
    _set_result(src, node, key, item, new, ind + 1, known=known)


#: a use of ``ctx`` in a generated line other than a walker's copy of it
_CTX_USE = re.compile(r"\bctx\b(?!\.copy\(\))")


@functools.lru_cache(maxsize=256)
def _code(source: str) -> Any:
    """Compiled plan source; plans of the same shape share it (their objects differ by name)."""
    return compile(source, "<patch plan>", "exec")


def compile_plan(steps: Sequence[StaticStep], fuse: bool, wrap: Callable[..., Exception],
                 direction: str, inline: "InlineEntry | None" = None) -> Callable[..., Any] | None:
    """One function ``run(root, ctx, owned) -> root`` applying every step, each on the result
    of the previous. With ``fuse`` (every function is a compiled expression), consecutive
    disjoint steps share one traversal and any failure propagates as is: the caller re-runs
    the steps one by one for the exact error. Without it, a failure is raised as
    ``wrap(exc, entry, concrete_path, direction)`` naming the step, as the per-step loop does.

    With ``inline`` (for fused plans whose functions all have a native tier), native bodies
    are written in place of the calls (``plan_inline``) and the function is the whole fast
    path, ``run(root, context) -> root``: it makes its own context (``inline.context(context,
    root)`` unless the caller's is complete, which is copied) and returns ``inline.miss`` on
    any failure, for the caller to re-run with calls.

    None when CPython cannot compile the function (paths nested past its block limit)."""
    paths = [tuple(step[1]) for step in steps]
    groups = group_steps(paths, fuse)
    src = _Source(Ownership(paths, groups), inline is not None and fuse)
    branches = [_Branch(path, src.bind(step[2], "f"), step[3], step[4]) for path, step in zip(paths, steps)]
    body = 1
    if src.inline:
        assert inline is not None
        context, miss = src.bind(inline.context, "context"), src.bind(inline.miss, "miss")
        src.line(0, "def run(n0, context):")
        src.line(1, "if type(context) is dict and 'vcluster' in context and 'hostObject' in context "
                    "and 'virtualObject' in context:")
        src.line(2, "ctx = context.copy()")
        copy_line = len(src.lines) - 1
        src.line(1, "else:")
        src.line(2, f"ctx = {context}(context, n0)")
        body_start = len(src.lines)
        src.line(1, "owned = {}")
        src.line(1, "try:")
        src.line(2, "pass")  # (a plan with no step)
        body = 2
    else:
        src.line(0, "def run(n0, ctx, owned):")
    if not fuse:
        src.line(1, "try:")
        body = 2
    for number, group in enumerate(groups):
        src.group = number
        if not fuse:
            src.line(body, f"step = {group[0]}")
        if not paths[group[0]]:
            src.line(body, f"n0 = _whole(None, n0, {branches[group[0]].fn}, {src.walker_ctx}, owned)")
            continue
        src.line(body, "o0 = n0")
        _dispatch(src, _Node("n0", "o0", (), []), [branches[n] for n in group], body)
    if not fuse:
        entries = src.bind(tuple(step[0] for step in steps), "entries")
        wrap_name, direction_name = src.bind(wrap, "wrap"), src.bind(direction, "direction")
        src.line(1, "except Exception as exc:")
        src.line(2, f"raise {wrap_name}(exc, {entries}[step], str(ctx.get('path', '')), {direction_name}) from exc")
    if src.inline:
        src.line(1, "except Exception:")
        src.line(2, f"return {miss}")
        if not any(_CTX_USE.search(text) for text in src.lines[body_start:]):
            # no body reads the context or sets its path, and walkers get copies: the run can
            # read the caller's context as it is (a new one is still made when it is incomplete)
            src.lines[copy_line] = src.lines[copy_line].replace("context.copy()", "context")
    src.line(1, "return n0")
    try:
        code = _code("\n".join(src.lines) + "\n")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        # nested too deeply for CPython (past 20 loops: about as many [*] in one path): the
        # caller keeps the closure walkers, which have no such limit
        return None
    namespace = dict(src.names)
    exec(code, namespace)  # noqa: S102 - literals and generated names only
    return namespace["run"]  # type: ignore[no-any-return]
