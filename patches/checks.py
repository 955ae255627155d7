"""The checks ``compile-patches`` runs, each turning a finding into a located diagnostic.

``compile_config`` finds structural and compile errors and names them by field path; here
they are placed in the file (inside the expression or path string when the error has a
position there) and classified with a stable code and, for the mistakes users make most, a
hint. Then come the checks only a build step runs: undeclared globals (an error here, a
ReferenceError at run time), ``value in [...]`` and round trips (warnings).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

import attrs

from syncpatch.compiler import generate_module
from syncpatch.runtime.paths import PathError, parse_path
from syncpatch.runtime.plan import ExpressionPatch
from syncpatch.runtime.stdlib.registry import GLOBALS
from syncpatch.yamlsource import YamlDocument

from . import lint, roundtrip
from .config_shape import known_keys_at
from .diagnostics import Diagnostic
from .messages import did_you_mean
from .testcases import CaseFileError, discover, load_case_file, values_at

__all__ = [
    "CaseValues",
    "patch_lists",
    "issue_diagnostic",
    "warning_diagnostic",
    "extra_compile_errors",
    "lint_expressions",
    "roundtrip_diagnostics",
    "collect_case_values",
    "known_globals",
]

Loc = tuple[str | int, ...]
CaseValues = Mapping[tuple[str, str, str], Sequence[Any]]
"""(side, resource, "tenant" | "host") -> objects of that side from the test cases.

``expression`` runs on tenant objects (host objects for swapped resources such as fromHost
nodes), so only objects of that side are samples for it: a host value fed to the tenant→host
expression would report a mismatch that can never happen in sync."""

_EXPRESSION_FIELDS = ("expression", "reverseExpression")
_KNOWN_KEYS = ("path", "expression", "reverseExpression", "reference", "labels", "enabled", "patches",
               "apiVersion", "apiVersionPath", "kind", "kindPath", "namePath", "namespacePath",
               "toHost", "fromHost", "customResources", "endpoints", "services", "secrets", "configMaps",
               "pods", "ingresses", "persistentVolumeClaims", "serviceAccounts", "nodes", "events")
_CODES = (
    ("does not compile", "expression-syntax"),
    ("does not parse", "path-syntax"),
    ("appears in patches", "duplicate-path"),
    ("exactly one of", "patch-mode"),
    ("cannot be patched", "forbidden-target"),
    ("namePath is required", "reference-name-path"),
    ("Extra inputs are not permitted", "unknown-field"),
    ("unknown field `", "unknown-field"),
    ("was removed in vCluster", "removed-field"),
    ("synced both to and from", "synced-both-ways"),
    ("in both sync.toHost.customResources", "synced-both-ways"),
    ("is not supported towards the host", "custom-resource-scope"),
    ("is empty: vCluster reads an empty expression", "empty-expression"),
    ("reference needs ", "reference-target"),
    ("namespace sync is enabled but", "namespace-mappings"),
    ("mappings.byName is empty", "mappings-empty"),
    ("vCluster decodes its config strictly", "wrong-type"),
    ("Field required", "missing-field"),
)
_SAMPLE_CONTEXT = ("my-vcluster", "vcluster-my-vcluster")


def patch_lists(data: Any) -> Iterator[tuple[Loc, tuple[str, str], list[Any]]]:
    """Every ``patches`` list of a raw config: (its loc, (side, resource key), the list)."""
    sync = data.get("sync") if isinstance(data, dict) else None
    for side in ("toHost", "fromHost"):
        section = sync.get(side) if isinstance(sync, dict) else None
        if not isinstance(section, dict):
            continue
        for resource, value in section.items():
            if resource == "customResources" and isinstance(value, dict):
                for name, custom in value.items():
                    if isinstance(custom, dict) and isinstance(custom.get("patches"), list):
                        key = (side, f"customResources/{name}")
                        yield ("sync", side, "customResources", name, "patches"), key, custom["patches"]
            elif isinstance(value, dict) and isinstance(value.get("patches"), list):
                yield ("sync", side, resource, "patches"), (side, resource), value["patches"]


def _expressions(data: Any) -> Iterator[tuple[Loc, str]]:
    for loc, _, patches in patch_lists(data):
        for index, patch in enumerate(patches):
            if not isinstance(patch, dict):
                continue
            for field in _EXPRESSION_FIELDS:
                if isinstance(patch.get(field), str):
                    yield (*loc, index, field), patch[field]


def _code(message: str) -> str:
    return next((code for needle, code in _CODES if needle in message), "config-invalid")


def _single_quote_fix(path: str) -> str:
    return re.sub(r"'((?:[^'\\]|\\.)*)'", lambda m: '"' + m.group(1).replace('"', '\\"') + '"', path)


def _hint(doc: YamlDocument, loc: Loc, code: str) -> tuple[str, str | None]:
    """(possibly refined code, hint) for the mistakes users make most."""
    value = _get(doc.data, loc)
    if code == "path-syntax" and isinstance(value, str) and "'" in value:
        return "path-single-quote", (
            f"map keys take double quotes: path: '{_single_quote_fix(value)}' "
            "(vCluster silently never matches a single-quoted key)"
        )
    if code == "unknown-field" and loc and isinstance(loc[-1], str):
        from .models import TenantConfig

        known = known_keys_at(TenantConfig, loc[:-1]) or list(_KNOWN_KEYS)
        close = did_you_mean(loc[-1], known)
        return code, f"did you mean `{close}`?" if close else None
    return code, None


def _get(data: Any, loc: Loc) -> Any:
    for part in loc:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _place(doc: YamlDocument, loc: Loc, line: int | None, column: int | None) -> tuple[int, int]:
    """File position of an issue: inside the expression/path string when it has a position."""
    field = loc[-1] if loc else None
    if field in _EXPRESSION_FIELDS and line is not None and column is not None:
        return doc.scalar_position(loc, line, column)
    if field == "path" and column is not None:
        return doc.scalar_position(loc, line or 1, column)
    if loc and isinstance(loc[-1], int) and isinstance(_get(doc.data, (*loc, "path")), str):
        return doc.position((*loc, "path"), at_key=True)
    if field not in _EXPRESSION_FIELDS + ("path",) and _get(doc.data, loc) is not None and len(loc) > 0:
        return doc.position(loc, at_key=True)
    return doc.position(loc)


def issue_diagnostic(doc: YamlDocument, issue: Any, compiler: Any = None) -> Diagnostic:
    """A ``ConfigIssue`` from ``compile_config`` as a located, classified error.

    For a compile error the compiler runs once more on the expression to recover what the
    issue does not carry: the compiler's own hint and the width of the offending span.
    """
    loc: Loc = tuple(issue.loc)
    line, column = _place(doc, loc, issue.line, issue.column)
    code, hint = _hint(doc, loc, _code(issue.message))
    length, message = 1, issue.message
    if code in ("unknown-field", "missing-field") and loc and isinstance(loc[-1], str) and "`" not in message:
        message = _field_message(code, loc[-1], message)
    if code in ("unknown-field", "removed-field") and loc and isinstance(loc[-1], str):
        length = len(loc[-1])
    if code == "wrong-type":
        line, column = doc.position(loc)
    if code == "expression-syntax":
        length = _token_length(doc, loc, issue.line, issue.column)
        exc = _compile_failure(compiler, _get(doc.data, loc))
        hint = hint or getattr(exc, "hint", None)
        span = getattr(exc, "span", None)
        if span is not None and span.end_line == span.line and span.end_column > span.column:
            length = span.end_column - span.column
    return Diagnostic(doc.filename, line, column, "error", code, message, hint, length)


def _field_message(code: str, name: str, message: str) -> str:
    """pydantic's "Extra inputs are not permitted" names no field; ours does."""
    if code == "unknown-field":
        return f"unknown field `{name}`: vCluster refuses unknown keys at start-up"
    return f"missing required field `{name}`"


def _compile_failure(compiler: Any, source: Any) -> BaseException | None:
    if compiler is None or not isinstance(source, str):
        return None
    try:
        compiler(source)
    except Exception as exc:  # the failure we want to look at
        return exc
    return None


def _token_length(doc: YamlDocument, loc: Loc, line: int | None, column: int | None) -> int:
    source = _get(doc.data, loc)
    if not isinstance(source, str) or line is None or column is None:
        return 1
    for token in lint.tokens(source):
        if (token.line, token.column) == (line, column):
            return max(1, len(token.text.split("\n")[0]))
    return 1


def warning_diagnostic(doc: YamlDocument, warning: Any) -> Diagnostic:
    """A ``ConfigWarning`` from ``compile_config``, at its field."""
    loc: Loc = tuple(warning.loc)
    line, column = doc.position(loc)
    return Diagnostic(doc.filename, line, column, "warning", "config-warning", warning.message)


def extra_compile_errors(doc: YamlDocument, issues: Sequence[Any], compiler: Any) -> list[Diagnostic]:
    """Compile errors of expressions that structural errors kept ``compile_config`` from reaching.

    ``compile_config`` stops after validation fails; a build reports every problem at once.
    """
    reported = {tuple(i.loc) for i in issues}
    out = []
    for loc, source in _expressions(doc.data):
        if loc in reported:
            continue
        try:
            compiler(source)
        except Exception as exc:
            line, column = getattr(exc, "line", None), getattr(exc, "column", None)
            if line is None:
                continue
            message = getattr(exc, "message", None) or str(exc).splitlines()[0]
            issue = _Issue(loc, f"expression does not compile: {message}", line, column)
            out.append(issue_diagnostic(doc, issue, compiler))
    return out


def extra_duplicate_errors(doc: YamlDocument, issues: Sequence[Any]) -> list[Diagnostic]:
    """Duplicate paths in patch lists where another entry's error kept validation from
    checking them (pydantic skips a list's own check once an entry fails)."""
    from pydantic import ValidationError
    from pydantic_core import PydanticCustomError

    from .models import PatchModel, check_duplicate_paths

    reported = {tuple(i.loc) for i in issues}
    out = []
    for loc, _, patches in patch_lists(doc.data):
        valid: list[tuple[int, Any]] = []
        for index, raw in enumerate(patches):
            try:
                valid.append((index, PatchModel.model_validate(raw)))
            except ValidationError:
                continue
        if len(valid) == len(patches):
            continue  # validation saw this list whole: its duplicates are already reported
        try:
            check_duplicate_paths([model for _, model in valid])
        except PydanticCustomError as exc:
            ctx = exc.context or {}
            original = [valid[int(i)][0] for i in str(ctx.get("indexes", "")).split(", ") if i.isdigit()]
            where = (*loc, original[-1]) if original else loc
            if where in reported:
                continue
            message = (f"path '{ctx.get('path')}' appears in patches {', '.join(map(str, original))}; a path may "
                       "repeat only as one entry with just expression and one with just reverseExpression")
            out.append(issue_diagnostic(doc, _Issue(where, message, None, None)))
    return out


class _Issue:
    def __init__(self, loc: Loc, message: str, line: int | None, column: int | None) -> None:
        self.loc, self.message, self.line, self.column = loc, message, line, column


def known_globals() -> frozenset[str]:
    """Names a patch expression may use without declaring them."""
    names = set(lint.BUILTIN_NAMES) | {"undefined", "NaN", "Infinity", "globalThis"}
    names.update(GLOBALS)
    return frozenset(names)


@attrs.frozen
class _Free:
    name: str
    line: int
    column: int


def _free_globals(source: str) -> list[_Free]:
    """The compiler's free (undeclared) global references of one expression, with positions."""
    try:
        generated = generate_module(source)
    except Exception:  # does not compile: reported already
        return []
    return [_Free(name, span.line, span.column) for name, span in generated.free_globals.items()]


def _undeclared(doc: YamlDocument, loc: Loc, source: str, known: frozenset[str]) -> Iterator[Diagnostic]:
    found = [free.name for free in _free_globals(source)]
    unknown = [name for name in dict.fromkeys(found) if name not in known]
    word = lint.bare_word(source)
    if word is not None and unknown and not any(lint.bare_word_hint(source, n, known).startswith("did you mean `")
                                                for n in unknown):
        yield _bare_word(doc, loc, source, word, unknown, known)
        return
    seen: set[str] = set()
    for item in _free_globals(source):
        name = item.name
        if name in known or name in seen:
            continue
        seen.add(name)
        fline, fcol = doc.scalar_position(loc, item.line, item.column)
        yield Diagnostic(
            doc.filename, fline, fcol, "error", "undeclared-global",
            f"`{name}` is not defined: {loc[-1]} would throw ReferenceError when it runs",
            lint.bare_word_hint(source, name, known), len(name),
        )


def _bare_word(doc: YamlDocument, loc: Loc, source: str, word: str, names: list[str],
               known: frozenset[str]) -> Diagnostic:
    """One error for a whole bare word such as ``vcp-eks`` (``vcp - eks``: two unknown names)."""
    line, column = (lint.identifier_positions(source, names[0]) or [(1, 1)])[0]
    fline, fcol = doc.scalar_position(loc, line, column)
    listed = ", ".join(f"`{n}`" for n in names)
    return Diagnostic(
        doc.filename, fline, fcol, "error", "undeclared-global",
        f"`{word}` is not a string here: it reads as JS with undeclared {listed}, so {loc[-1]} "
        "would throw ReferenceError when it runs",
        lint.bare_word_hint(source, names[0], known), len(word),
    )


def _in_array(doc: YamlDocument, loc: Loc, source: str) -> Iterator[Diagnostic]:
    for line, column in lint.in_array_uses(source):
        fline, fcol = doc.scalar_position(loc, line, column)
        yield Diagnostic(
            doc.filename, fline, fcol, "warning", "in-array",
            "`in` tests whether an array has an *index*, not whether it contains a value",
            'use [...].includes(value): "a" in ["a"] is false, 0 in ["a"] is true', 2,
        )


def lint_expressions(doc: YamlDocument) -> list[Diagnostic]:
    """Undeclared globals and ``in [...]`` in every expression (skipped where it failed to compile)."""
    known = known_globals()
    out: list[Diagnostic] = []
    for loc, source in _expressions(doc.data):
        out.extend(_undeclared(doc, loc, source, known))
        out.extend(_in_array(doc, loc, source))
    return out


def _pairs(plan: Any) -> Iterator[tuple[str, int, int]]:
    """(path, index of the expression entry, index of the reverseExpression entry)."""
    forward: dict[str, int] = {}
    reverse: dict[str, int] = {}
    for entry in plan.entries:
        if isinstance(entry, ExpressionPatch):
            if entry.expression is not None:
                forward.setdefault(entry.path, entry.index)
            if entry.reverse_expression is not None:
                reverse.setdefault(entry.path, entry.index)
    for path, index in forward.items():
        if path in reverse:
            yield path, index, reverse[path]


def _case_samples(objects: Sequence[Any], path: str) -> list[Any]:
    try:
        segments = parse_path(path)
    except PathError:
        return []
    return [v for obj in objects for v in values_at(obj, segments)]


def roundtrip_diagnostics(doc: YamlDocument, compiled: Any, case_values: CaseValues) -> list[Diagnostic]:
    """A warning wherever ``reverseExpression`` does not undo ``expression`` on the samples."""
    out = []
    for loc, key, patches in patch_lists(doc.data):
        plan = compiled.plans.get(key)
        if plan is None:
            continue
        by_index = {entry.index: entry for entry in plan.entries}
        for path, fwd, rev in _pairs(plan):
            sources = [patches[fwd].get("expression", ""), patches[rev].get("reverseExpression", "")]
            literals = [lit for s in sources for lit in lint.string_literals(s)]
            origin = "tenant" if plan.to_host_keyword == "expression" else "host"
            samples = roundtrip.samples_for(literals, _case_samples(case_values.get((*key, origin), ()), path),
                                            base64="atob(" in sources[0])
            context = {**compiled.context(*_SAMPLE_CONTEXT), "path": path}
            mismatch = roundtrip.check_roundtrip(by_index[fwd].expression, by_index[rev].reverse_expression,
                                                 samples, context)
            if mismatch is None:
                continue
            line, column = doc.position((*loc, rev, "reverseExpression"))
            out.append(Diagnostic(
                doc.filename, line, column, "warning", "roundtrip",
                f"reverseExpression does not undo expression on {path!r}: {mismatch.describe()}",
                "objects synced back must keep their original form, or they flip-flop between "
                "clusters: undo each step (strip an added prefix by its length, atob after btoa)",
            ))
    return out


def collect_case_values(dirs: Iterable[Path]) -> tuple[dict[Path, dict[tuple[str, str, str], list[Any]]], list[Diagnostic]]:
    """Objects of the declarative test cases, per config file, (side, resource) and cluster side."""
    values: dict[Path, dict[tuple[str, str, str], list[Any]]] = {}
    problems: list[Diagnostic] = []
    for root in dirs:
        for file in discover(Path(root)):
            try:
                cases = load_case_file(file)
            except CaseFileError as exc:
                problems.append(Diagnostic(str(file), 1, 1, "error", "test-case-invalid", exc.message))
                continue
            for case in cases:
                tenant, host = (case.input, case.expected) if case.direction == "to_host" else (case.expected, case.input)
                for origin, obj in (("tenant", tenant), ("host", host)):
                    if obj is not None:
                        values.setdefault(case.config, {}).setdefault((case.side, case.resource, origin), []).append(obj)
    return values, problems


def missing_sync(doc: YamlDocument) -> tuple[Diagnostic, bool]:
    """The diagnostic of a mapping with no top-level ``sync`` key, and whether checking stops.

    A platform config, a misspelt ``sync`` or a file with no vCluster key at all (sample data,
    say) is not checked further: the first two are errors (the patches the user meant are not
    being checked), the last a warning. A vCluster config that merely has no ``sync`` is
    validated as usual, with a warning that it has no patches to compile."""
    from .models import TenantConfig

    data = doc.data
    keys = [k for k in data if isinstance(k, str)]
    if str(data.get("apiVersion", "")).startswith("management.platform.sh/") or "platformHost" in data:
        line, column = doc.position(("platformHost" if "platformHost" in data else "apiVersion",), at_key=True)
        return Diagnostic(doc.filename, line, column, "error", "not-a-tenant-config",
                          "this is a platform config, not a tenant-cluster config (no top-level 'sync' key)",
                          hint="check it with `syncpatch config validate FILE`"), True
    close = difflib.get_close_matches("sync", keys, n=1, cutoff=0.6)
    if close:
        line, column = doc.position((close[0],), at_key=True)
        return Diagnostic(doc.filename, line, column, "error", "no-sync-section",
                          f"unknown top-level key {close[0]!r}: the patches live under 'sync'",
                          hint="did you mean 'sync'?", length=len(close[0])), True
    known = {field.alias or name for name, field in TenantConfig.model_fields.items()}
    if not known & set(keys):
        return Diagnostic(doc.filename, 1, 1, "warning", "no-sync-section",
                          "not a tenant-cluster config (no top-level 'sync' key, no vCluster section): "
                          "nothing to compile"), True
    return Diagnostic(doc.filename, 1, 1, "warning", "no-sync-section",
                      "no top-level 'sync' key: this file has no patches to compile"), False
