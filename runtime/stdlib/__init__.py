"""The ES standard library inside the sandbox, one module per built-in object.

``load()`` imports every module, which registers its built-ins into the ``registry`` tables.
The stdlib modules use the core's member dispatch (``runtime.members``) and the core reads
the registry tables, so ``load()`` runs after the core is complete: the runtime package's
``__init__`` imports the core, then calls it (this package imports no module at load time).
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
