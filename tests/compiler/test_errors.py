"""One error family: every public error derives from ``syncpatch.SyncpatchError``."""

from __future__ import annotations

import pickle

import pytest

import syncpatch
from syncpatch.grammar.build import parse
from syncpatch.grammar.errors import GrammarError
from syncpatch.loader import ArtifactError
from syncpatch.patches.artifact import ArtifactBuildError
from syncpatch.patches.compile import ConfigError
from syncpatch.platformconfig.errors import ConfigInvalid
from syncpatch.runtime import errors, values


@pytest.mark.parametrize("cls", [syncpatch.CompileError, syncpatch.EvaluationError, syncpatch.LimitExceeded,
                                 syncpatch.PatchError, ConfigError, ConfigInvalid, ArtifactError,
                                 ArtifactBuildError])
def test_every_public_error_has_one_root(cls: type) -> None:
    assert issubclass(cls, syncpatch.SyncpatchError)


def test_there_is_one_limit_exceeded() -> None:
    assert syncpatch.LimitExceeded is errors.LimitExceeded
    assert not hasattr(values, "LimitExceeded")
    with pytest.raises(syncpatch.LimitExceeded) as info:
        syncpatch.compile_expression("while (true) {}", budgets=syncpatch.Budgets(steps=1000))("x")
    assert info.value.budget == "steps"
    again = pickle.loads(pickle.dumps(info.value))
    assert (type(again), again.budget, again.js_name, str(again)) == (
        syncpatch.LimitExceeded, "steps", info.value.js_name, str(info.value))


def test_a_grammar_error_reaches_callers_as_a_compile_error_with_the_same_text() -> None:
    source = "value +* 1"
    with pytest.raises(GrammarError) as grammar:
        parse(source, "t.js")
    with pytest.raises(syncpatch.CompileError) as compiled:
        syncpatch.compile_expression(source, origin="t.js")
    assert not isinstance(grammar.value, syncpatch.SyncpatchError)  # the grammar stage imports none of ours
    assert str(compiled.value) == str(grammar.value)
    assert (compiled.value.line, compiled.value.column) == (grammar.value.line, grammar.value.column)
    again = pickle.loads(pickle.dumps(compiled.value))
    assert type(again) is syncpatch.CompileError and str(again) == str(compiled.value)
