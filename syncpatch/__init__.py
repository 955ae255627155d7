"""syncpatch: JavaScript patch expressions compiled ahead of time into sandboxed Python closures.

The public API is a contract; other tools drive syncpatch only through the names exported here.
"""

from __future__ import annotations

__all__: list[str] = []
