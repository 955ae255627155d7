"""Run-time helpers for constructs the compiler emits as one call: calls, ``new``, spread,
object literals with spread, templates, ``for-in`` keys, updates of members.

Each is the ECMA-262 evaluation semantics of one syntactic form; the compiler inlines the
common fast paths around them and calls these for the rest.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Iterator

from . import convert, members
from .convert import to_property_key, to_string
from .ops import add, inc, dec
from .properties import C, E, Accessor, Holes, ensure_meta, flags_of, meta_of, note_accessor
from .realm import PATCHED_REALMS, current_realm
from .stdlib import registry as reg
from .stdlib import string_regex
from .stdlib.collections import JSSet
from .stdlib.regexp import JSRegExp, regexp_create
from .strings import _BIG as _BIG_STRING, concat
from .subclasses import foreign, plain_value
from .values import MISSING, UNDEFINED, JSFunction, JSObject, JSSymbol, JSThrow, make_error, type_error

__all__ = [
    "call", "call_this", "callee_error", "spread_dict", "invoke", "invoke_arrow", "invoke_regexp", "invoke_opt", "construct", "spread", "object_spread", "template",
    "forin_keys", "update_member", "assign_member", "compound_member", "new_regexp", "property_key",
    "tagged_strings", "not_callable", "set_literal_proto", "rest_object", "rest_array", "iterate",
]

get_member = members.get_member
_STRING_PROTO = reg.STRING_PROTO
_ARRAY_PROTO = reg.ARRAY_PROTO
_NUMBER_PROTO = reg.NUMBER_PROTO
_NAMESPACE = reg.BuiltinNamespace
_REGEXP_PROTO = JSRegExp.JS_PROTO
iterate = members.js_iterate


def not_callable(text: str) -> JSThrow:
    return type_error(f"{text} is not a function")


def call(fn: Any, text: str, *args: Any) -> Any:
    """``f(...args)`` with ``this`` undefined (13.3.6.1)."""
    if type(fn) is JSFunction:
        return fn.call(UNDEFINED, *args)
    raise not_callable(text)


def callee_error(fn: Any, text: str) -> Any:
    """What ``f(args)`` calls when ``f`` is no function: a callable that throws the TypeError,
    so that the arguments are evaluated first (13.3.6.2 EvaluateCall)."""
    def fail(_this: Any, *_args: Any) -> Any:
        raise not_callable(text)

    return fail


def bound_callee(obj: Any, key: Any, text: str) -> Callable[..., Any]:
    """The callee of ``obj.key(...)`` (of ``obj(...)`` when ``key`` is None) with its ``this``
    bound, read before the arguments run (13.3.6.1): the generic side of ``BUILTIN_CALLS``
    (``abi.py``), taken once a realm patches built-ins. No function: a callable that throws
    the TypeError once the arguments have run, as ``callee_error``."""
    this: Any
    if key is None:
        fn, this = obj, UNDEFINED
    else:
        fn, this = get_member(obj, key), obj
    if type(fn) is JSFunction:
        if type(this) is members.BuiltinProto:
            this = members.builtin_this(this, fn)
        return partial(fn.call, this)
    return partial(callee_error(fn, text), this)


def method_of(obj: Any, key: Any) -> Any:
    """``obj.key`` for a call ``obj.key(...)`` whose arguments may change it, read before they
    run (13.3.6.1: ``o.f((o.f = g, 0))`` calls the old ``f``); ``call_method`` makes the call.
    The lookup is ``invoke``'s."""
    if not PATCHED_REALMS[0]:
        t = type(obj)
        if t is str:
            fn = _STRING_PROTO.get(key)
            if fn is not None:
                return fn
        elif t is list:
            fn = _ARRAY_PROTO.get(key)
            if fn is not None:
                return fn
        elif t is dict:  # an own method (unpatched: no accessors exist)
            fn = obj.get(key)
            if type(fn) is JSFunction:
                return fn
    if foreign(type(obj)):
        obj = plain_value(obj)
    return get_member(obj, key)


def call_method(fn: Any, obj: Any, text: str, *args: Any) -> Any:
    """The call of a method ``method_of`` read, with ``this`` bound as ``invoke`` binds it."""
    if type(fn) is JSFunction:
        t = type(obj)
        if t is members.BuiltinProto:
            obj = members.builtin_this(obj, fn)
        elif foreign(t):  # caller data of a subclass: ``this`` is its plain value
            obj = plain_value(obj)
        return fn.call(obj, *args)
    raise not_callable(text)


def call_this(fn: Any, this: Any, text: str, *args: Any) -> Any:
    """A call whose callee and ``this`` were computed separately (optional calls)."""
    if type(fn) is JSFunction:
        if type(this) is members.BuiltinProto:
            this = members.builtin_this(this, fn)
        return fn.call(this, *args)
    raise not_callable(text)


def invoke(obj: Any, key: Any, text: str, *args: Any) -> Any:
    """``obj.key(...args)``: the method call form, ``this`` = obj.

    Fast path: strings and arrays read their prototype table directly while no realm
    shadows a built-in (``PATCHED_REALMS``); everything else goes through ``get_member``."""
    if not PATCHED_REALMS[0]:
        t = type(obj)
        if t is str:
            fn = _STRING_PROTO.get(key)
            if fn is not None:
                return fn.call(obj, *args)
        elif t is list:
            fn = _ARRAY_PROTO.get(key)
            if fn is not None:
                return fn.call(obj, *args)
        elif t is int or t is float:
            fn = _NUMBER_PROTO.get(key)
            if fn is not None:
                return fn.call(obj, *args)
        elif t is dict or t is _NAMESPACE:  # an own method (unpatched: no accessors exist)
            fn = obj.get(key)
            if type(fn) is JSFunction:
                return fn.call(obj, *args)
        elif t is JSRegExp and obj.props is None:  # (own properties would shadow its methods)
            fn = _REGEXP_PROTO.get(key)
            if type(fn) is JSFunction:
                return fn.call(obj, *args)
        elif t is JSFunction:  # a constructor's static method (Object.keys, Number.isInteger)
            props = obj.props
            if props is not None:
                fn = props.get(key)
                if type(fn) is JSFunction:
                    return fn.call(obj, *args)
    if foreign(type(obj)):  # caller data of a subclass: ``this`` is its plain value
        obj = plain_value(obj)
    fn = get_member(obj, key)
    if type(fn) is JSFunction:
        if type(obj) is members.BuiltinProto:
            obj = members.builtin_this(obj, fn)
        return fn.call(obj, *args)
    raise not_callable(text)


def invoke_arrow(obj: Any, key: str, text: str, fn: Any, length: int, source: str | None, *args: Any) -> Any:
    """``obj.key(arrow, ...args)`` where ``fn`` is the arrow's compiled closure.

    While no realm patches built-ins, an array's callback method (``map``, ``filter``...) is
    the built-in one, which only ever calls the arrow: it runs the closure directly, and the
    function object (which nothing could observe) is never made. Otherwise the arrow becomes
    its ``JSFunction`` and the call is an ordinary ``invoke``."""
    if type(obj) is list and not PATCHED_REALMS[0]:
        plain = _PLAIN_CALLBACKS.get(key)
        if plain is not None:
            return plain(obj, fn, *args)
    return invoke(obj, key, text, JSFunction(fn, "", length, None, "arrow", None, False, source), *args)


PLAIN_CALLBACKS = _PLAIN_CALLBACKS = reg.PLAIN_CALLBACK_METHODS


#: String.prototype's RegExp-taking methods as the built-ins define them (before the protocol
#: wrapper of ``string_protocol``, which a fresh literal RegExp passes straight through)
_PLAIN_REGEXP_METHODS = {
    "replace": string_regex.string_replace, "replaceAll": string_regex.string_replace_all,
    "match": string_regex.string_match, "search": string_regex.string_search, "split": string_regex.string_split,
}


def invoke_regexp(obj: Any, key: str, text: str, source: str, flags: str, *args: Any) -> Any:
    """``obj.key(/source/flags, ...args)``: a string's RegExp method with a literal pattern.

    While no realm patches built-ins, the method is the built-in, and the literal's new RegExp
    object (no own properties, unseen by the script) takes no protocol detour: the built-in
    runs directly. Otherwise this is ``invoke`` with the literal made as usual."""
    if type(obj) is str and not PATCHED_REALMS[0]:
        if key == "replace" and args and type(args[0]) is str:
            done = string_regex.replace_with_literal(obj, source, flags, args[0])
            if done is not None:
                return done
        plain = _PLAIN_REGEXP_METHODS.get(key)
        if plain is not None:
            return plain(obj, regexp_create(source, flags), *args)
    return invoke(obj, key, text, new_regexp(source, flags), *args)


def invoke_opt(obj: Any, key: Any, text: str, *args: Any) -> Any:
    """``obj.key?.(...args)``: undefined when the method is null/undefined."""
    if foreign(type(obj)):
        obj = plain_value(obj)
    fn = get_member(obj, key)
    if fn is None or fn is UNDEFINED:
        return UNDEFINED
    if type(fn) is JSFunction:
        return fn.call(obj, *args)
    raise not_callable(text)


def construct(ctor: Any, text: str, *args: Any) -> Any:
    """``new C(...args)`` (13.3.5.1): built-ins through ``construct``, user functions by
    OrdinaryCreateFromConstructor + Call."""
    if type(ctor) is not JSFunction:
        raise type_error(f"{text} is not a constructor")
    if ctor.construct is not None:
        return ctor.construct(*args)
    if ctor.builtin or ctor.kind in ("arrow", "method", "bound"):
        raise type_error(f"{text} is not a constructor")
    proto = get_member(ctor, "prototype")
    obj = JSObject(proto if members._is_object(proto) else members.OBJECT_PROTOTYPE)
    current_realm().extra.setdefault("new.target", {})[id(obj)] = (obj, ctor)
    result = ctor.call(obj, *args)
    return result if members._is_object(result) else obj


def new_target(this: Any) -> Any:
    """``new.target`` inside a function: the constructor ``construct`` made ``this`` for."""
    made = current_realm().extra.get("new.target")
    entry = made.get(id(this)) if made else None
    return entry[1] if entry is not None and entry[0] is this else UNDEFINED


def spread(value: Any) -> Any:
    """SpreadElement (13.2.4.1): a list (returned as is when already one, unless a script has
    patched a built-in: Array.prototype[Symbol.iterator] may then have changed)."""
    if type(value) is list and not PATCHED_REALMS[0]:
        if len(value) > 64:  # the literal or call copies it: charged in proportion
            realm = current_realm()
            realm.check_array(len(value))
            realm.bulk(len(value))
        return value
    if type(value) is JSSet and not PATCHED_REALMS[0]:
        # [...set]: unpatched, the built-in iterator walks the live cells, and nothing can run
        # between its steps here (no script code), so one pass over them is that walk
        items = [c[0] for c in value.store.cells if c[2]]
    else:
        items = list(members.js_iterate(value))
    realm = current_realm()
    realm.check_array(len(items))
    realm.bulk(len(items))
    return items


def array_within(items: list[Any]) -> list[Any]:
    """An array literal with a spread and more elements (``[...a, ...a]``, ``[...a, x]``):
    each spread was held to the array budget alone, so the whole is held to it here (a
    literal of three spreads of 600,000 items is the budget's RangeError, not 1.8 million).
    Like ``spread``, a literal of at most 64 items is not counted."""
    if len(items) > 64:
        current_realm().check_array(len(items))
    return items


def property_key(v: Any) -> Any:
    """A computed key: ToPropertyKey, canonical string form for numbers."""
    t = type(v)
    if t is str:
        return v
    return to_property_key(v)


def object_spread(*parts: Any) -> dict[str, Any]:
    """An object literal with spread: ``parts`` alternate dict segment, spread source, ...
    (13.2.5.5 PropertyDefinitionEvaluation with CopyDataProperties)."""
    out: dict[str, Any] = {}
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.update(part)
            continue
        if part is None or part is UNDEFINED:
            continue
        if foreign(type(part)):  # caller data of a subclass: its plain value
            part = plain_value(part)
        if type(part) is dict and not (PATCHED_REALMS[0] and meta_of(part) is not None):
            out.update(part)  # integer-like keys are ordered when read, so order is kept
        elif members._is_object(part) or type(part) is str:
            for k in _spread_keys(part):
                out[k] = get_member(part, k)
    return out


def _spread_keys(part: Any) -> list[Any]:
    """The keys CopyDataProperties (7.3.25) copies: the enumerable own string keys in JS
    order, then the enumerable own symbols in the order they were added."""
    keys: list[Any] = members.own_keys(part)
    if members._is_object(part):
        keys += [k for k in members.all_own_keys(part) if type(k) is JSSymbol and flags_of(part, k) & E]
    return keys


def spread_dict(part: Any) -> dict[Any, Any]:
    """``{...x}`` for an x that is not a plain dict: its own enumerable properties
    (CopyDataProperties, 7.3.25); nothing for null/undefined and other primitives but strings."""
    if part is None or part is UNDEFINED:
        return {}
    if foreign(type(part)):  # caller data of a subclass: its plain value
        part = plain_value(part)
    if PATCHED_REALMS[0] and meta_of(part) is not None:
        return {k: get_member(part, k) for k in _spread_keys(part)}
    if type(part) is dict:
        return part
    if isinstance(part, dict) and type(part) is not dict:
        keys: list[Any] = convert.ordered_keys(part)
        return {k: part[k] for k in [*(k for k in keys if type(k) is str), *(k for k in keys if type(k) is JSSymbol)]}
    if members._is_object(part) or type(part) is str:
        return {k: get_member(part, k) for k in _spread_keys(part)}
    return {}


def set_literal_proto(obj: dict[str, Any], proto: Any) -> dict[str, Any]:
    """``{__proto__: p}`` in a literal sets the prototype (B.3.1)."""
    if proto is None or members._is_object(proto):
        members.set_prototype(obj, proto)
    return obj


def array_holes(items: list[Any], holes: tuple[int, ...]) -> list[Any]:
    """An array literal with elisions (``[1, , 3]``): the elided indexes are recorded as holes."""
    m = ensure_meta(items)
    m.holes = Holes(holes)
    return items


def literal_data(obj: dict[str, Any], key: Any, value: Any) -> None:
    """A data member of an object literal that also has accessors (CreateDataPropertyOrThrow)."""
    m = meta_of(obj)
    if m is not None:
        m.accessors.pop(key, None)
        m.flags.pop(key, None)
    if key == "__proto__" and type(key) is str:
        dict.__setitem__(obj, key, value)
        return
    obj[key] = value


def literal_accessor(obj: dict[str, Any], key: Any, fn: Any, kind: str) -> None:
    """``get key() {}`` / ``set key(v) {}`` in an object literal (15.4.5 MethodDefinitionEvaluation):
    an enumerable, configurable accessor that keeps the other half of an earlier one."""
    m = ensure_meta(obj)
    note_accessor(m, obj, key)
    obj.pop(key, None)
    m.flags.pop(key, None)
    old = m.accessors.get(key)
    getter = fn if kind == "get" else (old.get if old is not None else UNDEFINED)
    setter = fn if kind == "set" else (old.set if old is not None else UNDEFINED)
    m.accessors[key] = Accessor(getter, setter)
    m.flags[key] = E | C


def literal_spread(obj: dict[str, Any], source: Any) -> None:
    """``...source`` inside an object literal with accessors (CopyDataProperties, 7.3.25)."""
    for k, v in spread_dict(source).items():
        literal_data(obj, k, v)


def template(*parts: Any) -> str:
    """A template literal (13.2.8.6): strings and ToString of each substitution, joined in
    one step when the result is ASCII (no surrogate halves to join at the seams)."""
    if len(parts) == 1:  # `${x}`: ToString of x, nothing to join
        return to_string(parts[0])
    texts = []
    for p in parts:
        if type(p) is not str:
            if type(p) is JSSymbol:
                raise type_error("Cannot convert a Symbol value to a string")
            p = to_string(p)
        texts.append(p)
    if len(texts) > 1 and sum(map(len, texts)) > _BIG_STRING:  # refused before it is built
        current_realm().check_string(sum(map(len, texts)))
    out = "".join(texts)
    if out.isascii():
        return out
    out = ""
    for p in texts:
        out = concat(out, p)
    return out


_TEMPLATE_CLASS: list[type] = []


def _template_class() -> type:
    """A list subclass for template strings arrays: an array (stdlib's MatchArray, which
    carries extra own properties) whose extra ``raw`` is not enumerable."""
    if not _TEMPLATE_CLASS:
        from .stdlib.regexp import MatchArray

        class TemplateStrings(MatchArray):
            __slots__ = ()

            def js_own_keys(self) -> list[str]:
                return [str(i) for i in range(len(self))]

            def js_all_keys(self) -> list[str]:
                return [str(i) for i in range(len(self))] + ["length"] + list(self.props or ())

            def js_default_flags(self, key: Any) -> int:
                from .properties import ALL, C, W

                return W if key == "length" else W | C if key == "raw" else ALL

        _TEMPLATE_CLASS.append(TemplateStrings)
    return _TEMPLATE_CLASS[0]


def tagged_strings(cooked: tuple[Any, ...], raws: tuple[str, ...], site: Any = None) -> Any:
    """The template strings array (13.2.8.4 GetTemplateObject), frozen, with ``raw``: real
    arrays (``Array.isArray(strs.raw)``), ``raw`` non-enumerable. One per call ``site`` (the
    tagged template's source position) in an evaluation: the realm's [[TemplateMap]]."""
    if site is not None:
        templates = current_realm().extra.setdefault("templates", {})
        cached = templates.get((site, cooked, raws))
        if cached is not None:
            return cached
    cls = _template_class()
    raw = cls(list(raws), MISSING, MISSING, MISSING)
    arr = cls([UNDEFINED if c is None else c for c in cooked], MISSING, MISSING, MISSING)  # None: invalid escape
    arr.props = {"raw": raw}
    members.freeze(arr)
    members.freeze(raw)
    if site is not None:
        templates[(site, cooked, raws)] = arr
    return arr


def forin_keys(obj: Any) -> Iterator[str]:
    """The keys ``for-in`` visits (14.7.5.9 EnumerateObjectProperties): own enumerable keys,
    then those of user-made prototypes; nothing for null/undefined."""
    if obj is None or obj is UNDEFINED:
        return iter(())
    if type(obj) in (int, float, bool, JSSymbol):
        return iter(())
    keys = list(members.own_keys(obj))
    proto = members._dict_proto(obj) if type(obj) is dict else members.get_prototype(obj)
    # a name met once is not visited again, also when its first owner has it non-enumerable
    seen = set(keys) if not PATCHED_REALMS[0] or proto is None else _own_names(obj)
    depth = 0
    while proto is not None and depth < 1000:
        if type(proto) is members.BuiltinProto and not PATCHED_REALMS[0]:
            break  # built-in prototype properties are not enumerable
        for k in members.own_keys(proto) if type(proto) is not members.BuiltinProto else proto.js_own_keys():
            if k not in seen:
                keys.append(k)
        if PATCHED_REALMS[0]:
            seen.update(_own_names(proto) if type(proto) is not members.BuiltinProto else proto.js_own_keys())
        else:
            seen.update(keys)
        proto = proto.parent if type(proto) is members.BuiltinProto else members.get_prototype(proto)
        depth += 1
    return iter(keys)


def _own_names(obj: Any) -> set[Any]:
    """Every own string key, enumerable or not."""
    return {k for k in members.all_own_keys(obj) if type(k) is str}


def assign_member(obj: Any, key: Any, value: Any) -> Any:
    """``obj[key] = value`` as an expression: the value."""
    members.set_member(obj, key, value)
    return value


def assign_member_strict(obj: Any, key: Any, value: Any) -> Any:
    """``obj[key] = value`` in strict code: a refused write is a TypeError (6.2.5.6)."""
    members.set_member(obj, key, value, True)
    return value


def delete_member_strict(obj: Any, key: Any) -> bool:
    """``delete obj[key]`` in strict code: a non-configurable property is a TypeError."""
    return members.delete_member(obj, key, True)


def reference_key(obj: Any, key: Any) -> Any:
    """The key of a member reference read and then written (``o[k] += v``, ``o[k]++``): a
    null or undefined base fails first, and the key is converted once (13.3.3, 6.2.5.5)."""
    if obj is None or obj is UNDEFINED:
        raise type_error(f"Cannot read properties of {'undefined' if obj is UNDEFINED else 'null'}")
    t = type(key)
    if t is str or t is int or t is JSSymbol:
        return key
    return to_property_key(key)


def update_member(obj: Any, key: Any, delta: int, prefix: bool) -> Any:
    """``obj[key]++`` and friends (13.4.2.1): ToNumeric of the old value, then store."""
    key = reference_key(obj, key)
    old = convert.to_numeric(get_member(obj, key))
    new = inc(old) if delta > 0 else dec(old)
    members.set_member(obj, key, new)
    return new if prefix else old


def compound_member(obj: Any, key: Any, op: Any, rhs: Any) -> Any:
    """``obj[key] op= rhs`` where the rhs is already evaluated (no side effects between)."""
    value = op(get_member(obj, key), rhs)
    members.set_member(obj, key, value)
    return value


def new_regexp(pattern: str, flags: str) -> Any:
    """A regular expression literal: a new RegExp object each evaluation (13.2.7.3)."""
    ctor = reg.GLOBALS.get("RegExp")
    if type(ctor) is not JSFunction or ctor.construct is None:
        raise JSThrow(make_error("SyntaxError", "regular expressions are not available"))
    return ctor.construct(pattern, flags)


def rest_object(source: Any, excluded: tuple[str, ...]) -> dict[str, Any]:
    """``{a, ...rest} = source``: CopyDataProperties without the named keys (13.15.5.3)."""
    if source is None or source is UNDEFINED:
        raise type_error(f"Cannot destructure '{to_string(source)}' as it is {to_string(source)}.")
    out: dict[str, Any] = {}
    for k in _spread_keys(source) if members._is_object(source) or type(source) is str else ():
        if k not in excluded:
            out[k] = get_member(source, k)
    return out


def rest_array(it: Iterator[Any]) -> list[Any]:
    """``[a, ...rest] = iterable``: the remaining items."""
    return list(it)


_ = add
