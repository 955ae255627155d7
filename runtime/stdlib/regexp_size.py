"""The size of the program a regular expression compiles to, bounded before it is compiled.

A counted repeat is compiled by unrolling: ``/(?:a{3000}){3000}/`` (20 characters) becomes a
program of nine million steps, which the regex engine builds in C for tens of seconds, deaf
to every budget, and ``/(?:a{60000}){60000}/`` asks for gigabytes. :func:`program_size`
estimates the unrolled size from the pattern text in one linear scan (an atom or class
counts 1, a group the sum of its alternatives, a counted repeat multiplies what it repeats by
its smallest count, which is what the engine unrolls), and patterns over :data:`MAX_PROGRAM` are refused: at compile time for a
literal (``CompileError``), at run time for ``new RegExp(...)`` (``LimitExceeded``, budget
``regex``).
"""

from __future__ import annotations

import re

__all__ = ["MAX_PROGRAM", "program_size", "too_large"]

#: the largest estimated program compiled (the engine unrolls about 0.4 M steps a second)
MAX_PROGRAM = 100_000
_COUNT = re.compile(r"\{(\d+)(?:,\d*)?\}")
_CAP = MAX_PROGRAM * 1000  # sizes are clamped here: the estimate only has to exceed the limit


def program_size(pattern: str) -> int:
    """An estimate of the compiled program's size (counted repeats unrolled to their minimum)."""
    groups: list[list[int]] = [[0, 0]]  # per open group: [size so far, size of the last atom]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        top = groups[-1]
        if c == "\\":
            end = i + 2
            if end < n and pattern[i + 1] in "pPuk" and pattern[end] in "{<":
                close = pattern.find("}" if pattern[end] == "{" else ">", end)
                end = n if close < 0 else close + 1
            top[0] += 1
            top[1] = 1
            i = end
            continue
        if c == "[":
            i = _class_end(pattern, i + 1)
            top[0] += 1
            top[1] = 1
            continue
        if c == "(":
            groups.append([0, 0])
            i += 1
            if pattern.startswith("?", i):  # (?: (?= (?! (?<= (?<! (?<name>
                i += 1
                if pattern.startswith("<", i) and not pattern.startswith(("<=", "<!"), i):
                    close = pattern.find(">", i)
                    i = n if close < 0 else close + 1
                elif i < n:
                    i += 2 if pattern.startswith(("<=", "<!"), i) else 1
            continue
        if c == ")" and len(groups) > 1:
            size = min(groups.pop()[0] + 2, _CAP)
            top = groups[-1]
            top[0] = min(top[0] + size, _CAP)
            top[1] = size
            i += 1
            continue
        if c == "|":
            top[1] = 0
            i += 1
            continue
        if c == "{":
            m = _COUNT.match(pattern, i)
            if m is not None:
                times = max(int(m.group(1)) if len(m.group(1)) < 12 else _CAP, 1)
                top[0] = min(top[0] + top[1] * (times - 1) + 1, _CAP)
                top[1] = min(top[1] * times, _CAP)
                i = m.end()
                if i < n and pattern[i] == "?":
                    i += 1
                continue
        top[0] += 1
        top[1] = 1
        i += 1
    return sum(g[0] for g in groups)


def _class_end(pattern: str, i: int) -> int:
    """The index after the ``]`` closing a class that opened before ``i`` (nested classes of
    the ``v`` flag included)."""
    depth, n = 1, len(pattern)
    while i < n and depth:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        i += 1
    return i


def too_large(pattern: str) -> str | None:
    """The reason a pattern is refused, or None."""
    size = program_size(pattern)
    if size <= MAX_PROGRAM:
        return None
    return (f"regular expression too large: its counted repeats unroll to about {size:,} steps "
            f"(the limit is {MAX_PROGRAM:,})")
