"""Which Unicode version property escapes (``\\p{...}``) answer for: V8's, not the regex package's.

The regex package's tables are a Unicode version newer than the one V8 (node 20's ICU) and
test262 use, which leaves some code points unassigned (``\\p{Cn}``). ``NEWER_ASSIGNED`` lists
the code points the regex package assigns but V8 leaves unassigned; a property escape is
corrected by them: a property that holds unassigned code points (``Cn``, ``C``, script
``Unknown``) gains them, every other property loses them. ``Any`` is left alone.

Regenerate with ``python tests/runtime/stdlib/gen_unicode_newer.py`` (needs node).
"""

from __future__ import annotations

__all__ = ["NEWER_ASSIGNED", "holds_unassigned", "corrected"]

#: code points assigned in the regex package's Unicode tables but not in V8's
NEWER_ASSIGNED: tuple[tuple[int, int], ...] = (
    (0x00558, 0x00558), (0x0058B, 0x0058C), (0x005C8, 0x005C9), (0x00B53, 0x00B54), (0x01ADE, 0x01ADF),
    (0x01AEC, 0x01AF0), (0x0208F, 0x0208F), (0x0209D, 0x0209F), (0x020C2, 0x020C4), (0x02E60, 0x02E63),
    (0x0A7DD, 0x0A7DD), (0x0A7E2, 0x0A7E2), (0x0AB6C, 0x0AB6D), (0x107BB, 0x107BF), (0x10EC9, 0x10ECF),
    (0x10ED9, 0x10EEE), (0x10EF0, 0x10EF9), (0x11B0A, 0x11B0A), (0x11DF0, 0x11DF1), (0x1246F, 0x1246F),
    (0x12475, 0x1247F), (0x12550, 0x12686), (0x18CD6, 0x18CDA), (0x18D1F, 0x18D20), (0x18E00, 0x19191),
    (0x191A0, 0x191D2), (0x1B123, 0x1B128), (0x1B168, 0x1B168), (0x1CED2, 0x1CED4), (0x1CEDD, 0x1CEDF),
    (0x1CEF1, 0x1CEFD), (0x1D127, 0x1D128), (0x1D1EB, 0x1D1FF), (0x1D250, 0x1D281), (0x1D6A6, 0x1D6A6),
    (0x1DB00, 0x1DB1C), (0x1DF1F, 0x1DF24), (0x1DF2B, 0x1DF81), (0x1DF90, 0x1DF96), (0x1DFCD, 0x1DFFF),
    (0x1F1AE, 0x1F1AE), (0x1F6D9, 0x1F6D9), (0x1F7DA, 0x1F7DB), (0x1F7F1, 0x1F7FF), (0x1FA8B, 0x1FA8D),
    (0x1FACC, 0x1FACC), (0x1FADD, 0x1FADD), (0x1FAEB, 0x1FAEB), (0x1FAF9, 0x1FAFA), (0x2B81E, 0x2B81E),
    (0x3D000, 0x3FC3F),
)

_UNASSIGNED_VALUES = frozenset(("Cn", "Unassigned", "C", "Other"))
_UNKNOWN_SCRIPTS = frozenset(("Unknown", "Zzzz"))


def holds_unassigned(body: str) -> bool:
    """Does ``\\p{body}`` hold the unassigned code points (so it gains ``NEWER_ASSIGNED``)?"""
    name, _, value = body.partition("=")
    if not value:
        return name in _UNASSIGNED_VALUES
    if name in ("General_Category", "gc"):
        return value in _UNASSIGNED_VALUES
    return name in ("Script", "sc", "Script_Extensions", "scx") and value in _UNKNOWN_SCRIPTS


def corrected(body: str, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code points of ``\\p{body}`` (``ranges``, from the regex package) in V8's version."""
    from .regexp_charsets import complement, merge

    if body == "Any":
        return ranges
    if holds_unassigned(body):
        return merge(ranges + list(NEWER_ASSIGNED))
    return complement(merge(complement(ranges) + list(NEWER_ASSIGNED)))
