"""Declarative patch test cases, run by ``syncpatch test DIR`` (in the spirit of ``kyverno test``).

A case file is YAML. Shared keys at the top apply to every case in ``cases`` (a file without
``cases`` is itself one case)::

    config: ../configs/prefix-ports.yaml     # relative to this file
    resource: endpoints                      # or toHost.endpoints, fromHost.nodes,
                                             # toHost.customResources/foos.example.com
    direction: to-host                       # or from-host
    context: {vcluster: {name: my-vc, namespace: team-a}}
    cases:
      - name: ports get a prefix
        input:    {...}                      # or inputFile: objects/ep.yaml
        expected: {...}                      # or expectedFile:, or expectedError: TypeError

Users keep the cases next to their configs and run them in CI; ``compile-patches --tests``
also feeds the input values to the round-trip check.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Callable, Iterator, Literal, Mapping

import attrs
import yaml

from syncpatch.runtime.errors import SyncpatchError
from syncpatch.yamlsource import YamlSyntaxError, load_data

from .roundtrip import js_equal

__all__ = [
    "TestCase",
    "CaseResult",
    "CaseFileError",
    "discover",
    "load_case_file",
    "load_cases",
    "parse_resource",
    "run_case",
    "yaml_dump",
    "unified_diff",
    "values_at",
]

Side = Literal["toHost", "fromHost"]
_SIDES: dict[str, Side] = {"toHost": "toHost", "fromHost": "fromHost"}
Direction = Literal["to_host", "from_host"]
PlanSource = Callable[[Path, Side, str], tuple[Any, Mapping[str, Any]]]
"""``(config path, side, resource) -> (plan, base context)``; raises to report a config error."""

_DIRECTIONS: dict[str, Direction] = {
    "to-host": "to_host", "to_host": "to_host", "toHost": "to_host",
    "from-host": "from_host", "from_host": "from_host", "fromHost": "from_host",
}
_CASE_KEYS = frozenset({"name", "config", "resource", "direction", "context", "input", "inputFile",
                        "expected", "expectedFile", "expectedError"})


#: the keys that make a YAML file under a scanned folder a case file (a single case names what
#: it expects inline or in a file)
_CASE_MARKERS = ("cases", "expected", "expectedFile", "expectedError")


class CaseFileError(SyncpatchError, ValueError):
    """A case file (or one case in it) that cannot be run as written (missing key, unknown
    direction...); ``line``/``column`` locate it when known, ``key`` names the offending key."""

    def __init__(self, file: str, message: str, line: int | None = None, column: int | None = None,
                 key: str | None = None) -> None:
        super().__init__(file, message)
        self.file = file
        self.message = message
        self.line = line
        self.column = column
        self.key = key

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line is not None else self.file
        return f"{where}: {self.message}"


@attrs.frozen
class TestCase:
    """One case, with its config path resolved against the case file's folder."""

    __test__ = False  # not a pytest test class

    file: str
    name: str
    config: Path
    side: Side
    resource: str
    direction: Direction
    context: Mapping[str, Any]
    input: Any
    expected: Any = None
    expected_error: str | None = None


@attrs.frozen
class CaseResult:
    """``status`` is ``pass``, ``fail`` (wrong output) or ``error`` (could not run / raised)."""

    case: TestCase
    status: Literal["pass", "fail", "error"]
    actual: Any = None
    message: str = ""
    diff: str = ""


def parse_resource(text: str) -> tuple[Side, str]:
    """``endpoints`` → (toHost, endpoints); ``fromHost.nodes``; ``toHost.customResources/x``."""
    side: Side = "toHost"
    head, dot, rest = text.partition(".")
    if dot and head in _SIDES:
        side, text = _SIDES[head], rest
    if text.startswith("customResources."):
        text = "customResources/" + text.split(".", 1)[1]
    return side, text


def _yaml_file(path: Path) -> Any:
    try:
        return load_data(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YamlSyntaxError) as exc:
        raise CaseFileError(str(path), f"cannot read: {exc}") from None


def _object(raw: Mapping[str, Any], key: str, base: Path, file: str) -> Any:
    if key in raw:
        return raw[key]
    if f"{key}File" in raw:
        try:
            return _yaml_file(base / str(raw[f"{key}File"]))
        except CaseFileError as exc:
            raise CaseFileError(file, f"{key}File: {exc}", key=f"{key}File") from None
    return None


def _case(raw: Mapping[str, Any], defaults: Mapping[str, Any], base: Path, file: str, number: int) -> TestCase:
    merged = {**defaults, **raw}
    unknown = sorted(set(merged) - _CASE_KEYS)
    label = str(merged.get("name") or (f"case {number + 1}" if number >= 0 else Path(file).stem))
    if unknown:
        hints = [_did_you_mean(key) for key in unknown]
        raise CaseFileError(file, f"{label}: unknown key{'s' if len(unknown) > 1 else ''} "
                            + ", ".join(f"{k!r}{h}" for k, h in zip(unknown, hints))
                            + f"; a case has: {', '.join(sorted(_CASE_KEYS))}", key=unknown[0])
    for key in ("config", "resource"):
        if key not in merged:
            raise CaseFileError(file, f"{label}: missing {key!r}")
    direction = _DIRECTIONS.get(str(merged.get("direction", "to-host")))
    if direction is None:
        raise CaseFileError(file, f"{label}: direction must be to-host or from-host, not {merged.get('direction')!r}",
                            key="direction")
    if "expected" not in merged and "expectedFile" not in merged and "expectedError" not in merged:
        raise CaseFileError(file, f"{label}: needs expected, expectedFile or expectedError")
    side, resource = parse_resource(str(merged["resource"]))
    return TestCase(
        file=file, name=label, config=(base / str(merged["config"])).resolve(), side=side,
        resource=resource, direction=direction, context=dict(merged.get("context") or {}),
        input=_object(merged, "input", base, file), expected=_object(merged, "expected", base, file),
        expected_error=merged.get("expectedError"),
    )


def _did_you_mean(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key, sorted(_CASE_KEYS), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def load_case_file(path: Path, display: str | None = None) -> list[TestCase]:
    """Every case of one file; a malformed file (or case) raises :class:`CaseFileError`."""
    cases, errors = load_cases(path, display)
    if errors:
        raise errors[0]
    return cases


def load_cases(path: Path, display: str | None = None) -> tuple[list[TestCase], list[CaseFileError]]:
    """The cases of one file that can run, and a located error for each that cannot: one bad
    case (an unknown key, say) does not stop the others from running."""
    from syncpatch.yamlsource import YamlSyntaxError, load_yaml

    file = display or str(path)
    try:
        doc = load_yaml(path.read_text(encoding="utf-8"), file)
    except (OSError, UnicodeDecodeError) as exc:
        return [], [CaseFileError(file, f"cannot read: {getattr(exc, 'strerror', None) or exc}", 1, 1)]
    except YamlSyntaxError as exc:
        return [], [CaseFileError(file, exc.message, exc.line, exc.column)]
    raw = doc.data
    if not isinstance(raw, dict):
        return [], [CaseFileError(file, "a case file is a YAML mapping" + (" (this one is empty)" if raw is None else ""), 1, 1)]
    items = raw.get("cases", [raw])
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        line, column = doc.position(("cases",))
        return [], [CaseFileError(file, "'cases' must be a list of mappings", line, column)]
    single = "cases" not in raw
    defaults = {} if single else {k: v for k, v in raw.items() if k != "cases"}
    cases: list[TestCase] = []
    errors: list[CaseFileError] = []
    for n, item in enumerate(items):
        try:
            cases.append(_case(item, defaults, path.parent, file, -1 if single else n))
        except CaseFileError as exc:
            prefix: tuple[str | int, ...] = () if single else ("cases", n)
            if exc.key is not None and (single or exc.key in item):
                exc.line, exc.column = doc.position((*prefix, exc.key), at_key=True)
            elif exc.key is not None and exc.key in defaults:
                exc.line, exc.column = doc.position((exc.key,), at_key=True)
            else:
                exc.line, exc.column = doc.position(prefix) if prefix else (1, 1)
            errors.append(exc)
    return cases, errors


def discover(root: Path) -> Iterator[Path]:
    """Case files under ``root`` (or ``root`` itself), sorted: ``*.yaml``/``*.yml`` holding
    ``cases`` or an ``expected``-style key (``_CASE_MARKERS``); other YAML (configs, objects)
    is skipped."""
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml"))
    for path in files:
        try:
            raw = load_data(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, YamlSyntaxError):
            if path == root:
                yield path
            continue
        if path == root or (isinstance(raw, dict) and any(key in raw for key in _CASE_MARKERS)):
            yield path


def _merge(base: Any, extra: Any) -> Any:
    if isinstance(base, dict) and isinstance(extra, dict):
        out = dict(base)
        for key, value in extra.items():
            out[key] = _merge(base.get(key), value)
        return out
    return extra


def run_case(case: TestCase, plans: PlanSource) -> CaseResult:
    """Apply the case's plan and compare; every failure mode becomes a result, never a raise."""
    try:
        plan, base_context = plans(case.config, case.side, case.resource)
    except Exception as exc:  # config errors are reported per case, the run goes on
        return CaseResult(case, "error", message=f"config {case.config.name}: {exc}")
    context = _merge(dict(base_context), dict(case.context))
    try:
        actual = plan.apply(case.direction, case.input, context).object
    except Exception as exc:
        if case.expected_error and case.expected_error in str(exc):
            return CaseResult(case, "pass", message=str(exc))
        if case.expected_error:
            return CaseResult(case, "fail", message=f"expected an error containing {case.expected_error!r}, "
                                                    f"but the patch failed with: {exc}")
        return CaseResult(case, "error", message=str(exc))
    if case.expected_error:
        return CaseResult(case, "fail", actual,
                          f"expected an error containing {case.expected_error!r}, but the patch succeeded "
                          f"with this object:\n{yaml_dump(actual)}")
    if js_equal(actual, case.expected):
        return CaseResult(case, "pass", actual)
    return CaseResult(case, "fail", actual, "output differs from expected", unified_diff(case.expected, actual))


def yaml_dump(obj: Any) -> str:
    """Block-style YAML with the object's own key order (as ``kubectl get -o yaml`` prints)."""
    return str(yaml.safe_dump(obj, sort_keys=False, default_flow_style=False, allow_unicode=True))


def unified_diff(expected: Any, actual: Any, *, before: str = "expected", after: str = "actual") -> str:
    """A unified diff of two objects' YAML renderings."""
    lines = difflib.unified_diff(
        yaml_dump(expected).splitlines(keepends=True), yaml_dump(actual).splitlines(keepends=True),
        fromfile=before, tofile=after,
    )
    return "".join(lines)


def values_at(obj: Any, segments: tuple[Any, ...]) -> list[Any]:
    """Every value a patch path matches in ``obj`` (wildcards expanded), for round-trip samples."""
    current = [obj]
    for seg in segments:
        following: list[Any] = []
        for node in current:
            name = getattr(seg, "name", None)
            index = getattr(seg, "index", None)
            if name is not None and isinstance(node, dict) and name in node:
                following.append(node[name])
            elif index is not None and isinstance(node, list) and index < len(node):
                following.append(node[index])
            elif name is None and index is None:
                following.extend(node.values() if isinstance(node, dict) else node if isinstance(node, list) else [])
        current = following
    return current
