"""Check that a ``reverseExpression`` undoes its ``expression`` on sample values.

An expression/reverseExpression pair that does not cancel makes an object flip-flop between
the clusters: the syncer writes the host copy, reads it back, "fixes" the tenant copy, and so
on. That is vCluster users' most common patch bug, and it is invisible in review. So the build
step evaluates ``reverse(forward(v))`` on a few values and warns when it differs from ``v``.

Samples: string literals from the expressions (and each glued to an ordinary name, so that a
prefix added by ``expression`` is really stripped), values from the declarative test cases,
and a small fixed set. A sample the forward expression rejects (throws, or deletes the field)
is not evidence: the field would not round-trip through sync either way. A reverse that
deletes the field (``null``/``undefined``) is the idiom for host-only fields (an annotation the
expression adds on the host and the reverse drops), so it is not reported either.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Sequence

import attrs

__all__ = ["GENERATED_SAMPLES", "Mismatch", "samples_for", "check_roundtrip", "js_equal", "js_repr"]

GENERATED_SAMPLES: tuple[Any, ...] = (
    "my-app",
    "a",
    "",
    "default",
    "Hello, World",
    "web-0.nginx.default.svc",
    "ünïcødé-✓",
    "1234",
)
"""A small generated set: typical Kubernetes names plus the edge cases (empty, mixed case,
digits, dots, non-ASCII) that naive slicing and case mapping get wrong."""

_FILLER = "my-app"
PatchFn = Callable[..., Any]


@attrs.frozen
class Mismatch:
    """``reverse(forward(sample))`` gave ``back`` (or raised ``error``) instead of ``sample``."""

    sample: Any
    forward: Any
    back: Any = None
    error: str | None = None

    def describe(self) -> str:
        if self.error is not None:
            return (
                f"for value {js_repr(self.sample)} expression gives {js_repr(self.forward)}, "
                f"and reverseExpression fails on it: {self.error}"
            )
        return (
            f"for value {js_repr(self.sample)} expression gives {js_repr(self.forward)}, "
            f"and reverseExpression turns that into {js_repr(self.back)}"
        )


def js_repr(value: Any) -> str:
    """A short JS-looking rendering for messages (strings double-quoted, undefined named)."""
    if value is None:
        return "null"
    if type(value).__name__ == "UndefinedType":
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def js_equal(left: Any, right: Any) -> bool:
    """Deep equality of JSON-like values with JS types kept apart (``true`` is not ``1``)."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        both_nan = isinstance(left, float) and isinstance(right, float) and math.isnan(left) and math.isnan(right)
        return both_nan or left == right
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(js_equal(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(js_equal(a, b) for a, b in zip(left, right))
    return type(left) is type(right) and left == right


def _base64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def samples_for(literals: Iterable[str], case_values: Iterable[Any] = (), *, base64: bool = False) -> list[Any]:
    """Deduplicated samples in a fixed order: test-case values, the generated set, literals
    (ordinary names first, so that a warning shows the most readable counter-example).

    With ``base64`` (the expression decodes its value with ``atob``) the generated strings are
    base64-encoded: "default" is no Secret value, and decoding it is lossy by itself."""
    out: list[Any] = []

    def add(value: Any) -> None:
        if not any(type(v) is type(value) and js_equal(v, value) for v in out):
            out.append(value)

    for value in case_values:
        add(value)
    for value in GENERATED_SAMPLES:
        add(_base64(value) if base64 else value)
    for literal in literals:
        for value in (literal, literal + _FILLER, _FILLER + literal):
            add(value)
    return out


def _deleted(value: Any) -> bool:
    return value is None or type(value).__name__ == "UndefinedType"


def _error_text(exc: BaseException) -> str:
    name = getattr(exc, "js_name", None) or getattr(getattr(exc, "value", None), "error_name", None)
    message = getattr(exc, "message", None) or getattr(getattr(exc, "value", None), "message", None)
    if name:
        return f"{name}: {message}" if message else str(name)
    return str(exc) or type(exc).__name__


def check_roundtrip(forward: PatchFn, reverse: PatchFn, samples: Sequence[Any],
                    context: dict[str, Any]) -> Mismatch | None:
    """The first sample on which ``reverse`` does not undo ``forward``, or ``None``."""
    for sample in samples:
        try:
            there = forward(sample, dict(context), value_exists=True)
        except Exception:
            continue
        if _deleted(there):
            continue
        try:
            back = reverse(there, dict(context), value_exists=True)
        except Exception as exc:
            return Mismatch(sample, there, error=_error_text(exc))
        if not js_equal(back, sample) and not _deleted(back):
            return Mismatch(sample, there, back)
    return None
