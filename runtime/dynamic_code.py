"""Code from strings: ``eval`` (19.2.1) and the ``Function`` constructor (20.2.1.1).

The runtime cannot compile (it must stay importable without the compiler), so the compiler
installs a hook (``install_compiler``) that turns source text into the general tier's
``_main``. Without the hook both stay refused with V8's EvalError text, as in a context with
``--disallow-code-generation-from-strings``. The compiled text runs in the current realm, so
the sandbox and every budget apply to it, and its compilation is charged to the step budget
(one step a character).

Names the code from strings does not declare resolve through an *environment*: a function
``env(op, name, value)`` the generated code of the caller provides (op 0 reads, 1 writes, 2
gives ``this``; ``MISSING`` when it has no such binding). A direct ``eval`` sees the bindings
in scope at the call site; indirect eval and ``Function`` see the script's top-level
bindings, which the script registers when it may create code from strings.
"""

from __future__ import annotations

from typing import Any, Callable

from . import convert
from . import globals as _globals
from .realm import current_realm
from .functions import CODE_FROM_STRINGS, CODEGEN_DISALLOWED, EVAL
from .globals import GLOBAL_OBJECT
from .values import MISSING, UNDEFINED, JSFunction, JSObject, JSSymbol, JSThrow, make_error, reference_error, type_error

__all__ = ["install_compiler", "direct_eval", "indirect_eval", "create_function", "register_script_env",
           "eval_var_scope", "eval_var_declare", "is_eval_vars"]

#: ``env(op, name, value)``: see the module docstring
Env = Callable[..., Any]
#: ``hook(source, strict) -> loader``; ``loader(overrides)`` runs the compiled module in a
#: fresh runtime namespace updated with ``overrides`` and returns its ``_main``. The hook
#: raises ``JSThrow`` (a SyntaxError) for text that does not compile.
CompileHook = Callable[[str, bool], Callable[[dict[str, Any]], Callable[..., Any]]]

_hook: list[CompileHook] = []


def install_compiler(hook: CompileHook) -> None:
    """Let ``eval`` and ``Function`` compile (the compiler calls this when it is imported)."""
    _hook[:] = [hook]


def _compile(source: str, strict: bool) -> Callable[[dict[str, Any]], Callable[..., Any]]:
    if not _hook:
        raise JSThrow(make_error("EvalError", CODEGEN_DISALLOWED))
    current_realm().charge(len(source) + 1)  # compilation is work the script asked for
    return _hook[0](source, strict)


def _scoped(env: Env | None) -> dict[str, Any]:
    """The global-name helpers of generated code, looking in ``env`` first."""
    if env is None:
        return {"eval_this": lambda: GLOBAL_OBJECT, "eval_declare": _declare_global}

    def read(name: str) -> Any:
        try:
            return env(0, name)
        except NameError:  # a let/const of the caller read before its declaration ran
            raise reference_error(f"Cannot access '{name}' before initialization") from None

    def global_get(name: str) -> Any:
        v = read(name)
        return _globals.global_get(name) if v is MISSING else v

    def global_set(name: str, value: Any) -> Any:
        if env(1, name, value) is MISSING:
            _globals.global_set(name, value)
        return value

    def global_set_strict(name: str, value: Any) -> Any:
        if env(1, name, value) is MISSING:
            if not _globals.global_exists(name):
                raise reference_error(f"{name} is not defined")
            _globals.global_set(name, value, True)
        return value

    def global_typeof(name: str) -> str:
        v = read(name)
        return _globals.global_typeof(name) if v is MISSING else convert.typeof(v)

    def global_delete(name: str) -> bool:
        return False if read(name) is not MISSING else _globals.global_delete(name)

    def declare(name: str) -> None:
        found = env(3, name)
        if found is True:  # a let/const (or a parameter) of the caller has it (19.2.1.3 step 3)
            raise JSThrow(make_error("SyntaxError", f"Identifier '{name}' has already been declared"))
        if found is MISSING and read(name) is MISSING:
            _declare_global(name)

    def nested_eval(fn: Any, strict: bool, inner: Env, *args: Any) -> Any:
        """A direct eval inside code from strings sees that code's bindings, then ours."""
        def chained(op: int, name: str = "", value: Any = UNDEFINED) -> Any:
            found = inner(op, name, value) if op != 2 else MISSING
            return env(op, name, value) if found is MISSING else found

        return direct_eval(fn, strict, chained, *args)

    return {"global_get": global_get, "global_set": global_set, "global_set_strict": global_set_strict,
            "global_typeof": global_typeof, "global_delete": global_delete, "direct_eval": nested_eval,
            "eval_this": lambda: env(2, ""), "eval_declare": declare}


#: a key no JS code can spell: marks the objects ``eval_var_scope`` makes
_EVAL_VARS_MARK = JSSymbol("eval vars")


def eval_var_scope() -> JSObject:
    """The holder of the ``var``s sloppy direct eval adds to a function's scope: an object
    without a prototype, which the function's names consult as they would a ``with`` object.
    JS code never reaches it, so the marker key stays unseen."""
    holder = JSObject(None)
    holder[_EVAL_VARS_MARK] = True
    return holder


def is_eval_vars(obj: Any) -> bool:
    """Is ``obj`` a holder of eval's ``var``s (a declarative scope: a call through one of its
    names gets no ``this``, unlike through a ``with`` object)?"""
    return type(obj) is JSObject and _EVAL_VARS_MARK in obj


def eval_var_declare(holder: JSObject, name: str) -> bool:
    """``var name`` of sloppy direct eval code in a function that does not bind the name:
    the holder gets it, undefined until the code assigns it (19.2.1.3 step 10)."""
    if name not in holder:
        holder[name] = UNDEFINED
    return False


def _declare_global(name: str) -> None:
    """``var name`` of sloppy eval code that the caller does not bind: a global (19.2.1.3)."""
    if not _globals.global_exists(name):
        _globals.global_set(name, UNDEFINED)


def _script_env() -> Env | None:
    env: Env | None = current_realm().extra.get("script_env")
    return env


def register_script_env(env: Env) -> None:
    """The script's top-level bindings, for indirect eval and ``Function`` (the first script of
    an evaluation registers; code from strings does not)."""
    current_realm().extra.setdefault("script_env", env)


def _run(source: str, strict: bool, env: Env | None) -> Any:
    main = _compile(source, strict)(_scoped(env))
    realm = current_realm()
    value = UNDEFINED
    if env is not None:
        found = env(0, "value")
        value = UNDEFINED if found is MISSING else found
    return main(realm, value, realm.context, True)


def indirect_eval(source: Any) -> Any:
    """Indirect eval (19.2.1.1): global code, never strict unless it says so."""
    if type(source) is not str:
        return source
    return _run(source, False, _script_env())


def direct_eval(fn: Any, strict: bool, env: Env, *args: Any) -> Any:
    """``eval(...)`` as written in the source: when ``eval`` is the built-in, a direct eval
    (19.2.1.1 PerformEval with the caller's environment and strictness); else a plain call."""
    if fn is not EVAL:
        if type(fn) is JSFunction:
            return fn.call(UNDEFINED, *args)
        raise type_error("eval is not a function")
    source = args[0] if args else UNDEFINED
    if type(source) is not str:
        return source
    return _run(source, strict, env)


def create_function(*args: Any) -> Any:
    """CreateDynamicFunction (20.2.1.1.1) for ``Function(p1, ..., body)``."""
    texts = [convert.to_string(a) for a in args]
    body = texts[-1] if texts else ""
    params = ",".join(texts[:-1])
    # the parameters and the body must each parse on their own (20.2.1.1.1 steps 17-19):
    # "a){" and "}" may not join into one function
    _compile(f"(function ({params}\n) {{}})", False)
    _compile(f"(function () {{\n{body}\n}})", False)
    source = f"(function anonymous({params}\n) {{\n{body}\n}})"
    fn = _run(source, False, _script_env())
    if type(fn) is JSFunction:
        fn.source = source[1:-1]
    return fn


CODE_FROM_STRINGS.update(eval=indirect_eval, Function=create_function)
