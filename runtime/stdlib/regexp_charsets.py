"""Character sets for the JS regex translator: code-point range lists, JS's \\d \\w \\s
sets, non-u ignoreCase canonicalization (22.2.2.7.3), and their regex-package spelling."""

from __future__ import annotations

import bisect

from ..convert import JS_WHITESPACE
from .string_case import LOWER_DELTA, UPPER_DELTA

MAX_CP = 0x10FFFF


def ranges_of(chars: str) -> list[tuple[int, int]]:
    return merge([(ord(c), ord(c)) for c in chars])


def merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    nxt = 0
    for lo, hi in merge(ranges):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CP:
        out.append((nxt, MAX_CP))
    return out


DIGIT = [(0x30, 0x39)]
WORD = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
SPACE = ranges_of(JS_WHITESPACE)
CLASS_ESCAPES = {
    "d": DIGIT,
    "D": complement(DIGIT),
    "w": WORD,
    "W": complement(WORD),
    "s": SPACE,
    "S": complement(SPACE),
}
WORD_CLASS = "[0-9A-Z_a-z]"
WORD_BOUNDARY = f"(?:(?<={WORD_CLASS})(?!{WORD_CLASS})|(?<!{WORD_CLASS})(?={WORD_CLASS}))"
NOT_WORD_BOUNDARY = f"(?:(?<={WORD_CLASS})(?={WORD_CLASS})|(?<!{WORD_CLASS})(?!{WORD_CLASS}))"
LT_CLASS = "[\\n\\r\\u2028\\u2029]"
CONTROL_ESCAPES = {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13}


#: (groups, sorted cased code points) per mode: False = non-u Canonicalize, True = u (scf)
_FOLDS: dict[bool, tuple[dict[int, tuple[int, ...]], list[int]]] = {}

#: simple case foldings (CaseFolding.txt status S) where the full folding has several
#: characters; every other character's simple folding is its one-character casefold() or
#: itself.
_SCF_SPECIAL = {0x1E9E: 0xDF, 0x1FBC: 0x1FB3, 0x1FCC: 0x1FC3, 0x1FFC: 0x1FF3, 0x1FD3: 0x390, 0x1FE3: 0x3B0, 0xFB05: 0xFB06}
_SCF_SPECIAL.update({hi: hi - 8 for base in (0x1F88, 0x1F98, 0x1FA8) for hi in range(base, base + 8)})


def canonicalize(cp: int) -> int:
    """Canonicalize (22.2.2.7.3) for non-u ignoreCase: toUppercase when that is one code
    unit, except that non-ASCII never maps into ASCII."""
    up = chr(UPPER_DELTA.get(cp, cp)).upper()
    if len(up) != 1:
        return cp
    cu = ord(up)
    if cp >= 128 and cu < 128:
        return cp
    return cu


def simple_fold(cp: int) -> int:
    """Canonicalize for u ignoreCase: Unicode simple case folding (scf)."""
    if cp in LOWER_DELTA:  # characters newer than Python's Unicode data fold to lowercase
        return LOWER_DELTA[cp]
    folded = chr(cp).casefold()
    if len(folded) == 1:
        return ord(folded)
    return _SCF_SPECIAL.get(cp, cp)


def fold_groups(unicode: bool = False) -> dict[int, tuple[int, ...]]:
    """Code point -> every code point with the same canonical value (only when > 1)."""
    return _folds(unicode)[0]


def _folds(unicode: bool) -> tuple[dict[int, tuple[int, ...]], list[int]]:
    hit = _FOLDS.get(unicode)
    if hit is not None:
        return hit
    canon = simple_fold if unicode else canonicalize
    by_canon: dict[int, list[int]] = {}
    for cp in range(0x20000 if unicode else 0x10000):  # no cased characters above U+1FFFF
        key = canon(cp)
        if key != cp:
            by_canon.setdefault(key, [key]).append(cp)
    groups: dict[int, tuple[int, ...]] = {}
    for members in by_canon.values():
        group = tuple(sorted(members))
        for cp in group:
            groups[cp] = group
    result = (groups, sorted(groups))
    _FOLDS[unicode] = result
    return result


def case_close(ranges: list[tuple[int, int]], unicode: bool = False) -> list[tuple[int, int]]:
    """Add every case variant (per the mode's Canonicalize) of the members of ``ranges``."""
    groups, cased = _folds(unicode)
    extra: list[tuple[int, int]] = []
    for lo, hi in ranges:
        i = bisect.bisect_left(cased, lo)
        while i < len(cased) and cased[i] <= hi:
            extra.extend((m, m) for m in groups[cased[i]])
            i += 1
    return merge(ranges + extra) if extra else ranges


def cp_text(cp: int) -> str:
    """One code point as a regex-package escape (safe inside and outside classes)."""
    if cp < 0x80 and (chr(cp).isalnum() or cp == 0x5F):
        return chr(cp)
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def class_text(ranges: list[tuple[int, int]], extra: str = "", negate: bool = False) -> str:
    body = "".join(cp_text(lo) if lo == hi else f"{cp_text(lo)}-{cp_text(hi)}" for lo, hi in ranges)
    if not body and not extra:
        return "[\\x00-\\U0010ffff]" if negate else "(?!)"
    return "[" + ("^" if negate else "") + body + extra + "]"
