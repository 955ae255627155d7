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

from typing import TYPE_CHECKING, Any, Callable, Literal, Protocol, overload

import attrs

from .paths import Index, Key, Segment, Wildcard, format_concrete_path, parse_path

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


# Walkers: each path is compiled once into a chain of closures, one per segment, with the
# signature ``walk(node, prefix, fn, ctx, owned) -> node``. ``prefix`` is the concrete path so
# far, ending in "." (or ""), so ``context.path`` costs one concatenation per match. ``owned``
# maps ids of containers created during this application to themselves (keeping them alive,
# so ids cannot be reused): those are written in place, anything else is copied first.
Walker = Callable[[Any, str, PatchFunction, dict[str, Any], dict[int, Any]], Any]


_INDEX_TEXT = tuple(str(i) for i in range(1024))
_INDEX_STEP = tuple(f"{i}." for i in range(1024))


def _index_text(index: int) -> str:
    return _INDEX_TEXT[index] if index < 1024 else str(index)


def _writable(node: Any, owned: dict[int, Any]) -> Any:
    if id(node) in owned:
        return node
    copy = node.copy()
    owned[id(copy)] = copy
    return copy


def _key_text(key: str) -> str:
    """A map key as it appears in ``context.path``."""
    if "." in key or "[" in key or "]" in key:
        return format_concrete_path((key,))
    return key


def _plain(value: Any) -> Any:
    """An object/array result as JSON would store it: ``undefined`` members are dropped and
    ``undefined`` array elements become ``null`` (``JSON.stringify``'s rule)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not _UNDEFINED}
    if isinstance(value, list):
        return [None if v is _UNDEFINED else _plain(v) for v in value]
    return value


def _call(fn: PatchFunction, value: Any, ctx: dict[str, Any], path: str) -> Any:
    """Run one patch function; ``_DELETE`` for a null/undefined result."""
    ctx["path"] = path
    if type(value) is dict or type(value) is list:
        value = _clone(value)
    result = fn(value, ctx, value_exists=True)
    if result is None or result is _UNDEFINED:
        return _DELETE
    return _plain(result) if isinstance(result, (dict, list)) else result


def _create(node: Any, name: str, path: str, fn: PatchFunction, ctx: dict[str, Any],
            owned: dict[int, Any]) -> Any:
    """A terminal ``["key"]`` that is missing: run with ``value_exists=False``, create on a value."""
    ctx["path"] = path
    result = fn(None, ctx, value_exists=False)
    if result is None or result is _UNDEFINED:
        return node
    target = _writable(node, owned)
    target[name] = _plain(result) if isinstance(result, (dict, list)) else result
    return target


def _key_terminal(name: str, bracket: bool) -> Walker:
    """The hot path of most patches, hence written out in full."""
    text = _key_text(name)
    on_list = _index_terminal(int(name)) if name.isdigit() and name.isascii() else None

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if not isinstance(node, dict):
            return on_list(node, prefix, fn, ctx, owned) if on_list is not None else node
        old = node.get(name, _DELETE)
        if old is _DELETE:
            return _create(node, name, prefix + text, fn, ctx, owned) if bracket else node
        ctx["path"] = prefix + text
        new = fn(_clone(old) if type(old) is dict or type(old) is list else old, ctx, value_exists=True)
        if new is None or new is _UNDEFINED:
            target = _writable(node, owned)
            del target[name]
            return target
        if new is old:
            return node
        if isinstance(new, (dict, list)):
            new = _plain(new)
        if id(node) in owned:
            node[name] = new
            return node
        target = node.copy()
        owned[id(target)] = target
        target[name] = new
        return target

    return walk


def _key_step(name: str, nxt: Walker) -> Walker:
    text = _key_text(name) + "."
    on_list = _index_step(int(name), nxt) if name.isdigit() and name.isascii() else None

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if not isinstance(node, dict):
            return on_list(node, prefix, fn, ctx, owned) if on_list is not None else node
        old = node.get(name)
        if not isinstance(old, (dict, list)):
            return node
        new = nxt(old, prefix + text, fn, ctx, owned)
        if new is old:
            return node
        target = _writable(node, owned)
        target[name] = new
        return target

    return walk


def _index_terminal(index: int) -> Walker:
    text = str(index)

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if not isinstance(node, list) or index >= len(node):
            return node
        old = node[index]
        new = _call(fn, old, ctx, prefix + text)
        if new is old:
            return node
        target = _writable(node, owned)
        if new is _DELETE:
            del target[index]
        else:
            target[index] = new
        return target

    return walk


def _index_step(index: int, nxt: Walker) -> Walker:
    text = f"{index}."

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if not isinstance(node, list) or index >= len(node):
            return node
        old = node[index]
        if not isinstance(old, (dict, list)):
            return node
        new = nxt(old, prefix + text, fn, ctx, owned)
        if new is old:
            return node
        target = _writable(node, owned)
        target[index] = new
        return target

    return walk


def _wildcard_terminal() -> Walker:
    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if isinstance(node, list):
            target = node
            deleted = False
            for index, old in enumerate(node):
                new = _call(fn, old, ctx, prefix + _index_text(index))
                if new is not old:
                    if target is node:
                        target = _writable(node, owned)
                    target[index] = new
                    deleted = deleted or new is _DELETE
            if deleted:
                target[:] = [item for item in target if item is not _DELETE]
            return target
        if isinstance(node, dict):
            out = node
            for key, old in list(node.items()):
                new = _call(fn, old, ctx, prefix + _key_text(key))
                if new is not old:
                    if out is node:
                        out = _writable(node, owned)
                    if new is _DELETE:
                        del out[key]
                    else:
                        out[key] = new
            return out
        return node

    return walk


def _wildcard_step(nxt: Walker) -> Walker:
    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if isinstance(node, list):
            items: Any = enumerate(node)
        elif isinstance(node, dict):
            items = list(node.items())
        else:
            return node
        target = node
        is_list = type(items) is enumerate
        for key, old in items:
            if not isinstance(old, (dict, list)):
                continue
            step = (_INDEX_STEP[key] if key < 1024 else f"{key}.") if is_list else _key_text(key) + "."
            new = nxt(old, prefix + step, fn, ctx, owned)
            if new is not old:
                if target is node:
                    target = _writable(node, owned)
                target[key] = new
        return target

    return walk


def _step_text(key: Any, is_list: bool) -> str:
    if is_list:
        return _INDEX_STEP[key] if key < 1024 else f"{key}."
    return _key_text(key) + "."


def _set_key(item: dict[str, Any], name: str, old: Any, new: Any, owned: dict[int, Any]) -> Any:
    """``item`` with ``name`` set to a patch result (deleted for null/undefined)."""
    if new is None or new is _UNDEFINED:
        target = _writable(item, owned)
        del target[name]
        return target
    if new is old:
        return item
    if isinstance(new, (dict, list)):
        new = _plain(new)
    if id(item) in owned:
        item[name] = new
        return item
    target = item.copy()
    owned[id(target)] = target
    target[name] = new
    return target


def _wildcard_key_terminal(name: str, bracket: bool) -> Walker:
    """``…[*].name``, the most common patch shape, fused into one loop (one call per match
    fewer); anything unusual (missing keys, lists, non-dict elements) takes the general path."""
    text = _key_text(name)
    general = _key_terminal(name, bracket)

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if isinstance(node, list):
            items: Any = enumerate(node)
            is_list = True
        elif isinstance(node, dict):
            items = list(node.items())
            is_list = False
        else:
            return node
        target = node
        for key, item in items:
            old = item.get(name, _DELETE) if type(item) is dict else _DELETE
            if old is not _DELETE:
                ctx["path"] = prefix + _step_text(key, is_list) + text
                value = _clone(old) if type(old) is dict or type(old) is list else old
                new_item = _set_key(item, name, old, fn(value, ctx, value_exists=True), owned)
            elif isinstance(item, (dict, list)):
                new_item = general(item, prefix + _step_text(key, is_list), fn, ctx, owned)
            else:
                continue
            if new_item is not item:
                if target is node:
                    target = _writable(node, owned)
                target[key] = new_item
        return target

    return walk


def build_walker(segments: tuple[Segment, ...]) -> Walker | None:
    """Compile a path into its walker chain (``None`` for ``""``, the whole object)."""
    walker: Walker | None = None
    for seg in reversed(segments):
        if isinstance(seg, Key):
            walker = _key_terminal(seg.name, seg.bracket) if walker is None else _key_step(seg.name, walker)
        elif isinstance(seg, Index):
            walker = _index_terminal(seg.index) if walker is None else _index_step(seg.index, walker)
        else:
            walker = _wildcard_terminal() if walker is None else _wildcard_step(walker)
    if len(segments) >= 2 and isinstance(segments[-2], Wildcard) and isinstance(segments[-1], Key):
        last = segments[-1]
        walker = _wildcard_key_terminal(last.name, last.bracket)
        for seg in reversed(segments[:-2]):
            if isinstance(seg, Key):
                walker = _key_step(seg.name, walker)
            elif isinstance(seg, Index):
                walker = _index_step(seg.index, walker)
            else:
                walker = _wildcard_step(walker)
    return walker


def _run(walker: Walker | None, root: Any, fn: PatchFunction, ctx: dict[str, Any],
         owned: dict[int, Any]) -> Any:
    if walker is None:
        result = _call(fn, root, ctx, "")
        if result is _DELETE:
            raise ValueError('a whole-object patch (path "") returned null or undefined')
        return result
    if not isinstance(root, (dict, list)):
        return root
    return walker(root, "", fn, ctx, owned)


def _base_context(context: Any, obj: Any, direction: Direction) -> dict[str, Any]:
    """A fresh context dict per application (its ``path`` is updated in place per match).

    ``virtualObject`` defaults to the input when syncing to the host, ``hostObject`` when
    syncing from it; an explicit ``None`` in the caller's context is kept.
    """
    source_key = "virtualObject" if direction == "to_host" else "hostObject"
    if context:
        ctx = dict(context)
        if "vcluster" not in ctx:
            ctx["vcluster"] = {"name": "", "namespace": "", "config": {}}
        if source_key not in ctx:
            ctx[source_key] = obj
        if "hostObject" not in ctx:
            ctx["hostObject"] = None
        if "virtualObject" not in ctx:
            ctx["virtualObject"] = None
        return ctx
    ctx = {"vcluster": {"name": "", "namespace": "", "config": {}}, "hostObject": None,
           "virtualObject": None, "path": ""}
    ctx[source_key] = obj
    return ctx


_Step = tuple[Any, "Walker | None", "PatchFunction | None"]


def _steps(entries: tuple[PlanEntry, ...], keyword: Keyword) -> tuple[_Step, ...]:
    """Per direction: (entry, walker, static function). Expression entries without a function
    for the direction are dropped; other entries resolve their function per application."""
    steps: list[_Step] = []
    for entry in entries:
        walker = build_walker(entry.segments)
        if isinstance(entry, ExpressionPatch):
            fn = entry.expression if keyword == "expression" else entry.reverse_expression
            if fn is not None:
                steps.append((entry, walker, fn))
        else:
            steps.append((entry, walker, None))
    return tuple(steps)


@attrs.frozen
class PatchPlan:
    """An ordered list of compiled entries, applicable in both directions.

    ``to_host_keyword`` / ``from_host_keyword`` say which configured keyword acts in which
    direction: normally ``expression`` towards the host and ``reverseExpression`` from it;
    vCluster swaps them for ``fromHost`` resources such as nodes (see ``SWAPPED_KEYWORDS``).
    Reference and labels entries translate by direction regardless of keywords.
    """

    entries: tuple[PlanEntry, ...] = ()
    to_host_keyword: Keyword = "expression"
    from_host_keyword: Keyword = "reverseExpression"
    concat_kinds: frozenset[str] = frozenset()
    _to_host_steps: tuple[_Step, ...] = attrs.field(init=False, eq=False, repr=False)
    _from_host_steps: tuple[_Step, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_to_host_steps", _steps(self.entries, self.to_host_keyword))
        object.__setattr__(self, "_from_host_steps", _steps(self.entries, self.from_host_keyword))

    @overload
    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: Literal[False] = False) -> Any: ...

    @overload
    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: Literal[True]) -> PatchResult: ...

    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: bool = False) -> Any:
        """Tenant → host: returns the patched copy (and the import records when asked)."""
        root, imports = self._apply("to_host", self._to_host_steps, obj, context, translator)
        return PatchResult(root, imports) if with_imports else root

    @overload
    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: Literal[False] = False) -> Any: ...

    @overload
    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: Literal[True]) -> PatchResult: ...

    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: bool = False) -> Any:
        """Host → tenant: returns the patched copy (and the import records when asked)."""
        root, imports = self._apply("from_host", self._from_host_steps, obj, context, translator)
        return PatchResult(root, imports) if with_imports else root

    def apply(self, direction: Direction, obj: Any, context: Any = None, *,
              translator: "NameTranslator | None" = None) -> PatchResult:
        """Run every entry that acts in ``direction``; all or nothing."""
        steps = self._to_host_steps if direction == "to_host" else self._from_host_steps
        return PatchResult(*self._apply(direction, steps, obj, context, translator))

    def _apply(self, direction: Direction, steps: tuple[_Step, ...], obj: Any, context: Any,
               translator: "NameTranslator | None") -> tuple[Any, tuple[Any, ...]]:
        if not steps:
            return obj, ()
        ctx = _base_context(context, obj, direction)
        owned: dict[int, Any] = {}
        env: ApplyEnv | None = None
        root = obj
        for entry, walker, fn in steps:
            ctx["path"] = ""
            try:
                if fn is None:
                    if env is None:
                        env = ApplyEnv(direction, ctx, obj, translator, self.concat_kinds)
                    fn = entry.function_for(self.keywords[direction], env)
                    if fn is None:
                        continue
                root = _run(walker, root, fn, ctx, owned)
            except Exception as exc:
                raise _wrap(exc, entry, str(ctx.get("path", "")), direction) from exc
        return root, (tuple(env.imports) if env is not None else ())

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
        """True when no entry acts in ``direction``."""
        return not (self._to_host_steps if direction == "to_host" else self._from_host_steps)


def _wrap(exc: Exception, entry: PlanEntry, concrete: str, direction: Direction) -> PatchError:
    if isinstance(exc, PatchError):
        return exc
    js_name, message = _js_error_parts(exc)
    return PatchError(
        patch_index=entry.index,
        path=entry.path,
        concrete_path=concrete,
        js_name=js_name,
        message=message,
        direction=direction,
    )
