"""Contenders: syncpatch, and embedded JS engines (optional; skipped when not installed).

Each adapter turns a JS source into ``call(value, context) -> python result``, counting the
conversion of inputs and results, as a syncer embedding that engine would have to.
"""

from __future__ import annotations

import json
from typing import Any, Callable

Call = Callable[[Any, Any], Any]

# The function each embedded engine compiles once: the script as the body of a function of
# value and context, its completion value returned, with JSON in and out (these engines cannot
# share Python dicts). The source is part of the function text, as a syncer embedding an
# engine would write it, so no call re-parses it.
_WRAPPER = ("(function (valueJson, contextJson) {{ var value = JSON.parse(valueJson); "
            "var context = JSON.parse(contextJson); var valueExists = true; "
            "var r = (function () {{ {body}\n}})(); return r === undefined ? undefined : JSON.stringify(r); }})")
_PRELUDE = "var btoa = typeof btoa === 'function' ? btoa : undefined;"


def function_body(source: str) -> str:
    """The script as a function body that returns its completion value: ``return (...)``
    around its last statement when that is an expression statement (so
    ``value["k"]="v";value`` becomes ``value["k"]="v";return (value);``). A script ending in
    another statement completes with undefined unless its body returns, as in node's
    ``new Function``; the benchmark's scripts all end in an expression."""
    from syncpatch.grammar import ast as A
    from syncpatch.grammar.build import parse

    program = parse(source)
    if not program.body or not isinstance(program.body[-1], A.ExpressionStatement):
        return source
    span = program.body[-1].expression.span
    starts = _line_starts(source)
    begin = starts[span.line - 1] + span.column - 1
    end = starts[span.end_line - 1] + span.end_column - 1
    return f"{source[:begin]}return ({source[begin:end]});{source[end:]}"


def _line_starts(text: str) -> list[int]:
    """Offsets where each line starts (the lexer's line terminators; CRLF is one)."""
    starts = [0]
    i = 0
    while i < len(text):
        c = text[i]
        if c in "\n\r\u2028\u2029":
            if c == "\r" and text[i + 1:i + 2] == "\n":
                i += 1
            starts.append(i + 1)
        i += 1
    return starts


def _wrapped(source: str) -> str:
    return _WRAPPER.format(body=function_body(source))


def syncpatch_engine(source: str) -> Call:
    import syncpatch

    # The compiled expression is itself ``call(value, context)``: a syncer calls it directly,
    # so no adapter layer is timed (the hand-written functions are called directly too).
    return syncpatch.compile_expression(source)


def _json_result(text: Any) -> Any:
    return None if text is None else json.loads(text)


def quickjs_engine(source: str) -> Call:
    import quickjs

    ctx = quickjs.Context()
    ctx.eval(_BASE64_POLYFILL)
    fn = ctx.eval(_wrapped(source))
    return lambda value, context: _json_result(fn(json.dumps(value), json.dumps(context)))


def miniracer_engine(source: str) -> Call:
    from py_mini_racer import MiniRacer

    ctx = MiniRacer()
    ctx.eval(_BASE64_POLYFILL)
    ctx.eval("var __f = " + _wrapped(source))
    return lambda value, context: _json_result(ctx.call("__f", json.dumps(value), json.dumps(context)))


def dukpy_engine(source: str) -> Call:
    import dukpy

    interp = dukpy.JSInterpreter()
    interp.evaljs(_BASE64_POLYFILL)
    interp.evaljs("var __f = " + _wrapped(source))
    return lambda value, context: _json_result(
        interp.evaljs("__f(dukpy.v, dukpy.c)", v=json.dumps(value), c=json.dumps(context))
    )


# UTF-8 btoa/atob for engines without them (ASCII inputs in the benchmark set).
_BASE64_POLYFILL = r"""
var __b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
if (typeof btoa !== 'function') { var btoa = function (s) { s = String(s); var o = '', i = 0;
  while (i < s.length) { var a = s.charCodeAt(i++), b = s.charCodeAt(i++), c = s.charCodeAt(i++);
    var t = (a << 16) | ((b || 0) << 8) | (c || 0);
    o += __b64[(t >> 18) & 63] + __b64[(t >> 12) & 63] + (isNaN(b) ? '=' : __b64[(t >> 6) & 63]) + (isNaN(c) ? '=' : __b64[t & 63]); }
  return o; }; }
if (typeof atob !== 'function') { var atob = function (s) { s = String(s).replace(/=+$/, ''); var o = '', buf = 0, bits = 0;
  for (var i = 0; i < s.length; i++) { buf = (buf << 6) | __b64.indexOf(s[i]); bits += 6;
    if (bits >= 8) { bits -= 8; o += String.fromCharCode((buf >> bits) & 255); } }
  return o; }; }
"""

ENGINES: dict[str, Callable[[str], Call]] = {
    "quickjs": quickjs_engine,
    "mini-racer": miniracer_engine,
    "dukpy": dukpy_engine,
}


def available_engines() -> dict[str, Callable[[str], Call]]:
    """The embedded engines importable here; the others are reported as skipped."""
    found = {}
    for name, factory in ENGINES.items():
        try:
            factory("1")
        except Exception:  # noqa: BLE001 - an engine that cannot start is skipped
            continue
        found[name] = factory
    return found
