"""Patch plans: ordered, precompiled patch entries applied copy-on-write in either direction.

A plan is plain data plus callables, so the ``compile-patches`` artifact can rebuild one with
the runtime alone::

    PatchPlan(entries=(ExpressionPatch(index=0, path="spec.ports[*].name",
                                       expression=fn, reverse_expression=None),))

Application rules (issue 4):

* patches run in list order, each against the result of the previous one;
* a missing path or parent is a no-op, except a terminal ``["key"]`` on a map, which runs with
  ``value=None, value_exists=False`` and creates the key when the result is not null;
* a ``null``/``undefined`` result deletes the field (a list element is removed);
* wildcards expand over every element and key, and nest;
* the input is never mutated: only containers along patched paths are copied (and each at
  most once per application), everything else is shared with the input;
* any error leaves nothing half-applied: the caller gets one :class:`PatchError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal, Protocol, Sequence, overload

import attrs

from .paths import Index, Key, Segment, Wildcard, format_concrete_path, has_wildcard, parse_path

if TYPE_CHECKING:
    from .names import NameTranslator

_UNDEFINED: object
try:
    from .values import UNDEFINED as _UNDEFINED
except ImportError:  # pragma: no cover - the value model ships with the compiler
    _UNDEFINED = object()

__all__ = [
    "Direction",
    "PatchFunction",
    "PlanEntry",
    "ExpressionPatch",
    "ApplyEnv",
    "PatchPlan",
    "PatchResult",
    "PatchError",
    "DEFAULT_KEYWORDS",
    "SWAPPED_KEYWORDS",
]

Direction = Literal["to_host", "from_host"]
PatchFunction = Callable[..., Any]
"""``fn(value, context, *, value_exists=True) -> result``: a compiled expression or any callable."""

Keyword = Literal["expression", "reverseExpression"]
DEFAULT_KEYWORDS: dict[Direction, Keyword] = {"to_host": "expression", "from_host": "reverseExpression"}
SWAPPED_KEYWORDS: dict[Direction, Keyword] = {"to_host": "reverseExpression", "from_host": "expression"}

_DELETE = object()


def _js_error_parts(exc: BaseException) -> tuple[str, str]:
    """The JS error name and message of whatever a patch function raised."""
    name = getattr(exc, "js_name", None)
    value = getattr(exc, "value", None)  # a runtime JSThrow not yet wrapped by the facade
    if name is None and value is not None:
        name = getattr(value, "error_name", None)
    message = getattr(exc, "message", None)
    if message is None and value is not None:
        message = getattr(value, "message", None)
    return str(name or type(exc).__name__), str(message if message is not None else exc)


class PatchError(Exception):
    """One patch failed; the object was left untouched.

    Carries the patch index (position in the configured list), the configured path, the concrete
    path where it failed (``spec.ports.1.name``), the direction and the JS error name/message.
    """

    def __init__(
        self,
        *,
        patch_index: int,
        path: str,
        concrete_path: str,
        js_name: str,
        message: str,
        direction: str = "",
    ) -> None:
        super().__init__(patch_index, path, concrete_path, js_name, message, direction)
        self.patch_index = patch_index
        self.path = path
        self.concrete_path = concrete_path
        self.js_name = js_name
        self.message = message
        self.direction = direction

    @property
    def js_error(self) -> str:
        return f"{self.js_name}: {self.message}" if self.message else self.js_name

    def __str__(self) -> str:
        where = f" at {self.concrete_path!r}" if self.concrete_path != self.path else ""
        towards = {"to_host": " (to host)", "from_host": " (from host)"}.get(self.direction, "")
        return f"patch {self.patch_index} on path {self.path!r}{where}{towards} failed: {self.js_error}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_patch_error, (self.__dict__.copy(),))


def _rebuild_patch_error(state: dict[str, Any]) -> PatchError:
    keys = ("patch_index", "path", "concrete_path", "js_name", "message", "direction")
    return PatchError(**{key: state[key] for key in keys})


@attrs.define
class ApplyEnv:
    """Per-application state shared by all entries: the live context dict, the translator for
    reference patches (derived from the context on first use) and collected import records."""

    direction: Direction
    context: dict[str, Any]
    root: Any
    translator: "NameTranslator | None" = None
    concat_kinds: frozenset[str] = frozenset()
    imports: list[Any] = attrs.field(factory=list)

    def get_translator(self) -> "NameTranslator":
        if self.translator is None:
            from .names import translator_from_context

            self.translator = translator_from_context(self.context, self.concat_kinds)
        return self.translator


class PlanEntry(Protocol):
    """What a plan needs from an entry: where it applies and what it does per direction."""

    @property
    def index(self) -> int: ...

    @property
    def path(self) -> str: ...

    @property
    def segments(self) -> tuple[Segment, ...]: ...

    def function_for(self, keyword: Keyword, env: ApplyEnv) -> PatchFunction | None: ...


def _segments_from_path(entry: Any) -> tuple[Segment, ...]:
    return parse_path(entry.path)


@attrs.frozen
class ExpressionPatch:
    """An ``expression`` / ``reverseExpression`` entry. Either function may be ``None``
    (no patch in that direction)."""

    index: int
    path: str
    expression: PatchFunction | None = None
    reverse_expression: PatchFunction | None = None
    segments: tuple[Segment, ...] = attrs.field(
        default=attrs.Factory(_segments_from_path, takes_self=True), eq=False
    )

    def function_for(self, keyword: Keyword, env: ApplyEnv) -> PatchFunction | None:
        return self.expression if keyword == "expression" else self.reverse_expression


@attrs.frozen
class PatchResult:
    """An applied plan's output: the new object and the objects references asked to import."""

    object: Any
    imports: tuple[Any, ...] = ()


def _clone(value: Any) -> Any:
    """Deep-copy JSON containers, so a patch function cannot mutate the input through ``value``."""
    if type(value) is dict:
        return {k: _clone(v) for k, v in value.items()}
    if type(value) is list:
        return [_clone(v) for v in value]
    return value


class _Applier:
    """Applies one entry's function along its path, copy-on-write.

    ``owned`` maps ids of containers created during this application to the containers (which
    keeps them alive, so ids cannot be reused): those are mutated in place, anything else is
    copied before its first write.
    """

    __slots__ = ("fn", "segs", "last", "ctx", "static_path", "parts", "owned", "error_path")

    def __init__(self, fn: PatchFunction, segs: tuple[Segment, ...], ctx: dict[str, Any],
                 static_path: str | None, owned: dict[int, Any]) -> None:
        self.fn = fn
        self.segs = segs
        self.last = len(segs) - 1
        self.ctx = ctx
        self.static_path = static_path
        self.parts: list[str | int] = []
        self.owned = owned
        self.error_path: str | None = None

    def call(self, value: Any, exists: bool) -> Any:
        ctx = self.ctx
        ctx["path"] = self.static_path if self.static_path is not None else format_concrete_path(self.parts)
        if type(value) is dict or type(value) is list:
            value = _clone(value)
        try:
            result = self.fn(value, ctx, value_exists=exists)
        except BaseException:
            self.error_path = ctx["path"]
            raise
        return _DELETE if result is None or result is _UNDEFINED else result

    def writable(self, node: Any) -> Any:
        if id(node) in self.owned:
            return node
        copy = dict(node) if isinstance(node, dict) else list(node)
        self.owned[id(copy)] = copy
        return copy

    def child(self, value: Any, exists: bool, i: int, part: str | int) -> Any:
        """New value for one matched child (``_DELETE`` to remove it)."""
        self.parts.append(part)
        try:
            if i == self.last:
                return self.call(value, exists)
            if isinstance(value, (dict, list)):
                return self.walk(value, i + 1)
            return value
        finally:
            self.parts.pop()

    def walk(self, node: Any, i: int) -> Any:
        seg = self.segs[i]
        if type(seg) is Key:
            if isinstance(node, dict):
                return self.walk_key(node, seg, i)
            if isinstance(node, list) and seg.name.isdigit() and seg.name.isascii():
                return self.walk_index(node, int(seg.name), i)
            return node
        if type(seg) is Index:
            return self.walk_index(node, seg.index, i) if isinstance(node, list) else node
        if isinstance(node, list):
            return self.walk_all_items(node, i)
        if isinstance(node, dict):
            return self.walk_all_keys(node, i)
        return node

    def walk_key(self, node: dict[str, Any], seg: Key, i: int) -> Any:
        name = seg.name
        if name in node:
            old = node[name]
            new = self.child(old, True, i, name)
            if new is old:
                return node
        elif seg.bracket and i == self.last:
            new = self.child(None, False, i, name)
            if new is _DELETE:
                return node
        else:
            return node
        target = self.writable(node)
        if new is _DELETE:
            del target[name]
        else:
            target[name] = new
        return target

    def walk_index(self, node: list[Any], index: int, i: int) -> Any:
        if index >= len(node):
            return node
        old = node[index]
        new = self.child(old, True, i, index)
        if new is old:
            return node
        target = self.writable(node)
        if new is _DELETE:
            del target[index]
        else:
            target[index] = new
        return target

    def walk_all_items(self, node: list[Any], i: int) -> Any:
        out: list[Any] = []
        changed = False
        for index, old in enumerate(node):
            new = self.child(old, True, i, index)
            if new is not old:
                changed = True
                if new is _DELETE:
                    continue
            out.append(new)
        if not changed:
            return node
        target = self.writable(node)
        target[:] = out
        return target

    def walk_all_keys(self, node: dict[str, Any], i: int) -> Any:
        target = node
        for name, old in list(node.items()):
            new = self.child(old, True, i, name)
            if new is old:
                continue
            if target is node:
                target = self.writable(node)
            if new is _DELETE:
                del target[name]
            else:
                target[name] = new
        return target

    def run(self, root: Any) -> Any:
        if not self.segs:
            result = self.call(root, True)
            if result is _DELETE:
                raise ValueError("a whole-object patch (path \"\") returned null or undefined")
            return result
        if not isinstance(root, (dict, list)):
            return root
        return self.walk(root, 0)


def _base_context(context: Any, obj: Any, direction: Direction) -> dict[str, Any]:
    """A fresh context dict per application (its ``path`` is updated in place per match).

    ``virtualObject`` defaults to the input when syncing to the host, ``hostObject`` when
    syncing from it; an explicit ``None`` in the caller's context is kept.
    """
    ctx: dict[str, Any] = {
        "vcluster": {"name": "", "namespace": "", "config": {}},
        "hostObject": None,
        "virtualObject": None,
        "path": "",
    }
    if context:
        ctx.update(context)
    source_key = "virtualObject" if direction == "to_host" else "hostObject"
    if not context or source_key not in context:
        ctx[source_key] = obj
    return ctx


@attrs.frozen
class PatchPlan:
    """An ordered list of compiled entries, applicable in both directions.

    ``to_host_keyword`` / ``from_host_keyword`` say which configured keyword acts in which
    direction: normally ``expression`` towards the host and ``reverseExpression`` from it;
    vCluster swaps them for ``fromHost`` resources such as nodes (see ``SWAPPED_KEYWORDS``). Reference and labels
    entries translate by direction regardless of keywords.
    """

    entries: tuple[PlanEntry, ...] = ()
    to_host_keyword: Keyword = "expression"
    from_host_keyword: Keyword = "reverseExpression"
    concat_kinds: frozenset[str] = frozenset()
    _static_paths: tuple[str | None, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        statics = tuple(
            None if has_wildcard(e.segments) else format_concrete_path(_static_parts(e.segments))
            for e in self.entries
        )
        object.__setattr__(self, "_static_paths", statics)

    @overload
    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: Literal[False] = False) -> Any: ...

    @overload
    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: Literal[True]) -> PatchResult: ...

    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: bool = False) -> Any:
        """Tenant → host: returns the patched copy (and the import records when asked)."""
        result = self.apply("to_host", obj, context, translator=translator)
        return result if with_imports else result.object

    @overload
    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: Literal[False] = False) -> Any: ...

    @overload
    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: Literal[True]) -> PatchResult: ...

    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: bool = False) -> Any:
        """Host → tenant: returns the patched copy (and the import records when asked)."""
        result = self.apply("from_host", obj, context, translator=translator)
        return result if with_imports else result.object

    def apply(self, direction: Direction, obj: Any, context: Any = None, *,
              translator: "NameTranslator | None" = None) -> PatchResult:
        """Run every entry that acts in ``direction``; all or nothing."""
        env = ApplyEnv(direction, _base_context(context, obj, direction), obj,
                       translator, self.concat_kinds)
        keyword = self.to_host_keyword if direction == "to_host" else self.from_host_keyword
        owned: dict[int, Any] = {}
        root = obj
        for entry, static in zip(self.entries, self._static_paths):
            fn = entry.function_for(keyword, env)
            if fn is None:
                continue
            applier = _Applier(fn, entry.segments, env.context, static, owned)
            try:
                root = applier.run(root)
            except Exception as exc:
                raise _wrap(exc, entry, applier, direction) from exc
        return PatchResult(root, tuple(env.imports))

    @property
    def keywords(self) -> dict[Direction, Keyword]:
        """Which configured keyword acts in each direction."""
        return {"to_host": self.to_host_keyword, "from_host": self.from_host_keyword}

    def swapped(self) -> "PatchPlan":
        """The same entries with the direction keywords exchanged."""
        return attrs.evolve(
            self, to_host_keyword=self.from_host_keyword, from_host_keyword=self.to_host_keyword
        )

    def is_empty(self, direction: Direction) -> bool:
        """True when no entry could act in ``direction`` (expression entries only checked)."""
        keyword = self.keywords[direction]
        for entry in self.entries:
            if not isinstance(entry, ExpressionPatch):
                return False
            if (entry.expression if keyword == "expression" else entry.reverse_expression):
                return False
        return True


def _static_parts(segments: Sequence[Segment]) -> list[str | int]:
    parts: list[str | int] = []
    for seg in segments:
        if isinstance(seg, Key):
            parts.append(seg.name)
        elif isinstance(seg, Index):
            parts.append(seg.index)
        elif isinstance(seg, Wildcard):  # pragma: no cover - callers exclude wildcards
            raise ValueError("wildcard paths have no static form")
    return parts


def _wrap(exc: Exception, entry: PlanEntry, applier: _Applier, direction: Direction) -> PatchError:
    if isinstance(exc, PatchError):
        return exc
    js_name, message = _js_error_parts(exc)
    concrete = applier.error_path
    if concrete is None:
        concrete = format_concrete_path(applier.parts)
    return PatchError(
        patch_index=entry.index,
        path=entry.path,
        concrete_path=str(concrete),
        js_name=js_name,
        message=message,
        direction=direction,
    )
