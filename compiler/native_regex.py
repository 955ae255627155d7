"""A conservative JS regex -> Python ``re`` translation for the native tier.

Only a small syntax is accepted, where the two engines agree on ASCII text (native code
feeds these patterns ASCII only): literals, ``.`` (as ``[^\\n\\r]``), ``^``, ``$`` (as ``\\Z``:
Python's ``$`` also matches before a final newline), classes without nested sets, ``\\d \\w
\\s`` and their negations, groups, alternation, and quantifiers that are not nested. Anything
else (backreferences, lookaround, named groups, nested quantifiers, flags beyond ``g``/``i``)
returns None and the script keeps the general tier, whose regex engine has a timeout.

Without a timeout, the input length is bounded instead: with ``q`` unbounded quantifiers the
work is at most about ``n ** (q + 1)`` steps, so the limit keeps that near 10**7.
"""

from __future__ import annotations

import re

__all__ = ["literal_regex", "translate_regex"]

_LITERAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_/:@,;=!~%&'\"<>#`")
_ESCAPABLE = frozenset(".-/\\^$*+?()[]{}|")
_CLASSES = frozenset("dwsDWS")
#: by the number of unbounded quantifiers: (longest input) ** (quantifiers + 1) stays below
#: about 10**7 (a semantic version's three digit runs: ``^v?\d+\.\d+\.\d+$``, on tags of
#: up to 50 characters)
_LIMITS = {0: 1 << 20, 1: 3000, 2: 200, 3: 50, 4: 25}


def translate_regex(pattern: str) -> tuple[str, int] | None:
    """(Python pattern, longest input it may run on), or None when not in the subset."""
    out: list[str] = []
    unbounded = 0
    depth_quantified: list[bool] = [False]  # per open group: does it contain a quantifier?
    i, n = 0, len(pattern)
    last_atom_group = False
    while i < n:
        c = pattern[i]
        last = last_atom_group
        last_atom_group = False
        if c in _LITERAL:
            out.append(c)
        elif c == "\\":
            if i + 1 >= n:
                return None
            e = pattern[i + 1]
            if e in _ESCAPABLE:
                out.append("\\" + e)
            elif e in _CLASSES:
                out.append("\\" + e)
            else:
                return None
            i += 1
        elif c == ".":
            out.append("[^\\n\\r]")
        elif c == "^":
            out.append("^")
        elif c == "$":
            out.append("\\Z")
        elif c == "[":
            end = _class_end(pattern, i)
            if end is None:
                return None
            out.append(pattern[i:end + 1])
            i = end
        elif c == "(":
            if pattern.startswith("(?:", i):
                out.append("(?:")
                i += 2
            elif i + 1 < n and pattern[i + 1] == "?":
                return None
            else:
                out.append("(")
            depth_quantified.append(False)
        elif c == ")":
            if len(depth_quantified) == 1:
                return None
            inner = depth_quantified.pop()
            depth_quantified[-1] = depth_quantified[-1] or inner
            out.append(")")
            last_atom_group = inner
        elif c == "|":
            out.append("|")
            depth_quantified[-1] = True  # (a|aa)+ backtracks exponentially too
        elif c == "?" and last and out[-1] == ")":
            # an optional group holding a quantifier (``(?:(\w+)\.)?``): it runs at most once,
            # so nothing nests; its two ways (in or skipped) count as one more quantifier
            unbounded += 1
            out.append("?")
            if i + 1 < n and pattern[i + 1] == "?":
                out.append("?")
                i += 1
            depth_quantified[-1] = True
        elif c in "*+?{":
            if last or not out or out[-1] in ("(", "(?:", "|", "^"):
                return None  # a quantified group containing a quantifier (or nothing)
            if c == "{":
                end = pattern.find("}", i)
                body = pattern[i + 1:end] if end > 0 else ""
                parts = body.split(",")
                if end < 0 or len(parts) > 2 or not parts[0].isdigit() or (len(parts) == 2 and parts[1] and not parts[1].isdigit()):
                    return None
                if len(parts) == 2 and not parts[1]:
                    unbounded += 1
                out.append(pattern[i:end + 1])
                i = end
            else:
                if c in "*+":
                    unbounded += 1
                out.append(c)
            if i + 1 < n and pattern[i + 1] == "?":
                out.append("?")
                i += 1
            depth_quantified[-1] = True
        else:
            return None
        i += 1
    if len(depth_quantified) != 1 or unbounded not in _LIMITS:
        return None
    translated = "".join(out)
    try:  # Annex B classes such as [\d-z] read differently in Python, which refuses them
        re.compile(translated, re.ASCII)
    except re.error:
        return None
    return translated, _LIMITS[unbounded]


def _class_end(pattern: str, start: int) -> int | None:
    """The index of the ``]`` closing the class at ``start``, if its body is plain."""
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    first = True
    while i < len(pattern):
        c = pattern[i]
        if c == "]" and not first:
            return i
        if c == "]":
            return None  # JS []: matches nothing; Python reads a literal ]
        if c == "[":
            return None
        if c == "\\":
            if i + 1 >= len(pattern) or pattern[i + 1] not in _ESCAPABLE | _CLASSES:
                return None
            i += 1
        elif c not in _LITERAL and c not in ".*+?{}|()$^":
            return None
        if pattern.startswith(("&&", "--", "||", "~~"), i):
            return None
        first = False
        i += 1
    return None


def literal_regex(pattern: str) -> tuple[str, str] | None:
    """``(anchor, text)`` when ``pattern`` matches one fixed ASCII text: anchor is ``"^"``,
    ``"$"``, ``"^$"`` (both) or ``""``. None for anything with a metacharacter."""
    anchor = ""
    if pattern.startswith("^"):
        anchor, pattern = "^", pattern[1:]
    text: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c in _LITERAL:
            text.append(c)
        elif c == "\\" and i + 1 < len(pattern) and pattern[i + 1] in _ESCAPABLE:
            i += 1
            text.append(pattern[i])
        elif c == "$" and i == len(pattern) - 1:
            anchor += "$"
        else:
            return None
        i += 1
    return anchor, "".join(text)
