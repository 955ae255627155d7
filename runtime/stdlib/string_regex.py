"""The regex-aware String.prototype methods (ECMA-262 22.1.3): match, matchAll, replace,
replaceAll, search, split, with the RegExp.prototype[@@match/@@replace/@@search/@@split]
algorithms (22.2.6) inlined, since user-defined Symbol.* protocols are not modelled.

Results are assembled from pieces that may be in unit form or canonical form and joined
with one ``from_units`` pass, which re-joins any surrogate halves that meet.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, cast

from ..convert import to_length, to_string, to_uint32
from ..realm import PATCHED_REALMS, current_realm
from ..strings import from_units, has_astral
from ..values import UNDEFINED, JSFunction, JSIterator, type_error
from .registry import STRING_PROTO, method, native
from .regexp import (
    JSRegExp,
    Subject,
    build_match,
    exec_raw,
    group_span,
    run_pattern,
    SAFE_LENGTH,
    global_matches,
    regexp_create,
    regexp_exec,
    search_raw,
)
from .string import this_string, units_of
from .symbol import WELL_KNOWN

__all__ = ["get_substitution"]


def _join(pieces: list[str]) -> str:
    total = sum(len(p) for p in pieces)
    current_realm().check_string(total)
    out = "".join(pieces)
    return out if out.isascii() else from_units(out)


def _is_digit(c: str) -> bool:
    return "0" <= c <= "9"


def get_substitution(matched: str, su: str, position: int, captures: list[Any], groups: Any, template: str) -> str:
    """GetSubstitution (22.1.3.19.1), V8's ``$nn`` rules: two digits when that names a
    capture, else one digit, else literal. ``su`` is the subject in unit form and
    ``position`` a unit index; the result may mix forms (the caller joins)."""
    if "$" not in template:
        return template
    m = len(captures)
    out: list[str] = []
    i = 0
    n = len(template)
    while i < n:
        c = template[i]
        if c != "$" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nxt = template[i + 1]
        if nxt == "$":
            out.append("$")
            i += 2
        elif nxt == "&":
            out.append(matched)
            i += 2
        elif nxt == "`":
            out.append(su[:position])
            i += 2
        elif nxt == "'":
            out.append(su[min(position + len(units_of(matched)), len(su)) :])
            i += 2
        elif _is_digit(nxt):
            i = _dollar_digits(template, i, captures, m, out)
        elif nxt == "<" and groups is not UNDEFINED:
            i = _dollar_name(template, i, groups, out)
        else:
            out.append("$")
            i += 1
    return "".join(out)


def _dollar_name(template: str, i: int, groups: Any, out: list[str]) -> int:
    """``$<name>`` at template[i] (named groups exist); returns the next index."""
    end = template.find(">", i + 2)
    if end < 0:
        out.append("$<")
        return i + 2
    name = template[i + 2 : end]
    if type(groups) is dict:
        value = groups.get(name, UNDEFINED)
    else:  # a result object of a user exec (22.2.6.11): Get(namedCaptures, name)
        from .array_support import members

        value = members().get_member(groups, name)
    if value is not UNDEFINED:
        out.append(to_string(value))
    return end + 1


def _dollar_digits(template: str, i: int, captures: list[Any], m: int, out: list[str]) -> int:
    """``$n``/``$nn`` at template[i]; appends the expansion and returns the next index."""
    if i + 2 < len(template) and _is_digit(template[i + 2]):
        nn = int(template[i + 1 : i + 3])
        if 1 <= nn <= m:
            cap = captures[nn - 1]
            if cap is not UNDEFINED:
                out.append(cap)
            return i + 3
    d = int(template[i + 1])
    if 1 <= d <= m:
        cap = captures[d - 1]
        if cap is not UNDEFINED:
            out.append(cap)
        return i + 2
    out.append("$")
    return i + 1


# --- replace ------------------------------------------------------------------------------

def _regexp_replace(rx: JSRegExp, s: str, replace_value: Any) -> str:
    """RegExp.prototype[@@replace] (22.2.6.11)."""
    functional = type(replace_value) is JSFunction
    template = "" if functional else to_string(replace_value)
    subj = Subject(s, "u" in rx.flags or "v" in rx.flags)
    if "g" in rx.flags:
        found = global_matches(rx, subj)
    else:
        m = exec_raw(rx, subj)
        found = [] if m is None else [m]
    if not found:
        return s
    su = units_of(s)
    pieces: list[str] = []
    next_pos = 0
    simple = not functional and "$" not in template
    for m in found:
        start, end = subj.to_unit(m.start()), subj.to_unit(m.end())
        if simple:
            replacement = template
        else:
            replacement = _replacement(rx, subj, m, su, start, replace_value if functional else template)
        if start >= next_pos:
            pieces.append(su[next_pos:start])
            pieces.append(replacement)
            next_pos = end
    pieces.append(su[next_pos:])
    return _join(pieces)


def _replacement(rx: JSRegExp, subj: Subject, m: Any, su: str, position: int, replace: Any) -> str:
    """The replacement text of one match: a replacer call or GetSubstitution."""
    res = build_match(rx, subj, m)
    matched = res[0]
    captures = list(res[1:])
    if type(replace) is JSFunction:
        args = [matched, *captures, position, subj.s]
        if res.groups is not UNDEFINED:
            args.append(res.groups)
        return to_string(replace.call(UNDEFINED, *args))
    return get_substitution(matched, su, position, captures, res.groups, replace)


_LAZY_OR_ALT = re.compile(r"[*+?}]\?|\|")


def _plain_replace(rx: JSRegExp, s: str, template: str) -> str | None:
    """The common cases of @@replace, without match objects: a template with no ``$`` on a
    BMP subject, non-sticky; None when the general algorithm is needed."""
    flags = rx.flags
    if "y" in flags:
        return None
    if "g" not in flags:
        m = run_pattern(rx.compiled, s, 0, False, rx.tr)
        if m is None:
            return s
        out = s[: m.start()] + template + s[m.end() :]
    else:
        fast: Any = rx.tr.fast
        if fast is None or len(s) > SAFE_LENGTH or not rx.tr.safe or _LAZY_OR_ALT.search(rx.source):
            # re.sub lets a non-empty match start where an empty one did; JS moves on
            # ('aaa'.replace(/a*?/g, 'X') is 'XaXaXaX'): lazy quantifiers and alternations
            # (which may prefer an empty match) take the general algorithm
            return None
        rx.last_index = 0
        # re.sub treats empty matches as JS does (an empty match right after a match counts)
        out = fast.sub(template if "\\" not in template else (lambda _m: template), s)
    if len(out) > 1 << 20:
        current_realm().check_string(len(out))
    return out if out.isascii() else from_units(out)


def _string_replace(s: str, search: Any, replace_value: Any, all_: bool) -> str:
    """String.prototype.replace/replaceAll with a string pattern (22.1.3.19, 22.1.3.20)."""
    needle = units_of(to_string(search))
    functional = type(replace_value) is JSFunction
    template = "" if functional else to_string(replace_value)
    su = units_of(s)
    positions: list[int] = []
    pos = su.find(needle)
    advance = max(len(needle), 1)
    while pos >= 0:
        positions.append(pos)
        if not all_:
            break
        current_realm().charge(1)
        pos = su.find(needle, pos + advance) if pos + advance <= len(su) else -1
    if not positions:
        return s
    matched = from_units(needle) if not needle.isascii() else needle
    pieces: list[str] = []
    end = 0
    for p in positions:
        pieces.append(su[end:p])
        if functional:
            pieces.append(to_string(replace_value.call(UNDEFINED, matched, p, s)))
        else:
            pieces.append(get_substitution(matched, su, p, [], UNDEFINED, template))
        end = p + len(needle)
    pieces.append(su[end:])
    return _join(pieces)


#: (source, flags) of a RegExp literal -> the compiled pattern ``replace_with_literal`` runs
#: itself, or None where only the general algorithm answers as JS does
_LITERAL_REPLACE: dict[tuple[str, str], Any] = {}
_UNSEEN = object()


def replace_with_literal(s: str, source: str, flags: str, template: str) -> str | None:
    """``s.replace(/source/flags, template)`` for a str ``s`` and a RegExp literal, while no
    realm patches built-ins: what ``string_replace`` answers on its fast paths, without the
    literal's fresh RegExp object (nothing can see it: no own properties, and a global
    replace only resets its lastIndex). None where ``string_replace`` must run: a ``$`` in
    the template, astral text, a long subject, flags other than none or ``g``, a pattern
    that is not safe for Python's engine, or a global one with a lazy quantifier or ``|``."""
    if "$" in template or len(s) > SAFE_LENGTH or not (s.isascii() or not has_astral(s)):
        return None
    key = (source, flags)
    fast: Any = _LITERAL_REPLACE.get(key, _UNSEEN)
    if fast is _UNSEEN:
        rx = regexp_create(source, flags)
        tr = rx.tr
        fast = tr.fast if tr.safe and (flags == "" or (flags == "g" and not _LAZY_OR_ALT.search(rx.source))) else None
        if len(_LITERAL_REPLACE) >= 512:
            _LITERAL_REPLACE.clear()
        _LITERAL_REPLACE[key] = fast
    if fast is None:
        return None
    if flags:
        out = fast.sub(template if "\\" not in template else (lambda _m: template), s)
        if len(out) > 1 << 20:
            current_realm().check_string(len(out))
    else:
        m = fast.search(s)
        if m is None:
            return s
        out = s[: m.start()] + template + s[m.end() :]
    return out if out.isascii() else from_units(out)


@method(STRING_PROTO, "replace", 2)
def string_replace(this: Any, search: Any = UNDEFINED, replace_value: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.replace (22.1.3.19)."""
    s = this if type(this) is str else this_string(this, "replace")
    if type(search) is JSRegExp:
        if type(replace_value) is str and "$" not in replace_value and (s.isascii() or not has_astral(s)):
            tr = search.tr
            if tr.safe and len(s) <= SAFE_LENGTH and tr.fast is not None and search.flags == "":
                m = tr.fast.search(s)  # the commonest shape: /^prefix-/ on a short value
                if m is None:
                    return s
                out = s[: m.start()] + replace_value + s[m.end() :]
                return out if out.isascii() else from_units(out)
            done = _plain_replace(search, s, replace_value)
            if done is not None:
                return done
        return _regexp_replace(search, s, replace_value)
    if isinstance(search, JSRegExp):
        return _regexp_replace(search, s, replace_value)
    return _string_replace(s, search, replace_value, False)


@method(STRING_PROTO, "replaceAll", 2)
def string_replace_all(this: Any, search: Any = UNDEFINED, replace_value: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.replaceAll (22.1.3.20): a regex pattern must be global."""
    if this is None or this is UNDEFINED:
        raise type_error("String.prototype.replaceAll called on null or undefined")
    if isinstance(search, JSRegExp):
        if "g" not in search.flags:
            raise type_error("String.prototype.replaceAll called with a non-global RegExp argument")
        return _regexp_replace(search, this_string(this, "replaceAll"), replace_value)
    return _string_replace(this_string(this, "replaceAll"), search, replace_value, True)


# --- match, matchAll, search ----------------------------------------------------------------

@method(STRING_PROTO, "match", 1)
def string_match(this: Any, regexp: Any = UNDEFINED, *_: Any) -> Any:
    """String.prototype.match (22.1.3.13) with RegExp.prototype[@@match] (22.2.6.8)."""
    s = this_string(this, "match")
    rx = regexp if isinstance(regexp, JSRegExp) else regexp_create(regexp, UNDEFINED)
    if "g" not in rx.flags:
        return regexp_exec(rx, s)
    subj = Subject(s, "u" in rx.flags or "v" in rx.flags)
    found = [subj.piece(m.start(), m.end()) for m in global_matches(rx, subj)]
    return found if found else None


@method(STRING_PROTO, "matchAll", 1)
def string_match_all(this: Any, regexp: Any = UNDEFINED, *_: Any) -> JSIterator:
    """String.prototype.matchAll (22.1.3.14) with RegExp.prototype[@@matchAll] (22.2.6.9):
    the pattern is cloned (with its lastIndex), and matches are produced lazily."""
    s = this_string(this, "matchAll")
    if isinstance(regexp, JSRegExp):
        if "g" not in regexp.flags:
            raise type_error("String.prototype.matchAll called with a non-global RegExp argument")
        rx = JSRegExp(regexp.source, regexp.flags)
        rx.last_index = to_length(regexp.last_index)
    else:
        rx = regexp_create(regexp, "g")
    return JSIterator(_match_all(rx, s), "RegExp String Iterator")


def _builtin_match_all(s: str, rx: JSRegExp, *_: Any) -> JSIterator:
    """RegExp.prototype[Symbol.matchAll] (22.2.6.9) on an unpatched RegExp: a non-global one
    gives at most one match."""
    clone = JSRegExp(rx.source, rx.flags)
    clone.last_index = to_length(rx.last_index)
    if "g" in rx.flags:
        return JSIterator(_match_all(clone, s), "RegExp String Iterator")
    return JSIterator(_first_match(clone, s), "RegExp String Iterator")


def _first_match(rx: JSRegExp, s: str) -> Iterator[Any]:
    found = regexp_exec(rx, s)
    if found is not None:
        yield found


def _match_all(rx: JSRegExp, s: str) -> Iterator[Any]:
    subj = Subject(s, "u" in rx.flags or "v" in rx.flags)
    while True:
        m = exec_raw(rx, subj)
        if m is None:
            return
        current_realm().charge(1)
        if m.end() == m.start():
            w = m.end()
            rx.last_index = subj.to_unit(w + 1) if w < len(subj.text) else subj.ulen + 1
        yield build_match(rx, subj, m)


@method(STRING_PROTO, "search", 1)
def string_search(this: Any, regexp: Any = UNDEFINED, *_: Any) -> int:
    """String.prototype.search (22.1.3.21) with RegExp.prototype[@@search] (22.2.6.12)."""
    s = this_string(this, "search")
    rx = regexp if isinstance(regexp, JSRegExp) else regexp_create(regexp, UNDEFINED)
    previous = rx.last_index
    rx.last_index = 0
    subj = Subject(s, "u" in rx.flags or "v" in rx.flags)
    m = exec_raw(rx, subj)
    rx.last_index = previous
    return -1 if m is None else subj.to_unit(m.start())


# --- split --------------------------------------------------------------------------------

def _regexp_split(rx: JSRegExp, s: str, limit: Any) -> list[Any]:
    """RegExp.prototype[@@split] (22.2.6.14). The spec retries a sticky match at every
    position; a forward search finds the same first match, so it is used instead."""
    lim = 2**32 - 1 if limit is UNDEFINED else to_uint32(limit)
    if lim == 0:
        return []
    subj = Subject(s, "u" in rx.flags or "v" in rx.flags)
    size = len(subj.text)
    if size == 0:
        return [] if search_raw(rx, subj, 0, True) is not None else [s]
    out: list[Any] = []
    realm = current_realm()
    p = q = 0
    while q < size:
        m = search_raw(rx, subj, q, False)
        if m is None or m.start() >= size:
            break
        realm.charge(1)
        e = min(m.end(), size)
        if e == p:
            q = m.start() + 1
            continue
        out.append(subj.piece(p, m.start()))
        if len(out) == lim:
            return out
        for i in range(1, rx.tr.ncaps + 1):
            a, b = group_span(rx.tr, m, i)
            out.append(UNDEFINED if a < 0 else subj.piece(a, b))
            if len(out) == lim:
                return out
        p = q = e
    out.append(subj.piece(p, size))
    return out


@method(STRING_PROTO, "split", 2)
def string_split(this: Any, separator: Any = UNDEFINED, limit: Any = UNDEFINED, *_: Any) -> list[Any]:
    """String.prototype.split (22.1.3.23)."""
    if type(this) is str and len(this) > 4096:
        current_realm().bulk(len(this))  # the split copies every character
    if type(this) is str and type(separator) is str and separator and limit is UNDEFINED and this.isascii():
        parts = this.split(separator)  # the common case: ASCII text, a string separator
        if len(parts) > 1024:
            current_realm().check_array(len(parts))
        return parts
    if isinstance(separator, JSRegExp):
        return _regexp_split(separator, this_string(this, "split"), limit)
    s = this_string(this, "split")
    lim = 2**32 - 1 if limit is UNDEFINED else to_uint32(limit)
    sep = to_string(separator) if separator is not UNDEFINED else None
    if lim == 0:
        return []
    if sep is None:
        return [s]
    su = units_of(s)
    if not su:
        return [] if not sep else [s]
    if not sep:
        current_realm().check_array(min(len(su), lim))
        return list(su[:lim])
    parts = su.split(units_of(sep))
    del parts[lim:]
    current_realm().check_array(len(parts))
    if su is not s:
        parts = [from_units(p) for p in parts]
    return parts


# --- RegExp.prototype[Symbol.match/matchAll/replace/search/split] (22.2.6) --------------------

#: the spec's step-by-step Symbol.match/replace/search by name, for RegExp-like receivers;
#: ``regexp_generic`` registers them (it uses ``get_substitution`` from here)
GENERIC_SYMBOL_METHODS: dict[str, Any] = {}


def _symbol_method(name: str, string_method: Any) -> Any:
    def regexp_symbol_method(this: Any, string: Any = UNDEFINED, *args: Any) -> Any:
        generic = GENERIC_SYMBOL_METHODS.get(name)
        if generic is not None and (type(this) is not JSRegExp or PATCHED_REALMS[0] or this.props):
            return generic(this, string, *args)  # the spec's steps, through properties
        if not isinstance(this, JSRegExp):
            raise type_error(f"Method RegExp.prototype[Symbol.{name}] called on incompatible receiver")
        return string_method(to_string(string), this, *args)

    regexp_symbol_method.__doc__ = f"RegExp.prototype[Symbol.{name}] (22.2.6)."
    return native(regexp_symbol_method, f"[Symbol.{name}]", 2 if name in ("replace", "split") else 1)


for _name, _fn in (("match", string_match), ("matchAll", _builtin_match_all), ("replace", string_replace),
                   ("search", string_search), ("split", string_split)):
    cast("dict[Any, Any]", JSRegExp.JS_PROTO)[WELL_KNOWN[_name]] = _symbol_method(_name, _fn)
