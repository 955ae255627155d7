"""Function objects: Function.prototype (20.2.3), the Function constructor and eval.

Compiled JS functions are ``JSFunction`` objects whose ``call(this, *args)`` is the Python
closure the compiler made. Code generation from strings (``Function``, ``eval``) is in
``dynamic_code.py``: it compiles through a hook the compiler installs, and is refused with
V8's EvalError text without it.
"""

from __future__ import annotations

from .arguments import JSArguments

from typing import Any

from . import convert, members
from .properties import BUILTIN_ACCESSORS, Accessor
from .realm import current_realm
from .stdlib.registry import FUNCTION_PROTO, GLOBALS, method, native
from .values import UNDEFINED, JSFunction, JSThrow, make_error, type_error

__all__ = ["make_function", "CODEGEN_DISALLOWED", "arguments_object"]

CODEGEN_DISALLOWED = "Code generation from strings disallowed for this context"


#: the code-from-strings operations ("eval", "Function"), registered by ``dynamic_code`` (which
#: the ABI of generated code loads); absent, both throw V8's EvalError
CODE_FROM_STRINGS: dict[str, Any] = {}


def _from_strings(what: str) -> Any:
    impl = CODE_FROM_STRINGS.get(what)
    if impl is None:
        raise JSThrow(make_error("EvalError", CODEGEN_DISALLOWED))
    return impl


def _function_call(_this: Any, *args: Any) -> Any:
    return _from_strings("Function")(*args)


def _function_construct(*args: Any) -> Any:
    return _from_strings("Function")(*args)


def _eval(_this: Any, source: Any = UNDEFINED, *_: Any) -> Any:
    return _from_strings("eval")(source)


FUNCTION_CTOR = native(_function_call, "Function", 1, construct=_function_construct)
EVAL = native(_eval, "eval", 1)
GLOBALS["Function"] = FUNCTION_CTOR
GLOBALS["eval"] = EVAL


def _throw_type_error(_this: Any, *_: Any) -> Any:
    raise type_error("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode "
                     "functions or the arguments objects for calls to them")


#: %ThrowTypeError% (10.2.4.1): one function object, the getter and setter of the restricted
#: ``caller``/``arguments`` of Function.prototype (10.2.4 AddRestrictedFunctionProperties), so
#: that reading or writing them on a function (strict ones never own them) throws
THROW_TYPE_ERROR = native(_throw_type_error, "", 0)
for _restricted in ("caller", "arguments"):
    BUILTIN_ACCESSORS[("Function", _restricted)] = Accessor(THROW_TYPE_ERROR, THROW_TYPE_ERROR)


def make_function(call: Any, name: str, length: int, kind: str) -> JSFunction:
    """A compiled JS function object (``kind``: "arrow" or "function")."""
    return JSFunction(call, name, length, kind=kind)


def arguments_object(args: tuple[Any, ...]) -> list[Any]:
    """The ``arguments`` object (10.4.4): see ``runtime/arguments.py``."""
    return JSArguments(args)


def _require_callable(this: Any, what: str) -> JSFunction:
    if type(this) is not JSFunction:
        raise type_error(f"Function.prototype.{what} called on non-function")
    return this


@method(FUNCTION_PROTO, "call", 1)
def function_call(this: Any, this_arg: Any = UNDEFINED, *args: Any) -> Any:
    """Function.prototype.call (20.2.3.3)."""
    return _require_callable(this, "call").call(this_arg, *args)


@method(FUNCTION_PROTO, "apply", 2)
def function_apply(this: Any, this_arg: Any = UNDEFINED, arg_array: Any = UNDEFINED, *_: Any) -> Any:
    """Function.prototype.apply (20.2.3.1): CreateListFromArrayLike on the second argument."""
    fn = _require_callable(this, "apply")
    if arg_array is None or arg_array is UNDEFINED:
        return fn.call(this_arg)
    if type(arg_array) is list:
        if len(arg_array) > 64:  # the argument list is a copy: charged in proportion
            current_realm().bulk(len(arg_array))
        return fn.call(this_arg, *arg_array)
    if not members._is_object(arg_array):
        raise type_error("CreateListFromArrayLike called on non-object")
    n = convert.to_length(members.get_member(arg_array, "length"))
    current_realm().check_array(n)
    current_realm().bulk(n)
    return fn.call(this_arg, *[members.get_member(arg_array, str(i)) for i in range(n)])


@method(FUNCTION_PROTO, "bind", 1)
def function_bind(this: Any, this_arg: Any = UNDEFINED, *bound: Any) -> JSFunction:
    """Function.prototype.bind (20.2.3.2)."""
    fn = _require_callable(this, "bind")

    def call(_this: Any, *args: Any) -> Any:
        return fn.call(this_arg, *bound, *args)

    length = max(0, fn.length - len(bound))
    return JSFunction(call, f"bound {fn.name}", length, kind="bound")


@method(FUNCTION_PROTO, "toString", 0)
def function_to_string(this: Any, *_: Any) -> str:
    """Function.prototype.toString (20.2.3.5): the source text of compiled functions, the
    NativeFunction form for built-ins and bound functions."""
    fn = _require_callable(this, "toString")
    if fn.source is not None:
        return fn.source
    return f"function {fn.name}() {{ [native code] }}"
