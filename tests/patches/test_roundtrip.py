"""The round-trip check's pieces: JS-typed equality, sample order, and what counts as evidence."""

import math

import pytest

from syncpatch.patches.roundtrip import GENERATED_SAMPLES, check_roundtrip, js_equal, samples_for


def fn(f):
    return lambda value, context, *, value_exists=True: f(value)


@pytest.mark.parametrize("a, b, equal", [
    (1, 1.0, True), (True, 1, False), (0, False, False), ("1", 1, False), (None, None, True),
    (math.nan, math.nan, True), ({"a": [1, "x"]}, {"a": [1, "x"]}, True), ({"a": 1}, {"a": 1, "b": 2}, False),
    ([1, 2], [2, 1], False),
])
def test_js_equal(a, b, equal):
    assert js_equal(a, b) is equal


def test_samples_case_values_first_then_generated_then_literals():
    samples = samples_for(["pre-"], ["from-case", "my-app"])
    assert samples[:2] == ["from-case", "my-app"]
    assert samples[2 : 1 + len(GENERATED_SAMPLES)] == [s for s in GENERATED_SAMPLES if s != "my-app"]
    assert samples[-3:] == ["pre-", "pre-my-app", "my-apppre-"]


def test_base64_values_get_encoded_samples():
    samples = samples_for([], base64=True)
    assert samples[0] == "bXktYXBw"  # btoa("my-app")
    assert "default" not in samples


def test_pair_that_cancels():
    assert check_roundtrip(fn(lambda v: "p-" + v), fn(lambda v: v[2:]), samples_for(["p-"]), {}) is None


def test_first_counter_example_is_reported():
    mismatch = check_roundtrip(fn(str.upper), fn(str.lower), ["abc", "Hello, World", "X"], {})
    assert (mismatch.sample, mismatch.forward, mismatch.back) == ("Hello, World", "HELLO, WORLD", "hello, world")
    assert mismatch.describe() == (
        'for value "Hello, World" expression gives "HELLO, WORLD", '
        'and reverseExpression turns that into "hello, world"')


def test_samples_the_forward_rejects_are_not_evidence():
    def forward(value):
        if not value.isdigit():
            raise ValueError("not a number")
        return int(value)

    assert check_roundtrip(fn(forward), fn(str), ["abc", "12"], {}) is None
    assert check_roundtrip(fn(lambda v: None), fn(lambda v: "x"), ["abc"], {}) is None  # deleted field


def test_reverse_that_deletes_a_host_only_field_is_fine():
    assert check_roundtrip(fn(lambda v: "added on the host"), fn(lambda v: None), ["a"], {}) is None


def test_reverse_that_throws_is_a_mismatch():
    def reverse(value):
        raise ValueError("boom")

    mismatch = check_roundtrip(fn(lambda v: v), fn(reverse), ["a"], {})
    assert mismatch.error == "boom"
    assert "reverseExpression fails on it: boom" in mismatch.describe()
