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
#: under u+i, WordCharacters also holds U+017F and U+212A (22.2.2.9.3)
UWORD_CLASS = "[0-9A-Z_a-z\\u017f\\u212a]"


def boundary(word_class: str, negate: bool) -> str:
    """``\\b`` (or ``\\B``) for a word-character class."""
    w = word_class
    if negate:
        return f"(?:(?<={w})(?={w})|(?<!{w})(?!{w}))"
    return f"(?:(?<={w})(?!{w})|(?<!{w})(?={w}))"


WORD_BOUNDARY = boundary(WORD_CLASS, False)
NOT_WORD_BOUNDARY = boundary(WORD_CLASS, True)
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


#: \\p{...} names V8 accepts alone or as a General_Category value (case-sensitive)
GENERAL_CATEGORIES = frozenset(
    "Cased_Letter LC Close_Punctuation Pe Connector_Punctuation Pc Control Cc cntrl Currency_Symbol "
    "Sc Dash_Punctuation Pd Decimal_Number Nd digit Enclosing_Mark Me Final_Punctuation Pf Format "
    "Cf Initial_Punctuation Pi Letter L Letter_Number Nl Line_Separator Zl Lowercase_Letter Ll Mark "
    "M Combining_Mark Math_Symbol Sm Modifier_Letter Lm Modifier_Symbol Sk Nonspacing_Mark Mn "
    "Number N Open_Punctuation Ps Other C Other_Letter Lo Other_Number No Other_Punctuation Po "
    "Other_Symbol So Paragraph_Separator Zp Private_Use Co Punctuation P punct Separator Z "
    "Space_Separator Zs Spacing_Mark Mc Surrogate Cs Symbol S Titlecase_Letter Lt Unassigned Cn "
    "Uppercase_Letter Lu".split()
)
#: binary Unicode properties of ECMA-262 table 69 (and their aliases)
BINARY_PROPERTIES = frozenset(
    "ASCII ASCII_Hex_Digit AHex Alphabetic Alpha Any Assigned Bidi_Control Bidi_C Bidi_Mirrored "
    "Bidi_M Case_Ignorable CI Cased Changes_When_Casefolded CWCF Changes_When_Casemapped CWCM "
    "Changes_When_Lowercased CWL Changes_When_NFKC_Casefolded CWKCF Changes_When_Titlecased CWT "
    "Changes_When_Uppercased CWU Dash Default_Ignorable_Code_Point DI Deprecated Dep Diacritic Dia "
    "Emoji Emoji_Component EComp Emoji_Modifier EMod Emoji_Modifier_Base EBase Emoji_Presentation "
    "EPres Extended_Pictographic ExtPict Extender Ext Grapheme_Base Gr_Base Grapheme_Extend Gr_Ext "
    "Hex_Digit Hex IDS_Binary_Operator IDSB IDS_Trinary_Operator IDST ID_Continue IDC ID_Start IDS "
    "Ideographic Ideo Join_Control Join_C Logical_Order_Exception LOE Lowercase Lower Math "
    "Noncharacter_Code_Point NChar Pattern_Syntax Pat_Syn Pattern_White_Space Pat_WS Quotation_Mark "
    "QMark Radical Regional_Indicator RI Sentence_Terminal STerm Soft_Dotted SD "
    "Terminal_Punctuation Term Unified_Ideograph UIdeo Uppercase Upper Variation_Selector VS "
    "White_Space space XID_Continue XIDC XID_Start XIDS".split()
)
