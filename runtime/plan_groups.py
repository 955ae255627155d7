"""Which plan steps can share one traversal, and which containers need ownership checks.

Two facts about paths let generated plan code (``plan_codegen``) do less work per node:

* **Disjoint steps commute.** Two paths that share a prefix and then name two different map
  keys touch disjoint parts of the object, so applying them in either order, or interleaved
  per node, gives the same result. Consecutive disjoint steps are fused into one group that
  walks the shared prefix once (``spec.ports[*].name`` and ``spec.ports[*].port`` share one
  loop). Only calls run in a different order; that is unobservable for compiled expressions
  (pure, each call with fresh per-call state), so only plans made entirely of them are fused,
  and a failing fused application is re-run step by step for the exact error.

* **Ownership is static, mostly.** Copy-on-write writes a container in place only if this
  application created it. A container can have been created by an earlier group only if an
  earlier path passes through a compatible position, and needs registering in ``owned`` only
  if a later path does. Both answers are conservative: a wrong "no" costs a copy, never
  correctness (copying is always safe; writing in place is only done to registered copies).
"""

from __future__ import annotations

from typing import Sequence

from .paths import Index, Key, Segment, Wildcard

__all__ = ["edge", "disjoint", "group_steps", "Ownership"]

Path = tuple[Segment, ...]


def edge(seg: Segment) -> tuple[object, ...]:
    """A hashable identity for one segment of a path (``bracket``/``quoted`` do not change
    where a non-terminal segment leads)."""
    if isinstance(seg, Key):
        return ("key", seg.name)
    if isinstance(seg, Index):
        return ("index", seg.index)
    return ("*",)


def _digits(name: str) -> bool:
    return name.isdigit() and name.isascii()


def disjoint(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` share a prefix and then name two different map keys.

    A digit key also indexes lists, where deleting an element shifts the others, so two
    digit keys never count as different."""
    for seg_a, seg_b in zip(a, b):
        if edge(seg_a) == edge(seg_b):
            continue
        if isinstance(seg_a, Key) and isinstance(seg_b, Key):
            return not (_digits(seg_a.name) and _digits(seg_b.name))
        return False
    return False  # one path is a prefix of the other (or they are equal)


class _Trie:
    """The paths of one group, merged: a new path joins only if it is disjoint from all."""

    __slots__ = ("children", "ends", "non_keys", "digit_keys")

    def __init__(self) -> None:
        self.children: dict[tuple[object, ...], _Trie] = {}
        self.ends = False  # a path of the group ends here
        self.non_keys = 0  # children reached by an index or a wildcard
        self.digit_keys = 0  # children reached by a digit key (which also indexes lists)

    def accepts(self, path: Path) -> bool:
        """``disjoint(path, other)`` for every path of the group, in one walk down ``path``."""
        node = self
        for seg in path:
            if node.ends:
                return False  # a path of the group is a prefix of this one
            child = node.children.get(edge(seg))
            if len(node.children) > (child is not None):  # other paths part here: keys only
                if not isinstance(seg, Key) or node.non_keys:
                    return False
                if _digits(seg.name) and node.digit_keys > (child is not None):
                    return False
            if child is None:
                return True
            node = child
        return False  # this path is a prefix of (or equal to) a path of the group

    def add(self, path: Path) -> None:
        node = self
        for seg in path:
            key = edge(seg)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Trie()
                if not isinstance(seg, Key):
                    node.non_keys += 1
                elif _digits(seg.name):
                    node.digit_keys += 1
            node = child
        node.ends = True


def group_steps(paths: Sequence[Path], fuse: bool) -> list[list[int]]:
    """Step numbers in groups of consecutive, pairwise disjoint steps (singletons unless
    ``fuse``). The whole-object path ``""`` overlaps everything."""
    groups: list[list[int]] = []
    trie = _Trie()
    for number, path in enumerate(paths):
        if fuse and groups and path and groups[-1] and trie.accepts(path):
            groups[-1].append(number)
        else:
            groups.append([number])
            trie = _Trie()
        if path:
            trie.add(path)
        else:
            groups.append([])  # nothing joins a whole-object step's group
    return [group for group in groups if group]


def _compatible(a: Segment, b: Segment) -> bool:
    """Whether two segments can select the same child of some container."""
    if isinstance(a, Wildcard) or isinstance(b, Wildcard):
        return True
    if isinstance(a, Index) and isinstance(b, Index):
        return a.index == b.index
    if isinstance(a, Key) and isinstance(b, Key):
        return a.name == b.name or (_digits(a.name) and _digits(b.name) and int(a.name) == int(b.name))
    key, index = (a, b) if isinstance(a, Key) else (b, a)
    assert isinstance(key, Key) and isinstance(index, Index)
    return _digits(key.name) and int(key.name) == index.index


class Ownership:
    """Answers, for the container a group reaches through ``prefix``, whether an earlier group
    may have copied it (check ``owned`` before copying) and whether a later group may write it
    (register the copy in ``owned``)."""

    LIMIT = 64
    """Past this many steps the analysis (quadratic) is skipped: every answer is "yes"."""

    def __init__(self, paths: Sequence[Path], groups: Sequence[Sequence[int]]) -> None:
        self.paths = paths
        self.groups = groups
        self.exhaustive = len(paths) > self.LIMIT

    def _touches(self, numbers: list[int], prefix: Path) -> bool:
        """Whether any of these steps copies a container at a position compatible with ``prefix``
        (a step copies the containers along its path, above its last segment)."""
        depth = len(prefix)
        for number in numbers:
            path = self.paths[number]
            if len(path) > depth and all(_compatible(x, y) for x, y in zip(path, prefix)):
                return True
        return False

    def may_be_owned(self, group: int, prefix: Path) -> bool:
        return self.exhaustive or self._touches([n for g in self.groups[:group] for n in g], prefix)

    def must_register(self, group: int, prefix: Path) -> bool:
        return self.exhaustive or self._touches([n for g in self.groups[group + 1:] for n in g], prefix)
