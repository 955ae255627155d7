"""RegExp objects (ECMA-262 22.2) on top of the `regex` package.

Interfaces other parts of the engine use:

- ``make_regexp(source, flags) -> JSRegExp``: what generated code calls for a regex literal
  ``/source/flags`` (``source`` exactly as written between the slashes). Compiled patterns
  are cached by ``(source, flags)``; every call returns a fresh object (``lastIndex`` is per
  object).
- ``validate_pattern(source, flags) -> str | None``: the compiler's early check of a regex
  literal: V8's SyntaxError message, or None when the literal is valid.
- ``JSRegExp`` follows the special-class protocol of docs/engine.md (``JS_CLASS``,
  ``JS_PROTO``, ``js_get_own``/``js_set_own``/``js_own_keys``). ``lastIndex`` is an own data
  property; ``source``, ``flags``, ``global``... are prototype accessors in JS and are served
  by ``js_get_own`` too. Other property writes are kept in ``props``.
- ``MatchArray(list)``: the array ``exec``/``match``/``matchAll`` return. It IS the JS array
  (elements are the match and captures, ``UNDEFINED`` for a capture that did not take part);
  ``index``, ``input``, ``groups`` (and ``indices`` under ``d``) are own properties served by
  ``js_get_own``, which also serves indexes and ``length`` (``JS_PROTO`` is Array.prototype),
  so member dispatch works through the special-class path. Code that tests arrays with
  ``type(x) is list`` (JSON.stringify, ToPrimitive) should use ``isinstance(x, list)``.
"""

from __future__ import annotations

import bisect
import re
from typing import Any, Iterator

from ..convert import is_array_index, to_length, to_string
from ..realm import current_realm
from ..strings import from_units, has_astral, js_len, to_units
from ..errors import LimitExceeded
from ..values import MISSING, UNDEFINED, JSFunction, JSObject, syntax_error, type_error
from .registry import ARRAY_PROTO, GLOBALS, native
from .regexp_size import too_large
from .regexp_syntax import PatternError, Translation, translate

__all__ = [
    "JSRegExp",
    "MatchArray",
    "make_regexp",
    "validate_pattern",
    "regexp_create",
    "regexp_exec",
    "Subject",
    "exec_raw",
    "build_match",
    "search_raw",
    "group_span",
    "global_matches",
    "run_pattern",
    "SAFE_LENGTH",
]

_FLAG_ORDER = "dgimsuvy"
_FLAG_PROPS = {
    "hasIndices": "d",
    "global": "g",
    "ignoreCase": "i",
    "multiline": "m",
    "dotAll": "s",
    "unicode": "u",
    "unicodeSets": "v",
    "sticky": "y",
}
_CANONICAL_FLAGS = frozenset(("", "g", "i", "gi", "m", "gm", "im", "gim", "u", "gu", "iu", "giu", "s", "y", "gy"))
_cache: dict[tuple[str, str], tuple[Any, Translation]] = {}
_CACHE_MAX = 512


def _flags_error(flags: str) -> str | None:
    if any(f not in _FLAG_ORDER for f in flags) or len(set(flags)) != len(flags):
        return "Invalid regular expression flags"
    if "u" in flags and "v" in flags:
        return "Invalid regular expression flags"
    return None


def _compile(source: str, flags: str) -> tuple[Any, Translation]:
    """Translate and compile (cached); raises PatternError with V8's message."""
    key = (source, flags)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    err = _flags_error(flags)
    if err is not None:
        raise PatternError(err)
    big = too_large(source)
    if big is not None:  # its compilation would run in C, deaf to every budget
        raise LimitExceeded(f"Invalid regular expression: /{source}/{flags}: {big}", budget="regex")
    try:
        tr = translate(source, flags)
    except PatternError as exc:
        raise PatternError(f"Invalid regular expression: /{source}/{flags}: {exc}") from None
    import regex  # lazy: ~40 ms of start-up, only on a cache miss

    rflags = regex.V0  # ignoreCase, multiline and dotAll are spelled out by the translator
    try:
        compiled = regex.compile(tr.pattern, rflags)
    except regex.error as exc:
        raise PatternError(f"Invalid regular expression: /{source}/{flags}: {exc}") from None
    tr.gnum = [0] + [compiled.groupindex[f"g{i}"] for i in range(1, tr.ncaps + 1)]
    if tr.safe and not tr.enclosing:
        tr.fast = _fast_compile(tr.pattern)
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    _cache[key] = (compiled, tr)
    return compiled, tr


def _fast_compile(pattern: str) -> Any:
    """The stdlib ``re`` compiles most bounded patterns too and calls into them several times
    faster than ``regex`` (no timeout is needed for them on short subjects); None when it
    cannot (variable-width lookbehind, ``\\p{...}``)."""
    try:
        return re.compile(pattern)
    except (re.error, OverflowError):
        return None


def validate_pattern(source: str, flags: str) -> str | None:
    """The compile-time check of a regex literal: an error message, or None if valid."""
    try:
        _compile(source, flags)
    except PatternError as exc:
        return str(exc)
    return None


class JSRegExp:
    """A RegExp instance (22.2.3.1 RegExpInitialize)."""

    __slots__ = ("source", "flags", "compiled", "tr", "last_index", "props")
    JS_CLASS = "RegExp"
    JS_PROTO: dict[str, JSFunction] = {}

    def __init__(self, source: str, flags: str) -> None:
        self.compiled, self.tr = _compile(source, flags)
        self.source = source
        self.flags = flags if flags in _CANONICAL_FLAGS else "".join(f for f in _FLAG_ORDER if f in flags)
        self.last_index: Any = 0
        self.props: dict[str, Any] | None = None

    def has(self, flag: str) -> bool:
        return flag in self.flags

    def accessor_value(self, key: str) -> Any:
        """What the RegExp.prototype getter ``key`` (source, flags, global...) answers for
        this instance (22.2.6): they are accessors of the prototype, not own properties."""
        if key == "source":
            return self.source or "(?:)"
        if key == "flags":
            return self.flags
        flag = _FLAG_PROPS.get(key)
        return UNDEFINED if flag is None else flag in self.flags

    def js_get_own(self, key: Any) -> Any:
        if key == "lastIndex":
            return self.last_index
        if self.props is not None and key in self.props:
            return self.props[key]
        return MISSING

    def js_set_own(self, key: Any, value: Any) -> bool:
        if key == "lastIndex":
            self.last_index = value
            return True
        if (key == "source" or key == "flags" or key in _FLAG_PROPS) and not (self.props and key in self.props):
            return True  # the inherited accessor has no setter: the write is ignored (sloppy mode)
        return self.js_define_own(key, value)

    def js_define_own(self, key: Any, value: Any) -> bool:
        """An own data property made by [[DefineOwnProperty]] (it may shadow a getter)."""
        if key == "lastIndex":
            self.last_index = value
            return True
        if self.props is None:
            self.props = {}
        self.props[key] = value
        return True

    def js_own_keys(self) -> list[str]:
        return list(self.props) if self.props else []

    def __repr__(self) -> str:
        return f"/{self.source}/{self.flags}"


class MatchArray(list[Any]):
    """The array of a successful match with its extra own properties (see module doc).

    Besides ``index``/``input``/``groups``/``indices`` its ``js_get_own`` also answers
    element indexes and ``length``, and ``JS_PROTO`` is Array.prototype, so it behaves as an
    array even through the generic special-class path of member dispatch.
    """

    __slots__ = ("match_index", "match_input", "groups", "indices", "props")
    JS_CLASS = "Array"
    JS_PROTO = ARRAY_PROTO

    def __init__(self, items: list[Any], index: Any, input: Any, groups: Any, indices: Any = MISSING) -> None:
        super().__init__(items)
        self.match_index = index
        self.match_input = input
        self.groups = groups
        self.indices = indices
        self.props: dict[str, Any] | None = None

    def js_get_own(self, key: Any) -> Any:
        if type(key) is int:
            return self[key] if 0 <= key < len(self) else MISSING
        if type(key) is not str:
            return MISSING
        if key == "length":
            return len(self)
        if key[:1].isdigit() and is_array_index(key):
            i = int(key)
            return self[i] if i < len(self) else MISSING
        if self.props is not None and key in self.props:
            return self.props[key]
        if key in _MATCH_KEYS:
            return self._match_props()[key]
        return MISSING

    def _match_props(self) -> dict[str, Any]:
        return {"index": self.match_index, "input": self.match_input, "groups": self.groups, "indices": self.indices}

    def js_set_own(self, key: Any, value: Any) -> bool:
        if type(key) is str and key[:1].isdigit() and is_array_index(key):
            key = int(key)
        if type(key) is int:
            if key < len(self):
                self[key] = value
            else:
                self.extend([UNDEFINED] * (key - len(self)))
                self.append(value)
            return True
        if key == "length":
            n = to_length(value)
            if n < len(self):
                del self[n:]
            else:
                self.extend([UNDEFINED] * (n - len(self)))
            return True
        if self.props is None:
            self.props = {}
        self.props[key] = value
        return True

    def js_own_keys(self) -> list[str]:
        keys = [str(i) for i in range(len(self))]
        keys += [k for k, v in self._match_props().items() if v is not MISSING]
        if self.props:
            keys += [k for k in self.props if k not in keys]
        return keys

    def js_iterator(self) -> Iterator[Any]:
        return iter(self)


_MATCH_KEYS = ("index", "input", "groups", "indices")


# --- matching -------------------------------------------------------------------------------

class Subject:
    """A subject string in the form the pattern runs on, with UTF-16 index mapping.

    Non-u patterns run on the unit form (indexes are already UTF-16); u patterns run on the
    canonical form, whose indexes are code points and are mapped when the text is astral.
    """

    __slots__ = ("s", "text", "unicode", "mapped", "_cum", "ulen")

    def __init__(self, s: str, unicode: bool) -> None:
        self.s = s
        self.unicode = unicode
        astral = not s.isascii() and has_astral(s)
        self.text = s if (unicode or not astral) else to_units(s)
        self.mapped = unicode and astral
        self._cum: list[int] | None = None
        self.ulen = js_len(s) if astral else len(s)

    def _table(self) -> list[int]:
        if self._cum is None:
            cum = [0]
            n = 0
            for ch in self.text:
                n += 2 if ch > "\uffff" else 1
                cum.append(n)
            self._cum = cum
        return self._cum

    def to_unit(self, i: int) -> int:
        """Work-text index -> UTF-16 index."""
        return self._table()[i] if self.mapped else i

    def to_work(self, u: int) -> int:
        """UTF-16 index -> work-text index (a unit inside a pair maps to the pair's start)."""
        if not self.mapped:
            return u
        cum = self._table()
        return bisect.bisect_right(cum, u) - 1

    def piece(self, a: int, b: int) -> str:
        """The canonical string between two work indexes."""
        t = self.text[a:b]
        return t if self.text is self.s else from_units(t)


#: subjects up to this length skip the timeout for patterns whose backtracking is bounded
SAFE_LENGTH = 64


def run_pattern(compiled: Any, text: str, pos: int, sticky: bool, tr: Translation) -> Any:
    """One search (or anchored match) from ``pos``, under the regex budget when needed."""
    if tr.safe and len(text) <= SAFE_LENGTH:
        fast: Any = tr.fast or compiled
        return fast.match(text, pos) if sticky else fast.search(text, pos)
    timeout = current_realm().regex_timeout()
    try:
        if sticky:
            return compiled.match(text, pos, timeout=timeout)
        return compiled.search(text, pos, timeout=timeout)
    except TimeoutError:
        raise LimitExceeded(
            f"regular expression took longer than {timeout:g} s (regex budget)", budget="regex", js_name="LimitExceeded"
        ) from None


def search_raw(rx: JSRegExp, subj: Subject, work_pos: int, sticky: bool) -> Any:
    """Run the pattern from a work index; the regex Match or None. No lastIndex effects."""
    return run_pattern(rx.compiled, subj.text, work_pos, sticky, rx.tr)


def exec_raw(rx: JSRegExp, subj: Subject) -> Any:
    """RegExpBuiltinExec (22.2.7.2) up to the match: lastIndex rules for g/y applied."""
    glob = "g" in rx.flags
    sticky = "y" in rx.flags
    if glob or sticky:
        last = to_length(rx.last_index)
        if last > subj.ulen:
            rx.last_index = 0
            return None
    else:
        last = 0
    m = run_pattern(rx.compiled, subj.text, subj.to_work(last), sticky, rx.tr)
    if m is None:
        if glob or sticky:
            rx.last_index = 0
        return None
    if glob or sticky:
        rx.last_index = subj.to_unit(m.end())
    return m


def group_span(tr: Translation, m: Any, i: int) -> tuple[int, int]:
    """The span of JS capture ``i`` (-1, -1 when undefined). Inside a quantified atom JS
    keeps only what the last iteration captured, and drops an empty iteration past the
    minimum (22.2.2.3.1 RepeatMatcher); the wrappers' per-iteration spans recover that."""
    enclosing = tr.enclosing.get(i)
    if enclosing is None:
        return m.span(tr.gnum[i])  # type: ignore[no-any-return]
    lo, hi = 0, len(m.string)  # not m.span(): lookarounds capture outside the match
    dropped = -1
    for wrapper, minimum in enclosing:
        iters = [sp for sp in m.spans(wrapper) if lo <= sp[0] and sp[1] <= hi]
        dropped = -1
        while len(iters) > minimum and iters[-1][0] == iters[-1][1]:
            dropped = iters.pop()[0]
        if not iters:
            return -1, -1
        lo, hi = iters[-1]
    caps = [sp for sp in m.spans(tr.gnum[i]) if lo <= sp[0] and sp[1] <= hi]
    if caps and dropped >= 0 and caps[-1] == (dropped, dropped):
        caps.pop()
    return caps[-1] if caps else (-1, -1)


def build_match(rx: JSRegExp, subj: Subject, m: Any) -> MatchArray:
    """The JS match array for a regex Match (22.2.7.2 steps 19 and on)."""
    n = rx.tr.ncaps
    items: list[Any] = [subj.piece(m.start(), m.end())]
    tr = rx.tr
    for i in range(1, n + 1):
        a, b = group_span(tr, m, i)
        items.append(UNDEFINED if a < 0 else subj.piece(a, b))
    groups: Any = UNDEFINED
    if rx.tr.names:
        groups = JSObject(None)
        for name, idx in sorted(rx.tr.names.items(), key=lambda kv: kv[1]):
            groups[name] = items[idx]
    indices: Any = MISSING
    if "d" in rx.flags:
        pairs: list[Any] = []
        for i in range(n + 1):
            a, b = group_span(tr, m, i) if i else m.span()
            pairs.append(UNDEFINED if a < 0 else [subj.to_unit(a), subj.to_unit(b)])
        igroups: Any = UNDEFINED
        if rx.tr.names:
            igroups = JSObject(None)
            for name, idx in sorted(rx.tr.names.items(), key=lambda kv: kv[1]):
                igroups[name] = pairs[idx]
        indices = MatchArray(pairs, MISSING, MISSING, igroups)
    return MatchArray(items, subj.to_unit(m.start()), subj.s, groups, indices)


def regexp_exec(rx: JSRegExp, s: str) -> Any:
    """RegExpBuiltinExec: a MatchArray or None (JS null)."""
    subj = Subject(s, "u" in rx.flags or "v" in rx.flags)
    m = exec_raw(rx, subj)
    return None if m is None else build_match(rx, subj, m)


def global_matches(rx: JSRegExp, subj: Subject) -> list[Any]:
    """All matches of a global regexp as @@match/@@replace collect them (22.2.6.8 step 6,
    22.2.6.11 step 11): from index 0, an empty match advances by one code unit (one code
    point under u), a sticky one stops at the first gap. Ends with lastIndex = 0."""
    compiled = rx.compiled
    text = subj.text
    n = len(text)
    sticky = "y" in rx.flags
    realm = current_realm()
    found: list[Any] = []
    pos = 0
    if rx.tr.safe and n <= SAFE_LENGTH:
        fast: Any = rx.tr.fast or compiled
        run = fast.match if sticky else fast.search
        while pos <= n:
            m = run(text, pos)
            if m is None:
                break
            realm.charge(1)
            found.append(m)
            end = m.end()
            pos = end + 1 if end == m.start() else end
        rx.last_index = 0
        return found
    timeout = realm.regex_timeout()
    try:
        while pos <= n:
            m = compiled.match(text, pos, timeout=timeout) if sticky else compiled.search(text, pos, timeout=timeout)
            if m is None:
                break
            realm.charge(1)
            found.append(m)
            end = m.end()
            pos = end + 1 if end == m.start() else end
    except TimeoutError:
        raise LimitExceeded(
            f"regular expression took longer than {timeout:g} s (regex budget)", budget="regex", js_name="LimitExceeded"
        ) from None
    rx.last_index = 0
    return found


# --- constructor and prototype -------------------------------------------------------------

def _escape_source(src: str) -> str:
    """EscapeRegExpPattern (22.2.6.13.1): '/' and line terminators escaped as V8 shows them."""
    if not src:
        return "(?:)"
    out = []
    in_class = False
    i = 0
    while i < len(src):
        c = src[i]
        if c == "\\" and i + 1 < len(src):
            out.append(src[i : i + 2] if src[i + 1] not in "\n\r\u2028\u2029" else "\\" + _LT_ESC[src[i + 1]][1:])
            i += 2
            continue
        if c == "/" and not in_class:
            out.append("\\/")
        elif c in _LT_ESC:
            out.append(_LT_ESC[c])
        else:
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            out.append(c)
        i += 1
    return "".join(out)


_LT_ESC = {"\n": "\\n", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029"}


_created: dict[tuple[str, str], str] = {}  # (pattern string, flags) -> escaped source


def regexp_create(pattern: Any, flags: Any) -> JSRegExp:
    """RegExpCreate (22.2.3.2) from JS values: SyntaxError at run time on a bad pattern."""
    if type(pattern) is str and type(flags) is str:
        src = _created.get((pattern, flags))
        if src is not None:  # seen before (regex literals come this way too): valid, cached
            return make_regexp(src, flags)
        rx = _regexp_create(pattern, flags)
        if len(_created) >= _CACHE_MAX:
            _created.clear()
        _created[(pattern, flags)] = rx.source
        return rx
    return _regexp_create(pattern, flags)


def _regexp_create(pattern: Any, flags: Any) -> JSRegExp:
    if isinstance(pattern, JSRegExp):
        src = pattern.source
        fl = pattern.flags if flags is UNDEFINED else to_string(flags)
    else:
        src = "" if pattern is UNDEFINED else _escape_source(to_string(pattern))
        fl = "" if flags is UNDEFINED else to_string(flags)
        if src == "(?:)":
            src = ""
    err = _flags_error(fl)
    if err is not None:
        raise syntax_error(f"Invalid flags supplied to RegExp constructor '{fl}'")
    try:
        return JSRegExp(src, fl)
    except PatternError as exc:
        raise syntax_error(str(exc)) from None


_new_regexp = object.__new__


def make_regexp(source: str, flags: str) -> JSRegExp:
    """A fresh RegExp object for the literal ``/source/flags`` (validated at compile time)."""
    hit = _cache.get((source, flags))
    if hit is None or flags not in _CANONICAL_FLAGS:
        try:
            return JSRegExp(source, flags)
        except PatternError as exc:
            raise syntax_error(str(exc)) from None
    rx: JSRegExp = _new_regexp(JSRegExp)
    rx.compiled, rx.tr = hit
    rx.source = source
    rx.flags = flags
    rx.last_index = 0
    rx.props = None
    return rx


def _this_regexp(this: Any, name: str) -> JSRegExp:
    if not isinstance(this, JSRegExp):
        raise type_error(f"Method RegExp.prototype.{name} called on incompatible receiver {_describe(this)}")
    return this


def _describe(v: Any) -> str:
    if type(v) is str:
        return v
    try:
        return to_string(v)
    except Exception:  # noqa: BLE001 - only for an error message
        return "[object Object]"


def regexp_proto_exec(this: Any, string: Any = UNDEFINED, *_: Any) -> Any:
    """RegExp.prototype.exec (22.2.6.2)."""
    rx = _this_regexp(this, "exec")
    return regexp_exec(rx, to_string(string))


def regexp_proto_test(this: Any, string: Any = UNDEFINED, *_: Any) -> bool:
    """RegExp.prototype.test (22.2.6.16)."""
    rx = _this_regexp(this, "test")
    s = to_string(string)
    return exec_raw(rx, Subject(s, "u" in rx.flags or "v" in rx.flags)) is not None


def regexp_proto_to_string(this: Any, *_: Any) -> str:
    """RegExp.prototype.toString (22.2.6.17): generic over ``source`` and ``flags``."""
    if isinstance(this, JSRegExp):
        return f"/{this.source or '(?:)'}/{this.flags}"
    t = type(this)
    if t is str or t is int or t is float or t is bool or this is None or this is UNDEFINED:
        raise type_error("RegExp.prototype.toString requires that 'this' be an Object")
    from ..members import get_member

    return f"/{to_string(get_member(this, 'source'))}/{to_string(get_member(this, 'flags'))}"


def regexp_ctor(this: Any, pattern: Any = UNDEFINED, flags: Any = UNDEFINED, *_: Any) -> JSRegExp:
    """RegExp called as a function (22.2.4.1): returns a regexp argument itself when no
    flags are given."""
    if isinstance(pattern, JSRegExp) and flags is UNDEFINED:
        return pattern
    return regexp_create(pattern, flags)


def regexp_construct(pattern: Any = UNDEFINED, flags: Any = UNDEFINED, *_: Any) -> JSRegExp:
    """``new RegExp(pattern, flags)`` (22.2.4.1): always a new object."""
    return regexp_create(pattern, flags)


def _register() -> None:
    proto = JSRegExp.JS_PROTO
    proto["exec"] = native(regexp_proto_exec, "exec", 1)
    proto["test"] = native(regexp_proto_test, "test", 1)
    proto["toString"] = native(regexp_proto_to_string, "toString", 0)
    # source, flags and the flag getters are accessors (stdlib/builtin_accessors.py)
    from ..members import get_prototype  # complete by now: the stdlib loads after it

    # the core makes a class's prototype object lazily, from its first instance
    props = {"prototype": get_prototype(object.__new__(JSRegExp))}
    GLOBALS["RegExp"] = native(regexp_ctor, "RegExp", 2, construct=regexp_construct, props=props)


_register()
