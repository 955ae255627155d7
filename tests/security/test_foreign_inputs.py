"""Vector: Python objects handed in by the host (``value``/``context`` that are not JSON-like).

Every test runs through both exits (``through``). A caller may pass objects of its own (a client model, a module, a function, a path, bytes,
a set). The script must see them as opaque empty objects: no attribute, method or module
member is reachable by any JS name, nothing is called, and nothing is written back.
"""

from __future__ import annotations

import datetime
import decimal
import os
import pathlib
from typing import Any

import pytest

from syncpatch import EvaluationError, compile_expression


class Model:
    secret = "s3cr3t"

    def __init__(self) -> None:
        self.name = "model-name"
        self.calls = 0

    def delete_everything(self) -> str:
        self.calls += 1
        return "deleted"

    def __getattr__(self, name: str) -> Any:  # a model that answers every attribute
        self.calls += 1
        return "dynamic-" + name


FOREIGN: dict[str, Any] = {
    "model": Model(), "set": {1, 2}, "bytes": b"abc", "date": datetime.date(2020, 1, 1),
    "decimal": decimal.Decimal("1.5"), "path": pathlib.Path("/etc/passwd"), "builtin-function": os.system,
    "module": os, "class": Model, "nested-model": {"m": Model()},
}
PROBES = ["value.secret", "value.name", "value.delete_everything", "value.system", "value.environ",
          "value.__class__", "value.__dict__", "value.m?.secret", "value.m?.delete_everything",
          "value['__getattr__']", "value.read_text", "value.getenv", "value.mro", "value.calls"]
SECRETS = ("s3cr3t", "model-name", "deleted", "dynamic-", "passwd", "posix", "environ")


@pytest.mark.parametrize("kind", list(FOREIGN))
@pytest.mark.parametrize("probe", PROBES)
def test_foreign_attributes_are_unreachable(kind: str, probe: str, through: Any) -> None:
    value = FOREIGN[kind]
    try:
        got = through(probe, None)(value, {})
    except EvaluationError as exc:
        assert exc.js_name == "TypeError", exc  # reading through an undefined member
        return
    assert got is not None and repr(got) == "undefined", f"{probe} on {kind} gave {got!r}"


@pytest.mark.parametrize("kind", list(FOREIGN))
def test_foreign_objects_read_as_empty_objects(kind: str, through: Any) -> None:
    out = through("[typeof value, JSON.stringify(value), String(value), Object.keys(value), "
                  "Object.getOwnPropertyNames(value)]", None)(FOREIGN[kind], {})
    assert out[0] == "object"
    if kind == "nested-model":
        assert out[1:] == ['{"m":{}}', "[object Object]", ["m"], ["m"]]
    else:
        assert out[1:] == ["{}", "[object Object]", [], []]
    assert not any(s in repr(out) for s in SECRETS)


def test_nothing_is_called_or_written_on_a_foreign_object(through: Any) -> None:
    model = Model()
    through("value.x = 1; value.delete_everything = 2; typeof value.delete_everything", None)(model, {})
    calls_after = model.calls
    assert model.__dict__ == {"name": "model-name", "calls": calls_after}
    assert calls_after == 0


def test_huge_int_input_is_a_js_number() -> None:
    assert compile_expression("[JSON.stringify(value), String(value), value === 2 ** 80]")(2**80) == \
        ["1.2089258196146292e+24", "1.2089258196146292e+24", True]
