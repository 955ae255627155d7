"""Classes (ECMA-262 15.7) and ``super`` (13.3.7): what generated code calls to define a class,
construct an instance and reach the home object's prototype.

A class constructor is a ``JSFunction`` of kind ``"class"``: calling it without ``new`` is a
TypeError, and its ``construct`` is a bound method of the ``ClassInfo`` that holds the compiled
constructor body. The body is ``def body(this, *args, _nt)``, ``_nt`` being new.target
(``super(...)`` passes it on to the parent). A base class gets a fresh object whose
prototype comes from new.target; a derived class gets ``UNINITIALIZED`` until ``super(...)``
returns the object its parent constructor made (10.2.2 [[Construct]], 13.3.7.1).
"""

from __future__ import annotations

from typing import Any, Callable

from . import members
from .convert import to_property_key
from .describe import describe
from .properties import C, W, ensure_meta
from .realm import current_realm
from .values import MISSING, UNDEFINED, JSFunction, JSObject, JSSymbol, reference_error, type_error

__all__ = [
    "UNINITIALIZED", "ClassInfo", "class_info", "make_class", "define_method", "define_field", "construct_with",
    "super_call", "super_get", "super_set", "this_check", "ctor_return", "home_cell", "set_home", "set_fields",
    "super_construct", "bind_this", "super_update", "super_delete",
]


class _Uninitialized:
    """``this`` of a derived constructor before ``super(...)`` returned."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<uninitialized this>"


UNINITIALIZED: Any = _Uninitialized()
_THIS_BEFORE_SUPER = "Must call super constructor in derived class before accessing 'this' or returning from " \
                     "derived constructor"


class ClassInfo:
    """One class: its compiled constructor body (None: the default constructor), whether it
    extends something, and the initializer of its instance fields (None: no fields)."""

    __slots__ = ("fn", "body", "derived", "fields")

    def __init__(self, body: Callable[..., Any] | None, derived: bool) -> None:
        self.fn: JSFunction | None = None
        self.body = body
        self.derived = derived
        self.fields: Callable[[Any], Any] | None = None

    def construct(self, *args: Any) -> Any:
        """``new C(...args)``: new.target is the class itself."""
        assert self.fn is not None
        return self.construct_as(self.fn, args)

    def construct_as(self, new_target: Any, args: tuple[Any, ...]) -> Any:
        """[[Construct]] of a class constructor (10.2.2) with a given new.target."""
        fn = self.fn
        if self.derived:
            this = UNINITIALIZED
            if self.body is None:  # constructor(...args) { super(...args); }
                return super_construct(fn, new_target, args)
        else:
            this = _ordinary_create(new_target)
            if self.fields is not None:
                self.fields(this)
            if self.body is None:
                return this
        assert self.body is not None
        return self.body(this, *args, _nt=new_target)


def class_info(fn: Any) -> ClassInfo | None:
    """The ClassInfo behind a class constructor, or None for any other value."""
    if type(fn) is not JSFunction or fn.kind != "class":
        return None
    owner = getattr(fn.construct, "__self__", None)
    return owner if type(owner) is ClassInfo else None


def _is_constructor(f: Any) -> bool:
    return type(f) is JSFunction and (f.construct is not None or (not f.builtin and f.kind == "function"))


def _ordinary_create(new_target: Any) -> JSObject:
    """OrdinaryCreateFromConstructor (10.1.13): the prototype from new.target."""
    proto = members.get_member(new_target, "prototype")
    return JSObject(proto if members._is_object(proto) else members.OBJECT_PROTOTYPE)


def _not_callable(name: str) -> Callable[..., Any]:
    def call(_this: Any, *_: Any) -> Any:
        raise type_error(f"Class constructor {name} cannot be invoked without 'new'")
    return call


def make_class(body: Callable[..., Any] | None, name: str, length: int, heritage: Any, source: str | None) -> JSFunction:
    """ClassDefinitionEvaluation (15.7.14) up to the elements: the constructor function and its
    prototype object. ``heritage`` is MISSING without ``extends``, else the evaluated value."""
    proto_parent: Any = members.OBJECT_PROTOTYPE
    if heritage is not MISSING:
        if heritage is None:
            proto_parent = None
        elif not _is_constructor(heritage):
            raise type_error(f"Class extends value {describe(heritage)} is not a constructor or null")
        else:
            proto_parent = members.get_member(heritage, "prototype")
            if proto_parent is not None and not members._is_object(proto_parent):
                raise type_error("Class extends value does not have valid prototype property "
                                 f"{describe(proto_parent)}")
    info = ClassInfo(body, heritage is not MISSING)
    proto = JSObject(proto_parent)
    fn = JSFunction(_not_callable(name), name, length, info.construct, "class", {"prototype": proto}, False, source)
    info.fn = fn
    if heritage is not MISSING and heritage is not None:
        members.set_prototype(fn, heritage)
    dict.__setitem__(proto, "constructor", fn)
    ensure_meta(proto).flags["constructor"] = W | C
    return fn


def _function_name(key: Any, prefix: str = "") -> str:
    """SetFunctionName (10.2.9): a symbol key gives ``[description]``."""
    if type(key) is JSSymbol:
        text = "" if key.description is UNDEFINED else f"[{key.description}]"
    else:
        text = str(key)
    return f"{prefix} {text}" if prefix else text


def define_method(target: Any, key: Any, fn: JSFunction, kind: str) -> None:
    """A method or accessor of a class (15.4.4 / 15.4.5 with enumerable false)."""
    from .stdlib.descriptors import define_or_throw

    if type(key) is not str and type(key) is not JSSymbol:
        key = to_property_key(key)
    if kind == "method":
        fn.name = _function_name(key)
        define_or_throw(target, key, {"value": fn, "writable": True, "enumerable": False, "configurable": True})
    else:
        fn.name = _function_name(key, kind)
        define_or_throw(target, key, {kind: fn, "enumerable": False, "configurable": True})


def define_field(target: Any, key: Any, value: Any) -> None:
    """A class field on an instance or the class (7.3.33 DefineField: CreateDataPropertyOrThrow)."""
    from .stdlib.descriptors import define_or_throw

    if type(key) is not str and type(key) is not JSSymbol:
        key = to_property_key(key)
    define_or_throw(target, key, {"value": value, "writable": True, "enumerable": True, "configurable": True})


def set_fields(fn: JSFunction, fields: tuple[tuple[Any, Callable[[Any], Any] | None], ...]) -> None:
    """The instance fields of a class: (key, initializer of ``this`` or None) pairs, defined
    on each new instance in order (7.3.34 InitializeInstanceElements)."""
    info = class_info(fn)
    assert info is not None

    def initialize(this: Any) -> None:
        for key, init in fields:
            define_field(this, key, init(this) if init is not None else UNDEFINED)

    info.fields = initialize


def construct_with(ctor: Any, new_target: Any, args: tuple[Any, ...]) -> Any:
    """Construct(ctor, args, newTarget) (7.3.15) for every kind of constructor."""
    info = class_info(ctor)
    if info is not None:
        return info.construct_as(new_target, args)
    if type(ctor) is not JSFunction:
        raise type_error(f"{members._callee_text(ctor)} is not a constructor")
    if ctor.construct is not None:  # a built-in: its object, then new.target's prototype
        result = ctor.construct(*args)
        if new_target is not ctor:
            proto = members.get_member(new_target, "prototype")
            if members._is_object(proto) and members._is_object(result):
                members.set_prototype(result, proto)
        return result
    if ctor.builtin or ctor.kind in ("arrow", "method", "bound"):
        raise type_error(f"{members._callee_text(ctor)} is not a constructor")
    obj = _ordinary_create(new_target)
    current_realm().extra.setdefault("new.target", {})[id(obj)] = (obj, new_target)
    result = ctor.call(obj, *args)
    return result if members._is_object(result) else obj


def super_construct(cls: Any, new_target: Any, args: tuple[Any, ...]) -> Any:
    """SuperCall (13.3.7.1) up to binding ``this``: the parent constructs, then the class's
    own fields are initialised on the result."""
    parent = members.get_prototype(cls)
    if not _is_constructor(parent):
        raise type_error(f"Super constructor {describe(parent)} of anonymous class is not a constructor")
    result = construct_with(parent, new_target, args)
    info = class_info(cls)
    if info is not None and info.fields is not None:
        info.fields(result)
    return result


def super_call(cls: Any, new_target: Any, *args: Any) -> Any:
    """``super(...args)`` in a derived constructor: the object that becomes ``this`` (the
    compiler passes it to ``bind_this`` together with the current ``this``)."""
    return super_construct(cls, new_target, args)


def bind_this(result: Any, current: Any) -> Any:
    """BindThisValue (9.1.1.3.1): ``this`` may be bound once."""
    if current is not UNINITIALIZED:
        raise reference_error("Super constructor may only be called once")
    return result


def this_check(this: Any) -> Any:
    """``this`` in a derived constructor (9.1.1.3.4 GetThisBinding)."""
    if this is UNINITIALIZED:
        raise reference_error(_THIS_BEFORE_SUPER)
    return this


def ctor_return(value: Any, this: Any, derived: bool) -> Any:
    """The result of a class constructor's body (10.2.2 steps 10-13)."""
    if members._is_object(value):
        return value
    if derived and value is not UNDEFINED:
        raise type_error("Derived constructors may only return object or undefined")
    if this is UNINITIALIZED:
        raise reference_error(_THIS_BEFORE_SUPER)
    return this


def super_get(this: Any, home: Any, key: Any) -> Any:
    """``super[key]`` read: the home object's prototype chain, ``this`` as the receiver."""
    base = members._next_proto(home)
    if base is None:
        raise type_error(f"Cannot read properties of null (reading {members.describe_key(key)})")
    if type(key) is not str and type(key) is not JSSymbol:
        key = to_property_key(key)
    return members._from_proto(base, key, this)


def super_set(this: Any, home: Any, key: Any, value: Any, strict: bool = True) -> Any:
    """``super[key] = value``: an accessor on the prototype chain runs with ``this``; otherwise
    the property is set on ``this`` (10.1.9.2 OrdinarySetWithOwnDescriptor); a refused write
    throws in strict code (class bodies always are) and is dropped in sloppy code."""
    base = members._next_proto(home)
    if base is None:
        raise type_error(f"Cannot set properties of null (setting {members.describe_key(key)})")
    if type(key) is not str and type(key) is not JSSymbol:
        key = to_property_key(key)
    proto = base
    depth = 0
    while proto is not None and depth < 10_000:
        depth += 1
        own = members._get_own(proto, key)
        if own is not MISSING:
            if type(own).__name__ == "Accessor":
                if type(own.set) is not JSFunction:
                    raise type_error(f"Cannot set property {members.describe_key(key)[1:-1]} of "
                                     f"{members._callee_text(this)} which has only a getter")
                own.set.call(this, value)
                return value
            break
        proto = members._next_proto(proto)
    if not members._is_object(this):
        raise type_error(f"Cannot create property {members.describe_key(key)} on {describe(this)}")
    members.set_member(this, key, value, strict)
    return value


def super_update(this: Any, home: Any, key: Any, delta: int, prefix: bool) -> Any:
    """``super[key]++`` and friends (13.4.2.1)."""
    from .convert import to_numeric
    from .ops import dec, inc

    if type(key) is not str and type(key) is not JSSymbol:
        key = to_property_key(key)
    old = to_numeric(super_get(this, home, key))
    new = inc(old) if delta > 0 else dec(old)
    super_set(this, home, key, new)
    return new if prefix else old


def super_delete(this: Any) -> Any:
    """``delete super[key]`` (13.5.1.2 step 5.a): always a ReferenceError."""
    raise reference_error("Unsupported reference to 'super'")


def home_cell() -> list[Any]:
    """A cell for an object literal's HomeObject, filled once the literal exists."""
    return [MISSING]


def set_home(cell: list[Any], obj: Any) -> Any:
    cell[0] = obj
    return obj
