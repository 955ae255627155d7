"""The ES standard library inside the sandbox, one module per built-in object.

``load()`` imports every module, which registers its built-ins into the ``registry`` tables.
It runs once ``runtime.members`` is complete (members calls it at its end), because stdlib
modules use the core's member dispatch and the core reads the registry: importing either
side first ends with both fully loaded.
"""

from __future__ import annotations

_loaded = False


def load() -> None:
    """Import every stdlib module once (idempotent); each registers its built-ins as it loads.
    An error in one is an error of the runtime: it propagates."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import (  # noqa: F401 - imported for their registrations
        array,
        base64,
        boolean,
        builtin_accessors,
        collation,
        collections,
        date,
        errors,
        json,
        math,
        number,
        object,
        reflect,
        regexp,
        string,
        string_html,
        string_protocol,
        string_regex,
        symbol,
        uri,
    )


from .. import members as _members  # noqa: E402,F401  (members calls load() when complete)
