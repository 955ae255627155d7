"""Hypothesis strategies shared by the plan property tests: JSON-like objects over a few
keys, and paths over the same keys (so that paths meet the objects often)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from syncpatch.runtime.paths import Index, Key, Wildcard


def json_values(keys: list[str], ints: int, strings: list[str], max_leaves: int) -> Any:
    scalars = st.one_of(st.integers(-ints, ints), st.sampled_from(strings), st.none())
    return st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(keys), inner, max_size=3)),
        max_leaves=max_leaves,
    )


def paths(keys: list[str], min_size: int) -> Any:
    segments = st.one_of(
        st.sampled_from(keys).map(Key),
        st.sampled_from(keys).map(lambda k: Key(k, bracket=True)),
        st.integers(0, 2).map(Index),
        st.just(Wildcard()),
    )
    return st.lists(segments, min_size=min_size, max_size=3).map(tuple)


def transform(value: Any, exists: bool, *, keep_even_containers: bool = False) -> Any:
    """A deterministic patch function that changes shapes and sometimes deletes; with
    ``keep_even_containers`` it also returns some containers unchanged (the no-op path)."""
    if not exists:
        return "new"
    if value is None or value == "":
        return None
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "!"
    if keep_even_containers and not len(value) % 2:
        return value
    return {"wrapped": len(value)}
