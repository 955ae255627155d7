"""A source of any size or shape gives a CompileError in JS terms with its position, through
both exits (``compile_expression`` and ``compile-patches``, whose refusal is its diagnostic),
never a parser or Python exception; the limits are documented in docs/security.md."""

from __future__ import annotations

from typing import Any

import pytest

from syncpatch import CompileError, compile_expression

from .sec_harness import assert_no_leak

SOURCES = {
    "unclosed-call": ("value.slice(2", "Unexpected end of input"),
    "unclosed-array": ("[1, 2", "Unexpected end of input"),
    "unclosed-conditional": ("a ? b", "Unexpected end of input"),
    "one-megabyte": ("'" + "a" * 1_000_000 + "'", "too long"),
    "deep-parentheses": ("(" * 3000 + "1" + ")" * 3000, "nested too deeply"),
    "deep-arrays": ("[" * 3000 + "]" * 3000, "nested too deeply"),
    "deep-blocks": ("{" * 3000 + "}" * 3000, "nested too deeply"),
    "deep-templates": ("`${" * 1000 + "1" + "}`" * 1000, "nested too deeply"),
    "deep-prefix-operators": ("!" * 5000 + "1", "nested too deeply"),
    "deep-negation": ("- " * 5000 + "1", "nested too deeply"),
    "regex-nested-counted-repeat": ("/(a{1000}){1000}/.test(value)", "regular expression too large"),
    "regex-ten-gigabytes": ("/(?:a{60000}){60000}/", "regular expression too large"),
    "regex-min-counts": ("value.match(/((?:[ab]{100,}){100}){100}/)", "regular expression too large"),
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_refused_in_js_terms(name: str, through: Any) -> None:
    source, words = SOURCES[name]
    with pytest.raises(CompileError) as info:
        through(source, None)
    first = str(info.value).splitlines()[0]
    assert words in first
    assert_no_leak(first)
    span = getattr(info.value, "span", None)  # (compile-patches places it in the config file)
    assert span is None or (span.line >= 1 and span.column >= 1)


#: operator chains far past what compiles (the compiled form would nest past its bound):
#: refused by the linear scan before parsing, at the operator past the limit
CHAINS = {
    "sum-20000": "1" + "+1" * 20_000,
    "and-10000": "value" + " && value" * 10_000,
    "optional-2000": "value" + "?.a" * 2000,
    "conditional-3000": "value ? 1 : " * 3000 + "2",
    "members-30000": "value" + ".a" * 30_000,
}


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_long_operator_chains_are_refused_before_parsing(name: str) -> None:
    from syncpatch.compiler.emit import MAX_CHAIN

    with pytest.raises(CompileError) as info:
        compile_expression(CHAINS[name])
    first = str(info.value).splitlines()[0]
    assert f"more than {MAX_CHAIN} operators in one chain" in first
    assert info.value.span.line == 1 and info.value.span.column > MAX_CHAIN  # where the chain passed the limit


def test_separators_and_brackets_end_a_chain() -> None:
    many = ";".join(["value + 1"] * 500) + "; [" + ", ".join(["1 + 1"] * 500) + "].length"
    assert compile_expression(many)(1) == 500
    assert compile_expression("(" + " + ".join(["(1 + 1)"] * 150) + ")")(None) == 300


def test_strings_and_comments_do_not_count_as_nesting() -> None:
    src = "'" + "(" * 500 + "' + \"" + "[" * 500 + "\" /* " + "{" * 500 + " */"
    assert compile_expression(src)(None) == "(" * 500 + "[" * 500


#: patterns built at run time: refused before the engine unrolls them (a LimitExceeded that
#: names the regex budget and why), in milliseconds, through both exits
RUNTIME_PATTERNS = ["new RegExp('(a{1000}){1000}')", "'a'.match('(?:a{60000}){60000}')",
                    "try { new RegExp('(?:[a-z]{400}){400}') } catch (e) { 'caught' }"]


@pytest.mark.parametrize("src", RUNTIME_PATTERNS)
def test_regex_built_at_run_time_is_bounded(src: str, through: Any) -> None:
    from syncpatch import LimitExceeded

    fn = through(src, None)
    with pytest.raises(LimitExceeded) as info:
        fn(None, None)
    assert info.value.budget == "regex"
    assert "regular expression too large" in str(info.value)
    assert_no_leak(str(info.value))


def test_bounded_repeats_that_do_not_unroll_still_compile() -> None:
    """Only the minimum of a counted repeat is unrolled: wide ranges stay allowed."""
    assert compile_expression("/^(?:x{1,3000}){1,3000}$/.test(value) && /a{99999}/.test('b') === false")("xx")
