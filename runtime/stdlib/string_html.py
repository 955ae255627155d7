"""String.prototype HTML methods (ECMA-262 Annex B.2.2.2 - B.2.2.14): ``'a'.bold()``."""

from __future__ import annotations

from typing import Any

from ..convert import to_string
from ..values import UNDEFINED
from .registry import STRING_PROTO, native
from .string import this_string

__all__ = ["create_html"]


def create_html(this: Any, name: str, tag: str, attribute: str, value: Any) -> str:
    """CreateHTML (B.2.2.2.1): quotes in the attribute value become ``&quot;``."""
    s = this_string(this, name)
    opening = "<" + tag
    if attribute:
        opening += f' {attribute}="' + to_string(value).replace('"', "&quot;") + '"'
    return f"{opening}>{s}</{tag}>"


_METHODS = (
    ("anchor", "a", "name"), ("big", "big", ""), ("blink", "blink", ""), ("bold", "b", ""),
    ("fixed", "tt", ""), ("fontcolor", "font", "color"), ("fontsize", "font", "size"),
    ("italics", "i", ""), ("link", "a", "href"), ("small", "small", ""), ("strike", "strike", ""),
    ("sub", "sub", ""), ("sup", "sup", ""),
)


def _make(name: str, tag: str, attribute: str) -> None:
    def html_method(this: Any, value: Any = UNDEFINED, *_: Any) -> str:
        return create_html(this, name, tag, attribute, value)

    html_method.__doc__ = f"String.prototype.{name} (Annex B.2.2)."
    STRING_PROTO[name] = native(html_method, name, 1 if attribute else 0)


for _name, _tag, _attr in _METHODS:
    _make(_name, _tag, _attr)
