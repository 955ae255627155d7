"""atob and btoa over UTF-8, as vCluster's Go helpers do (see shared/oracle/README.md).

Not ECMA-262 (HTML's WindowOrWorkerGlobalScope): ``btoa`` encodes the UTF-8 bytes of
ToString(arg) (a lone surrogate becomes U+FFFD, as node's Buffer does); ``atob`` decodes
forgiving-base64 (WHATWG Infra 4.3) and reads the bytes as UTF-8, with U+FFFD for invalid
sequences. Invalid input throws an ``InvalidCharacterError`` (a DOMException in browsers).
"""

from __future__ import annotations

import base64 as _b64
import binascii
from typing import Any

from ..convert import to_string
from ..realm import current_realm
from ..values import UNDEFINED, JSErrorObject, JSSymbol, JSThrow, type_error
from .registry import GLOBALS, native

__all__ = ["btoa", "atob"]

_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_ASCII_WS = "\t\n\f\r "
_ASCII_WS_SET = frozenset(_ASCII_WS)


def _invalid(message: str) -> JSThrow:
    return JSThrow(JSErrorObject("InvalidCharacterError", message))


def _utf8(s: str) -> bytes:
    if s.isascii():
        return s.encode("ascii")
    try:
        return s.encode("utf-8")  # (refused only where a lone surrogate is: those become U+FFFD)
    except UnicodeEncodeError:
        pass
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s).encode("utf-8")


def _string(v: Any) -> str:
    """``String(v)`` as vCluster's helpers (and the oracle) apply it: a Symbol converts to its
    descriptive string (22.1.1.1 step 2.a) instead of throwing as ToString would."""
    if type(v) is JSSymbol:
        return f"Symbol({'' if v.description is UNDEFINED else v.description})"
    return to_string(v)


def btoa(this: Any, *args: Any) -> str:
    """btoa(data): base64 of the UTF-8 bytes of ToString(data)."""
    if not args:
        raise type_error("btoa requires 1 argument")
    s = args[0]
    data = s.encode("ascii") if type(s) is str and s.isascii() else _utf8(_string(s))
    current_realm().check_string(len(data) * 4 // 3 + 4)  # every built string is checked (and charged)
    return _b64.b64encode(data).decode("ascii")


def _forgiving_decode(s: str) -> bytes:
    """Forgiving-base64 decode (WHATWG Infra): whitespace dropped, padding optional."""
    data = s if _ASCII_WS_SET.isdisjoint(s) else s.translate({ord(c): None for c in _ASCII_WS})
    if len(data) % 4 == 0:
        if data.endswith("=="):
            data = data[:-2]
        elif data.endswith("="):
            data = data[:-1]
    if not _B64_CHARS.issuperset(data):
        raise _invalid("Invalid character")
    if len(data) % 4 == 1:
        raise _invalid("The string to be decoded is not correctly encoded.")
    rem = len(data) % 4
    padded = data + ("=" * (4 - rem) if rem else "")
    try:
        raw = binascii.a2b_base64(padded.encode("ascii"), strict_mode=False)
    except binascii.Error:  # pragma: no cover - input was validated above
        raise _invalid("Invalid character") from None
    return raw


def atob(this: Any, *args: Any) -> str:
    """atob(data): forgiving-base64 decode, bytes read as UTF-8 (U+FFFD when invalid)."""
    if not args:
        raise type_error("atob requires 1 argument")
    raw = _forgiving_decode(_string(args[0]))
    return raw.decode("utf-8", errors="replace")


GLOBALS["btoa"] = native(btoa, "btoa", 1)
GLOBALS["atob"] = native(atob, "atob", 1)
