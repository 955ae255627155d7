"""Bounds on YAML measured before anything is built from it.

Building Python objects from YAML costs tens of microseconds a node, and aliases let a few
bytes stand for megabytes ("billion laughs"). So the event stream (LibYAML's parser when
available, which builds nothing) is walked first: it counts nodes, adds up the bytes the
document would have with every alias expanded, and stops at the first bound crossed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml  # type: ignore[import-untyped,unused-ignore]

EventLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
NODE_OVERHEAD = 8  # bytes charged per collection or scalar, so empty nodes are not free


class YamlTooBig(Exception):
    """A bound was crossed; the message says which, and where (line, column)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        where = f" (line {line}, column {column})" if line is not None else ""
        super().__init__(message + where)
        self.line, self.column = line, column


@dataclass
class _Frame:
    anchor: str | None
    nodes: int = 1
    size: int = NODE_OVERHEAD


@dataclass
class _Totals:
    nodes: int = 0
    size: int = 0
    anchors: dict[str, tuple[int, int]] = field(default_factory=dict)


def measure(text: str, *, max_nodes: int, max_bytes: int, allow_aliases: bool) -> tuple[int, int]:
    """(nodes, expanded bytes) of a YAML stream; raises YamlTooBig past a bound, and
    yaml.YAMLError when the text is not YAML."""
    totals = _Totals()
    stack: list[_Frame] = []

    def add(nodes: int, size: int, event: yaml.Event) -> None:
        if stack:
            stack[-1].nodes += nodes
            stack[-1].size += size
        totals.nodes += nodes
        totals.size += size
        if totals.nodes > max_nodes:
            raise YamlTooBig(f"more than {max_nodes} values (aliases expanded)", *_where(event))
        if totals.size > max_bytes:
            raise YamlTooBig(f"more than {max_bytes} bytes once aliases are expanded",
                             *_where(event))

    for event in yaml.parse(text, Loader=EventLoader):
        if isinstance(event, yaml.AliasEvent):
            if not allow_aliases:
                raise YamlTooBig("YAML aliases are not accepted", *_where(event))
            nodes, size = totals.anchors.get(event.anchor or "", (1, NODE_OVERHEAD))
            add(nodes, size, event)
        elif isinstance(event, yaml.ScalarEvent):
            size = NODE_OVERHEAD + len(event.value)
            if event.anchor:
                totals.anchors[event.anchor] = (1, size)
            add(1, size, event)
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            stack.append(_Frame(event.anchor))
            totals.nodes += 1
            totals.size += NODE_OVERHEAD
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            done = stack.pop()
            if done.anchor:
                totals.anchors[done.anchor] = (done.nodes, done.size)
            if stack:
                stack[-1].nodes += done.nodes
                stack[-1].size += done.size
    return totals.nodes, totals.size


def _where(event: yaml.Event) -> tuple[int | None, int | None]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
