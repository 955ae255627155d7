"""Path walkers: each configured path compiled once into a chain of closures.

Every walker has the signature ``walk(node, prefix, fn, ctx, owned) -> node`` and returns
``node`` itself when nothing changed, or a copy holding the change (copy-on-write):

* ``prefix`` is the concrete path so far, ending in ``.`` (or ``""``), so ``context.path``
  costs one concatenation per match;
* ``owned`` maps the ids of containers created during one plan application to the containers
  (which keeps them alive, so ids cannot be reused). Those are written in place; anything else,
  in particular the caller's input, is copied before its first write.

The per-segment closures, and the fused ``[*].key`` loop for the most common shape, avoid
re-interpreting the path for every object. They are the reference semantics: plans run
generated code (``plan_codegen``) that hands them whatever it does not cover (subclassed
containers, digit keys on lists, maps of objects), runs them for entries that resolve their
function per application, and re-runs them step by step when a fused application fails.
"""

from __future__ import annotations

from typing import Any, Callable

from .paths import Index, Key, Segment, Wildcard, format_concrete_path
from .plan_export import export_result
from .subclasses import DICT, LIST, foreign, plain_container

from .values import UNDEFINED as _UNDEFINED

__all__ = ["Walker", "build_walker", "run_walker", "positional", "DELETE"]

PatchFunction = Callable[..., Any]
DELETE = _DELETE = object()
"""Marks a field to delete: a patch function returned null or undefined."""


def _clone(value: Any) -> Any:
    """Deep-copy JSON containers, so a patch function cannot mutate the input through ``value``
    (used by ``positional``; compiled expressions copy only what a script can mutate)."""
    if type(value) is dict:
        return {k: _clone(v) for k, v in value.items()}
    if type(value) is list:
        return [_clone(v) for v in value]
    return value


Walker = Callable[[Any, str, PatchFunction, dict[str, Any], dict[int, Any]], Any]
"""Walkers call ``fn(value, ctx, value_exists)`` positionally with the input's own value (no
copy): the plan passes either a compiled expression's ``invoke`` (which copies what its
script could mutate) or ``positional(fn)`` for any other patch function."""


def positional(fn: PatchFunction) -> PatchFunction:
    """Adapt ``fn(value, context, *, value_exists)`` to the walkers' positional call, giving
    it a deep copy of container values (an arbitrary function may mutate its input)."""

    def call(value: Any, ctx: dict[str, Any], value_exists: bool) -> Any:
        if type(value) is dict or type(value) is list:
            value = _clone(value)
        return fn(value, ctx, value_exists=value_exists)

    return call


_INDEX_TEXT = tuple(str(i) for i in range(1024))
_INDEX_STEP = tuple(f"{i}." for i in range(1024))


def _index_text(index: int) -> str:
    return _INDEX_TEXT[index] if index < 1024 else str(index)


def _plain_node(node: Any, owned: dict[int, Any]) -> Any:
    """A caller's dict or list subclass met on a patched path: a plain copy read from its
    storage (owned, so written in place from now on); anything else as it is. The path's
    containers in the result are then plain, and no override of the input's classes runs."""
    kind = foreign(type(node))
    if kind == DICT or kind == LIST:
        node = plain_container(node, kind)
        owned[id(node)] = node
    return node


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


_plain = export_result
"""Any result other than a string or an int as vCluster stores it (``plan_export``): JSON
data, or a ``TypeError`` for NaN, ±Infinity, a function, a symbol."""


def _call(fn: PatchFunction, value: Any, ctx: dict[str, Any], path: str) -> Any:
    """Run one patch function; ``_DELETE`` for a null/undefined result."""
    ctx["path"] = path
    result = fn(value, ctx, True)
    if result is None or result is _UNDEFINED:
        return _DELETE
    return result if type(result) is str or type(result) is int else _plain(result)


def _create(node: Any, name: str, path: str, fn: PatchFunction, ctx: dict[str, Any],
            owned: dict[int, Any]) -> Any:
    """A terminal ``["key"]`` that is missing: run with ``value_exists=False``, create on a value."""
    ctx["path"] = path
    result = fn(None, ctx, False)
    if result is None or result is _UNDEFINED:
        return node
    target = _writable(node, owned)
    target[name] = result if type(result) is str or type(result) is int else _plain(result)
    return target


def _terminal_text(name: str, bracket: bool) -> str:
    """What a last key adds to ``context.path``, as vCluster passes it: the key unquoted
    (vCluster joins the last segment as it is), and nothing for ``["key"]``, whose patch
    vCluster calls with the path of the map holding the key (the caller drops the dot)."""
    return "" if bracket else name


def _key_terminal(name: str, bracket: bool) -> Walker:
    """The hot path of most patches, hence written out in full."""
    text = _terminal_text(name, bracket)
    cut = 1 if bracket else 0  # ["key"]: the prefix's trailing dot goes
    on_list = _index_terminal(int(name)) if name.isdigit() and name.isascii() else None

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if type(node) is not dict:
            node = _plain_node(node, owned)
            if type(node) is not dict:
                return on_list(node, prefix, fn, ctx, owned) if on_list is not None else node
        old = node.get(name, _DELETE)
        if old is _DELETE:
            return _create(node, name, prefix[:-1] if cut and prefix else prefix + text, fn, ctx, owned) if bracket else node
        ctx["path"] = prefix[:-1] if cut and prefix else prefix + text
        return _set_key(node, name, old, fn(old, ctx, True), owned)

    return walk


def _key_step(name: str, nxt: Walker) -> Walker:
    text = _key_text(name) + "."
    on_list = _index_step(int(name), nxt) if name.isdigit() and name.isascii() else None

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if type(node) is not dict:
            node = _plain_node(node, owned)
            if type(node) is not dict:
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
        if type(node) is not list:
            node = _plain_node(node, owned)
            if type(node) is not list:
                return node
        if index >= len(node):
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
        if type(node) is not list:
            node = _plain_node(node, owned)
            if type(node) is not list:
                return node
        if index >= len(node):
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


def _wildcard_terminal(paths: bool = True) -> Walker:
    """``…[*]``: every element or map value (``paths`` as in ``_wildcard_key_terminal``)."""

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if type(node) is not list and type(node) is not dict:
            node = _plain_node(node, owned)
        if type(node) is list:
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
        if type(node) is dict:
            out = node
            for key, old in list(node.items()):
                if paths:
                    ctx["path"] = prefix + _key_text(key)
                    new = fn(old, ctx, True)
                else:
                    try:
                        new = fn(old, ctx, True)
                    except Exception:
                        ctx["path"] = prefix + _key_text(key)
                        raise
                if new is None or new is _UNDEFINED:
                    if out is node:
                        out = _writable(node, owned)
                    del out[key]
                elif new is not old:
                    if type(new) is not str and type(new) is not int:
                        new = _plain(new)
                    if out is node:
                        out = _writable(node, owned)
                    out[key] = new
            return out
        return node

    return walk


def _wildcard_step(nxt: Walker) -> Walker:
    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if type(node) is not list and type(node) is not dict:
            node = _plain_node(node, owned)
        if type(node) is list:
            items: Any = enumerate(node)
        elif type(node) is dict:
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
    if type(new) is not str and type(new) is not int:
        new = _plain(new)
    if id(item) in owned:
        item[name] = new
        return item
    target = item.copy()
    owned[id(target)] = target
    target[name] = new
    return target


def _wildcard_key_terminal(name: str, bracket: bool, paths: bool = True) -> Walker:
    """``…[*].name``, the most common patch shape, fused into one loop (one call per match
    fewer); anything unusual (missing keys, lists, non-dict elements) takes the general path.

    With ``paths`` false (the patch function never reads ``context``), the list loop does not
    build ``context.path`` for each match; it is set only when a call fails, for the error."""
    text = _terminal_text(name, bracket)
    steps = _INDEX_TEXT if bracket else _INDEX_STEP  # ["key"]: the element's path, no dot
    general = _key_terminal(name, bracket)

    def walk(node: Any, prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        if type(node) is list:
            return on_list(node, prefix, fn, ctx, owned)
        node = _plain_node(node, owned)
        if type(node) is list:
            return on_list(node, prefix, fn, ctx, owned)
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
                step = _step_text(key, is_list)
                ctx["path"] = prefix + (step[:-1] if bracket else step + text)
                new_item = _set_key(item, name, old, fn(old, ctx, True), owned)
            elif isinstance(item, (dict, list)):
                new_item = general(item, prefix + _step_text(key, is_list), fn, ctx, owned)
            else:
                continue
            if new_item is not item:
                if target is node:
                    target = _writable(node, owned)
                target[key] = new_item
        return target

    def on_list(node: list[Any], prefix: str, fn: PatchFunction, ctx: dict[str, Any], owned: dict[int, Any]) -> Any:
        """The loop above for a list, with ``_set_key`` written out (the per-match hot path)."""
        target = node
        for key, item in enumerate(node):
            if type(item) is dict and (old := item.get(name, _DELETE)) is not _DELETE:
                if paths:
                    ctx["path"] = prefix + (steps[key] + text if key < 1024 else f"{key}." + text if text else str(key))
                    new = fn(old, ctx, True)
                else:
                    try:
                        new = fn(old, ctx, True)
                    except Exception:
                        ctx["path"] = prefix + (steps[key] + text if key < 1024 else f"{key}." + text if text else str(key))
                        raise
                if new is None or new is _UNDEFINED:
                    new_item = _writable(item, owned)
                    del new_item[name]
                elif new is old:
                    continue
                else:
                    if type(new) is not str and type(new) is not int:
                        new = _plain(new)
                    if id(item) in owned:
                        item[name] = new
                        continue
                    new_item = item.copy()
                    owned[id(new_item)] = new_item
                    new_item[name] = new
            elif isinstance(item, (dict, list)):
                new_item = general(item, prefix + (_INDEX_STEP[key] if key < 1024 else f"{key}."), fn, ctx, owned)
                if new_item is item:
                    continue
            else:
                continue
            if target is node:
                target = _writable(node, owned)
            target[key] = new_item
        return target

    return walk


def build_walker(segments: tuple[Segment, ...], paths: bool = True) -> Walker | None:
    """Compile a path into its walker chain (``None`` for ``""``, the whole object).
    ``paths=False``: the patch function never reads ``context`` (see ``_wildcard_key_terminal``)."""
    walker: Walker | None = None
    for seg in reversed(segments):
        if isinstance(seg, Key):
            walker = _key_terminal(seg.name, seg.bracket) if walker is None else _key_step(seg.name, walker)
        elif isinstance(seg, Index):
            walker = _index_terminal(seg.index) if walker is None else _index_step(seg.index, walker)
        else:
            walker = _wildcard_terminal(paths) if walker is None else _wildcard_step(walker)
    if len(segments) >= 2 and isinstance(segments[-2], Wildcard) and isinstance(segments[-1], Key):
        last = segments[-1]
        walker = _wildcard_key_terminal(last.name, last.bracket, paths)
        for seg in reversed(segments[:-2]):
            if isinstance(seg, Key):
                walker = _key_step(seg.name, walker)
            elif isinstance(seg, Index):
                walker = _index_step(seg.index, walker)
            else:
                walker = _wildcard_step(walker)
    return walker


def run_walker(walker: Walker | None, root: Any, fn: PatchFunction, ctx: dict[str, Any],
         owned: dict[int, Any]) -> Any:
    if walker is None:
        result = _call(fn, root, ctx, "")
        if result is _DELETE:
            raise ValueError('a whole-object patch (path "") returned null or undefined')
        return result
    if not isinstance(root, (dict, list)):
        return root
    return walker(root, "", fn, ctx, owned)
