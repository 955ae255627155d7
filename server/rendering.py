"""How a stored Config is shown to a client: masked unless revealed, cached per version.

Masking parses `spec.raw` (and the last-applied annotation); doing that on every read made a
large Config cost seconds per GET. A stored object never changes under the same
(uid, resourceVersion), so its masked rendering is computed once and kept in a small LRU
bounded by entries and by the size of the raw configs it holds. Only reads use the cache:
write answers (dry runs included) are rendered afresh.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from typing import Any
from urllib.parse import unquote

from syncpatch.platformconfig.masking import mask_credentials

from .model_adapter import MASK, mask_object

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
CACHE_ENTRIES = 4096
CACHE_BYTES = 64 * 1024 * 1024


def present(obj: dict[str, Any], reveal: bool) -> dict[str, Any]:
    """An object as a client may see it: secrets masked unless an admin asked to reveal.

    The last-applied annotation is kept byte for byte when masking changes nothing in it,
    so that `kubectl apply` of an unchanged manifest finds nothing to change."""
    if reveal:
        return obj
    out = mask_object(obj)
    annotations = out.get("metadata", {}).get("annotations") or {}
    text = annotations.get(LAST_APPLIED)
    if isinstance(text, str):
        annotations[LAST_APPLIED] = _mask_last_applied(text)
    return out


def _mask_last_applied(text: str) -> str:
    try:
        applied = json.loads(text)
    except ValueError:
        return MASK  # anything unparseable is hidden whole
    if not isinstance(applied, dict):
        return text
    try:
        masked = mask_object(applied)
    except Exception:  # noqa: BLE001 - a malformed annotation is hidden, not a 500
        return MASK
    if masked == applied:
        return text
    return json.dumps(masked, separators=(",", ":")) + ("\n" if text.endswith("\n") else "")


_BEARER_KEY = re.compile(r"sp\.[0-9a-f]{16}\.[A-Za-z0-9_-]+")


def redact_query(query: str) -> str:
    """A query string fit for logs: access keys and secret-named parameters masked."""
    return mask_credentials(_BEARER_KEY.sub(MASK, unquote(query)))


class RenderCache:
    """Masked renderings by (uid, resourceVersion); safe to use from worker threads.

    Callers must not modify what they get back: the same dict answers many reads."""

    def __init__(self, entries: int = CACHE_ENTRIES, max_bytes: int = CACHE_BYTES) -> None:
        self._items: OrderedDict[tuple[str, str], tuple[dict[str, Any], int]] = OrderedDict()
        self._lock = threading.Lock()
        self._entries, self._max_bytes, self._bytes = entries, max_bytes, 0
        self.hits = self.misses = 0

    def masked(self, obj: dict[str, Any]) -> dict[str, Any]:
        meta = obj.get("metadata") or {}
        key = (str(meta.get("uid", "")), str(meta.get("resourceVersion", "")))
        if not all(key):
            return present(obj, False)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return found[0]
            self.misses += 1
        shown = present(obj, False)
        size = _weight(obj)
        with self._lock:
            if key not in self._items:
                self._items[key] = (shown, size)
                self._bytes += size
            while self._items and (len(self._items) > self._entries or self._bytes > self._max_bytes):
                _key, (_obj, dropped) = self._items.popitem(last=False)
                self._bytes -= dropped
        return shown

    def show(self, obj: dict[str, Any], reveal: bool) -> dict[str, Any]:
        return obj if reveal else self.masked(obj)


def _weight(obj: dict[str, Any]) -> int:
    """Approximate bytes held: the raw config dominates, twice (spec.raw and last-applied)."""
    raw = (obj.get("spec") or {}).get("raw")
    return 1024 + 3 * (len(raw) if isinstance(raw, str) else 0)
