"""The global environment a script sees (ECMA-262 9.1.1.4 global Environment Record).

Only the standard built-ins registered in ``stdlib.registry.GLOBALS``, ``atob``/``btoa``,
``valueExists`` (a per-call binding the compiler provides), ``virtualToHostDNS`` and
``globalThis`` are visible. Assignments to undeclared names (sloppy mode) create
per-evaluation globals in the realm, so they never leak into another evaluation.
"""

from __future__ import annotations

from typing import Any

from . import functions as _functions  # noqa: F401  (registers Function/eval)
from . import members
from .realm import PATCHED_REALMS, current_realm
from .stdlib.registry import GLOBALS, BuiltinNamespace, native
from .properties import Accessor
from .values import MISSING, UNDEFINED, JSFunction, reference_error, type_error

__all__ = ["global_get", "global_set", "global_typeof", "global_exists", "global_delete", "GLOBAL_OBJECT", "bind_context"]


def _virtual_to_host_dns(this: Any, dns_name: Any = UNDEFINED, *_: Any) -> Any:
    """virtualToHostDNS(name): the host FQDN of a tenant Service, from the call's context."""
    from .names import virtual_to_host_dns  # (only where names.py ships; it remembers names met before)

    context = current_realm().context
    vcluster = context.get("vcluster") if type(context) is dict else None
    if type(vcluster) is not dict:
        vcluster = {}
    name = vcluster.get("name")
    namespace = vcluster.get("namespace")
    if type(name) is not str or type(namespace) is not str:
        raise type_error("virtualToHostDNS needs context.vcluster.name and context.vcluster.namespace")
    try:
        return virtual_to_host_dns(dns_name, vcluster_name=name, vcluster_namespace=namespace)
    except ValueError as exc:
        raise type_error(str(exc)) from None


def _names_available() -> bool:
    """Whether ``names.py`` ships (checked without importing it: it pulls in attrs)."""
    from importlib.util import find_spec

    return find_spec(f"{__package__}.names") is not None


if _names_available():
    GLOBALS.setdefault("virtualToHostDNS", native(_virtual_to_host_dns, "virtualToHostDNS", 1))

GLOBAL_OBJECT = BuiltinNamespace("global", {})
GLOBALS["globalThis"] = GLOBAL_OBJECT


def _fill_global_object() -> None:
    if len(GLOBAL_OBJECT) < len(GLOBALS):
        for name, value in GLOBALS.items():
            dict.setdefault(GLOBAL_OBJECT, name, value)
        dict.setdefault(GLOBAL_OBJECT, "undefined", UNDEFINED)
        dict.setdefault(GLOBAL_OBJECT, "NaN", float("nan"))
        dict.setdefault(GLOBAL_OBJECT, "Infinity", float("inf"))


_fill_global_object()


def bind_context(context: Any) -> None:
    """Record the call's ``context`` for built-ins that need it (virtualToHostDNS)."""
    current_realm().context = context


def _overlay_value(realm: Any, name: str) -> Any:
    """A global written, deleted or defined during this evaluation: it lives on the global
    object's overlay, so ``x = 1`` and ``globalThis.x`` are the same property (9.1.1.4); an
    accessor defined on the global object (``Object.defineProperty(this, "x", {get})``) is
    an ``Accessor`` from its side table."""
    accessor = members._meta_own(GLOBAL_OBJECT, name)
    if accessor is not MISSING:
        return accessor
    overlay = realm.overlay
    if overlay is None:
        return MISSING
    return overlay.get((id(GLOBAL_OBJECT), name), MISSING)


def global_get(name: str) -> Any:
    """Resolve a free identifier (9.1.1.4.6 GetBindingValue): ReferenceError when absent."""
    if PATCHED_REALMS[0]:
        v = _overlay_value(current_realm(), name)
        if v is members._DELETED:
            raise reference_error(f"{name} is not defined")
        if v is not MISSING:
            return v if type(v) is not Accessor else members._call_getter(v, GLOBAL_OBJECT)
    v = GLOBALS.get(name, MISSING)
    if v is MISSING:
        if name == "undefined":
            return UNDEFINED
        # the global object inherits from Object.prototype: a bare hasOwnProperty or
        # constructor resolves through it (9.1.1.2.1 HasBinding of the object record)
        v = members.OBJECT_PROTOTYPE.lookup(name) if name != "__proto__" else members.OBJECT_PROTOTYPE
        if v is MISSING:
            raise reference_error(f"{name} is not defined")
    return v


def global_exists(name: str) -> bool:
    """HasBinding on the global environment (9.1.1.4.1)."""
    if PATCHED_REALMS[0]:
        v = _overlay_value(current_realm(), name)
        if v is not MISSING:
            return v is not members._DELETED
    return name in GLOBALS or name in GLOBAL_OBJECT or name == "__proto__" or members.OBJECT_PROTOTYPE.lookup(name) is not MISSING


def global_delete(name: str) -> bool:
    """``delete name`` of a global (sloppy mode): built-ins are configurable, so the name goes
    away for the rest of this evaluation (never for other evaluations)."""
    if name in ("NaN", "Infinity", "undefined"):
        return False
    return members.delete_member(GLOBAL_OBJECT, name)


def global_typeof(name: str) -> str:
    """``typeof name`` for a free identifier: "undefined" rather than a ReferenceError."""
    if not global_exists(name):
        return "undefined"
    from .convert import typeof

    return typeof(global_get(name))


def global_set(name: str, value: Any, strict: bool = False) -> Any:
    """Assignment to a name no declaration binds: a property of this evaluation's global
    object (PutValue, 6.2.5.6; strict code throws on a read-only or getter-only one)."""
    members.set_member(GLOBAL_OBJECT, name, value, strict)
    return value


def is_function(v: Any) -> bool:
    return type(v) is JSFunction


members.GLOBAL_OBJECT = GLOBAL_OBJECT  # type: ignore[attr-defined]
