"""String.prototype.normalize (22.1.3.15) on top of ``unicodedata``, with the characters
that Python 3.11's Unicode 14 data lacks: their decompositions as node (ICU, Unicode 17)
gives them, found by comparing every code point up to U+2FFFF. Only these characters'
own decompositions and compositions are patched; the canonical ordering of the new
combining marks among themselves is not.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["js_normalize"]

#: canonical decompositions (NFD) of characters newer than Python's Unicode data
CANONICAL: dict[int, str] = {
    0x105C9: "\U000105D2\u0307",
    0x105E4: "\U000105DA\u0307",
    0x11383: "\U00011382\U000113C9",
    0x11385: "\U00011384\U000113BB",
    0x1138E: "\U0001138B\U000113C2",
    0x11391: "\U00011390\U000113C9",
    0x113C5: "\U000113C2\U000113C2",
    0x113C7: "\U000113C2\U000113B8",
    0x113C8: "\U000113C2\U000113C9",
    0x16121: "\U0001611E\U0001611E",
    0x16122: "\U0001611E\U00016129",
    0x16123: "\U0001611E\U0001611F",
    0x16124: "\U00016129\U0001611F",
    0x16125: "\U0001611E\U00016120",
    0x16126: "\U0001611E\U0001611E\U0001611F",
    0x16127: "\U0001611E\U00016129\U0001611F",
    0x16128: "\U0001611E\U0001611E\U00016120",
    0x16D68: "\U00016D67\U00016D67",
    0x16D69: "\U00016D63\U00016D67",
    0x16D6A: "\U00016D63\U00016D67\U00016D67",
}
#: compatibility decompositions (NFKD) that differ from the canonical ones
COMPATIBILITY: dict[int, str] = {
    0xA7F1: "S",
    0x1CCD6: "A",
    0x1CCD7: "B",
    0x1CCD8: "C",
    0x1CCD9: "D",
    0x1CCDA: "E",
    0x1CCDB: "F",
    0x1CCDC: "G",
    0x1CCDD: "H",
    0x1CCDE: "I",
    0x1CCDF: "J",
    0x1CCE0: "K",
    0x1CCE1: "L",
    0x1CCE2: "M",
    0x1CCE3: "N",
    0x1CCE4: "O",
    0x1CCE5: "P",
    0x1CCE6: "Q",
    0x1CCE7: "R",
    0x1CCE8: "S",
    0x1CCE9: "T",
    0x1CCEA: "U",
    0x1CCEB: "V",
    0x1CCEC: "W",
    0x1CCED: "X",
    0x1CCEE: "Y",
    0x1CCEF: "Z",
    0x1CCF0: "0",
    0x1CCF1: "1",
    0x1CCF2: "2",
    0x1CCF3: "3",
    0x1CCF4: "4",
    0x1CCF5: "5",
    0x1CCF6: "6",
    0x1CCF7: "7",
    0x1CCF8: "8",
    0x1CCF9: "9",
    0x1E030: "\u0430",
    0x1E031: "\u0431",
    0x1E032: "\u0432",
    0x1E033: "\u0433",
    0x1E034: "\u0434",
    0x1E035: "\u0435",
    0x1E036: "\u0436",
    0x1E037: "\u0437",
    0x1E038: "\u0438",
    0x1E039: "\u043A",
    0x1E03A: "\u043B",
    0x1E03B: "\u043C",
    0x1E03C: "\u043E",
    0x1E03D: "\u043F",
    0x1E03E: "\u0440",
    0x1E03F: "\u0441",
    0x1E040: "\u0442",
    0x1E041: "\u0443",
    0x1E042: "\u0444",
    0x1E043: "\u0445",
    0x1E044: "\u0446",
    0x1E045: "\u0447",
    0x1E046: "\u0448",
    0x1E047: "\u044B",
    0x1E048: "\u044D",
    0x1E049: "\u044E",
    0x1E04A: "\uA689",
    0x1E04B: "\u04D9",
    0x1E04C: "\u0456",
    0x1E04D: "\u0458",
    0x1E04E: "\u04E9",
    0x1E04F: "\u04AF",
    0x1E050: "\u04CF",
    0x1E051: "\u0430",
    0x1E052: "\u0431",
    0x1E053: "\u0432",
    0x1E054: "\u0433",
    0x1E055: "\u0434",
    0x1E056: "\u0435",
    0x1E057: "\u0436",
    0x1E058: "\u0437",
    0x1E059: "\u0438",
    0x1E05A: "\u043A",
    0x1E05B: "\u043B",
    0x1E05C: "\u043E",
    0x1E05D: "\u043F",
    0x1E05E: "\u0441",
    0x1E05F: "\u0443",
    0x1E060: "\u0444",
    0x1E061: "\u0445",
    0x1E062: "\u0446",
    0x1E063: "\u0447",
    0x1E064: "\u0448",
    0x1E065: "\u044A",
    0x1E066: "\u044B",
    0x1E067: "\u0491",
    0x1E068: "\u0456",
    0x1E069: "\u0455",
    0x1E06A: "\u045F",
    0x1E06B: "\u04AB",
    0x1E06C: "\uA651",
    0x1E06D: "\u04B1",
}

_NFD_TABLE = {k: v for k, v in CANONICAL.items()}
_NFKD_TABLE = {**_NFD_TABLE, **COMPATIBILITY}
_COMPOSE = sorted(((v, chr(k)) for k, v in CANONICAL.items()), key=lambda kv: -len(kv[0]))
_TRIGGER = re.compile(
    "[" + "".join(sorted({chr(k) for k in _NFKD_TABLE} | {v[0] for v in CANONICAL.values()})) + "]"
)


def js_normalize(s: str, form: str) -> str:
    """``s.normalize(form)`` as V8 computes it (form is NFC, NFD, NFKC or NFKD)."""
    if s.isascii():
        return s
    if not _TRIGGER.search(s):
        return unicodedata.normalize(form, s)  # type: ignore[arg-type]
    compat = form in ("NFKC", "NFKD")
    s = s.translate(_NFKD_TABLE if compat else _NFD_TABLE)
    out = unicodedata.normalize("NFKD" if compat else "NFD", s)
    if form in ("NFC", "NFKC"):
        out = unicodedata.normalize(form, out)  # type: ignore[arg-type]
        for seq, composed in _COMPOSE:
            if seq in out:
                out = out.replace(seq, composed)
    return out
