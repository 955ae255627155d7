"""The single import surface of generated code (both the in-process closures and the
``compile-patches`` artifact), with the native tier's helpers in ``native.py``. A name in
either is a promise: renaming or changing the meaning of one requires bumping ``ABI_VERSION``,
and artifacts built for another version are refused.
"""

from __future__ import annotations

import math
import re
from functools import partial
from typing import Any, Callable

from . import callops, classes, convert, globals as _globals, members, ops
from .functions import arguments_object as arguments_object  # re-exported: generated code calls it
from .arguments import mapped_arguments as mapped_arguments, param_set as param_set  # mapped arguments
from .dynamic_code import direct_eval as direct_eval, register_script_env as register_script_env  # code from strings
from .dynamic_code import eval_var_declare as eval_var_declare, eval_var_scope as eval_var_scope  # eval's vars
from .realm import PATCHED_REALMS
from .stdlib.registry import GLOBALS as GLOBALS  # re-exported for artifacts
from .stdlib.registry import BuiltinNamespace
from .values import JSFunction as JSFunction  # re-exported: generated code builds functions
from .with_scope import with_base as with_base, with_delete as with_delete, with_get as with_get  # `with` bodies
from .with_scope import with_eval as with_eval, with_object as with_object, with_set as with_set, with_this as with_this
from .values import MISSING as MISSING, UNDEFINED, JSThrow, make_error, reference_error, type_error

ABI_VERSION = 12  # 2: the native tier's helpers (runtime/native.py); 3: the with-statement and class helpers; 4: eval's var holders; 5: native result checks where results are made (SPREAD_OUT, KEYS_OUT), the native range, invoke_arrow, invoke_regexp, callee_error; 6: native SORT_COLLATED, MATCH_GROUP, URI_ENCODE, URI_DECODE, PARSE_INT_RADIX, REGEX_SPLIT, MATCH_ARRAY, SORTED_KEYS, KNOWN_ASCII_KEYS, FLAT_ONE, NUMBER_TYPES and sorted
# 7: native JS_ITEMS (Object.entries unpacked, in JS order, picked at C speed)
#    native STR_KEYS (Object.keys(d).length without ordering the keys)
#    the general tier fused into its public call (CompiledFunction.fused and its factory's parameters)
#    native NUMBER_VALUE, ADD_NUMBERS, SUBTRACT_NUMBERS, MULTIPLY_NUMBERS, DIVIDE_NUMBERS, SORT_ORDERED,
#    REGEX_SUB_EXPANDED and the builtins zip, reversed
# 8: BUILTIN_CALLS and bound_callee (the general tier's calls of built-in globals and their functions)
#    native DICT_GET (dict.get unbound: member reads of untested objects, dict subclasses by their own storage)
#    native UNEQUAL_TEXT, UNEQUAL_NUMBER, NOT_ARRAY (a caller's subclass fails an exact test: the general tier answers)
# 9: native TRUNC (Math.trunc), ATOB (base64 with or without its padding), ASSIGN_ALL (Object.assign of a spread),
#    UPPER_TEXT and LOWER_TEXT (case mapping of text that is not ASCII), WHOLE_TEXT (text without surrogates),
#    REGEX_MATCHES and REGEX_STITCH (replace with a callback)
#    the fused general entry's factory takes AttributeError last (``_entry_unset``): the thread-local state it
#    reads is a plain ``_thread._local``, unset in a thread until that thread's first evaluation
#    TUPLE (the fused entry's input screen: a caller's tuple is an array, copied as a list)
# 10: the builtin ord (native charCodeAt and codePointAt of ASCII text)
#    ARRAY_CALLBACKS (the general tier's array callback methods with only an arrow, called directly)
# 11: method_of and call_method (a method read before call arguments that may change it)
#    native SORTED_UNIQUE ([...new Set(xs)].sort() in one step) and the builtin id (the lists (g[k] ??= []).push(x) made)
# 12: array_within (an array literal of a spread and more elements, held to the array budget as a whole)

NAN = math.nan
TYPE = type
STR = str
INT = int
FLOAT = float
DICT = dict
LIST = list
TUPLE: type[tuple[Any, ...]] = tuple
LEN = len
NEXT = next
NAME_ERROR = NameError
INF = math.inf
PATCHED = PATCHED_REALMS  # [n]: realms shadowing built-ins; inlined String methods need n == 0

get = members.get_member
delm = members.delete_member
setm = callops.assign_member
setm_strict = callops.assign_member_strict
delm_strict = callops.delete_member_strict
invoke = callops.invoke
invoke_arrow = callops.invoke_arrow
#: ``{"map": map_plain, ...}``: each array callback method as its loop over a plain array with a
#: bare callable, which ``arr.map(arrow)`` calls directly while ``arr`` is a list and no realm
#: patches built-ins (``compiler/calls.py``; otherwise ``invoke_arrow``)
ARRAY_CALLBACKS = callops.PLAIN_CALLBACKS
invoke_regexp = callops.invoke_regexp
invoke_opt = callops.invoke_opt
call = callops.call
call_this = callops.call_this
bound_callee = callops.bound_callee
method_of = callops.method_of
call_method = callops.call_method
callee_error = callops.callee_error
construct = callops.construct
new_target = callops.new_target
spread = callops.spread
array_within = callops.array_within
iterate = members.js_iterate
iter_close = members.iter_close
object_spread = callops.object_spread
spread_dict = callops.spread_dict
set_literal_proto = callops.set_literal_proto
literal_data = callops.literal_data
array_holes = callops.array_holes
literal_accessor = callops.literal_accessor
literal_spread = callops.literal_spread
template = callops.template
tagged_strings = callops.tagged_strings
forin_keys = callops.forin_keys
update_member = callops.update_member
compound_member = callops.compound_member
reference_key = callops.reference_key
new_regexp = callops.new_regexp
property_key = callops.property_key
rest_object = callops.rest_object
rest_array = callops.rest_array
make_class = classes.make_class
define_method = classes.define_method
define_field = classes.define_field
set_fields = classes.set_fields
super_call = classes.super_call
bind_this = classes.bind_this
this_check = classes.this_check
ctor_return = classes.ctor_return
super_get = classes.super_get
super_set = classes.super_set
super_update = classes.super_update
super_delete = classes.super_delete
home_cell = classes.home_cell
set_home = classes.set_home

add = ops.add
sub = ops.sub
mul = ops.mul
div = ops.div
mod = ops.mod
power = ops.power
neg = ops.neg
pos = ops.pos
bit_not = ops.bit_not
bit_and = ops.bit_and
bit_or = ops.bit_or
bit_xor = ops.bit_xor
shl = ops.shl
sar = ops.sar
shr = ops.shr
lt = ops.lt
gt = ops.gt
le = ops.le
ge = ops.ge
loose_eq = ops.loose_eq
loose_ne = ops.loose_ne
strict_eq = ops.strict_eq
strict_ne = ops.strict_ne
typeof = ops.typeof
instanceof = ops.instanceof
in_op = ops.in_op
truthy = convert.to_boolean
inc = ops.inc
dec = ops.dec
to_numeric = convert.to_numeric
to_string = convert.to_string

global_get = _globals.global_get
GLOBAL_THIS = _globals.GLOBAL_OBJECT
global_set = _globals.global_set
global_typeof = _globals.global_typeof
global_delete = _globals.global_delete


def _builtin_calls() -> dict[str, Callable[..., Any]]:
    """``BUILTIN_CALLS``: each built-in global function (``"String"``) and each built-in
    function property of a global (``"Number.isInteger"``, ``"JSON.stringify"``) as its call with
    ``this`` bound (undefined for a bare call, the global for a method). While no realm patches
    built-ins, ``Name(...)`` and ``Name.key(...)`` of a global no declaration shadows call these
    (``compiler/calls.py``): the same function ``global_get`` and ``get`` would find, without
    reading it. ``eval`` and ``Function`` stay out (code from strings keeps its own paths)."""
    table: dict[str, Callable[..., Any]] = {}
    for name, obj in GLOBALS.items():
        if name in ("eval", "Function"):
            continue
        if type(obj) is JSFunction:
            table[name] = partial(obj.call, UNDEFINED)
            members_ = obj.props or {}
        elif type(obj) is BuiltinNamespace:
            members_ = obj
        else:
            continue
        for key, fn in members_.items():
            if type(key) is str and type(fn) is JSFunction and fn.builtin:
                table[f"{name}.{key}"] = partial(fn.call, obj)
    return table


BUILTIN_CALLS = _builtin_calls()


def const_assign(name: str) -> Any:
    """Assignment to a ``const`` binding (9.1.1.1.5 SetMutableBinding): TypeError."""
    raise type_error("Assignment to constant variable.")


def global_set_strict(name: str, value: Any) -> Any:
    """Strict-mode assignment to a name that does not exist: ReferenceError (6.2.5.6 step 3)."""
    if not _globals.global_exists(name):
        raise reference_error(f"{name} is not defined")
    return _globals.global_set(name, value, True)


def tdz_error(name: str) -> Any:
    """A write to a ``let``/``const`` before its declaration ran (9.1.1.1.5): ReferenceError."""
    raise reference_error(f"Cannot access '{name}' before initialization")


def destructure_error(value: Any) -> Any:
    """Destructuring null/undefined (8.6.2 RequireObjectCoercible)."""
    shown = "undefined" if value is UNDEFINED else "null"
    raise type_error(f"Cannot destructure '{shown}' as it is {shown}.")


def throw(value: Any) -> Any:
    """``throw value`` as an expression-friendly call."""
    raise JSThrow(value)


def caught_value(exc: BaseException, names: dict[str, str]) -> Any:
    """The JS value a ``catch`` receives: the thrown value, or for a read of an uninitialised
    ``let``/``const`` (a Python NameError on ``_vN``) the ReferenceError V8 throws (9.1.1.1.6)."""
    if type(exc) is JSThrow:
        return exc.value
    found = re.search(r"'(_v\d+)'", str(exc))
    js = names.get(found.group(1)) if found else None
    if js is None:
        raise exc
    return make_error("ReferenceError", f"Cannot access '{js}' before initialization")


NAMES: tuple[str, ...] = (
    "UNDEFINED", "JSFunction", "JSThrow", "GLOBALS", "NAN", "INF", "PATCHED", "TYPE", "STR", "INT", "FLOAT", "DICT", "LIST", "TUPLE", "LEN", "NEXT", "NAME_ERROR", "caught_value",
    "get", "delm", "setm", "setm_strict", "delm_strict", "invoke", "invoke_arrow", "ARRAY_CALLBACKS", "invoke_regexp", "invoke_opt", "call", "call_this", "callee_error",
    "BUILTIN_CALLS", "bound_callee", "method_of", "call_method", "construct", "new_target", "spread", "array_within",
    "iterate", "iter_close", "object_spread", "spread_dict", "set_literal_proto", "literal_data", "array_holes", "literal_accessor", "literal_spread", "template", "tagged_strings", "forin_keys",
    "update_member", "compound_member", "reference_key", "new_regexp", "property_key", "rest_object", "rest_array",
    "add", "sub", "mul", "div", "mod", "power", "neg", "pos", "bit_not", "bit_and", "bit_or",
    "bit_xor", "shl", "sar", "shr", "lt", "gt", "le", "ge", "loose_eq", "loose_ne", "strict_eq",
    "strict_ne", "typeof", "instanceof", "in_op", "truthy", "inc", "dec", "to_numeric", "to_string",
    "GLOBAL_THIS", "global_get", "global_set", "global_set_strict", "global_typeof", "global_delete", "const_assign", "tdz_error", "destructure_error", "throw",
    "arguments_object", "mapped_arguments", "param_set", "reference_error", "direct_eval", "register_script_env", "MISSING",
    "with_object", "with_base", "with_get", "with_set", "with_delete", "with_this", "with_eval",
    "eval_var_scope", "eval_var_declare",
    "make_class", "define_method", "define_field", "set_fields", "super_call", "bind_this", "this_check",
    "ctor_return", "super_get", "super_set", "super_update", "super_delete", "home_cell", "set_home",
)


def namespace() -> dict[str, Any]:
    """The globals dict generated code runs in: empty builtins plus exactly ``NAMES``."""
    g: dict[str, Any] = {"__builtins__": {}}
    here = globals()
    for name in NAMES:
        g[name] = here[name]
    return g

