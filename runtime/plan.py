"""Patch plans: ordered, precompiled patch entries applied copy-on-write in either direction.

A plan is plain data plus callables, so the ``compile-patches`` artifact can rebuild one with
the runtime alone::

    PatchPlan(entries=(ExpressionPatch(index=0, path="spec.ports[*].name",
                                       expression=fn, reverse_expression=None),))

Application rules:

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

import functools
from typing import TYPE_CHECKING, Any, Callable, Literal, Protocol, overload

import attrs

from .bigstack import COUNTED_DEALLOC, needs_big_stack, run_on_big_stack
from .compiled import CompiledExpression
from .errors import SyncpatchError
from .paths import Segment, parse_path
from .plan_codegen import InlineEntry, compile_plan
from .plan_walkers import Walker, build_walker, positional, run_walker
from .realm import DEFAULT_BUDGETS, WATCHED, Realm, local_state
from .translate import translate_exception
from .watchdog import WallTimeInterrupt, disarm


if TYPE_CHECKING:
    from .names import NameTranslator

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


def _js_error_parts(exc: BaseException) -> tuple[str, str]:
    """The JS error name and message of whatever a patch function raised."""
    name = getattr(exc, "js_name", None)
    value = getattr(exc, "value", None)  # a runtime JSThrow not yet wrapped by the facade
    if name is None and value is None:  # a Python error: never its type name or text
        if isinstance(exc, RecursionError):
            return "RangeError", "Maximum call stack size exceeded"
        if isinstance(exc, MemoryError):
            return "RangeError", "out of memory"
        return "InternalError", "internal error while applying the patch"
    if name is None and value is not None:
        name = getattr(value, "error_name", None)
    message = getattr(exc, "message", None)
    if message is None and value is not None:
        message = getattr(value, "message", None)
    return str(name or type(exc).__name__), str(message if message is not None else exc)


class PatchError(SyncpatchError):
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


_Step = tuple[Any, "Walker | None", "PatchFunction | None", bool, "CompiledExpression | None"]


def _reads_context(fn: PatchFunction) -> bool:
    """Whether ``fn`` can observe ``context`` (and so ``context.path``): the compiler's fact
    for a compiled expression; any other function is assumed to."""
    return fn.facts.reads_context if isinstance(fn, CompiledExpression) else True


def _walker_call(fn: PatchFunction) -> PatchFunction:
    """The positional ``(value, ctx, value_exists)`` form walkers call: a compiled expression's
    ``invoke`` (runs in the application's realm, copies only what its script can mutate), or
    ``positional(fn)`` for any other patch function."""
    return fn.invoke if isinstance(fn, CompiledExpression) else positional(fn)


def _steps(entries: tuple[PlanEntry, ...], keyword: Keyword) -> tuple[_Step, ...]:
    """Per direction: (entry, walker, walker call, whether the call reads context, the
    compiled expression when the function is one).
    Expression entries without a function for the direction are dropped; other entries
    resolve their function per application."""
    steps: list[_Step] = []
    for entry in entries:
        if isinstance(entry, ExpressionPatch):
            fn = entry.expression if keyword == "expression" else entry.reverse_expression
            if fn is not None:
                reads = _reads_context(fn)
                compiled = fn if isinstance(fn, CompiledExpression) else None
                steps.append((entry, build_walker(entry.segments, reads), _walker_call(fn), reads, compiled))
        else:
            steps.append((entry, build_walker(entry.segments), None, True, None))
    return tuple(steps)


class _Program:
    """One direction of a plan as generated code (``plan_codegen``), built on its first
    application, so loading a large artifact compiles nothing it does not use.

    ``run`` applies every step in one generated function when all functions are known up
    front; it is ``None`` when an entry (a reference or labels patch) resolves its function
    per application, or when the plan nests too deeply for CPython to compile, and the per-step
    loop runs instead. ``fused``: every function is a
    compiled expression, so disjoint steps share traversals and a failure is re-run step by
    step for the exact error."""

    __slots__ = ("run", "steps", "fused", "native", "inlined")

    def __init__(self, steps: tuple[_Step, ...], direction: Direction) -> None:
        self.steps = steps
        self.run: Callable[[Any, dict[str, Any], dict[int, Any]], Any] | None = None
        self.fused = False
        static = [(entry, entry.segments, fn, reads, compiled)
                  for entry, _walker, fn, reads, compiled in steps if fn is not None]
        if len(static) == len(steps):
            self.fused = all(compiled is not None for *_, compiled in static)
            self.run = compile_plan(static, self.fused, _wrap, direction)
        # every function has a native tier: the generated run needs no realm (a native
        # fallback sets up its own, as any call from outside an evaluation does)
        self.native = self.run is not None and self.fused and all(
            compiled is not None and compiled.native is not None for *_, compiled in static)
        # and the same function with native bodies written in place of the calls
        self.inlined = compile_plan(static, True, _wrap, direction, InlineEntry(
            functools.partial(_base_context, direction=direction), _MISS)) if self.native else None


_MISS = object()  # what an inlined run returns when it fails: the caller re-runs with calls (_apply)


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
    _to_host_program: _Program | None = attrs.field(init=False, eq=False, repr=False, default=None)
    _from_host_program: _Program | None = attrs.field(init=False, eq=False, repr=False, default=None)
    #: each direction's inlined run once its program is built (``_Program.inlined``): what
    #: ``to_host``/``from_host`` try first, read in one attribute
    _to_host_fast: Callable[[Any, Any], Any] | None = attrs.field(init=False, eq=False, repr=False, default=None)
    _from_host_fast: Callable[[Any, Any], Any] | None = attrs.field(init=False, eq=False, repr=False, default=None)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_to_host_steps", _steps(self.entries, self.to_host_keyword))
        object.__setattr__(self, "_from_host_steps", _steps(self.entries, self.from_host_keyword))

    def _program(self, direction: Direction) -> _Program:
        """The direction's generated program, built once (a race builds it twice, harmlessly)."""
        program = self._to_host_program if direction == "to_host" else self._from_host_program
        if program is None:
            program = _Program(self._to_host_steps if direction == "to_host" else self._from_host_steps, direction)
            object.__setattr__(self, f"_{direction}_program", program)
            object.__setattr__(self, f"_{direction}_fast", program.inlined)
        return program

    @overload
    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: Literal[False] = False) -> Any: ...

    @overload
    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: Literal[True]) -> PatchResult: ...

    def to_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                with_imports: bool = False) -> Any:
        """Tenant → host: returns the patched copy (and the import records when asked)."""
        fast = self._to_host_fast
        if fast is not None and (root := fast(obj, context)) is not _MISS:
            return PatchResult(root) if with_imports else root
        return self._directed("to_host", obj, context, translator, with_imports, fast is None)

    @overload
    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: Literal[False] = False) -> Any: ...

    @overload
    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: Literal[True]) -> PatchResult: ...

    def from_host(self, obj: Any, context: Any = None, *, translator: "NameTranslator | None" = None,
                  with_imports: bool = False) -> Any:
        """Host → tenant: returns the patched copy (and the import records when asked)."""
        fast = self._from_host_fast
        if fast is not None and (root := fast(obj, context)) is not _MISS:
            return PatchResult(root) if with_imports else root
        return self._directed("from_host", obj, context, translator, with_imports, fast is None)

    def _directed(self, direction: Direction, obj: Any, context: Any, translator: "NameTranslator | None",
                  with_imports: bool, try_inlined: bool) -> Any:
        """``to_host``/``from_host`` past their inlined run: a plan with nothing to do in
        ``direction``, the first application (which builds the program), a plan without an
        inlined run, or an object it missed on (``try_inlined`` false: it was just tried)."""
        if not (self._to_host_steps if direction == "to_host" else self._from_host_steps):
            return PatchResult(obj) if with_imports else obj
        program = self._program(direction)
        if try_inlined and program.inlined is not None and (root := program.inlined(obj, context)) is not _MISS:
            return PatchResult(root) if with_imports else root
        root, imports = self._apply(direction, program, obj, context, translator)
        return PatchResult(root, imports) if with_imports else root

    def apply(self, direction: Direction, obj: Any, context: Any = None, *,
              translator: "NameTranslator | None" = None) -> PatchResult:
        """Run every entry that acts in ``direction``; all or nothing."""
        if self.is_empty(direction):
            return PatchResult(obj)
        program = self._program(direction)
        if program.inlined is not None and (root := program.inlined(obj, context)) is not _MISS:
            return PatchResult(root)
        return PatchResult(*self._apply(direction, program, obj, context, translator))

    def _apply(self, direction: Direction, program: _Program, obj: Any, context: Any,
               translator: "NameTranslator | None") -> tuple[Any, tuple[Any, ...]]:
        if COUNTED_DEALLOC and needs_big_stack():  # CPython 3.13+ on a small thread stack
            return run_on_big_stack(lambda: self._apply(direction, program, obj, context, translator))
        if type(context) is dict and "vcluster" in context and "hostObject" in context and "virtualObject" in context:
            ctx = context.copy()  # what _base_context returns for a complete context, sooner
        else:
            ctx = _base_context(context, obj, direction)
        # One realm for the whole application (compiled expressions refresh its per-call
        # state): the thread's spare one, or a fresh one when nested inside an evaluation.
        local = local_state()
        previous = local.realm
        realm = local.spare
        if realm.busy:
            realm = Realm(DEFAULT_BUDGETS)
        elif realm.extra or realm.overlay is not None:  # a direct runtime call between
            realm.unpatch()  # applications patched the spare: this one starts without that
            realm.extra = {}
        realm.deadline = 0.0  # the clock of this application, not the one a previous call left
        realm.busy = WATCHED
        if previous is not realm:  # between evaluations the spare is already current
            local.realm = realm
        try:
            if program.run is None:
                return self._run_steps(direction, program.steps, obj, ctx, translator)
            if not program.fused:
                return program.run(obj, ctx, {}), ()
            try:
                return program.run(obj, ctx, {}), ()
            except Exception:  # noqa: BLE001 - re-run below, step by step, for the exact error
                pass
            return self._run_steps(direction, program.steps, obj, ctx, translator)
        except WallTimeInterrupt as exc:  # landed between two patches: the plain public error
            raise translate_exception(exc, {}) from None
        finally:
            realm.busy = False
            if realm.fired:
                try:
                    disarm(realm)
                except WallTimeInterrupt:  # the one interrupt, made as the application ended, landed
                    disarm(realm)  # at the call (a call's first bytecode takes it): the rest still runs
            realm.context = None
            realm.depth = 0
            if realm.extra or realm.overlay is not None:
                realm.unpatch()
                realm.extra = {}
            local.realm = previous

    def _run_steps(self, direction: Direction, steps: tuple[_Step, ...], obj: Any, ctx: dict[str, Any],
                   translator: "NameTranslator | None") -> tuple[Any, tuple[Any, ...]]:
        """The per-step loop, for plans whose entries resolve their function per application."""
        owned: dict[int, Any] = {}
        env: ApplyEnv | None = None
        root = obj
        # ctx["path"] is set right before every patch-function call, the only place that
        # can raise, so on failure it names the concrete path that failed.
        for entry, walker, fn, _reads, _compiled in steps:
            try:
                if fn is None:
                    if env is None:
                        env = ApplyEnv(direction, ctx, obj, translator, self.concat_kinds)
                    fn = entry.function_for(self.keywords[direction], env)
                    if fn is None:
                        continue
                    fn = _walker_call(fn)
                if walker is not None and isinstance(root, (dict, list)):
                    root = walker(root, "", fn, ctx, owned)
                elif walker is None:
                    root = run_walker(None, root, fn, ctx, owned)
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
