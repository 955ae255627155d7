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
#: by the number of unbounded quantifiers that count (``_nesting``): (longest input) **
#: (quantifiers + 1) stays below about 10**7 (``\w+\.\w+\.\w+\w``, three runs that can meet
#: the last, on up to 50 characters; a version's ``^v?\d+\.\d+\.\d+$`` counts one)
_LIMITS = {0: 1 << 20, 1: 3000, 2: 200, 3: 50, 4: 25}


def translate_regex(pattern: str, ignore_case: bool = True) -> tuple[str, int] | None:
    """(Python pattern, longest input it may run on), or None when not in the subset.
    ``ignore_case``: the ``i`` flag (character sets are then compared as it reads them)."""
    out: list[str] = []
    unbounded = 0  # (optional groups holding a quantifier; unbounded quantifiers are counted from ``atoms``)
    atoms: list[tuple[str, str]] = []  # (kind, text): what ``_nesting`` reads
    depth_quantified: list[bool] = [False]  # per open group: does it contain a quantifier?
    i, n = 0, len(pattern)
    last_atom_group = False
    while i < n:
        c = pattern[i]
        last = last_atom_group
        last_atom_group = False
        if c in _LITERAL:
            out.append(c)
            atoms.append(("char", c))
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
            atoms.append(("char", out[-1]))
            i += 1
        elif c == ".":
            out.append("[^\\n\\r]")
            atoms.append(("char", out[-1]))
        elif c == "^":
            out.append("^")
            atoms.append(("start", "^"))
        elif c == "$":
            out.append("\\Z")
            atoms.append(("end", "$"))
        elif c == "[":
            end = _class_end(pattern, i)
            if end is None:
                return None
            out.append(pattern[i:end + 1])
            atoms.append(("char", out[-1]))
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
            atoms.append(("open", "("))
        elif c == ")":
            if len(depth_quantified) == 1:
                return None
            inner = depth_quantified.pop()
            depth_quantified[-1] = depth_quantified[-1] or inner
            out.append(")")
            atoms.append(("close", ")"))
            last_atom_group = inner
        elif c == "|":
            out.append("|")
            atoms.append(("alt", "|"))
            depth_quantified[-1] = True  # (a|aa)+ backtracks exponentially too
        elif c == "?" and last and out[-1] == ")":
            # an optional group holding a quantifier (``(?:(\w+)\.)?``): it runs at most once,
            # so nothing nests; its two ways (in or skipped) count as one more quantifier
            unbounded += 1
            out.append("?")
            atoms.append(("quantifier", "?"))
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
                out.append(pattern[i:end + 1])
                atoms.append(("quantifier", out[-1]))
                i = end
            else:
                out.append(c)
                atoms.append(("quantifier", c))
            if i + 1 < n and pattern[i + 1] == "?":
                out.append("?")
                i += 1
            depth_quantified[-1] = True
        else:
            return None
        i += 1
    unbounded += _nesting(atoms, ignore_case)
    if len(depth_quantified) != 1 or unbounded not in _LIMITS:
        return None
    translated = "".join(out)
    try:  # Annex B classes such as [\d-z] read differently in Python, which refuses them
        re.compile(translated, re.ASCII)
    except re.error:
        return None
    return translated, _LIMITS[unbounded]


def _nesting(atoms: list[tuple[str, str]], ignore_case: bool) -> int:
    """How many unbounded quantifiers count toward the ``n ** (q + 1)`` bound. A quantified
    character that must be followed by a character it cannot match (``\\d+\\.``), by the end
    (``\\w+$``) or by nothing at all has one length that lets the rest go on, so it adds its
    run to the work instead of multiplying it: all such quantifiers count as one together.
    Any other (``a+a``, before a group, an alternative or an optional character) counts
    alone."""
    tangled = apart = 0
    for k, (kind, text) in enumerate(atoms):
        if kind != "quantifier" or not _unbounded(text):
            continue
        if atoms[k - 1][0] == "char" and _followed_apart(atoms, k, ignore_case):
            apart = 1
        else:
            tangled += 1
    return tangled + apart


def _unbounded(quantifier: str) -> bool:
    return quantifier[0] in "*+" or quantifier.rstrip("?").endswith(",}")


def _followed_apart(atoms: list[tuple[str, str]], k: int, ignore_case: bool) -> bool:
    """Is the character quantified at ``atoms[k]`` followed (past the brackets of groups
    entered once) by a character of a disjoint set that must match once at least, by the
    end anchor, or by nothing?"""
    j = k + 1
    while j < len(atoms) and atoms[j][0] in ("close", "open"):
        if atoms[j][0] == "close" and _quantified(atoms, j):
            return False  # (a repeated group: the run may meet itself)
        if atoms[j][0] == "open" and not _plain_group(atoms, j):
            return False
        j += 1
    if j == len(atoms):
        return True
    kind, text = atoms[j]
    if kind == "end":
        return True
    if kind != "char":
        return False
    if _quantified(atoms, j) and (atoms[j + 1][1][0] in "*?" or atoms[j + 1][1].startswith(("{0}", "{0,"))):
        return False  # (it may match nothing: what follows it would meet the run)
    return not _ascii_set(atoms[k - 1][1], ignore_case) & _ascii_set(text, ignore_case)


def _quantified(atoms: list[tuple[str, str]], j: int) -> bool:
    return j + 1 < len(atoms) and atoms[j + 1][0] == "quantifier"


def _plain_group(atoms: list[tuple[str, str]], j: int) -> bool:
    """Is the group opened at ``atoms[j]`` entered once, along one way (no alternatives of
    its own, no quantifier after it)?"""
    depth = 0
    for m in range(j, len(atoms)):
        kind = atoms[m][0]
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return not _quantified(atoms, m)
        elif kind == "alt" and depth == 1:
            return False
    return False


def _ascii_set(atom: str, ignore_case: bool) -> frozenset[str]:
    """The ASCII characters one translated character atom matches."""
    compiled = re.compile(atom, re.ASCII | re.IGNORECASE if ignore_case else re.ASCII)
    return frozenset(c for c in map(chr, range(128)) if compiled.fullmatch(c))


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
