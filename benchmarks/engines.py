"""Contenders: syncpatch, and embedded JS engines (optional; skipped when not installed).

Each adapter turns a JS source into ``call(value, context) -> python result``, counting the
conversion of inputs and results, as a syncer embedding that engine would have to.
"""

from __future__ import annotations

import json
from typing import Any, Callable

Call = Callable[[Any, Any], Any]

# The script body each embedded engine runs: the same expression as a function of value and
# context, with JSON in and out (these engines cannot share Python dicts).
_WRAPPER = "(function (valueJson, contextJson) {{ var value = JSON.parse(valueJson); var context = JSON.parse(contextJson); var valueExists = true; var r = (function () {{ return eval({src}); }})(); return r === undefined ? undefined : JSON.stringify(r); }})"
_PRELUDE = "var btoa = typeof btoa === 'function' ? btoa : undefined;"


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
    fn = ctx.eval(_WRAPPER.format(src=json.dumps(source)))
    return lambda value, context: _json_result(fn(json.dumps(value), json.dumps(context)))


def miniracer_engine(source: str) -> Call:
    from py_mini_racer import MiniRacer

    ctx = MiniRacer()
    ctx.eval(_BASE64_POLYFILL)
    ctx.eval("var __f = " + _WRAPPER.format(src=json.dumps(source)))
    return lambda value, context: _json_result(ctx.call("__f", json.dumps(value), json.dumps(context)))


def dukpy_engine(source: str) -> Call:
    import dukpy

    interp = dukpy.JSInterpreter()
    interp.evaljs(_BASE64_POLYFILL)
    interp.evaljs("var __f = " + _WRAPPER.format(src=json.dumps(source)))
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
